/// @file find_backend.cpp
/// tk_find_backend: loads the TileKit backend library the way a GPU launch does
/// (tk/detail/runtime/backend_loader.hpp) and says which file it loaded. Part of the bundle
/// (docs/deploy.md), where run-tests.sh runs it first.
///
/// Built with a compiled-in TK_BACKEND_LIBRARY_PATH that names no file, like a program whose build
/// tree is on another machine: the search must go on to the places beside the executable.
///
///   tk_find_backend [--expect <path>]
///
/// Exit status 0 when the backend loads (and, with --expect, is that file), 1 otherwise.
#include <tk/detail/runtime/backend_loader.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

int main(int argc, char **argv) {
  std::string expect;
  if (argc == 3 && std::string_view(argv[1]) == "--expect") {
    expect = argv[2];
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--expect <path of libtilekit_backend.so>]\n", argv[0]);
    return 2;
  }
  try {
    const auto lib = tk::detail::find_backend();
    std::printf("backend: %s (version %s; targets %s)\n", lib->path.c_str(), lib->version(),
                lib->targets());
    std::error_code error;
    if (!expect.empty() && !std::filesystem::equivalent(lib->path, expect, error)) {
      std::printf("FAIL: expected %s\n", expect.c_str());
      return 1;
    }
    return 0;
  } catch (const tk::error &e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
}

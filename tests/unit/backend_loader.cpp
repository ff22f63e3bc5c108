/// @file backend_loader.cpp
/// Loading the backend library at run time (tk/detail/runtime/backend_loader.hpp) and the OS layer
/// under it (tk/detail/runtime/os.hpp).
#include "expect_error.hpp"
#include "kernels/vector_add.hpp"

#include <catch2/catch.hpp>
#include <tk/detail/runtime/backend_loader.hpp>
#include <tk/detail/runtime/os.hpp>

#include "scoped_env.hpp"
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace os = tk::detail::os;
using tk_test::expect_error;

using tk_test::scoped_env;

namespace {} // namespace

TEST_CASE("os: the executable's directory is the test binary's", "[os]") {
  const std::string dir = os::executable_directory();
  REQUIRE(!dir.empty());
  CHECK(std::filesystem::equivalent(dir, TK_TEST_BINARY_DIR));
  CHECK(std::filesystem::exists(dir + os::path_separator + "tk_unit_tests"));
}

TEST_CASE("os: environment variables, unset and empty ones apart", "[os]") {
  {
    scoped_env unset("TK_TEST_OS_VARIABLE", nullptr);
    CHECK(!os::environment("TK_TEST_OS_VARIABLE"));
  }
  {
    scoped_env empty("TK_TEST_OS_VARIABLE", "");
    CHECK(os::environment("TK_TEST_OS_VARIABLE") == std::string());
  }
  scoped_env set("TK_TEST_OS_VARIABLE", "a value");
  CHECK(os::environment("TK_TEST_OS_VARIABLE") == std::string("a value"));
}

#ifdef __linux__ // names Linux libraries and loader messages

TEST_CASE("os: shared libraries open, give symbols and say why they do not", "[os]") {
  CHECK(os::library_file_name("tilekit_backend") == "libtilekit_backend.so");
  std::string why;
  void *missing = os::open_library("/nonexistent/libnothing.so", why);
  CHECK(missing == nullptr);
  CHECK(why.find("/nonexistent/libnothing.so") != std::string::npos);

  why.clear();
  void *libm = os::open_library("libm.so.6", why);
  REQUIRE(libm != nullptr);
  CHECK(why.empty());
  CHECK(os::find_symbol(libm, "cos") != nullptr);
  CHECK(os::find_symbol(libm, "tk_no_such_symbol") == nullptr);
  os::close_library(libm);
  os::close_library(nullptr); // allowed, like free(nullptr)
}

TEST_CASE("the backend is searched for next to the executable, in ../lib, then by name",
          "[backend_loader]") {
  const auto paths = tk::detail::backend_search_paths();
  REQUIRE(paths.size() >= 3);
  const std::string dir = os::executable_directory();
  CHECK(paths[paths.size() - 3] == dir + os::path_separator + "libtilekit_backend.so");
  CHECK(paths[paths.size() - 2] == dir + "/../lib/libtilekit_backend.so");
  CHECK(paths.back() == "libtilekit_backend.so");
}

TEST_CASE("TK_BACKEND_LIBRARY naming a missing file is reported, not searched around",
          "[backend_loader]") {
  scoped_env env("TK_BACKEND_LIBRARY", "/nonexistent/dir/libtilekit_backend.so");
  int line = 0;
  expect_error("backend_loader.cpp", line,
               "cannot load the TileKit backend from "
               "TK_BACKEND_LIBRARY=/nonexistent/dir/libtilekit_backend.so "
               "(/nonexistent/dir/libtilekit_backend.so: cannot open shared object file",
               [&] {
                 line = __LINE__ + 1;
                 tk::detail::find_backend();
               });
  expect_error("backend_loader.cpp", line,
               "); set TK_BACKEND_LIBRARY to the full path of libtilekit_backend.so or unset it "
               "to search the usual places; or run on the CPU interpreter with TK_INTERPRET=1 or "
               "launch_options{.backend = tk::backend::interpreter}",
               [&] {
                 line = __LINE__ + 1;
                 tk::detail::find_backend();
               });
}

TEST_CASE("a library that is not the backend is named as such", "[backend_loader]") {
  scoped_env env("TK_BACKEND_LIBRARY", "libm.so.6");
  int line = 0;
  expect_error("backend_loader.cpp", line,
               "cannot load the TileKit backend from TK_BACKEND_LIBRARY=libm.so.6 (it is not a "
               "TileKit backend library of this version: it lacks tk_compile)",
               [&] {
                 line = __LINE__ + 1;
                 tk::detail::find_backend();
               });
}

TEST_CASE("without TK_BACKEND_LIBRARY, every place tried is named", "[backend_loader]") {
  // The places, none holding the library: a path compiled in on another machine, the
  // executable's directory and ../lib beside it, and the plain name.
  const std::vector<std::string> paths = {
      "/nonexistent/build/lib/libtilekit_backend.so", "/nonexistent/bin/libtilekit_backend.so",
      "/nonexistent/bin/../lib/libtilekit_backend.so", "libtilekit_backend_missing.so"};
  int line = 0;
  expect_error("backend_loader.cpp", line,
               "cannot find the TileKit backend library libtilekit_backend.so, which compiles "
               "kernels for the GPU; tried:\n  /nonexistent/build/lib/libtilekit_backend.so: "
               "/nonexistent/build/lib/libtilekit_backend.so: cannot open shared object file: No "
               "such file or directory\n  /nonexistent/bin/libtilekit_backend.so: ",
               [&] {
                 line = __LINE__ + 1;
                 tk::detail::find_backend_in(paths);
               });
  expect_error("backend_loader.cpp", line,
               "\n  /nonexistent/bin/../lib/libtilekit_backend.so: /nonexistent/bin/../lib/"
               "libtilekit_backend.so: cannot open shared object file: No such file or directory"
               "\n  libtilekit_backend_missing.so: libtilekit_backend_missing.so: cannot open "
               "shared object file: No such file or directory\nset TK_BACKEND_LIBRARY to its full "
               "path (TileKit's build puts it in lib/ of the build directory); or run on the CPU "
               "interpreter with TK_INTERPRET=1",
               [&] {
                 line = __LINE__ + 1;
                 tk::detail::find_backend_in(paths);
               });
}

TEST_CASE("a place that is not the backend is passed over like a missing one", "[backend_loader]") {
  int line = 0;
  expect_error("backend_loader.cpp", line,
               "tried:\n  libm.so.6: it is not a TileKit backend library of this version: it "
               "lacks tk_compile\n  /nonexistent/libtilekit_backend.so: ",
               [&] {
                 line = __LINE__ + 1;
                 tk::detail::find_backend_in({"libm.so.6", "/nonexistent/libtilekit_backend.so"});
               });
}

#endif // __linux__

#ifdef TK_TEST_BACKEND_LIBRARY

TEST_CASE("the built backend loads through TK_BACKEND_LIBRARY and compiles", "[backend_loader]") {
  scoped_env env("TK_BACKEND_LIBRARY", TK_TEST_BACKEND_LIBRARY);
  const auto lib = tk::detail::find_backend();
  REQUIRE(lib);
  CHECK(lib->path == TK_TEST_BACKEND_LIBRARY);
  REQUIRE(lib->version() != nullptr);
  CHECK(std::string(lib->version()).size() > 0);
  const std::string targets = lib->targets();
  CHECK(targets.find("sm_90a") != std::string::npos);
  CHECK(std::string(lib->stage_name(TK_STAGE_PTX)) == "ptx");
  CHECK(lib->abi_version() == TK_BACKEND_ABI_VERSION);
  // The producer is looked up once per process: the same text, at the same address.
  const std::string producer = lib->producer();
  CHECK((producer.starts_with("ptxas /") || producer.starts_with("nvJitLink ") ||
         producer == "driver JIT"));
  CHECK(lib->producer() == lib->producer());

  const std::string ir =
      examples::vector_add.ir(static_cast<float *>(nullptr), static_cast<const float *>(nullptr),
                              static_cast<const float *>(nullptr), 4096, 1024);
  tk_compile_options options;
  lib->compile_options_init(&options);
  CHECK(options.num_warps == 4);
  options.target = "sm_90a";
  options.output = TK_OUTPUT_PTX;
  tk_compile_result *result = nullptr;
  const tk_status status = lib->compile(ir.data(), ir.size(), &options, &result);
  REQUIRE(result != nullptr);
  INFO(lib->result_error(result));
  CHECK(status == TK_OK);
  CHECK(lib->result_status(result) == TK_OK);
  CHECK(lib->result_kind(result) == TK_OUTPUT_PTX);
  CHECK(std::string(lib->result_kernel_name(result)) == "vector_add");
  CHECK(std::string(lib->result_target(result)) == "sm_90a");
  CHECK(lib->result_threads_per_block(result) == 128);
  std::size_t size = 0;
  const void *binary = lib->result_binary(result, &size);
  REQUIRE(binary != nullptr);
  CHECK(size > 0);
  CHECK(std::string(lib->result_ptx(result)).find(".entry vector_add") != std::string::npos);
  CHECK(lib->result_stage_ms(result, TK_STAGE_PARSE) >= 0);
  (void)lib->result_shared_bytes(result);
  (void)lib->result_dynamic_shared_bytes(result);
  (void)lib->result_producer_log(result);
  lib->result_free(result);

  // Malformed IR comes back as an error, not a crash.
  const std::string bad = "module { this is not IR }";
  result = nullptr;
  CHECK(lib->compile(bad.data(), bad.size(), &options, &result) == TK_ERROR_PARSE);
  REQUIRE(result != nullptr);
  CHECK(std::string(lib->result_error(result)).size() > 0);
  lib->result_free(result);

  // get_backend loads once per process; with TK_BACKEND_LIBRARY set it is this library, unless
  // an earlier test already made it fail.
  try {
    const tk::detail::backend_library &global = tk::detail::get_backend();
    CHECK(&global == &tk::detail::get_backend());
    CHECK(std::string(global.version()) == lib->version());
  } catch (const tk::error &e) {
    WARN("get_backend failed before this test set TK_BACKEND_LIBRARY: " << e.what());
  }
}

#ifdef __linux__

TEST_CASE("a missing compiled-in path falls through to <exe dir>/../lib", "[backend_loader]") {
  // The installed layout, bin/ and lib/, in a fresh directory, with the built library linked into
  // lib/; the first place is a path compiled in on a machine the program has left.
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() /
                        ("tk_backend_loader_" + std::to_string(static_cast<long>(::getpid())));
  fs::remove_all(root);
  fs::create_directories(root / "bin");
  fs::create_directories(root / "lib");
  fs::create_symlink(TK_TEST_BACKEND_LIBRARY, root / "lib" / "libtilekit_backend.so");
  const std::string bin = (root / "bin").string();
  const std::vector<std::string> paths = {"/nonexistent/build/lib/libtilekit_backend.so",
                                          bin + "/libtilekit_backend.so",
                                          bin + "/../lib/libtilekit_backend.so"};
  const auto lib = tk::detail::find_backend_in(paths);
  REQUIRE(lib);
  CHECK(lib->path == paths[2]);
  REQUIRE(lib->version() != nullptr);
  CHECK(std::string(lib->version()) ==
        tk::detail::find_backend_in({TK_TEST_BACKEND_LIBRARY})->version());
  fs::remove_all(root);
}

TEST_CASE("in the build tree the backend is found in ../lib", "[backend_loader]") {
  // tk_unit_tests sits in tests/ of the build directory, the library in lib/.
  const std::string beside = os::executable_directory() + "/../lib/libtilekit_backend.so";
  if (!std::filesystem::exists(beside) ||
      !std::filesystem::equivalent(beside, TK_TEST_BACKEND_LIBRARY)) {
    WARN("the built backend is not in ../lib of this test's directory; not checked");
    return;
  }
  scoped_env env("TK_BACKEND_LIBRARY", nullptr);
  const auto lib = tk::detail::find_backend();
  REQUIRE(lib);
  CHECK(lib->path == beside);
}

#endif // __linux__

#endif // TK_TEST_BACKEND_LIBRARY

#if defined(TK_TEST_FAKE_BACKEND_V1) && defined(TK_TEST_FAKE_BACKEND_V99)
TEST_CASE("a backend of another C ABI version is refused, naming both versions",
          "[backend_loader]") {
  for (const char *path : {TK_TEST_FAKE_BACKEND_V1, TK_TEST_FAKE_BACKEND_V99}) {
    scoped_env env("TK_BACKEND_LIBRARY", path);
    const std::string found = path == std::string(TK_TEST_FAKE_BACKEND_V1) ? "1" : "99";
    int line = 0;
    expect_error("backend_loader.cpp", line,
                 "cannot load the TileKit backend from TK_BACKEND_LIBRARY=" + std::string(path) +
                     " (it is a TileKit backend of another version (its C ABI is version " + found +
                     ", this program needs version " + std::to_string(TK_BACKEND_ABI_VERSION) +
                     "))",
                 [&] {
                   line = __LINE__ + 1;
                   tk::detail::find_backend();
                 });
  }
}
#endif

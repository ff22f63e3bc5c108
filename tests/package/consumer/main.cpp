/// @file main.cpp
/// A program using an installed TileKit (tests/package/): runs a kernel on the interpreter and
/// checks the result; when its tk::tk target compiled in a backend library
/// (TK_BACKEND_LIBRARY_PATH), loads the backend the way a GPU launch does and checks that it is
/// that file, inside the prefix given as the argument.
///
///   tk_package_consumer [--backend-in <dir> | --no-backend]
#include <tk/tk.hpp>

#ifdef TK_BACKEND_LIBRARY_PATH
#include <tk/detail/runtime/backend_loader.hpp>
#endif

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace {

auto axpy = tk::jit("axpy", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> y,
                               tk::f32 a, tk::i32 n, tk::constant<int> BLOCK) {
  auto offsets = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offsets < n;
  tk::store(out + offsets, a * tk::load(x + offsets, mask) + tk::load(y + offsets, mask), mask);
});

int run_kernel() {
  const int n = 1000, block = 256;
  std::vector<float> x(n), y(n), out(n + 1, -1.f);
  for (int k = 0; k < n; ++k)
    x[std::size_t(k)] = float(k), y[std::size_t(k)] = 0.5f * float(k % 7);
  axpy.interpret(tk::grid(tk::cdiv(n, block)), out.data(), x.data(), y.data(), 2.f, n, block);
  for (int k = 0; k < n; ++k) {
    const float expected = 2.f * x[std::size_t(k)] + y[std::size_t(k)];
    if (std::fabs(out[std::size_t(k)] - expected) > 1e-6f) {
      std::printf("FAIL: out[%d] = %g, expected %g\n", k, double(out[std::size_t(k)]),
                  double(expected));
      return 1;
    }
  }
  if (out[std::size_t(n)] != -1.f) {
    std::printf("FAIL: the kernel wrote past the end\n");
    return 1;
  }
  std::printf("interpreter: axpy of %d floats OK\n", n);
  return 0;
}

// Whether `path` lies inside `dir` (both made canonical).
bool inside(const std::filesystem::path &path, const std::filesystem::path &dir) {
  std::error_code error;
  const auto p = std::filesystem::weakly_canonical(path, error);
  const auto d = std::filesystem::weakly_canonical(dir, error);
  const auto rel = p.lexically_relative(d);
  return !rel.empty() && *rel.begin() != "..";
}

int check_backend(std::string_view mode, const char *dir) {
#ifdef TK_BACKEND_LIBRARY_PATH
  const std::string compiled_in = TK_BACKEND_LIBRARY_PATH;
  std::printf("TK_BACKEND_LIBRARY_PATH: %s\n", compiled_in.c_str());
  if (mode == "--no-backend") {
    std::printf("FAIL: a backend library path is compiled in, none was expected\n");
    return 1;
  }
  if (!std::filesystem::is_regular_file(compiled_in)) {
    std::printf("FAIL: %s is not a file\n", compiled_in.c_str());
    return 1;
  }
  if (dir && !inside(compiled_in, dir)) {
    std::printf("FAIL: %s is not inside %s\n", compiled_in.c_str(), dir);
    return 1;
  }
  try {
    const auto lib = tk::detail::find_backend();
    std::printf("backend loaded: %s (version %s)\n", lib->path.c_str(), lib->version());
    std::error_code error;
    if (!std::filesystem::equivalent(lib->path, compiled_in, error)) {
      std::printf("FAIL: the runtime loaded %s, not %s\n", lib->path.c_str(), compiled_in.c_str());
      return 1;
    }
  } catch (const tk::error &e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  return 0;
#else
  (void)dir;
  std::printf("no backend library compiled in\n");
  if (mode == "--backend-in") {
    std::printf("FAIL: a backend library path was expected\n");
    return 1;
  }
  return 0;
#endif
}

} // namespace

int main(int argc, char **argv) {
  const std::string_view mode = argc > 1 ? argv[1] : "";
  if (!(argc == 1 || (argc == 2 && mode == "--no-backend") ||
        (argc == 3 && mode == "--backend-in"))) {
    std::fprintf(stderr, "usage: %s [--backend-in <dir> | --no-backend]\n", argv[0]);
    return 2;
  }
  if (int status = run_kernel())
    return status;
  if (int status = check_backend(mode, argc == 3 ? argv[2] : nullptr))
    return status;
  std::printf("PASS\n");
  return 0;
}

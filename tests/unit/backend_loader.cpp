// Loading the backend library at run time (tk/detail/backend_loader.hpp) and the OS layer under it
// (tk/detail/os.hpp).
#include "expect_error.hpp"
#include "kernels/vector_add.hpp"

#include <catch2/catch.hpp>
#include <tk/detail/backend_loader.hpp>
#include <tk/detail/os.hpp>

#include "scoped_env.hpp"
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

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

TEST_CASE("the backend is searched for next to the executable, then by name", "[backend_loader]") {
  const auto paths = tk::detail::backend_search_paths();
  REQUIRE(paths.size() >= 2);
  CHECK(paths[paths.size() - 2] ==
        os::executable_directory() + os::path_separator + "libtilekit_backend.so");
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
  scoped_env env("TK_BACKEND_LIBRARY", nullptr);
  std::string tried;
  for (const std::string &path : tk::detail::backend_search_paths())
    tried += "\n  " + path + ": ";
  try {
    tk::detail::find_backend();
    WARN("the backend was found through the loader's search path; the error is not checked");
    return;
  } catch (const tk::error &) {
  }
  int line = 0;
  expect_error("backend_loader.cpp", line,
               "cannot find the TileKit backend library libtilekit_backend.so, which compiles "
               "kernels for the GPU; tried:\n  " +
                   tk::detail::backend_search_paths().front() + ": ",
               [&] {
                 line = __LINE__ + 1;
                 tk::detail::find_backend();
               });
  expect_error("backend_loader.cpp", line,
               "\n  libtilekit_backend.so: libtilekit_backend.so: cannot open shared object "
               "file: No such file or directory\nset TK_BACKEND_LIBRARY to its full path "
               "(TileKit's build puts it in lib/ of the build directory); or run on the CPU "
               "interpreter with TK_INTERPRET=1",
               [&] {
                 line = __LINE__ + 1;
                 tk::detail::find_backend();
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

#endif // TK_TEST_BACKEND_LIBRARY

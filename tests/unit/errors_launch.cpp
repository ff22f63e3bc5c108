/// @file errors_launch.cpp
/// Runtime errors raised when making or launching a kernel: one TEST_CASE per error, each checking
/// that a tk::error is thrown, what it says, and that it names the line of this file where the
/// kernel was launched (launch errors point at the `tk::grid`) or made (`tk::jit`).
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view this_file = "errors_launch.cpp";

auto store_kernel() {
  return tk::jit("fill", [](tk::ptr<float> out, tk::i32 n) {
    auto cols = tk::arange(0, 16);
    tk::store(out + cols, 1.0f, cols < n);
  });
}

} // namespace

TEST_CASE("errors: grid dimension zero or negative", "[errors]") {
  auto k = store_kernel();
  std::vector<float> buffer(16);
  float *out = buffer.data();
  int line = 0;
  SECTION("x is 0") {
    tk_test::expect_error(this_file, line,
                          "grid dimension x is 0; it must be between 1 and 2147483647", [&] {
                            line = __LINE__ + 1;
                            k.interpret(tk::grid(0), out, 16);
                          });
  }
  SECTION("y is 0") {
    tk_test::expect_error(this_file, line, "grid dimension y is 0; it must be between 1 and 65535",
                          [&] {
                            line = __LINE__ + 1;
                            k.interpret(tk::grid(4, 0), out, 16);
                          });
  }
  SECTION("z is -1") {
    tk_test::expect_error(this_file, line, "grid dimension z is -1; it must be between 1 and 65535",
                          [&] {
                            line = __LINE__ + 1;
                            k.interpret(tk::grid(4, 1, -1), out, 16);
                          });
  }
  SECTION("grid given as a braced list") {
    tk_test::expect_error(this_file, line, "grid dimension x is 0", [&] {
      line = __LINE__ + 1;
      k.launch({0}, {.backend = tk::backend::interpreter}, out, 16);
    });
  }
}

TEST_CASE("errors: grid dimension too large", "[errors]") {
  auto k = store_kernel();
  std::vector<float> buffer(16);
  float *out = buffer.data();
  int line = 0;
  SECTION("x above 2^31 - 1") {
    tk_test::expect_error(this_file, line,
                          "grid dimension x is 2147483648; it must be between 1 and 2147483647",
                          [&] {
                            line = __LINE__ + 1;
                            k.interpret(tk::grid(std::int64_t(1) << 31), out, 16);
                          });
  }
  SECTION("y above 65535") {
    tk_test::expect_error(this_file, line,
                          "grid dimension y is 65536; it must be between 1 and 65535", [&] {
                            line = __LINE__ + 1;
                            k.interpret(tk::grid(1, 65536), out, 16);
                          });
  }
  SECTION("z above 65535") {
    tk_test::expect_error(this_file, line, "grid dimension z is 100000", [&] {
      line = __LINE__ + 1;
      k.interpret(tk::grid(1, 1, 100000), out, 16);
    });
  }
}

TEST_CASE("errors: num_warps that is not a power of two up to 32", "[errors]") {
  auto k = store_kernel();
  std::vector<float> buffer(16);
  float *out = buffer.data();
  int line = 0;
  for (int warps : {3, 0, 64}) {
    DYNAMIC_SECTION("num_warps = " << warps) {
      const tk::launch_options options{.num_warps = warps, .backend = tk::backend::interpreter};
      tk_test::expect_error(this_file, line, "; it must be 1, 2, 4, 8, 16 or 32", [&] {
        line = __LINE__ + 1;
        k.launch(tk::grid(1), options, out, 16);
      });
    }
  }
}

TEST_CASE("errors: num_stages outside the backend's range", "[errors]") {
  // The interpreter refuses what the GPU's compiler would (<tk/backend.h>'s range).
  auto k = store_kernel();
  std::vector<float> buffer(16);
  float *out = buffer.data();
  int line = 0;
  for (int stages : {0, -1, 9, 1000}) {
    DYNAMIC_SECTION("num_stages = " << stages) {
      const tk::launch_options options{.num_stages = stages, .backend = tk::backend::interpreter};
      tk_test::expect_error(this_file, line,
                            "num_stages is " + std::to_string(stages) + "; it must be from 1 to 8",
                            [&] {
                              line = __LINE__ + 1;
                              k.launch(tk::grid(1), options, out, 16);
                            });
    }
  }
  for (int stages : {TK_NUM_STAGES_MIN, TK_NUM_STAGES_MAX}) {
    DYNAMIC_SECTION("num_stages = " << stages << " runs") {
      k.launch(tk::grid(1), {.num_stages = stages, .backend = tk::backend::interpreter}, out, 16);
      CHECK(buffer[3] == 1.0f);
    }
  }
}

TEST_CASE("errors: GPU launch with a null or misaligned pointer", "[errors]") {
  // Checked before anything else of the GPU path, so on machines without a GPU too.
  auto k = store_kernel();
  std::vector<float> buffer(16);
  int line = 0;
  tk_test::expect_error(this_file, line,
                        "launch argument 0 is a null pointer; a GPU kernel needs device memory "
                        "for every tk::ptr parameter",
                        [&] {
                          line = __LINE__ + 1;
                          k.launch(tk::grid(1), {.backend = tk::backend::gpu}, (float *)nullptr,
                                   16);
                        });
  float *misaligned = reinterpret_cast<float *>(reinterpret_cast<char *>(buffer.data()) + 1);
  tk_test::expect_error(this_file, line, "is not aligned to its element type (4 bytes)", [&] {
    line = __LINE__ + 1;
    k.launch(tk::grid(1), {.backend = tk::backend::gpu}, misaligned, 16);
  });
}

TEST_CASE("errors: GPU launch without a GPU runtime", "[errors]") {
  if (tk::gpu_available()) {
    WARN("this build has a GPU runtime; the error is not raised");
    return;
  }
  auto k = store_kernel();
  std::vector<float> buffer(16);
  float *out = buffer.data();
  int line = 0;
  SECTION("backend::gpu") {
    tk_test::expect_error(this_file, line,
                          "cannot launch kernel 'fill' on the GPU: " + tk::gpu_unavailable_reason(),
                          [&] {
                            line = __LINE__ + 1;
                            k.launch(tk::grid(1), {.backend = tk::backend::gpu}, out, 16);
                          });
  }
  SECTION("backend::automatic without TK_INTERPRET") {
    if (tk::interpret_requested())
      return; // TK_INTERPRET=1 selects the interpreter: nothing to report
    tk_test::expect_error(this_file, line, "TK_INTERPRET=1", [&] {
      line = __LINE__ + 1;
      k.launch(tk::grid(1), out, 16);
    });
  }
}

TEST_CASE("errors: integer launch argument out of range for its parameter", "[errors]") {
  int line = 0;
  std::vector<float> buffer(16);
  float *out = buffer.data();
  SECTION("int64 for tk::i32 (interpreter: the launch's line)") {
    auto k = store_kernel();
    tk_test::expect_error(this_file, line,
                          "launch argument 1: 5000000000 does not fit in the parameter's type i32",
                          [&] {
                            line = __LINE__ + 1;
                            k.interpret(tk::grid(1), out, std::int64_t(5000000000));
                          });
  }
  SECTION("int64 for tk::i32 (trace: the kernel's line)") {
    line = __LINE__ + 1;
    auto k = tk::jit("fill", [](tk::ptr<float> p, tk::i32 n) { tk::store(p, 1.0f, n > 0); });
    tk_test::expect_error(this_file, line,
                          "launch argument 1: 5000000000 does not fit in the parameter's type i32",
                          [&] { (void)k.ir(out, std::int64_t(5000000000)); });
  }
  SECTION("negative for tk::u32") {
    auto k = tk::jit("k", [](tk::u32 n) { (void)n; });
    tk_test::expect_error(this_file, line,
                          "launch argument 0: -1 does not fit in the parameter's type u32", [&] {
                            line = __LINE__ + 1;
                            k.interpret(tk::grid(1), -1);
                          });
  }
  SECTION("300 for tk::i8") {
    auto k = tk::jit("k", [](tk::i8 n) { (void)n; });
    tk_test::expect_error(this_file, line,
                          "launch argument 0: 300 does not fit in the parameter's type i8", [&] {
                            line = __LINE__ + 1;
                            k.interpret(tk::grid(1), 300);
                          });
  }
  SECTION("int64 for tk::constant<int>") {
    auto k = tk::jit("k", [](tk::constant<int> BLOCK) { (void)BLOCK; });
    tk_test::expect_error(this_file, line,
                          "launch argument 0: 4294967312 does not fit in the parameter's type i32",
                          [&] {
                            line = __LINE__ + 1;
                            k.interpret(tk::grid(1), (std::int64_t(1) << 32) + 16);
                          });
  }
}

TEST_CASE("errors: tk::jit kernel name that is not an identifier", "[errors]") {
  int line = 0;
  const auto body = [] {};
  for (const char *name : {"1st_kernel", "my-kernel", "", "add kernel"}) {
    DYNAMIC_SECTION("name \"" << name << "\"") {
      tk_test::expect_error(this_file, line,
                            std::string("tk::jit: kernel name \"") + name +
                                "\" must be a C identifier (letters, digits and '_', not "
                                "starting with a digit)",
                            [&] {
                              line = __LINE__ + 1;
                              auto k = tk::jit(name, body);
                              (void)k;
                            });
    }
  }
}

TEST_CASE("errors: error in a kernel body reported through launch", "[errors]") {
  // The body runs once per program instance; the error names the body's line, not the launch's.
  int line = 0;
  auto k = tk::jit("k", [&](tk::ptr<float> out, tk::constant<int> BLOCK) {
    line = __LINE__ + 1;
    auto cols = tk::arange(0, BLOCK);
    tk::store(out + cols, 0.0f);
  });
  std::vector<float> buffer(64);
  tk_test::expect_error(this_file, line, "which is not a power of two", [&] {
    k.launch(tk::grid(4), {.backend = tk::backend::interpreter}, buffer.data(),
             tk::constant<int>(12));
  });
}

TEST_CASE("launch options: the options that decide the code come from launch_options",
          "[errors][launch]") {
  const tk::launch_options o{
      .num_warps = 8, .num_stages = 2, .fp_fusion = false, .target_arch = "sm_80"};
  const tk::detail::code_options code = tk::detail::code_options_of(o);
  CHECK(code.num_warps == 8);
  CHECK(code.num_stages == 2);
  CHECK_FALSE(code.fp_fusion);
  CHECK(code.tensor_maps); // a launch may take tensor maps; it falls back when they do not fit
  CHECK(code.target_arch.name == "sm_80");
  CHECK(std::string(code.target_arch.source) == "launch_options::target_arch");
  CHECK(tk::detail::code_options_of({}) ==
        tk::detail::code_options{.target_arch = tk::detail::requested_target_arch("")});
}

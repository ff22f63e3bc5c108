/// @file errors_interpreter.cpp
/// What the interpreter checks at run time: accesses outside the buffer a pointer argument was
/// passed as (a std::vector, std::span or tk::device_buffer), and in checked mode
/// (TK_INTERPRET_CHECK=1 or launch_options::checked) signed integer overflow and misaligned
/// addresses. Each error names the user's line, the lane and what went wrong.
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"
#include "scoped_env.hpp"

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace {

constexpr std::string_view this_file = "errors_interpreter.cpp";
constexpr tk::launch_options checked{.backend = tk::backend::interpreter, .checked = true};

} // namespace

TEST_CASE("interpreter: an unmasked store past the end of a std::vector", "[errors]") {
  int line = 0;
  std::vector<float> small(16, 0.0f);
  std::vector<float> after(16, 0.0f); // what an unchecked store could have overwritten
  auto k = tk::jit("k", [&](tk::ptr<float> p) {
    line = __LINE__ + 1;
    tk::store(p + tk::arange(0, 1024), 1.0f);
  });
  tk_test::expect_error(this_file, line,
                        "tk::store: lane 16 (index [16] of the [1024] block) writes out of "
                        "bounds: element 16 of launch argument 0, a buffer of 16 f32 elements; "
                        "mask the lane off",
                        [&] { k.interpret(tk::grid(1), small); });
  CHECK(small[15] == 1.0f); // the lanes before the first bad one were written
  CHECK(after == std::vector<float>(16, 0.0f));
}

TEST_CASE("interpreter: loads outside a buffer argument", "[errors]") {
  int line = 0;
  std::vector<float> out(16, 0.0f);
  const std::vector<float> in(20, 1.0f);
  SECTION("past the end of a const std::span") {
    auto k = tk::jit("k", [&](tk::ptr<float> o, tk::ptr<const float> p) {
      auto i = tk::arange(0, 16);
      line = __LINE__ + 1;
      tk::store(o + i, tk::load(p + i * 2));
    });
    tk_test::expect_error(
        this_file, line,
        "tk::load: lane 10 (index [10] of the [16] block) reads out of bounds: element 20 of "
        "launch argument 1, a buffer of 20 f32 elements",
        [&] { k.interpret(tk::grid(1), out, std::span<const float>(in)); });
  }
  SECTION("before the start of a const std::vector, through a 2-D block") {
    auto k = tk::jit("k", [&](tk::ptr<float> o, tk::ptr<const float> p) {
      auto rows = tk::arange(0, 4)(tk::_, tk::newaxis), cols = tk::arange(0, 4)(tk::newaxis, tk::_);
      auto offsets = rows * 4 + cols;
      line = __LINE__ + 1;
      auto x = tk::load(p + offsets - 1);
      tk::store(o + offsets, x);
    });
    tk_test::expect_error(
        this_file, line,
        "tk::load: lane 0 (index [0, 0] of the [4, 4] block) reads out of bounds: element -1 of "
        "launch argument 1, a buffer of 20 f32 elements",
        [&] { k.interpret(tk::grid(1), out, in); });
  }
  SECTION("any access to an empty buffer") {
    const std::span<float> empty(out.data(), 0);
    auto k = tk::jit("k", [&](tk::ptr<float> o) {
      line = __LINE__ + 1;
      tk::store(o, 2.0f);
    });
    tk_test::expect_error(this_file, line,
                          "tk::store: the scalar writes out of bounds: element 0 of launch "
                          "argument 0, a buffer of 0 f32 elements",
                          [&] { k.interpret(tk::grid(1), empty); });
  }
  SECTION("a pointer moved inside the kernel, then selected with tk::where") {
    auto k = tk::jit("k", [&](tk::ptr<float> o, tk::ptr<const float> p) {
      auto i = tk::arange(0, 16);
      auto base = p + 8;
      auto ptrs = tk::where(i < 8, base + i, base + 2 * i);
      line = __LINE__ + 1;
      tk::store(o + i, tk::load(ptrs));
    });
    tk_test::expect_error(this_file, line,
                          "tk::load: lane 8 (index [8] of the [16] block) reads out of bounds: "
                          "element 24 of launch argument 1",
                          [&] { k.interpret(tk::grid(1), out, in); });
  }
}

TEST_CASE("interpreter: accesses within buffer arguments are not errors", "[interpreter]") {
  std::vector<float> out(16, 0.0f);
  std::vector<float> in(32);
  for (std::size_t k = 0; k < in.size(); ++k)
    in[k] = float(k);
  SECTION("masked-off lanes may point anywhere; pointers may move inside the kernel") {
    auto k = tk::jit("k", [](tk::ptr<float> o, tk::ptr<const float> p, tk::i32 n) {
      auto i = tk::arange(0, 64);
      auto x = tk::load(p + 16 + i, i < n, -1.0f);
      tk::store(o + i, x, i < n);
    });
    k.interpret(tk::grid(1), out, std::as_const(in), 16);
    CHECK(out[0] == 16.0f);
    CHECK(out[15] == 31.0f);
  }
  SECTION("a raw pointer beside a buffer is not checked against the buffer") {
    std::vector<float> raw(64, 3.0f);
    auto k = tk::jit("k", [](tk::ptr<float> o, tk::ptr<const float> p) {
      auto i = tk::arange(0, 16);
      tk::store(o + i, tk::load(p + 48 + i));
    });
    k.interpret(tk::grid(1), std::span<float>(out), static_cast<const float *>(raw.data()));
    CHECK(out == std::vector<float>(16, 3.0f));
  }
  SECTION("every program instance of a launch sees the same buffers") {
    auto k = tk::jit("k", [](tk::ptr<float> o, tk::ptr<const float> p) {
      auto i = tk::program_id(0) * 4 + tk::arange(0, 4);
      tk::store(o + i, tk::load(p + i) * 2.0f);
    });
    k.launch(tk::grid(4), checked, out, std::as_const(in));
    CHECK(out[15] == 30.0f);
  }
}

TEST_CASE("interpreter: checked mode reports signed integer overflow", "[errors]") {
  int line = 0;
  std::vector<std::int32_t> out(64, 0);
  auto k = tk::jit("k", [&](tk::ptr<std::int32_t> o, tk::i32 stride) {
    auto pid = tk::program_id(0);
    line = __LINE__ + 1;
    auto offset = pid * stride;
    tk::store(o + pid, offset);
  });
  const char *message = "integer overflow in the scalar: 2 * 1073741824 does not fit in i32 and "
                        "wraps to -2147483648 (TK_INTERPRET_CHECK); the GPU wraps it too";
  SECTION("launch_options::checked") {
    tk_test::expect_error(this_file, line, message,
                          [&] { k.launch(tk::grid(3), checked, out, 1 << 30); });
  }
  SECTION("TK_INTERPRET_CHECK=1") {
    tk_test::scoped_env env("TK_INTERPRET_CHECK", "1");
    tk_test::expect_error(this_file, line, message,
                          [&] { k.interpret(tk::grid(3), out.data(), 1 << 30); });
  }
  SECTION("a lane of a block") {
    auto k2 = tk::jit("k2", [&](tk::ptr<std::int32_t> o, tk::i32 n) {
      auto i = tk::arange(0, 8);
      line = __LINE__ + 1;
      auto big = i * n;
      tk::store(o + i, big);
    });
    tk_test::expect_error(this_file, line,
                          "integer overflow in lane 4 (index [4] of the [8] block): 4 * "
                          "536870912 does not fit in i32",
                          [&] { k2.launch(tk::grid(1), checked, out, 1 << 29); });
  }
  SECTION("i64 and i8 too, unsigned never") {
    auto k3 = tk::jit("k3", [&](tk::ptr<std::int32_t> o, tk::i64 a, tk::i8 b, tk::u32 c) {
      tk::store(o + 1, tk::cast<std::int32_t>(c * c));
      line = __LINE__ + 1;
      auto wide = a + a;
      tk::store(o, tk::cast<std::int32_t>(wide + b));
    });
    tk_test::expect_error(this_file, line,
                          "integer overflow in the scalar: 9223372036854775807 + "
                          "9223372036854775807 does not fit in i64",
                          [&] {
                            k3.launch(tk::grid(1), checked, out, INT64_MAX, std::int8_t(1),
                                      std::uint32_t(1) << 31);
                          });
    auto k4 = tk::jit("k4", [&](tk::ptr<std::int32_t> o, tk::i8 b) {
      line = __LINE__ + 1;
      tk::store(o, tk::cast<std::int32_t>(b * b));
    });
    tk_test::expect_error(this_file, line,
                          "integer overflow in the scalar: 100 * 100 does not "
                          "fit in i8 and wraps to 16",
                          [&] { k4.launch(tk::grid(1), checked, out, std::int8_t(100)); });
  }
}

TEST_CASE("interpreter: without checked mode, signed integers wrap", "[interpreter]") {
  std::vector<std::int32_t> out(4, 0);
  auto k = tk::jit("k", [](tk::ptr<std::int32_t> o, tk::i32 stride) {
    auto pid = tk::program_id(0);
    tk::store(o + pid, pid * stride);
  });
  tk_test::scoped_env env("TK_INTERPRET_CHECK", "off");
  k.interpret(tk::grid(4), out, 1 << 30);
  CHECK(out == std::vector<std::int32_t>{0, 1 << 30, INT32_MIN, -(1 << 30)});
}

TEST_CASE("interpreter: checked mode reports misaligned addresses", "[errors]") {
  int line = 0;
  std::vector<float> out(4, 0.0f);
  std::vector<std::uint8_t> bytes(64, 0);
  auto k = tk::jit("k", [&](tk::ptr<float> o, tk::ptr<const std::int8_t> p) {
    auto q = tk::cast<const float *>(p + 1);
    line = __LINE__ + 1;
    tk::store(o, tk::load(q));
  });
  const auto *raw = reinterpret_cast<const std::int8_t *>(bytes.data());
  tk_test::expect_error(this_file, line, "tk::load: the scalar reads address ",
                        [&] { k.launch(tk::grid(1), checked, out, raw); });
  tk_test::expect_error(this_file, line,
                        ", which is not aligned to its element type (f32, 4 bytes); the GPU "
                        "faults on a misaligned access",
                        [&] { k.launch(tk::grid(1), checked, out, raw); });
  k.interpret(tk::grid(1), out, raw); // unchecked: read as the CPU reads it
  CHECK(out[0] == 0.0f);
}

TEST_CASE("TK_INTERPRET_CHECK: the values it accepts", "[interpreter]") {
  for (const char *on : {"1", "true", "TRUE", "Yes", "on", "ON"}) {
    tk_test::scoped_env env("TK_INTERPRET_CHECK", on);
    CHECK(tk::detail::interpret_check_requested());
  }
  for (const char *off : {"0", "false", "No", "OFF", ""}) {
    tk_test::scoped_env env("TK_INTERPRET_CHECK", off);
    CHECK_FALSE(tk::detail::interpret_check_requested());
  }
  tk_test::scoped_env unset("TK_INTERPRET_CHECK", nullptr);
  CHECK_FALSE(tk::detail::interpret_check_requested());
  tk_test::scoped_env other("TK_INTERPRET_CHECK", "maybe"); // warns on stderr, counts as off
  CHECK_FALSE(tk::detail::interpret_check_requested());
}

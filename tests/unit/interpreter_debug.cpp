/// @file interpreter_debug.cpp
/// tk::device_print, tk::device_assert, tk::debug_barrier, tk::gdc_wait and
/// tk::gdc_launch_dependents, the compiler hints and the memory
/// hints on the interpreter: the lines device_print writes to stdout (Triton's format, as the
/// GPU's vprintf writes them: the program id, the element's index padded to its dimension's
/// width, the prefix made to end in ": ", `(operand n) ` with several values, printf's
/// conversion for the type); device_assert off by default, on with launch_options::debug or
/// TK_DEBUG=1, then a tk::error at the assert's line naming the message, the program and the
/// lane; hints and cache qualifiers leaving every value as it is. Their errors are in
/// errors_debug.cpp, their IR in ir_debug.cpp.
///
/// The interpreter's behaviour only: in the GPU build of the numerics tests (TK_TEST_ON_GPU)
/// this file is empty.
#include "expect_error.hpp"
#include "interpreter_support.hpp"
#include "scoped_env.hpp"

#if !defined(TK_TEST_ON_GPU)

#if !defined(_WIN32)
#include "temp_files.hpp"
#endif

#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

constexpr std::string_view this_file = "interpreter_debug.cpp";

constexpr tk::launch_options debug_on{.backend = tk::backend::interpreter, .debug = true};

#if !defined(_WIN32)

/// What `body` prints on stdout, as lines.
template <class Body> std::vector<std::string> printed_lines(Body &&body) {
  const std::string text = tk_test::capture_stdout(body);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

/// "pid (0, 0, 0) idx ( 3)" and the like: `index` printed with printf's `%<width>u`.
std::string head(std::vector<int> index, std::vector<int> widths, std::string pid = "0, 0, 0") {
  std::string s = "pid (" + pid + ") idx (";
  for (std::size_t d = 0; d < index.size(); ++d) {
    char field[32];
    std::snprintf(field, sizeof field, "%*d", widths[d], index[d]);
    s += (d ? ", " : "") + std::string(field);
  }
  return s + ")";
}

#endif

} // namespace

#if !defined(_WIN32)

TEST_CASE("device_print: a 1-D block, one line per element, the index padded to the size",
          "[debug][print]") {
  std::vector<std::int32_t> in(16);
  for (int i = 0; i < 16; ++i)
    in[std::size_t(i)] = 3 * i - 20;
  SECTION("16 elements: two-digit indices") {
    auto k = tk::jit("print16", [](tk::ptr<const std::int32_t> p) {
      tk::device_print("x", tk::load(p + tk::arange(0, 16)));
    });
    const auto lines = printed_lines([&] { k.interpret(tk::grid(1), std::as_const(in)); });
    REQUIRE(lines.size() == 16);
    CHECK(lines[0] == "pid (0, 0, 0) idx ( 0) x: -20");
    CHECK(lines[3] == "pid (0, 0, 0) idx ( 3) x: -11");
    CHECK(lines[15] == "pid (0, 0, 0) idx (15) x: 25");
    for (int i = 0; i < 16; ++i)
      CHECK(lines[std::size_t(i)] == head({i}, {2}) + " x: " + std::to_string(3 * i - 20));
  }
  SECTION("8 elements: one digit") {
    auto k = tk::jit("print8", [](tk::ptr<const std::int32_t> p) {
      tk::device_print("x", tk::load(p + tk::arange(0, 8)));
    });
    const auto lines = printed_lines([&] { k.interpret(tk::grid(1), std::as_const(in)); });
    REQUIRE(lines.size() == 8);
    CHECK(lines[0] == "pid (0, 0, 0) idx (0) x: -20");
    CHECK(lines[7] == "pid (0, 0, 0) idx (7) x: 1");
  }
  SECTION("1024 elements: four digits (ceil(log10(1024)))") {
    auto k = tk::jit("print1024", [](tk::ptr<const std::int32_t> p) {
      tk::device_print("i", tk::arange(0, 1024));
      (void)p;
    });
    const auto lines = printed_lines([&] { k.interpret(tk::grid(1), std::as_const(in)); });
    REQUIRE(lines.size() == 1024);
    CHECK(lines[0] == "pid (0, 0, 0) idx (   0) i: 0");
    CHECK(lines[99] == "pid (0, 0, 0) idx (  99) i: 99");
    CHECK(lines[1023] == "pid (0, 0, 0) idx (1023) i: 1023");
  }
}

TEST_CASE("device_print: 2-D and 3-D blocks in row-major order, each index its own width",
          "[debug][print]") {
  SECTION("[2, 16]") {
    auto k = tk::jit("print2d", [] {
      auto rows = tk::arange(0, 2)(tk::_, tk::newaxis);
      auto cols = tk::arange(0, 16)(tk::newaxis, tk::_);
      tk::device_print("v", rows * 16 + cols);
    });
    const auto lines = printed_lines([&] { k.interpret(tk::grid(1)); });
    REQUIRE(lines.size() == 32);
    CHECK(lines[0] == "pid (0, 0, 0) idx (0,  0) v: 0");
    CHECK(lines[17] == "pid (0, 0, 0) idx (1,  1) v: 17");
    CHECK(lines[31] == "pid (0, 0, 0) idx (1, 15) v: 31");
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 16; ++c)
        CHECK(lines[std::size_t(r * 16 + c)] ==
              head({r, c}, {1, 2}) + " v: " + std::to_string(r * 16 + c));
  }
  SECTION("[128, 2, 4]") {
    auto k = tk::jit("print3d", [] {
      auto a = tk::arange(0, 128)(tk::_, tk::newaxis, tk::newaxis);
      auto b = tk::arange(0, 2)(tk::newaxis, tk::_, tk::newaxis);
      auto c = tk::arange(0, 4)(tk::newaxis, tk::newaxis, tk::_);
      tk::device_print("", a * 8 + b * 4 + c);
    });
    const auto lines = printed_lines([&] { k.interpret(tk::grid(1)); });
    REQUIRE(lines.size() == 1024);
    // An empty prefix becomes ": " (no leading space: it is only two characters).
    CHECK(lines[0] == "pid (0, 0, 0) idx (  0, 0, 0): 0");
    CHECK(lines[6] == "pid (0, 0, 0) idx (  0, 1, 2): 6");
    CHECK(lines[1023] == "pid (0, 0, 0) idx (127, 1, 3): 1023");
  }
}

TEST_CASE("device_print: several values print one after the other, each line naming its operand",
          "[debug][print]") {
  auto k = tk::jit("print_two", [] {
    auto i = tk::arange(0, 4);
    auto twice = tk::cast<float>(i) * 2.5f;
    tk::device_print("vals", i, twice);
  });
  const auto lines = printed_lines([&] { k.interpret(tk::grid(1)); });
  const std::vector<std::string> want = {
      "pid (0, 0, 0) idx (0) vals: (operand 0) 0",
      "pid (0, 0, 0) idx (1) vals: (operand 0) 1",
      "pid (0, 0, 0) idx (2) vals: (operand 0) 2",
      "pid (0, 0, 0) idx (3) vals: (operand 0) 3",
      "pid (0, 0, 0) idx (0) vals: (operand 1) 0.000000",
      "pid (0, 0, 0) idx (1) vals: (operand 1) 2.500000",
      "pid (0, 0, 0) idx (2) vals: (operand 1) 5.000000",
      "pid (0, 0, 0) idx (3) vals: (operand 1) 7.500000",
  };
  CHECK(lines == want);
  // Scalars among blocks print with an empty index.
  auto mixed = tk::jit("print_mixed",
                       [](tk::i32 n) { tk::device_print("n and i", n, tk::arange(0, 2), n * 2); });
  const auto mixed_lines = printed_lines([&] { mixed.interpret(tk::grid(1), 5); });
  const std::vector<std::string> mixed_want = {
      "pid (0, 0, 0) idx () n and i: (operand 0) 5",
      "pid (0, 0, 0) idx (0) n and i: (operand 1) 0",
      "pid (0, 0, 0) idx (1) n and i: (operand 1) 1",
      "pid (0, 0, 0) idx () n and i: (operand 2) 10",
  };
  CHECK(mixed_lines == mixed_want);
}

TEST_CASE("device_print: each type with printf's conversion, signed or not as its C++ type",
          "[debug][print]") {
  const std::vector<std::int8_t> i8{-5, 127};
  const std::vector<std::uint8_t> u8{200, 7};
  const std::vector<std::int16_t> i16{-300, 2};
  const std::vector<std::uint32_t> u32{4294967295u, 1};
  const std::vector<std::int64_t> i64{std::numeric_limits<std::int64_t>::min(), -1};
  const std::vector<std::uint64_t> u64{std::numeric_limits<std::uint64_t>::max(), 3};
  const std::vector<tk::half> f16{tk::half(1.5f), tk::half(-0.25f)};
  const std::vector<double> f64{1e10, -2.0 / 3.0};
  auto k =
      tk::jit("print_types",
              [](tk::ptr<const std::int8_t> pi8, tk::ptr<const std::uint8_t> pu8,
                 tk::ptr<const std::int16_t> pi16, tk::ptr<const std::uint32_t> pu32,
                 tk::ptr<const std::int64_t> pi64, tk::ptr<const std::uint64_t> pu64,
                 tk::ptr<const tk::half> pf16, tk::ptr<const double> pf64, tk::i32 n, tk::u32 m) {
                auto offs = tk::arange(0, 2);
                tk::device_print("i8", tk::load(pi8 + offs));
                tk::device_print("u8", tk::load(pu8 + offs));
                tk::device_print("i16", tk::load(pi16 + offs));
                tk::device_print("u32", tk::load(pu32 + offs));
                tk::device_print("i64", tk::load(pi64 + offs));
                tk::device_print("u64", tk::load(pu64 + offs));
                tk::device_print("bool", offs < 1);
                tk::device_print("f16", tk::load(pf16 + offs));
                tk::device_print("f64", tk::load(pf64 + offs));
                tk::device_print("f32", tk::cast<float>(offs) / 8.0f);
                tk::device_print("n", n); // scalars: an empty index
                tk::device_print("m", m);
              });
  const auto lines = printed_lines(
      [&] { k.interpret(tk::grid(1), i8, u8, i16, u32, i64, u64, f16, f64, -7, 4000000000u); });
  const std::vector<std::string> want = {
      "pid (0, 0, 0) idx (0) i8: -5",
      "pid (0, 0, 0) idx (1) i8: 127",
      "pid (0, 0, 0) idx (0) u8: 200",
      "pid (0, 0, 0) idx (1) u8: 7",
      "pid (0, 0, 0) idx (0) i16: -300",
      "pid (0, 0, 0) idx (1) i16: 2",
      "pid (0, 0, 0) idx (0) u32: 4294967295",
      "pid (0, 0, 0) idx (1) u32: 1",
      "pid (0, 0, 0) idx (0) i64: -9223372036854775808",
      "pid (0, 0, 0) idx (1) i64: -1",
      "pid (0, 0, 0) idx (0) u64: 18446744073709551615",
      "pid (0, 0, 0) idx (1) u64: 3",
      "pid (0, 0, 0) idx (0) bool: 1",
      "pid (0, 0, 0) idx (1) bool: 0",
      "pid (0, 0, 0) idx (0) f16: 1.500000",
      "pid (0, 0, 0) idx (1) f16: -0.250000",
      "pid (0, 0, 0) idx (0) f64: 10000000000.000000",
      "pid (0, 0, 0) idx (1) f64: -0.666667",
      "pid (0, 0, 0) idx (0) f32: 0.000000",
      "pid (0, 0, 0) idx (1) f32: 0.125000",
      "pid (0, 0, 0) idx () n: -7",
      "pid (0, 0, 0) idx () m: 4000000000",
  };
  CHECK(lines == want);
}

TEST_CASE("device_print: pointers print as %p does", "[debug][print]") {
  std::vector<float> buffer(4);
  auto k = tk::jit("print_pointers", [](tk::ptr<float> p) {
    tk::device_print("p", p + tk::arange(0, 4));
    tk::device_print("base", p);
  });
  const auto lines = printed_lines([&] { k.interpret(tk::grid(1), buffer); });
  REQUIRE(lines.size() == 5);
  for (int i = 0; i < 4; ++i) {
    char address[64];
    std::snprintf(address, sizeof address, "%p", static_cast<void *>(buffer.data() + i));
    CHECK(lines[std::size_t(i)] == head({i}, {1}) + " p: " + address);
  }
  char base[64];
  std::snprintf(base, sizeof base, "%p", static_cast<void *>(buffer.data()));
  CHECK(lines[4] == std::string("pid (0, 0, 0) idx () base: ") + base);
}

TEST_CASE("device_print: tk::hex prints each value's bits, zero-padded to its width",
          "[debug][print]") {
  const std::vector<std::int8_t> i8{-1, 10};
  const std::vector<std::int64_t> i64{-2, 255};
  const std::vector<tk::half> f16{tk::half(1.0f), tk::half(-2.0f)};
  const std::vector<double> f64{1.0, -0.0};
  auto k = tk::jit("print_hex", [](tk::ptr<const std::int8_t> pi8, tk::ptr<const std::int64_t> pi64,
                                   tk::ptr<const tk::half> pf16, tk::ptr<const double> pf64) {
    auto offs = tk::arange(0, 2);
    tk::device_print(tk::hex, "i32", offs - 1);
    tk::device_print(tk::hex, "i8", tk::load(pi8 + offs));
    tk::device_print(tk::hex, "i64", tk::load(pi64 + offs));
    tk::device_print(tk::hex, "f32", tk::cast<float>(offs) + 1.0f);
    tk::device_print(tk::hex, "f16", tk::load(pf16 + offs));
    tk::device_print(tk::hex, "f64", tk::load(pf64 + offs));
    tk::device_print(tk::hex, "bool", offs == 1);
  });
  const auto lines = printed_lines([&] { k.interpret(tk::grid(1), i8, i64, f16, f64); });
  const std::vector<std::string> want = {
      "pid (0, 0, 0) idx (0) i32: 0xffffffff",
      "pid (0, 0, 0) idx (1) i32: 0x00000000",
      "pid (0, 0, 0) idx (0) i8: 0xff",
      "pid (0, 0, 0) idx (1) i8: 0x0a",
      "pid (0, 0, 0) idx (0) i64: 0xfffffffffffffffe",
      "pid (0, 0, 0) idx (1) i64: 0x00000000000000ff",
      "pid (0, 0, 0) idx (0) f32: 0x3f800000",
      "pid (0, 0, 0) idx (1) f32: 0x40000000",
      "pid (0, 0, 0) idx (0) f16: 0x3c00",
      "pid (0, 0, 0) idx (1) f16: 0xc000",
      "pid (0, 0, 0) idx (0) f64: 0x3ff0000000000000",
      "pid (0, 0, 0) idx (1) f64: 0x8000000000000000",
      "pid (0, 0, 0) idx (0) bool: 0x0",
      "pid (0, 0, 0) idx (1) bool: 0x1",
  };
  CHECK(lines == want);
}

TEST_CASE("device_print: without values, one line per program with the prefix", "[debug][print]") {
  auto k = tk::jit("print_text", [] {
    tk::device_print("hello");     // longer than two characters: a space before it
    tk::device_print(" already");  // starts with a space: as it is
    tk::device_print("hi");        // two characters: as it is
    tk::device_print("");          // nothing after the program id
    tk::device_print("x: ");       // no ": " added or removed without values
    tk::device_print("100% sure"); // printed as it is, not as a format
  });
  const auto lines = printed_lines([&] { k.interpret(tk::grid(1)); });
  const std::vector<std::string> want = {
      "pid (0, 0, 0) hello", "pid (0, 0, 0) already", "pid (0, 0, 0)hi",
      "pid (0, 0, 0)",       "pid (0, 0, 0) x: ",     "pid (0, 0, 0) 100% sure",
  };
  CHECK(lines == want);
}

TEST_CASE("device_print: Triton's prefix rules, and a '%' in the prefix printed as it is",
          "[debug][print]") {
  auto k = tk::jit("print_prefixes", [] {
    auto one = tk::arange(0, 1) + 7;
    tk::device_print("x", one);
    tk::device_print("x:", one);
    tk::device_print("x: ", one);
    tk::device_print(" x: ", one);
    tk::device_print("x=", one);
    tk::device_print("value ", one);
    tk::device_print("100%", one);
    tk::device_print("%d %s", one);
    tk::device_print(std::string_view("from a string_view"), one);
  });
  const auto lines = printed_lines([&] { k.interpret(tk::grid(1)); });
  const std::vector<std::string> want = {
      "pid (0, 0, 0) idx (0) x: 7",
      "pid (0, 0, 0) idx (0) x: 7",
      "pid (0, 0, 0) idx (0) x: 7",
      "pid (0, 0, 0) idx (0) x: 7",
      "pid (0, 0, 0) idx (0) x=: 7",
      "pid (0, 0, 0) idx (0) value: 7",
      "pid (0, 0, 0) idx (0) 100%: 7",
      "pid (0, 0, 0) idx (0) %d %s: 7",
      "pid (0, 0, 0) idx (0) from a string_view: 7",
  };
  CHECK(lines == want);
  // The rule itself, as Triton's semantic.device_print applies it.
  using tk::detail::munge_prefix;
  CHECK(munge_prefix("x", true) == " x: ");
  CHECK(munge_prefix("", true) == ": ");
  CHECK(munge_prefix("a", true) == " a: ");
  CHECK(munge_prefix("ab:", true) == " ab: ");
  CHECK(munge_prefix("x", false) == "x");
  CHECK(munge_prefix("xyz", false) == " xyz");
  CHECK(munge_prefix("", false) == "");
}

TEST_CASE("device_print: every program instance prints, x fastest, and inside loops once per "
          "iteration",
          "[debug][print]") {
  SECTION("a 3 x 2 grid") {
    auto k = tk::jit("print_grid",
                     [] { tk::device_print("pid", tk::program_id(0) + 10 * tk::program_id(1)); });
    const auto lines = printed_lines([&] { k.interpret(tk::grid(3, 2)); });
    const std::vector<std::string> want = {
        "pid (0, 0, 0) idx () pid: 0",  "pid (1, 0, 0) idx () pid: 1",
        "pid (2, 0, 0) idx () pid: 2",  "pid (0, 1, 0) idx () pid: 10",
        "pid (1, 1, 0) idx () pid: 11", "pid (2, 1, 0) idx () pid: 12",
    };
    CHECK(lines == want);
  }
  SECTION("a 1 x 1 x 2 grid, 2-element blocks") {
    auto k =
        tk::jit("print_z", [] { tk::device_print("z", tk::arange(0, 2) * tk::program_id(2)); });
    const auto lines = printed_lines([&] { k.interpret(tk::grid(1, 1, 2)); });
    const std::vector<std::string> want = {
        "pid (0, 0, 0) idx (0) z: 0",
        "pid (0, 0, 0) idx (1) z: 0",
        "pid (0, 0, 1) idx (0) z: 0",
        "pid (0, 0, 1) idx (1) z: 1",
    };
    CHECK(lines == want);
  }
  SECTION("a loop and a branch") {
    auto k = tk::jit("print_loop", [](tk::i32 n) {
      tk::for_range(0, n, [&](tk::i32 i) {
        tk::device_print("i", i);
        tk::if_(i == 1, [&] { tk::device_print("one"); });
      });
    });
    const auto lines = printed_lines([&] { k.interpret(tk::grid(1), 3); });
    const std::vector<std::string> want = {
        "pid (0, 0, 0) idx () i: 0",
        "pid (0, 0, 0) idx () i: 1",
        "pid (0, 0, 0) one",
        "pid (0, 0, 0) idx () i: 2",
    };
    CHECK(lines == want);
  }
  SECTION("tracing prints nothing") {
    auto k = tk::jit("print_traced", [](tk::i32 n) { tk::device_print("n", n); });
    const auto lines = printed_lines([&] { (void)k.ir(5); });
    CHECK(lines.empty());
  }
}

#endif // !_WIN32

TEST_CASE("device_assert: off by default, whatever the condition", "[debug][assert]") {
  const tk_test::scoped_env no_debug("TK_DEBUG", nullptr);
  std::vector<float> x{1, 2, 3, -4, 5, 6, 7, 8};
  std::vector<float> out(8, 0.0f);
  auto k = tk::jit("assert_off", [](tk::ptr<float> o, tk::ptr<const float> p, tk::i32 n) {
    auto offs = tk::arange(0, 8);
    auto v = tk::load(p + offs);
    tk::device_assert(v > 0, "x must be positive");
    tk::device_assert(n > 100, "n is large");
    tk::store(o + offs, v * 2.0f);
  });
  k.interpret(tk::grid(1), out, std::as_const(x), 3);
  CHECK(out == std::vector<float>{2, 4, 6, -8, 10, 12, 14, 16});
  // TK_DEBUG=0 and launch_options::debug false: still off.
  const tk_test::scoped_env debug_off("TK_DEBUG", "0");
  k.launch(tk::grid(1), tk_test::interpreter, out, std::as_const(x), 3);
  CHECK(out == std::vector<float>{2, 4, 6, -8, 10, 12, 14, 16});
}

TEST_CASE("device_assert: with debugging on, a tk::error at the assert naming the message, the "
          "program and the lane",
          "[debug][assert]") {
  const tk_test::scoped_env no_debug("TK_DEBUG", nullptr);
  int line = 0;
  std::vector<float> x(16, 1.0f);
  x[11] = -1.0f; // program 1, lane 3
  std::vector<float> out(16, 0.0f);
  auto k = tk::jit("assert_on", [&](tk::ptr<float> o, tk::ptr<const float> p) {
    auto offs = tk::program_id(0) * 8 + tk::arange(0, 8);
    auto v = tk::load(p + offs);
    line = __LINE__ + 1;
    tk::device_assert(v > 0, "x must be positive");
    tk::store(o + offs, v * 2.0f);
  });
  const char *want = "device assertion failed: x must be positive (program (1, 0, 0), lane 3 "
                     "(index [3] of the [8] block))";
  SECTION("launch_options::debug") {
    tk_test::expect_error(this_file, line, want,
                          [&] { k.launch(tk::grid(2), debug_on, out, std::as_const(x)); });
    // Program 0 ran to the end before program 1 failed.
    CHECK(std::vector<float>(out.begin(), out.begin() + 8) == std::vector<float>(8, 2.0f));
    CHECK(std::vector<float>(out.begin() + 8, out.end()) == std::vector<float>(8, 0.0f));
  }
  SECTION("TK_DEBUG=1") {
    const tk_test::scoped_env debug("TK_DEBUG", "1");
    tk_test::expect_error(this_file, line, want,
                          [&] { k.interpret(tk::grid(2), out, std::as_const(x)); });
  }
  SECTION("launch_options::debug wins over TK_DEBUG=0") {
    const tk_test::scoped_env debug("TK_DEBUG", "0");
    tk_test::expect_error(this_file, line, want,
                          [&] { k.launch(tk::grid(2), debug_on, out, std::as_const(x)); });
  }
  SECTION("a condition that holds everywhere") {
    x[11] = 1.0f;
    k.launch(tk::grid(2), debug_on, out, std::as_const(x));
    CHECK(out == std::vector<float>(16, 2.0f));
  }
}

TEST_CASE("device_assert: with a mask, lanes the mask leaves out never fail", "[debug][assert]") {
  int line = 0;
  std::vector<float> x{1, 2, 3, 4, -5, -6, -7, -8};
  auto k = tk::jit("assert_masked", [&](tk::ptr<const float> p, tk::i32 n) {
    auto offs = tk::arange(0, 8);
    auto v = tk::load(p + offs);
    line = __LINE__ + 1;
    tk::device_assert(v > 0, "x must be positive", offs < n);
  });
  CHECK_NOTHROW(k.launch(tk::grid(1), debug_on, std::as_const(x), 4)); // -5 ... -8 masked off
  tk_test::expect_error(this_file, line,
                        "device assertion failed: x must be positive (program (0, 0, 0), lane 4 "
                        "(index [4] of the [8] block))",
                        [&] { k.launch(tk::grid(1), debug_on, std::as_const(x), 5); });
}

TEST_CASE("device_assert: 2-D and scalar conditions, no message, in a loop", "[debug][assert]") {
  int line = 0;
  SECTION("a 2-D condition names the lane's index") {
    auto k = tk::jit("assert_2d", [&] {
      auto r = tk::arange(0, 2)(tk::_, tk::newaxis);
      auto c = tk::arange(0, 4)(tk::newaxis, tk::_);
      line = __LINE__ + 1;
      tk::device_assert(r * 4 + c != 6, "not six");
    });
    tk_test::expect_error(this_file, line,
                          "device assertion failed: not six (program (0, 0, 0), lane 6 (index [1, "
                          "2] of the [2, 4] block))",
                          [&] { k.launch(tk::grid(1), debug_on); });
  }
  SECTION("a scalar condition, in the third program of a 2 x 2 grid") {
    auto k = tk::jit("assert_scalar", [&](tk::i32 n) {
      line = __LINE__ + 1;
      tk::device_assert(tk::program_id(1) * n < 1, "n must be small");
    });
    tk_test::expect_error(this_file, line,
                          "device assertion failed: n must be small (program (0, 1, 0), the "
                          "scalar)",
                          [&] { k.launch(tk::grid(2, 2), debug_on, 4); });
  }
  SECTION("without a message") {
    auto k = tk::jit("assert_plain", [&](tk::i1 ok) {
      line = __LINE__ + 1;
      tk::device_assert(ok);
    });
    k.launch(tk::grid(1), debug_on, true);
    tk_test::expect_error(this_file, line,
                          "device assertion failed: (no message) (program (0, 0, 0), the scalar)",
                          [&] { k.launch(tk::grid(1), debug_on, false); });
  }
  SECTION("in a loop: the iteration where it fails") {
    std::vector<std::int32_t> seen(8, 0);
    auto k = tk::jit("assert_loop", [&](tk::ptr<std::int32_t> s) {
      tk::for_range(0, 8, [&](tk::i32 i) {
        tk::store(s + i, i);
        line = __LINE__ + 1;
        tk::device_assert(i < 5, "i < 5");
      });
    });
    tk_test::expect_error(this_file, line,
                          "device assertion failed: i < 5 (program (0, 0, 0), the scalar)",
                          [&] { k.launch(tk::grid(1), debug_on, seen); });
    CHECK(seen == std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 0, 0});
  }
}

TEST_CASE("debug_barrier: nothing to wait for on the interpreter", "[debug]") {
  std::vector<std::int32_t> out(4, 0);
  auto k = tk::jit("barrier", [](tk::ptr<std::int32_t> o) {
    auto offs = tk::arange(0, 4);
    tk::store(o + offs, offs);
    tk::debug_barrier();
    tk::store(o + offs, tk::load(o + offs) + 1);
  });
  k.interpret(tk::grid(1), out);
  CHECK(out == std::vector<std::int32_t>{1, 2, 3, 4});
}

TEST_CASE("gdc_wait, gdc_launch_dependents: launches in order on the interpreter", "[debug]") {
  // The interpreter runs launches one after another: the second sees all of the first's writes,
  // as a programmatic dependent launch does after tk::gdc_wait.
  std::vector<std::int32_t> a(64, 0), b(64, 0);
  auto first = tk::jit("first", [](tk::ptr<std::int32_t> o) {
    auto offs = tk::program_id(0) * 16 + tk::arange(0, 16);
    tk::gdc_launch_dependents();
    tk::store(o + offs, offs * 3);
  });
  auto second = tk::jit("second", [](tk::ptr<std::int32_t> o, tk::ptr<const std::int32_t> in) {
    auto offs = tk::program_id(0) * 16 + tk::arange(0, 16);
    tk::gdc_wait();
    tk::store(o + offs, tk::load(in + (63 - offs)) + 1);
  });
  first.launch(tk::grid(4), {.backend = tk::backend::interpreter, .launch_pdl = true}, a);
  second.launch(tk::grid(4), {.backend = tk::backend::interpreter, .launch_pdl = true}, b,
                std::as_const(a));
  for (int i = 0; i < 64; ++i)
    CHECK(b[std::size_t(i)] == 3 * (63 - i) + 1);
}

TEST_CASE("hints: multiple_of, max_contiguous and max_constancy give their operand unchanged",
          "[debug][hints]") {
  std::vector<std::int32_t> out(64, -1);
  auto k = tk::jit("hints", [](tk::ptr<std::int32_t> o, tk::i32 n) {
    auto offs = tk::arange(0, 16);
    auto a = tk::multiple_of(offs * 4, 4);
    auto b = tk::max_contiguous(tk::multiple_of(offs, 16), 16);
    auto c = tk::max_constancy(offs / 4, {4});
    auto rows = tk::arange(0, 2)(tk::_, tk::newaxis);
    auto cols = tk::arange(0, 8)(tk::newaxis, tk::_);
    auto d = tk::max_contiguous(tk::multiple_of(rows * 8 + cols, {8, 1}), {1, 8});
    auto m = tk::multiple_of(n, 16); // a scalar: one value
    tk::store(o + offs, a);
    tk::store(o + 16 + offs, b + m);
    tk::store(o + 32 + offs, c);
    tk::store(o + 48 + rows * 8 + cols, d);
  });
  k.interpret(tk::grid(1), out, 32);
  for (int i = 0; i < 16; ++i) {
    CHECK(out[std::size_t(i)] == 4 * i);
    CHECK(out[std::size_t(16 + i)] == i + 32);
    CHECK(out[std::size_t(32 + i)] == i / 4);
    CHECK(out[std::size_t(48 + i)] == i);
  }
  // Hints are promises, not checks: a value that breaks one passes through as it is (the checked
  // mode reports a broken tk::multiple_of; see below).
  const tk_test::scoped_env unchecked("TK_INTERPRET_CHECK", nullptr);
  std::vector<std::int32_t> broken(16, 0);
  auto liar = tk::jit("liar", [](tk::ptr<std::int32_t> o) {
    auto offs = tk::arange(0, 16);
    tk::store(o + offs, tk::max_constancy(tk::multiple_of(offs * 3 + 1, 16), 16));
  });
  liar.interpret(tk::grid(1), broken);
  for (int i = 0; i < 16; ++i)
    CHECK(broken[std::size_t(i)] == 3 * i + 1);
}

TEST_CASE("hints: multiple_of and max_contiguous on pointers, an address's multiple in bytes",
          "[debug][hints]") {
  alignas(16) std::array<float, 20> in{};
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = float(i) + 0.5f;
  std::vector<float> out(16, -1.0f);
  // The address comes from memory, as in a grouped GEMM: only the hint says it is aligned.
  auto k = tk::jit("pointer_hints", [](tk::ptr<float> o, tk::ptr<const std::int64_t> address) {
    auto p = tk::multiple_of(tk::cast<float *>(tk::load(address)), 16);
    auto offs = tk::arange(0, 16);
    auto ptrs = tk::max_contiguous(tk::multiple_of(p + offs, 16), 16);
    tk::store(o + offs, tk::load(ptrs));
  });
  const std::vector<std::int64_t> aligned{
      std::int64_t(reinterpret_cast<std::uintptr_t>(in.data()))};
  constexpr tk::launch_options checked{.backend = tk::backend::interpreter, .checked = true};
  k.launch(tk::grid(1), checked, out, aligned);
  for (std::size_t i = 0; i < 16; ++i)
    CHECK(out[i] == in[i]);
  const std::string ir = k.ir(out, aligned);
  INFO(ir);
  CHECK(ir.find("\"tk.multiple_of\"(%1) <{values = array<i32: 16>}> : (!tk.ptr<f32>) -> "
                "!tk.ptr<f32>") != std::string::npos);
  CHECK(ir.find("(tensor<16x!tk.ptr<f32>>) -> tensor<16x!tk.ptr<f32>>") != std::string::npos);
  // One element in, the promise is broken: unchecked, the load reads from there.
  const std::int64_t address = aligned[0] + 4;
  const std::vector<std::int64_t> misaligned{address};
  {
    const tk_test::scoped_env unchecked("TK_INTERPRET_CHECK", nullptr);
    k.interpret(tk::grid(1), out, misaligned);
    for (std::size_t i = 0; i < 16; ++i)
      CHECK(out[i] == in[i + 1]);
  }
}

TEST_CASE("hints: the checked mode reports a broken tk::multiple_of at its line",
          "[debug][hints]") {
  constexpr tk::launch_options checked{.backend = tk::backend::interpreter, .checked = true};
  int line = 0;
  SECTION("an address") {
    alignas(16) std::array<float, 20> in{};
    std::vector<float> out(4, 0.0f);
    auto k = tk::jit("aligned_load", [&](tk::ptr<float> o, tk::ptr<const std::int64_t> address) {
      line = __LINE__ + 1;
      auto p = tk::multiple_of(tk::cast<float *>(tk::load(address)), 16);
      tk::store(o + tk::arange(0, 4), tk::load(p + tk::arange(0, 4)));
    });
    const std::int64_t address = std::int64_t(reinterpret_cast<std::uintptr_t>(in.data())) + 8;
    const std::vector<std::int64_t> misaligned{address};
    tk_test::expect_error(this_file, line,
                          "tk::multiple_of: the address " + std::to_string(address) +
                              " is not a multiple of 16 bytes, in program (0, 0, 0) "
                              "(TK_INTERPRET_CHECK); the compiler relies on it",
                          [&] { k.launch(tk::grid(1), checked, out, misaligned); });
  }
  SECTION("a block of integers: the first value of each run of consecutive values counts") {
    std::vector<std::int32_t> out(32, 0);
    auto k = tk::jit("runs", [&](tk::ptr<std::int32_t> o, tk::i32 start) {
      auto rows = tk::arange(0, 2)(tk::_, tk::newaxis);
      auto cols = tk::arange(0, 16)(tk::newaxis, tk::_);
      line = __LINE__ + 1;
      auto offs = tk::multiple_of(start + rows * 16 + cols % 8, {8, 16});
      tk::store(o + rows * 16 + cols, offs);
    });
    k.launch(tk::grid(1), checked, out, 32); // runs of 8 from 32 and 48
    CHECK(out[9] == 33);
    CHECK(out[16] == 48);
    tk_test::expect_error(this_file, line,
                          "tk::multiple_of: the value 36 at (0, 0) is not a multiple of 8 along "
                          "dimension 0, in program (0, 0, 0) (TK_INTERPRET_CHECK)",
                          [&] { k.launch(tk::grid(1), checked, out, 36); });
    tk_test::expect_error(this_file, line,
                          "tk::multiple_of: the value 40 at (0, 0) is not a multiple of 16 along "
                          "dimension 1",
                          [&] { k.launch(tk::grid(1), checked, out, 40); });
  }
}

TEST_CASE("assume: checked by the interpreter's checked mode only", "[debug][hints]") {
  const tk_test::scoped_env unchecked("TK_INTERPRET_CHECK", nullptr);
  int line = 0;
  std::vector<std::int32_t> out(1, 0);
  auto k = tk::jit("assume", [&](tk::ptr<std::int32_t> o, tk::i32 stride) {
    line = __LINE__ + 1;
    tk::assume(stride % 16 == 0);
    tk::store(o, stride);
  });
  constexpr tk::launch_options checked{.backend = tk::backend::interpreter, .checked = true};
  // True: nothing to report, checked or not.
  k.launch(tk::grid(1), checked, out, 32);
  CHECK(out[0] == 32);
  // False: undefined behaviour the interpreter lets pass unless checking.
  k.interpret(tk::grid(1), out, 20);
  CHECK(out[0] == 20);
  const char *want =
      "tk::assume: the condition is false in program (1, 0, 0) (TK_INTERPRET_CHECK); "
      "the compiler relies on it";
  auto second_program = tk::jit("assume_pid", [&](tk::i32 stride) {
    line = __LINE__ + 1;
    tk::assume(tk::program_id(0) * stride == 0);
  });
  tk_test::expect_error(this_file, line, want,
                        [&] { second_program.launch(tk::grid(2), checked, 3); });
  const tk_test::scoped_env check("TK_INTERPRET_CHECK", "1");
  tk_test::expect_error(this_file, line, want, [&] { second_program.interpret(tk::grid(2), 3); });
}

TEST_CASE("memory hints: every cache modifier, eviction policy and volatile load reads and "
          "writes what a plain access does",
          "[debug][memory_hints]") {
  std::vector<float> in(16);
  for (int i = 0; i < 16; ++i)
    in[std::size_t(i)] = float(i) * 0.5f - 3.0f;
  const std::vector<tk::memory_hints> load_hints = {
      {},
      {.cache_modifier = tk::cache_modifier::ca},
      {.cache_modifier = tk::cache_modifier::cg},
      {.cache_modifier = tk::cache_modifier::cs},
      {.cache_modifier = tk::cache_modifier::cv},
      {.eviction_policy = tk::eviction_policy::evict_first},
      {.eviction_policy = tk::eviction_policy::evict_last},
      {.eviction_policy = tk::eviction_policy::normal},
      {.is_volatile = true},
  };
  const std::vector<tk::memory_hints> store_hints = {
      {},
      {.cache_modifier = tk::cache_modifier::wb},
      {.cache_modifier = tk::cache_modifier::cg},
      {.cache_modifier = tk::cache_modifier::cs},
      {.cache_modifier = tk::cache_modifier::wt},
      {.eviction_policy = tk::eviction_policy::evict_first},
      {.eviction_policy = tk::eviction_policy::evict_last},
  };
  // out[0, 16): load(p); [16, 32): load(p, mask), 0 past n; [32, 48): load(p, mask, other);
  // [48, 56): a scalar load. Stores: plain, masked.
  std::vector<float> want(64, 9.0f);
  for (int i = 0; i < 16; ++i) {
    want[std::size_t(i)] = in[std::size_t(i)];
    want[std::size_t(16 + i)] = i < 10 ? in[std::size_t(i)] : 0.0f;
    want[std::size_t(32 + i)] = i < 10 ? in[std::size_t(i)] : -1.0f;
  }
  for (int i = 0; i < 8; ++i)
    want[std::size_t(48 + i)] = i < 5 ? in[3] : 9.0f;
  for (const tk::memory_hints lh : load_hints)
    for (const tk::memory_hints sh : store_hints) {
      CAPTURE(int(lh.cache_modifier), int(lh.eviction_policy), lh.is_volatile,
              int(sh.cache_modifier), int(sh.eviction_policy));
      auto k =
          tk::jit("hinted_copy", [lh, sh](tk::ptr<float> out, tk::ptr<const float> p, tk::i32 n) {
            auto offs = tk::arange(0, 16);
            auto mask = offs < n;
            tk::store(out + offs, tk::load(p + offs, lh), sh);
            tk::store(out + 16 + offs, tk::load(p + offs, mask, lh), sh);
            tk::store(out + 32 + offs, tk::load(p + offs, mask, -1.0f, lh), sh);
            auto s = tk::load(p + 3, lh);
            auto eight = tk::arange(0, 8);
            tk::store(out + 48 + eight, s, eight < 5, sh);
          });
      std::vector<float> out(64, 9.0f);
      k.interpret(tk::grid(1), out, std::as_const(in), 10);
      CHECK(out == want);
    }
  // The designated-initializer spelling, straight in the call.
  std::vector<float> out(16, 0.0f);
  auto braced = tk::jit("braced", [](tk::ptr<float> o, tk::ptr<const float> p) {
    auto offs = tk::arange(0, 16);
    auto x = tk::load(p + offs, {.cache_modifier = tk::cache_modifier::cg});
    auto y = tk::load(p + offs, offs < 16, {.eviction_policy = tk::eviction_policy::evict_last});
    auto z = tk::load(p + offs, offs < 16, 0.0f, {.is_volatile = true});
    tk::store(o + offs, x + y - z, {.cache_modifier = tk::cache_modifier::cs});
    tk::store(o + offs, tk::load(o + offs) * 2.0f, offs < 16,
              {.eviction_policy = tk::eviction_policy::evict_first});
  });
  braced.interpret(tk::grid(1), out, std::as_const(in));
  for (int i = 0; i < 16; ++i)
    CHECK(out[std::size_t(i)] == 2.0f * in[std::size_t(i)]);
}

#endif // !TK_TEST_ON_GPU

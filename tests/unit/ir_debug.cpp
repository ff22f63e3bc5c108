/// @file ir_debug.cpp
/// The IR that tk::device_print, tk::device_assert, tk::debug_barrier, the hints, tk::assume,
/// tk::inline_asm_elementwise and the memory hints record: `tk.print` with its prefix (made to end
/// in ": "), signedness per value and hex flag; `tk.assert` only with TK_DEBUG=1 (kernel.ir reads
/// the variable, as a launch reads launch_options::debug too), naming the file, line, function,
/// message and id; `tk.debug_barrier`; `tk.gdc_wait` and `tk.gdc_launch_dependents` in program
/// order; `tk.multiple_of`, `tk.max_contiguous`, `tk.max_constancy` with one value per dimension;
/// `tk.assume`; `tk.inline_asm` with its results; and the `cache`, `evict` and `is_volatile`
/// properties of `tk.load` and `tk.store`. The golden family `debug`
/// (tests/ir/golden_kernels.hpp) holds whole kernels; tk-opt parses and verifies them there.
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "scoped_env.hpp"

#include <cstdint>
#include <string>
#include <tuple>

namespace {

/// Whether `ir` holds `text`, reporting both when not.
bool holds(const std::string &ir, const std::string &text) {
  INFO("looking for: " << text);
  return ir.find(text) != std::string::npos;
}

std::size_t count(const std::string &ir, const std::string &text) {
  std::size_t n = 0;
  for (std::size_t at = ir.find(text); at != std::string::npos; at = ir.find(text, at + 1))
    ++n;
  return n;
}

} // namespace

TEST_CASE("ir: tk.print with its prefix, signedness and hex flag", "[ir][debug][print]") {
  alignas(16) static float buffer[16];
  auto k = tk::jit("printing", [](tk::ptr<float> p, tk::u32 m) {
    auto offs = tk::arange(0, 16);
    auto x = tk::load(p + offs);
    tk::device_print("x", x);
    tk::device_print(tk::hex, "bits ", offs, m);
    tk::device_print("a \"quoted\" 100%\n");
  });
  const std::string ir = k.ir(buffer, 5u);
  INFO(ir);
  CHECK(holds(ir, "\"tk.print\"(%3) <{hex = false, is_signed = array<i32: 1>, prefix = \" x: \"}> "
                  ": (tensor<16xf32>) -> ()"));
  CHECK(holds(ir, "\"tk.print\"(%0, %arg1) <{hex = true, is_signed = array<i32: 1, 0>, prefix = "
                  "\" bits: \"}> : (tensor<16xi32>, i32) -> ()"));
  // MLIR's escapes for the quotes and the newline; the prefix is not a format yet.
  CHECK(holds(ir,
              "\"tk.print\"() <{hex = false, is_signed = array<i32>, prefix = \" a \\\"quoted\\\" "
              "100%\\0A\"}> : () -> ()"));
}

TEST_CASE("ir: tk.assert only with TK_DEBUG=1", "[ir][debug][assert]") {
  alignas(16) static float buffer[16];
  int line = 0;
  auto k = tk::jit("asserting", [&](tk::ptr<float> p, tk::i32 n) {
    auto x = tk::load(p + tk::arange(0, 16));
    line = __LINE__ + 1;
    tk::device_assert(x >= 0, "x must not be negative");
    tk::device_assert(n > 0);
    tk::store(p, n);
  });
  SECTION("unset: no asserts") {
    const tk_test::scoped_env debug("TK_DEBUG", nullptr);
    const std::string ir = k.ir(buffer, 4);
    INFO(ir);
    CHECK(!holds(ir, "tk.assert"));
    CHECK(holds(ir, "\"tk.store\""));
  }
  SECTION("TK_DEBUG=0: no asserts") {
    const tk_test::scoped_env debug("TK_DEBUG", "0");
    CHECK(!holds(k.ir(buffer, 4), "tk.assert"));
  }
  SECTION("TK_DEBUG=1: each assert with its site and id") {
    const tk_test::scoped_env debug("TK_DEBUG", "1");
    const std::string ir = k.ir(buffer, 4);
    INFO(ir);
    CHECK(count(ir, "\"tk.assert\"(") == 2);
    const std::string first = "\"tk.assert\"(%5) <{file = \"";
    const std::size_t at = ir.find(first);
    REQUIRE(at != std::string::npos);
    const std::string op = ir.substr(at, ir.find('\n', at) - at);
    CHECK(holds(op, "ir_debug.cpp\", function = \""));
    CHECK(holds(op, "id = 0 : i32, line = " + std::to_string(line) +
                        " : i32, message = \"x must not be negative\"}> : (tensor<16xi1>) -> ()"));
    CHECK(holds(ir, "id = 1 : i32, line = " + std::to_string(line + 1) +
                        " : i32, message = \"\"}> : (i1) -> ()"));
  }
}

TEST_CASE("ir: tk.debug_barrier", "[ir][debug]") {
  auto k = tk::jit("barrier", [] { tk::debug_barrier(); });
  CHECK(holds(k.ir(), "\"tk.debug_barrier\"() : () -> ()"));
}

TEST_CASE("ir: tk.gdc_wait, tk.gdc_launch_dependents", "[ir][debug]") {
  auto k = tk::jit("dependent", [](tk::ptr<float> p) {
    tk::gdc_wait();
    auto x = tk::load(p);
    tk::gdc_launch_dependents();
    tk::store(p, x + 1.0f);
  });
  const std::string ir = k.ir(static_cast<float *>(nullptr));
  const auto wait = ir.find("\"tk.gdc_wait\"() : () -> ()");
  const auto load = ir.find("tk.load");
  const auto launch = ir.find("\"tk.gdc_launch_dependents\"() : () -> ()");
  const auto store = ir.find("tk.store");
  REQUIRE(wait != std::string::npos);
  REQUIRE(launch != std::string::npos);
  CHECK(wait < load); // in program order
  CHECK(load < launch);
  CHECK(launch < store);
}

TEST_CASE("ir: the hints and tk.assume", "[ir][debug][hints]") {
  alignas(16) static float buffer[64];
  auto k = tk::jit("hinted", [](tk::ptr<float> p, tk::i32 stride) {
    tk::assume(stride % 16 == 0);
    auto offs = tk::max_contiguous(tk::multiple_of(tk::arange(0, 16), 16), 16);
    auto rows = tk::arange(0, 4)(tk::_, tk::newaxis);
    auto cols = tk::arange(0, 16)(tk::newaxis, tk::_);
    auto tile = tk::max_constancy(rows * stride + cols, {1, 16});
    auto s = tk::multiple_of(stride, 8);
    tk::store(p + offs + s, 1.0f);
    tk::store(p + tile, 2.0f);
  });
  const std::string ir = k.ir(buffer, 3);
  INFO(ir);
  CHECK(holds(ir, "%3 = arith.cmpi eq, %1, %2 : i32"));
  CHECK(holds(ir, "\"tk.assume\"(%3) : (i1) -> ()"));
  CHECK(holds(ir, "%5 = \"tk.multiple_of\"(%4) <{values = array<i32: 16>}> : (tensor<16xi32>) -> "
                  "tensor<16xi32>"));
  CHECK(holds(ir, "%6 = \"tk.max_contiguous\"(%5) <{values = array<i32: 16>}> : (tensor<16xi32>) "
                  "-> tensor<16xi32>"));
  CHECK(holds(ir, "%16 = \"tk.max_constancy\"(%15) <{values = array<i32: 1, 16>}> : "
                  "(tensor<4x16xi32>) -> tensor<4x16xi32>"));
  // The hinted values are what the addresses are made from.
  CHECK(holds(ir, "\"tk.addptr\"(%18, %6)"));
  CHECK(holds(ir, "\"tk.addptr\"(%23, %16)"));
  CHECK(holds(ir, "%17 = \"tk.multiple_of\"(%arg1) <{values = array<i32: 8>}> : (i32) -> i32"));
  CHECK(count(ir, "\"tk.multiple_of\"") == 2);
}

TEST_CASE("ir: tk.inline_asm with one result, several results and literal arguments",
          "[ir][debug][inline_asm]") {
  alignas(16) static tk::half buffer[16];
  auto k = tk::jit("asm", [](tk::ptr<tk::half> p) {
    auto offs = tk::arange(0, 16);
    auto x = tk::load(p + offs);
    auto y = tk::inline_asm_elementwise<tk::half>("add.f16x2 $0, $1, $2;", "=r,r,r",
                                                  std::tuple{x, x}, true, 2);
    auto [lo, hi] = tk::inline_asm_elementwise<std::int32_t, std::int32_t>(
        "mov.b32 {$0, $1}, $2;", "=r,=r,r", std::tuple{offs, 3}, false, 1);
    tk::store(p + offs, y);
    tk::store(p + lo + hi, x);
  });
  alignas(16) static tk::half data[64];
  const std::string ir = k.ir(data);
  INFO(ir);
  CHECK(holds(ir, "\"tk.inline_asm\"(%3, %3) <{asm_string = \"add.f16x2 $0, $1, $2;\", "
                  "constraints = \"=r,r,r\", pack = 2 : i32, pure = true}> : (tensor<16xf16>, "
                  "tensor<16xf16>) -> tensor<16xf16>"));
  CHECK(holds(ir, "<{asm_string = \"mov.b32 {$0, $1}, $2;\", constraints = \"=r,=r,r\", pack = 1 "
                  ": i32, pure = false}> : (tensor<16xi32>, tensor<16xi32>) -> (tensor<16xi32>, "
                  "tensor<16xi32>)"));
  (void)buffer;
}

TEST_CASE("ir: cache, evict and is_volatile on tk.load and tk.store", "[ir][debug][memory_hints]") {
  alignas(16) static float buffer[64];
  auto k = tk::jit("cached", [](tk::ptr<float> p, tk::i32 n) {
    auto offs = tk::arange(0, 16);
    auto mask = offs < n;
    auto a = tk::load(p + offs, {.cache_modifier = tk::cache_modifier::cg});
    auto b = tk::load(p + offs, mask, {.eviction_policy = tk::eviction_policy::evict_last});
    auto c = tk::load(p + offs, mask, 1.0f, {.is_volatile = true});
    auto d = tk::load(p, {.cache_modifier = tk::cache_modifier::cv});
    tk::store(p + offs, a + b, {.cache_modifier = tk::cache_modifier::cs});
    tk::store(p + offs, c, mask, {.eviction_policy = tk::eviction_policy::evict_first});
    tk::store(p + 16, d, {.cache_modifier = tk::cache_modifier::wt});
    tk::store(p + 17 + offs, c, {.eviction_policy = tk::eviction_policy::normal});
  });
  const std::string ir = k.ir(buffer, 10);
  INFO(ir);
  CHECK(holds(ir, "<{cache = \"cg\", operandSegmentSizes = array<i32: 1, 0, 0>}>"));
  CHECK(holds(ir, "<{evict = \"evict_last\", operandSegmentSizes = array<i32: 1, 1, 0>}>"));
  CHECK(holds(ir, "<{is_volatile, operandSegmentSizes = array<i32: 1, 1, 1>}>"));
  CHECK(holds(ir, "<{cache = \"cv\", operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tk.ptr<f32>) "
                  "-> f32"));
  CHECK(holds(ir, "<{cache = \"cs\"}> : (tensor<16x!tk.ptr<f32>>, tensor<16xf32>) -> ()"));
  CHECK(holds(ir, "<{evict = \"evict_first\"}> : (tensor<16x!tk.ptr<f32>>, tensor<16xf32>, "
                  "tensor<16xi1>) -> ()"));
  CHECK(holds(ir, "<{cache = \"wt\"}> : (!tk.ptr<f32>, f32) -> ()"));
  // The default hints print nothing: the same op as a plain store.
  CHECK(count(ir, "\"tk.store\"") == 4);
  CHECK(holds(ir, "\"tk.store\"(%24, %12) : (tensor<16x!tk.ptr<f32>>, tensor<16xf32>) -> ()"));
}

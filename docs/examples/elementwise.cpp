/// @file elementwise.cpp
/// docs/writing-kernels.md: promotion, broadcasting, integer semantics, comparisons, where,
/// conversions and math.
#include "doc_examples.hpp"

#include <bit>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

// [snippet:promotion]
template <class A, class B> constexpr bool same = std::is_same_v<A, B>;

auto promotion = tk::jit("promotion", [](tk::ptr<tk::half> ph, tk::ptr<std::int8_t> pc,
                                         tk::ptr<float> pf, tk::ptr<std::uint32_t> pu) {
  auto offs = tk::arange(0, 16);
  auto h = tk::load(ph + offs); // tk::block<tk::half, 1>
  auto c = tk::load(pc + offs); // tk::block<std::int8_t, 1>
  auto f = tk::load(pf + offs); // tk::block<float, 1>
  auto u = tk::load(pu + offs); // tk::block<std::uint32_t, 1>
  using tk::block;
  // C++ literals are weak: they take the type of the block they meet.
  static_assert(same<decltype(h * 2), block<tk::half, 1>>);
  static_assert(same<decltype(h * 0.5), block<tk::half, 1>>); // a double literal too
  static_assert(same<decltype(c + 1), block<std::int8_t, 1>>);
  static_assert(same<decltype(c * 1.5f), block<float, 1>>); // float literal, integer block: f32
  // Blocks promote: the wider float, float over integer, the wider integer.
  static_assert(same<decltype(h + f), block<float, 1>>);
  static_assert(same<decltype(c + h), block<tk::half, 1>>);
  static_assert(same<decltype(c + offs), block<std::int32_t, 1>>);
  // Same width, different signedness: unsigned wins.
  static_assert(same<decltype(u + offs), block<std::uint32_t, 1>>);
  // A tk::half (or tk::bfloat16) value is not weak: it is an f16 operand.
  static_assert(same<decltype(c + tk::half(1.0)), block<tk::half, 1>>);
});
// [/snippet]

// [snippet:broadcast]
auto outer =
    tk::jit("outer", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> y) {
      auto i = tk::arange(0, 8);
      auto j = tk::arange(0, 16);
      auto xi = tk::load(x + i);                  // [8]
      auto yj = tk::load(y + j);                  // [16]
      auto prod = xi(tk::_, tk::newaxis) * yj;    // [8, 1] * [16] -> [8, 16]
      auto offs = i(tk::_, tk::newaxis) * 16 + j; // [8, 1] * 16 + [16] -> [8, 16]
      tk::store(out + offs, prod);
    });
// [/snippet]

// [snippet:integer_division]
auto divide =
    tk::jit("divide", [](tk::ptr<std::int32_t> out, tk::ptr<const std::int32_t> a, tk::i32 b) {
      auto offs = tk::arange(0, 4);
      auto x = tk::load(a + offs);
      tk::store(out + offs, x / b);                  // toward zero:    -7 / 2 == -3
      tk::store(out + 4 + offs, x % b);              // dividend's sign: -7 % 2 == -1
      tk::store(out + 8 + offs, tk::floordiv(x, b)); // toward -inf:    floordiv(-7, 2) == -4
      tk::store(out + 12 + offs, tk::cdiv(x, b));    // (x + b - 1) / b: cdiv(7, 2) == 4
    });
// [/snippet]

// [snippet:shifts]
auto shifts = tk::jit("shifts", [](tk::ptr<std::int32_t> s, tk::ptr<std::uint32_t> u) {
  auto offs = tk::arange(0, 2);
  auto x = tk::load(s + offs);
  auto y = tk::load(u + offs);
  tk::store(s + offs, x >> 4); // signed: arithmetic shift, -256 >> 4 == -16
  tk::store(u + offs, y >> 4); // unsigned: logical shift, 0xFFFFFF00 >> 4 == 0x0FFFFFF0
});
// [/snippet]

// [snippet:where]
auto leaky_relu = tk::jit("leaky_relu", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
  auto offs = tk::arange(0, 16);
  auto mask = offs < n;
  auto x = tk::load(in + offs, mask);
  auto positive = x > 0; // tk::block<bool, 1>
  auto y = tk::where(positive, x, 0.01f * x);
  tk::store(out + offs, y, mask && !positive); // only the lanes that were negative
});
// [/snippet]

// [snippet:compound]
auto compound = tk::jit("compound", [](tk::ptr<std::int32_t> p) {
  auto offs = tk::arange(0, 4);
  auto x = tk::load(p + offs); // i32
  x += 1;                      // i32
  x *= 2.5f;                   // computed in f32, converted back to i32 (toward zero)
  tk::store(p + offs, x);
});
// [/snippet]

// [snippet:casts]
auto casts = tk::jit("casts", [](tk::ptr<std::int32_t> out, tk::ptr<const float> in) {
  auto offs = tk::arange(0, 4);
  auto x = tk::load(in + offs);
  tk::store(out + offs, tk::cast<std::int32_t>(x));           // values: 2.7 -> 2, -2.7 -> -2
  tk::store(out + 4 + offs, tk::bitcast<std::int32_t>(x));    // bits: 1.0f -> 0x3F800000
  auto nonzero = tk::cast<bool>(x);                           // x != 0
  tk::store(out + 8 + offs, tk::cast<std::int32_t>(nonzero)); // true -> 1
});
// [/snippet]

// [snippet:fp8]
// Scales f32 values into fp8 (e4m3: largest finite 448), rounding to nearest even and toward
// zero; out-of-range values saturate.
auto to_fp8 = tk::jit("to_fp8", [](tk::ptr<tk::f8e4m3> nearest, tk::ptr<tk::f8e4m3> toward_zero,
                                   tk::ptr<const float> in, tk::f32 scale) {
  auto offs = tk::arange(0, 4);
  auto x = tk::load(in + offs) * scale;
  tk::store(nearest + offs, tk::cast<tk::f8e4m3>(x));
  tk::store(toward_zero + offs, tk::cast<tk::f8e4m3>(x, tk::rounding::rtz));
});
// [/snippet]

// [snippet:math]
auto gelu = tk::jit("gelu", [](tk::ptr<float> out, tk::ptr<const float> in) {
  auto offs = tk::arange(0, 8);
  auto x = tk::load(in + offs);
  auto cdf = 0.5f * (1.0f + tk::erf(x * 0.70710678f)); // Φ(x)
  tk::store(out + offs, x * cdf);
  auto s = tk::sigmoid(x); // 1 / (1 + exp(-x))
  tk::store(out + 8 + offs, tk::clamp(s, 0.25f, 0.75f));
  tk::store(out + 16 + offs, tk::fma(x, x, 1.0f)); // x * x + 1, rounded once
});
// [/snippet]

} // namespace

DOC_EXAMPLE("elementwise.promotion") {
  static float f[16];
  static tk::half h[16];
  static std::int8_t c[16];
  static std::uint32_t u[16];
  (void)promotion.ir(h, c, f, u); // the static_asserts are the test
}

DOC_EXAMPLE("elementwise.broadcast") {
  std::vector<float> x(8), y(16), out(8 * 16);
  for (int i = 0; i < 8; ++i)
    x[std::size_t(i)] = float(i);
  for (int j = 0; j < 16; ++j)
    y[std::size_t(j)] = float(j + 1);
  outer.interpret(tk::grid(1), out.data(), x.data(), y.data());
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j)
      doc::check(out[std::size_t(i * 16 + j)] == float(i * (j + 1)), "outer product");
}

DOC_EXAMPLE("elementwise.integer_division") {
  const std::vector<std::int32_t> a = {7, -7, 6, -6};
  std::vector<std::int32_t> out(16);
  divide.interpret(tk::grid(1), out.data(), a.data(), 2);
  const std::vector<std::int32_t> want = {3, -3, 3, -3, 1, -1, 0, 0, 3, -4, 3, -3, 4, -3, 3, -2};
  doc::check(out == want, "integer division");
}

DOC_EXAMPLE("elementwise.shifts") {
  std::vector<std::int32_t> s = {-256, 256};
  std::vector<std::uint32_t> u = {0xFFFFFF00u, 0x100u};
  shifts.interpret(tk::grid(1), s.data(), u.data());
  doc::check(s[0] == -16 && s[1] == 16, "arithmetic shift");
  doc::check(u[0] == 0x0FFFFFF0u && u[1] == 0x10u, "logical shift");
}

DOC_EXAMPLE("elementwise.where") {
  std::vector<float> in = {-1, 2, -3, 4, -5}, out(16, 7.0f);
  leaky_relu.interpret(tk::grid(1), out.data(), in.data(), 5);
  doc::check_near(out[0], -0.01);
  doc::check(out[1] == 7.0f, "positive lanes are not stored");
  doc::check_near(out[2], -0.03);
  doc::check(out[5] == 7.0f, "masked-off lanes are not stored");
}

DOC_EXAMPLE("elementwise.compound") {
  std::vector<std::int32_t> p = {0, 1, -3, 10};
  compound.interpret(tk::grid(1), p.data());
  doc::check(p == std::vector<std::int32_t>{2, 5, -5, 27}, "(x + 1) * 2.5, truncated");
}

DOC_EXAMPLE("elementwise.casts") {
  const std::vector<float> in = {2.7f, -2.7f, 1.0f, 0.0f};
  std::vector<std::int32_t> out(12);
  casts.interpret(tk::grid(1), out.data(), in.data());
  doc::check(out[0] == 2 && out[1] == -2 && out[2] == 1 && out[3] == 0, "cast");
  doc::check(out[6] == 0x3F800000, "bitcast");
  doc::check(out[8] == 1 && out[9] == 1 && out[10] == 1 && out[11] == 0, "cast to bool");
}

DOC_EXAMPLE("elementwise.fp8") {
  const std::vector<float> in = {1.24f, -1.24f, 1000.0f, 0.001f};
  std::vector<tk::f8e4m3> nearest(4), toward_zero(4);
  to_fp8.interpret(tk::grid(1), nearest.data(), toward_zero.data(), in.data(), 1.0f);
  doc::check(float(nearest[0]) == 1.25f && float(toward_zero[0]) == 1.125f, "rounding modes");
  doc::check(float(nearest[1]) == -1.25f && float(toward_zero[1]) == -1.125f, "negative");
  doc::check(float(nearest[2]) == 448.0f, "saturates at the largest finite value");
  doc::check(float(nearest[3]) == 0.001953125f && float(toward_zero[3]) == 0.0f,
             "0.001 lies between 0 and the smallest subnormal, 2^-9");
}

DOC_EXAMPLE("elementwise.math") {
  std::vector<float> in = {-2, -1, -0.5f, 0, 0.5f, 1, 2, 3}, out(24);
  gelu.interpret(tk::grid(1), out.data(), in.data());
  for (std::size_t k = 0; k < 8; ++k) {
    const double x = in[k];
    doc::check_near(out[k], x * 0.5 * (1 + std::erf(x / std::sqrt(2.0))), 1e-5);
    const double s = 1 / (1 + std::exp(-x));
    doc::check_near(out[8 + k], s < 0.25 ? 0.25 : s > 0.75 ? 0.75 : s, 1e-6);
    doc::check_near(out[16 + k], x * x + 1);
  }
}

/// @file math.cpp
/// docs/writing-kernels.md and docs/ir.md: the math library (tanh, pow, hypot, rounding, NaN
/// tests, maximum and clamp with NaNs), softmax, and the IR of the approximate and the rounded
/// square root and division.
#include "doc_examples.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace {

// [snippet:library]
// GELU with the tanh approximation, the distance of (x, y) from the origin, and two roundings.
auto functions =
    tk::jit("functions", [](tk::ptr<float> out, tk::ptr<const float> px, tk::ptr<const float> py) {
      auto offs = tk::arange(0, 8);
      auto x = tk::load(px + offs);
      auto y = tk::load(py + offs);
      auto inner = 0.7978845608f * (x + 0.044715f * tk::pow(x, 3));
      tk::store(out + offs, 0.5f * x * (1.0f + tk::tanh(inner)));
      tk::store(out + 8 + offs, tk::hypot(x, y)); // sqrt(x * x + y * y) without overflow
      tk::store(out + 16 + offs, tk::round(x));   // halves away from zero: 2.5 -> 3
      tk::store(out + 24 + offs, tk::rint(x));    // halves to even: 2.5 -> 2
    });
// [/snippet]

// [snippet:nan]
// NaNs tested, dropped or kept.
auto nans = tk::jit("nans", [](tk::ptr<float> out, tk::ptr<const float> px) {
  auto offs = tk::arange(0, 4);
  auto x = tk::load(px + offs);
  tk::store(out + offs, tk::where(tk::isnan(x), 0.0f, x));                 // NaN -> 0
  tk::store(out + 4 + offs, tk::maximum(x, 1.0f));                         // a NaN loses: 1
  tk::store(out + 8 + offs, tk::maximum(x, 1.0f, tk::propagate_nan::all)); // a NaN wins
  tk::store(out + 12 + offs, tk::clamp(x, -1.0f, 1.0f, tk::propagate_nan::all));
});
// [/snippet]

// [snippet:softmax]
// The softmax of each row of a [4, 16] tile: tl.softmax(x, dim=1, keep_dims=True).
auto row_softmax = tk::jit("row_softmax", [](tk::ptr<float> out, tk::ptr<const float> in) {
  auto offs = tk::arange(0, 4)(tk::_, tk::newaxis) * 16 + tk::arange(0, 16)(tk::newaxis, tk::_);
  auto x = tk::load(in + offs);
  tk::store(out + offs, tk::softmax(x, 1, tk::keep_dims));
});
// [/snippet]

// [snippet:ir_kernel]
auto precision = tk::jit("precision", [](tk::ptr<float> out, tk::ptr<const float> in) {
  auto offs = tk::arange(0, 128);
  auto x = tk::load(in + offs);
  auto a = tk::sqrt(x);    // may be approximated
  auto b = tk::sqrt_rn(x); // rounded to nearest
  auto c = tk::fdiv(a, b); // may be approximated; a / b would not be
  auto d = tk::exp10(c);   // libdevice's __nv_exp10f
  tk::store(out + offs, d);
});
// [/snippet]

} // namespace

DOC_EXAMPLE("math.library") {
  const std::vector<float> x = {-3, -1, -0.5f, 0, 0.5f, 1, 2.5f, 3}, y = {4, 0, 1, 0, 2, 1, 1, 4};
  std::vector<float> out(32);
  functions.interpret(tk::grid(1), out, x, y);
  for (std::size_t k = 0; k < 8; ++k) {
    const double v = x[k], inner = 0.7978845608 * (v + 0.044715 * v * v * v);
    doc::check_near(out[k], 0.5 * v * (1 + std::tanh(inner)));
    doc::check_near(out[8 + k], std::hypot(v, double(y[k])));
  }
  doc::check(out[16 + 6] == 3 && out[24 + 6] == 2, "2.5 rounds to 3, and to even: 2");
  doc::check(out[16 + 2] == -1 && out[24 + 2] == 0, "-0.5 rounds to -1, and to even: -0");
}

DOC_EXAMPLE("math.nan") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {nan, 2, -3, 0.5f};
  std::vector<float> out(16);
  nans.interpret(tk::grid(1), out, x);
  doc::check(out[0] == 0 && out[1] == 2, "isnan picks the NaN");
  doc::check(out[4] == 1 && out[5] == 2, "maximum: the number wins over NaN");
  doc::check(std::isnan(out[8]) && out[9] == 2, "propagate_nan::all: NaN wins");
  doc::check(std::isnan(out[12]) && out[13] == 1 && out[14] == -1 && out[15] == 0.5f,
             "clamp keeps the NaN");
}

DOC_EXAMPLE("math.softmax") {
  std::vector<float> in(64), out(64);
  for (std::size_t k = 0; k < in.size(); ++k)
    in[k] = float(k % 16) * 0.25f - float(k / 16);
  row_softmax.interpret(tk::grid(1), out, in);
  for (std::size_t r = 0; r < 4; ++r) {
    double total = 0;
    for (std::size_t c = 0; c < 16; ++c)
      total += out[r * 16 + c];
    doc::check_near(total, 1.0, 1e-6);
  }
  doc::check(out[15] > out[14] && out[14] > out[0], "larger inputs, larger weights");
}

DOC_IR("ir.math") {
  alignas(16) static float out[128], in[128];
  return precision.ir(out, in);
}

/// @file extern.cpp
/// docs/writing-kernels.md, "Device functions by name": tk::libdevice and tk::extern_elementwise.
#include "doc_examples.hpp"

#include <cmath>
#include <span>
#include <vector>

namespace {

// [snippet:libdevice]
// Triton's `libdevice.erfcx(x)` and `libdevice.copysign(x, y)`: the same names.
auto scaled_tail = tk::jit("scaled_tail", [](tk::ptr<float> out, tk::ptr<const float> px) {
  auto offs = tk::arange(0, 8);
  auto x = tk::load(px + offs);
  tk::store(out + offs, tk::libdevice::erfcx(x)); // exp(x^2) erfc(x), without overflow
  tk::store(out + 8 + offs, tk::libdevice::copysign(1.0f, x));
});
// [/snippet]

// [snippet:extern]
// A function of your own: `softsign` from a library file, which the backend links and inlines.
// The interpreter cannot run LLVM code: it runs `host` for each element instead.
double softsign(std::span<const double> x) { return x[0] / (1 + std::fabs(x[0])); }

auto apply_softsign = tk::jit("apply_softsign", [](tk::ptr<float> out, tk::ptr<const float> px) {
  auto offs = tk::arange(0, 8);
  auto x = tk::load(px + offs);
  auto y = tk::extern_elementwise<float>("softsignf", std::tuple{x},
                                         {.library = "activations.bc", .host = softsign});
  tk::store(out + offs, y);
});
// [/snippet]

} // namespace

DOC_EXAMPLE("extern.libdevice") {
  const std::vector<float> x = {-2, -1, -0.5f, 0, 0.5f, 1, 2, 30};
  std::vector<float> out(16);
  scaled_tail.interpret(tk::grid(1), out, x);
  for (std::size_t k = 0; k < 8; ++k)
    doc::check(out[8 + k] == std::copysign(1.0f, x[k]), "copysign(1, x)");
  doc::check_near(out[0], std::exp(4.0) * std::erfc(-2.0));
  doc::check(std::isfinite(out[7]) && out[7] > 0.018f && out[7] < 0.019f,
             "erfcx(30) = 0.0188, where exp(900) alone would overflow");
}

DOC_EXAMPLE("extern.library") {
  const std::vector<float> x = {-3, -1, -0.5f, 0, 0.5f, 1, 2, 3};
  std::vector<float> out(8);
  apply_softsign.interpret(tk::grid(1), out, x);
  for (std::size_t k = 0; k < 8; ++k)
    doc::check_near(out[k], x[k] / (1 + std::fabs(double(x[k]))));
}

/// @file pdl.cpp
/// docs/writing-kernels.md, "Programmatic dependent launch": tk::gdc_wait,
/// tk::gdc_launch_dependents and launch_options::launch_pdl.
#include "doc_examples.hpp"

#include <vector>

namespace {

// [snippet:kernel]
// y = x * scale + bias, where x is what the kernel before this one wrote and scale, bias are
// weights no kernel writes: their loads overlap that kernel's tail.
auto scale_shift =
    tk::jit("scale_shift", [](tk::ptr<float> y, tk::ptr<const float> x, tk::ptr<const float> scale,
                              tk::ptr<const float> bias, tk::i32 n, tk::constant<int> BLOCK) {
      auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offs < n;
      auto s = tk::load(scale + offs, mask);
      auto b = tk::load(bias + offs, mask);
      tk::gdc_wait(); // x is written by the previous kernel: wait for it
      auto v = tk::load(x + offs, mask);
      tk::gdc_launch_dependents(); // the next kernel may start its own preamble now
      tk::store(y + offs, v * s + b, mask);
    });
// [/snippet]

} // namespace

DOC_EXAMPLE("pdl.chain") {
  const int n = 3000;
  std::vector<float> x(n, 2.0f), scale(n, 3.0f), bias(n, 1.0f), y(n), z(n);
  const tk::backend backend = tk::backend::interpreter;
  // [snippet:launch]
  // Two dependent launches on one stream; the second may start while the first finishes.
  const tk::launch_options pdl{.backend = backend, .launch_pdl = true};
  const tk::grid grid(tk::cdiv(n, 1024));
  scale_shift.launch(grid, pdl, y.data(), x.data(), scale.data(), bias.data(), n,
                     tk::constant(1024));
  scale_shift.launch(grid, pdl, z.data(), y.data(), scale.data(), bias.data(), n,
                     tk::constant(1024));
  // [/snippet]
  for (int i = 0; i < n; ++i)
    doc::check(y[std::size_t(i)] == 7.0f && z[std::size_t(i)] == 22.0f, "(2 * 3 + 1) * 3 + 1");
}

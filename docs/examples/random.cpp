/// @file random.cpp
/// docs/writing-kernels.md: random numbers (dropout whose mask is regenerated from the seed).
#include "doc_examples.hpp"

#include <cstdint>
#include <vector>

namespace {

// [snippet:dropout]
// Dropout: keeps x with probability 1 - p, scaled by 1 / (1 - p). The mask is a function of
// (seed, offset) alone, so the backward pass regenerates it instead of reading a stored one.
auto dropout = tk::jit("dropout", [](tk::ptr<float> out, tk::ptr<const float> x, tk::i32 n,
                                     tk::f32 p, tk::i64 seed, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offs < n;
  auto keep = tk::rand(seed, offs) > p; // uniform in [0, 1), as Triton's tl.rand
  tk::store(out + offs, tk::where(keep, tk::load(x + offs, mask) / (1 - p), 0.0f), mask);
});
// [/snippet]

} // namespace

DOC_EXAMPLE("random.dropout") {
  const int n = 1000;
  std::vector<float> x(n, 1.0f), a(n), b(n), c(n);
  dropout.interpret(tk::grid(tk::cdiv(n, 256)), a, x, n, 0.25f, std::int64_t(7), 256);
  dropout.interpret(tk::grid(tk::cdiv(n, 256)), b, x, n, 0.25f, std::int64_t(7), 256);
  dropout.interpret(tk::grid(tk::cdiv(n, 256)), c, x, n, 0.25f, std::int64_t(8), 256);
  int kept = 0;
  for (float v : a)
    kept += v != 0.0f;
  doc::check(a == b, "the same seed gives the same mask");
  doc::check(a != c, "another seed, another mask");
  doc::check(kept > 700 && kept < 800, "about three quarters kept");
}

/// @file 04-low-memory-dropout.cpp
/// Low-memory dropout, Triton's tutorial 04 (kernels/dropout.hpp). First the baseline, whose keep
/// mask is an input in memory; then the seeded form: the forward pass drops each element with
/// probability p and scales the rest by 1 / (1 - p); the backward pass regenerates the same mask
/// from the seed and applies it to the gradient. Nothing but the seed links the two. Checks both
/// against a host reference that computes Philox 4x32-10 itself (the mask must match element for
/// element), that the backward pass kept exactly the elements the forward kept, and that another
/// seed drops other elements.
#include "example_support.hpp"
#include "kernels/dropout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

/// The first word of Philox 4x32-10 of the counter (offset, 0, 0, 0) under the key (the seed's
/// low and high halves): the bits `tk::randint(seed, offset)` gives, as Triton defines them.
std::uint32_t philox_first_word(std::uint64_t seed, std::uint32_t offset) {
  std::uint32_t k0 = std::uint32_t(seed), k1 = std::uint32_t(seed >> 32);
  std::uint32_t x0 = offset, x1 = 0, x2 = 0, x3 = 0;
  for (int round = 0; round < 10; ++round) {
    const std::uint32_t p0 = x0, p2 = x2;
    x0 = std::uint32_t((std::uint64_t(p2) * 0xCD9E8D57u) >> 32) ^ x1 ^ k0;
    x2 = std::uint32_t((std::uint64_t(p0) * 0xD2511F53u) >> 32) ^ x3 ^ k1;
    x1 = p2 * 0xCD9E8D57u;
    x3 = p0 * 0xD2511F53u;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return x0;
}

/// `tk::rand`: the bits as i32, negative values folded onto the others, times 2^-31 (rounded).
float uniform_of(std::uint32_t bits) {
  std::int32_t i = std::int32_t(bits);
  if (i < 0)
    i = ~i;
  return float(i) * 4.6566127342e-10f;
}

} // namespace

int main() {
  const example::target where = example::choose_target();
  const int n = (1 << 18) + 3; // not a multiple of the block: the last program is masked
  const int block = 1024;
  const float p = 0.3f;
  const std::int64_t seed = 0x5EED5EED1234; // one per training step

  example::uniform activation(0.25f, 2.0f, 11), gradient(-2.0f, -0.25f, 12); // never 0
  std::vector<float> x(n), y(n), dy(n), dx(n);
  for (auto &v : x)
    v = activation();
  for (auto &v : dy)
    v = gradient();

  // The baseline's mask, drawn on the host and read by the kernel.
  std::vector<std::int8_t> keep_mask(std::size_t(n), 0);
  example::uniform draw(0.0f, 1.0f, 13);
  for (auto &k : keep_mask)
    k = draw() > p;
  std::vector<float> y_masked(n), y_other_seed(n);

  example::array<float> x_arg(where, x), dy_arg(where, dy);
  example::array<float> y_arg(where, y, example::output), dx_arg(where, dx, example::output);
  example::array<std::int8_t> keep_arg(where, keep_mask);
  example::array<float> y_masked_arg(where, y_masked, example::output);
  example::array<float> y_other_arg(where, y_other_seed, example::output);
  const tk::launch_options options{.backend = where.backend};
  const tk::grid grid(tk::cdiv(n, block));
  const double ms = example::time_ms([&] {
    examples::dropout_with_mask.launch(grid, options, y_masked_arg.arg(), x_arg.input(),
                                       keep_arg.input(), n, p, tk::constant(block));
    examples::dropout_forward.launch(grid, options, y_arg.arg(), x_arg.input(), n, p, seed,
                                     tk::constant(block));
    examples::dropout_backward.launch(grid, options, dx_arg.arg(), dy_arg.input(), n, p, seed,
                                      tk::constant(block));
    examples::dropout_forward.launch(grid, options, y_other_arg.arg(), x_arg.input(), n, p,
                                     seed + 1, tk::constant(block));
    for (auto *out : {&y_masked_arg, &y_arg, &dx_arg, &y_other_arg})
      out->fetch();
  });

  // The mask must be the reference's, element for element, in both passes (a wrong element
  // counts as an error of 1); the kept values are within an f32 rounding of the reference's.
  const float scale = 1.0f / (1.0f - p);
  double max_error = 0;
  int kept = 0, disagree = 0, same_as_other_seed = 0;
  auto track = [&](float got, float want) {
    const double err = (got == 0) != (want == 0)
                           ? 1.0
                           : std::fabs(double(got) - want) / std::max(1.0, std::fabs(double(want)));
    if (std::isnan(err) || err > max_error)
      max_error = err;
  };
  for (int k = 0; k < n; ++k) {
    const bool keep = uniform_of(philox_first_word(std::uint64_t(seed), std::uint32_t(k))) > p;
    kept += keep;
    track(y[std::size_t(k)], keep ? x[std::size_t(k)] * scale : 0.0f);
    track(dx[std::size_t(k)], keep ? dy[std::size_t(k)] * scale : 0.0f);
    disagree += (y[std::size_t(k)] != 0) != (dx[std::size_t(k)] != 0);
    same_as_other_seed += (y[std::size_t(k)] != 0) == (y_other_seed[std::size_t(k)] != 0);
    track(y_masked[std::size_t(k)], keep_mask[std::size_t(k)] ? x[std::size_t(k)] * scale : 0.f);
  }
  if (disagree != 0) // the backward pass must drop exactly what the forward pass dropped
    max_error = std::max(max_error, 1.0);
  const double kept_fraction = double(kept) / n;
  if (std::fabs(kept_fraction - (1 - p)) > 0.01) // the seed's numbers are uniform
    max_error = std::max(max_error, 1.0);
  // Independent masks agree on p^2 + (1 - p)^2 of the elements (0.58 at p = 0.3), not all.
  const double agreement = double(same_as_other_seed) / n;
  if (std::fabs(agreement - (p * p + (1 - p) * (1 - p))) > 0.01)
    max_error = std::max(max_error, 1.0);
  return example::report("dropout",
                         std::to_string(n) + " f32, p " + std::to_string(p).substr(0, 4) +
                             ", baseline, forward and backward, " + std::to_string(kept) + " kept",
                         where, max_error, std::ldexp(1.0, -23), ms);
}

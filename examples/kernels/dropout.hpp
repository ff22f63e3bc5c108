/// @file dropout.hpp
/// Fused dropout, the Triton tutorial's "low-memory dropout", forward and backward. Each element
/// is kept with probability 1 - p and scaled by 1 / (1 - p), or dropped (0). The mask is never
/// stored: it is a function of (seed, element offset) alone, through Philox random numbers
/// (`tk::rand`, Triton's `tl.rand`), so the backward pass regenerates exactly the forward pass's
/// mask from the seed, and the pair reads and writes no mask buffer at all.
///
/// Launch contract (both kernels):
/// - grid: `tk::grid(tk::cdiv(n, BLOCK))`, BLOCK elements per program instance;
/// - `dropout_forward(Y, X, n, p, seed, BLOCK)`: `X` holds `n` elements of a float type (f16,
///   bf16 or f32; the parameters are `auto`), `Y` receives `n` of its own type; `p`, the
///   probability of dropping an element, is in [0, 1); `seed` is any 64-bit integer, a new one
///   for each forward pass (each training step);
/// - `dropout_backward(DX, DY, n, p, seed, BLOCK)`: the gradient through the same dropout: the
///   same `p` and `seed` as the forward pass it undoes, and `n` gradients of a float type;
/// - `dropout_with_mask(Y, X, KEEP, n, p, BLOCK)`: the tutorial's baseline, for comparison: the
///   mask is an input, `n` bytes of `KEEP` (non-zero: keep), which the backward pass would have
///   to read again;
/// - BLOCK a power of two, passed as `tk::constant<int>`. Offsets are 32-bit: n < 2^31.
#pragma once

#include <tk/tk.hpp>

#include <cstdint>

namespace examples {

// [snippet:dropout]
/// Dropout of `x`, the elements at `offsets`: each scaled by 1 / (1 - p) where the uniform random
/// number of (seed, offset) is above p, 0 elsewhere. Both passes call it with the same seed and
/// offsets, so they keep the same elements.
inline auto dropout_block(const auto &x, const tk::block<std::int32_t, 1> &offsets, tk::f32 p,
                          tk::i64 seed) {
  auto keep = tk::rand(seed, offsets) > p; // uniform in [0, 1), as Triton's tl.rand
  auto scale = 1.0f / (1.0f - p);
  return tk::where(keep, x * scale, 0.0f);
}

inline auto dropout_forward = tk::jit("dropout_forward", [](auto Y, auto X, tk::i32 n, tk::f32 p,
                                                            tk::i64 seed, tk::constant<int> BLOCK) {
  auto offsets = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offsets < n;
  auto x = tk::cast<float>(tk::load(X + offsets, mask, 0));
  tk::store(Y + offsets, dropout_block(x, offsets, p, seed), mask);
});

/// dL/dX = dL/dY where the forward pass kept the element, times the same scale; 0 where it
/// dropped it: the forward's mask, regenerated from the seed.
inline auto dropout_backward =
    tk::jit("dropout_backward",
            [](auto DX, auto DY, tk::i32 n, tk::f32 p, tk::i64 seed, tk::constant<int> BLOCK) {
              auto offsets = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
              auto mask = offsets < n;
              auto dy = tk::cast<float>(tk::load(DY + offsets, mask, 0));
              tk::store(DX + offsets, dropout_block(dy, offsets, p, seed), mask);
            });
// [/snippet]

inline auto dropout_with_mask =
    tk::jit("dropout_with_mask", [](auto Y, auto X, tk::ptr<const std::int8_t> KEEP, tk::i32 n,
                                    tk::f32 p, tk::constant<int> BLOCK) {
      auto offsets = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offsets < n;
      auto x = tk::cast<float>(tk::load(X + offsets, mask, 0));
      auto keep = tk::load(KEEP + offsets, mask, 0) != 0;
      tk::store(Y + offsets, tk::where(keep, x * (1.0f / (1.0f - p)), 0.0f), mask);
    });

} // namespace examples

/// @file softmax.hpp
/// Fused softmax, the second Triton tutorial's kernel: each row x of `in` becomes
/// exp(x - max(x)) / sum(exp(x - max(x))) in `out`, in f32. The whole row is loaded at once (padded
/// to BLOCK lanes, the padding masked to -inf) and normalized in registers.
///
/// Launch contract:
/// - grid: `tk::grid(rows)`, one program instance per row;
/// - arguments: `out` and `in` are row-major with `stride` floats between rows (only the first
///   `n_cols` of each row are read or written);
/// - constant: BLOCK, a power of two >= n_cols, e.g. `tk::next_pow2(n_cols)`.
///
/// `softmax_tuned` is the same kernel autotuned (tk::autotune) over its warp count.
#pragma once

#include <tk/tk.hpp>

namespace examples {

// [snippet:softmax]
inline auto softmax =
    tk::jit("softmax", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 stride,
                          tk::i32 n_cols, tk::constant<int> BLOCK) {
      auto row = tk::program_id(0);
      auto cols = tk::arange(0, BLOCK);
      auto mask = cols < n_cols;
      auto x = tk::load(in + row * stride + cols, mask, -tk::inf<float>());
      auto e = tk::exp(x - tk::max(x, 0));
      tk::store(out + row * stride + cols, e / tk::sum(e, 0), mask);
    });
// [/snippet]

/// `softmax` with its warp count tuned for each row length (`n_cols`, launch argument 3): the
/// best of 2 to 16 warps depends on how many elements each thread then holds.
inline auto softmax_tuned = tk::autotune(
    softmax, {.configs = {{.num_warps = 2}, {.num_warps = 4}, {.num_warps = 8}, {.num_warps = 16}},
              .key = {3}});

} // namespace examples

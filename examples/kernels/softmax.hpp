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
#pragma once

#include <tk/tk.hpp>

namespace examples {

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

} // namespace examples

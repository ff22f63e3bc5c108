/// @file layernorm.hpp
/// Layer normalization forward, the Triton tutorial's kernel: for each row r of X,
/// Y[r, :] = (X[r, :] - mean) * rstd * W + B with rstd = 1 / sqrt(var + eps), computed in f32
/// whatever the storage type, and the row's mean and rstd stored for a backward pass. The row is
/// walked in BLOCK-wide chunks three times (mean, variance, normalize).
///
/// Launch contract:
/// - grid: `tk::grid(rows)`, one program instance per row;
/// - arguments: `Y` and `X` are row-major with `stride` elements between rows, of the same float
///   type (f16, bf16 or f32; the parameters are `auto`, typed by the launch arguments, and Y is
///   written in its own type); `W` and `B` hold `N` weights and biases of any float type; `Mean`
///   and `Rstd` receive one f32 per row; only the first `N` elements of a row are read or written;
/// - constant: BLOCK, a power of two, passed as `tk::constant<int>` (with `auto` parameters a plain
///   int would become a run-time `tk::i32`).
///
/// `layernorm_tuned` is the same kernel autotuned (tk::autotune) over BLOCK and its warp count.
#pragma once

#include <tk/tk.hpp>

namespace examples {

inline auto layernorm = tk::jit(
    "layernorm_fwd", [](auto Y, auto X, auto W, auto B, tk::ptr<float> Mean, tk::ptr<float> Rstd,
                        tk::i32 stride, tk::i32 N, tk::f32 eps, tk::constant<int> BLOCK) {
      auto row = tk::program_id(0);
      auto x_row = X + row * stride;
      auto y_row = Y + row * stride;

      // Mean.
      auto sum = tk::zeros<float>({BLOCK});
      tk::for_range(0, N, BLOCK, [&](tk::i32 off) {
        auto cols = off + tk::arange(0, BLOCK);
        sum += tk::cast<float>(tk::load(x_row + cols, cols < N, 0));
      });
      auto mean = tk::sum(sum, 0) / N;

      // Variance; the masked tail would otherwise add mean^2 per lane.
      auto sq = tk::zeros<float>({BLOCK});
      tk::for_range(0, N, BLOCK, [&](tk::i32 off) {
        auto cols = off + tk::arange(0, BLOCK);
        auto x = tk::cast<float>(tk::load(x_row + cols, cols < N, 0));
        auto d = tk::where(cols < N, x - mean, 0.0f);
        sq += d * d;
      });
      auto var = tk::sum(sq, 0) / N;
      auto rstd = 1 / tk::sqrt(var + eps);
      tk::store(Mean + row, mean);
      tk::store(Rstd + row, rstd);

      // Normalize and apply the affine transform; tk::store converts y to Y's element type.
      tk::for_range(0, N, BLOCK, [&](tk::i32 off) {
        auto cols = off + tk::arange(0, BLOCK);
        auto mask = cols < N;
        auto w = tk::load(W + cols, mask);
        auto b = tk::load(B + cols, mask);
        auto x = tk::cast<float>(tk::load(x_row + cols, mask, 0));
        auto y = (x - mean) * rstd * w + b;
        tk::store(y_row + cols, y, mask);
      });
    });

/// `layernorm` with BLOCK and the warp count tuned for each row length (`N`, launch argument 7);
/// pass `tk::tuned<int>("BLOCK")` for BLOCK.
inline auto layernorm_tuned =
    tk::autotune(layernorm, {.configs = {{.constants = {{"BLOCK", 1024}}, .num_warps = 4},
                                         {.constants = {{"BLOCK", 1024}}, .num_warps = 8},
                                         {.constants = {{"BLOCK", 2048}}, .num_warps = 4},
                                         {.constants = {{"BLOCK", 2048}}, .num_warps = 8},
                                         {.constants = {{"BLOCK", 4096}}, .num_warps = 8},
                                         {.constants = {{"BLOCK", 4096}}, .num_warps = 16},
                                         {.constants = {{"BLOCK", 8192}}, .num_warps = 8},
                                         {.constants = {{"BLOCK", 8192}}, .num_warps = 16}},
                             .key = {7}});

} // namespace examples

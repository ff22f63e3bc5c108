/// @file block_scaled_matmul.hpp
/// Block-scaled matmul, Triton's tutorial 10: C = A x Bᵀ in f32 for microscaled operands,
/// through `tk::dot_scaled`: MXFP8 (e4m3 bytes), MXFP4 (e2m1, two values to a byte, the first in
/// the low nibble) or a mix, each run of 32 values along K scaled by its own e8m0 exponent; or
/// NVFP4, e2m1 with an e4m3 scale for each run of 16.
/// On GPUs without scaled tensor-core instructions (Hopper and older) `tk::dot_scaled` decodes
/// each side, scales it, rounds it to bf16 and multiplies on the bf16 tensor cores, as Triton
/// does there.
///
/// Launch contract:
/// - grid: `tk::grid(tk::cdiv(M, BLOCK_M) * tk::cdiv(N, BLOCK_N))`;
/// - `a`: M x K values of A_FORMAT, row-major, as bytes (K / 2 bytes a row for e2m1); `b`: N x K
///   values of B_FORMAT the same way (B given transposed, K contiguous, as the tutorial stores
///   it); `a_scale`, `b_scale`: M x K / 32 and N x K / 32 e8m0 bytes (`std::uint8_t`, value
///   2^(s - 127)), or M x K / 16 and N x K / 16 `tk::f8e4m3` scales (NVFP4); `c`: M x N f32,
///   row-major;
/// - constants A_FORMAT, B_FORMAT (`tk::mx_format::e4m3`, `e5m2` or `e2m1`); BLOCK_M, BLOCK_N,
///   powers of two >= 16; BLOCK_K a power of two >= 64 that divides K (no K tail, as in the
///   tutorial). M and N need not be multiples of the blocks.
#pragma once

#include "matmul.hpp"

#include <tk/tk.hpp>

#include <cstdint>
#include <type_traits>

namespace examples {

// [snippet:block_scaled_matmul]
inline auto block_scaled_matmul = tk::jit(
    "block_scaled_matmul_kernel",
    [](tk::ptr<float> c, tk::ptr<const std::uint8_t> a, auto a_scale, tk::ptr<const std::uint8_t> b,
       auto b_scale, tk::i32 M, tk::i32 N, tk::i32 K, tk::constant<tk::mx_format> A_FORMAT,
       tk::constant<tk::mx_format> B_FORMAT, tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N,
       tk::constant<int> BLOCK_K) {
      auto [pid_m, pid_n] = grouped_tile(tk::program_id(0), M, N, BLOCK_M, BLOCK_N, 8);
      // Values per scale, as the scales' type says: 16 for e4m3 (NVFP4), 32 for e8m0 bytes.
      using scale_type =
          std::remove_const_t<std::remove_pointer_t<typename decltype(a_scale)::element_type>>;
      static_assert(std::is_same_v<decltype(a_scale), decltype(b_scale)>,
                    "block_scaled_matmul: both sides' scales are of one type");
      const int VEC = std::is_same_v<scale_type, tk::f8e4m3> ? 16 : 32;
      // Values per byte of each side: two for e2m1, one for the fp8 formats.
      const int a_pack = A_FORMAT == tk::mx_format::e2m1 ? 2 : 1;
      const int b_pack = B_FORMAT == tk::mx_format::e2m1 ? 2 : 1;
      // Rows past M or N wrap around: loaded, never stored.
      auto rows_a = (pid_m * BLOCK_M + tk::arange(0, BLOCK_M)) % M;
      auto rows_b = (pid_n * BLOCK_N + tk::arange(0, BLOCK_N)) % N;
      auto a_ptrs = a + rows_a(tk::_, tk::newaxis) * (K / a_pack) +
                    tk::arange(0, BLOCK_K / a_pack)(tk::newaxis, tk::_);
      auto b_ptrs = b + rows_b(tk::_, tk::newaxis) * (K / b_pack) +
                    tk::arange(0, BLOCK_K / b_pack)(tk::newaxis, tk::_);
      auto scale_cols = tk::arange(0, BLOCK_K / VEC)(tk::newaxis, tk::_);
      auto a_scale_ptrs = a_scale + rows_a(tk::_, tk::newaxis) * (K / VEC) + scale_cols;
      auto b_scale_ptrs = b_scale + rows_b(tk::_, tk::newaxis) * (K / VEC) + scale_cols;
      auto acc = tk::zeros<float>({BLOCK_M, BLOCK_N});
      tk::for_range(0, K / BLOCK_K, [&](tk::i32) {
        auto b_tile = tk::trans(tk::load(b_ptrs)); // [BLOCK_K / b_pack, BLOCK_N]: packed along K
        acc = tk::dot_scaled(tk::load(a_ptrs), tk::load(a_scale_ptrs), A_FORMAT, b_tile,
                             tk::load(b_scale_ptrs), B_FORMAT, acc);
        a_ptrs += BLOCK_K / a_pack;
        b_ptrs += BLOCK_K / b_pack;
        a_scale_ptrs += BLOCK_K / VEC;
        b_scale_ptrs += BLOCK_K / VEC;
      });
      // [/snippet]
      store_tile(c, acc, pid_m, pid_n, M, N, N, 1, BLOCK_M, BLOCK_N);
    });

} // namespace examples

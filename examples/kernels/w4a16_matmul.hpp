/// @file w4a16_matmul.hpp
/// A weight-only quantized matmul (W4A16): C = A x dequant(W)^T, with A M x K in f16 and W N x K
/// in signed 4-bit integers with one f16 scale per group of G consecutive k of each row, as
/// GPTQ-style checkpoints store linear layers. Each program instance computes one BLOCK_M x
/// BLOCK_N tile of C like `matmul`; per K step it loads BLOCK_K / 2 packed bytes of each weight
/// row, unpacks the two nibbles with shifts, puts them back in k order with `tk::interleave`,
/// scales them to f16 and feeds them to the tensor cores with `tk::dot`. The weights move through
/// memory at a quarter of f16's bytes, which is what decode-sized (small M) products are bound by.
///
/// Launch contract:
/// - grid: `tk::grid(tk::cdiv(M, BLOCK_M) * tk::cdiv(N, BLOCK_N))`;
/// - `c`: M x N f16, row-major; `a`: M x K f16, row-major;
/// - `w`: N x K / 2 bytes, row-major: byte j of row n holds k = 2j in its low nibble and k = 2j + 1
///   in its high nibble, each a two's-complement value in [-8, 7];
/// - `scales`: K / G x N f16, row-major: the scale of group g of row n at g * N + n;
/// - constants: BLOCK_M, BLOCK_N >= 16 and BLOCK_K >= 32, powers of two; GROUP_M >= 1; G, the
///   group size, a multiple of BLOCK_K. K must be a multiple of G (every group whole), so the K
///   loop has no tail.
#pragma once

#include <tk/tk.hpp>

namespace examples {

inline auto w4a16_matmul = tk::jit(
    "w4a16_matmul", [](tk::ptr<tk::half> c, tk::ptr<const tk::half> a, tk::ptr<const std::int8_t> w,
                       tk::ptr<const tk::half> scales, tk::i32 M, tk::i32 N, tk::i32 K,
                       tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N,
                       tk::constant<int> BLOCK_K, tk::constant<int> GROUP_M, tk::constant<int> G) {
      // Tiles in groups of GROUP_M rows, as `matmul` orders them (Triton's tl.swizzle2d).
      auto pid = tk::program_id(0);
      auto num_pid_n = tk::cdiv(N, BLOCK_N);
      auto [pid_m, pid_n] =
          tk::swizzle2d(pid / num_pid_n, pid % num_pid_n, tk::cdiv(M, BLOCK_M), num_pid_n, GROUP_M);

      // Rows past the edges wrap around: loaded, never stored.
      auto offs_m = (pid_m * BLOCK_M + tk::arange(0, BLOCK_M)) % M;
      auto offs_n = (pid_n * BLOCK_N + tk::arange(0, BLOCK_N)) % N;
      auto a_ptrs = a + offs_m(tk::_, tk::newaxis) * K + tk::arange(0, BLOCK_K)(tk::newaxis, tk::_);
      auto w_ptrs = w + offs_n(tk::_, tk::newaxis) * (K / 2) +
                    tk::arange(0, BLOCK_K / 2)(tk::newaxis, tk::_); // [BLOCK_N, BLOCK_K / 2]
      auto s_ptrs = scales + offs_n;

      auto acc = tk::zeros<float>({BLOCK_M, BLOCK_N});
      tk::for_range(0, K / BLOCK_K, [&](tk::i32 k) {
        auto a_tile = tk::load(a_ptrs);
        auto packed = tk::load(w_ptrs);
        // Two's-complement nibbles: shifting left then arithmetically right sign-extends.
        auto low = (packed << 4) >> 4;
        auto high = packed >> 4;
        auto nibbles = tk::interleave(low, high); // [BLOCK_N, BLOCK_K], k order
        auto scale = tk::load(s_ptrs + (k * BLOCK_K / G) * N);
        auto w_tile = tk::cast<tk::half>(nibbles) * scale(tk::_, tk::newaxis);
        acc = tk::dot(a_tile, tk::trans(w_tile), acc);
        a_ptrs += BLOCK_K;
        w_ptrs += BLOCK_K / 2;
      });

      auto offs_cm = pid_m * BLOCK_M + tk::arange(0, BLOCK_M);
      auto offs_cn = pid_n * BLOCK_N + tk::arange(0, BLOCK_N);
      auto c_mask = (offs_cm(tk::_, tk::newaxis) < M) & (offs_cn(tk::newaxis, tk::_) < N);
      tk::store(c + offs_cm(tk::_, tk::newaxis) * N + offs_cn(tk::newaxis, tk::_), acc, c_mask);
    });

} // namespace examples

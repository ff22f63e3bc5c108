/// @file matmul.hpp
/// Matrix multiplication, the Triton tutorial's kernel: C = A x B with A M x K, B K x N and C
/// M x N, any strides. Each program instance computes one BLOCK_M x BLOCK_N tile of C, walking K
/// in BLOCK_K steps with tk::dot into an f32 accumulator. Programs are ordered in groups of GROUP_M
/// rows of tiles so that neighbours share tiles of A and B in the L2 cache.
///
/// Launch contract:
/// - grid: `tk::grid(tk::cdiv(M, BLOCK_M) * tk::cdiv(N, BLOCK_N))`, one program instance per tile;
/// - arguments: `a` and `b` point to one float type (f16, bf16 or f32) or to fp8 (f8e4m3, f8e5m2,
///   either mix; for sm_90's wgmma, pass B with K contiguous: stride_bk = 1), `c` to any float type
///   (the pointer parameters are `auto`, typed by the launch arguments; the f32 accumulator is
///   stored converted to c's type); `stride_xy` is the distance between neighbours along dimension
///   y of matrix x, in elements (row-major A: stride_am = K, stride_ak = 1; column-major B:
///   stride_bk = 1, stride_bn = K);
/// - constants, passed as `tk::constant` (with `auto` parameters a plain int would become a
///   run-time `tk::i32`): BLOCK_M, BLOCK_N, BLOCK_K, powers of two >= 16; GROUP_M >= 1;
///   INPUT_PRECISION, how tk::dot multiplies f32 inputs (tf32 or ieee; no effect on f16/bf16).
#pragma once

#include <tk/tk.hpp>

#include <utility>

namespace examples {

/// The tile of C, (pid_m, pid_n), that program `pid` computes: programs are ordered in groups of
/// GROUP_M rows of tiles, down each group's columns, so that neighbours share tiles of A and B.
inline auto grouped_tile(const tk::i32 &pid, const tk::i32 &M, const tk::i32 &N, int BLOCK_M,
                         int BLOCK_N, int GROUP_M) {
  auto num_pid_m = tk::cdiv(M, BLOCK_M);
  auto num_pid_n = tk::cdiv(N, BLOCK_N);
  auto num_pid_in_group = GROUP_M * num_pid_n;
  auto group_id = pid / num_pid_in_group;
  auto first_pid_m = group_id * GROUP_M;
  auto group_size_m = tk::minimum(num_pid_m - first_pid_m, GROUP_M);
  auto pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
  auto pid_n = (pid % num_pid_in_group) / group_size_m;
  return std::pair{pid_m, pid_n};
}

/// The BLOCK_M x BLOCK_N tile (pid_m, pid_n) of A x B in f32, walking K in BLOCK_K steps through
/// pointers. Rows and columns past the edge wrap around (% M, % N): they are loaded but never
/// stored, which keeps the loads unmasked along M and N; the last step masks the K tail with
/// zeros.
inline auto matmul_accumulate(const auto &a, const auto &b, const tk::i32 &pid_m,
                              const tk::i32 &pid_n, const tk::i32 &M, const tk::i32 &N,
                              const tk::i32 &K, const tk::i32 &stride_am, const tk::i32 &stride_ak,
                              const tk::i32 &stride_bk, const tk::i32 &stride_bn, int BLOCK_M,
                              int BLOCK_N, int BLOCK_K, tk::input_precision precision) {
  auto offs_am = (pid_m * BLOCK_M + tk::arange(0, BLOCK_M)) % M;
  auto offs_bn = (pid_n * BLOCK_N + tk::arange(0, BLOCK_N)) % N;
  auto offs_k = tk::arange(0, BLOCK_K);
  auto a_ptrs =
      a + (offs_am(tk::_, tk::newaxis) * stride_am + offs_k(tk::newaxis, tk::_) * stride_ak);
  auto b_ptrs =
      b + (offs_k(tk::_, tk::newaxis) * stride_bk + offs_bn(tk::newaxis, tk::_) * stride_bn);
  auto acc = tk::zeros<float>({BLOCK_M, BLOCK_N});
  tk::for_range(0, tk::cdiv(K, BLOCK_K), [&](tk::i32 k) {
    auto a_tile = tk::load(a_ptrs, offs_k(tk::newaxis, tk::_) < K - k * BLOCK_K, 0.0f);
    auto b_tile = tk::load(b_ptrs, offs_k(tk::_, tk::newaxis) < K - k * BLOCK_K, 0.0f);
    acc = tk::dot(a_tile, b_tile, acc, precision);
    a_ptrs += BLOCK_K * stride_ak;
    b_ptrs += BLOCK_K * stride_bk;
  });
  return acc;
}

/// Stores `tile` as the tile (pid_m, pid_n) of C (converted to c's element type), masked at the
/// edges of C.
inline void store_tile(const auto &c, const auto &tile, const tk::i32 &pid_m, const tk::i32 &pid_n,
                       const tk::i32 &M, const tk::i32 &N, const tk::i32 &stride_cm,
                       const tk::i32 &stride_cn, int BLOCK_M, int BLOCK_N) {
  auto offs_cm = pid_m * BLOCK_M + tk::arange(0, BLOCK_M);
  auto offs_cn = pid_n * BLOCK_N + tk::arange(0, BLOCK_N);
  auto c_ptrs =
      c + stride_cm * offs_cm(tk::_, tk::newaxis) + stride_cn * offs_cn(tk::newaxis, tk::_);
  auto c_mask = (offs_cm(tk::_, tk::newaxis) < M) & (offs_cn(tk::newaxis, tk::_) < N);
  tk::store(c_ptrs, tile, c_mask);
}

inline auto matmul =
    tk::jit("matmul", [](auto c, auto a, auto b, tk::i32 M, tk::i32 N, tk::i32 K, tk::i32 stride_am,
                         tk::i32 stride_ak, tk::i32 stride_bk, tk::i32 stride_bn, tk::i32 stride_cm,
                         tk::i32 stride_cn, tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N,
                         tk::constant<int> BLOCK_K, tk::constant<int> GROUP_M,
                         tk::constant<tk::input_precision> INPUT_PRECISION) {
      auto [pid_m, pid_n] = grouped_tile(tk::program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M);
      auto acc = matmul_accumulate(a, b, pid_m, pid_n, M, N, K, stride_am, stride_ak, stride_bk,
                                   stride_bn, BLOCK_M, BLOCK_N, BLOCK_K, INPUT_PRECISION);
      store_tile(c, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, BLOCK_M, BLOCK_N);
    });

/// The epilogue of Triton's matmul tutorial, applied to the f32 tile before it is stored.
enum class activation { none, leaky_relu };

/// x where x >= 0, 0.01 x elsewhere.
inline auto leaky_relu(const auto &x) { return tk::where(x >= 0, x, 0.01f * x); }

/// Triton's matmul tutorial as its user writes it: `matmul` with an f16 C and an ACTIVATION
/// (`tk::constant<examples::activation>`) applied to the f32 tile before it is rounded and
/// stored. Same launch contract as `matmul`, with ACTIVATION for INPUT_PRECISION; autotune it over
/// the block sizes (examples/from_triton/03-matrix-multiplication.cpp).
// [snippet:matmul_activation]
inline auto matmul_activation = tk::jit(
    "matmul_kernel",
    [](tk::ptr<tk::half> c, auto a, auto b, tk::i32 M, tk::i32 N, tk::i32 K, tk::i32 stride_am,
       tk::i32 stride_ak, tk::i32 stride_bk, tk::i32 stride_bn, tk::i32 stride_cm,
       tk::i32 stride_cn, tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N,
       tk::constant<int> BLOCK_K, tk::constant<int> GROUP_M, tk::constant<activation> ACTIVATION) {
      auto [pid_m, pid_n] = grouped_tile(tk::program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M);
      auto acc = matmul_accumulate(a, b, pid_m, pid_n, M, N, K, stride_am, stride_ak, stride_bk,
                                   stride_bn, BLOCK_M, BLOCK_N, BLOCK_K, tk::input_precision::tf32);
      if (ACTIVATION == activation::leaky_relu)
        acc = leaky_relu(acc);
      store_tile(c, tk::cast<tk::half>(acc), pid_m, pid_n, M, N, stride_cm, stride_cn, BLOCK_M,
                 BLOCK_N);
    });
// [/snippet]

/// `matmul_activation` autotuned over the tutorial's configurations for each (M, N, K) (launch
/// arguments 3, 4 and 5): pass `tk::tuned<int>` placeholders for BLOCK_M, BLOCK_N, BLOCK_K and
/// GROUP_M, and a grid callable of the constants.
inline auto matmul_activation_tuned = tk::autotune(
    matmul_activation,
    {.configs = {{{{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 64}, {"GROUP_M", 8}}, 8, 3},
                 {{{"BLOCK_M", 64}, {"BLOCK_N", 256}, {"BLOCK_K", 32}, {"GROUP_M", 8}}, 4, 4},
                 {{{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"GROUP_M", 8}}, 4, 4},
                 {{{"BLOCK_M", 128}, {"BLOCK_N", 64}, {"BLOCK_K", 32}, {"GROUP_M", 8}}, 4, 4},
                 {{{"BLOCK_M", 64}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"GROUP_M", 8}}, 4, 4},
                 {{{"BLOCK_M", 128}, {"BLOCK_N", 32}, {"BLOCK_K", 32}, {"GROUP_M", 8}}, 4, 4},
                 {{{"BLOCK_M", 64}, {"BLOCK_N", 32}, {"BLOCK_K", 32}, {"GROUP_M", 8}}, 2, 5},
                 {{{"BLOCK_M", 32}, {"BLOCK_N", 64}, {"BLOCK_K", 32}, {"GROUP_M", 8}}, 2, 5}},
     .key = {3, 4, 5}});

/// `matmul` as a persistent kernel through pointers, Triton's persistent-matmul tutorial's first
/// form: launch at most one program instance per multiprocessor,
/// `tk::grid(std::min(tk::gpu_multiprocessor_count(), tiles))` with tiles = cdiv(M, BLOCK_M) *
/// cdiv(N, BLOCK_N); each walks the tiles pid, pid + num_programs, ... in the grouped order. Same
/// arguments and constants as `matmul`, C of any float type.
// [snippet:matmul_persistent_pointers]
inline auto matmul_persistent_pointers =
    tk::jit("matmul_persistent_pointers",
            [](auto c, auto a, auto b, tk::i32 M, tk::i32 N, tk::i32 K, tk::i32 stride_am,
               tk::i32 stride_ak, tk::i32 stride_bk, tk::i32 stride_bn, tk::i32 stride_cm,
               tk::i32 stride_cn, tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N,
               tk::constant<int> BLOCK_K, tk::constant<int> GROUP_M,
               tk::constant<tk::input_precision> INPUT_PRECISION) {
              auto tiles = tk::cdiv(M, BLOCK_M) * tk::cdiv(N, BLOCK_N);
              tk::for_range(tk::program_id(0), tiles, tk::num_programs(0), [&](tk::i32 tile) {
                auto [pid_m, pid_n] = grouped_tile(tile, M, N, BLOCK_M, BLOCK_N, GROUP_M);
                auto acc =
                    matmul_accumulate(a, b, pid_m, pid_n, M, N, K, stride_am, stride_ak, stride_bk,
                                      stride_bn, BLOCK_M, BLOCK_N, BLOCK_K, INPUT_PRECISION);
                store_tile(c, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, BLOCK_M, BLOCK_N);
              });
              // [/snippet]
            });

/// The same product through tensor descriptors, as Triton's descriptor matmul: A is M x K and B
/// is N x K (B given transposed, K contiguous, as fp8 and wgmma prefer it), C is M x N, each
/// row-major with leading dimensions K, K and N. Blocks past the edges read as zero and are not
/// written, so there are no masks. On sm_90 and newer, with leading dimensions that are
/// multiples of 16 bytes, the launch encodes tensor maps and TMA copies the tiles straight into
/// the shared-memory ring the tensor cores read (`num_stages`). Same grid and constants as
/// `matmul`, without INPUT_PRECISION; `a` and `b` point to f16, bf16 or fp8, `c` to any float.
inline auto matmul_descriptor =
    tk::jit("matmul_descriptor", [](auto c, auto a, auto b, tk::i32 M, tk::i32 N, tk::i32 K,
                                    tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N,
                                    tk::constant<int> BLOCK_K, tk::constant<int> GROUP_M) {
      auto [pid_m, pid_n] = grouped_tile(tk::program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M);

      auto a_desc = tk::make_tensor_descriptor(a, {M, K}, {K, 1}, {BLOCK_M, BLOCK_K});
      auto b_desc = tk::make_tensor_descriptor(b, {N, K}, {K, 1}, {BLOCK_N, BLOCK_K});
      auto c_desc = tk::make_tensor_descriptor(c, {M, N}, {N, 1}, {BLOCK_M, BLOCK_N});
      auto acc = tk::zeros<float>({BLOCK_M, BLOCK_N});
      tk::for_range(0, tk::cdiv(K, BLOCK_K), [&](tk::i32 k) {
        auto a_tile = a_desc.load({pid_m * BLOCK_M, k * BLOCK_K});
        auto b_tile = b_desc.load({pid_n * BLOCK_N, k * BLOCK_K});
        acc = tk::dot(a_tile, tk::trans(b_tile), acc);
      });
      c_desc.store({pid_m * BLOCK_M, pid_n * BLOCK_N}, acc);
    });

/// `matmul_descriptor` as a persistent kernel, as Triton's persistent-matmul tutorial writes it:
/// launch at most one program instance per multiprocessor,
/// `tk::grid(std::min(tk::gpu_multiprocessor_count(), tiles))` with tiles = cdiv(M, BLOCK_M) *
/// cdiv(N, BLOCK_N), and each walks the tiles pid, pid + num_programs, ... in the same grouped
/// order. Same arguments and constants as `matmul_descriptor`.
inline auto matmul_persistent =
    tk::jit("matmul_persistent",
            [](auto c, auto a, auto b, tk::i32 M, tk::i32 N, tk::i32 K, tk::constant<int> BLOCK_M,
               tk::constant<int> BLOCK_N, tk::constant<int> BLOCK_K, tk::constant<int> GROUP_M) {
              auto tiles = tk::cdiv(M, BLOCK_M) * tk::cdiv(N, BLOCK_N);
              auto a_desc = tk::make_tensor_descriptor(a, {M, K}, {K, 1}, {BLOCK_M, BLOCK_K});
              auto b_desc = tk::make_tensor_descriptor(b, {N, K}, {K, 1}, {BLOCK_N, BLOCK_K});
              auto c_desc = tk::make_tensor_descriptor(c, {M, N}, {N, 1}, {BLOCK_M, BLOCK_N});
              tk::for_range(tk::program_id(0), tiles, tk::num_programs(0), [&](tk::i32 tile) {
                auto [pid_m, pid_n] = grouped_tile(tile, M, N, BLOCK_M, BLOCK_N, GROUP_M);
                auto acc = tk::zeros<float>({BLOCK_M, BLOCK_N});
                tk::for_range(0, tk::cdiv(K, BLOCK_K), [&](tk::i32 k) {
                  auto a_tile = a_desc.load({pid_m * BLOCK_M, k * BLOCK_K});
                  auto b_tile = b_desc.load({pid_n * BLOCK_N, k * BLOCK_K});
                  acc = tk::dot(a_tile, tk::trans(b_tile), acc);
                });
                c_desc.store({pid_m * BLOCK_M, pid_n * BLOCK_N}, acc);
              });
            });

/// The same kernel for i8 inputs: C (i32) = A (i8) x B (i8), accumulated exactly in i32 (INT8
/// tensor cores). Same launch contract, without INPUT_PRECISION; `c` points to std::int32_t.
inline auto matmul_i8 = tk::jit(
    "matmul_i8",
    [](tk::ptr<std::int32_t> c, tk::ptr<const std::int8_t> a, tk::ptr<const std::int8_t> b,
       tk::i32 M, tk::i32 N, tk::i32 K, tk::i32 stride_am, tk::i32 stride_ak, tk::i32 stride_bk,
       tk::i32 stride_bn, tk::i32 stride_cm, tk::i32 stride_cn, tk::constant<int> BLOCK_M,
       tk::constant<int> BLOCK_N, tk::constant<int> BLOCK_K, tk::constant<int> GROUP_M) {
      auto [pid_m, pid_n] = grouped_tile(tk::program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M);

      auto offs_am = (pid_m * BLOCK_M + tk::arange(0, BLOCK_M)) % M;
      auto offs_bn = (pid_n * BLOCK_N + tk::arange(0, BLOCK_N)) % N;
      auto offs_k = tk::arange(0, BLOCK_K);
      auto a_ptrs =
          a + (offs_am(tk::_, tk::newaxis) * stride_am + offs_k(tk::newaxis, tk::_) * stride_ak);
      auto b_ptrs =
          b + (offs_k(tk::_, tk::newaxis) * stride_bk + offs_bn(tk::newaxis, tk::_) * stride_bn);

      auto acc = tk::zeros<std::int32_t>({BLOCK_M, BLOCK_N});
      tk::for_range(0, tk::cdiv(K, BLOCK_K), [&](tk::i32 k) {
        // Masked-off elements of the K tail load as zero.
        auto a_tile = tk::load(a_ptrs, offs_k(tk::newaxis, tk::_) < K - k * BLOCK_K);
        auto b_tile = tk::load(b_ptrs, offs_k(tk::_, tk::newaxis) < K - k * BLOCK_K);
        acc = tk::dot(a_tile, b_tile, acc);
        a_ptrs += BLOCK_K * stride_ak;
        b_ptrs += BLOCK_K * stride_bk;
      });

      store_tile(c, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, BLOCK_M, BLOCK_N);
    });

} // namespace examples

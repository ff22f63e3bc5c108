/// @file attention.hpp
/// Flash attention, forward: O = softmax(Q Kᵀ · sm_scale) V for every (batch, head), without
/// ever holding the S x S score matrix. Each program instance owns BLOCK_M rows of Q and walks the
/// keys in BLOCK_N steps, keeping a running row maximum m, a running row sum l and an f32
/// accumulator; a new block of scores rescales the old accumulator by exp2(m_old - m_new) (the
/// "online softmax"). Two dots per step: Q Kᵀ (both loaded tiles) and P V, where P, the
/// probabilities cast back to the input type, is computed in the kernel.
///
/// The key blocks fall in two stages. Blocks wholly inside the sequence and, when causal, wholly
/// below the diagonal need no mask; the rest (the diagonal blocks and the sequence's tail) are
/// masked with -inf. The split keeps the masks out of the loop that does most of the work.
///
/// Launch contract:
/// - grid: `tk::grid(tk::cdiv(seq_len, BLOCK_M), batch * heads)`;
/// - `q`, `k`, `v`, `o` point to contiguous [batch, heads, seq_len, HEAD_DIM] tensors of one
///   16-bit float type (f16 or bf16); each tensor holds fewer than 2^31 elements;
/// - `sm_scale` (positive) multiplies the scores before the softmax (usually 1/sqrt(HEAD_DIM));
/// - constants: HEAD_DIM, BLOCK_M, BLOCK_N, powers of two >= 16 with BLOCK_M a multiple of
///   BLOCK_N; CAUSAL, whether row i attends to keys j <= i only; EVEN_N, true only when seq_len
///   is a multiple of BLOCK_N (`tk::constant(seq_len % BLOCK_N == 0)`). It drops the masked
///   tail: a non-causal kernel then compiles one key loop, not two, in about half the time.
#pragma once

#include <tk/tk.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace examples {

// [snippet:attention]
/// The scores a masked key block keeps: keys inside the sequence (unless `even_n` says no block
/// crosses its end) and, when causal, at or before the query's own position.
inline auto attention_keep(const auto &offs_m, const auto &cols, tk::i32 seq_len, bool causal,
                           bool even_n) {
  auto in_sequence = cols(tk::newaxis, tk::_) < seq_len;
  if (!causal)
    return in_sequence;
  auto below_diagonal = offs_m(tk::_, tk::newaxis) >= cols(tk::newaxis, tk::_);
  return even_n ? below_diagonal : in_sequence & below_diagonal;
}

/// One key block of the online softmax: folds the scores `qk` (BLOCK_M x BLOCK_N, unscaled, -inf
/// where masked) and the values `load_v()` (BLOCK_N x HEAD_DIM, loaded after the softmax) into
/// the running row maximum `m_i`, row sum `l_i` and accumulator `acc`. Scores are kept in base 2:
/// exp(x) = exp2(x · log2(e)), with log2(e) folded into `qk_scale`.
template <class T>
void attention_update(auto &m_i, auto &l_i, auto &acc, const auto &qk, const auto &qk_scale,
                      const auto &load_v) {
  // The row maximum before scaling (the scale is positive), so that scaling and subtracting it
  // is one multiply-add per score.
  auto m_new = tk::maximum(m_i, tk::max(qk, 1) * qk_scale);
  auto p = tk::exp2(qk * qk_scale - m_new(tk::_, tk::newaxis));
  auto alpha = tk::exp2(m_i - m_new);
  l_i = l_i * alpha + tk::sum(p, 1);
  auto v_tile = load_v();
  acc = tk::dot(tk::cast<T>(p), v_tile, acc * alpha(tk::_, tk::newaxis));
  m_i = m_new;
}

/// Runs `stage(lo, hi, masked)` over a program's key blocks in two stages. Unmasked: every key
/// block before the first that crosses the sequence's end or, when causal, this program's
/// diagonal. Masked: the rest, up to the end or the diagonal. With `even_n` (the sequence a
/// multiple of BLOCK_N) no block crosses the end, so a non-causal kernel has no masked stage at
/// all: one loop instead of two, which halves the code the compiler sees. (Were `even_n` wrong,
/// that kernel would drop the tail's keys, but read nothing past the sequence.)
inline void attention_stages(const auto &stage, tk::i32 seq_len, tk::i32 start_m, int BLOCK_M,
                             int BLOCK_N, bool causal, bool even_n) {
  auto full_blocks_end = seq_len / BLOCK_N * BLOCK_N;
  if (even_n && !causal) {
    stage(0, full_blocks_end, false);
    return;
  }
  auto hi = seq_len;
  if (causal) {
    full_blocks_end = tk::minimum(full_blocks_end, start_m * BLOCK_M);
    hi = tk::minimum(hi, (start_m + 1) * BLOCK_M);
  }
  stage(0, full_blocks_end, false);
  stage(full_blocks_end, hi, true);
}

/// The work of one program of `attention` (and of attention_backward.hpp's forward, which also
/// stores the rows' log-sum-exp): its BLOCK_M rows of O, computed and stored; returns their
/// running row maximum m_i and row sum l_i (in the base-2 units of the scaled scores). `what`
/// names the kernel in errors.
template <class T>
auto attention_rows(const auto &o, const auto &q, const auto &k, const auto &v,
                    const tk::f32 &sm_scale, const tk::i32 &seq_len, int HEAD_DIM, int BLOCK_M,
                    int BLOCK_N, bool CAUSAL, bool EVEN_N, const char *what) {
  if (BLOCK_M % BLOCK_N != 0)
    throw tk::error(std::string(what) + ": BLOCK_M (" + std::to_string(BLOCK_M) +
                        ") must be a multiple of BLOCK_N (" + std::to_string(BLOCK_N) + ")",
                    std::source_location::current());
  // This program's rows of Q, in the head (program_id(1)) it works on.
  auto start_m = tk::program_id(0);
  auto head = tk::program_id(1) * seq_len * HEAD_DIM;
  auto offs_m = start_m * BLOCK_M + tk::arange(0, BLOCK_M);
  auto offs_n = tk::arange(0, BLOCK_N);
  auto offs_d = tk::arange(0, HEAD_DIM);
  auto row_mask = offs_m(tk::_, tk::newaxis) < seq_len;
  auto q_tile =
      tk::load(q + head + offs_m(tk::_, tk::newaxis) * HEAD_DIM + offs_d(tk::newaxis, tk::_),
               row_mask, 0.0f);

  auto qk_scale = sm_scale * 1.44269504f;
  auto m_i = tk::full({BLOCK_M}, -tk::inf<float>());
  auto l_i = tk::zeros<float>({BLOCK_M});
  auto acc = tk::zeros<float>({BLOCK_M, HEAD_DIM});

  // One stage: key blocks [lo, hi) in BLOCK_N steps, masked or not (a trace-time choice).
  auto stage = [&](auto lo, auto hi, bool masked) {
    tk::for_range(lo, hi, BLOCK_N, [&](tk::i32 start_n) {
      auto cols = start_n + offs_n;
      auto k_ptrs = k + head + cols(tk::newaxis, tk::_) * HEAD_DIM + offs_d(tk::_, tk::newaxis);
      auto v_ptrs = v + head + cols(tk::_, tk::newaxis) * HEAD_DIM + offs_d(tk::newaxis, tk::_);
      // Only a block that may cross the sequence's end needs masked loads.
      const bool tail = masked && !EVEN_N;
      auto k_tile =
          tail ? tk::load(k_ptrs, cols(tk::newaxis, tk::_) < seq_len, 0.0f) : tk::load(k_ptrs);
      auto qk = tk::dot(q_tile, k_tile); // BLOCK_M x BLOCK_N
      if (masked)
        qk =
            tk::where(attention_keep(offs_m, cols, seq_len, CAUSAL, EVEN_N), qk, -tk::inf<float>());
      attention_update<T>(m_i, l_i, acc, qk, qk_scale, [&] {
        return tail ? tk::load(v_ptrs, cols(tk::_, tk::newaxis) < seq_len, 0.0f) : tk::load(v_ptrs);
      });
    });
  };
  attention_stages(stage, seq_len, start_m, BLOCK_M, BLOCK_N, CAUSAL, EVEN_N);

  // One IEEE division per row, then products: `/` on each element would be BLOCK_M x
  // HEAD_DIM divisions, each a slow-path check and call in the SASS.
  auto inv_l = 1.0f / l_i;
  tk::store(o + head + offs_m(tk::_, tk::newaxis) * HEAD_DIM + offs_d(tk::newaxis, tk::_),
            acc * inv_l(tk::_, tk::newaxis), row_mask);
  return std::pair{m_i, l_i};
}

inline auto attention =
    tk::jit("attention", [](auto o, auto q, auto k, auto v, tk::f32 sm_scale, tk::i32 seq_len,
                            tk::constant<int> HEAD_DIM, tk::constant<int> BLOCK_M,
                            tk::constant<int> BLOCK_N, tk::constant<bool> CAUSAL,
                            tk::constant<bool> EVEN_N) {
      using T = std::remove_const_t<std::remove_pointer_t<typename decltype(q)::element_type>>;
      attention_rows<T>(o, q, k, v, sm_scale, seq_len, HEAD_DIM, BLOCK_M, BLOCK_N, CAUSAL, EVEN_N,
                        "attention");
    });
// [/snippet]

/// The same attention through tensor descriptors, as Triton's fused-attention tutorial writes it
/// for Hopper: Q, K and V are read a block at a time from [batch * heads * seq_len, HEAD_DIM]
/// descriptors. On sm_90 the K and V blocks go through TMA straight into the pipeline's shared
/// ring, in the layout wgmma reads (K through its transpose), with no per-element addresses.
///
/// Same launch contract as `attention`, plus the descriptors' own (docs/tensor-descriptors.md):
/// the tensors 16-byte aligned and HEAD_DIM * sizeof(T) a multiple of 16. A key block that
/// crosses the end of a head reads the first rows of the next head (rows past the last head read
/// as zero); the mask sets their scores to -inf, so they add exactly nothing as long as V is
/// finite there.
// [snippet:attention_descriptor]
inline auto attention_descriptor = tk::jit(
    "attention_descriptor",
    [](auto o, auto q, auto k, auto v, tk::f32 sm_scale, tk::i32 seq_len, tk::i32 num_rows,
       tk::constant<int> HEAD_DIM, tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N,
       tk::constant<bool> CAUSAL, tk::constant<bool> EVEN_N) {
      using T = std::remove_const_t<std::remove_pointer_t<typename decltype(q)::element_type>>;
      if (BLOCK_M % BLOCK_N != 0)
        throw tk::error("attention_descriptor: BLOCK_M (" + std::to_string(BLOCK_M) +
                            ") must be a multiple of BLOCK_N (" + std::to_string(BLOCK_N) + ")",
                        std::source_location::current());
      // num_rows = batch * heads * seq_len: all heads' rows, one after the other.
      auto q_desc =
          tk::make_tensor_descriptor(q, {num_rows, HEAD_DIM}, {HEAD_DIM, 1}, {BLOCK_M, HEAD_DIM});
      auto k_desc =
          tk::make_tensor_descriptor(k, {num_rows, HEAD_DIM}, {HEAD_DIM, 1}, {BLOCK_N, HEAD_DIM});
      auto v_desc =
          tk::make_tensor_descriptor(v, {num_rows, HEAD_DIM}, {HEAD_DIM, 1}, {BLOCK_N, HEAD_DIM});

      auto start_m = tk::program_id(0);
      auto head_row = tk::program_id(1) * seq_len; // this head's first row
      auto offs_m = start_m * BLOCK_M + tk::arange(0, BLOCK_M);
      auto offs_n = tk::arange(0, BLOCK_N);
      auto offs_d = tk::arange(0, HEAD_DIM);
      auto q_tile = q_desc.load({head_row + start_m * BLOCK_M, 0});

      auto qk_scale = sm_scale * 1.44269504f;
      auto m_i = tk::full({BLOCK_M}, -tk::inf<float>());
      auto l_i = tk::zeros<float>({BLOCK_M});
      auto acc = tk::zeros<float>({BLOCK_M, HEAD_DIM});
      auto stage = [&](auto lo, auto hi, bool masked) {
        tk::for_range(lo, hi, BLOCK_N, [&](tk::i32 start_n) {
          auto qk = tk::dot(q_tile, tk::trans(k_desc.load({head_row + start_n, 0})));
          if (masked)
            qk = tk::where(attention_keep(offs_m, start_n + offs_n, seq_len, CAUSAL, EVEN_N), qk,
                           -tk::inf<float>());
          attention_update<T>(m_i, l_i, acc, qk, qk_scale,
                              [&] { return v_desc.load({head_row + start_n, 0}); });
        });
      };
      attention_stages(stage, seq_len, start_m, BLOCK_M, BLOCK_N, CAUSAL, EVEN_N);

      // Rows past seq_len belong to the next head: the store leaves them alone.
      auto head = head_row * HEAD_DIM;
      auto inv_l = 1.0f / l_i; // one division per row, as in `attention`
      tk::store(o + head + offs_m(tk::_, tk::newaxis) * HEAD_DIM + offs_d(tk::newaxis, tk::_),
                acc * inv_l(tk::_, tk::newaxis), offs_m(tk::_, tk::newaxis) < seq_len);
    });
// [/snippet]

// [snippet:attention_descriptor_tuned]
/// The configurations Triton's attention tutorial tunes its forward over: BLOCK_M in {64, 128},
/// BLOCK_N in {32, 64, 128} (here dividing BLOCK_M), 2 to 4 stages, 4 or 8 warps, without
/// 8 warps for tiles smaller than 128 x 128 (the tutorial's filter for Hopper).
inline std::vector<tk::config> attention_configs() {
  std::vector<tk::config> configs;
  for (const int bm : {64, 128})
    for (const int bn : {32, 64, 128})
      for (const int stages : {2, 3, 4})
        for (const int warps : {4, 8})
          if (bm % bn == 0 && !(bm * bn < 128 * 128 && warps == 8))
            configs.push_back({{{"BLOCK_M", bm}, {"BLOCK_N", bn}}, warps, stages});
  return configs;
}

/// `attention_descriptor` autotuned for each seq_len (and, as for every launch, each HEAD_DIM,
/// CAUSAL and element type) over `attention_configs()`, with EVEN_N following BLOCK_N: pass
/// `tk::tuned<int>("BLOCK_M")`, `tk::tuned<int>("BLOCK_N")` and `tk::heuristic<bool>("EVEN_N")`,
/// and a grid callable that reads BLOCK_M by name from the launch's `tk::launch_view` (one that
/// takes the constants by position gets HEAD_DIM first).
inline auto attention_descriptor_tuned = tk::autotune(
    tk::heuristics(attention_descriptor, {{"EVEN_N",
                                           [](const tk::launch_view &launch) {
                                             // seq_len % BLOCK_N
                                             return launch.arg<int>(5) % launch.arg<int>(9) == 0;
                                           }}}),
    {.configs = attention_configs(), .key = {5}});
// [/snippet]

} // namespace examples

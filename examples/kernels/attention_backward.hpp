/// @file attention_backward.hpp
/// Flash attention, backward: the gradients dQ, dK and dV of O = softmax(S) V, S = Q Kᵀ · sm_scale,
/// for every (batch, head), given dO, without ever holding the S x S matrices. As in the forward
/// pass (examples/kernels/attention.hpp) the probabilities are recomputed a block at a time; what
/// makes that possible without a second online softmax is the row's log-sum-exp, which the forward
/// pass stores beside O:
///   M_i = m_i + log2(l_i), in the base-2 units of the forward (scores times sm_scale · log2(e)),
/// so that P_ij = exp2(S_ij · log2(e) - M_i) exactly as the forward normalized it. With
///   Delta_i = sum_d O_id dO_id                          (attention_backward_preprocess)
///   dV = Pᵀ dO,   dP = dO Vᵀ,   dS = P ∘ (dP - Delta),   dQ = sm_scale · dS K,
///   dK = sm_scale · dSᵀ Q                                (attention_backward)
/// (Delta_i = sum_j P_ij dP_ij, the row's dot of P and dP, is what the softmax's Jacobian
/// subtracts.)
///
/// `attention_backward` is the kernel of Triton's fused-attention tutorial: program `pid` of a
/// head does two independent jobs. It owns the BLOCK_N1 keys from pid · BLOCK_N1 and walks the
/// queries BLOCK_M1 at a time, accumulating their dK and dV (K and V stay loaded, Pᵀ and dSᵀ are
/// computed transposed so that each is one product's left operand); then it owns the BLOCK_M2
/// queries from pid · BLOCK_M2 and walks the keys BLOCK_N2 at a time, accumulating their dQ. So
/// every gradient is written by exactly one program and no atomics are needed, at the price of
/// computing Q Kᵀ and dO Vᵀ twice. When causal, the block on the diagonal is masked and the
/// blocks that the causal mask wipes out entirely are skipped; the rest need no mask.
///
/// Launch contract (all three kernels):
/// - `q`, `k`, `v`, `o`, `d_o` (dO), `dq`, `dk`, `dv` point to contiguous
///   [batch, heads, seq_len, HEAD_DIM] tensors of one 16-bit float type (f16 or bf16); each holds
///   fewer than 2^31 elements. `lse` (M above) and `delta` are [batch, heads, seq_len] f32.
/// - `sm_scale` (positive) multiplies the scores before the softmax, the same in all three.
/// - HEAD_DIM and every BLOCK_* are powers of two >= 16; CAUSAL says whether row i attends to
///   keys j <= i only, the same in the forward and the backward.
/// - `attention_forward_lse`: `examples::attention` that also stores M into `lse`; its grid,
///   constants and requirements are `attention`'s (any seq_len; EVEN_N as there).
/// - `attention_backward_preprocess`: grid `tk::grid(tk::cdiv(seq_len, BLOCK_M), batch * heads)`;
///   `o` is the forward's output as stored; any seq_len.
/// - `attention_backward`: grid `tk::grid(seq_len / BLOCK_N1, batch * heads)`; `lse` and `delta`
///   from the two kernels above. seq_len must be a multiple of BLOCK_N1, as in Triton's tutorial:
///   nothing is masked at the sequence's end, so with any other seq_len the last rows' gradients
///   are not written and the last blocks read past the sequence. BLOCK_M2 must equal BLOCK_N1
///   (one grid serves both jobs), BLOCK_N1 must be a multiple of BLOCK_M1 and BLOCK_M2 of
///   BLOCK_N2 (whole steps cover the diagonal block); the kernel refuses other constants when it
///   is traced.
///
/// Launch settings measured on an H100 (B 4, H 32, seq_len 4096, causal unless said):
/// - HEAD_DIM 64, f16: BLOCK_M1 = 32, BLOCK_N1 = BLOCK_M2 = 128, BLOCK_N2 = 32 (Triton's
///   tutorial's), 4 warps, 3 stages: 2.75 ms, 250 TFLOP/s counted as the tutorial counts them;
///   the tutorial's own Triton kernel took 2.16 ms in the same run. 8 warps: 2.81 ms.
/// - HEAD_DIM 128, bf16: BLOCK_M1 = 64, BLOCK_N1 = BLOCK_M2 = 128, BLOCK_N2 = 64, 8 warps,
///   3 stages: 4.97 ms causal, 10.2 ms not. With 4 warps the accumulators spill (16.4 ms).
/// - Stepping through the diagonal block in half-size steps, as the tutorial does
///   (BLK_SLICE_FACTOR = 2), made these settings 2-4% slower here, so it is not done.
#pragma once

#include "attention.hpp"

#include <tk/tk.hpp>

#include <string>
#include <type_traits>

namespace examples {

/// `examples::attention` plus its rows' log-sum-exp: after the key loop, M = m_i + log2(l_i) (in
/// base 2, on scores scaled by sm_scale · log2(e)) goes to `lse`, one f32 per row, which the
/// backward pass needs to recompute P.
inline auto attention_forward_lse = tk::jit(
    "attention_forward_lse",
    [](auto o, tk::ptr<float> lse, auto q, auto k, auto v, tk::f32 sm_scale, tk::i32 seq_len,
       tk::constant<int> HEAD_DIM, tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N,
       tk::constant<bool> CAUSAL, tk::constant<bool> EVEN_N) {
      using T = std::remove_const_t<std::remove_pointer_t<typename decltype(q)::element_type>>;
      auto [m_i, l_i] = attention_rows<T>(o, q, k, v, sm_scale, seq_len, HEAD_DIM, BLOCK_M, BLOCK_N,
                                          CAUSAL, EVEN_N, "attention_forward_lse");
      // Every row saw at least one key, so l_i >= 1 and its logarithm is finite.
      auto offs_m = tk::program_id(0) * BLOCK_M + tk::arange(0, BLOCK_M);
      tk::store(lse + tk::program_id(1) * seq_len + offs_m, m_i + tk::log2(l_i), offs_m < seq_len);
    });

/// Delta_i = sum_d O_id dO_id in f32, BLOCK_M rows per program: the term of dS that does not
/// depend on the key.
inline auto attention_backward_preprocess = tk::jit(
    "attention_backward_preprocess", [](tk::ptr<float> delta, auto o, auto d_o, tk::i32 seq_len,
                                        tk::constant<int> HEAD_DIM, tk::constant<int> BLOCK_M) {
      auto rows = tk::program_id(0) * BLOCK_M + tk::arange(0, BLOCK_M);
      auto offs_d = tk::arange(0, HEAD_DIM);
      auto head = tk::program_id(1) * seq_len;
      auto offs = (head + rows(tk::_, tk::newaxis)) * HEAD_DIM + offs_d(tk::newaxis, tk::_);
      auto in_sequence = rows(tk::_, tk::newaxis) < seq_len;
      auto o_tile = tk::cast<float>(tk::load(o + offs, in_sequence, 0.0f));
      auto do_tile = tk::cast<float>(tk::load(d_o + offs, in_sequence, 0.0f));
      tk::store(delta + head + rows, tk::sum(o_tile * do_tile, 1), rows < seq_len);
    });

/// One query block's share of the dK and dV of a program's keys. `k_tile` and `v_tile` are the
/// keys' rows (BLOCK_N1 x HEAD_DIM), `q_tile` and `do_tile` the queries' rows of Q and dO
/// (BLOCK_M1 x HEAD_DIM), `m` and `di` their M and Delta. Pᵀ and dSᵀ are computed transposed (keys
/// down, queries across), so that dV += Pᵀ dO and dK += dSᵀ Q take the loaded tiles as they are;
/// `keep(p_t)` applies the causal mask where one is needed.
// [snippet:attention_backward_dkdv]
template <class T>
void attention_backward_dkdv_step(auto &dk, auto &dv, const auto &k_tile, const auto &v_tile,
                                  const auto &q_tile, const auto &do_tile, const auto &m,
                                  const auto &di, const auto &qk_scale, const auto &keep) {
  auto p_t = keep(tk::exp2(tk::dot(k_tile, tk::trans(q_tile)) * qk_scale - m(tk::newaxis, tk::_)));
  dv = tk::dot(tk::cast<T>(p_t), do_tile, dv);
  auto dp_t = tk::dot(v_tile, tk::trans(do_tile));
  auto ds_t = p_t * (dp_t - di(tk::newaxis, tk::_));
  dk = tk::dot(tk::cast<T>(ds_t), q_tile, dk);
}
// [/snippet]

/// One key block's share of the dQ of a program's queries: `q_tile` and `do_tile` the queries'
/// rows of Q and dO (BLOCK_M2 x HEAD_DIM), `m` and `di` their M and Delta, `k_tile` and `v_tile`
/// the keys' rows (BLOCK_N2 x HEAD_DIM). dQ += dS K, with the scale applied at the end.
template <class T>
void attention_backward_dq_step(auto &dq, const auto &q_tile, const auto &do_tile, const auto &m,
                                const auto &di, const auto &k_tile, const auto &v_tile,
                                const auto &qk_scale, const auto &keep) {
  auto p = keep(tk::exp2(tk::dot(q_tile, tk::trans(k_tile)) * qk_scale - m(tk::_, tk::newaxis)));
  auto dp = tk::dot(do_tile, tk::trans(v_tile));
  auto ds = p * (dp - di(tk::_, tk::newaxis));
  dq = tk::dot(tk::cast<T>(ds), k_tile, dq);
}

inline auto attention_backward = tk::jit(
    "attention_backward",
    [](auto dq, auto dk, auto dv, auto q, auto k, auto v, auto d_o, tk::ptr<const float> lse,
       tk::ptr<const float> delta, tk::f32 sm_scale, tk::i32 seq_len, tk::constant<int> HEAD_DIM,
       tk::constant<int> BLOCK_M1, tk::constant<int> BLOCK_N1, tk::constant<int> BLOCK_M2,
       tk::constant<int> BLOCK_N2, tk::constant<bool> CAUSAL) {
      using T = std::remove_const_t<std::remove_pointer_t<typename decltype(q)::element_type>>;
      auto refuse = [](const std::string &why) {
        throw tk::error("attention_backward: " + why, std::source_location::current());
      };
      if (BLOCK_M2 != BLOCK_N1)
        refuse("BLOCK_M2 (" + std::to_string(BLOCK_M2) + ") must equal BLOCK_N1 (" +
               std::to_string(BLOCK_N1) + "): one grid serves both");
      if (BLOCK_N1 % BLOCK_M1 != 0 || BLOCK_M2 % BLOCK_N2 != 0)
        refuse("BLOCK_N1 must be a multiple of BLOCK_M1 and BLOCK_M2 of BLOCK_N2 (they are " +
               std::to_string(BLOCK_N1) + ", " + std::to_string(BLOCK_M1) + ", " +
               std::to_string(BLOCK_M2) + ", " + std::to_string(BLOCK_N2) + ")");

      auto pid = tk::program_id(0);
      auto head = tk::program_id(1) * seq_len; // this head's first row
      auto offs_d = tk::arange(0, HEAD_DIM);
      auto qk_scale = sm_scale * 1.44269504f; // scores to the forward's base-2 units
      // The offsets of a [rows, HEAD_DIM] tile of this head. Every tile is loaded row-major and
      // the products transpose what they need (`tk::trans`): on the H100 (HEAD_DIM 64) that was
      // 5% faster than loading Qᵀ, Kᵀ and Vᵀ through transposed offsets, as the tutorial does.
      auto rows_of = [&](const auto &rows) {
        return (head + rows(tk::_, tk::newaxis)) * HEAD_DIM + offs_d(tk::newaxis, tk::_);
      };
      auto unmasked = [](const auto &p) { return p; };

      // dK and dV of the keys [start_n, start_n + BLOCK_N1), over the queries that see them.
      auto start_n = pid * BLOCK_N1;
      auto offs_n = start_n + tk::arange(0, BLOCK_N1);
      auto k_tile = tk::load(k + rows_of(offs_n));
      auto v_tile = tk::load(v + rows_of(offs_n));
      auto dk_acc = tk::zeros<float>({BLOCK_N1, HEAD_DIM});
      auto dv_acc = tk::zeros<float>({BLOCK_N1, HEAD_DIM});
      auto query_blocks = [&](auto lo, auto hi, bool masked) {
        tk::for_range(lo, hi, BLOCK_M1, [&](tk::i32 start_m) {
          auto offs_m = start_m + tk::arange(0, BLOCK_M1);
          auto q_tile = tk::load(q + rows_of(offs_m));
          auto m = tk::load(lse + head + offs_m);
          auto do_tile = tk::load(d_o + rows_of(offs_m));
          auto di = tk::load(delta + head + offs_m);
          auto below_diagonal = [&](const auto &p_t) {
            return tk::where(offs_m(tk::newaxis, tk::_) >= offs_n(tk::_, tk::newaxis), p_t, 0.0f);
          };
          if (masked)
            attention_backward_dkdv_step<T>(dk_acc, dv_acc, k_tile, v_tile, q_tile, do_tile, m, di,
                                            qk_scale, below_diagonal);
          else
            attention_backward_dkdv_step<T>(dk_acc, dv_acc, k_tile, v_tile, q_tile, do_tile, m, di,
                                            qk_scale, unmasked);
        });
      };
      if (CAUSAL) {
        // Queries before start_n see none of these keys: the diagonal block, then those after.
        query_blocks(start_n, start_n + BLOCK_N1, true);
        query_blocks(start_n + BLOCK_N1, seq_len, false);
      } else {
        query_blocks(0, seq_len, false);
      }
      tk::store(dv + rows_of(offs_n), dv_acc);
      tk::store(dk + rows_of(offs_n), dk_acc * sm_scale);

      // dQ of the queries [start_m, start_m + BLOCK_M2), over the keys they see.
      auto start_m = pid * BLOCK_M2;
      auto offs_m = start_m + tk::arange(0, BLOCK_M2);
      auto q_tile = tk::load(q + rows_of(offs_m));
      auto do_tile = tk::load(d_o + rows_of(offs_m));
      auto m = tk::load(lse + head + offs_m);
      auto di = tk::load(delta + head + offs_m);
      auto dq_acc = tk::zeros<float>({BLOCK_M2, HEAD_DIM});
      auto key_blocks = [&](auto lo, auto hi, bool masked) {
        tk::for_range(lo, hi, BLOCK_N2, [&](tk::i32 start_k) {
          auto cols = start_k + tk::arange(0, BLOCK_N2);
          auto k_block = tk::load(k + rows_of(cols));
          auto v_block = tk::load(v + rows_of(cols));
          auto below_diagonal = [&](const auto &p) {
            return tk::where(offs_m(tk::_, tk::newaxis) >= cols(tk::newaxis, tk::_), p, 0.0f);
          };
          if (masked)
            attention_backward_dq_step<T>(dq_acc, q_tile, do_tile, m, di, k_block, v_block,
                                          qk_scale, below_diagonal);
          else
            attention_backward_dq_step<T>(dq_acc, q_tile, do_tile, m, di, k_block, v_block,
                                          qk_scale, unmasked);
        });
      };
      if (CAUSAL) {
        // Keys after the diagonal block are invisible to these queries.
        key_blocks(0, start_m, false);
        key_blocks(start_m, start_m + BLOCK_M2, true);
      } else {
        key_blocks(0, seq_len, false);
      }
      tk::store(dq + rows_of(offs_m), dq_acc * sm_scale);
    });

} // namespace examples

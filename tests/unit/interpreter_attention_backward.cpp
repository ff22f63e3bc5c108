/// @file interpreter_attention_backward.cpp
/// Flash attention's backward pass (examples/kernels/attention_backward.hpp) at a small size:
/// the forward with its log-sum-exp, the preprocessing of Delta = rowsum(O * dO) and the fused
/// dK / dV / dQ kernel, against gradients computed on the host in double precision. Built into
/// tk_gpu_numerics too, so the same kernels run on the GPU (tensor cores there).
#include "attention_reference.hpp"
#include "interpreter_support.hpp"
#include "kernels/attention_backward.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

/// Runs forward and backward over `heads` heads (batch 1) of seq_len x D tensors of `T` and checks
/// O, M, dQ, dK and dV against the host.
template <class T>
void check_attention_backward(std::mt19937_64 &gen, int heads, int seq_len, int D, bool causal) {
  constexpr int block_m = 64, block_n = 32;                  // forward
  constexpr int block_m1 = 16, block_n1 = 64, block_n2 = 16; // backward, BLOCK_M2 = BLOCK_N1
  const std::size_t n = std::size_t(heads) * std::size_t(seq_len) * std::size_t(D);
  const std::size_t rows = std::size_t(heads) * std::size_t(seq_len);
  auto q = tk_test::uniform<T>(gen, n, -1, 1), k = tk_test::uniform<T>(gen, n, -1, 1),
       v = tk_test::uniform<T>(gen, n, -1, 1), d_o = tk_test::uniform<T>(gen, n, -1, 1);
  std::vector<T> o(n), dq(n), dk(n), dv(n);
  std::vector<float> lse(rows), delta(rows);
  const float sm_scale = 1.0f / std::sqrt(float(D));

  tk_test::run(examples::attention_forward_lse, tk::grid(tk::cdiv(seq_len, block_m), heads), o, lse,
               std::as_const(q), std::as_const(k), std::as_const(v), sm_scale, seq_len,
               tk::constant(D), tk::constant(block_m), tk::constant(block_n), tk::constant(causal),
               tk::constant(seq_len % block_n == 0));
  tk_test::run(examples::attention_backward_preprocess, tk::grid(tk::cdiv(seq_len, block_m), heads),
               delta, std::as_const(o), std::as_const(d_o), seq_len, tk::constant(D),
               tk::constant(block_m));
  tk_test::run(examples::attention_backward, tk::grid(seq_len / block_n1, heads), dq, dk, dv,
               std::as_const(q), std::as_const(k), std::as_const(v), std::as_const(d_o),
               std::as_const(lse), std::as_const(delta), sm_scale, seq_len, tk::constant(D),
               tk::constant(block_m1), tk::constant(block_n1), tk::constant(block_n1),
               tk::constant(block_n2), tk::constant(causal));

  // The host's forward and backward (examples/attention_reference.hpp), from the same inputs and
  // the O the forward stored.
  const example::attention_reference<T> ref(q, k, v, o, d_o, heads, seq_len, D, sm_scale, causal);
  const double u = ref.u, eps = ref.eps;
  const double err_o = ref.o.worst_error(o, 2 * u), err_dv = ref.dv.worst_error(dv, 2 * u),
               err_dk = ref.dk.worst_error(dk, 2 * u), err_dq = ref.dq.worst_error(dq, 2 * u);
  // Delta: an f32 sum of D products, within eps of the sum of their magnitudes.
  const double err_delta = ref.delta.worst_error(delta, eps);
  // M: f32 arithmetic on values of a few units (D-product scores, a sum of up to 128
  // exponentials, a log2: a GPU's lg2.approx is within 2^-22 absolutely), a few 2^-20 in all.
  double err_lse = 0;
  for (std::size_t r = 0; r < rows; ++r)
    err_lse = std::max(err_lse, std::fabs(double(lse[r]) - ref.lse[r]) / std::ldexp(1.0, -17));
  INFO("largest error / bound: O " << err_o << ", dV " << err_dv << ", dK " << err_dk << ", dQ "
                                   << err_dq << ", Delta " << err_delta << ", M " << err_lse);
  CHECK(err_o <= 1.5);
  CHECK(err_dv <= 1.5);
  CHECK(err_dk <= 1.5);
  CHECK(err_dq <= 1.5);
  CHECK(err_delta <= 1.5);
  CHECK(err_lse <= 1.5);
}

TEST_CASE("attention_backward: dQ, dK and dV of flash attention against a host reference",
          "[interpreter][numerics][attention]") {
  TK_TEST_RANDOM(gen);
  SECTION("f16, causal, D = 64") { check_attention_backward<tk::half>(gen, 2, 128, 64, true); }
  SECTION("bf16, non-causal, D = 64") {
    check_attention_backward<tk::bfloat16>(gen, 2, 128, 64, false);
  }
  SECTION("bf16, causal, D = 128") {
    check_attention_backward<tk::bfloat16>(gen, 2, 128, 128, true);
  }
  SECTION("f16, non-causal, D = 128") {
    check_attention_backward<tk::half>(gen, 2, 128, 128, false);
  }
}

} // namespace

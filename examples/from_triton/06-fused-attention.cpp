/// @file 06-fused-attention.cpp
/// Fused attention, Triton's tutorial 06, forward and backward.
/// - Forward (kernels/attention.hpp): softmax(Q Kᵀ / sqrt(D)) V over a [batch, heads, seq_len, D]
///   tensor, for f16 and bf16, head dims 64 and 128, causal and not, through pointers and through
///   tensor descriptors (TMA on sm_90), with a sequence length that is not a multiple of the
///   blocks (the masked tail) and with one that is (EVEN_N: no tail); and once autotuned over
///   the tutorial's configurations (`attention_descriptor_tuned`), as the tutorial runs it.
/// - Backward (kernels/attention_backward.hpp): the forward storing each row's log-sum-exp, then
///   Delta = rowsum(O dO), then dQ, dK and dV in one kernel, causal and not.
/// Checks every output against a double-precision reference.
#include "attention_reference.hpp"
#include "example_support.hpp"
#include "kernels/attention.hpp"
#include "kernels/attention_backward.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

constexpr int batch = 1, heads = 2;
constexpr int block_m = 64, block_n = 32;

/// Runs one configuration and prints its summary line; returns the exit status (0: right).
/// The forward kernels: through pointers, through descriptors, and through descriptors
/// autotuned over the tutorial's configurations.
enum class forward { pointers, descriptors, tuned };

template <class T>
int run(const example::target &where, const char *type, int seq_len, int D, bool causal,
        forward form) {
  const std::size_t n = std::size_t(batch) * heads * seq_len * std::size_t(D);
  example::uniform random(-1.f, 1.f, std::uint64_t(D + causal));
  std::vector<T> q(n), k(n), v(n), o(n);
  for (auto *x : {&q, &k, &v})
    for (T &e : *x)
      e = T(random());
  const float sm_scale = 1.0f / std::sqrt(float(D));

  example::array<T> q_arg(where, q), k_arg(where, k), v_arg(where, v),
      o_arg(where, o, example::output);
  const auto even_n = tk::constant(seq_len % block_n == 0);
  const double ms = example::time_ms([&] {
    const auto grid = tk::grid(tk::cdiv(seq_len, block_m), batch * heads);
    if (form == forward::tuned)
      examples::attention_descriptor_tuned.launch(
          [&](const tk::launch_view &meta) {
            return tk::grid(tk::cdiv(seq_len, meta.constant<int>("BLOCK_M")), batch * heads);
          },
          {.backend = where.backend}, o_arg.arg(), q_arg.input(), k_arg.input(), v_arg.input(),
          sm_scale, seq_len, batch * heads * seq_len, tk::constant(D), tk::tuned<int>("BLOCK_M"),
          tk::tuned<int>("BLOCK_N"), tk::constant(causal), tk::heuristic<bool>("EVEN_N"));
    else if (form == forward::descriptors)
      examples::attention_descriptor.launch(
          grid, {.backend = where.backend}, o_arg.arg(), q_arg.input(), k_arg.input(),
          v_arg.input(), sm_scale, seq_len, batch * heads * seq_len, tk::constant(D),
          tk::constant(block_m), tk::constant(block_n), tk::constant(causal), even_n);
    else
      examples::attention.launch(grid, {.backend = where.backend}, o_arg.arg(), q_arg.input(),
                                 k_arg.input(), v_arg.input(), sm_scale, seq_len, tk::constant(D),
                                 tk::constant(block_m), tk::constant(block_n), tk::constant(causal),
                                 even_n);
    o_arg.fetch();
  });

  // Error of o_ij relative to sum_k p_ik |v_kj|: rounding P and O to the 16-bit type dominates.
  double max_error = 0;
  std::vector<double> s(seq_len);
  for (int h = 0; h < batch * heads; ++h) {
    const std::size_t base = std::size_t(h) * seq_len * std::size_t(D);
    auto at = [&](const std::vector<T> &x, int row, int col) {
      return double(float(x[base + std::size_t(row) * std::size_t(D) + std::size_t(col)]));
    };
    for (int i = 0; i < seq_len; ++i) {
      const int keys = causal ? i + 1 : seq_len;
      for (int j = 0; j < keys; ++j) {
        double dot = 0;
        for (int d = 0; d < D; ++d)
          dot += at(q, i, d) * at(k, j, d);
        s[std::size_t(j)] = dot * sm_scale;
      }
      const double mx = *std::max_element(s.begin(), s.begin() + keys);
      double sum = 0;
      for (int j = 0; j < keys; ++j)
        sum += (s[std::size_t(j)] = std::exp(s[std::size_t(j)] - mx));
      for (int d = 0; d < D; ++d) {
        double want = 0, scale = 0;
        for (int j = 0; j < keys; ++j) {
          want += s[std::size_t(j)] / sum * at(v, j, d);
          scale += s[std::size_t(j)] / sum * std::fabs(at(v, j, d));
        }
        const double err = std::fabs(at(o, i, d) - want) / scale;
        if (std::isnan(err) || err > max_error)
          max_error = err;
      }
    }
  }
  // Four roundings to the input type's precision (2^-11 for f16, 2^-8 for bf16).
  const double tolerance = std::is_same_v<T, tk::half> ? std::ldexp(1.0, -9) : std::ldexp(1.0, -6);
  return example::report(
      form == forward::tuned         ? "attention_descriptor_tuned"
      : form == forward::descriptors ? "attention_descriptor"
                                     : "attention",
      std::string(type) + " D=" + std::to_string(D) + (causal ? " causal" : " non-causal") + ", " +
          std::to_string(batch * heads) + " heads x " + std::to_string(seq_len) + " tokens",
      where, max_error, tolerance, ms);
}

/// Forward and backward over `head_count` heads of seq_len x D (a multiple of 128); prints the
/// summary line and returns the exit status (0: right).
template <class T>
int run_backward(const example::target &where, const char *type, int head_count, int seq_len, int D,
                 bool causal) {
  // The tutorial's blocks: for D = 128 the accumulators need 8 warps.
  const int block_m1 = D == 64 ? 32 : 64, block_n1 = 128, block_n2 = block_m1;
  const tk::launch_options options{.num_warps = D == 64 ? 4 : 8, .backend = where.backend};
  const std::size_t n = std::size_t(head_count) * std::size_t(seq_len) * std::size_t(D);
  example::uniform random(-1.f, 1.f, std::uint64_t(7 * D + causal));
  std::vector<T> q(n), k(n), v(n), d_o(n), o(n), dq(n), dk(n), dv(n);
  for (auto *x : {&q, &k, &v, &d_o})
    for (T &e : *x)
      e = T(random());
  std::vector<float> lse(std::size_t(head_count) * std::size_t(seq_len)), delta(lse.size());
  const float sm_scale = 1.0f / std::sqrt(float(D));

  example::array<T> q_arg(where, q), k_arg(where, k), v_arg(where, v), do_arg(where, d_o);
  example::array<T> o_arg(where, o, example::output), dq_arg(where, dq, example::output),
      dk_arg(where, dk, example::output), dv_arg(where, dv, example::output);
  example::array<float> lse_arg(where, lse, example::output),
      delta_arg(where, delta, example::output);
  const double ms = example::time_ms([&] {
    examples::attention_forward_lse.launch(
        tk::grid(tk::cdiv(seq_len, 64), head_count), {.backend = where.backend}, o_arg.arg(),
        lse_arg.arg(), q_arg.input(), k_arg.input(), v_arg.input(), sm_scale, seq_len,
        tk::constant(D), tk::constant(64), tk::constant(32), tk::constant(causal),
        tk::constant(seq_len % 32 == 0));
    examples::attention_backward_preprocess.launch(
        tk::grid(tk::cdiv(seq_len, 64), head_count), {.backend = where.backend}, delta_arg.arg(),
        o_arg.input(), do_arg.input(), seq_len, tk::constant(D), tk::constant(64));
    examples::attention_backward.launch(
        tk::grid(seq_len / block_n1, head_count), options, dq_arg.arg(), dk_arg.arg(), dv_arg.arg(),
        q_arg.input(), k_arg.input(), v_arg.input(), do_arg.input(), lse_arg.input(),
        delta_arg.input(), sm_scale, seq_len, tk::constant(D), tk::constant(block_m1),
        tk::constant(block_n1), tk::constant(block_n1), tk::constant(block_n2),
        tk::constant(causal));
    for (auto *out : {&o_arg, &dq_arg, &dk_arg, &dv_arg})
      out->fetch();
  });

  // Each gradient within 1.5 times its bound (examples/attention_reference.hpp: two roundings to
  // T on the sum of the magnitudes of its terms): the error reported is the worst ratio.
  const example::attention_reference<T> ref(q, k, v, o, d_o, head_count, seq_len, D, sm_scale,
                                            causal);
  const double worst =
      std::max({ref.dq.worst_error(dq, 2 * ref.u), ref.dk.worst_error(dk, 2 * ref.u),
                ref.dv.worst_error(dv, 2 * ref.u)});
  return example::report("attention_backward",
                         std::string(type) + " D=" + std::to_string(D) +
                             (causal ? " causal" : " non-causal") + ", " +
                             std::to_string(head_count) + " heads x " + std::to_string(seq_len) +
                             " tokens (error / bound of dQ, dK, dV)",
                         where, worst, 1.5, ms);
}

} // namespace

int main() {
  const example::target where = example::choose_target();
  int failures = 0;
  for (forward form : {forward::pointers, forward::descriptors})
    for (int seq_len : {200, 192})
      for (int D : {64, 128})
        for (bool causal : {false, true}) {
          failures += run<tk::half>(where, "f16", seq_len, D, causal, form);
          failures += run<tk::bfloat16>(where, "bf16", seq_len, D, causal, form);
        }
  // The tutorial autotunes its forward; tuning on the interpreter takes the first config.
  failures += run<tk::half>(where, "f16", 200, 64, true, forward::tuned);
  const int backward_len = where.backend == tk::backend::gpu ? 512 : 128;
  failures += run_backward<tk::half>(where, "f16", 2, backward_len, 64, true);
  failures += run_backward<tk::bfloat16>(where, "bf16", 2, backward_len, 64, false);
  failures += run_backward<tk::bfloat16>(where, "bf16", 2, backward_len, 128, true);
  return failures == 0 ? 0 : 1;
}

/// @file 06-fused-attention.cpp
/// Flash attention, forward (kernels/attention.hpp): softmax(Q Kᵀ / sqrt(D)) V over a
/// [batch, heads, seq_len, D] tensor, for f16 and bf16, head dims 64 and 128, causal and not,
/// through pointers and through tensor descriptors (TMA on sm_90), with a sequence length that is
/// not a multiple of the blocks (the masked tail) and with one that is (EVEN_N: no tail). Checks
/// every output against a double-precision reference.
#include "example_support.hpp"
#include "kernels/attention.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

constexpr int batch = 1, heads = 2;
constexpr int block_m = 64, block_n = 32;

/// Runs one configuration and prints its summary line; returns the exit status (0: right).
template <class T>
int run(const example::target &where, const char *type, int seq_len, int D, bool causal,
        bool descriptor) {
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
    if (descriptor)
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
      descriptor ? "attention_descriptor" : "attention",
      std::string(type) + " D=" + std::to_string(D) + (causal ? " causal" : " non-causal") + ", " +
          std::to_string(batch * heads) + " heads x " + std::to_string(seq_len) + " tokens",
      where, max_error, tolerance, ms);
}

} // namespace

int main() {
  const example::target where = example::choose_target();
  int failures = 0;
  for (bool descriptor : {false, true})
    for (int seq_len : {200, 192})
      for (int D : {64, 128})
        for (bool causal : {false, true}) {
          failures += run<tk::half>(where, "f16", seq_len, D, causal, descriptor);
          failures += run<tk::bfloat16>(where, "bf16", seq_len, D, causal, descriptor);
        }
  return failures == 0 ? 0 : 1;
}

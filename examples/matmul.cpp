/// @file matmul.cpp
/// Matrix multiplication, the Triton tutorial's kernel (kernels/matmul.hpp): each program instance
/// computes one BLOCK_M x BLOCK_N tile of C = A x B, walking K in BLOCK_K steps with tk::dot (f16
/// inputs, f32 accumulator). Programs are ordered in groups of GROUP_M rows of tiles so that
/// neighbours share tiles of A and B in the L2 cache. Checks C against a double reference.
#include "kernels/matmul.hpp"
#include "example_support.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

int main() {
  const example::target where = example::choose_target();
  const int M = 320, N = 200, K = 300;
  const int block_m = 64, block_n = 64, block_k = 32, group_m = 4;

  example::uniform random(-1.f, 1.f, 42);
  std::vector<tk::half> a(std::size_t(M) * K), b(std::size_t(K) * N), c(std::size_t(M) * N);
  for (auto &v : a)
    v = tk::half(random());
  for (auto &v : b)
    v = tk::half(random());

  const auto grid = tk::cdiv(M, block_m) * tk::cdiv(N, block_n);
  example::array<tk::half> a_arg(where, a), b_arg(where, b), c_arg(where, c, example::output);
  const double ms = example::time_ms([&] {
    examples::matmul.launch(tk::grid(grid), {.backend = where.backend}, c_arg.arg(), a_arg.input(),
                            b_arg.input(), M, N, K, K, 1, N, 1, N, 1, tk::constant(block_m),
                            tk::constant(block_n), tk::constant(block_k), tk::constant(group_m),
                            tk::constant(tk::input_precision::tf32));
    c_arg.fetch();
  });

  // Errors relative to sum_k |a_ik b_kj|: the f32 accumulation is exact enough that the f16
  // rounding of the result (2^-11 relative to |c_ij| <= that sum) dominates.
  std::vector<float> bt(std::size_t(K) * N); // B transposed, for a cache-friendly reference
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      bt[std::size_t(j) * K + std::size_t(k)] = b[std::size_t(k) * N + std::size_t(j)];
  double max_error = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double sum = 0, scale = 0;
      for (int k = 0; k < K; ++k) {
        const double p = double(float(a[std::size_t(i) * K + std::size_t(k)])) *
                         bt[std::size_t(j) * K + std::size_t(k)];
        sum += p;
        scale += std::fabs(p);
      }
      const double err =
          std::fabs(double(float(c[std::size_t(i) * N + std::size_t(j)])) - sum) / scale;
      if (std::isnan(err) || err > max_error)
        max_error = err;
    }
  return example::report("matmul",
                         std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) +
                             " f16 (f32 accumulate)",
                         where, max_error, std::ldexp(1.0, -10), ms);
}

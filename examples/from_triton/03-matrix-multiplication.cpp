/// @file 03-matrix-multiplication.cpp
/// Matrix multiplication, Triton's tutorial 03 (kernels/matmul.hpp): each program instance
/// computes one BLOCK_M x BLOCK_N tile of C = A x B, walking K in BLOCK_K steps with tk::dot (f16
/// inputs, f32 accumulator), programs ordered in groups of GROUP_M rows of tiles so that
/// neighbours share tiles of A and B in the L2 cache. The block sizes are autotuned for each
/// (M, N, K), and a leaky-ReLU epilogue is fused before C is rounded to f16. Checks C, with and
/// without the epilogue, against a double reference.
#include "example_support.hpp"
#include "kernels/matmul.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

/// C = act(A x B) on f16 M x K and K x N row-major matrices; prints the summary line and returns
/// the exit status (0: right).
int run(const example::target &where, int M, int N, int K, examples::activation act) {
  example::uniform random(-1.f, 1.f, 42);
  std::vector<tk::half> a(std::size_t(M) * K), b(std::size_t(K) * N), c(std::size_t(M) * N);
  for (auto &v : a)
    v = tk::half(random());
  for (auto &v : b)
    v = tk::half(random());

  example::array<tk::half> a_arg(where, a), b_arg(where, b), c_arg(where, c, example::output);
  const double ms = example::time_ms([&] {
    // The grid callable gets each constant: the tuned BLOCK_M, BLOCK_N, ... of the config.
    examples::matmul_activation_tuned.launch(
        [&](int block_m, int block_n, auto...) {
          return tk::grid(tk::cdiv(M, block_m) * tk::cdiv(N, block_n));
        },
        {.backend = where.backend}, c_arg.arg(), a_arg.input(), b_arg.input(), M, N, K, K, 1, N, 1,
        N, 1, tk::tuned<int>("BLOCK_M"), tk::tuned<int>("BLOCK_N"), tk::tuned<int>("BLOCK_K"),
        tk::tuned<int>("GROUP_M"), tk::constant(act));
    c_arg.fetch();
  });

  // Errors relative to sum_k |a_ik b_kj|: the f32 accumulation is exact enough that the f16
  // rounding of the result (2^-11 relative to |c_ij| <= that sum) dominates.
  std::vector<float> bt(std::size_t(K) * N); // B transposed, for a cache-friendly reference
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      bt[std::size_t(j) * K + std::size_t(k)] = float(b[std::size_t(k) * N + std::size_t(j)]);
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
      if (act == examples::activation::leaky_relu && sum < 0)
        sum *= 0.01;
      const double err =
          std::fabs(double(float(c[std::size_t(i) * N + std::size_t(j)])) - sum) / scale;
      if (std::isnan(err) || err > max_error)
        max_error = err;
    }
  const bool leaky = act == examples::activation::leaky_relu;
  return example::report(leaky ? "matmul + leaky_relu" : "matmul",
                         std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) +
                             " f16 (f32 accumulate)",
                         where, max_error, std::ldexp(1.0, -10), ms);
}

} // namespace

int main() {
  const example::target where = example::choose_target();
  // The tutorial's check is 512 x 512 x 512; the interpreter takes a smaller, ragged product.
  const bool gpu = where.backend == tk::backend::gpu;
  const int M = gpu ? 512 : 160, N = gpu ? 512 : 136, K = gpu ? 512 : 100;
  int status = 0;
  for (auto act : {examples::activation::none, examples::activation::leaky_relu})
    status |= run(where, M, N, K, act);
  return status;
}

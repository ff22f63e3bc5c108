// Matrix multiplication, the Triton tutorial's kernel: each program instance computes one
// BLOCK_M x BLOCK_N tile of C = A x B, walking K in BLOCK_K steps with tk::dot (f16 inputs, f32
// accumulator). Programs are ordered in groups of GROUP_M rows of tiles so that neighbours share
// tiles of A and B in the L2 cache.
#include "example_support.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

auto matmul =
    tk::jit("matmul", [](tk::ptr<tk::half> c, tk::ptr<const tk::half> a, tk::ptr<const tk::half> b,
                         tk::i32 M, tk::i32 N, tk::i32 K, tk::i32 stride_am, tk::i32 stride_ak,
                         tk::i32 stride_bk, tk::i32 stride_bn, tk::i32 stride_cm, tk::i32 stride_cn,
                         tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N,
                         tk::constant<int> BLOCK_K, tk::constant<int> GROUP_M) {
      // Which tile of C this program computes.
      auto pid = tk::program_id(0);
      auto num_pid_m = tk::cdiv(M, BLOCK_M);
      auto num_pid_n = tk::cdiv(N, BLOCK_N);
      auto num_pid_in_group = GROUP_M * num_pid_n;
      auto group_id = pid / num_pid_in_group;
      auto first_pid_m = group_id * GROUP_M;
      auto group_size_m = tk::minimum(num_pid_m - first_pid_m, GROUP_M);
      auto pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
      auto pid_n = (pid % num_pid_in_group) / group_size_m;

      // Pointers to the first tiles of A and B. Rows and columns past the edge wrap around (% M,
      // % N): they are loaded but never stored, which keeps the loads unmasked along M and N.
      auto offs_am = (pid_m * BLOCK_M + tk::arange(0, BLOCK_M)) % M;
      auto offs_bn = (pid_n * BLOCK_N + tk::arange(0, BLOCK_N)) % N;
      auto offs_k = tk::arange(0, BLOCK_K);
      auto a_ptrs =
          a + (offs_am(tk::_, tk::newaxis) * stride_am + offs_k(tk::newaxis, tk::_) * stride_ak);
      auto b_ptrs =
          b + (offs_k(tk::_, tk::newaxis) * stride_bk + offs_bn(tk::newaxis, tk::_) * stride_bn);

      // Walk K; the last step masks the K tail with zeros.
      auto acc = tk::zeros<float>({BLOCK_M, BLOCK_N});
      tk::for_range(0, tk::cdiv(K, BLOCK_K), [&](tk::i32 k) {
        auto a_tile = tk::load(a_ptrs, offs_k(tk::newaxis, tk::_) < K - k * BLOCK_K, 0.0f);
        auto b_tile = tk::load(b_ptrs, offs_k(tk::_, tk::newaxis) < K - k * BLOCK_K, 0.0f);
        acc = tk::dot(a_tile, b_tile, acc);
        a_ptrs += BLOCK_K * stride_ak;
        b_ptrs += BLOCK_K * stride_bk;
      });
      auto c_tile = tk::cast<tk::half>(acc);

      // Store the tile, masked at the edges of C.
      auto offs_cm = pid_m * BLOCK_M + tk::arange(0, BLOCK_M);
      auto offs_cn = pid_n * BLOCK_N + tk::arange(0, BLOCK_N);
      auto c_ptrs =
          c + stride_cm * offs_cm(tk::_, tk::newaxis) + stride_cn * offs_cn(tk::newaxis, tk::_);
      auto c_mask = (offs_cm(tk::_, tk::newaxis) < M) & (offs_cn(tk::newaxis, tk::_) < N);
      tk::store(c_ptrs, c_tile, c_mask);
    });

int main() {
  const example::target where = example::choose_target();
  const int M = 320, N = 200, K = 300;
  const int block_m = 64, block_n = 64, block_k = 32, group_m = 4;

  std::mt19937 gen(42);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<tk::half> a(std::size_t(M) * K), b(std::size_t(K) * N), c(std::size_t(M) * N);
  for (auto &v : a)
    v = tk::half(dist(gen));
  for (auto &v : b)
    v = tk::half(dist(gen));

  const auto grid = tk::cdiv(M, block_m) * tk::cdiv(N, block_n);
  const double ms = example::time_ms([&] {
    matmul.launch(tk::grid(grid), {.backend = where.backend}, c.data(), std::as_const(a).data(),
                  std::as_const(b).data(), M, N, K, K, 1, N, 1, N, 1, block_m, block_n, block_k,
                  group_m);
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

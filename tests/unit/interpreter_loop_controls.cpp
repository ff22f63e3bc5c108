/// @file interpreter_loop_controls.cpp
/// Numerics of loops compiled with tk::range_options, which never change results: a tiled f16
/// matmul whose K loop has its own num_stages (pipelined deeper or shallower than the kernel, or
/// not at all) and an unroll factor, a persistent matmul whose tile loop flattens the K loop
/// into it, and an unrolled reduction with remainder iterations, against double references.
/// Built with TK_TEST_ON_GPU (tk_gpu_numerics) they run on the GPU: the options then reach
/// tk-pipeline, tk-unroll-loops and tk-flatten-loops.
#include "interpreter_support.hpp"

#include <algorithm>
#include <cmath>

namespace {

using tk::_;
using tk::newaxis;

/// Tile `tile` of C = A B (row-major M x K A and K x N B, f16; C in f32), of tiles BM x BN in
/// rows of `grid_n`: its K loop, compiled with `options`, then the masked store.
template <class C, class A, class B>
void tile_product(C c, A a, B b, tk::i32 M, tk::i32 N, tk::i32 K, tk::i32 tile, tk::i32 grid_n,
                  int BM, int BN, int BK, tk::range_options options) {
  auto rm = (tile / grid_n) * BM + tk::arange(0, BM);
  auto rn = (tile % grid_n) * BN + tk::arange(0, BN);
  auto rk = tk::arange(0, BK);
  auto a_ptrs = a + (rm % M)(_, newaxis) * K + rk(newaxis, _);
  auto b_ptrs = b + rk(_, newaxis) * N + (rn % N)(newaxis, _);
  auto acc = tk::zeros<float>({BM, BN});
  tk::for_range(0, tk::cdiv(K, BK), 1, options, [&](tk::i32 k) {
    auto left = K - k * BK;
    auto x = tk::load(a_ptrs, rk(newaxis, _) < left, 0.0f);
    auto y = tk::load(b_ptrs, rk(_, newaxis) < left, 0.0f);
    acc = tk::dot(x, y, acc);
    a_ptrs += BK;
    b_ptrs += BK * N;
  });
  tk::store(c + rm(_, newaxis) * N + rn(newaxis, _), acc,
            (rm(_, newaxis) < M) & (rn(newaxis, _) < N));
}

/// One tile per program; the K loop with `STAGES` and `UNROLL`.
auto matmul_loop_options =
    tk::jit("matmul_loop_options",
            [](tk::ptr<float> c, tk::ptr<const tk::half> a, tk::ptr<const tk::half> b, tk::i32 M,
               tk::i32 N, tk::i32 K, tk::constant<int> BM, tk::constant<int> BN,
               tk::constant<int> BK, tk::constant<int> STAGES, tk::constant<int> UNROLL) {
              tile_product(c, a, b, M, N, K, tk::program_id(0), tk::cdiv(N, BN), BM, BN, BK,
                           {.num_stages = STAGES, .loop_unroll_factor = UNROLL});
            });

/// A fixed number of programs, each walking tiles pid, pid + programs, ...; the tile loop is
/// flattened with the K loop (its prologue computes the tile's pointers and zeroes the
/// accumulator, its epilogue stores the tile). `STAGES` is the flattened loop's.
auto matmul_flattened = tk::jit(
    "matmul_flattened", [](tk::ptr<float> c, tk::ptr<const tk::half> a, tk::ptr<const tk::half> b,
                           tk::i32 M, tk::i32 N, tk::i32 K, tk::constant<int> BM,
                           tk::constant<int> BN, tk::constant<int> BK, tk::constant<int> STAGES) {
      auto grid_n = tk::cdiv(N, BN);
      tk::for_range(tk::program_id(0), tk::cdiv(M, BM) * grid_n, tk::num_programs(0),
                    {.num_stages = STAGES, .flatten = true}, [&](tk::i32 tile) {
                      tile_product(c, a, b, M, N, K, tile, grid_n, BM, BN, BK, {});
                    });
    });

struct problem {
  int M, N, K;
  std::vector<tk::half> a, b;
  std::vector<double> want, scale; // the product, and sum |a||b| per element
};

problem make_problem(std::mt19937_64 &gen, int M, int N, int K) {
  problem p{M,
            N,
            K,
            tk_test::uniform<tk::half>(gen, std::size_t(M * K), -1, 1),
            tk_test::uniform<tk::half>(gen, std::size_t(K * N), -1, 1),
            {},
            {}};
  p.want.assign(std::size_t(M * N), 0.0);
  p.scale.assign(std::size_t(M * N), 0.0);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        const double x =
            float(p.a[std::size_t(i * K + k)]) * double(float(p.b[std::size_t(k * N + j)]));
        p.want[std::size_t(i * N + j)] += x;
        p.scale[std::size_t(i * N + j)] += std::fabs(x);
      }
  return p;
}

/// Every element within 2^-20 of sum |a||b| (f32 accumulation, in any order) of the product.
void check_product(const problem &p, const std::vector<float> &c) {
  std::size_t bad = 0;
  double worst = 0;
  for (std::size_t k = 0; k < c.size(); ++k) {
    const double err = std::fabs(double(c[k]) - p.want[k]);
    worst = std::max(worst, err / (p.scale[k] + 1e-30));
    bad += !(err <= std::ldexp(p.scale[k], -20) + 1e-30);
  }
  INFO("largest error relative to sum |a||b|: " << worst);
  CHECK(bad == 0);
}

TEST_CASE("loop controls: a matmul K loop with its own num_stages and unroll factor",
          "[interpreter][numerics][loop_controls]") {
  TK_TEST_RANDOM(gen);
  const int stages = GENERATE(-1, 1, 2, 4);
  const int unroll = GENERATE(0, 2, 3);
  CAPTURE(stages, unroll);
  // K of 7 tiles: the unrolled loops have a remainder; 32 of 1 tile, fewer than the stages.
  for (const int K : {7 * 32 - 5, 32}) {
    const problem p = make_problem(gen, 70, 48, K);
    std::vector<float> c(std::size_t(p.M * p.N), -1.0f);
    tk_test::run_with({.num_stages = 3}, matmul_loop_options,
                      tk::grid(tk::cdiv(p.M, 32) * tk::cdiv(p.N, 16)), c, p.a, p.b, p.M, p.N, p.K,
                      tk::constant(32), tk::constant(16), tk::constant(32), tk::constant(stages),
                      tk::constant(unroll));
    INFO("K = " << K);
    check_product(p, c);
  }
}

TEST_CASE("loop controls: a persistent matmul whose tile loop is flattened with its K loop",
          "[interpreter][numerics][loop_controls]") {
  TK_TEST_RANDOM(gen);
  const int stages = GENERATE(-1, 1, 3);
  CAPTURE(stages);
  struct shape {
    int M, N, K, programs;
  };
  // 12 tiles over 5 programs (2 or 3 each); more programs than tiles (some walk none); K of
  // one partial tile; K = 0 (no inner iteration: the plain nest stores zeros).
  for (const shape s :
       {shape{100, 72, 130, 5}, shape{40, 30, 64, 9}, shape{33, 17, 9, 2}, shape{64, 48, 0, 3}}) {
    INFO("M = " << s.M << ", N = " << s.N << ", K = " << s.K << ", " << s.programs << " programs");
    const problem p = make_problem(gen, s.M, s.N, s.K);
    std::vector<float> c(std::size_t(p.M * p.N), -1.0f);
    tk_test::run_with({.num_stages = 2}, matmul_flattened, tk::grid(s.programs), c, p.a, p.b, p.M,
                      p.N, p.K, tk::constant(32), tk::constant(32), tk::constant(32),
                      tk::constant(stages));
    check_product(p, c);
  }
}

// Sums x[0 .. n) in one program, two values carried (a block and a count), with the loop
// unrolled by UNROLL.
auto unrolled_sum =
    tk::jit("unrolled_sum", [](tk::ptr<float> out, tk::ptr<std::int32_t> count,
                               tk::ptr<const float> x, tk::i32 n, tk::constant<int> UNROLL) {
      auto offs = tk::arange(0, 16);
      auto acc = tk::zeros<float>({16});
      tk::i32 steps = 0;
      tk::for_range(0, n, 16, {.loop_unroll_factor = UNROLL}, [&](tk::i32 start) {
        acc += tk::load(x + start + offs, start + offs < n, 0.0f);
        steps = steps + 1;
      });
      tk::store(out + offs, acc);
      tk::store(count, steps);
    });

TEST_CASE("loop controls: an unrolled reduction with remainder iterations",
          "[interpreter][numerics][loop_controls]") {
  TK_TEST_RANDOM(gen);
  const int unroll = GENERATE(2, 3, 8);
  CAPTURE(unroll);
  for (const int n : {0, 5, 16, 17, 16 * 7 + 3, 16 * 24}) {
    INFO("n = " << n);
    const auto x = tk_test::uniform(gen, std::size_t(n), -1, 1);
    std::vector<float> out(16, -1.0f);
    std::vector<std::int32_t> count(1, -1);
    tk_test::run(unrolled_sum, tk::grid(1), out, count, x, n, tk::constant(unroll));
    std::vector<double> want(16, 0.0);
    for (int k = 0; k < n; ++k)
      want[std::size_t(k % 16)] += x[std::size_t(k)];
    TK_CHECK_CLOSE(out, want, 1e-5, 1e-5);
    CHECK(count[0] == (n + 15) / 16);
  }
}

} // namespace

/// @file interpreter_matmul_descriptor.cpp
/// A matmul through tensor descriptors (examples/kernels/matmul.hpp's matmul_descriptor, B given
/// N x K, its persistent form matmul_persistent, and a K x N variant), with K tails and blocks over
/// the edges of C, in f16, bf16 and e4m3. On the GPU (tk_gpu_numerics) on sm_90, the descriptors
/// become tensor maps and their tiles come by TMA straight into the swizzled rings wgmma reads:
/// rows of 128 bytes in one box (A, and B N x K), or panels of 64 columns, one box each (B K x N);
/// with 2, 3 and 4 stages.
#include "interpreter_support.hpp"
#include "kernels/matmul.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

/// C = A B with B given K x N (row-major, N contiguous): the tile wgmma reads is N-major.
auto matmul_kn =
    tk::jit("matmul_descriptor_kn",
            [](auto c, auto a, auto b, tk::i32 M, tk::i32 N, tk::i32 K, tk::constant<int> BLOCK_M,
               tk::constant<int> BLOCK_N, tk::constant<int> BLOCK_K) {
              auto a_desc = tk::make_tensor_descriptor(a, {M, K}, {K, 1}, {BLOCK_M, BLOCK_K});
              auto b_desc = tk::make_tensor_descriptor(b, {K, N}, {N, 1}, {BLOCK_K, BLOCK_N});
              auto c_desc = tk::make_tensor_descriptor(c, {M, N}, {N, 1}, {BLOCK_M, BLOCK_N});
              auto i = tk::program_id(0) * BLOCK_M, j = tk::program_id(1) * BLOCK_N;
              auto acc = tk::zeros<float>({BLOCK_M, BLOCK_N});
              tk::for_range(0, tk::cdiv(K, BLOCK_K), [&](tk::i32 k) {
                acc = tk::dot(a_desc.load({i, k * BLOCK_K}), b_desc.load({k * BLOCK_K, j}), acc);
              });
              c_desc.store({i, j}, acc);
            });

struct tiles {
  int bm, bn, bk, warps;
};

/// Checks c (M x N) against A (M x K) times B (N x K when `b_nk`, else K x N) in double: errors
/// within `rtol` of sum |a b| plus the output's rounding.
template <class In, class Out>
void check(const std::vector<Out> &c, const std::vector<In> &a, const std::vector<In> &b, int M,
           int N, int K, bool b_nk, double rtol) {
  std::size_t bad = 0;
  double worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0, m = 0;
      for (int p = 0; p < K; ++p) {
        const double x = float(a[std::size_t(i * K + p)]);
        const double y = float(b[b_nk ? std::size_t(j * K + p) : std::size_t(p * N + j)]);
        s += x * y;
        m += std::fabs(x * y);
      }
      const double got = float(c[std::size_t(i * N + j)]);
      const double err = std::fabs(got - s);
      const double tol =
          rtol * m + std::ldexp(std::fabs(s), std::is_same_v<Out, float>          ? -23
                                              : std::is_same_v<Out, tk::bfloat16> ? -8
                                                                                  : -11);
      worst = std::max(worst, err / (m + 1e-30));
      bad += !(err <= tol);
    }
  INFO("largest error relative to sum |a||b|: " << worst);
  CHECK(bad == 0);
}

template <class In, class Out> void check_both(std::mt19937_64 &gen, tiles t, int stages) {
  // Sizes and leading dimensions multiples of 16, as TMA needs them; K leaves a tail of 16, and
  // the last blocks of C hang over M and N.
  const int M = 136, N = 144, K = 208;
  INFO("tiles " << t.bm << "x" << t.bn << "x" << t.bk << ", " << t.warps << " warps, " << stages
                << " stages");
  const auto a = tk_test::uniform<In>(gen, std::size_t(M * K), -1, 1);
  const auto b = tk_test::uniform<In>(gen, std::size_t(N * K), -1, 1);
  const double rtol = 1e-6;
  const tk::launch_options options{.num_warps = t.warps, .num_stages = stages};
  {
    INFO("B given N x K");
    std::vector<Out> c(std::size_t(M * N), Out(-1234.f));
    tk_test::run_with(options, examples::matmul_descriptor,
                      tk::grid(tk::cdiv(M, t.bm) * tk::cdiv(N, t.bn)), c, std::as_const(a),
                      std::as_const(b), M, N, K, tk::constant(t.bm), tk::constant(t.bn),
                      tk::constant(t.bk), tk::constant(4));
    check(c, a, b, M, N, K, true, rtol);
  }
  {
    // Three program instances, each walking several tiles (nine at 64 x 64, six at 128 x 64):
    // the tile loop around the K loop, and the accumulator and its store per tile.
    INFO("B given N x K, persistent, 3 programs");
    std::vector<Out> c(std::size_t(M * N), Out(-1234.f));
    tk_test::run_with(options, examples::matmul_persistent, tk::grid(3), c, std::as_const(a),
                      std::as_const(b), M, N, K, tk::constant(t.bm), tk::constant(t.bn),
                      tk::constant(t.bk), tk::constant(2));
    check(c, a, b, M, N, K, true, rtol);
  }
  {
    INFO("B given K x N");
    std::vector<Out> c(std::size_t(M * N), Out(-1234.f));
    tk_test::run_with(options, matmul_kn, tk::grid(tk::cdiv(M, t.bm), tk::cdiv(N, t.bn)), c,
                      std::as_const(a), std::as_const(b), M, N, K, tk::constant(t.bm),
                      tk::constant(t.bn), tk::constant(t.bk));
    check(c, a, b, M, N, K, false, rtol);
  }
}

} // namespace

TEST_CASE("descriptor matmul: f16 and bf16 through tensor descriptors, K tail and edges",
          "[interpreter][numerics][dot][descriptor]") {
  TK_TEST_RANDOM(gen);
  check_both<tk::half, tk::half>(gen, {64, 64, 64, 4}, 3);
  check_both<tk::bfloat16, float>(gen, {128, 128, 64, 4}, 3);
  if constexpr (tk_test::on_gpu) {
    // The rings' lengths and the widest tiles (two warpgroups), on the GPU only: the
    // interpreter computes the same products whatever the stages.
    for (int stages : {2, 4})
      check_both<tk::half, float>(gen, {128, 128, 64, 4}, stages);
    check_both<tk::half, tk::half>(gen, {128, 256, 64, 8}, 3);
    check_both<tk::bfloat16, tk::bfloat16>(gen, {64, 128, 32, 4}, 3); // 64-byte rows
    check_both<tk::half, float>(gen, {64, 64, 16, 4}, 3);             // 32-byte rows
  }
}

TEST_CASE("descriptor matmul: e4m3 through tensor descriptors", "[interpreter][numerics][dot]"
                                                                "[descriptor][fp8]") {
  TK_TEST_RANDOM(gen);
  // B N x K is what wgmma multiplies in fp8 (K-major). Hopper accumulates fp8 products with
  // less precision than f32 (docs/writing-kernels.md): on the H200 up to 2.2e-4 of sum |a b|
  // for one element of 19584 at this K (the same element whatever the stages), so 2^-10 here.
  const int M = 136, N = 144, K = 208;
  const auto a = tk_test::uniform<tk::f8e4m3>(gen, std::size_t(M * K), -1, 1);
  const auto b = tk_test::uniform<tk::f8e4m3>(gen, std::size_t(N * K), -1, 1);
  for (int stages : tk_test::on_gpu ? std::vector<int>{2, 3, 4} : std::vector<int>{3}) {
    INFO(stages << " stages");
    std::vector<tk::half> c(std::size_t(M * N), tk::half(-1234.f));
    tk_test::run_with({.num_warps = 4, .num_stages = stages}, examples::matmul_descriptor,
                      tk::grid(tk::cdiv(M, 128) * tk::cdiv(N, 128)), c, std::as_const(a),
                      std::as_const(b), M, N, K, tk::constant(128), tk::constant(128),
                      tk::constant(64), tk::constant(4));
    check(c, a, b, M, N, K, true, std::ldexp(1.0, -10));
  }
}

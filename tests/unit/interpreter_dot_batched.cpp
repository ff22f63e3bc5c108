/// @file interpreter_dot_batched.cpp
/// tk::dot beyond 2-D f32 accumulation: batched 3-D products (f16, i8, with an accumulator),
/// `tk::dot<half>` (Triton's out_dtype) for f16 and fp8 inputs, and fp8 products with
/// `max_num_imprecise_acc`, each against a host product in double. Built into tk_gpu_numerics
/// too, so the same kernels run on the GPU (tensor cores there, wgmma on Hopper).
#include "interpreter_support.hpp"

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

/// sum_k a[t, m, k] b[t, k, n] (+ acc[t, m, n]) for each of `batches` products.
template <class A, class B, class C>
std::vector<double> batched_product(const std::vector<A> &a, const std::vector<B> &b,
                                    const std::vector<C> *acc, int batches, int m, int n, int k) {
  std::vector<double> want(std::size_t(batches * m * n));
  for (int t = 0; t < batches; ++t)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        const std::size_t out = std::size_t((t * m + i) * n + j);
        double s = acc ? double((*acc)[out]) : 0.0;
        for (int p = 0; p < k; ++p)
          s += double(float(a[std::size_t((t * m + i) * k + p)])) *
               double(float(b[std::size_t((t * k + p) * n + j)]));
        want[out] = s;
      }
  return want;
}

/// The [B, R, C] block of `p`, row-major.
template <class P> auto load3(P p, int batches, int rows, int cols) {
  auto t = tk::arange(0, batches)(tk::_, tk::newaxis, tk::newaxis);
  auto r = tk::arange(0, rows)(tk::newaxis, tk::_, tk::newaxis);
  auto c = tk::arange(0, cols)(tk::newaxis, tk::newaxis, tk::_);
  return tk::load(p + (t * rows + r) * cols + c);
}

template <class P, class V> void store3(P p, const V &v, int batches, int rows, int cols) {
  auto t = tk::arange(0, batches)(tk::_, tk::newaxis, tk::newaxis);
  auto r = tk::arange(0, rows)(tk::newaxis, tk::_, tk::newaxis);
  auto c = tk::arange(0, cols)(tk::newaxis, tk::newaxis, tk::_);
  tk::store(p + (t * rows + r) * cols + c, v);
}

constexpr int B = 4, M = 32, N = 64, K = 32;

auto batched_f16 = tk::jit("batched_f16", [](tk::ptr<float> out, tk::ptr<const tk::half> a,
                                             tk::ptr<const tk::half> b, tk::ptr<const float> acc) {
  auto c = tk::dot(load3(a, B, M, K), load3(b, B, K, N), load3(acc, B, M, N));
  store3(out, c, B, M, N);
});

TEST_CASE("tk::dot: a batched 3-D product of f16 blocks with an accumulator",
          "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  const auto a = tk_test::uniform<tk::half>(gen, B * M * K, -1, 1);
  const auto b = tk_test::uniform<tk::half>(gen, B * K * N, -1, 1);
  const auto acc = tk_test::uniform<float>(gen, B * M * N, -4, 4);
  std::vector<float> out(B * M * N);
  tk_test::run(batched_f16, tk::grid(1), out, a, b, acc);
  // f16 products are exact in f32; K of them summed in f32.
  TK_CHECK_CLOSE(out, batched_product(a, b, &acc, B, M, N, K), 1e-4, 1e-5);
}

constexpr int BI = 2, MI = 16, NI = 32, KI = 64;

auto batched_i8 = tk::jit("batched_i8", [](tk::ptr<std::int32_t> out, tk::ptr<const std::int8_t> a,
                                           tk::ptr<const std::int8_t> b) {
  store3(out, tk::dot(load3(a, BI, MI, KI), load3(b, BI, KI, NI)), BI, MI, NI);
});

TEST_CASE("tk::dot: a batched 3-D product of i8 blocks is exact", "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  const auto a = tk_test::integers<std::int8_t>(gen, BI * MI * KI, -128, 127);
  const auto b = tk_test::integers<std::int8_t>(gen, BI * KI * NI, -128, 127);
  std::vector<std::int32_t> out(BI * MI * NI);
  tk_test::run(batched_i8, tk::grid(1), out, a, b);
  TK_CHECK_EQUAL(out, batched_product(a, b, (const std::vector<int> *)nullptr, BI, MI, NI, KI));
}

constexpr int MO = 64, NO = 64, KO = 64;

auto out_f16 = tk::jit("out_f16", [](tk::ptr<tk::half> out, tk::ptr<tk::half> out8,
                                     tk::ptr<const tk::half> a, tk::ptr<const tk::half> b,
                                     tk::ptr<const tk::f8e4m3> a8, tk::ptr<const tk::f8e4m3> b8) {
  auto c = tk::dot<tk::half>(load3(a, 1, MO, KO), load3(b, 1, KO, NO));
  static_assert(std::is_same_v<decltype(c), tk::block<tk::half, 3>>);
  store3(out, c, 1, MO, NO);
  auto c8 = tk::dot<tk::half>(load3(a8, 1, MO, KO), load3(b8, 1, KO, NO));
  store3(out8, c8, 1, MO, NO);
});

TEST_CASE("tk::dot<half>: f16 and fp8 products accumulated in f16 (Triton's out_dtype)",
          "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  const auto a = tk_test::uniform<tk::half>(gen, MO * KO, -1, 1);
  const auto b = tk_test::uniform<tk::half>(gen, KO * NO, -1, 1);
  const auto a8 = tk_test::uniform<tk::f8e4m3>(gen, MO * KO, -2, 2);
  const auto b8 = tk_test::uniform<tk::f8e4m3>(gen, KO * NO, -2, 2);
  std::vector<tk::half> out(MO * NO), out8(MO * NO);
  tk_test::run(out_f16, tk::grid(1), out, out8, a, b, a8, b8);
  // Sums of 64 products below 1 (4 for fp8) in magnitude, added in f16: the tensor cores round
  // each partial sum to f16 (11 bits), the interpreter the total once.
  TK_CHECK_CLOSE(out, batched_product(a, b, (const std::vector<float> *)nullptr, 1, MO, NO, KO),
                 0.06, 4e-3);
  TK_CHECK_CLOSE(out8, batched_product(a8, b8, (const std::vector<float> *)nullptr, 1, MO, NO, KO),
                 0.25, 4e-3);
}

constexpr int M8 = 64, N8 = 64, K8 = 128, KT = 8;

/// An fp8 K loop of KT tiles into a large f32 accumulator, with at most 32 products (one wgmma)
/// summed at the tensor cores' precision before each sum is added in f32.
auto fp8_precise =
    tk::jit("fp8_precise", [](tk::ptr<float> out, tk::ptr<const tk::f8e4m3> a,
                              tk::ptr<const tk::f8e5m2> b, tk::ptr<const float> init) {
      auto rm = tk::arange(0, M8)(tk::_, tk::newaxis), cn = tk::arange(0, N8)(tk::newaxis, tk::_);
      auto rk = tk::arange(0, K8);
      auto acc = tk::load(init + rm * N8 + cn);
      tk::for_range(0, KT, [&](tk::i32 t) {
        auto a_tile = tk::load(a + rm * (K8 * KT) + t * K8 + rk(tk::newaxis, tk::_));
        auto b_tile = tk::load(b + (t * K8 + rk(tk::_, tk::newaxis)) * N8 + cn);
        acc = tk::dot(a_tile, b_tile, acc, {.max_num_imprecise_acc = 32});
      });
      tk::store(out + rm * N8 + cn, acc);
    });

TEST_CASE("tk::dot: fp8 products with max_num_imprecise_acc are added to the accumulator in f32",
          "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  // Small products into an accumulator of thousands: added with Hopper's fewer bits (about 14),
  // each addition would lose up to a quarter; in f32, only the error within 32 products remains.
  const auto a = tk_test::uniform<tk::f8e4m3>(gen, M8 * K8 * KT, -1, 1);
  const auto b = tk_test::uniform<tk::f8e5m2>(gen, K8 * KT * N8, -1, 1);
  const auto init = tk_test::uniform<float>(gen, M8 * N8, 1024, 4096);
  std::vector<float> out(M8 * N8);
  tk_test::run(fp8_precise, tk::grid(1), out, a, b, init);
  TK_CHECK_CLOSE(out, batched_product(a, b, &init, 1, M8, N8, K8 * KT), 0.02, 1e-6);
}

} // namespace

/// @file interpreter_dot_batched.cpp
/// tk::dot beyond 2-D f32 accumulation: batched 3-D products (f16, i8, with an accumulator),
/// `tk::dot<half>` (Triton's out_dtype) for f16 and fp8 inputs, and fp8 products with
/// `max_num_imprecise_acc`, each against a host product in double. Built into tk_gpu_numerics
/// too, so the same kernels run on the GPU (tensor cores there, wgmma on Hopper).
#include "interpreter_support.hpp"

#include <cmath>
#include <cstdint>
#include <string>
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

/// `b` (N8 x K8 KT, row-major) as K8 KT x N8, row-major: what batched_product reads.
template <class T> std::vector<T> k_by_n(const std::vector<T> &b) {
  std::vector<T> t(b.size());
  for (int n = 0; n < N8; ++n)
    for (int k = 0; k < K8 * KT; ++k)
      t[std::size_t(k * N8 + n)] = b[std::size_t(n * K8 * KT + k)];
  return t;
}

/// An fp8 K loop of KT tiles into a large f32 accumulator, its products made with `options`. B
/// is given N x K (K contiguous) and transposed in the kernel, the layout sm_90a's wgmma takes
/// fp8 in (with B as K x N the backend uses mma.sync, which the limit does not change).
auto fp8_k_loop(std::string name, tk::dot_options options) {
  return tk::jit(std::move(name), [options](tk::ptr<float> out, tk::ptr<const tk::f8e4m3> a,
                                            tk::ptr<const tk::f8e5m2> b,
                                            tk::ptr<const float> init) {
    auto rm = tk::arange(0, M8)(tk::_, tk::newaxis), cn = tk::arange(0, N8)(tk::newaxis, tk::_);
    auto rn = tk::arange(0, N8)(tk::_, tk::newaxis);
    auto rk = tk::arange(0, K8);
    auto acc = tk::load(init + rm * N8 + cn);
    tk::for_range(0, KT, [&](tk::i32 t) {
      auto a_tile = tk::load(a + rm * (K8 * KT) + t * K8 + rk(tk::newaxis, tk::_));
      auto b_tile = tk::trans(tk::load(b + rn * (K8 * KT) + t * K8 + rk(tk::newaxis, tk::_)));
      acc = tk::dot(a_tile, b_tile, acc, options);
    });
    tk::store(out + rm * N8 + cn, acc);
  });
}

/// At most 32 products (one wgmma) summed at the tensor cores' precision before each sum is
/// added in f32.
auto fp8_precise = fp8_k_loop("fp8_precise", {.max_num_imprecise_acc = 32});

TEST_CASE("tk::dot: fp8 products with max_num_imprecise_acc are added to the accumulator in f32",
          "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  // Small products into an accumulator of thousands: added with Hopper's fewer bits (about 14),
  // each addition would lose up to a quarter; in f32, only the error within 32 products remains.
  const auto a = tk_test::uniform<tk::f8e4m3>(gen, M8 * K8 * KT, -1, 1);
  const auto b = tk_test::uniform<tk::f8e5m2>(gen, N8 * K8 * KT, -1, 1); // N x K
  const auto b_kn = k_by_n(b);
  const auto init = tk_test::uniform<float>(gen, M8 * N8, 1024, 4096);
  std::vector<float> out(M8 * N8);
  tk_test::run(fp8_precise, tk::grid(1), out, a, b, init);
  TK_CHECK_CLOSE(out, batched_product(a, b_kn, &init, 1, M8, N8, K8 * KT), 0.02, 1e-6);
}

#ifdef TK_TEST_ON_GPU
/// fp8_precise without the limit: on sm_90a, wgmma adds the products to the accumulator at the
/// tensor cores' own precision.
auto fp8_imprecise = fp8_k_loop("fp8_imprecise", {});

TEST_CASE("tk::dot: on sm_90a, fp8 sums into a large accumulator miss without "
          "max_num_imprecise_acc",
          "[numerics][dot]") {
  if (tk::gpu_name().find("(sm_90a)") == std::string::npos) {
    SUCCEED("wgmma's accumulation is sm_90a's; this GPU is " << tk::gpu_name());
    return;
  }
  TK_TEST_RANDOM(gen);
  const auto a = tk_test::uniform<tk::f8e4m3>(gen, M8 * K8 * KT, -1, 1);
  const auto b = tk_test::uniform<tk::f8e5m2>(gen, N8 * K8 * KT, -1, 1); // N x K
  const auto b_kn = k_by_n(b);
  const auto init = tk_test::uniform<float>(gen, M8 * N8, 1024, 4096);
  const auto want = batched_product(a, b_kn, &init, 1, M8, N8, K8 * KT);
  std::vector<float> limited(M8 * N8), unlimited(M8 * N8);
  tk_test::run(fp8_precise, tk::grid(1), limited, a, b, init);
  tk_test::run(fp8_imprecise, tk::grid(1), unlimited, a, b, init);
  const auto with_limit = tk_test::compare(limited, want, 0.02, 0.0);
  const auto without_limit = tk_test::compare(unlimited, want, 0.02, 0.0);
  INFO("with the limit: " << with_limit << "; without: " << without_limit);
  // The tolerance the test above uses tells the two apart: the limit is what makes it pass.
  CHECK(with_limit.bad == 0);
  CHECK(without_limit.bad > 0);
}
#endif

} // namespace

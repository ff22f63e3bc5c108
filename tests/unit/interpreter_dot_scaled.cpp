/// @file interpreter_dot_scaled.cpp
/// tk::dot_scaled (Triton's tl.dot_scaled) against a host product of the decoded, scaled
/// elements: e2m1 bytes packed along K or along M / N, fp8 elements or their bytes, bf16 and
/// fp16, with and without scales and an accumulator, the NaN of a 0xFF scale, and NVFP4 (e4m3
/// scales, one per 16 elements). Built into
/// tk_gpu_numerics too, so the same kernels run on the GPU (tensor cores there).
#include "interpreter_support.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

namespace {

constexpr int M = 32, N = 32, K = 128;

/// The value of an e2m1 code.
double e2m1(int code) {
  static const double magnitude[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return (code & 8 ? -1 : 1) * magnitude[code & 7];
}

/// The value of an e8m0 scale.
double e8m0(std::uint8_t s, bool fast_math) {
  if (s == 255 && !fast_math)
    return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, int(s) - 127);
}

/// Element (row, k) of an [rows, K] operand held as e2m1 bytes packed along `k` (each byte two
/// neighbours along k) or along the rows.
double packed(const std::vector<std::uint8_t> &bytes, int row, int k, int cols, bool along_k) {
  const std::uint8_t b = along_k ? bytes[std::size_t(row * (cols / 2) + k / 2)]
                                 : bytes[std::size_t((row / 2) * cols + k)];
  const int nibble = (along_k ? k : row) % 2 ? b >> 4 : b & 15;
  return e2m1(nibble);
}

/// Rounds a product of an element and its scale as the emulation does: f32, then the compute
/// type.
template <class C> double rounded(double x) { return double(float(C(float(x)))); }

/// sum_k a(m, k) b(k, n) (+ acc), with tolerance for f32 accumulation in any order.
template <class A, class B>
void check_product(const std::vector<float> &got, A a, B b, const std::vector<float> *acc) {
  std::vector<double> want(got.size());
  double scale = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double s = acc ? double((*acc)[std::size_t(m * N + n)]) : 0.0;
      for (int k = 0; k < K; ++k) {
        s += a(m, k) * b(k, n);
        scale = std::max(scale, std::fabs(a(m, k) * b(k, n)));
      }
      want[std::size_t(m * N + n)] = s;
    }
  TK_CHECK_CLOSE(got, want, scale * K * 1e-6, 1e-6);
}

/// Checks `out` against the product of `a` ([M, K / 2] bytes) and `b` ([K / 2, N] bytes), e2m1
/// packed along K, their elements (m, k) and (k, n) times `scale_a(m, k)` and `scale_b(n, k)`.
template <class SA, class SB>
void check_e2m1_product(const std::vector<float> &out, const std::vector<std::uint8_t> &a,
                        const std::vector<std::uint8_t> &b, SA scale_a, SB scale_b) {
  check_product(
      out,
      [&](int m, int k) { return rounded<tk::bfloat16>(packed(a, m, k, K, true) * scale_a(m, k)); },
      [&](int k, int n) {
        // [K / 2, N] bytes: row k / 2, the low nibble for even k.
        const std::uint8_t byte = b[std::size_t((k / 2) * N + n)];
        return rounded<tk::bfloat16>(e2m1(k % 2 ? byte >> 4 : byte & 15) * scale_b(n, k));
      },
      nullptr);
}

/// e2m1 x e2m1 with scales: e8m0 bytes one per 32 along K, or f8e4m3 one per 16 (NVFP4), as
/// the scales' type says.
auto e2m1_both = tk::jit("e2m1_both", [](tk::ptr<float> out, tk::ptr<const std::uint8_t> a, auto sa,
                                         tk::ptr<const std::uint8_t> b, auto sb) {
  using S = std::remove_const_t<std::remove_pointer_t<typename decltype(sa)::element_type>>;
  constexpr int group = std::is_same_v<S, tk::f8e4m3> ? 16 : 32;
  auto rm = tk::arange(0, M)(tk::_, tk::newaxis), cn = tk::arange(0, N)(tk::newaxis, tk::_);
  auto a_tile = tk::load(a + rm * (K / 2) + tk::arange(0, K / 2)(tk::newaxis, tk::_));
  auto b_tile = tk::load(b + tk::arange(0, K / 2)(tk::_, tk::newaxis) * N + cn);
  auto scales = tk::arange(0, K / group)(tk::newaxis, tk::_);
  auto sa_tile = tk::load(sa + rm * (K / group) + scales);
  auto sb_tile = tk::load(sb + tk::arange(0, N)(tk::_, tk::newaxis) * (K / group) + scales);
  tk::store(out + rm * N + cn, tk::dot_scaled(a_tile, sa_tile, tk::mx_format::e2m1, b_tile, sb_tile,
                                              tk::mx_format::e2m1));
});

TEST_CASE("tk::dot_scaled: e2m1 x e2m1 with e8m0 scales", "[interpreter][numerics][dot_scaled]") {
  TK_TEST_RANDOM(gen);
  auto a = tk_test::integers<std::uint8_t>(gen, M * K / 2, 0, 255);
  auto b = tk_test::integers<std::uint8_t>(gen, K / 2 * N, 0, 255);
  auto sa = tk_test::integers<std::uint8_t>(gen, M * K / 32, 117, 137);
  auto sb = tk_test::integers<std::uint8_t>(gen, N * K / 32, 117, 137);
  sa[3] = 0; // 2^-127: an f32 subnormal, its products underflow bf16 to zero
  std::vector<float> out(M * N);
  tk_test::run(e2m1_both, tk::grid(1), out, std::as_const(a), std::as_const(sa), std::as_const(b),
               std::as_const(sb));
  check_e2m1_product(
      out, a, b, [&](int m, int k) { return e8m0(sa[std::size_t(m * (K / 32) + k / 32)], false); },
      [&](int n, int k) { return e8m0(sb[std::size_t(n * (K / 32) + k / 32)], false); });
}

TEST_CASE("tk::dot_scaled: NVFP4, e2m1 x e2m1 with an e4m3 scale per 16 elements",
          "[interpreter][numerics][dot_scaled]") {
  TK_TEST_RANDOM(gen);
  auto a = tk_test::integers<std::uint8_t>(gen, M * K / 2, 0, 255);
  auto b = tk_test::integers<std::uint8_t>(gen, K / 2 * N, 0, 255);
  // e4m3 scales of both signs, normal and subnormal (|s| from 2^-9 to 448).
  const auto codes_a = tk_test::integers<std::uint8_t>(gen, M * K / 16, 0, 254);
  const auto codes_b = tk_test::integers<std::uint8_t>(gen, N * K / 16, 0, 254);
  std::vector<tk::f8e4m3> sa, sb;
  for (std::uint8_t c : codes_a)
    sa.push_back(tk::f8e4m3::from_bits(std::uint8_t(c == 0x7f ? 0x7e : c))); // no NaN
  for (std::uint8_t c : codes_b)
    sb.push_back(tk::f8e4m3::from_bits(std::uint8_t(c == 0x7f ? 0x7e : c)));
  std::vector<float> out(M * N);
  tk_test::run(e2m1_both, tk::grid(1), out, std::as_const(a), std::as_const(sa), std::as_const(b),
               std::as_const(sb));
  check_e2m1_product(
      out, a, b,
      [&](int m, int k) { return double(float(sa[std::size_t(m * (K / 16) + k / 16)])); },
      [&](int n, int k) { return double(float(sb[std::size_t(n * (K / 16) + k / 16)])); });
}

auto fp8_times_e2m1_along_n =
    tk::jit("fp8_times_e2m1_along_n",
            [](tk::ptr<float> out, tk::ptr<const tk::f8e4m3> a, tk::ptr<const std::uint8_t> b,
               tk::ptr<const std::uint8_t> sb, tk::ptr<const float> acc) {
              auto rm = tk::arange(0, M)(tk::_, tk::newaxis);
              auto cn = tk::arange(0, N)(tk::newaxis, tk::_);
              auto a_tile = tk::load(a + rm * K + tk::arange(0, K)(tk::newaxis, tk::_));
              // [K, N / 2] bytes: packed along N.
              auto b_tile = tk::load(b + tk::arange(0, K)(tk::_, tk::newaxis) * (N / 2) +
                                     tk::arange(0, N / 2)(tk::newaxis, tk::_));
              auto sb_tile = tk::load(sb + tk::arange(0, N)(tk::_, tk::newaxis) * (K / 32) +
                                      tk::arange(0, K / 32)(tk::newaxis, tk::_));
              auto c = tk::load(acc + rm * N + cn);
              tk::store(out + rm * N + cn,
                        tk::dot_scaled(a_tile, std::nullopt, tk::mx_format::e4m3, b_tile, sb_tile,
                                       tk::mx_format::e2m1, c, {.rhs_k_pack = false}));
            });

TEST_CASE("tk::dot_scaled: e4m3 without scales x e2m1 packed along N, plus an accumulator",
          "[interpreter][numerics][dot_scaled]") {
  TK_TEST_RANDOM(gen);
  auto af = tk_test::uniform(gen, M * K, -40, 40);
  std::vector<tk::f8e4m3> a(af.size());
  for (std::size_t i = 0; i < af.size(); ++i)
    a[i] = tk::f8e4m3(af[i]);
  auto b = tk_test::integers<std::uint8_t>(gen, K * N / 2, 0, 255);
  auto sb = tk_test::integers<std::uint8_t>(gen, N * K / 32, 120, 134);
  auto acc = tk_test::uniform(gen, M * N, -100, 100);
  std::vector<float> out(M * N);
  tk_test::run(fp8_times_e2m1_along_n, tk::grid(1), out, std::as_const(a), std::as_const(b),
               std::as_const(sb), std::as_const(acc));
  check_product(
      out, [&](int m, int k) { return double(float(a[std::size_t(m * K + k)])); },
      [&](int k, int n) {
        const std::uint8_t byte = b[std::size_t(k * (N / 2) + n / 2)];
        return rounded<tk::bfloat16>(e2m1(n % 2 ? byte >> 4 : byte & 15) *
                                     e8m0(sb[std::size_t(n * (K / 32) + k / 32)], false));
      },
      &acc);
}

auto bits_formats =
    tk::jit("bits_formats", [](tk::ptr<float> out, tk::ptr<const std::uint16_t> a,
                               tk::ptr<const std::uint8_t> sa, tk::ptr<const std::uint8_t> b,
                               tk::constant<tk::mx_format> A_FORMAT, tk::constant<bool> FAST) {
      auto rm = tk::arange(0, M)(tk::_, tk::newaxis), cn = tk::arange(0, N)(tk::newaxis, tk::_);
      auto a_tile = tk::load(a + rm * K + tk::arange(0, K)(tk::newaxis, tk::_));
      auto sa_tile = tk::load(sa + rm * (K / 32) + tk::arange(0, K / 32)(tk::newaxis, tk::_));
      auto b_tile = tk::load(b + tk::arange(0, K)(tk::_, tk::newaxis) * N + cn);
      tk::store(out + rm * N + cn,
                tk::dot_scaled(a_tile, sa_tile, A_FORMAT.value, b_tile, std::nullopt,
                               tk::mx_format::e5m2, {.fast_math = FAST.value}));
    });

TEST_CASE("tk::dot_scaled: bf16 or fp16 bits with scales x e5m2 bytes, and the NaN of a 0xFF scale",
          "[interpreter][numerics][dot_scaled]") {
  TK_TEST_RANDOM(gen);
  const bool fp16 = GENERATE(false, true), fast = GENERATE(false, true);
  CAPTURE(fp16, fast);
  std::vector<std::uint16_t> a(M * K);
  auto values = tk_test::uniform(gen, a.size(), -2, 2);
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = fp16 ? std::bit_cast<std::uint16_t>(tk::half(values[i]))
                : std::bit_cast<std::uint16_t>(tk::bfloat16(values[i]));
  auto sa = tk_test::integers<std::uint8_t>(gen, M * K / 32, 124, 130);
  sa[5] = 255; // row 1, k 32..63: NaN, or 2^128 with fast_math
  auto bf = tk_test::uniform(gen, K * N, -3, 3);
  std::vector<std::uint8_t> b(bf.size());
  for (std::size_t i = 0; i < bf.size(); ++i)
    b[i] = std::bit_cast<std::uint8_t>(tk::f8e5m2(bf[i]));
  std::vector<float> out(M * N);
  tk_test::run(bits_formats, tk::grid(1), out, std::as_const(a), std::as_const(sa),
               std::as_const(b), tk::constant(fp16 ? tk::mx_format::fp16 : tk::mx_format::bf16),
               tk::constant(fast));
  auto element = [&](int m, int k) {
    const double v = fp16 ? double(float(std::bit_cast<tk::half>(a[std::size_t(m * K + k)])))
                          : double(float(std::bit_cast<tk::bfloat16>(a[std::size_t(m * K + k)])));
    const double x = v * e8m0(sa[std::size_t(m * (K / 32) + k / 32)], fast);
    return fp16 ? rounded<tk::half>(x) : rounded<tk::bfloat16>(x);
  };
  auto rhs = [&](int k, int n) {
    return double(float(std::bit_cast<tk::f8e5m2>(b[std::size_t(k * N + n)])));
  };
  // Row 1 holds NaN or infinities; check it apart, and the others against the host.
  for (int n = 0; n < N; ++n) {
    const float x = out[std::size_t(N + n)];
    INFO("row 1, column " << n << ": " << x);
    CHECK((fast ? !std::isfinite(x) : std::isnan(x)));
    out[std::size_t(N + n)] = 0;
  }
  std::vector<float> rows(out.begin(), out.end());
  std::vector<double> want(out.size());
  double scale = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double s = 0;
      for (int k = 0; m != 1 && k < K; ++k) {
        s += element(m, k) * rhs(k, n);
        scale = std::max(scale, std::fabs(element(m, k) * rhs(k, n)));
      }
      want[std::size_t(m * N + n)] = s;
    }
  TK_CHECK_CLOSE(rows, want, scale * K * 1e-6, 1e-6);
}

} // namespace

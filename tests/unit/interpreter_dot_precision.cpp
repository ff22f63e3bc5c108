/// @file interpreter_dot_precision.cpp
/// The precisions of tk::dot for f32 inputs on the interpreter: TF32 rounding as the tensor cores
/// read an f32 register (toward zero: the low 13 bits dropped), checked on specific bit patterns;
/// tf32x3 as exactly big_a big_b + big_a small_b + small_a big_b; tf32x3 much closer to ieee than
/// tf32; and input_precision having no effect on f16 inputs. Built for the GPU too
/// (tk_gpu_numerics), where the same kernels must stay within the tolerances (not bit for bit:
/// the GPU sums in f32), and where a product only truncation gives exactly shows that the tensor
/// cores do round toward zero.
#include "interpreter_support.hpp"

#include <bit>

namespace {

float from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }
std::uint32_t to_bits(double x) { return std::bit_cast<std::uint32_t>(static_cast<float>(x)); }

/// TF32 as the tensor cores read it, written independently of the library: the bit pattern less
/// its 13 low bits (sign and magnitude: toward zero).
float tf32_reference(float x) {
  if (!std::isfinite(x))
    return x;
  const std::uint32_t b = std::bit_cast<std::uint32_t>(x);
  return std::bit_cast<float>(b - b % 0x2000u);
}

TEST_CASE("tf32 rounding: toward zero on specific bit patterns", "[interpreter][dot]") {
  struct row {
    std::uint32_t in, out;
    const char *what;
  };
  const row rows[] = {
      {0x3f800000u, 0x3f800000u, "1.0 is exact"},
      {0x3f800fffu, 0x3f800000u, "below half an ulp: down"},
      {0x3f801000u, 0x3f800000u, "a tie: down too"},
      {0x3f801fffu, 0x3f800000u, "just below the next TF32 number: still down"},
      {0xbf801fffu, 0xbf800000u, "negative: toward zero, less negative"},
      {0x3fffffffu, 0x3fffe000u, "no carry into the exponent"},
      {0x00001fffu, 0x00000000u, "the smallest subnormals: to zero"},
      {0x80001fffu, 0x80000000u, "negative: to -0"},
      {0x007fffffu, 0x007fe000u, "the largest subnormal: stays subnormal"},
      {0x7f7fffffu, 0x7f7fe000u, "the largest float: the largest TF32 number, never infinity"},
      {0xff7fffffu, 0xff7fe000u, "the most negative float: likewise"},
      {0x7f800000u, 0x7f800000u, "infinity stays"},
  };
  for (const row &r : rows) {
    INFO(r.what << ": 0x" << std::hex << r.in);
    CHECK(to_bits(tk::detail::round_to_tf32(from_bits(r.in))) == r.out);
    CHECK(std::bit_cast<std::uint32_t>(tf32_reference(from_bits(r.in))) == r.out);
  }
  CHECK(std::isnan(tk::detail::round_to_tf32(std::numeric_limits<double>::quiet_NaN())));

  SECTION("never farther than one TF32 ulp, never away from zero") {
    TK_TEST_RANDOM(gen);
    std::uniform_int_distribution<std::uint32_t> any(0, 0xffffffffu);
    for (int i = 0; i < 200000; ++i) {
      const float x = from_bits(any(gen));
      if (!std::isfinite(x))
        continue;
      const double t = tk::detail::round_to_tf32(x);
      INFO("0x" << std::hex << std::bit_cast<std::uint32_t>(x));
      REQUIRE(to_bits(t) == std::bit_cast<std::uint32_t>(tf32_reference(x)));
      REQUIRE(std::fabs(t) <= std::fabs(double(x)));
      REQUIRE(std::fabs(double(x) - t) <
              std::ldexp(std::fabs(double(x)), -10) + std::ldexp(1.0, -136));
    }
  }
}

TEST_CASE("tf32x3 split: x = big + small to about 22 bits", "[interpreter][dot]") {
  TK_TEST_RANDOM(gen);
  std::uniform_real_distribution<double> d(-1, 1);
  std::uniform_int_distribution<int> e(-100, 100);
  for (int i = 0; i < 100000; ++i) {
    const float x = std::ldexp(float(d(gen)), e(gen));
    // Below 2^-100 the small part may be subnormal, where TF32's 10 fraction bits are fewer.
    if (std::fabs(x) < std::ldexp(1.0f, -100))
      continue;
    const auto s = tk::detail::split_tf32(x);
    INFO("x = " << x);
    REQUIRE(to_bits(s.big) % 0x2000u == 0);
    REQUIRE(to_bits(s.small) % 0x2000u == 0);
    REQUIRE(std::fabs(x - (s.big + s.small)) <= std::ldexp(std::fabs(x), -20));
  }
  const auto inf = tk::detail::split_tf32(std::numeric_limits<float>::infinity());
  CHECK(std::isinf(inf.big));
  CHECK(inf.small == 0); // not inf - inf = NaN
  const auto top = tk::detail::split_tf32(from_bits(0x7f7fffffu));
  CHECK(to_bits(top.big) == 0x7f7fe000u);
  CHECK(to_bits(top.small) ==
        to_bits(tf32_reference(from_bits(0x7f7fffffu) - from_bits(0x7f7fe000u))));
}

// One [M, K] x [K, N] tile, row-major, c = a x b in the given precision.
inline auto dot_tile =
    tk::jit("dot_tile", [](auto c, auto a, auto b, tk::constant<int> M, tk::constant<int> N,
                           tk::constant<int> K, tk::constant<tk::input_precision> PRECISION) {
      auto m = tk::arange(0, M), n = tk::arange(0, N), k = tk::arange(0, K);
      auto x = tk::load(a + m(tk::_, tk::newaxis) * K + k(tk::newaxis, tk::_));
      auto y = tk::load(b + k(tk::_, tk::newaxis) * N + n(tk::newaxis, tk::_));
      tk::store(c + m(tk::_, tk::newaxis) * N + n(tk::newaxis, tk::_), tk::dot(x, y, PRECISION));
    });

struct products {
  std::vector<double> exact, scale; // sum a b in double, sum |a b|
  std::vector<float> tf32, tf32x3;  // the interpreter's definitions, summed in double
};

products reference(const std::vector<float> &a, const std::vector<float> &b, int M, int N, int K) {
  products r;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0, m = 0, t = 0, t3 = 0, t3_small = 0;
      for (int p = 0; p < K; ++p) {
        const float x = a[std::size_t(i * K + p)], y = b[std::size_t(p * N + j)];
        s += double(x) * y;
        m += std::fabs(double(x) * y);
        const float xb = tf32_reference(x), yb = tf32_reference(y);
        const float xs = tf32_reference(x - xb), ys = tf32_reference(y - yb);
        t += double(xb) * yb;
        t3 += double(xb) * yb;
        t3_small += double(xb) * ys + double(xs) * yb;
      }
      r.exact.push_back(s);
      r.scale.push_back(m);
      r.tf32.push_back(float(t));
      r.tf32x3.push_back(float(t3 + t3_small));
    }
  return r;
}

std::vector<float> run_dot(const std::vector<float> &a, const std::vector<float> &b, int M, int N,
                           int K, tk::input_precision p) {
  std::vector<float> c(std::size_t(M * N), -1234.f);
  tk_test::run(dot_tile, tk::grid(1), c, a, b, tk::constant(M), tk::constant(N), tk::constant(K),
               tk::constant(p));
  return c;
}

/// The largest |got - exact| relative to sum |a b|.
double worst_error(const std::vector<float> &got, const products &r) {
  double worst = 0;
  for (std::size_t k = 0; k < got.size(); ++k)
    worst = std::max(worst, std::fabs(double(got[k]) - r.exact[k]) / (r.scale[k] + 1e-300));
  return worst;
}

TEST_CASE("interpreter: tk::dot precisions of f32 inputs", "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  const int M = 32, N = 16, K = 64;
  auto a = tk_test::uniform(gen, std::size_t(M * K), -1, 1);
  auto b = tk_test::uniform(gen, std::size_t(K * N), -1, 1);
  a[0] = from_bits(0x3f801fffu); // where rounding to nearest would go up, truncation down
  b[0] = from_bits(0xbf803000u);
  const products r = reference(a, b, M, N, K);
  const auto ieee = run_dot(a, b, M, N, K, tk::input_precision::ieee);
  const auto tf32 = run_dot(a, b, M, N, K, tk::input_precision::tf32);
  const auto tf32x3 = run_dot(a, b, M, N, K, tk::input_precision::tf32x3);
  const double e_ieee = worst_error(ieee, r), e_tf32 = worst_error(tf32, r),
               e_tf32x3 = worst_error(tf32x3, r);
  INFO("errors relative to sum |a b|: ieee " << e_ieee << ", tf32 " << e_tf32 << ", tf32x3 "
                                             << e_tf32x3);
  // Each input's truncation is under 2^-10 relative (tf32x3: 2^-20); f32 sums add K ulps at
  // most.
  const double f32_sum = K * std::ldexp(1.0, -24);
  CHECK(e_ieee <= f32_sum);
  CHECK(e_tf32 <= 2 * std::ldexp(1.0, -10) + f32_sum);
  CHECK(e_tf32x3 <= 3 * std::ldexp(1.0, -20) + f32_sum);
  if constexpr (!tk_test::on_gpu) {
    // The interpreter sums in double and rounds once: the definitions, bit for bit.
    CHECK(e_ieee <= std::ldexp(1.0, -24));
    TK_CHECK_EQUAL(tf32, r.tf32);
    TK_CHECK_EQUAL(tf32x3, r.tf32x3);
    CHECK(e_tf32 > 64 * e_tf32x3); // tf32x3 is far closer to ieee than tf32
  }
}

TEST_CASE("interpreter: tf32 products round their inputs toward zero, as the tensor cores do",
          "[interpreter][numerics][dot]") {
  // One non-zero product per element of c: x * 1 with x just below the next TF32 number. Rounding
  // to nearest would give the next number up; truncation gives the TF32 number below, exactly.
  const int M = 16, N = 16, K = 16;
  std::vector<float> a(std::size_t(M * K), 0.f), b(std::size_t(K * N), 0.f);
  for (int i = 0; i < M; ++i)
    a[std::size_t(i * K)] = from_bits(i % 2 ? 0xbf801fffu : 0x3f801fffu);
  for (int j = 0; j < N; ++j)
    b[std::size_t(j)] = 1.f;
  const auto tf32 = run_dot(a, b, M, N, K, tk::input_precision::tf32);
  const auto ieee = run_dot(a, b, M, N, K, tk::input_precision::ieee);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      INFO("c[" << i << "][" << j << "]");
      CHECK(tf32[std::size_t(i * N + j)] == (i % 2 ? -1.f : 1.f));
      CHECK(ieee[std::size_t(i * N + j)] == a[std::size_t(i * K)]);
    }
}

TEST_CASE("interpreter: tf32x3 keeps infinities (no inf - inf, no inf * 0)",
          "[interpreter][numerics][dot]") {
  const int M = 16, N = 16, K = 16;
  std::vector<float> a(std::size_t(M * K), 0.5f), b(std::size_t(K * N), 0.25f);
  a[0] = std::numeric_limits<float>::infinity();          // row 0 of c: +inf
  a[2 * K + 3] = std::numeric_limits<float>::quiet_NaN(); // row 2: NaN
  const auto c = run_dot(a, b, M, N, K, tk::input_precision::tf32x3);
  for (int j = 0; j < N; ++j) {
    INFO("column " << j);
    CHECK(std::isinf(c[std::size_t(j)]));
    CHECK(c[std::size_t(j)] > 0);
    CHECK(c[std::size_t(N + j)] == 0.5f * 0.25f * K);
    CHECK(std::isnan(c[std::size_t(2 * N + j)]));
  }
}

TEST_CASE("tk::dot: input_precision has no effect on f16 inputs", "[interpreter][dot]") {
  TK_TEST_RANDOM(gen);
  const int M = 16, N = 32, K = 32;
  const auto a = tk_test::uniform<tk::half>(gen, std::size_t(M * K), -1, 1);
  const auto b = tk_test::uniform<tk::half>(gen, std::size_t(K * N), -1, 1);
  std::vector<float> want(std::size_t(M * N));
  tk_test::run(dot_tile, tk::grid(1), want, a, b, tk::constant(M), tk::constant(N), tk::constant(K),
               tk::constant(tk::input_precision::ieee));
  for (auto p : {tk::input_precision::tf32, tk::input_precision::tf32x3}) {
    std::vector<float> got(want.size());
    tk_test::run(dot_tile, tk::grid(1), got, a, b, tk::constant(M), tk::constant(N),
                 tk::constant(K), tk::constant(p));
    TK_CHECK_EQUAL(got, want);
  }
  if constexpr (!tk_test::on_gpu) {
    // The IR records "ieee" for them (the tk.dot verifier accepts tf32 and tf32x3 for f32 only).
    const tk::half *ph = nullptr;
    float *pf = nullptr;
    const std::string ir = dot_tile.ir(pf, ph, ph, tk::constant(M), tk::constant(N),
                                       tk::constant(K), tk::constant(tk::input_precision::tf32x3));
    CHECK(ir.find("input_precision = \"ieee\"") != std::string::npos);
    CHECK(ir.find("tf32") == std::string::npos);
    const float *pc = nullptr;
    const std::string ir32 =
        dot_tile.ir(pf, pc, pc, tk::constant(M), tk::constant(N), tk::constant(K),
                    tk::constant(tk::input_precision::tf32x3));
    CHECK(ir32.find("input_precision = \"tf32x3\"") != std::string::npos);
  }
}

} // namespace

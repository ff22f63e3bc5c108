/// @file interpreter_remainder.cpp
/// Numerics of `%` on floats: C's fmod, exact, bit for bit (the sign of a zero result included),
/// for f32, f64, f16 and bf16. Built twice like every interpreter_*.cpp: on the interpreter
/// (tk_unit_tests) and on the GPU (tk_gpu_numerics), where an `x - y * trunc(x / y)` lowering
/// is wrong for large quotients (2^100 and more) and subnormal divisors.
#include "interpreter_support.hpp"

#include <bit>
#include <cstring>
#include <limits>
#include <sstream>
#include <utility>

namespace {

auto remainder_kernel =
    tk::jit("remainder", [](auto out, auto a, auto b, tk::i32 n, tk::constant<int> BLOCK) {
      auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offs < n;
      auto x = tk::load(a + offs, mask);
      auto y = tk::load(b + offs, mask);
      tk::store(out + offs, x % y, mask);
    });

/// What the tests need of each type: its value as a double (exact for all four), its bits, and
/// C's fmod in it. fmod's result is representable in its operands' type, so computing it on
/// the f16/bf16 values in float and converting back is exact.
template <class T> struct traits;
template <> struct traits<float> {
  static double value(float x) { return x; }
  static float make(double x) { return float(x); }
  static std::uint64_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }
  static float fmod(float x, float y) { return std::fmod(x, y); }
  static constexpr int min_exponent = -149, max_exponent = 127;
};
template <> struct traits<double> {
  static double value(double x) { return x; }
  static double make(double x) { return x; }
  static std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }
  static double fmod(double x, double y) { return std::fmod(x, y); }
  static constexpr int min_exponent = -1074, max_exponent = 1023;
};
template <class H> struct half_traits {
  static double value(H x) { return float(x); }
  static H make(double x) { return H(x); }
  static std::uint64_t bits(H x) { return x.bits; }
  static H fmod(H x, H y) { return H(std::fmod(float(x), float(y))); }
};
template <> struct traits<tk::half> : half_traits<tk::half> {
  static constexpr int min_exponent = -24, max_exponent = 15;
};
template <> struct traits<tk::bfloat16> : half_traits<tk::bfloat16> {
  static constexpr int min_exponent = -133, max_exponent = 127;
};

/// Pairs (x, y): IEEE's special cases, subnormals, and random values whose quotient x / y
/// spans 2^-8 ... 2^max_quotient (as far as the type's exponent range allows).
template <class T> std::pair<std::vector<T>, std::vector<T>> cases(std::mt19937_64 &gen) {
  using tr = traits<T>;
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double tiny = std::ldexp(1.0, tr::min_exponent); // the smallest subnormal
  const double huge = std::ldexp(1.0, tr::max_exponent);
  std::vector<T> a, b;
  auto add = [&](double x, double y) {
    a.push_back(tr::make(x));
    b.push_back(tr::make(y));
  };
  for (double sign : {1.0, -1.0}) {
    for (double y : {1.0, -1.0, 3.5, tiny, huge, inf, -inf}) {
      add(sign * 0.0, y); // fmod(±0, y) = ±0 for y != 0, NaN too
      add(inf * sign, y); // fmod(±inf, y) = NaN
    }
    for (double x : {1.0, 5.5, tiny, 3 * tiny, huge, -7.25}) {
      add(sign * x, inf); // fmod(x, ±inf) = x for finite x
      add(sign * x, -inf);
    }
    for (double x : {1.0, -2.5, 0.0, inf}) {
      add(sign * x, 0.0); // fmod(x, ±0) = NaN
      add(sign * x, -0.0);
    }
    for (auto [x, y] : {std::pair{sign * nan, 2.0}, {2.0, sign * nan}, {nan, nan}, {nan, 0.0}})
      add(x, y);
    add(sign * 4.0, 2.0); // exact multiples: a zero of x's sign
    add(sign * 4.0, -2.0);
    add(sign * 7 * tiny, 2 * tiny); // subnormal operands
    add(sign * huge, 3 * tiny);     // the largest quotients the type has
    add(sign * huge * 1.5, tiny * 5);
    add(sign * 1.0, 3 * tiny);
  }
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> sign(0, 1);
  const int max_quotient = std::min(100, tr::max_exponent - tr::min_exponent);
  std::uniform_int_distribution<int> quotient(-8, max_quotient);
  for (int k = 0; k < 4000; ++k) {
    const int q = quotient(gen);
    // y's exponent such that both x = y * 2^q and y are within the type's range.
    const int lo = std::max(tr::min_exponent, tr::min_exponent - q);
    const int hi = std::min(tr::max_exponent, tr::max_exponent - q);
    if (lo > hi)
      continue;
    const int ey = std::uniform_int_distribution<int>(lo, hi)(gen);
    const double y = std::ldexp(mantissa(gen), ey) * (sign(gen) ? -1 : 1);
    const double x = std::ldexp(mantissa(gen), ey + q) * (sign(gen) ? -1 : 1);
    if (std::isfinite(tr::value(tr::make(x))) && std::isfinite(tr::value(tr::make(y))))
      add(x, y);
  }
  return {a, b};
}

/// Runs `%` on every case and compares each result's bits with C's fmod (any NaN for a NaN).
template <class T> void check_fmod(std::mt19937_64 &gen) {
  using tr = traits<T>;
  auto [a, b] = cases<T>(gen);
  const int n = int(a.size());
  std::vector<T> out(a.size());
  tk_test::run(remainder_kernel, tk::grid(tk::cdiv(n, 256)), out, std::as_const(a),
               std::as_const(b), n, tk::constant<int>(256));
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const T want = tr::fmod(a[k], b[k]);
    const bool ok = std::isnan(tr::value(want)) ? std::isnan(tr::value(out[k]))
                                                : tr::bits(out[k]) == tr::bits(want);
    if (!ok && bad++ < 5)
      first << "\n  fmod(" << tr::value(a[k]) << ", " << tr::value(b[k])
            << ") = " << tr::value(want) << " (bits " << std::hex << tr::bits(want) << "), got "
            << tr::value(out[k]) << " (bits " << tr::bits(out[k]) << std::dec << ")";
  }
  INFO(bad << " of " << a.size() << " results differ from C's fmod" << first.str());
  CHECK(bad == 0);
}

} // namespace

TEST_CASE("interpreter: float % is C's fmod bit for bit, large quotients and special values",
          "[interpreter][numerics][remainder]") {
  TK_TEST_RANDOM(gen);
  SECTION("f32") { check_fmod<float>(gen); }
  SECTION("f64") { check_fmod<double>(gen); }
  SECTION("f16") { check_fmod<tk::half>(gen); }
  SECTION("bf16") { check_fmod<tk::bfloat16>(gen); }
  SECTION("the values that showed the GPU's frem expansion wrong") {
    // x / y ~ 2^77: x - y * trunc(x / y) loses every bit of the remainder.
    std::vector<float> a{1.2e16f * 1.0e7f, -3.0e20f, 1.0e30f},
        b{1.7f, 1.9f, std::ldexp(1.0f, -120)};
    std::vector<float> out(a.size());
    tk_test::run(remainder_kernel, tk::grid(1), out, std::as_const(a), std::as_const(b),
                 int(a.size()), tk::constant<int>(4));
    for (std::size_t k = 0; k < a.size(); ++k) {
      INFO("fmod(" << a[k] << ", " << b[k] << ")");
      CHECK(std::bit_cast<std::uint32_t>(out[k]) ==
            std::bit_cast<std::uint32_t>(std::fmod(a[k], b[k])));
      CHECK(std::fabs(out[k]) < std::fabs(b[k]));
    }
  }
}

/// @file interpreter_math.cpp
/// Numerics of the math library (tanh, pow, exp10, hypot, round, fdiv, sqrt_rn, isnan, ...): the
/// interpreter computes each function in double precision and rounds once to the element type,
/// so it must match the host's std:: functions bit for bit (the sign of zero included) on f32,
/// f64 and f16, at special values (NaN, infinities, signed zeros, domain edges, halfway cases)
/// and at random points. Built twice like every interpreter_*.cpp: on the GPU (tk_gpu_numerics)
/// the same kernels must come within each function's documented error bound of that reference,
/// plus one ulp (docs/writing-kernels.md, "Accuracy on the GPU": libdevice's bounds from the CUDA
/// programming guide, sqrt.approx and div.full). For f64 the GPU's reference is the host's long
/// double function rounded once, within about half an ulp of the exact result; glibc's double
/// functions are not always (its cbrt was 3 ulps from the GPU's, whose bound is 1).
#include "expect_error.hpp"
#include "interpreter_support.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

const double nan = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------------------------------------
// The functions under test, by number (a kernel constant), on blocks and on host doubles.

enum fn : int {
  f_tanh,
  f_tan,
  f_asin,
  f_acos,
  f_atan,
  f_sinh,
  f_cosh,
  f_asinh,
  f_acosh,
  f_atanh,
  f_erfc,
  f_cbrt,
  f_log10,
  f_log1p,
  f_expm1,
  f_trunc,
  f_round,
  f_rint,
  f_sqrt,
  f_sqrt_rn,
  f_exp10,
  // binary
  f_pow,
  f_atan2,
  f_hypot,
  f_fdiv,
  f_fdiv_ieee,
  f_div_rn,
  f_count
};

struct fn_info {
  const char *name;
  int arity;
  double lo, hi, lo2, hi2;  // random operands: x in [lo, hi], y in [lo2, hi2]
  int ulps_f32, ulps_f64;   // the GPU's bound (CUDA programming guide, PTX) for f32 and f64
  bool through_f32 = false; // f16: computed in f32 and rounded back (libdevice calls)
};

// clang-format off
const fn_info infos[f_count] = {
    {"tanh", 1, -10, 10, 0, 0, 2, 1},
    {"tan", 1, -3, 3, 0, 0, 4, 2},
    {"asin", 1, -1, 1, 0, 0, 4, 2},
    {"acos", 1, -1, 1, 0, 0, 3, 1},
    {"atan", 1, -100, 100, 0, 0, 2, 2},
    {"sinh", 1, -20, 20, 0, 0, 3, 1},
    {"cosh", 1, -20, 20, 0, 0, 2, 1},
    {"asinh", 1, -1000, 1000, 0, 0, 3, 2},
    {"acosh", 1, 1, 1000, 0, 0, 4, 2},
    {"atanh", 1, -0.999, 0.999, 0, 0, 3, 2},
    {"erfc", 1, -3, 9, 0, 0, 4, 4},
    {"cbrt", 1, -1000, 1000, 0, 0, 1, 1},
    {"log10", 1, 1e-6, 1e6, 0, 0, 2, 1},
    {"log1p", 1, -0.999, 10, 0, 0, 1, 1},
    {"expm1", 1, -10, 10, 0, 0, 1, 1},
    {"trunc", 1, -100, 100, 0, 0, 0, 0},
    {"round", 1, -100, 100, 0, 0, 0, 0},
    {"rint", 1, -100, 100, 0, 0, 0, 0},
    {"sqrt", 1, 0, 1e6, 0, 0, 1, 0},
    {"sqrt_rn", 1, 0, 1e6, 0, 0, 0, 0},
    {"exp10", 1, -30, 30, 0, 0, 2, 1, true},
    {"pow", 2, 0.01, 10, -10, 10, 8, 2},
    {"atan2", 2, -10, 10, -10, 10, 3, 2},
    {"hypot", 2, -1000, 1000, -1000, 1000, 3, 2, true},
    {"fdiv", 2, -100, 100, 0.01, 100, 2, 0},
    {"fdiv_ieee", 2, -100, 100, 0.01, 100, 0, 0},
    {"div_rn", 2, -100, 100, 0.01, 100, 0, 0},
};
// clang-format on

template <class X> auto apply(int f, const X &x, const X &y) {
  switch (f) {
  case f_tanh:
    return tk::tanh(x);
  case f_tan:
    return tk::tan(x);
  case f_asin:
    return tk::asin(x);
  case f_acos:
    return tk::acos(x);
  case f_atan:
    return tk::atan(x);
  case f_sinh:
    return tk::sinh(x);
  case f_cosh:
    return tk::cosh(x);
  case f_asinh:
    return tk::asinh(x);
  case f_acosh:
    return tk::acosh(x);
  case f_atanh:
    return tk::atanh(x);
  case f_erfc:
    return tk::erfc(x);
  case f_cbrt:
    return tk::cbrt(x);
  case f_log10:
    return tk::log10(x);
  case f_log1p:
    return tk::log1p(x);
  case f_expm1:
    return tk::expm1(x);
  case f_trunc:
    return tk::trunc(x);
  case f_round:
    return tk::round(x);
  case f_rint:
    return tk::rint(x);
  case f_sqrt:
    return tk::sqrt(x);
  case f_sqrt_rn:
    return tk::sqrt_rn(x);
  case f_exp10:
    return tk::exp10(x);
  case f_pow:
    return tk::pow(x, y);
  case f_atan2:
    return tk::atan2(x, y);
  case f_hypot:
    return tk::hypot(x, y);
  case f_fdiv:
    return tk::fdiv(x, y);
  case f_fdiv_ieee:
    return tk::fdiv(x, y, true);
  default:
    return tk::div_rn(x, y);
  }
}

template <class R> R reference(int f, R x, R y) {
  switch (f) {
  case f_tanh:
    return std::tanh(x);
  case f_tan:
    return std::tan(x);
  case f_asin:
    return std::asin(x);
  case f_acos:
    return std::acos(x);
  case f_atan:
    return std::atan(x);
  case f_sinh:
    return std::sinh(x);
  case f_cosh:
    return std::cosh(x);
  case f_asinh:
    return std::asinh(x);
  case f_acosh:
    return std::acosh(x);
  case f_atanh:
    return std::atanh(x);
  case f_erfc:
    return std::erfc(x);
  case f_cbrt:
    return std::cbrt(x);
  case f_log10:
    return std::log10(x);
  case f_log1p:
    return std::log1p(x);
  case f_expm1:
    return std::expm1(x);
  case f_trunc:
    return std::trunc(x);
  case f_round:
    return std::round(x);
  case f_rint:
    return std::nearbyint(x);
  case f_sqrt:
  case f_sqrt_rn:
    return std::sqrt(x);
  case f_exp10: // as the interpreter computes libdevice's functions: in long double
    return R(std::pow(10.0L, static_cast<long double>(x)));
  case f_pow:
    return std::pow(x, y);
  case f_atan2:
    return std::atan2(x, y);
  case f_hypot:
    return R(std::hypot(static_cast<long double>(x), static_cast<long double>(y)));
  default:
    return x / y;
  }
}

/// Special operands of each function: NaN, infinities, signed zeros, the edges of its domain and
/// its halfway cases. Finite nonzero f32 results stay normal (the GPU may flush subnormals).
std::vector<std::pair<double, double>> special_cases(int f) {
  std::vector<std::pair<double, double>> out;
  const double common[] = {nan, -nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5};
  if (infos[f].arity == 1) {
    for (double x : common)
      out.push_back({x, 0});
    const std::vector<double> extra =
        f == f_asin || f == f_acos      ? std::vector<double>{1.0000001, -1.0000001, 0.999999}
        : f == f_acosh                  ? std::vector<double>{0.999, 1.0000001, 2.0}
        : f == f_atanh                  ? std::vector<double>{0.9999999, -0.9999999, 1.5}
        : f == f_log10                  ? std::vector<double>{10.0, 1000.0, 1e-30, -3.0}
        : f == f_log1p                  ? std::vector<double>{-0.9999999, 1e-10, -2.0, 1e30}
        : f == f_expm1                  ? std::vector<double>{1e-10, -1e-10, 88.0, 89.0, -100.0}
        : f == f_sinh || f == f_cosh    ? std::vector<double>{89.0, -89.0, 90.0, 1e-5}
        : f == f_erfc                   ? std::vector<double>{-10.0, 5.0, 9.0, 1e-10}
        : f == f_tanh                   ? std::vector<double>{1e-10, 20.0, -20.0}
        : f == f_cbrt                   ? std::vector<double>{27.0, -8.0, 1e-30, 3e38}
        : f == f_sqrt || f == f_sqrt_rn ? std::vector<double>{4.0, 2.0, -4.0, 1e-30, 3e38}
        : f == f_exp10                  ? std::vector<double>{2.0, -2.0, 38.5, -37.0, 1e-10}
        : f == f_trunc || f == f_round || f == f_rint
            ? std::vector<double>{1.5,        2.5,  -1.5,       -2.5,      3.5,
                                  -0.4,       0.4,  0.49999997, 8388607.5, 8388609.0,
                                  -8388607.5, 1e30, -1e30,      0.7,       -0.7}
            : std::vector<double>{1e-5, 100.0};
    for (double x : extra)
      out.push_back({x, 0});
    return out;
  }
  for (double x : common)
    for (double y : common)
      out.push_back({x, y});
  const std::vector<std::pair<double, double>> extra =
      f == f_pow
          ? std::vector<std::pair<double, double>>{{-2.0, 3.0},   {-2.0, 2.0},     {-2.0, -3.0},
                                                   {-2.0, 0.5},   {-8.0, 1.0 / 3}, {2.0, 10.0},
                                                   {2.0, 1000.0}, {2.0, -1000.0},  {0.0, -1.0},
                                                   {-0.0, -1.0},  {-0.0, -2.0},    {-1.0, inf},
                                                   {-1.0, -inf},  {1.0, nan},      {nan, 0.0},
                                                   {0.5, inf},    {-3.0, 5.0},     {10.0, -2.0}}
      : f == f_atan2
          ? std::vector<std::pair<double, double>>{{1.0, 0.0},   {-1.0, 0.0},  {0.0, -1.0},
                                                   {-0.0, -1.0}, {inf, inf},   {-inf, -inf},
                                                   {3.0, -4.0},  {1e-30, 1e30}}
      : f == f_hypot
          ? std::vector<std::pair<double, double>>{{3.0, 4.0},   {inf, nan},     {nan, -inf},
                                                   {3e38, 3e38}, {1e-30, 1e-30}, {-5.0, 12.0}}
          : std::vector<std::pair<double, double>>{{1.0, 3.0},  {-7.0, 2.0}, {1e30, 1e-10},
                                                   {1.0, 1e30}, {6.0, -3.0}, {0.1, 0.3}};
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

// ---------------------------------------------------------------------------------------------
// Comparison: bit for bit on the interpreter, within `ulps` units in the last place on the GPU.

template <class T> struct bits_of;
template <> struct bits_of<float> {
  static std::int64_t ordered(float x) {
    const auto i = std::bit_cast<std::int32_t>(x);
    return i < 0 ? std::int64_t(INT32_MIN) - i : i;
  }
  static std::uint64_t raw(float x) { return std::bit_cast<std::uint32_t>(x); }
};
template <> struct bits_of<double> {
  static std::int64_t ordered(double x) {
    const auto i = std::bit_cast<std::int64_t>(x);
    return i < 0 ? INT64_MIN - i : i;
  }
  static std::uint64_t raw(double x) { return std::bit_cast<std::uint64_t>(x); }
};
template <> struct bits_of<tk::half> {
  static std::int64_t ordered(tk::half x) {
    const auto i = std::int16_t(x.bits);
    return i < 0 ? std::int64_t(INT16_MIN) - i : i;
  }
  static std::uint64_t raw(tk::half x) { return x.bits; }
};

template <class T> double as_double(T x) {
  if constexpr (std::is_arithmetic_v<T>)
    return double(x);
  else // tk::half, tk::bfloat16
    return double(float(x));
}

/// Units in the last place between `got` and `want` (0 for two NaNs, infinite for one; the
/// zeros count as one point). The difference is taken in integers: the ordered bits of a double
/// reach 2^63, where converting them to double first would round each to a multiple of 512 or
/// 1024 and turn a 1-ulp difference into 0 or 1024.
template <class T> double ulps_between(T got, T want) {
  const bool gn = std::isnan(as_double(got)), wn = std::isnan(as_double(want));
  if (gn || wn)
    return gn && wn ? 0 : inf;
  const std::int64_t a = bits_of<T>::ordered(got), b = bits_of<T>::ordered(want);
  // Unsigned, so that the difference of two extremes (-inf and inf) does not overflow.
  return double(a > b ? std::uint64_t(a) - std::uint64_t(b) : std::uint64_t(b) - std::uint64_t(a));
}

template <class T>
void check_results(const char *what, const std::vector<T> &x, const std::vector<T> &y,
                   const std::vector<T> &got, const std::vector<T> &want, int arity, double ulps) {
  std::size_t bad = 0;
  double worst = 0;
  std::ostringstream first;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const double d = ulps_between(got[k], want[k]);
    // The interpreter: the very bits (a zero's sign too), or NaN for NaN.
    const bool ok = tk_test::on_gpu
                        ? d <= ulps
                        : (d == 0 && (std::isnan(as_double(want[k])) ||
                                      bits_of<T>::raw(got[k]) == bits_of<T>::raw(want[k])));
    worst = std::max(worst, d);
    if (!ok && bad++ < 5) {
      first << "\n  " << what << "(" << as_double(x[k]);
      if (arity == 2)
        first << ", " << as_double(y[k]);
      first << ") = " << as_double(got[k]) << ", want " << as_double(want[k]) << " (" << d
            << " ulps)";
    }
  }
  INFO(what << ": " << bad << " of " << got.size() << " results outside " << ulps << " ulps, worst "
            << worst << first.str());
  CHECK(bad == 0);
}

// ---------------------------------------------------------------------------------------------
// The kernel: one function (FN) applied to 512 elements, of any float type.

constexpr int n = 512;

auto math_kernel = tk::jit("math_fn", [](auto out, auto a, auto b, tk::constant<int> FN) {
  auto offs = tk::arange(0, n);
  auto x = tk::load(a + offs);
  auto y = tk::load(b + offs);
  tk::store(out + offs, apply(int(FN), x, y));
});

template <class T> T make(double v) { return T(v); }

/// The reference in T: the double result rounded once to T, or, for libdevice calls on f16,
/// rounded to f32 first (the f16 operands are extended to f32 and the result rounded back).
template <class T> T expected(int f, T x, T y) {
  // On the GPU, f64 results are compared with the host's long double functions, rounded once:
  // glibc's double functions are themselves a few ulps off in places (cbrt), which would count
  // against the GPU. The interpreter calls the double functions, and is checked against them.
  if constexpr (tk_test::on_gpu && std::is_same_v<T, double>)
    return double(reference<long double>(f, x, y));
  const double r = reference<double>(f, as_double(x), as_double(y));
  if constexpr (std::is_same_v<T, tk::half>)
    if (infos[f].through_f32)
      return tk::half(double(float(r)));
  return make<T>(r);
}

template <class T> void check_function(int f, std::mt19937_64 &gen) {
  const fn_info &info = infos[f];
  std::vector<T> x, y;
  for (auto [a, b] : special_cases(f)) {
    x.push_back(make<T>(a));
    y.push_back(make<T>(b));
  }
  std::uniform_real_distribution<double> dx(info.lo, info.hi), dy(info.lo2, info.hi2);
  std::uniform_int_distribution<int> sign(0, 1);
  while (x.size() < std::size_t(n)) {
    x.push_back(make<T>(dx(gen)));
    // Divisors of either sign.
    const double yv = dy(gen);
    y.push_back(make<T>(f >= f_fdiv && sign(gen) ? -yv : yv));
  }
  std::vector<T> out(x.size());
  tk_test::run(math_kernel, tk::grid(1), out, std::as_const(x), std::as_const(y),
               tk::constant<int>(f));
  std::vector<T> want(x.size());
  for (std::size_t k = 0; k < x.size(); ++k)
    want[k] = expected(f, x[k], y[k]);
  // f16: computed in f32 and rounded, or in f16 from the f32 bound: one more ulp of f16.
  const double bound = std::is_same_v<T, double>  ? info.ulps_f64
                       : std::is_same_v<T, float> ? info.ulps_f32
                                                  : 1;
  check_results(info.name, x, y, out, want, info.arity, bound + 1);
}

TEST_CASE("math: every function on f32, special values and random points",
          "[interpreter][numerics][math]") {
  TK_TEST_RANDOM(gen);
  for (int f = 0; f < f_count; ++f)
    check_function<float>(f, gen);
}

TEST_CASE("math: every function on f64", "[interpreter][numerics][math]") {
  TK_TEST_RANDOM(gen);
  for (int f = 0; f < f_count; ++f)
    check_function<double>(f, gen);
}

TEST_CASE("math: every function on f16 (libdevice calls through f32)",
          "[interpreter][numerics][math]") {
  TK_TEST_RANDOM(gen);
  for (int f = 0; f < f_count; ++f)
    check_function<tk::half>(f, gen);
}

TEST_CASE("math: round halves away from zero, rint to even, trunc toward zero",
          "[interpreter][numerics][math]") {
  const std::vector<float> x = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0.4f, -0.4f, -0.7f, 7.f};
  const std::vector<float> round = {1, 2, 3, -1, -2, -3, 0, -0.f, -1, 7};
  const std::vector<float> rint = {0, 2, 2, -0.f, -2, -2, 0, -0.f, -1, 7};
  const std::vector<float> trunc = {0, 1, 2, -0.f, -1, -2, 0, -0.f, -0.f, 7};
  std::vector<float> xs(x), ys(n, 1.f), out(n);
  xs.resize(n, 0.f);
  for (auto [f, want] : {std::pair{f_round, &round}, {f_rint, &rint}, {f_trunc, &trunc}}) {
    tk_test::run(math_kernel, tk::grid(1), out, std::as_const(xs), std::as_const(ys),
                 tk::constant<int>(f));
    for (std::size_t k = 0; k < x.size(); ++k) {
      INFO(infos[f].name << "(" << x[k] << ")");
      CHECK(out[k] == (*want)[k]);
      CHECK(std::signbit(out[k]) == std::signbit((*want)[k]));
    }
  }
}

TEST_CASE("math: pow of a negative base", "[interpreter][numerics][math]") {
  std::vector<float> x(n, 1.f), y(n, 1.f), out(n);
  const std::vector<std::pair<float, float>> cases = {{-2.f, 3.f},  {-2.f, 2.f}, {-2.f, -1.f},
                                                      {-2.f, 0.5f}, {-1.f, inf}, {-0.f, -1.f}};
  for (std::size_t k = 0; k < cases.size(); ++k)
    std::tie(x[k], y[k]) = cases[k];
  tk_test::run(math_kernel, tk::grid(1), out, std::as_const(x), std::as_const(y),
               tk::constant<int>(f_pow));
  CHECK(out[0] == -8.f);
  CHECK(out[1] == 4.f);
  CHECK(out[2] == -0.5f);
  CHECK(std::isnan(out[3])); // a non-integer power of a negative number
  CHECK(out[4] == 1.f);
  CHECK(out[5] == -inf); // -0 to a negative odd power
}

// ---------------------------------------------------------------------------------------------
// isnan, isinf, signbit: exact on every float type.

auto classify_kernel = tk::jit("classify", [](tk::ptr<std::int32_t> out, auto in) {
  auto offs = tk::arange(0, 16);
  auto x = tk::load(in + offs);
  tk::store(out + offs, tk::cast<std::int32_t>(tk::isnan(x)));
  tk::store(out + 16 + offs, tk::cast<std::int32_t>(tk::isinf(x)));
  tk::store(out + 32 + offs, tk::cast<std::int32_t>(tk::signbit(x)));
});

template <class T> void check_classify() {
  const double tiny = std::ldexp(1.0, std::is_same_v<T, tk::half> ? -24 : -126);
  const std::vector<double> values = {nan,  inf,   -inf,   0.0,  -0.0, 1.0,  -1.0,  -tiny,
                                      tiny, 65504, -65504, -2.5, 2.5,  1e-3, -1e-3, -nan};
  std::vector<T> in;
  for (double v : values)
    in.push_back(make<T>(v));
  std::vector<std::int32_t> out(48, -1);
  tk_test::run(classify_kernel, tk::grid(1), out, std::as_const(in));
  for (std::size_t k = 0; k < 16; ++k) {
    const double v = as_double(in[k]);
    INFO("element " << k << ": " << v);
    CHECK(out[k] == std::int32_t(std::isnan(v)));
    CHECK(out[16 + k] == std::int32_t(std::isinf(v)));
    CHECK(out[32 + k] == std::int32_t(std::signbit(v)));
  }
}

TEST_CASE("math: isnan, isinf and signbit on f32, f64, f16 and bf16",
          "[interpreter][numerics][math]") {
  check_classify<float>();
  check_classify<double>();
  check_classify<tk::half>();
  check_classify<tk::bfloat16>();
}

// ---------------------------------------------------------------------------------------------
// maximum, minimum and clamp with propagate_nan.

auto nan_minmax =
    tk::jit("nan_minmax", [](tk::ptr<float> out, tk::ptr<std::int32_t> iout, tk::ptr<const float> a,
                             tk::ptr<const float> b, tk::ptr<const std::int32_t> ia) {
      auto offs = tk::arange(0, 8);
      auto x = tk::load(a + offs);
      auto y = tk::load(b + offs);
      auto i = tk::load(ia + offs);
      tk::store(out + offs, tk::maximum(x, y, tk::propagate_nan::all));
      tk::store(out + 8 + offs, tk::minimum(x, y, tk::propagate_nan::all));
      tk::store(out + 16 + offs, tk::maximum(x, y, tk::propagate_nan::none));
      tk::store(out + 24 + offs, tk::minimum(x, y));
      tk::store(out + 32 + offs, tk::clamp(x, -1.0f, 1.0f, tk::propagate_nan::all));
      tk::store(out + 40 + offs, tk::clamp(x, -1.0f, 1.0f));
      tk::store(iout + offs, tk::maximum(i, 0, tk::propagate_nan::all));
      tk::store(iout + 8 + offs, tk::clamp(i, -2, 2, tk::propagate_nan::all));
    });

TEST_CASE("math: maximum, minimum and clamp with propagate_nan", "[interpreter][numerics][math]") {
  const float qnan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> a = {qnan, 1.f, qnan, 3.f, -0.f, 0.f, -5.f, 0.5f};
  const std::vector<float> b = {1.f, qnan, qnan, 2.f, 0.f, -0.f, 4.f, 0.25f};
  const std::vector<std::int32_t> ia = {-5, -1, 0, 1, 5, 7, -7, 2};
  std::vector<float> out(48);
  std::vector<std::int32_t> iout(16);
  tk_test::run(nan_minmax, tk::grid(1), out, iout, a, b, ia);
  auto is = [](float got, float want) {
    return std::isnan(want) ? std::isnan(got)
                            : got == want && std::signbit(got) == std::signbit(want);
  };
  const std::vector<float> max_all = {qnan, qnan, qnan, 3.f, 0.f, 0.f, 4.f, 0.5f};
  const std::vector<float> min_all = {qnan, qnan, qnan, 2.f, -0.f, -0.f, -5.f, 0.25f};
  const std::vector<float> max_none = {1.f, 1.f, qnan, 3.f, 0.f, 0.f, 4.f, 0.5f};
  const std::vector<float> min_none = {1.f, 1.f, qnan, 2.f, 0.f, 0.f, -5.f, 0.25f};
  const std::vector<float> clamp_all = {qnan, 1.f, qnan, 1.f, -0.f, 0.f, -1.f, 0.5f};
  const std::vector<float> clamp_none = {-1.f, 1.f, -1.f, 1.f, 0.f, 0.f, -1.f, 0.5f};
  for (std::size_t k = 0; k < 8; ++k) {
    INFO("lane " << k << ": a = " << a[k] << ", b = " << b[k]);
    CHECK(is(out[k], max_all[k]));
    CHECK(is(out[8 + k], min_all[k]));
    // NaN loses to a number; maxnum's choice between two zeros is either.
    CHECK((is(out[16 + k], max_none[k]) || (k == 4 || k == 5)));
    CHECK((is(out[24 + k], min_none[k]) || (k == 4 || k == 5)));
    CHECK(is(out[32 + k], clamp_all[k]));
    CHECK((is(out[40 + k], clamp_none[k]) || k == 4));
    CHECK(iout[k] == std::max(ia[k], 0));
    CHECK(iout[8 + k] == std::clamp(ia[k], -2, 2));
  }
}

// ---------------------------------------------------------------------------------------------
// Scalars, and softmax.

auto scalar_math = tk::jit("scalar_math", [](tk::ptr<float> out, tk::f32 s, tk::f64 d) {
  tk::store(out, tk::tanh(s));
  tk::store(out + 1, tk::pow(s, 3));
  tk::store(out + 2, tk::hypot(s, 4.0f));
  tk::store(out + 3, tk::cast<float>(tk::exp10(d)));
  tk::store(out + 4, tk::cast<float>(tk::signbit(-s)));
  tk::store(out + 5, tk::round(s + 0.5f));
});

TEST_CASE("math: the functions take scalars", "[interpreter][numerics][math]") {
  std::vector<float> out(6);
  tk_test::run(scalar_math, tk::grid(1), out, 3.0f, 2.0);
  const double tol = tk_test::on_gpu ? 1e-6 : 0;
  CHECK(out[0] == Approx(float(std::tanh(3.0))).epsilon(tol));
  CHECK(out[1] == Approx(27.0).epsilon(tol));
  CHECK(out[2] == Approx(5.0).epsilon(tol));
  CHECK(out[3] == Approx(100.0).epsilon(tol));
  CHECK(out[4] == 1.f);
  CHECK(out[5] == 4.f); // 3.5 rounds away from zero
}

auto softmax_kernel = tk::jit(
    "softmax_math", [](tk::ptr<float> out, tk::ptr<const float> in, tk::constant<int> MODE) {
      auto rows = tk::arange(0, 4)(tk::_, tk::newaxis);
      auto cols = tk::arange(0, 64)(tk::newaxis, tk::_);
      auto x = tk::load(in + rows * 64 + cols);
      if (MODE == 0) // along rows, keeping the axis; IEEE division
        tk::store(out + rows * 64 + cols, tk::softmax(x, 1, tk::keep_dims, true));
      else if (MODE == 1) // along columns (axis 0), Triton's default
        tk::store(out + rows * 64 + cols, tk::softmax(x));
      else { // one row, 1-D
        auto r = tk::load(in + tk::arange(0, 64));
        tk::store(out + tk::arange(0, 64), tk::softmax(r, -1, false));
      }
    });

TEST_CASE("math: softmax along either axis, as tl.softmax", "[interpreter][numerics][math]") {
  TK_TEST_RANDOM(gen);
  const auto in = tk_test::uniform(gen, 4 * 64, -10, 10);
  for (int mode : {0, 1, 2}) {
    CAPTURE(mode);
    std::vector<float> out(4 * 64, -1.f);
    tk_test::run(softmax_kernel, tk::grid(1), out, in, tk::constant<int>(mode));
    const int rows = mode == 2 ? 1 : 4;
    std::vector<double> want(4 * 64, -1.0);
    std::vector<float> got(out.begin(), out.begin() + rows * 64);
    // Lines: the 4 rows (mode 0, 2) or the 64 columns (mode 1).
    const int lines = mode == 1 ? 64 : rows, len = mode == 1 ? 4 : 64;
    for (int l = 0; l < lines; ++l) {
      auto at = [&](int k) { return std::size_t(mode == 1 ? k * 64 + l : l * 64 + k); };
      double m = -inf, s = 0;
      for (int k = 0; k < len; ++k)
        m = std::max(m, double(in[at(k)]));
      for (int k = 0; k < len; ++k)
        s += std::exp(double(in[at(k)]) - m);
      for (int k = 0; k < len; ++k)
        want[at(k)] = std::exp(double(in[at(k)]) - m) / s;
    }
    want.resize(got.size());
    // f32 exp, a tree sum of at most 64 terms and one division: a few ulps; on the GPU exp is
    // ex2.approx (up to 2 + 1.173 |x| ulps) and the division div.full (2 ulps).
    TK_CHECK_CLOSE(got, want, 1e-12, tk_test::on_gpu ? 1e-5 : 1e-6);
  }
}

TEST_CASE("math: softmax along a later axis without keep_dims is an error",
          "[interpreter][math][errors]") {
  auto k = tk::jit("softmax_axis", [](tk::ptr<float> out) {
    auto x = tk::zeros<float>({4, 8});
    tk::store(out + tk::arange(0, 8), tk::sum(tk::softmax(x, 1), 0));
  });
  std::vector<float> out(8);
  CHECK_THROWS_WITH(k.interpret(tk::grid(1), out),
                    Catch::Contains("tk::softmax: along axis 1 of a block of rank 2") &&
                        Catch::Contains("pass keep_dims"));
}

TEST_CASE("math: a device function the interpreter does not know is an error at its line",
          "[interpreter][math][errors]") {
  int line = 0;
  auto k = tk::jit("unknown_extern", [&line](tk::ptr<float> out) {
    auto offs = tk::arange(0, 16);
    auto x = tk::load(out + offs);
    line = __LINE__ + 1;
    auto y = tk::extern_elementwise<float>("__nv_j0f", std::tuple{x});
    tk::store(out + offs, y);
  });
  std::vector<float> out(16);
  tk_test::expect_error("interpreter_math.cpp", line,
                        "tk.extern_elementwise: the interpreter does not know the device "
                        "function `__nv_j0f`",
                        [&] { k.interpret(tk::grid(1), out); });
  // Traced, the call is recorded as it is: the GPU's library has it.
  CHECK(k.ir(out.data()).find("symbol = \"__nv_j0f\"") != std::string::npos);
}

} // namespace

/// @file interpreter_libdevice.cpp
/// tk::libdevice (Triton's tl.extra.cuda.libdevice) and tk::extern_elementwise: each libdevice
/// function on f32 and f64 (and f16, through f32) against the host's function written out here
/// again in long double, rounded to the element type: on the interpreter the same bits for f32
/// and f16 and within an ulp for f64 (it computes in double); on the GPU (tk_gpu_numerics) within
/// libdevice's documented error in ulps (the CUDA programming guide's tables) plus one, on ranges
/// away from the points where a relative error means nothing (zeros of lgamma and cospi).
/// tk::extern_elementwise on the interpreter: a host function for a library's symbol, integer
/// results, and the errors for a function it cannot run.
#include "expect_error.hpp"
#include "interpreter_support.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr long double pi = 3.141592653589793238462643383279502884L;

struct fn_case {
  const char *name;
  int arity;
  double lo, hi, lo2, hi2; // the operands' ranges
  double ulps_f32, ulps_f64;
  long double (*host)(long double, long double);
};

// clang-format off
const fn_case cases[] = {
    {"acos", 1, -0.99, 0.99, 0, 0, 2, 2, [](long double a, long double) { return std::acos(a); }},
    {"acosh", 1, 1.5, 100, 0, 0, 4, 3, [](long double a, long double) { return std::acosh(a); }},
    {"asin", 1, -0.99, 0.99, 0, 0, 2, 2, [](long double a, long double) { return std::asin(a); }},
    {"asinh", 1, -100, 100, 0, 0, 3, 3, [](long double a, long double) { return std::asinh(a); }},
    {"atan", 1, -100, 100, 0, 0, 2, 2, [](long double a, long double) { return std::atan(a); }},
    {"atanh", 1, -0.9, 0.9, 0, 0, 3, 2, [](long double a, long double) { return std::atanh(a); }},
    {"cbrt", 1, -1e6, 1e6, 0, 0, 1, 1, [](long double a, long double) { return std::cbrt(a); }},
    {"ceil", 1, -100, 100, 0, 0, 0, 0, [](long double a, long double) { return std::ceil(a); }},
    {"cos", 1, -10, 10, 0, 0, 2, 2, [](long double a, long double) { return std::cos(a); }},
    {"cosh", 1, -80, 80, 0, 0, 2, 2, [](long double a, long double) { return std::cosh(a); }},
    {"cospi", 1, -0.45, 0.45, 0, 0, 1, 2, [](long double a, long double) { return std::cos(pi * a); }},
    {"erf", 1, -4, 4, 0, 0, 2, 2, [](long double a, long double) { return std::erf(a); }},
    {"erfc", 1, -3, 9, 0, 0, 4, 5, [](long double a, long double) { return std::erfc(a); }},
    {"erfcx", 1, -2, 20, 0, 0, 4, 4, [](long double a, long double) { return std::exp(a * a) * std::erfc(a); }},
    {"exp", 1, -80, 80, 0, 0, 2, 1, [](long double a, long double) { return std::exp(a); }},
    {"exp10", 1, -30, 30, 0, 0, 2, 1, [](long double a, long double) { return std::pow(10.0L, a); }},
    {"exp2", 1, -120, 120, 0, 0, 2, 1, [](long double a, long double) { return std::exp2(a); }},
    {"expm1", 1, -10, 10, 0, 0, 1, 1, [](long double a, long double) { return std::expm1(a); }},
    {"fabs", 1, -100, 100, 0, 0, 0, 0, [](long double a, long double) { return std::fabs(a); }},
    {"floor", 1, -100, 100, 0, 0, 0, 0, [](long double a, long double) { return std::floor(a); }},
    {"lgamma", 1, 2.5, 20, 0, 0, 6, 4, [](long double a, long double) { return std::lgamma(a); }},
    {"log", 1, 0.01, 1000, 0, 0, 1, 1, [](long double a, long double) { return std::log(a); }},
    {"log10", 1, 0.01, 1000, 0, 0, 2, 1, [](long double a, long double) { return std::log10(a); }},
    {"log1p", 1, -0.5, 1000, 0, 0, 1, 1, [](long double a, long double) { return std::log1p(a); }},
    {"log2", 1, 0.01, 1000, 0, 0, 1, 1, [](long double a, long double) { return std::log2(a); }},
    {"logb", 1, 0.001, 1e6, 0, 0, 0, 0, [](long double a, long double) { return std::logb(a); }},
    {"nearbyint", 1, -100, 100, 0, 0, 0, 0, [](long double a, long double) { return std::nearbyint(a); }},
    {"normcdf", 1, -5, 5, 0, 0, 5, 5, [](long double a, long double) { return 0.5L * std::erfc(-a / std::sqrt(2.0L)); }},
    {"rcbrt", 1, -1e6, 1e6, 0, 0, 1, 1, [](long double a, long double) { return 1 / std::cbrt(a); }},
    {"rint", 1, -100, 100, 0, 0, 0, 0, [](long double a, long double) { return std::rint(a); }},
    {"round", 1, -100, 100, 0, 0, 0, 0, [](long double a, long double) { return std::round(a); }},
    {"rsqrt", 1, 0.001, 1e6, 0, 0, 2, 1, [](long double a, long double) { return 1 / std::sqrt(a); }},
    {"sin", 1, -10, 10, 0, 0, 2, 2, [](long double a, long double) { return std::sin(a); }},
    {"sinh", 1, -80, 80, 0, 0, 3, 2, [](long double a, long double) { return std::sinh(a); }},
    {"sinpi", 1, -0.9, 0.9, 0, 0, 1, 2, [](long double a, long double) { return std::sin(pi * a); }},
    {"sqrt", 1, 0.001, 1e6, 0, 0, 0, 0, [](long double a, long double) { return std::sqrt(a); }},
    {"tan", 1, -1.5, 1.5, 0, 0, 4, 2, [](long double a, long double) { return std::tan(a); }},
    {"tanh", 1, -10, 10, 0, 0, 2, 2, [](long double a, long double) { return std::tanh(a); }},
    {"tgamma", 1, 0.5, 10, 0, 0, 5, 10, [](long double a, long double) { return std::tgamma(a); }},
    {"trunc", 1, -100, 100, 0, 0, 0, 0, [](long double a, long double) { return std::trunc(a); }},
    {"atan2", 2, -10, 10, -10, 10, 3, 2, [](long double a, long double b) { return std::atan2(a, b); }},
    {"copysign", 2, -10, 10, -10, 10, 0, 0, [](long double a, long double b) { return std::copysign(a, b); }},
    {"fdim", 2, -10, 10, -10, 10, 0, 0, [](long double a, long double b) { return std::fdim(a, b); }},
    {"fmax", 2, -10, 10, -10, 10, 0, 0, [](long double a, long double b) { return std::fmax(a, b); }},
    {"fmin", 2, -10, 10, -10, 10, 0, 0, [](long double a, long double b) { return std::fmin(a, b); }},
    {"fmod", 2, -100, 100, 0.5, 10, 0, 0, [](long double a, long double b) { return std::fmod(a, b); }},
    {"hypot", 2, -100, 100, -100, 100, 3, 2, [](long double a, long double b) { return std::hypot(a, b); }},
    {"pow", 2, 0.1, 10, -5, 5, 4, 2, [](long double a, long double b) { return std::pow(a, b); }},
    {"remainder", 2, -100, 100, 0.5, 10, 0, 0, [](long double a, long double b) { return std::remainder(a, b); }},
    {"rhypot", 2, -100, 100, -100, 100, 2, 1, [](long double a, long double b) { return 1 / std::hypot(a, b); }},
};
// clang-format on
constexpr int case_count = int(std::size(cases));

/// tk::libdevice::<cases[f].name> of x (and y).
template <class X> auto apply(int f, const X &x, const X &y) {
  namespace ld = tk::libdevice;
  const std::string_view name = cases[f].name;
#define TK_TEST_UNARY(NAME, HOST)                                                                  \
  if (name == #NAME)                                                                               \
    return ld::NAME(x);
#define TK_TEST_BINARY(NAME, HOST)                                                                 \
  if (name == #NAME)                                                                               \
    return ld::NAME(x, y);
  TK_DETAIL_LIBDEVICE_UNARY(TK_TEST_UNARY)
  TK_DETAIL_LIBDEVICE_BINARY(TK_TEST_BINARY)
#undef TK_TEST_UNARY
#undef TK_TEST_BINARY
  throw std::logic_error("no tk::libdevice function " + std::string(name));
}

constexpr int n = 256;

auto libdevice_kernel = tk::jit("libdevice_fn", [](auto out, auto a, auto b, tk::constant<int> FN) {
  auto offs = tk::arange(0, n);
  tk::store(out + offs, apply(int(FN), tk::load(a + offs), tk::load(b + offs)));
});

template <class T> double as_double(T x) { return double(float(x)); }
template <> double as_double(double x) { return x; }

/// Ulps between two values of T, through their ordered bits (0 for two NaNs).
template <class T> double ulps_between(T got, T want) {
  const double g = as_double(got), w = as_double(want);
  if (std::isnan(g) || std::isnan(w))
    return std::isnan(g) && std::isnan(w) ? 0 : 1e300;
  auto ordered = [](double v) {
    if constexpr (std::is_same_v<T, double>) {
      const auto bits = std::bit_cast<std::int64_t>(v);
      return bits < 0 ? std::numeric_limits<std::int64_t>::min() - bits : bits;
    } else {
      const auto bits = std::int64_t(std::bit_cast<std::int32_t>(float(v)));
      return bits < 0 ? std::int64_t(std::numeric_limits<std::int32_t>::min()) - bits : bits;
    }
  };
  const std::int64_t a = ordered(g), b = ordered(w);
  return double(a > b ? std::uint64_t(a) - std::uint64_t(b) : std::uint64_t(b) - std::uint64_t(a));
}

template <class T> void check_function(int f, std::mt19937_64 &gen) {
  const fn_case &c = cases[f];
  std::uniform_real_distribution<double> dx(c.lo, c.hi), dy(c.lo2, c.hi2);
  std::vector<T> x(n), y(n), out(n);
  for (int k = 0; k < n; ++k)
    x[std::size_t(k)] = T(dx(gen)), y[std::size_t(k)] = T(c.arity == 2 ? dy(gen) : 0.0);
  tk_test::run(libdevice_kernel, tk::grid(1), out, std::as_const(x), std::as_const(y),
               tk::constant<int>(f));
  // f16 goes through f32: the f32 result rounded again.
  const double bound = std::is_same_v<T, double>  ? c.ulps_f64 + 1
                       : std::is_same_v<T, float> ? c.ulps_f32 + 1
                                                  : 1;
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t k = 0; k < std::size_t(n); ++k) {
    // Through double, as the interpreter rounds its results (f16 through f32 too).
    const double r = double(c.host(as_double(x[k]), as_double(y[k])));
    const T want = std::is_same_v<T, tk::half> ? T(float(r)) : T(r);
    const double d = ulps_between(out[k], want);
    // The interpreter computes in double (a few functions in long double): within an ulp of the
    // long double reference on f64, the same bits once rounded to f32 or f16.
    const double allowed = tk_test::on_gpu ? bound : std::is_same_v<T, double> ? 1 : 0;
    if (d > allowed && bad++ < 3)
      first << "\n  " << c.name << "(" << as_double(x[k]) << ", " << as_double(y[k])
            << ") = " << as_double(out[k]) << ", want " << as_double(want) << " (" << d << " ulps)";
  }
  INFO(c.name << ": " << bad << " of " << n << " results outside the bound" << first.str());
  CHECK(bad == 0);
}

} // namespace

TEST_CASE("libdevice: every function on f32", "[interpreter][numerics][libdevice]") {
  TK_TEST_RANDOM(gen);
  for (int f = 0; f < case_count; ++f)
    check_function<float>(f, gen);
}

TEST_CASE("libdevice: every function on f64", "[interpreter][numerics][libdevice]") {
  TK_TEST_RANDOM(gen);
  for (int f = 0; f < case_count; ++f)
    check_function<double>(f, gen);
}

TEST_CASE("libdevice: f16 through f32", "[interpreter][numerics][libdevice]") {
  TK_TEST_RANDOM(gen);
  for (const char *name : {"asin", "erfcx", "pow", "sinpi"})
    for (int f = 0; f < case_count; ++f)
      if (std::string_view(cases[f].name) == name)
        check_function<tk::half>(f, gen);
}

#if !TK_TEST_ON_GPU
TEST_CASE("extern_elementwise: a library's function through its host function",
          "[interpreter][extern]") {
  std::vector<float> x = {-1.f, 0.25f, 0.5f, 2.f}, y(4);
  std::vector<std::int32_t> bits(4);
  auto k = tk::jit("ext", [](tk::ptr<float> y, tk::ptr<std::int32_t> bits, tk::ptr<const float> x) {
    auto offs = tk::arange(0, 4);
    auto v = tk::load(x + offs);
    auto cube = [](std::span<const double> a) { return a[0] * a[0] * a[0] + a[1]; };
    tk::store(y + offs, tk::extern_elementwise<float>("cube_plus", std::tuple{v, 1.0f},
                                                      {.library = "cube.bc", .host = cube}));
    // An integer result: the host's value toward zero.
    auto scaled = [](std::span<const double> a) { return a[0] * 10; };
    tk::store(bits + offs, tk::extern_elementwise<std::int32_t>(
                               "scaled", std::tuple{v}, {.library = "cube.bc", .host = scaled}));
  });
  k.interpret(tk::grid(1), y, bits, std::as_const(x));
  CHECK(y == std::vector<float>{0.f, 1.015625f, 1.125f, 9.f});
  CHECK(bits == std::vector<std::int32_t>{-10, 2, 5, 20});
}

TEST_CASE("extern_elementwise: the IR names the symbol and the library, escaped", "[ir][extern]") {
  auto k = tk::jit("ext_ir", [](tk::ptr<float> y) {
    auto v = tk::load(y + tk::arange(0, 4));
    tk::store(y + tk::arange(0, 4),
              tk::extern_elementwise<float>("f", std::tuple{v},
                                            {.library = "dir \"q\"/lib.bc", .is_pure = false}));
  });
  const std::string ir = k.ir(static_cast<float *>(nullptr));
  INFO(ir);
  CHECK(ir.find(R"(<{library = "dir \"q\"/lib.bc", pure = false, symbol = "f"}>)") !=
        std::string::npos);
}

TEST_CASE("extern_elementwise: a library's function without a host function on the interpreter",
          "[interpreter][extern][errors]") {
  std::vector<float> y(4);
  static int line = 0;
  auto k = tk::jit("no_host", [](tk::ptr<float> y) {
    auto v = tk::load(y + tk::arange(0, 4));
    line = __LINE__ + 1;
    auto r = tk::extern_elementwise<float>("mine", std::tuple{v}, {.library = "mine.bc"});
    tk::store(y + tk::arange(0, 4), r);
  });
  tk_test::expect_error("interpreter_libdevice.cpp", line,
                        "tk::extern_elementwise: `mine` of mine.bc has no host function, so the "
                        "interpreter cannot run it; give one in extern_options::host, or run the "
                        "kernel on the GPU",
                        [&] { k.interpret(tk::grid(1), y); });
}

TEST_CASE("extern_elementwise: a symbol the interpreter does not know",
          "[interpreter][extern][errors]") {
  std::vector<float> y(4);
  static int line = 0;
  auto k = tk::jit("unknown", [](tk::ptr<float> y) {
    auto v = tk::load(y + tk::arange(0, 4));
    line = __LINE__ + 1;
    auto r = tk::extern_elementwise<float>("__nv_j0f", std::tuple{v});
    tk::store(y + tk::arange(0, 4), r);
  });
  tk_test::expect_error("interpreter_libdevice.cpp", line,
                        "the interpreter does not know the device function `__nv_j0f`; give a "
                        "host function in extern_options::host, or run the kernel on the GPU",
                        [&] { k.interpret(tk::grid(1), y); });
}
#endif

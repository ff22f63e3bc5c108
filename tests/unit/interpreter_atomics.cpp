/// @file interpreter_atomics.cpp
/// Interpreter numerics of the atomics (tk::atomic_add, _max, _min, _and, _or, _xor, _xchg,
/// _cas): every operation on every type it takes, against host references, with the old values
/// returned; masks; scalar pointers; many lanes and programs on a few addresses (a histogram);
/// fmax and fmin on negative values, signed zeros and NaNs, bit for bit; f16 and bf16 sums
/// rounded at each addition; a spin lock made of atomic_cas and atomic_xchg in tk::while_.
/// Built with TK_TEST_ON_GPU (tk_gpu_numerics) the kernels run on the GPU, where only what does
/// not depend on the order of the lanes is checked (the old values of lanes that share an
/// address are checked on the interpreter, which runs them in row-major order).
#include "interpreter_support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace {

constexpr int BLOCK = 64;

template <class T> std::uint64_t bits_of(T x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof x);
  return b;
}

template <class T> T zero() {
  if constexpr (std::is_integral_v<T>)
    return T(0);
  else
    return T(0.0f);
}

template <class T> std::string show(T x) {
  if constexpr (std::is_integral_v<T>)
    return std::to_string(x);
  else
    return std::to_string(double(x)) + " (bits 0x" + [&] {
      char s[32];
      std::snprintf(s, sizeof s, "%llx", static_cast<unsigned long long>(bits_of(x)));
      return std::string(s);
    }() + ")";
}

/// Requires `got` and `want` to hold the same bit patterns, reporting the first difference.
template <class T>
void check_bits(const char *what, const std::vector<T> &got, const std::vector<T> &want) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0, first = 0;
  for (std::size_t k = 0; k < got.size(); ++k)
    if (bits_of(got[k]) != bits_of(want[k]) && bad++ == 0)
      first = k;
  INFO(what << ": " << bad << " element(s) differ"
            << (bad ? ", first [" + std::to_string(first) + "]: got " + show(got[first]) +
                          ", want " + show(want[first])
                    : std::string()));
  CHECK(bad == 0);
}

/// A kernel that applies `op` (an atomic) once per lane through distinct addresses:
/// old[i] = op(target + i, val[i]).
template <class Op> auto per_lane(const char *name, Op op) {
  return tk::jit(name, [op](auto target, auto old, auto val, tk::constant<int> B) {
    auto offs = tk::program_id(0) * B + tk::arange(0, B);
    auto v = tk::load(val + offs);
    tk::store(old + offs, op(target + offs, v));
  });
}

auto add_each = per_lane("add_each", [](auto p, auto v) { return tk::atomic_add(p, v); });
auto max_each = per_lane("max_each", [](auto p, auto v) { return tk::atomic_max(p, v); });
auto min_each = per_lane("min_each", [](auto p, auto v) { return tk::atomic_min(p, v); });
auto and_each = per_lane("and_each", [](auto p, auto v) { return tk::atomic_and(p, v); });
auto or_each = per_lane("or_each", [](auto p, auto v) { return tk::atomic_or(p, v); });
auto xor_each = per_lane("xor_each", [](auto p, auto v) {
  return tk::atomic_xor(p, v, tk::sem::relaxed, tk::scope::gpu);
});
auto xchg_each = per_lane("xchg_each", [](auto p, auto v) {
  return tk::atomic_xchg(p, v, tk::sem::release, tk::scope::cta);
});

/// Runs `k` over `target` and `val` (one lane per element, BLOCK per program) and checks the
/// memory and the old values against `ref(old, val)`, bit for bit.
template <class T, class K, class Ref>
void check_per_lane(const char *what, const K &k, std::vector<T> target, const std::vector<T> &val,
                    Ref ref) {
  REQUIRE(target.size() % BLOCK == 0);
  std::vector<T> want = target, want_old = target, old(target.size(), zero<T>());
  for (std::size_t i = 0; i < target.size(); ++i)
    want[i] = ref(target[i], val[i]);
  tk_test::run(k, tk::grid(int(target.size() / BLOCK)), target, old, std::as_const(val),
               tk::constant<int>(BLOCK));
  check_bits((std::string(what) + ", memory").c_str(), target, want);
  check_bits((std::string(what) + ", old values").c_str(), old, want_old);
}

/// Integers of every size in T's range, extremes included (so that sums wrap).
template <class T> std::vector<T> some_integers(std::mt19937_64 &gen, std::size_t n) {
  std::vector<T> v(n);
  for (auto &x : v)
    x = T(gen());
  const T special[] = {T(0),
                       T(1),
                       T(-1),
                       std::numeric_limits<T>::max(),
                       std::numeric_limits<T>::min(),
                       T(std::numeric_limits<T>::max() - 1)};
  for (std::size_t k = 0; k < n && k < 6 * 6; ++k) // every pair of specials at the start
    v[k] = special[k % 6];
  for (std::size_t k = 0; k < n; k += 7) // and small values, whose order matters for max/min
    v[k] = T(int(gen() % 7) - 3);
  return v;
}

template <class T> std::vector<T> some_integers_paired(std::mt19937_64 &gen, std::size_t n) {
  auto v = some_integers<T>(gen, n);
  const T special[] = {T(0),
                       T(1),
                       T(-1),
                       std::numeric_limits<T>::max(),
                       std::numeric_limits<T>::min(),
                       T(std::numeric_limits<T>::max() - 1)};
  for (std::size_t k = 0; k < n && k < 6 * 6; ++k)
    v[k] = special[k / 6];
  return v;
}

template <class T> void integer_ops(std::mt19937_64 &gen, const char *type) {
  using U = std::make_unsigned_t<T>;
  const std::size_t n = 4 * BLOCK;
  const auto target = some_integers<T>(gen, n), val = some_integers_paired<T>(gen, n);
  const std::string t = type;
  check_per_lane((t + " atomic_add").c_str(), add_each, target, val,
                 [](T a, T b) { return T(U(a) + U(b)); });
  check_per_lane((t + " atomic_max").c_str(), max_each, target, val,
                 [](T a, T b) { return std::max(a, b); });
  check_per_lane((t + " atomic_min").c_str(), min_each, target, val,
                 [](T a, T b) { return std::min(a, b); });
  check_per_lane((t + " atomic_and").c_str(), and_each, target, val,
                 [](T a, T b) { return T(a & b); });
  check_per_lane((t + " atomic_or").c_str(), or_each, target, val,
                 [](T a, T b) { return T(a | b); });
  check_per_lane((t + " atomic_xor").c_str(), xor_each, target, val,
                 [](T a, T b) { return T(a ^ b); });
  check_per_lane((t + " atomic_xchg").c_str(), xchg_each, target, val, [](T, T b) { return b; });
}

TEST_CASE("interpreter: every integer atomic on i32, u32, i64 and u64, with the old values",
          "[interpreter][numerics][atomics]") {
  TK_TEST_RANDOM(gen);
  integer_ops<std::int32_t>(gen, "i32");
  integer_ops<std::uint32_t>(gen, "u32");
  integer_ops<std::int64_t>(gen, "i64");
  integer_ops<std::uint64_t>(gen, "u64");
}

/// The IR kind each C++ type selects: signed max/min for signed types, unsigned ones for unsigned
/// types (-1 is the largest u32), float ones for floats.
TEST_CASE("interpreter: atomic_max and atomic_min compare as the pointee type",
          "[interpreter][numerics][atomics]") {
  std::vector<std::int32_t> s = {-1, 1, -5, 7};
  std::vector<std::uint32_t> u = {0xFFFFFFFFu, 1, 0xFFFFFFFBu, 7};
  auto k = tk::jit("signedness", [](tk::ptr<std::int32_t> s, tk::ptr<std::uint32_t> u) {
    auto offs = tk::arange(0, 2);
    auto two = tk::full<std::int32_t>({2}, 2);
    static_assert(
        std::is_same_v<decltype(tk::atomic_max(s + offs, two)), tk::block<std::int32_t, 1>>);
    static_assert(
        std::is_same_v<decltype(tk::atomic_max(u + offs, two)), tk::block<std::uint32_t, 1>>);
    tk::atomic_max(s + offs, two);
    tk::atomic_max(u + offs, two);
    tk::atomic_min(s + 2 + offs, two);
    tk::atomic_min(u + 2 + offs, two);
  });
  tk_test::run(k, tk::grid(1), s, u);
  CHECK(s == std::vector<std::int32_t>{2, 2, -5, 2});
  CHECK(u == std::vector<std::uint32_t>{0xFFFFFFFFu, 2, 2, 2});
  const std::string ir = k.ir(s.data(), u.data());
  CHECK(ir.find("kind = \"max\"") != std::string::npos);
  CHECK(ir.find("kind = \"umax\"") != std::string::npos);
  CHECK(ir.find("kind = \"min\"") != std::string::npos);
  CHECK(ir.find("kind = \"umin\"") != std::string::npos);
}

template <class T> std::vector<T> some_floats(std::mt19937_64 &gen, std::size_t n, double scale) {
  auto v = tk_test::uniform<T>(gen, n, -scale, scale);
  v[0] = T(0.0f);
  v[1] = T(-0.0f);
  return v;
}

template <class T> void float_ops(std::mt19937_64 &gen, const char *type) {
  const std::size_t n = 2 * BLOCK;
  const auto target = some_floats<T>(gen, n, 100), val = some_floats<T>(gen, n, 3);
  const std::string t = type;
  check_per_lane((t + " atomic_add").c_str(), add_each, target, val, [](T a, T b) {
    // The exact sum, rounded once to T (double holds the sum of two f32 exactly enough: twice
    // f32's precision and two bits).
    if constexpr (std::is_same_v<T, double>)
      return a + b;
    else
      return T(double(a) + double(b));
  });
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    check_per_lane((t + " atomic_xchg").c_str(), xchg_each, target, val, [](T, T b) { return b; });
    check_per_lane((t + " atomic_max").c_str(), max_each, target, val,
                   [](T a, T b) { return a >= b ? a : b; });
    check_per_lane((t + " atomic_min").c_str(), min_each, target, val,
                   [](T a, T b) { return a <= b ? a : b; });
  }
}

TEST_CASE(
    "interpreter: float atomics: add on f16, bf16, f32 and f64, xchg, max and min on f32 and f64",
    "[interpreter][numerics][atomics]") {
  TK_TEST_RANDOM(gen);
  float_ops<tk::half>(gen, "f16");
  float_ops<tk::bfloat16>(gen, "bf16");
  float_ops<float>(gen, "f32");
  float_ops<double>(gen, "f64");
}

/// IEEE 754 totalOrder as an unsigned key: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
template <class T> std::uint64_t total_order_key(T x) {
  const std::uint64_t b = bits_of(x);
  const std::uint64_t sign = std::uint64_t(1) << (8 * sizeof(T) - 1);
  const std::uint64_t all = sizeof(T) == 8 ? ~std::uint64_t(0) : (sign << 1) - 1;
  return b & sign ? ~b & all : b | sign;
}

template <class T> void fmax_fmin(const char *type) {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const T tiny = std::numeric_limits<T>::denorm_min(), big = std::numeric_limits<T>::max();
  const T values[] = {-inf, T(-3.5), T(-1), -tiny, T(-0.0), T(0.0), tiny,
                      T(1), T(2.5),  inf,   big,   -big,    nan,    -nan};
  std::vector<T> target, val;
  for (T a : values)
    for (T b : values)
      target.push_back(a), val.push_back(b);
  while (target.size() % BLOCK)
    target.push_back(T(7)), val.push_back(T(-7));
  const std::string t = type;
  check_per_lane((t + " atomic_max").c_str(), max_each, target, val,
                 [](T a, T b) { return total_order_key(a) >= total_order_key(b) ? a : b; });
  check_per_lane((t + " atomic_min").c_str(), min_each, target, val,
                 [](T a, T b) { return total_order_key(a) <= total_order_key(b) ? a : b; });
}

TEST_CASE("interpreter: f32 and f64 atomic_max and atomic_min order negative values, signed "
          "zeros, infinities and NaNs by their bits",
          "[interpreter][numerics][atomics]") {
  fmax_fmin<float>("f32");
  fmax_fmin<double>("f64");
  // The cases the rule is for: max(+0, -0) = +0 and min = -0, in either order; a NaN with its
  // sign bit clear wins a max and loses a min, one with the sign bit set the other way around.
  std::vector<float> x = {0.0f, -0.0f, 0.0f, -0.0f, 1.0f, 1.0f, 1.0f, 1.0f};
  std::vector<float> y = x;
  auto k = tk::jit("zeros_nans", [](tk::ptr<float> x, tk::ptr<float> y) {
    auto i = tk::arange(0, 2);
    auto signed_zero = tk::where(i == 0, -0.0f, 0.0f); // [-0, +0]
    tk::atomic_max(x + i, signed_zero);                // against [+0, -0]
    tk::atomic_min(y + i, signed_zero);
    auto patterns = tk::where(i == 0, 0x7FC00000, 0xFFC00000);
    auto nans = tk::bitcast<float>(patterns); // [+NaN, -NaN]
    tk::atomic_max(x + 4 + 2 * i, nans);      // against 1
    tk::atomic_min(y + 4 + 2 * i, nans);
  });
  tk_test::run(k, tk::grid(1), x, y);
  CHECK(bits_of(x[0]) == bits_of(0.0f));
  CHECK(bits_of(x[1]) == bits_of(0.0f));
  CHECK(bits_of(y[0]) == bits_of(-0.0f));
  CHECK(bits_of(y[1]) == bits_of(-0.0f));
  CHECK((std::isnan(x[4]) && !std::signbit(x[4]))); // +NaN wins a max
  CHECK(x[6] == 1.0f);                              // -NaN loses a max
  CHECK(y[4] == 1.0f);                              // +NaN loses a min
  CHECK((std::isnan(y[6]) && std::signbit(y[6])));  // -NaN wins a min
}

/// f16 and bf16 sums are rounded at each addition: four lanes add 1 to 2048 (f16) or 256 (bf16),
/// where the spacing is 2, and each sum ties back to the even value. Their sum added at once would
/// give 2052 (260). The order of the lanes does not matter here, so the GPU agrees.
TEST_CASE("interpreter: f16 and bf16 atomic_add rounds each addition",
          "[interpreter][numerics][atomics]") {
  std::vector<tk::half> h = {tk::half(2048.0f), tk::half(1.0f), tk::half(2048.0f)};
  std::vector<tk::bfloat16> b = {tk::bfloat16(256.0f), tk::bfloat16(1.0f), tk::bfloat16(256.0f)};
  auto k = tk::jit("round_each", [](auto target) {
    auto four = tk::zeros<std::int32_t>({4});
    tk::atomic_add(target + four, 1.0f);                 // 2048 + 1 + 1 + 1 + 1
    tk::atomic_add(target + 1 + four, 0.000244140625f);  // 2^-12: under half the spacing at 1
    tk::atomic_add(target + 2 + tk::arange(0, 1), 3.0f); // 2048 + 3 = 2051 -> 2052
  });
  tk_test::run(k, tk::grid(1), h);
  tk_test::run(k, tk::grid(1), b);
  CHECK(float(h[0]) == 2048.0f);
  CHECK(float(h[1]) == 1.0f);
  CHECK(float(h[2]) == 2052.0f);
  CHECK(float(b[0]) == 256.0f);
  CHECK(float(b[1]) == 1.0f);
  CHECK(float(b[2]) == 260.0f);
}

/// Compare-and-swap per lane: even lanes compare with what is there, odd lanes with something
/// else; f32 and f64 compare bits (-0 is not +0, a NaN equals its own pattern).
template <class T> void cas_type(std::mt19937_64 &gen, const char *type) {
  auto k = tk::jit("cas_each", [](auto target, auto old, auto cmp, auto val) {
    auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
    auto c = tk::load(cmp + offs);
    auto v = tk::load(val + offs);
    tk::store(old + offs, tk::atomic_cas(target + offs, c, v));
  });
  const std::size_t n = 2 * BLOCK;
  std::vector<T> target(n), cmp(n), val(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_integral_v<T>) {
      target[i] = T(gen());
      val[i] = T(gen());
    } else {
      target[i] = T(double(std::int64_t(gen() % 2001) - 1000) / 8);
      val[i] = T(double(std::int64_t(gen() % 2001) - 1000) / 8);
    }
    cmp[i] = i % 2 ? T(target[i] + T(1)) : target[i];
  }
  if constexpr (!std::is_integral_v<T>) {
    target[2] = T(-0.0), cmp[2] = T(0.0); // equal values, other bits: no swap
    target[4] = std::numeric_limits<T>::quiet_NaN(), cmp[4] = target[4]; // same bits: swap
  }
  std::vector<T> want = target, want_old = target, old(n, T(0));
  for (std::size_t i = 0; i < n; ++i)
    if (bits_of(target[i]) == bits_of(cmp[i]))
      want[i] = val[i];
  tk_test::run(k, tk::grid(int(n / BLOCK)), target, old, std::as_const(cmp), std::as_const(val));
  const std::string t = std::string(type) + " atomic_cas";
  check_bits((t + ", memory").c_str(), target, want);
  check_bits((t + ", old values").c_str(), old, want_old);
}

TEST_CASE("interpreter: atomic_cas on i32, u32, i64, u64, f32 and f64",
          "[interpreter][numerics][atomics]") {
  TK_TEST_RANDOM(gen);
  cas_type<std::int32_t>(gen, "i32");
  cas_type<std::uint32_t>(gen, "u32");
  cas_type<std::int64_t>(gen, "i64");
  cas_type<std::uint64_t>(gen, "u64");
  cas_type<float>(gen, "f32");
  cas_type<double>(gen, "f64");
}

/// Masked-off lanes touch nothing and return 0; the value and the mask broadcast to the
/// pointers (a scalar value, a row mask for a 2-D block).
TEST_CASE("interpreter: masked atomics touch only the active lanes and return 0 elsewhere",
          "[interpreter][numerics][atomics]") {
  auto k = tk::jit("masked", [](tk::ptr<std::int32_t> target, tk::ptr<std::int32_t> old,
                                tk::ptr<float> f, tk::ptr<float> f_old, tk::i32 n) {
    auto offs = tk::arange(0, 16);
    tk::store(old + offs, tk::atomic_xchg(target + offs, 100 + offs, offs < n));
    auto rows = tk::arange(0, 4)(tk::_, tk::newaxis), cols = tk::arange(0, 4)(tk::newaxis, tk::_);
    auto row_mask = cols < 2; // [1, 4]: broadcast to the [4, 4] pointers
    auto o = tk::atomic_add(f + rows * 4 + cols, 0.5f, row_mask, tk::scope::sys);
    tk::store(f_old + rows * 4 + cols, o);
  });
  std::vector<std::int32_t> target(16, 7), old(16, -1);
  std::vector<float> f(16, 1.0f), f_old(16, -1.0f);
  tk_test::run(k, tk::grid(1), target, old, f, f_old, 5);
  for (int i = 0; i < 16; ++i) {
    CAPTURE(i);
    CHECK(target[std::size_t(i)] == (i < 5 ? 100 + i : 7));
    CHECK(old[std::size_t(i)] == (i < 5 ? 7 : 0));
    CHECK(f[std::size_t(i)] == (i % 4 < 2 ? 1.5f : 1.0f));
    CHECK(f_old[std::size_t(i)] == (i % 4 < 2 ? 1.0f : 0.0f));
  }
}

/// A histogram: every program adds 1 to the bins of BLOCK keys, many lanes of one block on the
/// same bin, in i32 and in f32 bins (exact: the counts are small integers). On the interpreter
/// the lanes run in row-major order and the programs one after another, so the old values count
/// the earlier occurrences of the key.
template <class Bin>
auto histogram = tk::jit("histogram", [](tk::ptr<Bin> bins, tk::ptr<std::int32_t> old,
                                         tk::ptr<const std::int32_t> keys, tk::i32 n) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offs < n;
  auto key = tk::load(keys + offs, mask);
  auto before = tk::atomic_add(bins + key, 1, mask);
  tk::store(old + offs, tk::cast<std::int32_t>(before), mask);
});

template <class Bin> void histogram_case(std::mt19937_64 &gen, int n, int nbins) {
  CAPTURE(n, nbins);
  const auto keys = tk_test::integers<std::int32_t>(gen, std::size_t(n), 0, nbins - 1);
  std::vector<Bin> bins(std::size_t(nbins), Bin(3));
  std::vector<std::int32_t> old(std::size_t(n), -1);
  tk_test::run(histogram<Bin>, tk::grid(tk::cdiv(n, BLOCK)), bins, old, std::as_const(keys), n);
  std::vector<Bin> want(std::size_t(nbins), Bin(3));
  std::vector<std::int32_t> want_old(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < keys.size(); ++i)
    want_old[i] = std::int32_t(want[std::size_t(keys[i])]++);
  TK_CHECK_EQUAL(bins, want);
  if constexpr (!tk_test::on_gpu) {
    TK_CHECK_EQUAL(old, want_old);
  } else { // each key's old values are 3, 4, ... in some order
    for (int b = 0; b < nbins; ++b) {
      std::vector<std::int32_t> seen, expected;
      for (std::size_t i = 0; i < keys.size(); ++i)
        if (keys[i] == b)
          seen.push_back(old[i]), expected.push_back(want_old[i]);
      std::sort(seen.begin(), seen.end());
      CHECK(seen == expected);
    }
  }
}

TEST_CASE("interpreter: a histogram: many lanes and programs add to a few bins",
          "[interpreter][numerics][atomics]") {
  TK_TEST_RANDOM(gen);
  histogram_case<std::int32_t>(gen, 1000, 5);
  histogram_case<std::int32_t>(gen, 64, 1);
  histogram_case<float>(gen, 777, 3);
  histogram_case<std::uint64_t>(gen, 300, 7);
}

/// Scalar pointers: each program takes a ticket from one counter (the old value) and folds its
/// block's maximum into one f32 with atomic_max.
TEST_CASE("interpreter: atomics through scalar pointers", "[interpreter][numerics][atomics]") {
  TK_TEST_RANDOM(gen);
  auto k = tk::jit("tickets", [](tk::ptr<std::int32_t> counter, tk::ptr<std::int32_t> tickets,
                                 tk::ptr<float> best, tk::ptr<const float> x) {
    auto pid = tk::program_id(0);
    auto ticket = tk::atomic_add(counter, 1);
    static_assert(std::is_same_v<decltype(ticket), tk::i32>);
    tk::store(tickets + pid, ticket);
    auto m = tk::max(tk::load(x + pid * BLOCK + tk::arange(0, BLOCK)));
    tk::atomic_max(best, m, tk::sem::relaxed);
  });
  const int programs = 37;
  const auto x = tk_test::uniform(gen, std::size_t(programs) * BLOCK, -10, -1);
  std::vector<std::int32_t> counter = {5}, tickets(programs, -1);
  std::vector<float> best = {-100.0f};
  tk_test::run(k, tk::grid(programs), counter, tickets, best, std::as_const(x));
  CHECK(counter[0] == 5 + programs);
  CHECK(best[0] == *std::max_element(x.begin(), x.end()));
  std::vector<std::int32_t> want(programs);
  std::iota(want.begin(), want.end(), 5);
  if constexpr (tk_test::on_gpu)
    std::sort(tickets.begin(), tickets.end());
  CHECK(tickets == want); // on the interpreter, program p takes ticket 5 + p
}

/// A spin lock: each program takes the lock with atomic_cas in a tk::while_ loop, increments a
/// counter with a plain load and store (not atomic), records its turn and releases the lock with
/// atomic_xchg. The count is exact only if the lock excludes the others.
auto locked_increment =
    tk::jit("locked_increment", [](tk::ptr<std::int32_t> lock, tk::ptr<std::int32_t> count,
                                   tk::ptr<std::int32_t> turns) {
      tk::while_([&] { return tk::atomic_cas(lock, 0, 1) == 1; }, [] {});
      auto c = tk::load(count);
      tk::store(turns + c, tk::program_id(0));
      tk::store(count, c + 1);
      tk::atomic_xchg(lock, 0);
    });

TEST_CASE("interpreter: a spin lock from atomic_cas and atomic_xchg in tk::while_",
          "[interpreter][numerics][atomics]") {
  const int programs = 50;
  std::vector<std::int32_t> lock = {0}, count = {0}, turns(programs, -1);
  tk_test::run(locked_increment, tk::grid(programs), lock, count, turns);
  CHECK(lock[0] == 0);
  CHECK(count[0] == programs);
  std::vector<std::int32_t> want(programs);
  std::iota(want.begin(), want.end(), 0);
  if constexpr (tk_test::on_gpu)
    std::sort(turns.begin(), turns.end());
  CHECK(turns == want); // the interpreter's programs take the lock in order
}

/// Values are converted to the pointee type as tk::store converts them (an f32 block into i32
/// adds truncated values, a literal into u64), and the old values come back in the pointee type.
TEST_CASE("interpreter: atomic operands are converted to the pointee type",
          "[interpreter][numerics][atomics]") {
  auto k = tk::jit("convert", [](tk::ptr<std::int32_t> i, tk::ptr<std::uint64_t> u,
                                 tk::ptr<double> d, tk::ptr<float> f) {
    auto offs = tk::arange(0, 4);
    auto x = tk::cast<float>(offs) + 0.75f; // 0.75, 1.75, ...: truncated to 0, 1, 2, 3
    auto old = tk::atomic_add(i + offs, x);
    static_assert(std::is_same_v<decltype(old), tk::block<std::int32_t, 1>>);
    tk::atomic_or(u + offs, 0x100000000ll);
    tk::store(f + offs, tk::atomic_xchg(d + offs, offs));
  });
  std::vector<std::int32_t> i = {10, 10, 10, 10};
  std::vector<std::uint64_t> u = {1, 2, 3, 4};
  std::vector<double> d = {0.5, 1.5, 2.5, 3.5};
  std::vector<float> f(4, -1.0f);
  tk_test::run(k, tk::grid(1), i, u, d, f);
  CHECK(i == std::vector<std::int32_t>{10, 11, 12, 13});
  CHECK(u ==
        std::vector<std::uint64_t>{0x100000001ull, 0x100000002ull, 0x100000003ull, 0x100000004ull});
  CHECK(d == std::vector<double>{0, 1, 2, 3});
  CHECK(f == std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f});
}

} // namespace

/// @file interpreter_arith.cpp
/// Interpreter numerics of element-wise arithmetic: f16/bf16 rounding once per operation, integer
/// wrap-around, shifts by the width or more, integer division and modulo (truncating) against
/// tk::floordiv (flooring), Triton's type promotion (checked on the C++ result types and on
/// values), and masked loads with `other`.
#include "interpreter_support.hpp"

#include <limits>
#include <tuple>
#include <utility>

namespace {

template <class A, class B> using sum_type = decltype(std::declval<A>() + std::declval<B>());

// ---------------------------------------------------------------------------------------------
// 16-bit floats: every operation rounds its exact result to the format once.

auto half_ops =
    tk::jit("half_ops", [](auto out, auto a, auto b, tk::i32 n, tk::constant<int> BLOCK) {
      auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offs < n;
      auto x = tk::load(a + offs, mask, 1);
      auto y = tk::load(b + offs, mask, 1);
      using T = typename decltype(x)::element_type;
      static_assert(std::is_same_v<typename decltype(x + y)::element_type, T>);
      static_assert(std::is_same_v<typename decltype(x + 1.0)::element_type, T>,
                    "a float literal takes the block's type");
      tk::store(out + offs, x + y, mask);
      tk::store(out + n + offs, x - y, mask);
      tk::store(out + 2 * n + offs, x * y, mask);
      tk::store(out + 3 * n + offs, x / y, mask);
      tk::store(out + 4 * n + offs, x + 1.0, mask);
      tk::store(out + 5 * n + offs, tk::fma(x, y, x), mask);
      // Chained: the intermediate result is rounded too (a store alone would hide a missing
      // rounding).
      tk::store(out + 6 * n + offs, (x + y) - x, mask);
      tk::store(out + 7 * n + offs, (x * y) / y, mask);
    });

template <class T> std::uint16_t bits(T x) { return x.bits; }

template <class T> void check_16bit_rounding(std::mt19937_64 &gen) {
  // Random values of varied magnitudes, plus cases where f32 and f16 arithmetic differ.
  std::vector<T> a, b;
  std::uniform_real_distribution<float> mant(1.f, 2.f);
  std::uniform_int_distribution<int> expo(-8, 8), sign(0, 1);
  for (int k = 0; k < 200; ++k) {
    a.push_back(T(std::ldexp(mant(gen), expo(gen)) * (sign(gen) ? -1.f : 1.f)));
    b.push_back(T(std::ldexp(mant(gen), expo(gen)) * (sign(gen) ? -1.f : 1.f)));
  }
  const std::pair<float, float> edge[] = {
      {2048.f, 1.f},                      // f16: 2049 is a tie, rounds to even 2048
      {2048.f, 3.f},                      // f16: 2051 rounds up to 2052
      {1.f, 0.000244140625f},             // 1 + 2^-12: below half an ulp of f16, above for f32
      {65504.f, 65504.f},                 // f16 overflow to infinity
      {5.96046448e-08f, 5.96046448e-08f}, // f16 subnormals: 2^-24 + 2^-24
      {0.1f, 0.2f},
      {-3.f, 3.f},
  };
  for (auto [x, y] : edge) {
    a.push_back(T(x));
    b.push_back(T(y));
  }
  const int n = int(a.size());
  std::vector<T> out(8 * a.size());
  tk_test::run(half_ops, tk::grid(tk::cdiv(n, 64)), out, std::as_const(a), std::as_const(b), n,
               tk::constant<int>(64));
  std::vector<std::uint16_t> got, want;
  for (const T &x : out)
    got.push_back(bits(x));
  // f32 has at least 2p + 2 bits for p = 11 (f16) and 8 (bf16), so rounding the f32 result again
  // is the same as rounding the exact result once.
  for (auto op : {0, 1, 2, 3, 4})
    for (int k = 0; k < n; ++k) {
      const float x = a[std::size_t(k)], y = b[std::size_t(k)];
      const float r = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : op == 3 ? x / y : x + 1;
      want.push_back(bits(T(r)));
    }
  for (int k = 0; k < n; ++k) { // fma rounds once: compute exactly in double (22 bits suffice)
    const double x = float(a[std::size_t(k)]), y = float(b[std::size_t(k)]);
    want.push_back(bits(T(x * y + x)));
  }
  for (int k = 0; k < n; ++k) {
    const float x = a[std::size_t(k)], y = b[std::size_t(k)];
    want.push_back(bits(T(float(T(x + y)) - x)));
  }
  for (int k = 0; k < n; ++k) {
    const float x = a[std::size_t(k)], y = b[std::size_t(k)];
    want.push_back(bits(T(float(T(x * y)) / y)));
  }
  TK_CHECK_EQUAL(got, want);
}

TEST_CASE("interpreter: f16 and bf16 arithmetic rounds each result once, bit for bit",
          "[interpreter][numerics][float16]") {
  TK_TEST_RANDOM(gen);
  SECTION("f16") { check_16bit_rounding<tk::half>(gen); }
  SECTION("bf16") { check_16bit_rounding<tk::bfloat16>(gen); }
  SECTION("f16 results really are rounded to f16") {
    std::vector<tk::half> a{tk::half(2048.f), tk::half(1.f)},
        b{tk::half(1.f), tk::half(0.000244140625f)};
    std::vector<tk::half> out(16);
    tk_test::run(half_ops, tk::grid(1), out, std::as_const(a), std::as_const(b), 2,
                 tk::constant<int>(64));
    CHECK(float(out[0]) == 2048.f);
    CHECK(float(out[1]) == 1.f);
    CHECK(float(out[12]) == 0.f); // (2048 + 1) - 2048: the sum was rounded to 2048
    CHECK(float(out[13]) == 0.f); // (1 + 2^-12) - 1
  }
}

// ---------------------------------------------------------------------------------------------
// Integers wrap around (two's complement) at their own width; literals take the block's type.

auto int_wrap = tk::jit("int_wrap", [](auto sum, auto diff, auto prod, auto inc, auto avg, auto a,
                                       auto b, tk::i32 n, tk::constant<int> BLOCK) {
  auto offs = tk::arange(0, BLOCK);
  auto mask = offs < n;
  auto x = tk::load(a + offs, mask);
  auto y = tk::load(b + offs, mask);
  using T = typename decltype(x)::element_type;
  static_assert(std::is_same_v<typename decltype(x + y)::element_type, T>,
                "no promotion to int as in C++");
  static_assert(std::is_same_v<typename decltype(x * 3)::element_type, T>);
  tk::store(sum + offs, x + y, mask);
  tk::store(diff + offs, x - y, mask);
  tk::store(prod + offs, x * y, mask);
  tk::store(inc + offs, x + 1, mask);
  tk::store(avg + offs, (x + y) / 2, mask); // the sum wraps before it is halved
});

template <class T> void check_wrap(std::mt19937_64 &gen) {
  using U = std::make_unsigned_t<T>;
  const int n = 100;
  auto a =
      tk_test::integers<T>(gen, n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  auto b =
      tk_test::integers<T>(gen, n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  a[0] = std::numeric_limits<T>::max(), b[0] = 1; // max + 1 == min
  a[1] = std::numeric_limits<T>::min(), b[1] = 1; // min - 1 == max
  std::vector<T> sum(n), diff(n), prod(n), inc(n), avg(n);
  tk_test::run(int_wrap, tk::grid(1), sum, diff, prod, inc, avg, std::as_const(a), std::as_const(b),
               n, tk::constant<int>(128));
  std::vector<T> want_sum(n), want_diff(n), want_prod(n), want_inc(n), want_avg(n);
  for (std::size_t k = 0; k < std::size_t(n); ++k) { // modular arithmetic in the unsigned type
    want_sum[k] = T(U(U(a[k]) + U(b[k])));
    want_diff[k] = T(U(U(a[k]) - U(b[k])));
    want_prod[k] = T(U(std::uint64_t(U(a[k])) * std::uint64_t(U(b[k]))));
    want_inc[k] = T(U(U(a[k]) + 1u));
    want_avg[k] = T(want_sum[k] / 2);
  }
  CHECK(sum[0] == std::numeric_limits<T>::min());
  CHECK(diff[1] == std::numeric_limits<T>::max());
  TK_CHECK_EQUAL(sum, want_sum);
  TK_CHECK_EQUAL(diff, want_diff);
  TK_CHECK_EQUAL(prod, want_prod);
  TK_CHECK_EQUAL(inc, want_inc);
  TK_CHECK_EQUAL(avg, want_avg);
}

TEST_CASE("interpreter: integer arithmetic wraps around at the operand width",
          "[interpreter][numerics][integer]") {
  TK_TEST_RANDOM(gen);
  SECTION("i8") { check_wrap<std::int8_t>(gen); }
  SECTION("u8") { check_wrap<std::uint8_t>(gen); }
  SECTION("i16") { check_wrap<std::int16_t>(gen); }
  SECTION("i32") { check_wrap<std::int32_t>(gen); }
  SECTION("u32") { check_wrap<std::uint32_t>(gen); }
  SECTION("i64") { check_wrap<std::int64_t>(gen); }
}

// ---------------------------------------------------------------------------------------------
// Shifts: the amount is read unsigned; by the width or more, `<<` and `>>` of unsigned types give
// 0 and `>>` of signed types all sign bits (PTX's shl and shr), literal amounts too.

auto int_shifts = tk::jit("int_shifts", [](auto left, auto right, auto literal, auto a, auto b,
                                           tk::i32 n, tk::constant<int> BLOCK) {
  auto offs = tk::arange(0, BLOCK);
  auto mask = offs < n;
  auto x = tk::load(a + offs, mask, 1);
  auto y = tk::load(b + offs, mask, 1);
  using T = typename decltype(x)::element_type;
  constexpr int width = int(8 * sizeof(T));
  tk::store(left + offs, x << y, mask);
  tk::store(right + offs, x >> y, mask);
  tk::store(literal + offs, x << width, mask);
  tk::store(literal + n + offs, x >> width, mask);
  tk::store(literal + 2 * n + offs, x >> (width + 5), mask);
  tk::store(literal + 3 * n + offs, x << -1, mask); // the amount becomes T's largest unsigned
  tk::store(literal + 4 * n + offs, x >> (width - 1), mask);
});

/// `x << y` and `x >> y` with the amount read as T's unsigned type, as PTX shifts.
template <class T> T shift_left(T x, T y) {
  using U = std::make_unsigned_t<T>;
  return U(y) >= 8 * sizeof(T) ? T(0) : T(U(U(x) << U(y)));
}
template <class T> T shift_right(T x, T y) {
  using U = std::make_unsigned_t<T>;
  if (U(y) >= 8 * sizeof(T))
    return std::is_signed_v<T> && x < 0 ? T(-1) : T(0);
  return T(x >> U(y)); // arithmetic for signed T (C++20)
}

template <class T> void check_shifts(std::mt19937_64 &gen) {
  constexpr int width = int(8 * sizeof(T));
  const int n = 120;
  std::vector<T> a(n), b(n);
  for (auto &x : a)
    x = T(gen());
  for (auto &y : b)
    y = T(gen() % width);
  // Amounts at and past the width, the largest ones and (signed) negative ones, on negative and
  // positive values.
  const T edge[] = {T(width),
                    T(width + 1),
                    T(2 * width - 1),
                    T(2 * width),
                    T(width - 1),
                    T(0),
                    std::numeric_limits<T>::max(),
                    std::numeric_limits<T>::min(),
                    T(-1),
                    T(std::numeric_limits<std::make_unsigned_t<T>>::max() - 1)};
  for (std::size_t k = 0; k < 2 * std::size(edge); ++k) {
    b[k] = edge[k % std::size(edge)];
    a[k] = k < std::size(edge) ? T(-3) : T(3);
  }
  b[2 * std::size(edge)] = T(width);
  a[2 * std::size(edge)] = std::numeric_limits<T>::min();
  std::vector<T> left(n), right(n), literal(5 * std::size_t(n));
  tk_test::run(int_shifts, tk::grid(1), left, right, literal, std::as_const(a), std::as_const(b), n,
               tk::constant<int>(128));
  std::vector<T> want_left(n), want_right(n), want_literal(5 * std::size_t(n));
  for (std::size_t k = 0; k < std::size_t(n); ++k) {
    want_left[k] = shift_left(a[k], b[k]);
    want_right[k] = shift_right(a[k], b[k]);
    want_literal[k] = 0;
    want_literal[std::size_t(n) + k] = shift_right(a[k], T(width));
    want_literal[2 * std::size_t(n) + k] = shift_right(a[k], T(width + 5));
    want_literal[3 * std::size_t(n) + k] = 0;
    want_literal[4 * std::size_t(n) + k] = shift_right(a[k], T(width - 1));
  }
  CHECK(want_right[0] == (std::is_signed_v<T> ? T(-1) : T(0))); // -3 >> width
  TK_CHECK_EQUAL(left, want_left);
  TK_CHECK_EQUAL(right, want_right);
  TK_CHECK_EQUAL(literal, want_literal);
}

TEST_CASE("interpreter: shifts by the width or more give 0, or the sign for signed >>",
          "[interpreter][numerics][integer]") {
  TK_TEST_RANDOM(gen);
  SECTION("i8") { check_shifts<std::int8_t>(gen); }
  SECTION("u8") { check_shifts<std::uint8_t>(gen); }
  SECTION("i16") { check_shifts<std::int16_t>(gen); }
  SECTION("u16") { check_shifts<std::uint16_t>(gen); }
  SECTION("i32") { check_shifts<std::int32_t>(gen); }
  SECTION("u32") { check_shifts<std::uint32_t>(gen); }
  SECTION("i64") { check_shifts<std::int64_t>(gen); }
  SECTION("u64") { check_shifts<std::uint64_t>(gen); }
}

// ---------------------------------------------------------------------------------------------
// Division: `/` and `%` truncate toward zero as in C; tk::floordiv rounds down.

auto int_div = tk::jit("int_div", [](auto quot, auto rem, auto fdiv, auto a, auto b, tk::i32 n,
                                     tk::constant<int> BLOCK) {
  auto offs = tk::arange(0, BLOCK);
  auto mask = offs < n;
  auto x = tk::load(a + offs, mask, 1);
  auto y = tk::load(b + offs, mask, 1);
  tk::store(quot + offs, x / y, mask);
  tk::store(rem + offs, x % y, mask);
  tk::store(fdiv + offs, tk::floordiv(x, y), mask);
});

template <class T> void check_div(std::mt19937_64 &gen, long long range) {
  const int n = 120;
  auto a = tk_test::integers<T>(gen, n, -range, range);
  auto b = tk_test::integers<T>(gen, n, -20, 20);
  for (auto &d : b)
    d = d == 0 ? T(7) : d;
  // Every sign combination, exact and inexact.
  const std::pair<T, T> edge[] = {{7, 2},
                                  {-7, 2},
                                  {7, -2},
                                  {-7, -2},
                                  {6, 3},
                                  {-6, 3},
                                  {0, -5},
                                  {std::numeric_limits<T>::max(), -1},
                                  {std::numeric_limits<T>::min() + 1, 2}};
  for (std::size_t k = 0; k < std::size(edge); ++k)
    std::tie(a[k], b[k]) = edge[k];
  std::vector<T> quot(n), rem(n), fdiv(n);
  tk_test::run(int_div, tk::grid(1), quot, rem, fdiv, std::as_const(a), std::as_const(b), n,
               tk::constant<int>(128));
  std::vector<T> want_q(n), want_r(n), want_f(n);
  for (std::size_t k = 0; k < std::size_t(n); ++k) {
    want_q[k] = T(a[k] / b[k]);
    want_r[k] = T(a[k] % b[k]);
    want_f[k] = T(a[k] / b[k] - ((a[k] % b[k] != 0) && ((a[k] < 0) != (b[k] < 0)) ? 1 : 0));
  }
  CHECK(quot[1] == -3);
  CHECK(rem[1] == -1);
  CHECK(fdiv[1] == -4);
  CHECK(fdiv[2] == -4);
  CHECK(fdiv[3] == 3);
  TK_CHECK_EQUAL(quot, want_q);
  TK_CHECK_EQUAL(rem, want_r);
  TK_CHECK_EQUAL(fdiv, want_f);
  for (std::size_t k = 0; k < std::size_t(n); ++k) { // the identities each pair satisfies
    INFO("a = " << +a[k] << ", b = " << +b[k]);
    REQUIRE(T(quot[k] * b[k] + rem[k]) == a[k]);
    const long long r = (long long)a[k] - (long long)fdiv[k] * b[k]; // takes the sign of b
    REQUIRE((r == 0 || (r < 0) == (b[k] < 0)));
    REQUIRE(std::llabs(r) < std::llabs(b[k]));
  }
}

TEST_CASE("interpreter: integer division and modulo truncate, floordiv rounds down",
          "[interpreter][numerics][integer]") {
  TK_TEST_RANDOM(gen);
  SECTION("i32") { check_div<std::int32_t>(gen, 100000); }
  SECTION("i8") { check_div<std::int8_t>(gen, 127); }
  SECTION("i64") { check_div<std::int64_t>(gen, 1LL << 40); }
  SECTION("min / -1 wraps, min % -1 is 0") {
    std::vector<std::int32_t> a{std::numeric_limits<std::int32_t>::min()}, b{-1}, q(1), r(1), f(1);
    tk_test::run(int_div, tk::grid(1), q, r, f, std::as_const(a), std::as_const(b), 1,
                 tk::constant<int>(16));
    CHECK(q[0] == std::numeric_limits<std::int32_t>::min());
    CHECK(r[0] == 0);
    CHECK(f[0] == std::numeric_limits<std::int32_t>::min());
    std::vector<std::int8_t> a8{-128}, b8{-1}, q8(1), r8(1), f8(1);
    tk_test::run(int_div, tk::grid(1), q8, r8, f8, std::as_const(a8), std::as_const(b8), 1,
                 tk::constant<int>(16));
    CHECK(int(q8[0]) == -128);
    CHECK(int(r8[0]) == 0);
  }
  SECTION("unsigned operands divide as unsigned") {
    std::vector<std::uint32_t> a{4000000000u, 7u, 0xFFFFFFFFu}, b{3u, 0xFFFFFFFFu, 16u}, q(3), r(3),
        f(3);
    tk_test::run(int_div, tk::grid(1), q, r, f, std::as_const(a), std::as_const(b), 3,
                 tk::constant<int>(16));
    CHECK(q == std::vector<std::uint32_t>{1333333333u, 0u, 0x0FFFFFFFu});
    CHECK(r == std::vector<std::uint32_t>{1u, 7u, 15u});
    CHECK(f == q);
  }
}

auto float_div =
    tk::jit("float_div", [](tk::ptr<float> fdiv, tk::ptr<float> rem, tk::ptr<const float> a,
                            tk::ptr<const float> b, tk::i32 n, tk::constant<int> BLOCK) {
      auto offs = tk::arange(0, BLOCK);
      auto mask = offs < n;
      auto x = tk::load(a + offs, mask, 1);
      auto y = tk::load(b + offs, mask, 1);
      tk::store(fdiv + offs, tk::floordiv(x, y), mask);
      tk::store(rem + offs, x % y, mask);
    });

TEST_CASE("interpreter: float floordiv floors the f32 quotient, % is fmod",
          "[interpreter][numerics]") {
  TK_TEST_RANDOM(gen);
  const int n = 100;
  auto a = tk_test::uniform(gen, n, -50, 50);
  auto b = tk_test::uniform(gen, n, -5, 5);
  a[0] = -7.5f, b[0] = 2.f;
  std::vector<float> fdiv(n), rem(n), want_f(n), want_r(n);
  tk_test::run(float_div, tk::grid(1), fdiv, rem, a, b, n, 128);
  for (std::size_t k = 0; k < std::size_t(n); ++k) {
    want_f[k] = std::floor(a[k] / b[k]);
    want_r[k] = std::fmod(a[k], b[k]);
  }
  CHECK(fdiv[0] == -4.f);
  CHECK(rem[0] == -1.5f);
  TK_CHECK_EQUAL(fdiv, want_f);
  TK_CHECK_EQUAL(rem, want_r);
}

// ---------------------------------------------------------------------------------------------
// Type promotion: the C++ type of each result, and the value computed in that type.

TEST_CASE("interpreter: type promotion follows Triton's rules", "[interpreter][numerics][types]") {
  using std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint32_t;
  using tk::block;
  // Integers: the wider wins; on a signedness clash the unsigned one if at least as wide.
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::i8, tk::i32>, tk::i32>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::i32, tk::i64>, tk::i64>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::u8, tk::i8>, tk::u8>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::u8, tk::i32>, tk::i32>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::i32, tk::u32>, tk::u32>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::i1, tk::i1>, tk::i1>);
  // Integer with float: the float type; floats: the wider; f16 with bf16 meets in f32.
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::i32, tk::f16>, tk::f16>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::i64, tk::f32>, tk::f32>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::f16, tk::f32>, tk::f32>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::f16, tk::bf16>, tk::f32>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::f32, tk::f64>, tk::f64>);
  // Literals are weak: they take the block's type, an int literal becomes i32 next to i1, a float
  // literal makes an integer block f32. Ranks broadcast.
  STATIC_REQUIRE(std::is_same_v<sum_type<block<int8_t, 2>, int>, block<int8_t, 2>>);
  STATIC_REQUIRE(std::is_same_v<sum_type<long long, block<uint8_t, 1>>, block<uint8_t, 1>>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::f16, double>, tk::f16>);
  STATIC_REQUIRE(std::is_same_v<sum_type<block<bool, 1>, int>, block<int32_t, 1>>);
  STATIC_REQUIRE(std::is_same_v<sum_type<block<int16_t, 1>, float>, block<float, 1>>);
  STATIC_REQUIRE(std::is_same_v<sum_type<tk::i8, block<int32_t, 2>>, block<int32_t, 2>>);
  STATIC_REQUIRE(
      std::is_same_v<sum_type<block<tk::half, 1>, tk::constant<int>>, block<tk::half, 1>>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<tk::i8>() < std::declval<tk::u8>()), tk::i1>);
  STATIC_REQUIRE(
      std::is_same_v<decltype(tk::cumsum(std::declval<block<int16_t, 1>>())), block<int32_t, 1>>);
  STATIC_REQUIRE(
      std::is_same_v<decltype(tk::sum(std::declval<block<uint8_t, 1>>(), 0)), block<uint32_t, 0>>);

  TK_TEST_RANDOM(gen);
  auto promote = tk::jit(
      "promote",
      [](tk::ptr<std::int32_t> i32_out, tk::ptr<std::uint8_t> u8_out,
         tk::ptr<std::uint32_t> u32_out, tk::ptr<tk::half> f16_out, tk::ptr<float> f32_out,
         tk::ptr<bool> i1_out, tk::ptr<const std::int8_t> i8_in, tk::ptr<const std::uint8_t> u8_in,
         tk::ptr<const std::int32_t> i32_in, tk::ptr<const tk::half> f16_in,
         tk::ptr<const tk::bfloat16> bf16_in, tk::i32 n, tk::constant<int> BLOCK) {
        auto offs = tk::arange(0, BLOCK);
        auto m = offs < n;
        auto i8 = tk::load(i8_in + offs, m);
        auto u8 = tk::load(u8_in + offs, m);
        auto i32 = tk::load(i32_in + offs, m);
        auto h = tk::load(f16_in + offs, m);
        auto bf = tk::load(bf16_in + offs, m);
        auto r0 = i8 + i32; // i32: the i8 is sign-extended
        auto r1 = u8 + i8;  // u8: the i8 is reinterpreted, the sum wraps at 8 bits
        auto r2 = i8 + tk::cast<std::uint32_t>(i32); // u32
        auto r3 = i32 + h;   // f16: the integer is converted, the sum rounded to f16
        auto r4 = h + bf;    // f32
        auto r5 = i32 / 2.5; // f32
        auto r6 = i8 < u8;   // compared as u8
        tk::store(i32_out + offs, r0, m);
        tk::store(u8_out + offs, r1, m);
        tk::store(u32_out + offs, r2, m);
        tk::store(f16_out + offs, r3, m);
        tk::store(f32_out + offs, r4, m);
        tk::store(f32_out + n + offs, r5, m);
        tk::store(i1_out + offs, r6, m);
      });
  const int n = 60;
  const auto i8 = tk_test::integers<int8_t>(gen, n, -128, 127);
  const auto u8 = tk_test::integers<uint8_t>(gen, n, 0, 255);
  const auto i32 = tk_test::integers<int32_t>(gen, n, -5000, 5000);
  const auto h = tk_test::uniform<tk::half>(gen, n, -4, 4);
  const auto bf = tk_test::uniform<tk::bfloat16>(gen, n, -4, 4);
  std::vector<int32_t> r0(n);
  std::vector<uint8_t> r1(n);
  std::vector<uint32_t> r2(n);
  std::vector<tk::half> r3(n);
  std::vector<float> r45(2 * n);
  std::vector<std::uint8_t> r6(n, 2); // bool is stored as one byte
  tk_test::run(promote, tk::grid(1), r0, r1, r2, r3, r45, tk_test::reinterpreted<bool>(r6), i8, u8,
               i32, h, bf, n, 64);
  std::vector<double> w0(n), w1(n), w2(n), w3(n), w45(2 * n), w6(n);
  for (std::size_t k = 0; k < std::size_t(n); ++k) {
    w0[k] = i8[k] + i32[k];
    w1[k] = uint8_t(u8[k] + uint8_t(i8[k]));
    w2[k] = uint32_t(uint32_t(i8[k]) + uint32_t(i32[k]));
    w3[k] = float(tk::half(float(tk::half(float(i32[k]))) + float(h[k]))); // i32 -> f16 first
    w45[k] = float(h[k]) + float(bf[k]);
    w45[k + std::size_t(n)] = float(i32[k]) / 2.5f;
    w6[k] = uint8_t(i8[k]) < u8[k];
  }
  TK_CHECK_EQUAL(r0, w0);
  TK_CHECK_EQUAL(r1, w1);
  TK_CHECK_EQUAL(r2, w2);
  TK_CHECK_EQUAL(r3, w3);
  TK_CHECK_EQUAL(r45, w45);
  TK_CHECK_EQUAL(r6, w6);
}

// ---------------------------------------------------------------------------------------------
// Masks with `other`: masked-off lanes are never read (their addresses may be invalid) and take
// `other`; masked-off stores leave memory as it was.

auto masked =
    tk::jit("masked", [](tk::ptr<float> out, tk::ptr<tk::half> out_h, tk::ptr<const float> in,
                         tk::ptr<const tk::half> in_h, tk::ptr<const float> nowhere, tk::i32 rows,
                         tk::i32 cols, tk::constant<int> BR, tk::constant<int> BC) {
      auto r = tk::arange(0, BR);
      auto c = tk::arange(0, BC);
      auto rmask = r(tk::_, tk::newaxis) < rows;
      auto cmask = c(tk::newaxis, tk::_) < cols;
      auto offs = r(tk::_, tk::newaxis) * cols + c(tk::newaxis, tk::_);
      auto tile = BR * BC;
      // A block `other` broadcast along rows: each masked-off element takes -(its column index).
      auto fill = -tk::cast<float>(c);
      tk::store(out + offs, tk::load(in + offs, rmask & cmask, fill), rmask & cmask);
      auto all = r(tk::_, tk::newaxis) * BC + c(tk::newaxis, tk::_);
      tk::store(out + tile + all, tk::load(in + offs, rmask & cmask, fill));
      // A literal `other`, a mask only (zeros), and a mask that is all false on a null pointer.
      tk::store(out + 2 * tile + all, tk::load(in + offs, rmask & cmask, 42.5f));
      tk::store(out + 3 * tile + all, tk::load(in + offs, rmask & cmask));
      tk::store(out + 4 * tile + all, tk::load(nowhere + all, all < 0, 7));
      // `other` of another type converts to the pointee type: -inf in an f16 load.
      auto h = tk::load(in_h + offs, rmask & cmask, -tk::inf<float>());
      tk::store(out_h + all, h);
    });

TEST_CASE("interpreter: masked loads take `other`, masked stores leave memory alone",
          "[interpreter][numerics][memory]") {
  TK_TEST_RANDOM(gen);
  const int rows = 5 + int(gen() % 3), cols = 9 + int(gen() % 7), br = 8, bc = 16, tile = br * bc;
  CAPTURE(rows, cols);
  const auto in = tk_test::uniform(gen, std::size_t(rows * cols), -10, 10);
  const auto in_h = tk_test::uniform<tk::half>(gen, std::size_t(rows * cols), -10, 10);
  const float sentinel = -999.f;
  std::vector<float> out(5 * tile, sentinel);
  std::vector<tk::half> out_h(tile);
  // The interpreter takes a null pointer for a load whose mask is all false; a GPU launch needs
  // device memory for every pointer, so there `nowhere` is a one-element buffer.
  if constexpr (tk_test::on_gpu)
    tk_test::run(masked, tk::grid(1), out, out_h, in, in_h, std::vector<float>(1), rows, cols,
                 tk::constant<int>(br), tk::constant<int>(bc));
  else
    tk_test::run(masked, tk::grid(1), out, out_h, in, in_h, static_cast<const float *>(nullptr),
                 rows, cols, tk::constant<int>(br), tk::constant<int>(bc));
  std::vector<float> want(5 * tile, sentinel);
  std::vector<double> want_h(tile);
  for (int r = 0; r < br; ++r)
    for (int c = 0; c < bc; ++c) {
      const bool in_range = r < rows && c < cols;
      const auto t = std::size_t(r * bc + c);
      const float x = in_range ? in[std::size_t(r * cols + c)] : 0.f;
      if (in_range)
        want[std::size_t(r * cols + c)] = x;
      want[std::size_t(tile) + t] = in_range ? x : -float(c);
      want[std::size_t(2 * tile) + t] = in_range ? x : 42.5f;
      want[std::size_t(3 * tile) + t] = x;
      want[std::size_t(4 * tile) + t] = 7.f;
      want_h[t] = in_range ? double(float(in_h[std::size_t(r * cols + c)]))
                           : -std::numeric_limits<double>::infinity();
    }
  TK_CHECK_EQUAL(out, want);
  CHECK(std::isinf(float(out_h[std::size_t(tile - 1)])));
  std::vector<double> got_h(out_h.begin(), out_h.end());
  CHECK(got_h == want_h);
}

} // namespace

/// @file interpreter_scalar_values.cpp
/// Scalar handles made from C++ values (`tk::i32 count = 0;`): as loop-carried values of
/// tk::for_range and tk::while_ on the interpreter (and the GPU, in tk_gpu_numerics), as
/// `arith.constant`s in the printed IR, every scalar type, and their errors (a value that does not
/// fit, a scalar made outside a kernel). The conversions that do not compile are compile-fail
/// tests (tests/compile_fail/scalar_from_*.cpp).
#include "expect_error.hpp"
#include "interpreter_support.hpp"

#include <string>
#include <string_view>
#include <type_traits>

namespace {

constexpr std::string_view this_file = "interpreter_scalar_values.cpp";

// Scalars from C++ values convert as users expect, and only where they do.
static_assert(std::is_convertible_v<int, tk::i32> && std::is_convertible_v<int, tk::i64>);
static_assert(std::is_convertible_v<int, tk::f32> && std::is_convertible_v<double, tk::f16>);
static_assert(std::is_convertible_v<bool, tk::i1> && std::is_convertible_v<tk::half, tk::f32>);
static_assert(std::is_convertible_v<tk::constant<int>, tk::i32>);
static_assert(!std::is_constructible_v<tk::ptr<float>, int>, "no pointer from a number");
static_assert(!std::is_constructible_v<tk::block<float, 1>, float>, "tk::full makes blocks");
static_assert(!std::is_constructible_v<tk::i32, tk::constant<tk::input_precision>>, "not an enum");

// Counts the elements of each row that exceed a threshold, and sums them, BLOCK columns at a
// time; then halves the sum until it is below 1, counting the halvings. Every carried scalar
// starts from a C++ value.
auto row_stats = tk::jit("row_stats", [](tk::ptr<std::int32_t> counts, tk::ptr<float> sums,
                                         tk::ptr<const float> x, tk::i32 n, tk::f32 threshold,
                                         tk::constant<int> BLOCK) {
  auto row = tk::program_id(0);
  auto cols = tk::arange(0, BLOCK);
  tk::i32 count = 0;
  tk::f32 total = 0;
  tk::i64 visited = 0;
  tk::i1 any_negative = false;
  tk::for_range(0, n, BLOCK, [&](tk::i32 start) {
    auto mask = start + cols < n;
    auto v = tk::load(x + row * n + start + cols, mask, 0.0f);
    auto above = mask && v > threshold;
    count += tk::sum(tk::cast<std::int32_t>(above));
    total += tk::sum(tk::where(above, v, 0.0f));
    visited += tk::sum(tk::cast<std::int32_t>(mask));
    any_negative = any_negative || tk::max(tk::where(mask, -v, -1.0f)) > 0;
  });
  tk::i32 halvings = 0;
  auto rest = total;
  tk::while_([&] { return rest >= 1.0f; },
             [&] {
               rest *= 0.5f;
               halvings += 1;
             });
  tk::store(counts + 4 * row, count);
  tk::store(counts + 4 * row + 1, halvings);
  tk::store(counts + 4 * row + 2, tk::cast<std::int32_t>(visited));
  tk::store(counts + 4 * row + 3, tk::cast<std::int32_t>(any_negative));
  tk::store(sums + row, total);
});

TEST_CASE("scalar values: tk::i32 count = 0 and friends carried through for_range and while_",
          "[interpreter][numerics][control]") {
  TK_TEST_RANDOM(gen);
  const int rows = 3, block = 16;
  const int n = GENERATE(1, 16, 37);
  CAPTURE(n);
  const float threshold = 0.25f;
  const auto x = tk_test::uniform(gen, std::size_t(rows * n), -1, 1);
  std::vector<std::int32_t> counts(4 * rows, -1);
  std::vector<float> sums(rows, -1.f);
  tk_test::run(row_stats, tk::grid(rows), counts, sums, x, n, threshold, tk::constant<int>(block));
  for (int r = 0; r < rows; ++r) {
    int count = 0, halvings = 0;
    bool negative = false;
    double total = 0;
    for (int c = 0; c < n; ++c) {
      const float v = x[std::size_t(r * n + c)];
      negative = negative || v < 0;
      if (v > threshold)
        ++count, total += v;
    }
    for (float rest = float(total); rest >= 1.0f; rest *= 0.5f)
      ++halvings;
    INFO("row " << r);
    CHECK(counts[std::size_t(4 * r)] == count);
    CHECK(counts[std::size_t(4 * r + 2)] == n);
    CHECK(counts[std::size_t(4 * r + 3)] == int(negative));
    CHECK(sums[std::size_t(r)] == Approx(total).epsilon(1e-5).margin(1e-6));
    // The halvings of the sum the kernel computed (its f32 sums may differ in the last bit).
    int want_halvings = 0;
    for (float rest = sums[std::size_t(r)]; rest >= 1.0f; rest *= 0.5f)
      ++want_halvings;
    CHECK(counts[std::size_t(4 * r + 1)] == want_halvings);
  }
}

// One scalar of every type from a C++ value, each stored as it is.
auto every_type =
    tk::jit("every_type",
            [](tk::ptr<std::int8_t> i8s, tk::ptr<std::uint8_t> u8s, tk::ptr<std::int16_t> i16s,
               tk::ptr<std::uint16_t> u16s, tk::ptr<std::int32_t> i32s, tk::ptr<std::uint32_t> u32s,
               tk::ptr<std::int64_t> i64s, tk::ptr<std::uint64_t> u64s, tk::ptr<bool> i1s,
               tk::ptr<tk::half> f16s, tk::ptr<tk::bfloat16> bf16s, tk::ptr<float> f32s,
               tk::ptr<double> f64s, tk::constant<int> K) {
              tk::i8 a = -128;
              tk::u8 b = 255;
              tk::i16 c = std::int16_t(-30000);
              tk::u16 d = 65535u;
              tk::i32 e = K; // a tk::constant
              tk::u32 f = 0xFFFFFFFFu;
              tk::i64 g = -5'000'000'000LL;
              tk::u64 h = 0xFEDCBA9876543210ull;
              tk::i1 i = true;
              tk::f16 j = 0.1; // rounded to f16
              tk::bf16 k = 3;
              tk::f32 l = tk::half(1.5);
              tk::f64 m = 0.1f; // the float's value, exactly
              tk::store(i8s, a);
              tk::store(u8s, b);
              tk::store(i16s, c);
              tk::store(u16s, d);
              tk::store(i32s, e);
              tk::store(u32s, f);
              tk::store(i64s, g);
              tk::store(u64s, h);
              tk::store(i1s, i);
              tk::store(f16s, j);
              tk::store(bf16s, k);
              tk::store(f32s, l);
              tk::store(f64s, m);
            });

TEST_CASE("scalar values: every scalar type from a C++ value", "[interpreter][numerics]") {
  std::vector<std::int8_t> i8s(1);
  std::vector<std::uint8_t> u8s(1);
  std::vector<std::int16_t> i16s(1);
  std::vector<std::uint16_t> u16s(1);
  std::vector<std::int32_t> i32s(1);
  std::vector<std::uint32_t> u32s(1);
  std::vector<std::int64_t> i64s(1);
  std::vector<std::uint64_t> u64s(1);
  std::vector<std::uint8_t> i1s(1, 7);
  std::vector<tk::half> f16s(1);
  std::vector<tk::bfloat16> bf16s(1);
  std::vector<float> f32s(1);
  std::vector<double> f64s(1);
  tk_test::run(every_type, tk::grid(1), i8s, u8s, i16s, u16s, i32s, u32s, i64s, u64s,
               tk_test::reinterpreted<bool>(i1s), f16s, bf16s, f32s, f64s, tk::constant<int>(42));
  CHECK(i8s[0] == -128);
  CHECK(u8s[0] == 255);
  CHECK(i16s[0] == -30000);
  CHECK(u16s[0] == 65535);
  CHECK(i32s[0] == 42);
  CHECK(u32s[0] == 0xFFFFFFFFu);
  CHECK(i64s[0] == -5'000'000'000LL);
  CHECK(u64s[0] == 0xFEDCBA9876543210ull);
  CHECK(i1s[0] == 1);
  CHECK(f16s[0].bits == tk::half(0.1f).bits);
  CHECK(float(bf16s[0]) == 3.0f);
  CHECK(f32s[0] == 1.5f);
  CHECK(f64s[0] == double(0.1f));
}

TEST_CASE("scalar values: constants in the printed IR", "[ir]") {
  std::vector<std::int32_t> counts(4);
  std::vector<float> sums(1), x(16);
  const std::string ir = row_stats.ir(counts.data(), sums.data(), std::as_const(x).data(), 16,
                                      0.25f, tk::constant<int>(16));
  INFO(ir);
  // count, halvings; total; visited; any_negative: constants before the loops that carry them.
  CHECK(ir.find("arith.constant 0 : i32") != std::string::npos);
  CHECK(ir.find("arith.constant 0.0 : f32") != std::string::npos);
  CHECK(ir.find("arith.constant 0 : i64") != std::string::npos);
  CHECK(ir.find("arith.constant false") != std::string::npos);
  CHECK(ir.find("scf.for") != std::string::npos);
  CHECK(ir.find("scf.while") != std::string::npos);
}

TEST_CASE("scalar values: an integer that does not fit the scalar type", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&](tk::ptr<std::uint8_t> out, tk::i32 v) {
    line = __LINE__ + 1;
    tk::u8 x = 300;
    tk::store(out, x + v);
  });
  const char *message = "tk::scalar<u8> made from 300, which does not fit in u8";
  std::vector<std::uint8_t> out(1);
  SECTION("trace") {
    tk_test::expect_error(this_file, line, message, [&] { (void)k.ir(out.data(), 1); });
  }
  SECTION("interpreter") {
    tk_test::expect_error(this_file, line, message,
                          [&] { k.interpret(tk::grid(1), out.data(), 1); });
  }
  SECTION("a negative value for an unsigned type") {
    auto neg = tk::jit("neg", [&](tk::ptr<std::uint32_t> p) {
      line = __LINE__ + 1;
      tk::u32 y = -1;
      tk::store(p, y);
    });
    std::vector<std::uint32_t> p(1);
    tk_test::expect_error(this_file, line, "tk::scalar<u32> made from -1, which does not fit",
                          [&] { neg.interpret(tk::grid(1), p.data()); });
  }
}

TEST_CASE("scalar values: made outside a kernel", "[errors]") {
  int line = 0;
  tk_test::expect_error(this_file, line, "tk::scalar<i32> made from a C++ value outside a kernel",
                        [&] {
                          line = __LINE__ + 1;
                          tk::i32 x = 0;
                          (void)x;
                        });
  tk_test::expect_error(this_file, line, "tk::scalar<f32> made from a C++ value outside a kernel",
                        [&] {
                          line = __LINE__ + 1;
                          tk::f32 y = 1.5f;
                          (void)y;
                        });
}

} // namespace

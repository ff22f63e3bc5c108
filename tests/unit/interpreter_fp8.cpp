/// @file interpreter_fp8.cpp
/// fp8 element types (tk::f8e4m3, tk::f8e5m2 and the fnuz tk::f8e4b8, tk::f8e5b16): the host
/// types' values against the formats' definitions; every one of the 256 codes of each decoded by
/// a kernel; f32, f16 and bf16 values around every rounding boundary encoded with both rounding
/// modes; arithmetic on fp8 blocks.
/// Built with TK_TEST_ON_GPU (tk_gpu_numerics), the kernels run on the GPU and must agree bit
/// for bit.
#include "expect_error.hpp"
#include "interpreter_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace {

std::uint32_t bits_of(float x) {
  std::uint32_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

/// Each code's value, as f32 (exact).
template <class F8>
auto decode = tk::jit("fp8_decode", [](tk::ptr<float> out, tk::ptr<const F8> in) {
  auto offs = tk::arange(0, 256);
  tk::store(out + offs, tk::cast<float>(tk::load(in + offs)));
});

/// Each f32, f16 and bf16 input rounded to F8 to nearest even and toward zero.
template <class F8>
auto encode =
    tk::jit("fp8_encode", [](tk::ptr<F8> nearest, tk::ptr<F8> toward_zero, tk::ptr<F8> from_half,
                             tk::ptr<F8> from_bf16, tk::ptr<const float> in, tk::i32 n) {
      auto offs = tk::program_id(0) * 1024 + tk::arange(0, 1024);
      auto mask = offs < n;
      auto x = tk::load(in + offs, mask);
      tk::store(nearest + offs, tk::cast<F8>(x), mask);
      tk::store(toward_zero + offs, tk::cast<F8>(x, tk::rounding::rtz), mask);
      tk::store(from_half + offs, tk::cast<F8>(tk::cast<tk::half>(x)), mask);
      tk::store(from_bf16 + offs, tk::cast<F8>(tk::cast<tk::bfloat16>(x)), mask);
    });

/// a * b + c on fp8 blocks (each op rounded to fp8), and a / b in the other fp8 type's block
/// (e4m3 with e5m2 meets in f16).
auto arithmetic =
    tk::jit("fp8_arithmetic",
            [](tk::ptr<tk::f8e4m3> out, tk::ptr<tk::half> mixed, tk::ptr<const tk::f8e4m3> a,
               tk::ptr<const tk::f8e4m3> b, tk::ptr<const tk::f8e5m2> c) {
              auto offs = tk::arange(0, 256);
              auto x = tk::load(a + offs), y = tk::load(b + offs);
              tk::store(out + offs, x * y + x);
              tk::store(mixed + offs, x + tk::load(c + offs));
            });

/// fnuz arithmetic: a * b + a in e4b8 (each op rounded), a - b converted from e5b16 to e4b8.
auto fnuz_arithmetic =
    tk::jit("fp8_fnuz_arithmetic",
            [](tk::ptr<tk::f8e4b8> out, tk::ptr<tk::f8e4b8> converted, tk::ptr<const tk::f8e4b8> a,
               tk::ptr<const tk::f8e4b8> b, tk::ptr<const tk::f8e5b16> c) {
              auto offs = tk::arange(0, 256);
              auto x = tk::load(a + offs), y = tk::load(b + offs);
              auto z = tk::load(c + offs);
              tk::store(out + offs, x * y + x);
              tk::store(converted + offs, tk::cast<tk::f8e4b8>(z - z * tk::f8e5b16(0.25f)));
            });

/// fp8 blocks from tk::zeros and an fp8 literal: in * 0.5 + 0, each operation rounded to e4m3.
auto literals = tk::jit("fp8_literals", [](tk::ptr<tk::f8e4m3> out, tk::ptr<const tk::f8e4m3> in) {
  auto offs = tk::arange(0, 256);
  auto zero = tk::zeros<tk::f8e4m3>({256});
  tk::store(out + offs, tk::load(in + offs) * tk::f8e4m3(0.5f) + zero);
});

int rounding_line = 0;
auto bad_rounding = tk::jit("fp8_bad_rounding", [](tk::ptr<float> out, tk::ptr<const int> in) {
  auto offs = tk::arange(0, 16);
  rounding_line = __LINE__ + 1;
  tk::store(out + offs, tk::cast<float>(tk::load(in + offs), tk::rounding::rtz));
});

/// Inputs around every rounding boundary of F8: each value, the midpoints between neighbours
/// and their f32 neighbours, beyond the largest finite value, infinities, NaN, f32 subnormals.
template <class F8> std::vector<float> boundary_inputs() {
  std::vector<float> values;
  for (int c = 0; c < 0x80; ++c) {
    const float v = float(F8::from_bits(std::uint8_t(c)));
    if (!std::isnan(v) && !std::isinf(v))
      values.push_back(v);
  }
  std::vector<float> in;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const float v = values[k];
    const float next = k + 1 < values.size() ? values[k + 1] : v * 1.125f;
    const float mid = (v + next) / 2;
    for (float x :
         {v, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, next), std::nextafter(v, next)})
      for (float s : {1.0f, -1.0f})
        in.push_back(s * x);
  }
  for (float x : {1e6f, 65504.0f, 60000.0f, 1e-30f, 1e-40f, std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN()})
    for (float s : {1.0f, -1.0f})
      in.push_back(s * x);
  return in;
}

/// A random code of F8 with a finite value.
template <class F8> F8 random_finite(std::mt19937_64 &gen) {
  for (;;) {
    const auto x = F8::from_bits(std::uint8_t(gen() & 0xFF));
    if (std::isfinite(float(x)))
      return x;
  }
}

/// Decodes each of the 256 codes of F8 in a kernel: NaN must give a NaN of the code's sign, every
/// other code its exact value.
template <class F8> void check_decode() {
  std::vector<F8> codes(256);
  for (int c = 0; c < 256; ++c)
    codes[std::size_t(c)] = F8::from_bits(std::uint8_t(c));
  std::vector<float> out(256);
  tk_test::run(decode<F8>, tk::grid(1), out, codes);
  int mismatches = 0;
  for (std::size_t c = 0; c < 256; ++c) {
    const float want = float(codes[c]);
    const bool ok = std::isnan(want)
                        ? std::isnan(out[c]) && std::signbit(out[c]) == std::signbit(want)
                        : bits_of(out[c]) == bits_of(want);
    if (!ok && mismatches++ < 8)
      UNSCOPED_INFO("code 0x" << std::hex << c << std::dec << ": got " << out[c] << ", want "
                              << want);
  }
  CHECK(mismatches == 0);
}

template <class F8> void check_encode() {
  const std::vector<float> in = boundary_inputs<F8>();
  const int n = int(in.size());
  std::vector<F8> nearest(in.size()), toward_zero(in.size()), from_half(in.size()),
      from_bf16(in.size());
  tk_test::run(encode<F8>, tk::grid(tk::cdiv(n, 1024)), nearest, toward_zero, from_half, from_bf16,
               in, n);
  int mismatches = 0;
  for (std::size_t k = 0; k < in.size(); ++k) {
    const double x = in[k];
    const std::uint8_t want[] = {F8(x).bits, F8(x, tk::rounding::rtz).bits,
                                 F8(double(float(tk::half(in[k])))).bits,
                                 F8(double(float(tk::bfloat16(in[k])))).bits};
    const std::uint8_t got[] = {nearest[k].bits, toward_zero[k].bits, from_half[k].bits,
                                from_bf16[k].bits};
    for (int m = 0; m < 4; ++m)
      if (got[m] != want[m] && mismatches++ < 8)
        UNSCOPED_INFO("input " << in[k] << " (bits 0x" << std::hex << bits_of(in[k]) << ") path "
                               << std::dec << m << ": got 0x" << std::hex << int(got[m])
                               << ", want 0x" << int(want[m]) << std::dec);
  }
  CHECK(mismatches == 0);
}

} // namespace

TEST_CASE("fp8: the host types follow the formats", "[fp8]") {
  using tk::f8e4m3, tk::f8e5m2;
  // e4m3: bias 7, no infinities, S.1111.111 NaN, largest 448, smallest subnormal 2^-9.
  CHECK(float(f8e4m3::from_bits(0x38)) == 1.0f);
  CHECK(float(f8e4m3::from_bits(0x7E)) == 448.0f);
  CHECK(float(f8e4m3::from_bits(0x01)) == std::ldexp(1.0f, -9));
  CHECK(float(f8e4m3::from_bits(0x08)) == std::ldexp(1.0f, -6));
  CHECK(float(f8e4m3::from_bits(0xC0)) == -2.0f);
  CHECK(std::isnan(float(f8e4m3::from_bits(0x7F))));
  CHECK(std::isnan(float(f8e4m3::from_bits(0xFF))));
  CHECK(float(f8e4m3::from_bits(0x78)) == 256.0f); // exponent 1111 holds normal numbers
  // e5m2: bias 15, IEEE-style, largest 57344, smallest subnormal 2^-16.
  CHECK(float(f8e5m2::from_bits(0x3C)) == 1.0f);
  CHECK(float(f8e5m2::from_bits(0x7B)) == 57344.0f);
  CHECK(float(f8e5m2::from_bits(0x01)) == std::ldexp(1.0f, -16));
  CHECK(std::isinf(float(f8e5m2::from_bits(0x7C))));
  CHECK(std::isnan(float(f8e5m2::from_bits(0x7D))));
  // Every finite code encodes back to itself (zero keeps its sign); infinities saturate.
  for (int c = 0; c < 256; ++c) {
    const auto code = std::uint8_t(c);
    if (std::isfinite(float(f8e4m3::from_bits(code))))
      CHECK(f8e4m3(double(float(f8e4m3::from_bits(code)))).bits == code);
    if (std::isfinite(float(f8e5m2::from_bits(code))))
      CHECK(f8e5m2(double(float(f8e5m2::from_bits(code)))).bits == code);
  }
  // Rounding: ties to even, toward zero, saturation (infinities too), NaN.
  CHECK(f8e4m3(1.0625).bits == 0x38);                   // halfway 1 and 1.125: even
  CHECK(f8e4m3(1.1875).bits == 0x3A);                   // halfway 1.125 and 1.25: even
  CHECK(f8e4m3(1.24, tk::rounding::rtz).bits == 0x39);  // 1.125
  CHECK(f8e4m3(-1.24, tk::rounding::rtz).bits == 0xB9); // -1.125
  CHECK(f8e4m3(1000.0).bits == 0x7E);                   // 448
  CHECK(f8e4m3(-std::numeric_limits<double>::infinity()).bits == 0xFE);
  CHECK(f8e5m2(std::numeric_limits<double>::infinity()).bits == 0x7B);
  CHECK(f8e4m3(std::numeric_limits<double>::quiet_NaN()).bits == 0x7F);
  CHECK(f8e4m3(std::ldexp(1.0, -10)).bits == 0x00); // half the smallest: even, zero
  CHECK(f8e4m3(std::ldexp(1.5, -10)).bits == 0x01);
  CHECK(f8e5m2(std::ldexp(3.0, -17)).bits == 0x02); // 1.5 subnormal steps: even, 2
}

TEST_CASE("fp8: the fnuz host types follow their formats", "[fp8]") {
  using tk::f8e4b8, tk::f8e5b16;
  // e4b8: bias 8, every code a number but 0x80 (NaN), largest 240, smallest subnormal 2^-10.
  CHECK(float(f8e4b8::from_bits(0x40)) == 1.0f);
  CHECK(float(f8e4b8::from_bits(0x7F)) == 240.0f);
  CHECK(float(f8e4b8::from_bits(0x78)) == 128.0f);
  CHECK(float(f8e4b8::from_bits(0x01)) == std::ldexp(1.0f, -10));
  CHECK(float(f8e4b8::from_bits(0xFF)) == -240.0f);
  CHECK(std::isnan(float(f8e4b8::from_bits(0x80))));
  // e5b16: bias 16, largest 57344 (exponent 11111 holds numbers), smallest subnormal 2^-17.
  CHECK(float(f8e5b16::from_bits(0x40)) == 1.0f);
  CHECK(float(f8e5b16::from_bits(0x7F)) == 57344.0f);
  CHECK(float(f8e5b16::from_bits(0x7C)) == 32768.0f);
  CHECK(float(f8e5b16::from_bits(0x01)) == std::ldexp(1.0f, -17));
  CHECK(std::isnan(float(f8e5b16::from_bits(0x80))));
  // Every code but NaN encodes back to itself; zero has one code, whatever its sign; NaN is 0x80;
  // beyond the largest value (infinities too) saturates.
  for (int c = 0; c < 256; ++c) {
    const auto code = std::uint8_t(c);
    if (code != 0x80) {
      CHECK(f8e4b8(double(float(f8e4b8::from_bits(code)))).bits == code);
      CHECK(f8e5b16(double(float(f8e5b16::from_bits(code)))).bits == code);
    }
  }
  CHECK(f8e4b8(-0.0).bits == 0x00);
  CHECK(f8e4b8(-std::ldexp(1.0, -12)).bits == 0x00); // rounds to -0, which is 0
  CHECK(f8e5b16(std::numeric_limits<double>::quiet_NaN()).bits == 0x80);
  CHECK(f8e4b8(1000.0).bits == 0x7F);
  CHECK(f8e4b8(-std::numeric_limits<double>::infinity()).bits == 0xFF);
  CHECK(f8e4b8(1.0625).bits == 0x40); // halfway 1 and 1.125: even
  CHECK(f8e4b8(1.24, tk::rounding::rtz).bits == 0x41);
}

TEST_CASE("fp8: every code converts to f32 exactly", "[interpreter][numerics][fp8]") {
  SECTION("e4m3") { check_decode<tk::f8e4m3>(); }
  SECTION("e5m2") { check_decode<tk::f8e5m2>(); }
  SECTION("e4b8") { check_decode<tk::f8e4b8>(); }
  SECTION("e5b16") { check_decode<tk::f8e5b16>(); }
}

TEST_CASE("fp8: conversions round to nearest even or toward zero and saturate",
          "[interpreter][numerics][fp8]") {
  SECTION("e4m3") { check_encode<tk::f8e4m3>(); }
  SECTION("e5m2") { check_encode<tk::f8e5m2>(); }
  SECTION("e4b8") { check_encode<tk::f8e4b8>(); }
  SECTION("e5b16") { check_encode<tk::f8e5b16>(); }
}

TEST_CASE("fp8: arithmetic rounds each result to fp8 once", "[interpreter][numerics][fp8]") {
  TK_TEST_RANDOM(gen);
  std::vector<tk::f8e4m3> a(256), b(256), out(256);
  std::vector<tk::f8e5m2> c(256);
  std::vector<tk::half> mixed(256);
  for (std::size_t k = 0; k < 256; ++k) {
    a[k] = random_finite<tk::f8e4m3>(gen);
    b[k] = random_finite<tk::f8e4m3>(gen);
    c[k] = random_finite<tk::f8e5m2>(gen);
  }
  tk_test::run(arithmetic, tk::grid(1), out, mixed, a, b, c);
  int mismatches = 0;
  for (std::size_t k = 0; k < 256; ++k) {
    const double x = float(a[k]), y = float(b[k]);
    const tk::f8e4m3 product(x * y); // exact in double, rounded once
    const tk::f8e4m3 want(double(float(product)) + x);
    const tk::half want_mixed(x + double(float(c[k])));
    if ((out[k].bits != want.bits || mixed[k].bits != want_mixed.bits) && mismatches++ < 8)
      UNSCOPED_INFO(x << " * " << y << " + " << x << ": got " << float(out[k]) << ", want "
                      << float(want) << "; mixed got " << float(mixed[k]) << ", want "
                      << float(want_mixed));
  }
  CHECK(mismatches == 0);
}

TEST_CASE("fp8: fnuz arithmetic and conversions between fnuz types",
          "[interpreter][numerics][fp8]") {
  TK_TEST_RANDOM(gen);
  std::vector<tk::f8e4b8> a(256), b(256), out(256), converted(256);
  std::vector<tk::f8e5b16> c(256);
  for (std::size_t k = 0; k < 256; ++k) {
    a[k] = random_finite<tk::f8e4b8>(gen);
    b[k] = random_finite<tk::f8e4b8>(gen);
    c[k] = random_finite<tk::f8e5b16>(gen);
  }
  tk_test::run(fnuz_arithmetic, tk::grid(1), out, converted, a, b, c);
  int mismatches = 0;
  for (std::size_t k = 0; k < 256; ++k) {
    const double x = float(a[k]), y = float(b[k]), z = float(c[k]);
    const tk::f8e4b8 want(double(float(tk::f8e4b8(x * y))) + x);
    const tk::f8e5b16 quarter(z * 0.25);
    const tk::f8e4b8 want_converted(double(float(tk::f8e5b16(z - double(float(quarter))))));
    if ((out[k].bits != want.bits || converted[k].bits != want_converted.bits) && mismatches++ < 8)
      UNSCOPED_INFO(x << " * " << y << " + " << x << ": got " << float(out[k]) << ", want "
                      << float(want) << "; " << z << " - " << z << " / 4 got "
                      << float(converted[k]) << ", want " << float(want_converted));
  }
  CHECK(mismatches == 0);
}

TEST_CASE("fp8: zeros and literals of an fp8 type", "[interpreter][numerics][fp8]") {
  std::vector<tk::f8e4m3> in(256), out(256);
  for (std::size_t k = 0; k < 256; ++k)
    in[k] = k == 0x7F || k == 0xFF ? tk::f8e4m3(1.0f) : tk::f8e4m3::from_bits(std::uint8_t(k));
  tk_test::run(literals, tk::grid(1), out, in);
  int mismatches = 0;
  for (std::size_t k = 0; k < 256; ++k) {
    const tk::f8e4m3 half_of(double(float(in[k])) * 0.5); // each op rounded to e4m3
    const tk::f8e4m3 want(double(float(half_of)) + 0.0);  // -0 + 0 is +0
    if (out[k].bits != want.bits && mismatches++ < 8)
      UNSCOPED_INFO(float(in[k]) << " * 0.5: got " << float(out[k]) << ", want " << float(want));
  }
  CHECK(mismatches == 0);
}

TEST_CASE("fp8: a rounding mode only for narrowing float casts", "[interpreter][errors][fp8]") {
  if constexpr (!tk_test::on_gpu) {
    std::vector<int> in(16);
    std::vector<float> out(16);
    tk_test::expect_error("interpreter_fp8.cpp", rounding_line,
                          "tk::cast: a rounding mode applies only to a float conversion to a "
                          "narrower float type, not i32 to f32",
                          [&] { bad_rounding.interpret(tk::grid(1), out, in); });
  } else {
    SUCCEED("errors are checked by the interpreter");
  }
}

/// @file interpreter_fp8.cpp
/// fp8 element types (tk::f8e4m3, tk::f8e5m2): the host types' values against the formats'
/// definitions; every one of the 256 codes of each decoded by a kernel; f32, f16 and bf16 values
/// around every rounding boundary encoded with both rounding modes; arithmetic on fp8 blocks.
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

TEST_CASE("fp8: every code converts to f32 exactly", "[interpreter][numerics][fp8]") {
  std::vector<tk::f8e4m3> e4m3(256);
  std::vector<tk::f8e5m2> e5m2(256);
  for (int c = 0; c < 256; ++c) {
    e4m3[std::size_t(c)] = tk::f8e4m3::from_bits(std::uint8_t(c));
    e5m2[std::size_t(c)] = tk::f8e5m2::from_bits(std::uint8_t(c));
  }
  std::vector<float> out4(256), out5(256);
  tk_test::run(decode<tk::f8e4m3>, tk::grid(1), out4, e4m3);
  tk_test::run(decode<tk::f8e5m2>, tk::grid(1), out5, e5m2);
  int mismatches = 0;
  for (std::size_t c = 0; c < 256; ++c) {
    const float w4 = float(e4m3[c]), w5 = float(e5m2[c]);
    // NaN: any NaN, its sign kept; otherwise the exact bits.
    const bool ok4 = std::isnan(w4)
                         ? std::isnan(out4[c]) && std::signbit(out4[c]) == std::signbit(w4)
                         : bits_of(out4[c]) == bits_of(w4);
    const bool ok5 = std::isnan(w5)
                         ? std::isnan(out5[c]) && std::signbit(out5[c]) == std::signbit(w5)
                         : bits_of(out5[c]) == bits_of(w5);
    if ((!ok4 || !ok5) && mismatches++ < 8)
      UNSCOPED_INFO("code 0x" << std::hex << c << std::dec << ": e4m3 " << out4[c] << " want " << w4
                              << ", e5m2 " << out5[c] << " want " << w5);
  }
  CHECK(mismatches == 0);
}

TEST_CASE("fp8: conversions round to nearest even or toward zero and saturate",
          "[interpreter][numerics][fp8]") {
  SECTION("e4m3") { check_encode<tk::f8e4m3>(); }
  SECTION("e5m2") { check_encode<tk::f8e5m2>(); }
}

TEST_CASE("fp8: arithmetic rounds each result to fp8 once", "[interpreter][numerics][fp8]") {
  TK_TEST_RANDOM(gen);
  std::vector<tk::f8e4m3> a(256), b(256), out(256);
  std::vector<tk::f8e5m2> c(256);
  std::vector<tk::half> mixed(256);
  for (std::size_t k = 0; k < 256; ++k) {
    auto finite = [&](auto type) { // a random finite code
      using F8 = decltype(type);
      for (;;) {
        const auto x = F8::from_bits(std::uint8_t(gen() & 0xFF));
        if (std::isfinite(float(x)))
          return x;
      }
    };
    a[k] = finite(tk::f8e4m3{});
    b[k] = finite(tk::f8e4m3{});
    c[k] = finite(tk::f8e5m2{});
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

/// @file float8.hpp
/// Host-side 8-bit floating-point storage types, `tk::f8e4m3` and `tk::f8e5m2` (Triton's
/// `float8e4nv` and `float8e5`, MLIR's `f8E4M3FN` and `f8E5M2`), and the "fnuz" variants
/// `tk::f8e4b8` and `tk::f8e5b16` (Triton's `float8e4b8` and `float8e5b16`, MLIR's `f8E4M3FNUZ`
/// and `f8E5M2FNUZ`). Conversions to them saturate, as the GPU's `cvt.satfinite` does: a value
/// beyond the largest finite one (infinity included) becomes that value with its sign, and NaN
/// stays NaN. The interpreter rounds the same way, so its results match the GPU's bit for bit.
///
/// - e4m3: 4 exponent bits (bias 7), 3 fraction bits, no infinities; S.1111.111 is NaN, the
///   largest finite value 448, the smallest subnormal 2^-9.
/// - e5m2: IEEE 754-style, 5 exponent bits (bias 15), 2 fraction bits, infinities and NaNs; the
///   largest finite value 57344, the smallest subnormal 2^-16.
/// - e4b8 and e5b16 ("finite, no negative zero"): e4m3 and e5m2 with the bias one larger (8 and
///   16), no infinities, every exponent for numbers, and 0x80 (what would be -0) the only NaN.
///   Largest finite values 240 and 57344; smallest subnormals 2^-10 and 2^-17. GPUs other than
///   AMD's have no instructions for them: they are storage and conversion types.
#pragma once

#include <tk/float16.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace tk {
namespace detail {

/// An 8-bit float format: `ieee` formats have infinities and the all-ones exponent for NaNs;
/// "fn" ones (e4m3) use that exponent for normal numbers but the all-ones pattern; `fnuz` ones
/// use every pattern for numbers but 0x80, their NaN, and have a bias one larger.
struct fp8_format {
  int mantissa_bits, exponent_bits;
  bool ieee, fnuz = false;

  constexpr int bias() const { return (1 << (exponent_bits - 1)) - (fnuz ? 0 : 1); }
  constexpr int min_exponent() const { return 1 - bias(); }
  /// The largest finite value: 448 (e4m3), 57344 (e5m2, e5b16) or 240 (e4b8).
  double max_finite() const {
    const int top = (1 << exponent_bits) - (ieee ? 2 : 1) - bias();
    const int fraction = (1 << mantissa_bits) - (ieee || fnuz ? 1 : 2);
    return std::ldexp(1.0 + std::ldexp(double(fraction), -mantissa_bits), top);
  }
  /// The pattern of NaN.
  constexpr std::uint8_t nan_bits() const { return fnuz ? 0x80 : 0x7F; }
};

inline constexpr fp8_format e4m3_format{3, 4, false}, e5m2_format{2, 5, true},
    e4b8_format{3, 4, false, true}, e5b16_format{2, 5, false, true};

/// Rounds `x` to a value of the format with `mode`, saturating at the largest finite value
/// (infinities too); NaN stays NaN.
inline double round_to_fp8(double x, fp8_format format, rounding mode) {
  if (std::isnan(x) || x == 0)
    return x;
  const double max = format.max_finite();
  if (std::isinf(x))
    return std::copysign(max, x);
  int e = 0;
  std::frexp(x, &e); // |x| = m * 2^e with m in [0.5, 1)
  const int exponent = e - 1 < format.min_exponent() ? format.min_exponent() : e - 1;
  const double quantum = std::ldexp(1.0, exponent - format.mantissa_bits);
  const double steps = x / quantum; // exact: a power-of-two scaling
  const double rounded =
      (mode == rounding::rtz ? std::trunc(steps) : std::nearbyint(steps)) * quantum;
  if (std::fabs(rounded) > max)
    return std::copysign(max, x);
  if (rounded == 0) // fnuz formats have no -0
    return format.fnuz ? 0.0 : std::copysign(0.0, x);
  return rounded;
}

/// The bit pattern of `x`, a value of the format (from round_to_fp8); NaN is 0x7F (0x80 for
/// fnuz formats, whose zero has no sign).
inline std::uint8_t encode_fp8(double x, fp8_format format) {
  if (std::isnan(x))
    return format.nan_bits();
  const auto sign = std::uint8_t(std::signbit(x) && !(format.fnuz && x == 0) ? 0x80 : 0);
  const double a = std::fabs(x);
  if (std::isinf(a)) // e5m2 only: round_to_fp8 never makes one
    return std::uint8_t(sign | (((1u << format.exponent_bits) - 1) << format.mantissa_bits));
  if (a == 0)
    return sign;
  int e = 0;
  std::frexp(a, &e);
  const int biased = e - 1 + format.bias();
  if (biased <= 0) // subnormal: a = fraction * 2^(min_exponent - mantissa_bits)
    return std::uint8_t(sign |
                        unsigned(std::ldexp(a, format.mantissa_bits - format.min_exponent())));
  const double fraction = std::ldexp(a, -(e - 1)) - 1.0; // in [0, 1)
  return std::uint8_t(sign | unsigned(biased << format.mantissa_bits) |
                      unsigned(std::ldexp(fraction, format.mantissa_bits)));
}

/// The value of the bit pattern `bits` (exact).
inline double decode_fp8(std::uint8_t bits, fp8_format format) {
  const bool negative = bits & 0x80;
  const int field = (bits >> format.mantissa_bits) & ((1 << format.exponent_bits) - 1);
  const unsigned fraction = bits & ((1u << format.mantissa_bits) - 1);
  const int all_ones = (1 << format.exponent_bits) - 1;
  double magnitude;
  if (format.ieee && field == all_ones)
    magnitude = fraction ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  else if (format.fnuz ? bits == 0x80 : !format.ieee && (bits & 0x7F) == 0x7F)
    magnitude = std::numeric_limits<double>::quiet_NaN();
  else if (field == 0)
    magnitude = std::ldexp(double(fraction), format.min_exponent() - format.mantissa_bits);
  else
    magnitude = std::ldexp(1.0 + std::ldexp(double(fraction), -format.mantissa_bits),
                           field - format.bias());
  return negative ? -magnitude : magnitude;
}

/// A storage type of one of the formats. Converting a `float` or `double` rounds to nearest
/// even and saturates; `round(x, tk::rounding::rtz)` rounds toward zero.
template <const fp8_format &Format> struct float8 {
  std::uint8_t bits = 0;

  float8() = default;
  float8(float value) : float8(double(value)) {}
  explicit float8(double value, rounding mode = rounding::rtne)
      : bits(encode_fp8(round_to_fp8(value, Format, mode), Format)) {}
  operator float() const { return float(decode_fp8(bits, Format)); }

  static float8 from_bits(std::uint8_t b) {
    float8 x;
    x.bits = b;
    return x;
  }
  friend bool operator==(float8 a, float8 b) { return float(a) == float(b); }
};

} // namespace detail

/// 8-bit float, 4 exponent and 3 fraction bits, no infinities (Triton's `float8e4nv`).
using f8e4m3 = detail::float8<detail::e4m3_format>;
/// 8-bit float, 5 exponent and 2 fraction bits, IEEE-style (Triton's `float8e5`).
using f8e5m2 = detail::float8<detail::e5m2_format>;
/// 8-bit float, 4 exponent (bias 8) and 3 fraction bits, finite, no -0 (Triton's `float8e4b8`).
using f8e4b8 = detail::float8<detail::e4b8_format>;
/// 8-bit float, 5 exponent (bias 16) and 2 fraction bits, finite, no -0 (Triton's
/// `float8e5b16`).
using f8e5b16 = detail::float8<detail::e5b16_format>;

static_assert(sizeof(f8e4m3) == 1 && sizeof(f8e5m2) == 1 && sizeof(f8e4b8) == 1 &&
              sizeof(f8e5b16) == 1);

} // namespace tk

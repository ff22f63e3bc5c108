/// @file float16.hpp
/// Host-side 16-bit floating-point storage types, `tk::half` (IEEE binary16) and `tk::bfloat16`,
/// with round-to-nearest-even conversions. They are the element types of f16/bf16 buffers and the
/// interpreter uses the same rounding, so its results match the GPU's bit for bit where the GPU
/// rounds once per operation.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace tk {

/// The rounding of a conversion to a narrower float type (Triton's `fp_downcast_rounding`):
/// to nearest, ties to even (the default), or toward zero.
enum class rounding { rtne, rtz };

namespace detail {

/// Rounds `x` to the nearest value (ties to even) of a binary format with `mantissa_bits` stored
/// fraction bits and `exponent_bits` exponent bits; overflow gives infinity, tiny values become
/// subnormal or zero as IEEE 754 prescribes. With `rounding::rtz`, toward zero: an overflow
/// gives the largest finite value.
inline double round_to_format(double x, int mantissa_bits, int exponent_bits,
                              rounding mode = rounding::rtne) {
  if (x == 0 || !std::isfinite(x))
    return x;
  const int emax = (1 << (exponent_bits - 1)) - 1;
  const int emin = 1 - emax;
  int e = 0;
  std::frexp(x, &e); // |x| = m * 2^e with m in [0.5, 1)
  const int exponent = (e - 1 < emin) ? emin : e - 1;
  const double quantum = std::ldexp(1.0, exponent - mantissa_bits);
  const double steps = x / quantum; // exact: a power-of-two scaling
  const double rounded =
      (mode == rounding::rtz ? std::trunc(steps) : std::nearbyint(steps)) * quantum;
  const double max_finite = std::ldexp(2.0 - std::ldexp(1.0, -mantissa_bits), emax);
  if (std::fabs(rounded) > max_finite) // toward zero, an overflow stops at the largest finite
    return mode == rounding::rtz ? std::copysign(max_finite, x)
                                 : std::copysign(std::numeric_limits<double>::infinity(), x);
  return rounded == 0 ? std::copysign(0.0, x) : rounded;
}

/// Rounds the f32 value `x` to TF32 (10 stored fraction bits, f32's exponent range) the way the
/// tensor cores read an f32 register as a TF32 operand: toward zero, the low 13 bits of the
/// significand dropped. Never overflows; subnormals are truncated like normal numbers; NaN and
/// infinities are kept. `x` must be representable as a float (it is converted first).
inline double round_to_tf32(double x) {
  if (!std::isfinite(x))
    return x;
  std::uint32_t bits = 0;
  const float f = static_cast<float>(x);
  std::memcpy(&bits, &f, sizeof bits);
  bits &= ~std::uint32_t(0x1fff);
  float r = 0;
  std::memcpy(&r, &bits, sizeof r);
  return r;
}

/// Encodes a value already representable in the format into its bit pattern.
inline std::uint16_t encode_16(double x, int mantissa_bits, int exponent_bits) {
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const std::uint16_t sign = std::signbit(x) ? std::uint16_t(1u << 15) : std::uint16_t(0);
  const std::uint16_t exp_mask = std::uint16_t(((1u << exponent_bits) - 1) << mantissa_bits);
  if (std::isnan(x))
    return std::uint16_t(sign | exp_mask | (1u << (mantissa_bits - 1)));
  if (std::isinf(x))
    return std::uint16_t(sign | exp_mask);
  const double a = std::fabs(x);
  if (a == 0)
    return sign;
  int e = 0;
  std::frexp(a, &e);
  int biased = e - 1 + bias;
  if (biased <= 0) // subnormal: value = fraction * 2^(1 - bias - mantissa_bits)
    return std::uint16_t(sign | std::uint16_t(std::ldexp(a, bias - 1 + mantissa_bits)));
  const double fraction = std::ldexp(a, -(e - 1)) - 1.0; // in [0, 1)
  return std::uint16_t(sign | (biased << mantissa_bits) |
                       std::uint16_t(std::ldexp(fraction, mantissa_bits)));
}

inline double decode_16(std::uint16_t bits, int mantissa_bits, int exponent_bits) {
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const bool negative = bits >> 15;
  const int biased = (bits >> mantissa_bits) & ((1 << exponent_bits) - 1);
  const unsigned fraction = bits & ((1u << mantissa_bits) - 1);
  double magnitude;
  if (biased == (1 << exponent_bits) - 1)
    magnitude = fraction ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  else if (biased == 0)
    magnitude = std::ldexp(double(fraction), 1 - bias - mantissa_bits);
  else
    magnitude = std::ldexp(1.0 + std::ldexp(double(fraction), -mantissa_bits), biased - bias);
  return negative ? -magnitude : magnitude;
}

} // namespace detail

/// IEEE 754 binary16. Converts to and from `float` with round-to-nearest-even.
struct half {
  static constexpr int mantissa_bits = 10, exponent_bits = 5;
  std::uint16_t bits = 0;

  half() = default;
  half(float value) : half(double(value)) {}
  explicit half(double value)
      : bits(detail::encode_16(detail::round_to_format(value, mantissa_bits, exponent_bits),
                               mantissa_bits, exponent_bits)) {}
  operator float() const { return float(detail::decode_16(bits, mantissa_bits, exponent_bits)); }

  static half from_bits(std::uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
  friend bool operator==(half a, half b) { return float(a) == float(b); }
};

/// bfloat16: the upper half of an IEEE binary32 (8 exponent bits, 7 fraction bits).
struct bfloat16 {
  static constexpr int mantissa_bits = 7, exponent_bits = 8;
  std::uint16_t bits = 0;

  bfloat16() = default;
  bfloat16(float value) : bfloat16(double(value)) {}
  explicit bfloat16(double value)
      : bits(detail::encode_16(detail::round_to_format(value, mantissa_bits, exponent_bits),
                               mantissa_bits, exponent_bits)) {}
  operator float() const { return float(detail::decode_16(bits, mantissa_bits, exponent_bits)); }

  static bfloat16 from_bits(std::uint16_t b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }
  friend bool operator==(bfloat16 a, bfloat16 b) { return float(a) == float(b); }
};

static_assert(sizeof(half) == 2 && sizeof(bfloat16) == 2);

} // namespace tk

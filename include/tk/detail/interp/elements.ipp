/// @file elements.ipp
/// The bodies of the functions elements.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/interp/elements.hpp>

namespace tk::detail {

TK_DECL std::int64_t wrap_int(std::int64_t x, dtype d) {
  switch (d) {
  case dtype::i1:
    return x & 1;
  case dtype::i8:
    return std::int8_t(x);
  case dtype::i16:
    return std::int16_t(x);
  case dtype::i32:
    return std::int32_t(x);
  case dtype::u8:
    return std::uint8_t(x);
  case dtype::u16:
    return std::uint16_t(x);
  case dtype::u32:
    return std::uint32_t(x);
  default:
    return x; // i64, u64 (as its bit pattern), pointers
  }
}

TK_DECL double round_float(double x, dtype d, rounding mode) {
  switch (d) {
  case dtype::f8e4m3:
    return round_to_fp8(x, e4m3_format, mode);
  case dtype::f8e5m2:
    return round_to_fp8(x, e5m2_format, mode);
  case dtype::f8e4b8:
    return round_to_fp8(x, e4b8_format, mode);
  case dtype::f8e5b16:
    return round_to_fp8(x, e5b16_format, mode);
  case dtype::f16:
    return round_to_format(x, half::mantissa_bits, half::exponent_bits, mode);
  case dtype::bf16:
    return round_to_format(x, bfloat16::mantissa_bits, bfloat16::exponent_bits, mode);
  case dtype::f32:
    return mode == rounding::rtz ? round_to_format(x, 23, 8, mode) : double(float(x));
  default:
    return x;
  }
}

TK_DECL std::int64_t float_to_int(double x, dtype d) {
  if (std::isnan(x))
    return 0;
  x = std::trunc(x);
  if (d == dtype::i1)
    return x != 0;
  if (d == dtype::u64) {
    if (x <= 0)
      return 0;
    if (x >= 18446744073709551616.0)
      return -1;
    return std::int64_t(std::uint64_t(x));
  }
  const int bits = bit_width(d);
  double lo, hi;
  if (is_unsigned(d)) {
    lo = 0;
    hi = std::ldexp(1.0, bits) - 1;
  } else {
    lo = -std::ldexp(1.0, bits - 1);
    hi = std::ldexp(1.0, bits - 1) - 1;
  }
  if (bits == 64) {
    if (x >= 9223372036854775808.0)
      return INT64_MAX;
    if (x < -9223372036854775808.0)
      return INT64_MIN;
    return std::int64_t(x);
  }
  return std::int64_t(x < lo ? lo : (x > hi ? hi : x));
}

TK_DECL void load_element(const void *address, dtype d, double &f, std::int64_t &i) {
  auto read = [&](auto tag) {
    decltype(tag) x;
    std::memcpy(&x, address, sizeof x);
    return x;
  };
  switch (d) {
  case dtype::i1:
    i = read(std::uint8_t{}) != 0;
    break;
  case dtype::i8:
    i = read(std::int8_t{});
    break;
  case dtype::i16:
    i = read(std::int16_t{});
    break;
  case dtype::i32:
    i = read(std::int32_t{});
    break;
  case dtype::i64:
  case dtype::u64:
  case dtype::ptr:
    i = read(std::int64_t{});
    break;
  case dtype::u8:
    i = read(std::uint8_t{});
    break;
  case dtype::u16:
    i = read(std::uint16_t{});
    break;
  case dtype::u32:
    i = read(std::uint32_t{});
    break;
  case dtype::f8e4m3:
    f = decode_fp8(read(std::uint8_t{}), e4m3_format);
    break;
  case dtype::f8e5m2:
    f = decode_fp8(read(std::uint8_t{}), e5m2_format);
    break;
  case dtype::f8e4b8:
    f = decode_fp8(read(std::uint8_t{}), e4b8_format);
    break;
  case dtype::f8e5b16:
    f = decode_fp8(read(std::uint8_t{}), e5b16_format);
    break;
  case dtype::f16:
    f = float(half::from_bits(read(std::uint16_t{})));
    break;
  case dtype::bf16:
    f = float(bfloat16::from_bits(read(std::uint16_t{})));
    break;
  case dtype::f32:
    f = read(float{});
    break;
  case dtype::f64:
    f = read(double{});
    break;
  default:
    break;
  }
}

TK_DECL void store_element(void *address, dtype d, double f, std::int64_t i) {
  auto write = [&](auto x) { std::memcpy(address, &x, sizeof x); };
  switch (d) {
  case dtype::i1:
  case dtype::i8:
  case dtype::u8:
    write(std::uint8_t(i));
    break;
  case dtype::i16:
  case dtype::u16:
    write(std::uint16_t(i));
    break;
  case dtype::i32:
  case dtype::u32:
    write(std::uint32_t(i));
    break;
  case dtype::i64:
  case dtype::u64:
  case dtype::ptr:
    write(i);
    break;
  case dtype::f8e4m3:
    write(encode_fp8(f, e4m3_format));
    break;
  case dtype::f8e5m2:
    write(encode_fp8(f, e5m2_format));
    break;
  case dtype::f8e4b8:
    write(encode_fp8(f, e4b8_format));
    break;
  case dtype::f8e5b16:
    write(encode_fp8(f, e5b16_format));
    break;
  case dtype::f16:
    write(half(f).bits);
    break;
  case dtype::bf16:
    write(bfloat16(f).bits);
    break;
  case dtype::f32:
    write(float(f));
    break;
  case dtype::f64:
    write(f);
    break;
  default:
    break;
  }
}

} // namespace tk::detail

/// @file dtype.hpp
/// Element types of blocks: the C++ types a kernel may use, their `tk::dtype` codes, and Triton's
/// type-promotion rules. The rules are `constexpr` so that the C++ type of an expression and the
/// dtype the trace records come from the same table.
#pragma once

#include <tk/float16.hpp>
#include <tk/float8.hpp>

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>

namespace tk {

enum class dtype : std::uint8_t {
  i1,
  i8,
  i16,
  i32,
  i64,
  u8,
  u16,
  u32,
  u64,
  f8e4m3,  ///< 8-bit float, 4 exponent bits, no infinities (tk::f8e4m3)
  f8e5m2,  ///< 8-bit float, 5 exponent bits (tk::f8e5m2)
  f8e4b8,  ///< 8-bit float, 4 exponent bits with bias 8, finite, no -0 (tk::f8e4b8)
  f8e5b16, ///< 8-bit float, 5 exponent bits with bias 16, finite, no -0 (tk::f8e5b16)
  f16,
  bf16,
  f32,
  f64,
  ptr,        ///< a pointer; what it points to is tracked beside it
  weak_int,   ///< a C++ integer literal: takes the type of the block it meets
  weak_float, ///< a C++ floating-point literal: likewise
};

/// Every element type a block may hold, pointers aside. `bool` is Triton's i1.
inline constexpr auto element_types =
    boost::hana::tuple_t<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                         std::uint16_t, std::uint32_t, std::uint64_t, f8e4m3, f8e5m2, f8e4b8,
                         f8e5b16, half, bfloat16, float, double>;

constexpr bool is_fp8(dtype d) {
  return d == dtype::f8e4m3 || d == dtype::f8e5m2 || d == dtype::f8e4b8 || d == dtype::f8e5b16;
}
constexpr bool is_float(dtype d) {
  return is_fp8(d) || d == dtype::f16 || d == dtype::bf16 || d == dtype::f32 || d == dtype::f64 ||
         d == dtype::weak_float;
}
constexpr bool is_int(dtype d) { return !is_float(d) && d != dtype::ptr; } // i1 included
constexpr bool is_unsigned(dtype d) {
  return d == dtype::i1 || d == dtype::u8 || d == dtype::u16 || d == dtype::u32 || d == dtype::u64;
}
constexpr bool is_weak(dtype d) { return d == dtype::weak_int || d == dtype::weak_float; }

constexpr int bit_width(dtype d) {
  switch (d) {
  case dtype::i1:
    return 1;
  case dtype::i8:
  case dtype::u8:
  case dtype::f8e4m3:
  case dtype::f8e5m2:
  case dtype::f8e4b8:
  case dtype::f8e5b16:
    return 8;
  case dtype::i16:
  case dtype::u16:
  case dtype::f16:
  case dtype::bf16:
    return 16;
  case dtype::i32:
  case dtype::u32:
  case dtype::f32:
    return 32;
  default:
    return 64;
  }
}

/// The name Triton and the printed IR use (`u32` prints as `i32` in IR, whose integers are
/// signless).
constexpr std::string_view name(dtype d) {
  constexpr std::string_view names[] = {
      "i1",     "i8",     "i16",     "i32", "i64",  "u8",  "u16", "u32", "u64", "f8e4m3",
      "f8e5m2", "f8e4b8", "f8e5b16", "f16", "bf16", "f32", "f64", "ptr", "int", "float"};
  return names[static_cast<int>(d)];
}

namespace detail {

template <class T> struct dtype_of_impl;
#define TK_DTYPE_OF(T, D)                                                                          \
  template <> struct dtype_of_impl<T> {                                                            \
    static constexpr dtype value = dtype::D;                                                       \
  }
TK_DTYPE_OF(bool, i1);
TK_DTYPE_OF(std::int8_t, i8);
TK_DTYPE_OF(std::int16_t, i16);
TK_DTYPE_OF(std::int32_t, i32);
TK_DTYPE_OF(std::int64_t, i64);
TK_DTYPE_OF(std::uint8_t, u8);
TK_DTYPE_OF(std::uint16_t, u16);
TK_DTYPE_OF(std::uint32_t, u32);
TK_DTYPE_OF(std::uint64_t, u64);
TK_DTYPE_OF(f8e4m3, f8e4m3);
TK_DTYPE_OF(f8e5m2, f8e5m2);
TK_DTYPE_OF(f8e4b8, f8e4b8);
TK_DTYPE_OF(f8e5b16, f8e5b16);
TK_DTYPE_OF(half, f16);
TK_DTYPE_OF(bfloat16, bf16);
TK_DTYPE_OF(float, f32);
TK_DTYPE_OF(double, f64);
#undef TK_DTYPE_OF
template <class T> struct dtype_of_impl<T *> {
  static constexpr dtype value = dtype::ptr;
};

template <class T>
concept has_dtype = requires { dtype_of_impl<T>::value; };

} // namespace detail

/// A scalar element type: one of `element_types`.
template <class T>
concept scalar_element = detail::has_dtype<T> && !std::is_pointer_v<T>;

/// Anything a block may hold: a scalar element type or a pointer to one (const or not).
template <class T>
concept element = scalar_element<T> || (std::is_pointer_v<T> &&
                                        scalar_element<std::remove_cv_t<std::remove_pointer_t<T>>>);

template <element T> inline constexpr dtype dtype_of = detail::dtype_of_impl<T>::value;

/// The C++ type for a dtype (the inverse of `dtype_of`, for scalar dtypes).
template <dtype D> struct type_of_impl;
template <dtype D> using type_of = typename type_of_impl<D>::type;
#define TK_TYPE_OF(D, T)                                                                           \
  template <> struct type_of_impl<dtype::D> {                                                      \
    using type = T;                                                                                \
  }
TK_TYPE_OF(i1, bool);
TK_TYPE_OF(i8, std::int8_t);
TK_TYPE_OF(i16, std::int16_t);
TK_TYPE_OF(i32, std::int32_t);
TK_TYPE_OF(i64, std::int64_t);
TK_TYPE_OF(u8, std::uint8_t);
TK_TYPE_OF(u16, std::uint16_t);
TK_TYPE_OF(u32, std::uint32_t);
TK_TYPE_OF(u64, std::uint64_t);
TK_TYPE_OF(f8e4m3, f8e4m3);
TK_TYPE_OF(f8e5m2, f8e5m2);
TK_TYPE_OF(f8e4b8, f8e4b8);
TK_TYPE_OF(f8e5b16, f8e5b16);
TK_TYPE_OF(f16, half);
TK_TYPE_OF(bf16, bfloat16);
TK_TYPE_OF(f32, float);
TK_TYPE_OF(f64, double);
#undef TK_TYPE_OF

/// Maps a C++ arithmetic type to its canonical element type (`long long` → `std::int64_t`,
/// `char` → `std::int8_t`, ...).
template <class T> struct canonical_impl {
  using type = T;
};
template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
struct canonical_impl<T> {
  template <int Bytes, bool Signed> static auto pick() {
    if constexpr (Bytes == 1)
      return std::conditional_t<Signed, std::int8_t, std::uint8_t>{};
    else if constexpr (Bytes == 2)
      return std::conditional_t<Signed, std::int16_t, std::uint16_t>{};
    else if constexpr (Bytes == 4)
      return std::conditional_t<Signed, std::int32_t, std::uint32_t>{};
    else
      return std::conditional_t<Signed, std::int64_t, std::uint64_t>{};
  }
  using type = decltype(pick<sizeof(T), std::is_signed_v<T>>());
};
template <class T> using canonical = typename canonical_impl<std::remove_cv_t<T>>::type;

/// Triton's promotion of two integer dtypes: the wider; on a signedness clash the unsigned one
/// if it is at least as wide as the signed one.
constexpr dtype promote_ints(dtype a, dtype b) {
  if (a == b)
    return a;
  const int wa = bit_width(a), wb = bit_width(b);
  if (is_unsigned(a) == is_unsigned(b))
    return wa >= wb ? a : b;
  const dtype u = is_unsigned(a) ? a : b, s = is_unsigned(a) ? b : a;
  return bit_width(u) >= bit_width(s) ? u : s;
}

/// The dtype two operands are converted to before an arithmetic or comparison op (Triton's
/// `computation_type_impl`), weak literals included. Pointers are handled by the callers.
constexpr dtype promote(dtype a, dtype b) {
  if (is_weak(a) && is_weak(b)) // two literals (tk::where(c, 1.0, 0)): Python's defaults
    return a == dtype::weak_float || b == dtype::weak_float ? dtype::f32 : dtype::i32;
  if (is_weak(b) && !is_weak(a))
    return promote(b, a);
  if (a == dtype::weak_int)
    return b == dtype::i1 ? dtype::i32 : b;
  if (a == dtype::weak_float)
    return is_float(b) ? b : dtype::f32;
  if (a == dtype::f64 || b == dtype::f64)
    return dtype::f64;
  if (a == dtype::f32 || b == dtype::f32)
    return dtype::f32;
  if (is_float(a) && is_float(b)) {
    if (a == b)
      return a;
    if (a == dtype::f16 || b == dtype::f16) // f16 with an fp8 type: f16 (Triton's rule)
      return b == dtype::bf16 || a == dtype::bf16 ? dtype::f32 : dtype::f16;
    if (is_fp8(a) && is_fp8(b)) // the two fp8 types meet in f16
      return dtype::f16;
    return dtype::f32; // bf16 with f16 or an fp8 type
  }
  if (is_float(a))
    return a;
  if (is_float(b))
    return b;
  return promote_ints(a, b);
}

/// The accumulator dtype of `sum`/`cumsum`: narrow integers widen to 32 bits like Triton's.
constexpr dtype sum_dtype(dtype d) {
  if (is_int(d) && bit_width(d) < 32)
    return is_unsigned(d) ? dtype::u32 : dtype::i32;
  return d;
}

} // namespace tk

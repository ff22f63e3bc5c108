/// @file creation.hpp
/// Where blocks come from: program ids, ranges, constants; and the integer helpers kernels use to
/// size their launch (`cdiv`, `next_pow2`).
#pragma once

#include <tk/block.hpp>

#include <cstddef>
#include <limits>

namespace tk {

/// The id of this program instance along grid axis 0, 1 or 2.
inline i32 program_id(int axis, std::source_location loc = std::source_location::current()) {
  return i32(detail::program_id(axis, false, loc));
}

/// The number of program instances along grid axis 0, 1 or 2.
inline i32 num_programs(int axis, std::source_location loc = std::source_location::current()) {
  return i32(detail::program_id(axis, true, loc));
}

/// The integers `start, start + 1, ..., end - 1` as a 1-D i32 block; `end - start` must be a
/// power of two.
inline block<std::int32_t, 1> arange(std::int64_t start, std::int64_t end,
                                     std::source_location loc = std::source_location::current()) {
  return block<std::int32_t, 1>(detail::arange(start, end, loc));
}

/// A block as a bound of `arange`: a run-time value where a trace-time one is needed. Usually a
/// block size that reached the kernel as a `tk::i32`: a `tk::i32` parameter, or an `auto` one
/// given a plain int. Without this overload the error is the compiler's own conversion failure.
template <class Start, class End>
  requires(any_block<Start> || any_block<End>)
block<std::int32_t, 1> arange(const Start &, const End &,
                              std::source_location loc = std::source_location::current()) {
  static_assert(detail::always_false<Start, End>,
                "tk::arange: its bounds must be known when the kernel is traced, and this one is "
                "a run-time value (a tk::i32 kernel parameter, an auto parameter given a plain "
                "int, or a value computed in the kernel); for a block size, declare the parameter "
                "tk::constant<int> and pass tk::constant(BLOCK) at the launch");
  return arange(0, 1, loc);
}

/// A block of shape `shape` with every element `value`: `tk::full<float>({64, 64}, 0)`.
template <scalar_element T, std::size_t R>
block<T, int(R)> full(const std::int64_t (&shape)[R], T value,
                      std::source_location loc = std::source_location::current()) {
  detail::shape_t s(shape, shape + R);
  detail::check_block_shape(s, "tk::full", loc);
  return block<T, int(R)>(
      detail::materialize(detail::to_operand(value, loc), detail::elem_of<T>(), s, loc));
}

/// A block of shape `shape` filled with a scalar computed in the kernel.
template <scalar_element T, std::size_t R>
block<T, int(R)> full(const std::int64_t (&shape)[R], const scalar<T> &value,
                      std::source_location loc = std::source_location::current()) {
  detail::shape_t s(shape, shape + R);
  detail::check_block_shape(s, "tk::full", loc);
  return block<T, int(R)>(detail::broadcast_to(detail::operand_of(value.v_, loc).v, s, loc));
}

/// A scalar (rank-0 block) with the value `value`: `auto count = tk::full<std::int32_t>(0);`, the
/// same as `tk::i32 count = 0;`.
template <scalar_element T>
scalar<T> full(T value, std::source_location loc = std::source_location::current()) {
  return scalar<T>(
      detail::materialize(detail::to_operand(value, loc), detail::elem_of<T>(), {}, loc));
}

template <scalar_element T, std::size_t R>
block<T, int(R)> zeros(const std::int64_t (&shape)[R],
                       std::source_location loc = std::source_location::current()) {
  return full<T, R>(shape, T{}, loc);
}

/// Zeros of `x`'s element type and shape.
template <scalar_element T, int R>
block<T, R> zeros_like(const block<T, R> &x,
                       std::source_location loc = std::source_location::current()) {
  return block<T, R>(
      detail::const_value(detail::elem_of<T>(), detail::operand_of(x.v_, loc).v->shape, 0, 0, loc));
}

/// Infinity of a floating-point type, for `other` values and reduction identities.
template <class T> constexpr T inf() {
  static_assert(std::is_floating_point_v<T>, "tk::inf<T>: T must be float or double");
  return std::numeric_limits<T>::infinity();
}

/// Ceiling division of two non-negative integers (host side and trace time).
constexpr std::int64_t cdiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// The smallest power of two not below `n` (1 for n <= 1).
constexpr std::int64_t next_pow2(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n)
    p <<= 1;
  return p;
}

} // namespace tk

/// @file atomic.hpp
/// Atomic operations on global memory, Triton's `tl.atomic_*`: `tk::atomic_add`, `atomic_max`,
/// `atomic_min`, `atomic_and`, `atomic_or`, `atomic_xor`, `atomic_xchg` and `atomic_cas`. Each
/// lane reads its address, writes the combination of what it read and its operand in one
/// indivisible step, and returns what it read. The pointers decide the shape, as in tk::store.
#pragma once

#include <tk/detail/trace/atomics.hpp>
#include <tk/memory.hpp>

#include <cstdint>
#include <source_location>
#include <type_traits>

namespace tk {
namespace detail {

/// The user's operation; the IR's `kind` also depends on the pointee type (atomic_kind_for).
enum class atomic_op : unsigned char { add, max, min, bit_and, bit_or, bit_xor, xchg, cas };

template <class P> constexpr bool is_pointer_block() {
  if constexpr (any_block<P>)
    return std::is_pointer_v<element_of<P>>;
  else
    return false;
}

template <class P> constexpr bool points_to_const() {
  return std::is_const_v<std::remove_pointer_t<element_of<P>>>;
}

/// Whether `O` is defined on the pointee type of `P` (a block of pointers): i32, u32, i64 and u64
/// for every operation; f16, bf16, f32 and f64 for add; f32 and f64 for max, min, xchg and cas.
template <atomic_op O, class P> constexpr bool atomic_type_ok() {
  constexpr dtype d = dtype_of<pointee<P>>;
  constexpr bool integer = d == dtype::i32 || d == dtype::u32 || d == dtype::i64 || d == dtype::u64;
  constexpr bool wide_float = d == dtype::f32 || d == dtype::f64;
  if constexpr (O == atomic_op::add)
    return integer || wide_float || d == dtype::f16 || d == dtype::bf16;
  else if constexpr (O == atomic_op::max || O == atomic_op::min || O == atomic_op::xchg ||
                     O == atomic_op::cas)
    return integer || wide_float;
  else
    return integer;
}

/// The IR's `kind` for `O` on elements of type `T`: add or fadd; max, umax or fmax; ...
template <atomic_op O, class T> constexpr atomic_kind atomic_kind_for() {
  constexpr bool f = is_float(dtype_of<T>), u = is_unsigned(dtype_of<T>);
  switch (O) {
  case atomic_op::add:
    return f ? atomic_kind::fadd : atomic_kind::add;
  case atomic_op::max:
    return f ? atomic_kind::fmax : u ? atomic_kind::umax : atomic_kind::max;
  case atomic_op::min:
    return f ? atomic_kind::fmin : u ? atomic_kind::umin : atomic_kind::min;
  case atomic_op::bit_and:
    return atomic_kind::bit_and;
  case atomic_op::bit_or:
    return atomic_kind::bit_or;
  case atomic_op::bit_xor:
    return atomic_kind::bit_xor;
  default:
    return atomic_kind::xchg;
  }
}

/// The mask of an atomic that has none.
struct no_mask {};

template <class M> constexpr bool mask_ok() {
  if constexpr (any_block<M>)
    return std::is_same_v<element_of<M>, bool>;
  else
    return std::is_same_v<M, no_mask>;
}
template <class M> inline constexpr bool atomic_mask_ok = mask_ok<M>();

/// A third argument that is a mask, not a memory ordering or scope.
template <class M>
concept not_an_atomic_option = !std::is_same_v<M, sem> && !std::is_same_v<M, scope>;

template <atomic_op O, class P, class V, class M>
auto atomic_rmw_impl(const P &ptrs, const V &val, const M &mask, sem s, scope sc, const char *what,
                     loc_t loc) {
  using T = pointee<P>;
  value_ref m;
  if constexpr (!std::is_same_v<M, no_mask>)
    m = operand_of(mask.v_, loc).v;
  return block<T, rank_of<P>>(atomic_update(atomic_kind_for<O, T>(), operand_of(ptrs.v_, loc).v,
                                            to_operand(val, loc), m, s, sc, what, loc));
}

} // namespace detail

// Each operation is a checking function in `detail` (whose static_asserts name it) and four
// overloads: (ptr, val[, sem][, scope]), (ptr, val, scope), (ptr, val, mask[, sem][, scope]) and
// (ptr, val, mask, scope). Where a check fails, nothing else is instantiated (one error) and the
// result is an i32 scalar.
#define TK_ATOMIC_RMW(NAME, OP, TYPES)                                                             \
  namespace detail {                                                                               \
  template <class P, class V, class M>                                                             \
  auto NAME##_checked(const P &ptr, const V &val, const M &mask, sem s, scope sc, loc_t loc) {     \
    constexpr bool pointer_ok = is_pointer_block<P>();                                             \
    static_assert(pointer_ok, "tk::" #NAME ": the first argument must be a tk::ptr<T> or a block " \
                              "of pointers (a tk::ptr<T> plus integer offsets)");                  \
    constexpr bool writable = [] {                                                                 \
      if constexpr (pointer_ok)                                                                    \
        return !points_to_const<P>();                                                              \
      else                                                                                         \
        return true;                                                                               \
    }();                                                                                           \
    static_assert(writable, "tk::" #NAME ": the pointer points to const; declare the parameter "   \
                            "tk::ptr<T>, not tk::ptr<const T>");                                   \
    constexpr bool type_ok = [] {                                                                  \
      if constexpr (pointer_ok && writable)                                                        \
        return atomic_type_ok<atomic_op::OP, P>();                                                 \
      else                                                                                         \
        return true;                                                                               \
    }();                                                                                           \
    static_assert(type_ok, "tk::" #NAME ": the pointee type must be " TYPES);                      \
    static_assert(tk::operand<V>, "tk::" #NAME ": the value must be a block or a number");         \
    static_assert(atomic_mask_ok<M>,                                                               \
                  "tk::" #NAME ": the mask must be a boolean block, e.g. `offsets < n`");          \
    if constexpr (pointer_ok && writable && type_ok && tk::operand<V> && atomic_mask_ok<M>)        \
      return atomic_rmw_impl<atomic_op::OP>(ptr, val, mask, s, sc, "tk::" #NAME, loc);             \
    else                                                                                           \
      return block<std::int32_t, 0>();                                                             \
  }                                                                                                \
  }                                                                                                \
  template <class P, class V>                                                                      \
  auto NAME(const P &ptr, const V &val, sem s = sem::acq_rel, scope sc = scope::gpu,               \
            std::source_location loc = std::source_location::current()) {                          \
    return detail::NAME##_checked(ptr, val, detail::no_mask{}, s, sc, loc);                        \
  }                                                                                                \
  template <class P, class V>                                                                      \
  auto NAME(const P &ptr, const V &val, scope sc,                                                  \
            std::source_location loc = std::source_location::current()) {                          \
    return detail::NAME##_checked(ptr, val, detail::no_mask{}, sem::acq_rel, sc, loc);             \
  }                                                                                                \
  template <class P, class V, detail::not_an_atomic_option M>                                      \
  auto NAME(const P &ptr, const V &val, const M &mask, sem s = sem::acq_rel,                       \
            scope sc = scope::gpu, std::source_location loc = std::source_location::current()) {   \
    return detail::NAME##_checked(ptr, val, mask, s, sc, loc);                                     \
  }                                                                                                \
  template <class P, class V, detail::not_an_atomic_option M>                                      \
  auto NAME(const P &ptr, const V &val, const M &mask, scope sc,                                   \
            std::source_location loc = std::source_location::current()) {                          \
    return detail::NAME##_checked(ptr, val, mask, sem::acq_rel, sc, loc);                          \
  }

/// `old = *ptr; *ptr = old + val` per lane; returns `old`. Integers wrap; floats round each sum
/// to the pointee type (i32, u32, i64, u64, f16, bf16, f32, f64).
TK_ATOMIC_RMW(atomic_add, add, "i32, u32, i64, u64, f16, bf16, f32 or f64")
/// `*ptr = max(*ptr, val)` per lane (signed or unsigned as the pointee; f32 and f64 as the GPU
/// orders their bit patterns: -0 < +0, NaNs beyond the infinities of their sign); returns the old
/// value.
TK_ATOMIC_RMW(atomic_max, max, "i32, u32, i64, u64, f32 or f64")
/// `*ptr = min(*ptr, val)` per lane, as atomic_max orders values; returns the old value.
TK_ATOMIC_RMW(atomic_min, min, "i32, u32, i64, u64, f32 or f64")
/// `*ptr &= val` per lane; returns the old value.
TK_ATOMIC_RMW(atomic_and, bit_and, "i32, u32, i64 or u64 (an integer type of 32 or 64 bits)")
/// `*ptr |= val` per lane; returns the old value.
TK_ATOMIC_RMW(atomic_or, bit_or, "i32, u32, i64 or u64 (an integer type of 32 or 64 bits)")
/// `*ptr ^= val` per lane; returns the old value.
TK_ATOMIC_RMW(atomic_xor, bit_xor, "i32, u32, i64 or u64 (an integer type of 32 or 64 bits)")
/// `*ptr = val` per lane; returns the old value.
TK_ATOMIC_RMW(atomic_xchg, xchg, "i32, u32, i64, u64, f32 or f64")

#undef TK_ATOMIC_RMW

namespace detail {

template <class P, class C, class V>
auto atomic_cas_checked(const P &ptr, const C &cmp, const V &val, sem s, scope sc, loc_t loc) {
  constexpr bool pointer_ok = is_pointer_block<P>();
  static_assert(pointer_ok, "tk::atomic_cas: the first argument must be a tk::ptr<T> or a block "
                            "of pointers (a tk::ptr<T> plus integer offsets)");
  constexpr bool writable = [] {
    if constexpr (pointer_ok)
      return !points_to_const<P>();
    else
      return true;
  }();
  static_assert(writable, "tk::atomic_cas: the pointer points to const; declare the parameter "
                          "tk::ptr<T>, not tk::ptr<const T>");
  constexpr bool type_ok = [] {
    if constexpr (pointer_ok && writable)
      return atomic_type_ok<atomic_op::cas, P>();
    else
      return true;
  }();
  static_assert(type_ok, "tk::atomic_cas: the pointee type must be i32, u32, i64, u64, f32 or f64");
  static_assert(tk::operand<C> && tk::operand<V>,
                "tk::atomic_cas: the compared value and the value must be blocks or numbers");
  if constexpr (pointer_ok && writable && type_ok && tk::operand<C> && tk::operand<V>) {
    using T = pointee<P>;
    const auto p = operand_of(ptr.v_, loc).v;
    return block<T, rank_of<P>>(atomic_compare_swap(p, to_operand(cmp, loc), to_operand(val, loc),
                                                    s, sc, "tk::atomic_cas", loc));
  } else {
    return block<std::int32_t, 0>();
  }
}

} // namespace detail

/// Compare and swap, per lane: `old = *ptr; if (old == cmp) *ptr = val;` returns `old`. Compares
/// bit patterns (i32, u32, i64, u64, f32, f64): -0 and +0 differ, a NaN equals its own pattern.
template <class P, class C, class V>
auto atomic_cas(const P &ptr, const C &cmp, const V &val, sem s = sem::acq_rel,
                scope sc = scope::gpu, std::source_location loc = std::source_location::current()) {
  return detail::atomic_cas_checked(ptr, cmp, val, s, sc, loc);
}

template <class P, class C, class V>
auto atomic_cas(const P &ptr, const C &cmp, const V &val, scope sc,
                std::source_location loc = std::source_location::current()) {
  return detail::atomic_cas_checked(ptr, cmp, val, sem::acq_rel, sc, loc);
}

} // namespace tk

/// @file memory.hpp
/// `tk::load` and `tk::store` through blocks of pointers, with masks and `other` values as in
/// Triton: masked-off lanes are neither read nor written.
#pragma once

#include <tk/block.hpp>
#include <tk/detail/trace/debug.hpp>

namespace tk {
namespace detail {

template <class P> constexpr void check_pointer_block() {
  static_assert(any_block<P> && std::is_pointer_v<element_of<P>>,
                "tk::load/tk::store need a block of pointers (a tk::ptr<T> plus integer offsets)");
}

template <class M> constexpr void check_mask() {
  static_assert(any_block<M> && std::is_same_v<element_of<M>, bool>,
                "tk: a mask must be a boolean block, e.g. `offsets < n`");
}

template <class P> using pointee = std::remove_const_t<std::remove_pointer_t<element_of<P>>>;

} // namespace detail

namespace detail {

template <class P> auto load_impl(const P &ptrs, const memory_hints &hints, loc_t loc) {
  check_pointer_block<P>();
  using T = pointee<P>;
  return block<T, rank_of<P>>(load_hinted(operand_of(ptrs.v_, loc).v, {}, {}, hints, loc));
}

template <class P, class M>
auto load_impl(const P &ptrs, const M &mask, const memory_hints &hints, loc_t loc) {
  check_pointer_block<P>();
  check_mask<M>();
  using T = pointee<P>;
  const auto p = operand_of(ptrs.v_, loc).v, m = operand_of(mask.v_, loc).v;
  const auto shape =
      broadcast_shape(m->shape, "the mask", p->shape, "the pointer block", "tk::load", loc);
  // Named in order: C++ leaves the order of function arguments unspecified (IR op order).
  const auto bp = broadcast_to(p, shape, loc), bm = broadcast_to(m, shape, loc);
  return block<T, result_rank<P, M>>(load_hinted(bp, bm, {}, hints, loc));
}

template <class P, class M, class O>
auto load_impl(const P &ptrs, const M &mask, const O &other, const memory_hints &hints, loc_t loc) {
  check_pointer_block<P>();
  check_mask<M>();
  using T = pointee<P>;
  constexpr int R = max_rank(result_rank<P, M>, rank_of<O>);
  const auto p = operand_of(ptrs.v_, loc).v, m = operand_of(mask.v_, loc).v;
  const auto o = to_operand(other, loc);
  const auto shape = broadcast_shape(
      o.shape(), "other",
      broadcast_shape(m->shape, "the mask", p->shape, "the pointer block", "tk::load", loc),
      "the loaded block", "tk::load", loc);
  const auto bp = broadcast_to(p, shape, loc), bm = broadcast_to(m, shape, loc),
             bo = materialize(o, elem_of<T>(), shape, loc);
  return block<T, R>(load_hinted(bp, bm, bo, hints, loc));
}

} // namespace detail

/// Loads one element per pointer.
template <class P>
auto load(const P &ptrs, std::source_location loc = std::source_location::current()) {
  return detail::load_impl(ptrs, {}, loc);
}

/// Loads with cache hints: `tk::load(p, {.cache_modifier = tk::cache_modifier::cg})`
/// (tk::memory_hints, Triton's cache_modifier, eviction_policy and volatile).
template <class P>
auto load(const P &ptrs, const memory_hints &hints,
          std::source_location loc = std::source_location::current()) {
  return detail::load_impl(ptrs, hints, loc);
}

/// Loads where `mask` holds; masked-off lanes are zero.
template <class P, class M>
auto load(const P &ptrs, const M &mask,
          std::source_location loc = std::source_location::current()) {
  return detail::load_impl(ptrs, mask, {}, loc);
}

template <class P, class M>
auto load(const P &ptrs, const M &mask, const memory_hints &hints,
          std::source_location loc = std::source_location::current()) {
  return detail::load_impl(ptrs, mask, hints, loc);
}

/// Loads where `mask` holds and yields `other` (a block or a literal) elsewhere.
template <class P, class M, operand O>
auto load(const P &ptrs, const M &mask, const O &other,
          std::source_location loc = std::source_location::current()) {
  return detail::load_impl(ptrs, mask, other, {}, loc);
}

template <class P, class M, operand O>
auto load(const P &ptrs, const M &mask, const O &other, const memory_hints &hints,
          std::source_location loc = std::source_location::current()) {
  return detail::load_impl(ptrs, mask, other, hints, loc);
}

namespace detail {
template <class P, class V>
void store_impl(const P &ptrs, const V &value, value_ref mask, const memory_hints &hints,
                loc_t loc) {
  check_pointer_block<P>();
  static_assert(!std::is_const_v<std::remove_pointer_t<element_of<P>>>,
                "tk::store: the pointer points to const; declare the parameter tk::ptr<T>, "
                "not tk::ptr<const T>");
  static_assert(tk::operand<V>, "tk::store: the value must be a block or a number");
  using T = pointee<P>;
  const auto p = operand_of(ptrs.v_, loc).v;
  const term v = [&] { // a rejected value is not converted: one error, the static_assert's
    if constexpr (tk::operand<V>)
      return to_operand(value, loc);
    else
      return term{};
  }();
  // As in Triton, the pointers decide the shape: a larger value or mask would make two lanes
  // write one address.
  check_broadcasts_to(v.shape(), "the value", p->shape, "the pointer block", "tk::store", loc);
  if (mask)
    check_broadcasts_to(mask->shape, "the mask", p->shape, "the pointer block", "tk::store", loc);
  const auto bv = materialize(v, elem_of<T>(), p->shape, loc),
             bm = mask ? broadcast_to(mask, p->shape, loc) : value_ref{};
  store_hinted(p, bv, bm, hints, loc);
}
} // namespace detail

/// Stores `value` (converted to the pointee type) through each pointer.
template <class P, class V>
void store(const P &ptrs, const V &value,
           std::source_location loc = std::source_location::current()) {
  detail::store_impl(ptrs, value, {}, {}, loc);
}

/// Stores with cache hints: `tk::store(p, x, {.cache_modifier = tk::cache_modifier::cs})`.
template <class P, class V>
void store(const P &ptrs, const V &value, const memory_hints &hints,
           std::source_location loc = std::source_location::current()) {
  detail::store_impl(ptrs, value, {}, hints, loc);
}

/// Stores where `mask` holds.
template <class P, class V, class M>
void store(const P &ptrs, const V &value, const M &mask,
           std::source_location loc = std::source_location::current()) {
  detail::check_mask<M>();
  detail::store_impl(ptrs, value, detail::operand_of(mask.v_, loc).v, {}, loc);
}

template <class P, class V, class M>
void store(const P &ptrs, const V &value, const M &mask, const memory_hints &hints,
           std::source_location loc = std::source_location::current()) {
  detail::check_mask<M>();
  detail::store_impl(ptrs, value, detail::operand_of(mask.v_, loc).v, hints, loc);
}

} // namespace tk

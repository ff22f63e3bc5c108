/// @file shape.hpp
/// Changing a block's shape: `broadcast_to`, `expand_dims` (also written `x(tk::_, tk::newaxis)`,
/// Triton's `x[:, None]`), `reshape`, `trans` and `permute`.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/block.hpp>

#include <cstddef>

namespace tk {
namespace detail {

TK_DECL int normalize_axis(int axis, int rank, const char *what, loc_t loc);

} // namespace detail

/// Broadcasts `x` to `shape` (dimensions aligned at the right; size-1 dimensions stretch).
template <class T, int R, std::size_t N>
block<T, int(N)> broadcast_to(const block<T, R> &x, const std::int64_t (&shape)[N],
                              std::source_location loc = std::source_location::current()) {
  static_assert(int(N) >= R, "tk::broadcast_to: the target shape has fewer dimensions than x");
  const detail::shape_t target(shape, shape + N);
  const auto v = detail::operand_of(x.v_, loc).v;
  if (detail::broadcast_shape(v->shape, target, "tk::broadcast_to", loc) != target)
    detail::fail(loc, "tk::broadcast_to: shape ", detail::to_string(v->shape),
                 " cannot be broadcast to ", detail::to_string(target));
  detail::check_block_shape(target, "tk::broadcast_to", loc);
  return block<T, int(N)>(detail::broadcast_to(v, target, loc));
}

/// Inserts a dimension of size 1 at `axis` (negative axes count from the end of the result).
template <class T, int R>
block<T, R + 1> expand_dims(const block<T, R> &x, int axis,
                            std::source_location loc = std::source_location::current()) {
  axis = detail::normalize_axis(axis, R + 1, "tk::expand_dims", loc);
  return block<T, R + 1>(detail::expand_dims(detail::operand_of(x.v_, loc).v, axis, loc));
}

/// The same elements in row-major order with a new shape of the same size.
template <class T, int R, std::size_t N>
block<T, int(N)> reshape(const block<T, R> &x, const std::int64_t (&shape)[N],
                         std::source_location loc = std::source_location::current()) {
  const detail::shape_t target(shape, shape + N);
  const auto v = detail::operand_of(x.v_, loc).v;
  if (detail::numel(target) != v->size())
    detail::fail(loc, "tk::reshape: cannot reshape ", detail::to_string(v->shape), " (", v->size(),
                 " elements) to ", detail::to_string(target), " (", detail::numel(target),
                 " elements)");
  detail::check_block_shape(target, "tk::reshape", loc);
  return block<T, int(N)>(detail::reshape(v, target, loc));
}

/// Reorders dimensions: dimension d of the result is dimension `order[d]` of `x`.
template <class T, int R>
block<T, R> permute(const block<T, R> &x, const std::int64_t (&order)[std::size_t(R)],
                    std::source_location loc = std::source_location::current()) {
  std::vector<std::int64_t> o(order, order + R);
  std::vector<bool> seen(static_cast<std::size_t>(R), false);
  for (auto d : o) {
    if (d < 0 || d >= R || seen[std::size_t(d)])
      detail::fail(loc, "tk::permute: the order must list each dimension 0..", R - 1,
                   " exactly once, got ", detail::to_string(o));
    seen[std::size_t(d)] = true;
  }
  return block<T, R>(detail::trans(detail::operand_of(x.v_, loc).v, o, loc));
}

/// The transpose of a 2-D block.
template <class T, int R>
block<T, R> trans(const block<T, R> &x,
                  std::source_location loc = std::source_location::current()) {
  static_assert(R == 2, "tk::trans transposes 2-D blocks; use tk::permute for other ranks");
  return block<T, R>(detail::trans(detail::operand_of(x.v_, loc).v, {1, 0}, loc));
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/shape.ipp>
#endif

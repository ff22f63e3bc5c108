/// @file shape.hpp
/// Changing a block's shape and moving its elements: `broadcast_to`, `broadcast`, `expand_dims`
/// (also written `x(tk::_, tk::newaxis)`, Triton's `x[:, None]`), `reshape`, `ravel`, `view`,
/// `trans`, `permute`, `join`, `split`, `interleave`, `cat`, `flip` and `gather`.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/block.hpp>

#include <cstddef>
#include <utility>
#include <vector>

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

namespace detail {

/// The two blocks broadcast to their common shape, checked to be a valid block once the
/// dimension `extra` is appended (0: none).
template <class A, class B>
std::pair<value_ref, value_ref> broadcast_pair(const A &a, const B &b, std::int64_t extra,
                                               const char *what, loc_t loc) {
  const auto va = operand_of(a.v_, loc).v, vb = operand_of(b.v_, loc).v;
  auto shape =
      broadcast_shape(va->shape, "the first block", vb->shape, "the second block", what, loc);
  auto checked = shape;
  if (extra)
    checked.push_back(extra);
  check_block_shape(checked, what, loc);
  return {broadcast_to(va, shape, loc), broadcast_to(vb, shape, loc)};
}

} // namespace detail

/// Broadcasts two blocks to their common shape (Triton's `tl.broadcast`); each keeps its element
/// type: `auto [rows, cols] = tk::broadcast(i(tk::_, tk::newaxis), j(tk::newaxis, tk::_));`.
template <class A, int RA, class B, int RB>
std::pair<block<A, detail::max_rank(RA, RB)>, block<B, detail::max_rank(RA, RB)>>
broadcast(const block<A, RA> &a, const block<B, RB> &b,
          std::source_location loc = std::source_location::current()) {
  constexpr int R = detail::max_rank(RA, RB);
  auto [va, vb] = detail::broadcast_pair(a, b, 0, "tk::broadcast", loc);
  return {block<A, R>(va), block<B, R>(vb)};
}

/// Inserts dimensions of size 1 at each of `axes`, positions in the result (Triton's
/// `tl.expand_dims` with a tuple): `tk::expand_dims(x, {0, 2})` makes a [4] block [1, 4, 1].
template <class T, int R, std::size_t N>
  requires(N >= 2)
block<T, R + int(N)> expand_dims(const block<T, R> &x, const int (&axes)[N],
                                 std::source_location loc = std::source_location::current()) {
  // Each axis is a position in the result: inserted in increasing order, each lands there.
  bool taken[R + int(N)] = {};
  for (int axis : axes) {
    const int at = detail::normalize_axis(axis, R + int(N), "tk::expand_dims", loc);
    if (taken[at])
      detail::fail(loc, "tk::expand_dims: the axes must differ, got ",
                   detail::to_string(std::vector<std::int64_t>(axes, axes + N)));
    taken[at] = true;
  }
  auto v = detail::operand_of(x.v_, loc).v;
  for (int axis = 0; axis < R + int(N); ++axis)
    if (taken[axis])
      v = detail::expand_dims(v, axis, loc);
  return block<T, R + int(N)>(v);
}

/// `tk::reshape` taking Triton's `can_reorder`: TileKit always keeps the row-major order, which
/// a reshape allowed to reorder may also do.
template <class T, int R, std::size_t N>
block<T, int(N)> reshape(const block<T, R> &x, const std::int64_t (&shape)[N], bool can_reorder,
                         std::source_location loc = std::source_location::current()) {
  (void)can_reorder;
  return tk::reshape(x, shape, loc);
}

/// The elements of `x` as a 1-D block, in row-major order (Triton's `tl.ravel`).
template <class T, int R>
block<T, 1> ravel(const block<T, R> &x,
                  std::source_location loc = std::source_location::current()) {
  const auto v = detail::operand_of(x.v_, loc).v;
  return block<T, 1>(detail::reshape(v, {v->size()}, loc));
}

/// Triton's `tl.view`: `tk::reshape`, which keeps the row-major order.
template <class T, int R, std::size_t N>
block<T, int(N)> view(const block<T, R> &x, const std::int64_t (&shape)[N],
                      std::source_location loc = std::source_location::current()) {
  return tk::reshape(x, shape, loc);
}

/// Stacks `a` and `b` along a new last dimension of size 2 (Triton's `tl.join`): `result[...,
/// 0]` is `a`, `result[..., 1]` is `b`. Both have one element type; their shapes broadcast.
template <class T, int R1, int R2>
block<T, detail::max_rank(R1, R2) + 1>
join(const block<T, R1> &a, const block<T, R2> &b,
     std::source_location loc = std::source_location::current()) {
  static_assert(!std::is_pointer_v<T>, "tk::join needs blocks of numbers, not of pointers");
  auto [va, vb] = detail::broadcast_pair(a, b, 2, "tk::join", loc);
  return block<T, detail::max_rank(R1, R2) + 1>(detail::join(va, vb, loc));
}

/// The two halves of `x`'s last dimension, which must be 2 (Triton's `tl.split`, `join`'s
/// inverse): `auto [lo, hi] = tk::split(pairs);`.
template <class T, int R>
std::pair<block<T, (R > 0 ? R - 1 : 0)>, block<T, (R > 0 ? R - 1 : 0)>>
split(const block<T, R> &x, std::source_location loc = std::source_location::current()) {
  static_assert(R >= 1, "tk::split needs a block whose last dimension is 2, not a scalar");
  static_assert(!std::is_pointer_v<T>, "tk::split needs a block of numbers, not of pointers");
  const auto v = detail::operand_of(x.v_, loc).v;
  if (v->shape.back() != 2)
    detail::fail(loc, "tk::split: the last dimension must be 2, got a block of shape ",
                 detail::to_string(v->shape), " (tk::reshape it to [..., 2] first)");
  auto [lo, hi] = detail::split(v, loc);
  return {block<T, (R > 0 ? R - 1 : 0)>(lo), block<T, (R > 0 ? R - 1 : 0)>(hi)};
}

/// `a` and `b` interleaved along their last dimension (Triton's `tl.interleave`): `a0, b0, a1,
/// b1, ...`; two scalars give a 2-element block. `tk::join` then `tk::reshape`.
template <class T, int R1, int R2>
block<T, detail::max_rank(detail::max_rank(R1, R2), 1)>
interleave(const block<T, R1> &a, const block<T, R2> &b,
           std::source_location loc = std::source_location::current()) {
  static_assert(!std::is_pointer_v<T>, "tk::interleave needs blocks of numbers, not of pointers");
  auto [va, vb] = detail::broadcast_pair(a, b, 2, "tk::interleave", loc);
  using result = block<T, detail::max_rank(detail::max_rank(R1, R2), 1)>;
  auto joined = detail::join(va, vb, loc);
  if (va->shape.empty()) // two scalars: the pair itself
    return result(joined);
  auto shape = va->shape;
  shape.back() *= 2;
  return result(detail::reshape(joined, std::move(shape), loc));
}

/// `a` then `b` along dimension 0 (Triton's `tl.cat`, whose order TileKit keeps: Triton's may
/// reorder the elements). Both have one shape, so the result's dimension 0 stays a power of two.
template <class T, int R>
block<T, R> cat(const block<T, R> &a, const block<T, R> &b,
                std::source_location loc = std::source_location::current()) {
  static_assert(R >= 1, "tk::cat concatenates blocks along dimension 0, not scalars");
  static_assert(!std::is_pointer_v<T>, "tk::cat needs blocks of numbers, not of pointers");
  const auto va = detail::operand_of(a.v_, loc).v, vb = detail::operand_of(b.v_, loc).v;
  if (va->shape != vb->shape)
    detail::fail(loc, "tk::cat: the blocks must have one shape, got ", detail::to_string(va->shape),
                 " and ", detail::to_string(vb->shape));
  auto shape = va->shape;
  shape[0] *= 2;
  detail::check_block_shape(shape, "tk::cat", loc);
  return block<T, R>(detail::cat(va, vb, loc));
}

/// `x` with the elements along `dim` in reverse order (Triton's `tl.flip`; by default the last
/// dimension).
template <class T, int R>
block<T, R> flip(const block<T, R> &x, int dim = -1,
                 std::source_location loc = std::source_location::current()) {
  static_assert(R >= 1, "tk::flip needs a block of rank >= 1");
  dim = detail::normalize_axis(dim, R, "tk::flip", loc);
  return block<T, R>(detail::flip(detail::operand_of(x.v_, loc).v, dim, loc));
}

/// Gathers along `axis` (Triton's `tl.gather`): `result[i] = src[i with i[axis] replaced by
/// index[i]]`. `index` is an integer block of `src`'s rank and shape except along `axis`; the
/// result has its shape. An index outside `[0, src.shape[axis])` is an error in the interpreter
/// and undefined on the GPU.
template <class T, int R, class I>
block<T, R> gather(const block<T, R> &src, const block<I, R> &index, int axis,
                   std::source_location loc = std::source_location::current()) {
  static_assert(R >= 1, "tk::gather needs blocks of rank >= 1");
  static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>,
                "tk::gather: the indices must be an integer block");
  static_assert(!std::is_pointer_v<T>, "tk::gather needs a block of numbers, not of pointers");
  axis = detail::normalize_axis(axis, R, "tk::gather", loc);
  const auto vs = detail::operand_of(src.v_, loc).v, vi = detail::operand_of(index.v_, loc).v;
  for (std::size_t d = 0; d < vs->shape.size(); ++d)
    if (int(d) != axis && vs->shape[d] != vi->shape[d])
      detail::fail(loc,
                   "tk::gather: the indices must have the shape of the block gathered from "
                   "except along axis ",
                   axis, "; the block has shape ", detail::to_string(vs->shape), ", the indices ",
                   detail::to_string(vi->shape));
  return block<T, R>(detail::gather_along(vs, vi, axis, loc));
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/shape.ipp>
#endif

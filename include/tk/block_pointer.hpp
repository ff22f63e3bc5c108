/// @file block_pointer.hpp
/// Block pointers, Triton's `tl.make_block_ptr`: a pointer to a block of a strided tensor in
/// global memory, moved with `tk::advance` and read and written with `tk::load` / `tk::store`.
/// Along the dimensions a load or store lists in its boundary check, elements outside the tensor
/// read as the padding (zero or NaN) and are not written; along the others the block must lie
/// inside the tensor (the interpreter reports it when it does not).
///
///     auto a = tk::make_block_ptr(a_ptr, {M, K}, {lda, 1}, {pid_m * BM, 0}, {BM, BK});
///     tk::for_range(0, K, BK, [&](tk::i32) {
///       acc = tk::dot(tk::load(a, {0, 1}), ..., acc);
///       a = tk::advance(a, {0, BK});
///     });
#pragma once

#include <tk/detail/config.hpp>

#include <tk/descriptor.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>

namespace tk {

namespace detail {

/// A block pointer's parts in the interpreter's `i`: base, then sizes, strides and offsets.
struct block_ptr_view {
  const value &v;
  std::size_t rank() const { return v.shape.size(); }
  std::int64_t base() const { return v.i[0]; }
  std::int64_t size(std::size_t d) const { return v.i[1 + d]; }
  std::int64_t stride(std::size_t d) const { return v.i[1 + rank() + d]; }
  std::int64_t offset(std::size_t d) const { return v.i[1 + 2 * rank() + d]; }
};

TK_DECL value_ref make_block_ptr(const value_ref &base, const std::vector<value_ref> &shape,
                                 const std::vector<value_ref> &strides,
                                 const std::vector<value_ref> &offsets, shape_t block,
                                 const shape_t &order, loc_t loc);

TK_DECL value_ref advance(const value_ref &ptr, const std::vector<value_ref> &offsets, loc_t loc);

/// The boundary-checked dimensions as a mask over the block's, checking them.
TK_DECL std::vector<bool> checked_dims(std::initializer_list<int> boundary_check, std::size_t rank,
                                       const char *what, loc_t loc);

TK_DECL std::string array_attr_of(const std::vector<bool> &checked);

/// The address of element `k` of the block `ptr` points to, or nullopt where the element lies
/// outside the tensor along a checked dimension; outside along an unchecked one is an error.
TK_DECL std::optional<std::int64_t> block_element_address(const value &ptr,
                                                          const std::vector<bool> &checked,
                                                          std::int64_t k, const char *what,
                                                          loc_t loc);

TK_DECL value_ref block_load(const value_ref &ptr, std::initializer_list<int> boundary_check,
                             padding pad, loc_t loc);

TK_DECL void block_store(const value_ref &ptr, const value_ref &x,
                         std::initializer_list<int> boundary_check, loc_t loc);

} // namespace detail

/// A pointer to a block (rank R, a fixed shape) of a tensor of T in global memory. A handle like
/// a block's: assigning it in a loop body carries it through the loop.
template <class T, std::size_t R> class block_ptr : public detail::handle_base {
public:
  explicit block_ptr(detail::value_ref v) : handle_base(std::move(v)) {}
  block_ptr(const block_ptr &) = default;
  block_ptr(block_ptr &&) noexcept = default;
  block_ptr &operator=(const block_ptr &) = default;
  block_ptr &operator=(block_ptr &&) noexcept = default;

  /// The block shape.
  const std::vector<std::int64_t> &block_shape() const { return v_->shape; }
};

/// A pointer to the block of shape `block_shape` (powers of two, known when the kernel is
/// traced) whose first element is element `offsets` of the tensor at `base` with `shape` and
/// `strides` (in elements; any values, no alignment rules). `order` lists the dimensions from
/// the fastest-varying, as in Triton (a hint); the overload without it takes the last dimension
/// as the fastest.
template <class T, std::size_t R>
block_ptr<T, R> make_block_ptr(const block<T *, 0> &base, const index (&shape)[R],
                               const index (&strides)[R], const index (&offsets)[R],
                               const index (&block_shape)[R], const int (&order)[R],
                               std::source_location loc = std::source_location::current()) {
  static_assert(R >= 1 && R <= 5, "tk::make_block_ptr: tensors of 1 to 5 dimensions");
  std::vector<detail::value_ref> sizes, steps, starts;
  detail::shape_t block, dims;
  for (std::size_t d = 0; d < R; ++d) {
    block.push_back(block_shape[d].constant("tk::make_block_ptr: a block dimension"));
    sizes.push_back(shape[d].as(detail::elem_of<std::int32_t>()));
    steps.push_back(strides[d].as(detail::elem_of<std::int64_t>()));
    starts.push_back(offsets[d].as(detail::elem_of<std::int32_t>()));
    dims.push_back(order[d]);
  }
  return block_ptr<T, R>(detail::make_block_ptr(detail::operand_of(base.v_, loc).v, sizes, steps,
                                                starts, std::move(block), dims, loc));
}

template <class T, std::size_t R>
block_ptr<T, R> make_block_ptr(const block<T *, 0> &base, const index (&shape)[R],
                               const index (&strides)[R], const index (&offsets)[R],
                               const index (&block_shape)[R],
                               std::source_location loc = std::source_location::current()) {
  int order[R];
  for (std::size_t d = 0; d < R; ++d)
    order[d] = int(R - 1 - d);
  return make_block_ptr(base, shape, strides, offsets, block_shape, order, loc);
}

/// The block pointer moved by `offsets` elements along each dimension.
template <class T, std::size_t R>
block_ptr<T, R> advance(const block_ptr<T, R> &ptr, const index (&offsets)[R],
                        std::source_location loc = std::source_location::current()) {
  std::vector<detail::value_ref> steps;
  for (const index &i : offsets)
    steps.push_back(i.as(detail::elem_of<std::int32_t>()));
  return block_ptr<T, R>(detail::advance(detail::operand_of(ptr.v_, loc).v, steps, loc));
}

/// The block `ptr` points to. Along the dimensions in `boundary_check`, elements outside the
/// tensor read as `pad`; along the others the block must lie inside the tensor.
template <class T, std::size_t R>
block<std::remove_const_t<T>, int(R)>
load(const block_ptr<T, R> &ptr, std::initializer_list<int> boundary_check = {},
     padding pad = padding::zero, std::source_location loc = std::source_location::current()) {
  return block<std::remove_const_t<T>, int(R)>(
      detail::block_load(detail::operand_of(ptr.v_, loc).v, boundary_check, pad, loc));
}

/// Writes `value` (converted to T, broadcast to the block shape) where `ptr` points. Along the
/// dimensions in `boundary_check`, elements outside the tensor are not written; along the
/// others the block must lie inside the tensor.
template <class T, std::size_t R, operand V>
void store(const block_ptr<T, R> &ptr, const V &value,
           std::initializer_list<int> boundary_check = {},
           std::source_location loc = std::source_location::current()) {
  static_assert(!std::is_const_v<T>, "tk::store: the block pointer points to const; declare the "
                                     "parameter tk::ptr<T>, not tk::ptr<const T>");
  const auto p = detail::operand_of(ptr.v_, loc).v;
  const detail::term t = detail::to_operand(value, loc);
  detail::check_broadcasts_to(t.shape(), "the value", p->shape, "the block pointer's block",
                              "tk::store", loc);
  const auto x = detail::materialize(t, detail::elem_of<T>(), p->shape, loc);
  detail::block_store(p, x, boundary_check, loc);
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/block_pointer.ipp>
#endif

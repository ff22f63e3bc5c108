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

#include <tk/descriptor.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>

namespace tk {

/// What a block-pointer load reads outside the tensor along its boundary-checked dimensions
/// (Triton's `padding_option`).
enum class padding { zero, nan };

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

inline value_ref make_block_ptr(const value_ref &base, const std::vector<value_ref> &shape,
                                const std::vector<value_ref> &strides,
                                const std::vector<value_ref> &offsets, shape_t block,
                                const shape_t &order, loc_t loc) {
  context &ctx = active(loc);
  check_access_block(block, "tk::make_block_ptr", loc);
  std::vector<bool> seen(block.size(), false);
  for (std::int64_t d : order) {
    if (d < 0 || d >= std::int64_t(block.size()) || seen[std::size_t(d)])
      fail(loc, "tk::make_block_ptr: order must list each of the ", block.size(),
           " dimensions once, got ", to_string(order));
    seen[std::size_t(d)] = true;
  }
  if (ctx.tracing()) {
    std::vector<value_ref> operands{base};
    operands.insert(operands.end(), shape.begin(), shape.end());
    operands.insert(operands.end(), strides.begin(), strides.end());
    operands.insert(operands.end(), offsets.begin(), offsets.end());
    auto r = record1("tk.make_block_ptr", syntax::generic, std::move(operands), base->type,
                     std::move(block), "order = " + array_attr(order), loc);
    r->kind = value_kind::block_pointer;
    return r;
  }
  auto v = make_value(base->type, std::move(block));
  v->kind = value_kind::block_pointer;
  v->extent = base->extent;
  v->i.push_back(base->i[0]);
  for (const auto *part : {&shape, &strides, &offsets})
    for (const value_ref &x : *part)
      v->i.push_back(x->i[0]);
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (shape[d]->i[0] < 0)
      fail(loc, "tk::make_block_ptr: dimension ", d, " has size ", shape[d]->i[0],
           "; sizes must not be negative");
  return v;
}

inline value_ref advance(const value_ref &ptr, const std::vector<value_ref> &offsets, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing()) {
    std::vector<value_ref> operands{ptr};
    operands.insert(operands.end(), offsets.begin(), offsets.end());
    auto r =
        record1("tk.advance", syntax::generic, std::move(operands), ptr->type, ptr->shape, "", loc);
    r->kind = value_kind::block_pointer;
    return r;
  }
  auto v = make_value(ptr->type, ptr->shape);
  v->kind = value_kind::block_pointer;
  v->extent = ptr->extent;
  v->i = ptr->i;
  const std::size_t first = 1 + 2 * ptr->shape.size();
  for (std::size_t d = 0; d < offsets.size(); ++d) // i32 offsets wrap, as on the GPU
    v->i[first + d] = std::int32_t(std::uint32_t(v->i[first + d] + offsets[d]->i[0]));
  return v;
}

/// The boundary-checked dimensions as a mask over the block's, checking them.
inline std::vector<bool> checked_dims(std::initializer_list<int> boundary_check, std::size_t rank,
                                      const char *what, loc_t loc) {
  std::vector<bool> checked(rank, false);
  for (int d : boundary_check) {
    if (d < 0 || std::size_t(d) >= rank || checked[std::size_t(d)])
      fail(loc, what, ": boundary_check must list distinct dimensions of the ", rank,
           "-dimensional block, got ",
           to_string(shape_t(boundary_check.begin(), boundary_check.end())));
    checked[std::size_t(d)] = true;
  }
  return checked;
}

inline std::string array_attr_of(const std::vector<bool> &checked) {
  shape_t dims;
  for (std::size_t d = 0; d < checked.size(); ++d)
    if (checked[d])
      dims.push_back(std::int64_t(d));
  return array_attr(dims);
}

/// The address of element `k` of the block `ptr` points to, or nullopt where the element lies
/// outside the tensor along a checked dimension; outside along an unchecked one is an error.
inline std::optional<std::int64_t> block_element_address(const value &ptr,
                                                         const std::vector<bool> &checked,
                                                         std::int64_t k, const char *what,
                                                         loc_t loc) {
  const block_ptr_view p{ptr};
  const std::int64_t bytes = elem_type{ptr.type.pointee}.bytes();
  std::int64_t address = p.base();
  const std::int64_t lane = k;
  bool outside = false;
  for (std::size_t d = p.rank(); d-- > 0;) {
    const std::int64_t at = p.offset(d) + k % ptr.shape[d];
    k /= ptr.shape[d];
    if (at < 0 || at >= p.size(d)) {
      if (!checked[d])
        fail(loc, what, ": ", lane_name(ptr.shape, std::size_t(lane)),
             " is outside the tensor along dimension ", d, " (index ", at, ", size ", p.size(d),
             "), which is not in boundary_check; add ", d,
             " to boundary_check or keep the block inside the tensor");
      outside = true;
    }
    address += at * p.stride(d) * bytes;
  }
  if (outside)
    return std::nullopt;
  return address;
}

inline value_ref block_load(const value_ref &ptr, std::initializer_list<int> boundary_check,
                            padding pad, loc_t loc) {
  context &ctx = active(loc);
  const elem_type t{ptr->type.pointee};
  const auto checked = checked_dims(boundary_check, ptr->shape.size(), "tk::load", loc);
  if (pad == padding::nan && !t.is_float())
    fail(loc, "tk::load: padding::nan needs a block of floats, got ", to_string(t));
  if (ctx.tracing()) {
    std::string attrs = "boundary_check = " + array_attr_of(checked);
    if (pad == padding::nan)
      attrs += ", nan_padding";
    return record1("tk.block_load", syntax::generic, {ptr}, t, ptr->shape, std::move(attrs), loc);
  }
  auto v = make_concrete(t, ptr->shape);
  for (std::int64_t k = 0; k < v->size(); ++k) {
    const auto address = block_element_address(*ptr, checked, k, "tk::load", loc);
    if (!address) {
      if (pad == padding::nan)
        v->f[std::size_t(k)] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    auto p = make_value(ptr->type, {});
    p->extent = ptr->extent;
    p->i.push_back(*address);
    if (p->extent >= 0 || ctx.checked)
      check_access(ctx, *p, 0, false, loc);
    double f = 0;
    std::int64_t i = 0;
    load_element(reinterpret_cast<const void *>(*address), t.code, f, i);
    if (t.is_float())
      v->f[std::size_t(k)] = f;
    else
      v->i[std::size_t(k)] = i;
  }
  return v;
}

inline void block_store(const value_ref &ptr, const value_ref &x,
                        std::initializer_list<int> boundary_check, loc_t loc) {
  context &ctx = active(loc);
  const auto checked = checked_dims(boundary_check, ptr->shape.size(), "tk::store", loc);
  if (ctx.tracing()) {
    record("tk.block_store", syntax::generic, {ptr, x}, {},
           "boundary_check = " + array_attr_of(checked), loc);
    return;
  }
  for (std::int64_t k = 0; k < x->size(); ++k) {
    const auto address = block_element_address(*ptr, checked, k, "tk::store", loc);
    if (!address)
      continue; // outside the tensor: not written
    auto p = make_value(ptr->type, {});
    p->extent = ptr->extent;
    p->i.push_back(*address);
    if (p->extent >= 0 || ctx.checked)
      check_access(ctx, *p, 0, true, loc);
    const auto j = std::size_t(k);
    store_element(reinterpret_cast<void *>(*address), x->type.code,
                  x->type.is_float() ? x->f[j] : 0, x->type.is_float() ? 0 : x->i[j]);
  }
}

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
  const auto x =
      detail::materialize(detail::to_operand(value, loc), detail::elem_of<T>(), p->shape, loc);
  detail::block_store(p, x, boundary_check, loc);
}

} // namespace tk

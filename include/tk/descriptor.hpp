/// @file descriptor.hpp
/// Tensor descriptors, Triton's `tl.make_tensor_descriptor`: a tensor in global memory (base,
/// shape, strides) read and written a block at a time, `desc.load({i, j})` and
/// `desc.store({i, j}, x)`. Blocks may reach past the tensor's edges: those elements read as zero
/// and are not written, so no masks are needed.
#pragma once

#include <tk/block.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

namespace tk {

/// A scalar index or size for the descriptor API: a C++ integer, a `tk::constant` of one, or a
/// scalar integer block (`tk::i32`, ...).
class index {
public:
  template <class X>
    requires(detail::rank_of<X> == 0 && std::is_integral_v<detail::element_of<X>> &&
             !std::is_same_v<detail::element_of<X>, bool>)
  index(const X &x, std::source_location loc = std::source_location::current()) // NOLINT
      : term_(detail::to_operand(x, loc)), loc_(loc) {}

  /// The index as a scalar of type `t` (a run-time value, or a constant for a literal).
  detail::value_ref as(detail::elem_type t) const {
    return detail::materialize(term_, t, {}, loc_);
  }

  /// The index's value where it must be known when the kernel is traced (a block dimension).
  std::int64_t constant(const char *what) const {
    if (term_.v)
      detail::fail(loc_, what,
                   " must be a C++ integer or a tk::constant, known when the kernel is "
                   "traced, not a run-time value");
    return term_.i;
  }

private:
  detail::term term_;
  std::source_location loc_;
};

namespace detail {

/// The block shape of a descriptor or block pointer (made by `what`): the block rules, and
/// powers of two.
inline void check_access_block(const shape_t &block, const char *what, loc_t loc) {
  check_block_shape(block, what, loc);
  for (std::int64_t d : block)
    if ((d & (d - 1)) != 0)
      fail(loc, what, ": block dimensions must be powers of two, got ", to_string(block));
}

/// A descriptor's run-time value: interpreter, `i` = {base, shape..., strides...} and the base's
/// buffer; tracing, the `!tk.tensordesc` SSA value. Its shape is the block shape.
inline value_ref make_tensor_descriptor(const value_ref &base, const std::vector<value_ref> &shape,
                                        const std::vector<value_ref> &strides, shape_t block,
                                        loc_t loc) {
  context &ctx = active(loc);
  check_access_block(block, "tk::make_tensor_descriptor", loc);
  if (ctx.tracing()) {
    std::vector<value_ref> operands{base};
    operands.insert(operands.end(), shape.begin(), shape.end());
    operands.insert(operands.end(), strides.begin(), strides.end());
    auto r = record1("tk.make_tensor_descriptor", syntax::generic, std::move(operands), base->type,
                     std::move(block), "", loc);
    r->kind = value_kind::tensor_descriptor;
    return r;
  }
  const std::size_t rank = block.size();
  const std::int64_t bytes = elem_type{base->type.pointee}.bytes();
  auto v = make_value(base->type, std::move(block));
  v->kind = value_kind::tensor_descriptor;
  v->extent = base->extent;
  v->i.push_back(base->i[0]);
  for (const value_ref &s : shape)
    v->i.push_back(s->i[0]);
  for (const value_ref &s : strides)
    v->i.push_back(s->i[0]);
  // TMA's rules, checked here so that a kernel that runs in the interpreter runs on the GPU.
  if (std::uint64_t(base->i[0]) < null_page)
    fail(loc, "tk::make_tensor_descriptor: the base pointer is null");
  if (base->i[0] % 16 != 0)
    fail(loc, "tk::make_tensor_descriptor: the base address must be 16-byte aligned, got ",
         base->i[0]);
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t size = v->i[1 + d], stride = v->i[1 + rank + d];
    if (size <= 0)
      fail(loc, "tk::make_tensor_descriptor: dimension ", d, " has size ", size,
           "; sizes must be positive");
    if (d + 1 == rank && stride != 1)
      fail(loc,
           "tk::make_tensor_descriptor: the last dimension's stride must be 1 (contiguous), "
           "got ",
           stride);
    if (d + 1 < rank && (stride <= 0 || stride * bytes % 16 != 0))
      fail(loc, "tk::make_tensor_descriptor: the stride of dimension ", d, " (", stride,
           " elements) must be a positive multiple of 16 bytes");
  }
  return v;
}

/// The element index in the tensor of block element `k` of a block at `start` (or -1: outside).
inline std::int64_t descriptor_element(const value &desc, const std::vector<std::int64_t> &start,
                                       std::int64_t k) {
  const std::size_t rank = desc.shape.size();
  std::int64_t offset = 0;
  for (std::size_t d = rank; d-- > 0;) {
    const std::int64_t at = start[d] + k % desc.shape[d];
    k /= desc.shape[d];
    if (at < 0 || at >= desc.i[1 + d])
      return -1;
    offset += at * desc.i[1 + rank + d];
  }
  return offset;
}

/// The scalar address of element `offset` of the tensor `desc`, as a pointer value (for the
/// buffer checks).
inline value_ref descriptor_pointer(const value &desc, std::int64_t offset) {
  auto p = make_value(desc.type, {});
  p->extent = desc.extent;
  p->i.push_back(desc.i[0] + offset * elem_type{desc.type.pointee}.bytes());
  return p;
}

inline value_ref descriptor_load(const value_ref &desc, const std::vector<value_ref> &start,
                                 loc_t loc) {
  context &ctx = active(loc);
  const elem_type t{desc->type.pointee};
  if (ctx.tracing()) {
    std::vector<value_ref> operands{desc};
    operands.insert(operands.end(), start.begin(), start.end());
    return record1("tk.descriptor_load", syntax::generic, std::move(operands), t, desc->shape, "",
                   loc);
  }
  std::vector<std::int64_t> at;
  for (const value_ref &s : start)
    at.push_back(s->i[0]);
  auto v = make_concrete(t, desc->shape);
  for (std::int64_t k = 0; k < v->size(); ++k) {
    const std::int64_t offset = descriptor_element(*desc, at, k);
    if (offset < 0)
      continue; // outside the tensor: zero
    const value_ref p = descriptor_pointer(*desc, offset);
    if (p->extent >= 0 || ctx.checked)
      check_access(ctx, *p, 0, false, loc);
    double f = 0;
    std::int64_t i = 0;
    load_element(reinterpret_cast<const void *>(p->i[0]), t.code, f, i);
    if (t.is_float())
      v->f[std::size_t(k)] = f;
    else
      v->i[std::size_t(k)] = i;
  }
  return v;
}

inline void descriptor_store(const value_ref &desc, const std::vector<value_ref> &start,
                             const value_ref &x, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing()) {
    std::vector<value_ref> operands{desc};
    operands.insert(operands.end(), start.begin(), start.end());
    operands.push_back(x);
    record("tk.descriptor_store", syntax::generic, std::move(operands), {}, "", loc);
    return;
  }
  std::vector<std::int64_t> at;
  for (const value_ref &s : start)
    at.push_back(s->i[0]);
  for (std::int64_t k = 0; k < x->size(); ++k) {
    const std::int64_t offset = descriptor_element(*desc, at, k);
    if (offset < 0)
      continue; // outside the tensor: not written
    const value_ref p = descriptor_pointer(*desc, offset);
    if (p->extent >= 0 || ctx.checked)
      check_access(ctx, *p, 0, true, loc);
    const auto j = std::size_t(k);
    store_element(reinterpret_cast<void *>(p->i[0]), x->type.code, x->type.is_float() ? x->f[j] : 0,
                  x->type.is_float() ? 0 : x->i[j]);
  }
}

} // namespace detail

/// A tensor of T in global memory, accessed in blocks of a fixed shape (rank R).
template <class T, std::size_t R> class tensor_descriptor {
public:
  explicit tensor_descriptor(detail::value_ref v) : v_(std::move(v)) {}

  /// The block shape.
  const std::vector<std::int64_t> &block_shape() const { return v_->shape; }

  /// The block whose first element is the tensor's element `start`; elements outside the tensor
  /// are zero.
  block<std::remove_const_t<T>, int(R)>
  load(const std::array<index, R> &start,
       std::source_location loc = std::source_location::current()) const {
    return block<std::remove_const_t<T>, int(R)>(detail::descriptor_load(v_, indices(start), loc));
  }

  /// Writes `value` (converted to T, broadcast to the block shape) at `start`; elements outside
  /// the tensor are not written.
  template <operand V>
  void store(const std::array<index, R> &start, const V &value,
             std::source_location loc = std::source_location::current()) const {
    static_assert(!std::is_const_v<T>, "tensor_descriptor::store: the descriptor's pointer points "
                                       "to const; declare the parameter tk::ptr<T>");
    const auto x = detail::materialize(detail::to_operand(value, loc),
                                       detail::elem_of<std::remove_const_t<T>>(), v_->shape, loc);
    detail::descriptor_store(v_, indices(start), x, loc);
  }

private:
  static std::vector<detail::value_ref> indices(const std::array<index, R> &start) {
    std::vector<detail::value_ref> out;
    for (const index &i : start)
      out.push_back(i.as(detail::elem_of<std::int32_t>()));
    return out;
  }

  detail::value_ref v_;
};

/// A descriptor of the tensor at `base` with `shape` and `strides` (in elements), read and
/// written in blocks of `block_shape` (powers of two). As in Triton, the last stride must be 1,
/// `base` 16-byte aligned and the other strides multiples of 16 bytes (the interpreter checks
/// it; TMA on Hopper needs it).
template <class T, std::size_t R>
tensor_descriptor<T, R>
make_tensor_descriptor(const block<T *, 0> &base, const index (&shape)[R],
                       const index (&strides)[R], const index (&block_shape)[R],
                       std::source_location loc = std::source_location::current()) {
  static_assert(R >= 1 && R <= 5, "tk::make_tensor_descriptor: tensors of 1 to 5 dimensions");
  std::vector<detail::value_ref> sizes, steps;
  detail::shape_t block;
  for (std::size_t d = 0; d < R; ++d) {
    block.push_back(block_shape[d].constant("tk::make_tensor_descriptor: a block dimension"));
    sizes.push_back(shape[d].as(detail::elem_of<std::int32_t>()));
    steps.push_back(strides[d].as(detail::elem_of<std::int64_t>()));
  }
  return tensor_descriptor<T, R>(detail::make_tensor_descriptor(
      detail::operand_of(base.v_, loc).v, sizes, steps, std::move(block), loc));
}

} // namespace tk

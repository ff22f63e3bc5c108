/// @file descriptor.ipp
/// The bodies of the functions descriptor.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/descriptor.hpp>

#include <limits>

namespace tk {

TK_DECL std::int64_t index::constant(const char *what) const {
  if (term_.v)
    detail::fail(loc_, what,
                 " must be a C++ integer or a tk::constant, known when the kernel is "
                 "traced, not a run-time value");
  return term_.i;
}

TK_DECL std::string index::describe() const {
  return term_.v ? "a run-time value" : std::to_string(term_.i);
}

} // namespace tk

namespace tk::detail {

TK_DECL void check_access_block(const shape_t &block, const char *what, loc_t loc) {
  check_block_shape(block, what, loc);
  for (std::int64_t d : block)
    if ((d & (d - 1)) != 0)
      fail(loc, what, ": block dimensions must be powers of two, got ", to_string(block));
}

TK_DECL void check_last_stride(const tk::index &stride, loc_t loc) {
  if (!stride.is_constant(1))
    fail(loc,
         "tk::make_tensor_descriptor: the last stride must be the constant 1 (the last "
         "dimension contiguous), got ",
         stride.describe(),
         "; pass the literal 1, and for a tensor whose last dimension is strided, load through "
         "pointer blocks or tk::make_block_ptr instead");
}

TK_DECL void check_same_padding(padding to, padding from, loc_t made) {
  if (to != from)
    fail(made, "tk::make_tensor_descriptor: a descriptor padded with ",
         from == padding::nan ? "NaN" : "zeros", " is assigned to one padded with ",
         to == padding::nan ? "NaN" : "zeros",
         "; a descriptor variable keeps one padding (a loop or branch carrying it would read with "
         "either), so make both with the same padding or use two variables");
}

TK_DECL value_ref make_tensor_descriptor(const value_ref &base, const std::vector<value_ref> &shape,
                                         const std::vector<value_ref> &strides, shape_t block,
                                         padding pad, loc_t loc) {
  context &ctx = active(loc);
  check_access_block(block, "tk::make_tensor_descriptor", loc);
  if (pad == padding::nan && !elem_type{base->type.pointee}.is_float())
    fail(loc, "tk::make_tensor_descriptor: padding::nan needs a tensor of floats, got ",
         to_string(elem_type{base->type.pointee}));
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
    if (d + 1 < rank && (stride <= 0 || stride * bytes % 16 != 0))
      fail(loc, "tk::make_tensor_descriptor: the stride of dimension ", d, " (", stride,
           " elements) must be a positive multiple of 16 bytes");
  }
  return v;
}

TK_DECL std::int64_t descriptor_element(const value &desc, const std::vector<std::int64_t> &start,
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

TK_DECL value_ref descriptor_pointer(const value &desc, std::int64_t offset) {
  auto p = make_value(desc.type, {});
  p->extent = desc.extent;
  p->i.push_back(desc.i[0] + offset * elem_type{desc.type.pointee}.bytes());
  return p;
}

TK_DECL value_ref descriptor_load(const value_ref &desc, const std::vector<value_ref> &start,
                                  padding pad, loc_t loc) {
  context &ctx = active(loc);
  const elem_type t{desc->type.pointee};
  if (ctx.tracing()) {
    std::vector<value_ref> operands{desc};
    operands.insert(operands.end(), start.begin(), start.end());
    return record1("tk.descriptor_load", syntax::generic, std::move(operands), t, desc->shape,
                   pad == padding::nan ? "nan_padding" : "", loc);
  }
  std::vector<std::int64_t> at;
  for (const value_ref &s : start)
    at.push_back(s->i[0]);
  auto v = make_concrete(t, desc->shape);
  for (std::int64_t k = 0; k < v->size(); ++k) {
    const std::int64_t offset = descriptor_element(*desc, at, k);
    if (offset < 0) { // outside the tensor: the padding
      if (pad == padding::nan)
        v->f[std::size_t(k)] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
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

TK_DECL void descriptor_store(const value_ref &desc, const std::vector<value_ref> &start,
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

TK_DECL void check_row_block(const shape_t &block, const char *what, loc_t loc) {
  if (block.size() != 2 || block[0] != 1)
    fail(loc, what, ": the descriptor's block must be one row, [1, BN], as in Triton; got ",
         to_string(block));
}

/// The offset in the tensor of element (rows[r], col + c), or -1 outside it.
inline std::int64_t row_element(const value &desc, std::int64_t row, std::int64_t column) {
  if (row < 0 || row >= desc.i[1] || column < 0 || column >= desc.i[2])
    return -1;
  return row * desc.i[3] + column * desc.i[4];
}

TK_DECL value_ref descriptor_gather(const value_ref &desc, const value_ref &rows,
                                    const value_ref &col, padding pad, loc_t loc) {
  context &ctx = active(loc);
  const elem_type t{desc->type.pointee};
  const shape_t shape{rows->shape[0], desc->shape[1]};
  if (ctx.tracing())
    return record1("tk.descriptor_gather", syntax::generic, {desc, rows, col}, t, shape,
                   pad == padding::nan ? "nan_padding" : "", loc);
  auto v = make_concrete(t, shape);
  for (std::int64_t k = 0; k < v->size(); ++k) {
    const std::int64_t offset =
        row_element(*desc, rows->i[std::size_t(k / shape[1])], col->i[0] + k % shape[1]);
    if (offset < 0) { // outside the tensor: the padding
      if (pad == padding::nan)
        v->f[std::size_t(k)] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
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

TK_DECL void descriptor_scatter(const value_ref &desc, const value_ref &rows, const value_ref &col,
                                const value_ref &x, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing()) {
    record("tk.descriptor_scatter", syntax::generic, {desc, rows, col, x}, {}, "", loc);
    return;
  }
  const std::int64_t width = x->shape[1];
  for (std::int64_t k = 0; k < x->size(); ++k) {
    const std::int64_t offset =
        row_element(*desc, rows->i[std::size_t(k / width)], col->i[0] + k % width);
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

TK_DECL void descriptor_reduce(atomic_kind kind, const value_ref &desc,
                               const std::vector<value_ref> &start, const value_ref &x,
                               const char *what, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing()) {
    std::vector<value_ref> operands{desc};
    operands.insert(operands.end(), start.begin(), start.end());
    operands.push_back(x);
    record("tk.descriptor_reduce", syntax::generic, std::move(operands), {},
           std::string("kind = \"") + kind_name(kind) + '"', loc);
    return;
  }
  // The block's pointers, those outside the tensor masked off: the pointer atomics' semantics
  // (lane after lane, in row-major order) and checks.
  std::vector<std::int64_t> at;
  for (const value_ref &s : start)
    at.push_back(s->i[0]);
  auto ptrs = make_value(desc->type, desc->shape);
  ptrs->extent = desc->extent;
  auto mask = make_concrete(elem_of<bool>(), desc->shape);
  for (std::int64_t k = 0; k < x->size(); ++k) {
    const std::int64_t offset = descriptor_element(*desc, at, k);
    ptrs->i.push_back(offset < 0 ? 0 : descriptor_pointer(*desc, offset)->i[0]);
    mask->i[std::size_t(k)] = offset >= 0;
  }
  atomic_rmw(kind, ptrs, x, mask, sem::relaxed, scope::gpu, what, loc);
}

} // namespace tk::detail

/// @file block_pointer.ipp
/// The bodies of the functions block_pointer.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/block_pointer.hpp>

namespace tk::detail {

TK_DECL value_ref make_block_ptr(const value_ref &base, const std::vector<value_ref> &shape,
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

TK_DECL value_ref advance(const value_ref &ptr, const std::vector<value_ref> &offsets, loc_t loc) {
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

TK_DECL std::vector<bool> checked_dims(std::initializer_list<int> boundary_check, std::size_t rank,
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

TK_DECL std::string array_attr_of(const std::vector<bool> &checked) {
  shape_t dims;
  for (std::size_t d = 0; d < checked.size(); ++d)
    if (checked[d])
      dims.push_back(std::int64_t(d));
  return array_attr(dims);
}

TK_DECL std::optional<std::int64_t> block_element_address(const value &ptr,
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

TK_DECL value_ref block_load(const value_ref &ptr, std::initializer_list<int> boundary_check,
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

TK_DECL void block_store(const value_ref &ptr, const value_ref &x,
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

} // namespace tk::detail

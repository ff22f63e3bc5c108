/// @file atomics.ipp
/// The bodies of the functions atomics.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/trace/atomics.hpp>

namespace tk::detail {

TK_DECL const char *kind_name(atomic_kind k) {
  switch (k) {
  case atomic_kind::add:
    return "add";
  case atomic_kind::fadd:
    return "fadd";
  case atomic_kind::bit_and:
    return "and";
  case atomic_kind::bit_or:
    return "or";
  case atomic_kind::bit_xor:
    return "xor";
  case atomic_kind::max:
    return "max";
  case atomic_kind::min:
    return "min";
  case atomic_kind::umax:
    return "umax";
  case atomic_kind::umin:
    return "umin";
  case atomic_kind::fmax:
    return "fmax";
  case atomic_kind::fmin:
    return "fmin";
  case atomic_kind::xchg:
    return "xchg";
  }
  return "";
}

TK_DECL const char *sem_name(sem s) {
  switch (s) {
  case sem::relaxed:
    return "relaxed";
  case sem::acquire:
    return "acquire";
  case sem::release:
    return "release";
  case sem::acq_rel:
    return "acq_rel";
  }
  return "";
}

TK_DECL const char *scope_name(scope s) {
  switch (s) {
  case scope::gpu:
    return "gpu";
  case scope::cta:
    return "cta";
  case scope::sys:
    return "sys";
  }
  return "";
}

/// The properties of an atomic op, in the order MLIR prints them (alphabetical).
TK_DECL std::string atomic_attrs(const char *kind, sem s, scope sc) {
  std::string a;
  if (kind) {
    a += "kind = \"";
    a += kind;
    a += "\", ";
  }
  a += "scope = \"";
  a += scope_name(sc);
  a += "\", sem = \"";
  a += sem_name(s);
  a += '"';
  return a;
}

/// The bit pattern of element `k` of `x` (`bytes` wide, zero-extended).
TK_DECL std::uint64_t element_bits(const value &x, std::size_t k, int bytes) {
  unsigned char raw[8] = {};
  store_element(raw, x.type.code, x.type.is_float() ? x.f[k] : 0, x.type.is_float() ? 0 : x.i[k]);
  std::uint64_t bits = 0;
  std::memcpy(&bits, raw, std::size_t(bytes)); // little-endian, as every host TileKit runs on
  return bits;
}

TK_DECL std::uint64_t atomic_result_bits(atomic_kind kind, dtype d, std::uint64_t old,
                                         std::uint64_t val) {
  const int width = bit_width(d);
  const std::uint64_t all = width == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width) - 1;
  const std::uint64_t sign = std::uint64_t(1) << (width - 1);
  // The patterns as signed integers of the element's width.
  const auto as_signed = [&](std::uint64_t x) { return std::int64_t(x & sign ? x | ~all : x); };
  switch (kind) {
  case atomic_kind::add:
    return (old + val) & all;
  case atomic_kind::fadd: {
    unsigned char a[8] = {}, b[8] = {}, r[8] = {};
    std::memcpy(a, &old, 8);
    std::memcpy(b, &val, 8);
    double x = 0, y = 0;
    std::int64_t unused = 0;
    load_element(a, d, x, unused);
    load_element(b, d, y, unused);
    store_element(r, d, round_float(x + y, d), 0); // rounded once to the element type
    std::uint64_t bits = 0;
    std::memcpy(&bits, r, std::size_t(width / 8));
    return bits;
  }
  case atomic_kind::bit_and:
    return old & val;
  case atomic_kind::bit_or:
    return old | val;
  case atomic_kind::bit_xor:
    return old ^ val;
  case atomic_kind::max:
    return as_signed(old) >= as_signed(val) ? old : val;
  case atomic_kind::min:
    return as_signed(old) <= as_signed(val) ? old : val;
  case atomic_kind::umax:
    return old >= val ? old : val;
  case atomic_kind::umin:
    return old <= val ? old : val;
  // On the bit patterns, as the GPU does them: an operand with its sign bit clear takes the
  // signed integer max (min) of the two patterns, one with its sign bit set the unsigned integer
  // min (max). That orders every pattern as IEEE 754's totalOrder does: -NaN < -inf < ... < -0
  // < +0 < ... < +inf < +NaN.
  case atomic_kind::fmax:
    if (!(val & sign))
      return as_signed(old) >= as_signed(val) ? old : val;
    return old <= val ? old : val;
  case atomic_kind::fmin:
    if (!(val & sign))
      return as_signed(old) <= as_signed(val) ? old : val;
    return old >= val ? old : val;
  case atomic_kind::xchg:
    return val;
  }
  return old;
}

/// The address of an active lane of an atomic, checked as a store's is.
TK_DECL void *atomic_address(const context &ctx, const value &p, std::size_t k, const char *what,
                             loc_t loc) {
  if (std::uint64_t(p.i[k]) < null_page)
    fail(loc, what, ": null pointer at element ", k,
         " of the block (mask the lane off or pass a valid pointer)");
  if (p.extent >= 0 || ctx.checked)
    check_access(ctx, p, k, true, loc, what);
  return reinterpret_cast<void *>(p.i[k]);
}

/// Puts the element whose bit pattern is `bits` in lane `k` of `v`.
TK_DECL void put_bits(value &v, std::size_t k, std::uint64_t bits) {
  unsigned char raw[8] = {};
  std::memcpy(raw, &bits, 8);
  double f = 0;
  std::int64_t i = 0;
  load_element(raw, v.type.code, f, i);
  if (v.type.is_float())
    v.f[k] = f;
  else
    v.i[k] = i;
}

TK_DECL std::uint64_t read_bits(const void *address, int bytes) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, address, std::size_t(bytes));
  return bits;
}

TK_DECL value_ref atomic_rmw(atomic_kind kind, const value_ref &p, const value_ref &val,
                             const value_ref &mask, sem s, scope sc, const char *what, loc_t loc) {
  context &ctx = active(loc);
  const elem_type t{p->type.pointee};
  if (ctx.tracing()) {
    std::vector<value_ref> operands{p, val};
    if (mask)
      operands.push_back(mask);
    return record1("tk.atomic_rmw", syntax::generic, std::move(operands), t, p->shape,
                   atomic_attrs(kind_name(kind), s, sc), loc);
  }
  auto v = make_concrete(t, p->shape);
  const auto n = std::size_t(v->size());
  const int bytes = t.bytes();
  // Lane after lane, in row-major order: a lane sees what the lanes before it wrote.
  for (std::size_t k = 0; k < n; ++k) {
    if (mask && !mask->i[k])
      continue; // untouched; the old value is 0
    void *address = atomic_address(ctx, *p, k, what, loc);
    const std::uint64_t old = read_bits(address, bytes);
    const std::uint64_t now = atomic_result_bits(kind, t.code, old, element_bits(*val, k, bytes));
    std::memcpy(address, &now, std::size_t(bytes));
    put_bits(*v, k, old);
  }
  return v;
}

TK_DECL value_ref atomic_cas(const value_ref &p, const value_ref &cmp, const value_ref &val, sem s,
                             scope sc, const char *what, loc_t loc) {
  context &ctx = active(loc);
  const elem_type t{p->type.pointee};
  if (ctx.tracing())
    return record1("tk.atomic_cas", syntax::generic, {p, cmp, val}, t, p->shape,
                   atomic_attrs(nullptr, s, sc), loc);
  auto v = make_concrete(t, p->shape);
  const auto n = std::size_t(v->size());
  const int bytes = t.bytes();
  for (std::size_t k = 0; k < n; ++k) {
    void *address = atomic_address(ctx, *p, k, what, loc);
    const std::uint64_t old = read_bits(address, bytes);
    if (old == element_bits(*cmp, k, bytes)) { // bit patterns: -0 is not +0, a NaN may match
      const std::uint64_t now = element_bits(*val, k, bytes);
      std::memcpy(address, &now, std::size_t(bytes));
    }
    put_bits(*v, k, old);
  }
  return v;
}

TK_DECL value_ref atomic_update(atomic_kind kind, const value_ref &p, const term &val,
                                const value_ref &mask, sem s, scope sc, const char *what,
                                loc_t loc) {
  // As in tk::store, the pointers decide the shape: a larger value or mask would make two lanes
  // update one address in one step.
  check_broadcasts_to(val.shape(), "the value", p->shape, "the pointer block", what, loc);
  if (mask)
    check_broadcasts_to(mask->shape, "the mask", p->shape, "the pointer block", what, loc);
  // Named in order: C++ leaves the order of function arguments unspecified (IR op order).
  const auto v = materialize(val, elem_type{p->type.pointee}, p->shape, loc),
             m = mask ? broadcast_to(mask, p->shape, loc) : value_ref{};
  return atomic_rmw(kind, p, v, m, s, sc, what, loc);
}

TK_DECL value_ref atomic_compare_swap(const value_ref &p, const term &cmp, const term &val, sem s,
                                      scope sc, const char *what, loc_t loc) {
  check_broadcasts_to(cmp.shape(), "the compared value", p->shape, "the pointer block", what, loc);
  check_broadcasts_to(val.shape(), "the value", p->shape, "the pointer block", what, loc);
  const elem_type t{p->type.pointee};
  const auto c = materialize(cmp, t, p->shape, loc), v = materialize(val, t, p->shape, loc);
  return atomic_cas(p, c, v, s, sc, what, loc);
}

} // namespace tk::detail

/// @file semantics.ipp
/// The bodies of the functions semantics.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/trace/semantics.hpp>

namespace tk::detail {

TK_DECL const shape_t &term::shape() const {
  static const shape_t scalar;
  return v ? v->shape : scalar;
}

TK_DECL term operand_of(const value_ref &v, loc_t loc) {
  if (!v)
    fail(loc, "this block handle holds no value: it was default-constructed or moved from");
  check_origin(*v, loc);
  return {v};
}

/// The first dimension, counted in the result of broadcasting `a` and `b` (aligned at the right),
/// where neither is 1 and they differ; -1 when there is none.
TK_DECL std::int64_t broadcast_conflict(const shape_t &a, const shape_t &b, std::int64_t &da,
                                        std::int64_t &db) {
  const std::size_t rank = a.size() > b.size() ? a.size() : b.size();
  for (std::size_t k = 0; k < rank; ++k) {
    da = k < rank - a.size() ? 1 : a[k - (rank - a.size())];
    db = k < rank - b.size() ? 1 : b[k - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::int64_t(k);
  }
  return -1;
}

TK_DECL shape_t broadcasted(const shape_t &a, const shape_t &b) {
  const std::size_t rank = a.size() > b.size() ? a.size() : b.size();
  shape_t out(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    const std::int64_t da = k < rank - a.size() ? 1 : a[k - (rank - a.size())];
    const std::int64_t db = k < rank - b.size() ? 1 : b[k - (rank - b.size())];
    out[k] = da > db ? da : db;
  }
  return out;
}

TK_DECL shape_t broadcast_shape(const shape_t &a, const shape_t &b, const char *what, loc_t loc) {
  std::int64_t da = 0, db = 0;
  if (const std::int64_t k = broadcast_conflict(a, b, da, db); k >= 0)
    fail(loc, what, ": shapes ", to_string(a), " and ", to_string(b),
         " do not broadcast (dimension ", k, " is ", da, " against ", db, ")");
  return broadcasted(a, b);
}

TK_DECL shape_t broadcast_shape(const shape_t &a, const char *a_name, const shape_t &b,
                                const char *b_name, const char *what, loc_t loc) {
  std::int64_t da = 0, db = 0;
  if (const std::int64_t k = broadcast_conflict(a, b, da, db); k >= 0)
    fail(loc, what, ": ", a_name, " of shape ", to_string(a), " and ", b_name, " of shape ",
         to_string(b), " do not broadcast (dimension ", k, " is ", da, " against ", db, ")");
  return broadcasted(a, b);
}

TK_DECL void check_broadcasts_to(const shape_t &shape, const char *name, const shape_t &target,
                                 const char *target_name, const char *what, loc_t loc) {
  const auto mismatch = [&](const auto &...why) {
    fail(loc, what, ": ", name, " of shape ", to_string(shape), " does not broadcast to ",
         target_name, " of shape ", to_string(target), " (", why...,
         "); only its dimensions of size 1 may stretch");
  };
  if (shape.size() > target.size())
    mismatch("it has ", shape.size(), shape.size() == 1 ? " dimension" : " dimensions",
             ", more than ", target.size());
  const std::size_t lead = target.size() - shape.size();
  for (std::size_t k = 0; k < shape.size(); ++k)
    if (shape[k] != 1 && shape[k] != target[lead + k])
      mismatch("dimension ", lead + k, " is ", shape[k], " against ", target[lead + k]);
}

TK_DECL value_ref broadcast_to(value_ref v, const shape_t &shape, loc_t loc) {
  if (v->shape == shape)
    return v;
  if (v->shape.empty())
    return splat(v, shape, loc);
  if (v->shape.size() < shape.size()) {
    shape_t padded(shape.size() - v->shape.size(), 1);
    padded.insert(padded.end(), v->shape.begin(), v->shape.end());
    v = v->shape.size() + 1 == shape.size() ? expand_dims(v, 0, loc) : reshape(v, padded, loc);
  }
  return broadcast(v, shape, loc);
}

TK_DECL value_ref materialize(const term &x, elem_type t, const shape_t &shape, loc_t loc) {
  if (!x.v) {
    // A literal keeps its value across kinds: an integer literal in a float block (`1 / x`), a
    // float literal truncated toward zero in an integer block (`tk::store(int_ptr, 2.5)`).
    const bool from_float = is_float(x.literal);
    if (t.is_float())
      return const_value(t, shape, from_float ? x.f : double(x.i), 0, loc);
    if (t.code == dtype::i1)
      return const_value(t, shape, 0, from_float ? x.f != 0 : x.i != 0, loc);
    return const_value(t, shape, 0, from_float ? float_to_int(x.f, t.code) : x.i, loc);
  }
  return broadcast_to(convert(x.v, t, loc), shape, loc);
}

TK_DECL value_ref arith(binop o, const term &a, const term &b, loc_t loc) {
  const char *what = "binary operation";
  const shape_t shape = broadcast_shape(a.shape(), b.shape(), what, loc);
  if (a.code() == dtype::ptr || b.code() == dtype::ptr) {
    const term &p = a.code() == dtype::ptr ? a : b, &off = a.code() == dtype::ptr ? b : a;
    // tk.addptr reads its offsets as signed: unsigned offsets are zero-extended to i64 first
    // (as in Triton), and a literal that does not fit in i32 is an i64.
    const dtype oc = !is_weak(off.code())                         ? off.code()
                     : off.i == std::int64_t(std::int32_t(off.i)) ? dtype::i32
                                                                  : dtype::i64;
    const elem_type off_type{is_unsigned(oc) && bit_width(oc) < 64 ? dtype::i64 : oc};
    auto offsets = materialize(off, off_type, shape, loc);
    if (o == binop::sub)
      offsets = binary(binop::sub, const_value(off_type, shape, 0, 0, loc), offsets, loc);
    return addptr(materialize(p, p.v->type, shape, loc), offsets, loc);
  }
  const elem_type t{promote(a.code(), b.code())};
  // One declaration per operand: C++ leaves the order of function arguments unspecified, and
  // the IR must not depend on the compiler. Likewise below.
  const auto x = materialize(a, t, shape, loc), y = materialize(b, t, shape, loc);
  return binary(o, x, y, loc);
}

TK_DECL value_ref compare(cmpop o, const term &a, const term &b, loc_t loc) {
  const shape_t shape = broadcast_shape(a.shape(), b.shape(), "comparison", loc);
  const elem_type t = a.code() == dtype::ptr ? a.v->type : elem_type{promote(a.code(), b.code())};
  const auto x = materialize(a, t, shape, loc), y = materialize(b, t, shape, loc);
  return compare(o, x, y, loc);
}

TK_DECL value_ref logical(binop o, const term &a, const term &b, loc_t loc) {
  const shape_t shape = broadcast_shape(a.shape(), b.shape(), "logical operation", loc);
  const elem_type t{dtype::i1};
  const auto x = materialize(a, t, shape, loc), y = materialize(b, t, shape, loc);
  return binary(o, x, y, loc);
}

TK_DECL value_ref where(const term &c, const term &a, const term &b, loc_t loc) {
  const shape_t shape = broadcast_shape(
      c.shape(), broadcast_shape(a.shape(), b.shape(), "tk::where", loc), "tk::where", loc);
  const elem_type t = a.code() == dtype::ptr   ? a.v->type
                      : b.code() == dtype::ptr ? b.v->type
                                               : elem_type{promote(a.code(), b.code())};
  const auto cond = materialize(c, {dtype::i1}, shape, loc), x = materialize(a, t, shape, loc),
             y = materialize(b, t, shape, loc);
  return select(cond, x, y, loc);
}

} // namespace tk::detail

/// @file semantics.hpp
/// Triton's operand rules on top of the primitives: C++ literals as weakly typed scalars, type
/// promotion, broadcasting (shapes aligned at the right, size-1 dimensions stretched) and pointer
/// arithmetic.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/trace/primitives.hpp>

namespace tk::detail {

/// An operand of a binary operation: a block's value, or a literal from the user's C++ code.
struct term {
  value_ref v;                     ///< null for a literal
  dtype literal = dtype::weak_int; ///< a literal's dtype: weak unless it was a tk::half, bool, ...
  double f = 0;
  std::int64_t i = 0;

  dtype code() const { return v ? v->type.code : literal; }
  const shape_t &shape() const;
};

TK_DECL term operand_of(const value_ref &v, loc_t loc);

/// The shape two operands broadcast to.
TK_DECL shape_t broadcast_shape(const shape_t &a, const shape_t &b, const char *what, loc_t loc);

/// The same, for operands that errors name: "tk::load: the mask of shape [32] and the pointer
/// block of shape [16] do not broadcast (...)".
TK_DECL shape_t broadcast_shape(const shape_t &a, const char *a_name, const shape_t &b,
                                const char *b_name, const char *what, loc_t loc);

/// Fails unless an operand of `shape` broadcasts to `target` without changing it, as a stored
/// value must to the shape of the pointers or block it is stored through (two lanes would write
/// one address): "tk::store: the value of shape [32] does not broadcast to the pointer block of
/// shape [16] (...)".
TK_DECL void check_broadcasts_to(const shape_t &shape, const char *name, const shape_t &target,
                                 const char *target_name, const char *what, loc_t loc);

/// Brings `v` to `shape`: a scalar is splatted; a block of lower rank gains leading dimensions of
/// size 1; dimensions of size 1 are stretched.
TK_DECL value_ref broadcast_to(value_ref v, const shape_t &shape, loc_t loc);

/// The operand as a value of element type `t` and shape `shape`.
TK_DECL value_ref materialize(const term &x, elem_type t, const shape_t &shape, loc_t loc);

/// `a op b` with promotion and broadcasting; pointer + integer for `add` and `sub`.
TK_DECL value_ref arith(binop o, const term &a, const term &b, loc_t loc);

TK_DECL value_ref compare(cmpop o, const term &a, const term &b, loc_t loc);

/// `a && b`, `a || b`: both sides as booleans.
TK_DECL value_ref logical(binop o, const term &a, const term &b, loc_t loc);

TK_DECL value_ref where(const term &c, const term &a, const term &b, loc_t loc);

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/trace/semantics.ipp>
#endif

/// @file reduce.ipp
/// The bodies of the functions reduce.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/reduce.hpp>

namespace tk::detail {

TK_DECL std::vector<value_ref> binop_combine::operator()(const std::vector<value_ref> &lhs,
                                                         const std::vector<value_ref> &rhs) const {
  return {binary(o, lhs[0], rhs[0], loc)};
}

TK_DECL std::vector<value_ref> arg_combine::operator()(const std::vector<value_ref> &lhs,
                                                       const std::vector<value_ref> &rhs) const {
  // The interpreter evaluates the rule directly, without a scalar value per op (the ops made
  // argmax several times slower there); a unit test checks that both agree.
  if (!current_context()->tracing())
    return arg_keeps_lhs(greater, *lhs[0], *lhs[1], *rhs[0], *rhs[1]) ? lhs : rhs;
  return arg_combine_ops(greater, tie_left, lhs, rhs, loc);
}

TK_DECL bool arg_keeps_lhs(bool greater, const value &lv, const value &li, const value &rv,
                           const value &ri) {
  const bool lower = li.i[0] < ri.i[0];
  if (lv.type.is_float()) {
    const double l = lv.f[0], r = rv.f[0];
    if (l != l) // NaN
      return r == r || lower;
    return r == r && ((greater ? l > r : l < r) || (l == r && lower));
  }
  const auto before = [&](std::int64_t a, std::int64_t b) {
    return is_unsigned(lv.type.code) ? std::uint64_t(a) < std::uint64_t(b) : a < b;
  };
  const std::int64_t l = lv.i[0], r = rv.i[0];
  return (greater ? before(r, l) : before(l, r)) || (l == r && lower);
}

TK_DECL std::vector<value_ref> arg_combine_ops(bool greater, bool tie_left,
                                               const std::vector<value_ref> &lhs,
                                               const std::vector<value_ref> &rhs, loc_t loc) {
  // Named in order: C++ leaves the order of function arguments unspecified (IR op order).
  auto take = compare(greater ? cmpop::gt : cmpop::lt, lhs[0], rhs[0], loc);
  value_ref lower;
  if (tie_left) {
    auto same = compare(cmpop::eq, lhs[0], rhs[0], loc);
    lower = compare(cmpop::lt, lhs[1], rhs[1], loc);
    auto tie = binary(binop::bit_and, same, lower, loc);
    take = binary(binop::bit_or, take, tie, loc);
  }
  if (lhs[0]->type.is_float()) {
    // take = (lhs is NaN and (rhs is a number or lower)) or (rhs is a number and take); with
    // ties broken either way, a NaN on the left wins whatever the right holds.
    auto lhs_nan = compare(cmpop::ne, lhs[0], lhs[0], loc);
    auto rhs_number = compare(cmpop::eq, rhs[0], rhs[0], loc);
    auto nan_wins = lhs_nan;
    if (tie_left)
      nan_wins =
          binary(binop::bit_and, lhs_nan, binary(binop::bit_or, rhs_number, lower, loc), loc);
    auto number_wins = binary(binop::bit_and, rhs_number, take, loc);
    take = binary(binop::bit_or, nan_wins, number_wins, loc);
  }
  return {select(take, lhs[0], rhs[0], loc), select(take, lhs[1], rhs[1], loc)};
}

} // namespace tk::detail

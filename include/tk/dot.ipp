/// @file dot.ipp
/// The body of `tk::dot`'s checks, declared in dot.hpp: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/dot.hpp>

namespace tk::detail {

TK_DECL value_ref dot_impl(const value_ref &a, const value_ref &b, const value_ref &acc,
                           elem_type out, dot_precision precision, const dot_options &options,
                           loc_t loc) {
  const auto &sa = a->shape, &sb = b->shape;
  const std::size_t rank = sa.size(), r = rank - 2; // the rows' dimension
  if (rank == 3 && sa[0] != sb[0])
    fail(loc, "tk::dot: the batch sizes differ: a is ", to_string(sa), ", b is ", to_string(sb));
  if (sa[r + 1] != sb[r])
    fail(loc, "tk::dot: inner dimensions differ: a is ", to_string(sa), ", b is ", to_string(sb));
  if (sa[r] < 16 || sa[r + 1] < 16 || sb[r + 1] < 16)
    fail(loc, "tk::dot: every dimension must be at least 16 (tensor-core tiles), got a ",
         to_string(sa), " and b ", to_string(sb));
  shape_t shape = sa;
  shape[r + 1] = sb[r + 1];
  if (acc && acc->shape != shape)
    fail(loc, "tk::dot: the accumulator is ", to_string(acc->shape), " but a x b is ",
         to_string(shape));
  int imprecise = -1; // none
  if (const auto limit = options.max_num_imprecise_acc) {
    if (*limit < 0 || *limit > sa[r + 1])
      fail(loc, "tk::dot: max_num_imprecise_acc must be from 0 to K = ", sa[r + 1], ", got ",
           *limit);
    imprecise = *limit;
  }
  const auto c = acc ? acc : const_value(out, shape, 0, 0, loc);
  return dot(a, b, c, precision, imprecise, loc);
}

} // namespace tk::detail

/// @file control.ipp
/// The bodies of the functions control.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/control.hpp>

namespace tk::detail {

TK_DECL void check_carried(const carried_list &carried, const char *what, loc_t loc) {
  for (auto &[h, old] : carried) {
    if (!old)
      fail(loc, what,
           ": a block handle assigned in the body has no value before it; initialize "
           "it (e.g. with tk::zeros) before the ",
           what);
    check_origin(*old, loc);
  }
}

TK_DECL void check_same_type(const value_ref &before, const value_ref &after, const char *what,
                             loc_t loc) {
  if (!after)
    fail(loc, what, ": a carried block handle was left without a value by the body");
  check_origin(*before, loc);
  check_origin(*after, loc);
  if (before->type != after->type || before->shape != after->shape || before->kind != after->kind)
    fail(loc, what, ": a carried value changes from ", to_string(before->type), " ",
         to_string(before->shape), " to ", to_string(after->type), " ", to_string(after->shape),
         " in the body; a carried value must keep its type and shape");
}

} // namespace tk::detail

/// @file shape.ipp
/// The bodies of the functions shape.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/shape.hpp>

namespace tk::detail {

TK_DECL int normalize_axis(int axis, int rank, const char *what, loc_t loc) {
  if (axis < -rank || axis >= rank)
    fail(loc, what, ": axis ", axis, " is out of range for a block of rank ", rank,
         rank ? " (valid: " + std::to_string(-rank) + " to " + std::to_string(rank - 1) + ")" : "");
  return axis < 0 ? axis + rank : axis;
}

} // namespace tk::detail

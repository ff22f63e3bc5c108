/// @file arguments.ipp
/// The bodies of the functions arguments.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/kernel/arguments.hpp>
#include <tk/error.hpp>

namespace tk::detail {

TK_DECL void argument_does_not_fit(std::source_location where, std::size_t index,
                                   const std::string &value, dtype type) {
  fail(where, "launch argument ", index, ": ", value, " does not fit in the parameter's type ",
       name(type));
}

} // namespace tk::detail

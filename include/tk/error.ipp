/// @file error.ipp
/// The bodies of the functions error.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/error.hpp>

namespace tk {

TK_DECL std::string error::format(const std::string &what, const std::source_location &where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line()) + ":" +
         std::to_string(where.column()) + ": error: " + what;
}

} // namespace tk

namespace tk::detail {

[[noreturn]] TK_DECL void fail_with(std::source_location where,
                                    std::initializer_list<message_part> parts) {
  std::string message;
  for (const message_part &p : parts)
    message += p.text();
  throw error(message, where);
}

} // namespace tk::detail

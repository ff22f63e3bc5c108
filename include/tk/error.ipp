/// @file error.ipp
/// The bodies of the functions error.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/error.hpp>

#include <charconv>

namespace tk {

TK_DECL std::string error::format(const std::string &what, const std::source_location &where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line()) + ":" +
         std::to_string(where.column()) + ": error: " + what;
}

} // namespace tk

namespace tk::detail {

[[noreturn]] TK_DECL void internal_error(const std::string &what, std::source_location where) {
  throw std::logic_error("TileKit internal error at " + std::string(where.file_name()) + ":" +
                         std::to_string(where.line()) + ": " + what);
}

TK_DECL std::string_view message_part::write(char (&buffer)[32], long long v) {
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  return std::string_view(buffer, std::size_t(end - buffer));
}

TK_DECL std::string_view message_part::write(char (&buffer)[32], unsigned long long v) {
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  return std::string_view(buffer, std::size_t(end - buffer));
}

[[noreturn]] TK_DECL void fail_with(std::source_location where,
                                    std::initializer_list<message_part> parts) {
  std::string message;
  for (const message_part &p : parts)
    message += p.text();
  throw error(message, where);
}

} // namespace tk::detail

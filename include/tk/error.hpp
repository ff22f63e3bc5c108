/// @file error.hpp
/// `tk::error`: the exception for every mistake TileKit detects while tracing, interpreting or
/// launching a kernel. Its message starts with the user's `file:line:column`.
#pragma once

#include <source_location>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tk {

class error : public std::runtime_error {
public:
  error(const std::string &what, std::source_location where)
      : std::runtime_error(format(what, where)), where_(where), what_(what) {}

  /// Where in the user's code the mistake was made.
  const std::source_location &where() const noexcept { return where_; }
  /// The message without the location prefix.
  const std::string &message() const noexcept { return what_; }

private:
  static std::string format(const std::string &what, const std::source_location &where) {
    return std::string(where.file_name()) + ":" + std::to_string(where.line()) + ":" +
           std::to_string(where.column()) + ": error: " + what;
  }

  std::source_location where_;
  std::string what_;
};

namespace detail {

/// Internal invariant violated: a TileKit bug, not the user's.
[[noreturn]] inline void
internal_error(const std::string &what,
               std::source_location where = std::source_location::current()) {
  throw std::logic_error("TileKit internal error at " + std::string(where.file_name()) + ":" +
                         std::to_string(where.line()) + ": " + what);
}

/// Throws `tk::error` at `where` with the streamed `parts` as its message.
template <class... Parts>
[[noreturn]] void fail(std::source_location where, const Parts &...parts) {
  std::ostringstream out;
  (out << ... << parts);
  throw error(out.str(), where);
}

} // namespace detail
} // namespace tk

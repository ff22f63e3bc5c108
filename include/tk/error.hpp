/// @file error.hpp
/// `tk::error`: the exception for every mistake TileKit detects while tracing, interpreting or
/// launching a kernel. Its message starts with the user's `file:line:column`.
#pragma once

#include <tk/detail/config.hpp>

#include <cstdio>
#include <initializer_list>
#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

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
  static std::string format(const std::string &what, const std::source_location &where);

  std::source_location where_;
  std::string what_;
};

namespace detail {

/// Internal invariant violated: a TileKit bug, not the user's.
[[noreturn]] TK_DECL void
internal_error(const std::string &what,
               std::source_location where = std::source_location::current());

/// One piece of an error message: text, or a number written as `std::ostream` would write it
/// (integers in decimal, floating point as `%g`).
class message_part {
public:
  message_part(std::string_view text) : text_(text) {}
  message_part(const std::string &text) : text_(text) {}
  message_part(const char *text) : text_(text) {}
  message_part(char c) : text_(buffer_, 1) { buffer_[0] = c; }
  message_part(bool b) : text_(b ? "1" : "0") {}
  template <class T>
    requires std::is_integral_v<T>
  message_part(T v)
      : text_(std::is_signed_v<T> ? write(buffer_, static_cast<long long>(v))
                                  : write(buffer_, static_cast<unsigned long long>(v))) {}
  message_part(double v) {
    const int n = std::snprintf(buffer_, sizeof buffer_, "%g", v);
    text_ = std::string_view(buffer_, n > 0 ? std::size_t(n) : 0);
  }
  message_part(const message_part &) = delete;
  message_part &operator=(const message_part &) = delete;

  std::string_view text() const { return text_; }

private:
  char buffer_[32];
  std::string_view text_;

  /// `v` in decimal, written into `buffer`.
  TK_DECL static std::string_view write(char (&buffer)[32], long long v);
  TK_DECL static std::string_view write(char (&buffer)[32], unsigned long long v);
};

/// Throws `tk::error` at `where` with the concatenated `parts` as its message.
[[noreturn]] TK_DECL void fail_with(std::source_location where,
                                    std::initializer_list<message_part> parts);

/// Throws `tk::error` at `where` with `parts` (text, characters and numbers) as its message.
template <class... Parts>
[[noreturn]] void fail(std::source_location where, const Parts &...parts) {
  fail_with(where, {message_part(parts)...});
}

} // namespace detail
} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/error.ipp>
#endif

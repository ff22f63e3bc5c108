/// @file env.hpp
/// Boolean environment variables (TK_INTERPRET, TK_DEBUG, TK_NVJITLINK, ...), read by one rule
/// everywhere: 1/true/yes/on and 0/false/no/off in any case; unset or empty is the default;
/// anything else is reported once on stderr and read as the default. The backend library (lib/)
/// includes this header too, so that the rule exists once: it may use the standard library only.
#pragma once

#include <tk/detail/config.hpp>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>

namespace tk::detail::env {

/// What a boolean variable says.
enum class setting { unset, on, off, invalid };

/// Whether `value` equals `lower` (lower-case ASCII) ignoring case.
constexpr bool equals_ignoring_case(std::string_view value, std::string_view lower) {
  if (value.size() != lower.size())
    return false;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i] >= 'A' && value[i] <= 'Z' ? char(value[i] - 'A' + 'a') : value[i];
    if (c != lower[i])
      return false;
  }
  return true;
}

/// `value` read by the rule above; nullptr (unset) and "" are `unset`.
constexpr setting parse(const char *value) {
  if (!value || !*value)
    return setting::unset;
  constexpr std::string_view on_words[] = {"1", "true", "yes", "on"};
  constexpr std::string_view off_words[] = {"0", "false", "no", "off"};
  for (std::string_view word : on_words)
    if (equals_ignoring_case(value, word))
      return setting::on;
  for (std::string_view word : off_words)
    if (equals_ignoring_case(value, word))
      return setting::off;
  return setting::invalid;
}

/// True the first time it is asked about `name` in this process (in this library: the backend
/// keeps its own record). `name` must outlive the process: a string literal.
TK_DECL bool first_complaint_about(const char *name);

/// Prints `tk: ignoring NAME=value: ...; using <what>` once per variable (see
/// first_complaint_about): for a value of a variable that TileKit cannot read.
TK_DECL void complain_once(const char *name, const char *value, const char *expected,
                           const char *fallback);

/// The values a boolean variable takes, as complaints name them.
inline constexpr const char *boolean_values = "1, true, yes, on or 0, false, no, off (any case)";

/// The boolean variable `name`: on, off, or unset (also for a value that is neither, which is
/// reported once, saying that `fallback` — what unset means — is used instead).
TK_DECL setting read(const char *name, const char *fallback);

/// The boolean variable `name`, `fallback` when it is unset, empty or not a boolean.
inline bool flag(const char *name, bool fallback = false) {
  const setting s = read(name, fallback ? "the default, on" : "the default, off");
  return s == setting::unset ? fallback : s == setting::on;
}

} // namespace tk::detail::env

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/env.ipp>
#endif

/// @file env.ipp
/// The bodies of the functions env.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/env.hpp>

namespace tk::detail::env {

TK_DECL bool first_complaint_about(const char *name) {
  static std::mutex mutex;
  static const char *named[64] = {};
  std::lock_guard lock(mutex);
  for (const char *&slot : named) {
    if (!slot) {
      slot = name;
      return true;
    }
    if (std::string_view(slot) == name)
      return false;
  }
  return false; // more variables than slots: already noisy enough
}

TK_DECL void complain_once(const char *name, const char *value, const char *expected,
                           const char *fallback) {
  if (!first_complaint_about(name))
    return;
  const std::string line = std::string("tk: ignoring ") + name + "=" + value + ": expected " +
                           expected + "; using " + fallback + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

TK_DECL setting read(const char *name, const char *fallback) {
#if defined(_MSC_VER)
#pragma warning(push)
#pragma warning(disable : 4996) // getenv is fine: the value is used at once
#endif
  const char *value = std::getenv(name);
#if defined(_MSC_VER)
#pragma warning(pop)
#endif
  const setting s = parse(value);
  if (s != setting::invalid)
    return s;
  complain_once(name, value, boolean_values, fallback);
  return setting::unset;
}

} // namespace tk::detail::env

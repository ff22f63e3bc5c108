/// @file value.ipp
/// The bodies of the functions value.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/trace/value.hpp>

namespace tk::detail {

TK_DECL std::string to_string(const elem_type &t) {
  if (t.is_pointer())
    return "ptr<" + std::string(name(t.pointee)) + ">";
  return std::string(name(t.code));
}

TK_DECL std::int64_t numel(const shape_t &shape) {
  std::int64_t n = 1;
  for (auto d : shape)
    n *= d;
  return n;
}

TK_DECL std::string to_string(const shape_t &shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

} // namespace tk::detail

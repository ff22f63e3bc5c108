/// @file context.ipp
/// The bodies of the functions context.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/trace/context.hpp>

namespace tk::detail {

TK_DECL bool has_entry(const carried_list &list, const handle_base *handle) {
  for (const auto &entry : list)
    if (entry.first == handle)
      return true;
  return false;
}

TK_DECL const kernel_origin *intern_origin(const std::string &name, std::source_location loc) {
  static std::mutex mutex;
  static const kernel_origin *head = nullptr;
  const std::lock_guard lock(mutex);
  for (const kernel_origin *o = head; o; o = o->next)
    if (o->name == name && o->loc.line() == loc.line() && o->loc.column() == loc.column() &&
        std::string_view(o->loc.file_name()) == loc.file_name())
      return o;
  head = new kernel_origin{name, loc, head};
  return head;
}

TK_DECL void handle_base::assign(value_ref v) noexcept {
  if (context *ctx = current_context(); ctx && ctx->tracing()) {
    for (std::size_t f = std::size_t(depth_); f < ctx->frames.size(); ++f) {
      auto &assigned = ctx->frames[f].assigned;
      if (!has_entry(assigned, this))
        assigned.emplace_back(this, v_);
    }
  }
  v_ = std::move(v);
}

} // namespace tk::detail

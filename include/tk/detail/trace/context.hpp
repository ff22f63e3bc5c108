/// @file context.hpp
/// The thread-local state of the kernel being traced or interpreted, and the base of every block
/// handle. Assigning to a handle that was created outside the loop or branch being traced is
/// recorded here: that is how `acc = tk::dot(a, b, acc)` inside a loop body becomes a loop-carried
/// value.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/trace/graph.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <source_location>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tk::detail {

struct handle_base;

enum class mode { trace, interpret };

/// Handles, each with a value: the value a handle had before a region assigned to it.
using carried_list = std::vector<std::pair<handle_base *, value_ref>>;

/// Whether `list` has an entry for `handle`.
TK_DECL bool has_entry(const carried_list &list, const handle_base *handle);

/// One region being traced. `assigned` lists the handles from enclosing scopes that were assigned
/// while it was open, each with the value it had before.
struct frame {
  region *body = nullptr;
  carried_list assigned;
};

/// The kernel a trace or launch runs, named in errors about a block used outside it. Interned
/// (one per name and place, never freed), so a value may point at it after the kernel is gone.
struct kernel_origin {
  std::string name;
  std::source_location loc;
  const kernel_origin *next = nullptr;
};

TK_DECL const kernel_origin *intern_origin(const std::string &name, std::source_location loc);

/// Reserves `count` consecutive generations, never 0: one for a trace, one per program instance
/// for a launch on the interpreter.
inline std::uint64_t new_generations(std::uint64_t count) {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(count, std::memory_order_relaxed);
}

/// Interpreter: the bytes [begin, end) of a buffer passed as a launch argument; empty for an
/// argument that is not a buffer.
struct buffer_extent {
  std::uint64_t begin = 0, end = 0;
  bool known = false;
};

/// A tk::device_assert of a traced kernel: what the runtime names when it fails on the GPU.
struct assert_site {
  std::string message;
  std::source_location loc;
};

struct context {
  mode kind = mode::trace;
  std::vector<frame> frames;                ///< trace: innermost last
  std::array<std::int64_t, 3> program_id{}; ///< interpret: this program instance
  std::array<std::int64_t, 3> num_programs{1, 1, 1};
  std::uint64_t generation = 0;       ///< this trace or program instance; values record it
  std::uint64_t first_generation = 0; ///< interpret: the launch's program instance (0, 0, 0)
  const kernel_origin *origin = nullptr;
  std::vector<buffer_extent> extents;     ///< interpret: per launch argument, when any is a buffer
  bool checked = false;                   ///< interpret: the checks of TK_INTERPRET_CHECK
  bool debug = false;                     ///< device asserts on (launch_options::debug, TK_DEBUG)
  std::vector<assert_site> asserts;       ///< trace: the kernel's asserts, in `id` order
  std::vector<std::string> static_prints; ///< the lines tk::static_print printed (once each)

  region &body() { return *frames.back().body; }
  bool tracing() const { return kind == mode::trace; }
};

inline context *&current_context() {
  thread_local context *ctx = nullptr;
  return ctx;
}

/// Installs a context for the duration of a trace or a program instance.
class context_scope {
public:
  explicit context_scope(context &ctx) : saved_(current_context()) { current_context() = &ctx; }
  ~context_scope() { current_context() = saved_; }
  context_scope(const context_scope &) = delete;
  context_scope &operator=(const context_scope &) = delete;

private:
  context *saved_;
};

inline int current_depth() {
  context *ctx = current_context();
  return ctx && ctx->tracing() ? int(ctx->frames.size()) : 0;
}

/// The untyped part of a block handle.
struct handle_base {
  value_ref v_;
  int depth_ = current_depth(); ///< number of regions open when the handle was made

  handle_base() = default;
  explicit handle_base(value_ref v) : v_(std::move(v)) {}
  handle_base(const handle_base &o) : v_(o.v_) {}
  handle_base(handle_base &&o) noexcept : v_(std::move(o.v_)) {}
  handle_base &operator=(const handle_base &o) {
    assign(o.v_);
    return *this;
  }
  handle_base &operator=(handle_base &&o) noexcept {
    assign(std::move(o.v_));
    return *this;
  }
  ~handle_base() = default;

  /// Rebinds the handle, recording the assignment in every region opened since it was made.
  void assign(value_ref v) noexcept;
};

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/trace/context.ipp>
#endif

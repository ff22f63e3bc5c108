/// @file debug.hpp
/// Printing and checking from inside a kernel, and telling the compiler what you know:
/// `tk::device_print`, `tk::device_assert`, `tk::debug_barrier` (Triton's device_print,
/// device_assert, debug_barrier), the hints `tk::multiple_of`, `tk::max_contiguous`,
/// `tk::max_constancy` and `tk::assume`, and programmatic dependent launch's `tk::gdc_wait` and
/// `tk::gdc_launch_dependents`.
#pragma once

#include <tk/block.hpp>
#include <tk/detail/trace/debug.hpp>
#include <tk/math.hpp>

#include <cstdint>
#include <initializer_list>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

namespace tk {
namespace detail {

/// Triton's prefix rule: with values, the prefix ends in ": "; a prefix longer than two
/// characters starts with a space.
inline std::string munge_prefix(std::string_view prefix, bool has_values) {
  std::string p(prefix);
  if (has_values && (p.empty() || p.back() != ' '))
    p += ' ';
  if (has_values && (p.size() < 2 || p.compare(p.size() - 2, 2, ": ") != 0))
    p = p.substr(0, p.size() - 1) + ": ";
  if (p.size() > 2 && p.front() != ' ')
    p = ' ' + p;
  return p;
}

template <class X> value_ref value_of(const X &x, loc_t loc) {
  static_assert(any_block<X>, "tk: expected a block or a scalar handle (tk::i32, ...)");
  return operand_of(x.v_, loc).v;
}

inline std::vector<std::int64_t> hint_values(std::initializer_list<std::int64_t> values) {
  return std::vector<std::int64_t>(values);
}

template <class... Xs>
void device_print_impl(std::string_view prefix, bool hex, loc_t loc, const Xs &...values) {
  std::vector<value_ref> vs;
  (vs.push_back(value_of(values, loc)), ...);
  const std::vector<bool> is_signed{std::is_signed_v<element_of<Xs>>...};
  // Blocks of one shape; scalars among them print with an empty index (as tk.print verifies).
  const value_ref *first = nullptr;
  for (const value_ref &v : vs)
    if (!v->shape.empty() && !first)
      first = &v;
    else if (!v->shape.empty() && v->shape != (*first)->shape)
      fail(loc, "tk::device_print: the values must have one shape, got ",
           to_string((*first)->shape), " and ", to_string(v->shape),
           "; print them in separate calls");
  print_values(munge_prefix(prefix, !vs.empty()), vs, is_signed, hex, loc);
}

} // namespace detail

/// A print's prefix and the line that prints: made from a string literal where tk::device_print
/// is called, so that its location is the caller's.
struct print_prefix {
  std::string_view text;
  std::source_location loc;
  print_prefix(const char *prefix, std::source_location where = std::source_location::current())
      : text(prefix), loc(where) {}
  print_prefix(std::string_view prefix,
               std::source_location where = std::source_location::current())
      : text(prefix), loc(where) {}
};

/// The tag that makes tk::device_print print bits in hexadecimal: `tk::device_print(tk::hex,
/// "bits", x)`.
struct hex_t {};
inline constexpr hex_t hex{};

/// Prints `values` from every program instance, one line per element, in Triton's format:
/// `pid (0, 0, 0) idx ( 3) x: 1.500000` (the program id, the element's index, the prefix, the
/// value; `(operand n) ` before the value when there are several). The values are blocks of
/// one shape, or scalars. As in Triton, a prefix is made to end in ": " when values follow and
/// to start with a space. On the GPU each element prints once, through `vprintf` (the order of
/// lines across threads is the GPU's); the interpreter prints in row-major order. Integers
/// print signed or not as their C++ type is.
template <class... Xs> void device_print(print_prefix prefix, const Xs &...values) {
  detail::device_print_impl(prefix.text, false, prefix.loc, values...);
}

/// As above, each value's bits in hexadecimal (Triton's hex=True).
template <class... Xs> void device_print(hex_t, print_prefix prefix, const Xs &...values) {
  detail::device_print_impl(prefix.text, true, prefix.loc, values...);
}

/// Stops the kernel where an element of `condition` is false, with `message` and this line.
/// Off unless debugging is on (launch_options::debug or TK_DEBUG=1, as Triton's debug flag):
/// then the GPU reports through `__assertfail` and the launch, or the next call that waits for
/// the GPU, throws tk::error naming this line, the message and the program; the interpreter
/// throws it at once.
template <class C>
void device_assert(const C &condition, std::string_view message = "",
                   std::source_location loc = std::source_location::current()) {
  static_assert(any_block<C> && std::is_same_v<detail::element_of<C>, bool>,
                "tk::device_assert: the condition must be a boolean block or tk::i1, e.g. x >= 0");
  detail::assert_true(detail::value_of(condition, loc), message, loc);
}

/// Checks `condition` only where `mask` is true (Triton's `device_assert(cond, msg, mask)`): the
/// condition and the mask broadcast together, and a lane the mask leaves out never fails.
template <class C, class M>
  requires(any_block<M> && std::is_same_v<detail::element_of<M>, bool>)
void device_assert(const C &condition, std::string_view message, const M &mask,
                   std::source_location loc = std::source_location::current()) {
  static_assert(any_block<C> && std::is_same_v<detail::element_of<C>, bool>,
                "tk::device_assert: the condition must be a boolean block or tk::i1, e.g. x >= 0");
  if (detail::asserts_on(loc)) // no select is traced when asserts are off
    device_assert(tk::where(mask, condition, true, loc), message, loc);
}

/// Every thread of the program instance waits here (`bar.sync 0`).
inline void debug_barrier(std::source_location loc = std::source_location::current()) {
  detail::debug_barrier(loc);
}

/// Programmatic dependent launch (Triton's tl.extra.cuda.gdc_wait): waits until the kernel
/// launched before this one on its stream has finished and its memory writes are visible. Only
/// a launch with launch_options::launch_pdl can start before that kernel ends; in others, and
/// before sm_90, it returns at once. Put it before the first access to what that kernel writes.
inline void gdc_wait(std::source_location loc = std::source_location::current()) {
  detail::grid_dependency(false, loc);
}

/// Programmatic dependent launch (Triton's tl.extra.cuda.gdc_launch_dependents): the next kernel
/// on the stream, if launched with launch_options::launch_pdl, may start once every program of
/// this one has called this or exited. It orders no memory: that kernel's tk::gdc_wait still
/// waits for this one to finish. Nothing before sm_90.
inline void gdc_launch_dependents(std::source_location loc = std::source_location::current()) {
  detail::grid_dependency(true, loc);
}

/// Tells the compiler that along each dimension d the values of `x` are multiples of
/// `values[d]` (for a run of consecutive values, its first): `x` itself. `x` is an integer block
/// or a block of pointers, whose values are addresses counted in bytes, as in Triton
/// (`tk::multiple_of(a, 16)`: `a` is 16-byte aligned). As Triton's tl.multiple_of, it is a
/// promise the compiler relies on to vectorize accesses; it is not checked on the GPU.
template <class X>
X multiple_of(const X &x, std::initializer_list<std::int64_t> values,
              std::source_location loc = std::source_location::current()) {
  static_assert(any_block<X> && detail::hint_operand<detail::element_of<X>>,
                "tk::multiple_of: hints apply to integer blocks (the offsets) and pointer blocks");
  return X(detail::hint(detail::hint_kind::multiple_of, detail::value_of(x, loc),
                        detail::hint_values(values), loc));
}
template <class X>
X multiple_of(const X &x, std::int64_t value,
              std::source_location loc = std::source_location::current()) {
  return multiple_of(x, {value}, loc);
}

/// Tells the compiler that along each dimension d the values of `x` come in runs of `values[d]`
/// consecutive integers, or, for a block of pointers, of consecutive elements (Triton's
/// tl.max_contiguous).
template <class X>
X max_contiguous(const X &x, std::initializer_list<std::int64_t> values,
                 std::source_location loc = std::source_location::current()) {
  static_assert(any_block<X> && detail::hint_operand<detail::element_of<X>>,
                "tk::max_contiguous: hints apply to integer blocks (the offsets) and pointer "
                "blocks");
  return X(detail::hint(detail::hint_kind::max_contiguous, detail::value_of(x, loc),
                        detail::hint_values(values), loc));
}
template <class X>
X max_contiguous(const X &x, std::int64_t value,
                 std::source_location loc = std::source_location::current()) {
  return max_contiguous(x, {value}, loc);
}

/// Tells the compiler that along each dimension d the values of `x` (integers or pointers) come
/// in runs of `values[d]` equal values (Triton's tl.max_constancy).
template <class X>
X max_constancy(const X &x, std::initializer_list<std::int64_t> values,
                std::source_location loc = std::source_location::current()) {
  static_assert(any_block<X> && detail::hint_operand<detail::element_of<X>>,
                "tk::max_constancy: hints apply to integer blocks and pointer blocks");
  return X(detail::hint(detail::hint_kind::max_constancy, detail::value_of(x, loc),
                        detail::hint_values(values), loc));
}
template <class X>
X max_constancy(const X &x, std::int64_t value,
                std::source_location loc = std::source_location::current()) {
  return max_constancy(x, {value}, loc);
}

/// Tells the compiler that `condition` (a tk::i1) holds; a false condition is undefined
/// behaviour (Triton's tl.assume). `tk::assume(stride % 16 == 0)` at the top of a kernel makes
/// `stride` a multiple of 16 for the layout analysis too. The interpreter's checked mode
/// (TK_INTERPRET_CHECK=1) reports a false one.
inline void assume(const i1 &condition,
                   std::source_location loc = std::source_location::current()) {
  detail::assume(detail::value_of(condition, loc), loc);
}

} // namespace tk

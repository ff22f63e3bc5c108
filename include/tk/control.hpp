/// @file control.hpp
/// Control flow inside kernels: `tk::for_range` (a loop with loop-carried values), `tk::if_` (a
/// branch that may yield values) and `tk::while_`. The bodies are ordinary C++ lambdas that
/// capture by reference: assigning, inside a body, to a block handle declared outside it makes
/// that handle a value carried through the loop or out of the branch:
///
///     auto acc = tk::zeros<float>({BM, BN});
///     tk::for_range(0, k_tiles, [&](tk::i32) {
///       acc = tk::dot(tk::load(a_ptrs), tk::load(b_ptrs), acc);
///       a_ptrs += BK;
///     });
///
/// While tracing, a loop body runs twice: once to find which handles it assigns, once to record
/// the loop with those handles bound to the loop's arguments. In the interpreter it simply runs.
///
/// `tk::range_options` are Triton's per-loop options of `tl.range` (num_stages,
/// loop_unroll_factor, flatten); `tk::static_for`, `tk::static_assert_` and `tk::static_print`
/// are its compile-time helpers (static_range, static_assert, static_print), for facts known when
/// the kernel is traced.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/block.hpp>

#include <cstdio>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tk {

/// Per-loop options of `tk::for_range`, as Triton's `tl.range` takes them. They change how the
/// loop is compiled, never its results: the interpreter checks them and runs the loop as written.
/// Name the members you set (`{.num_stages = 4}`): members are only ever added, each with a
/// default that leaves the loop as it was.
struct range_options {
  /// How many iterations of the loop's loads may be in flight (Triton's pipelining): overrides
  /// the kernel's `launch_options::num_stages` for this loop; 1 leaves the loop unpipelined.
  /// -1, the default, takes the kernel's. Otherwise from 1 to 8, as the launch option.
  int num_stages = -1;
  /// Unrolls the compiled loop by this factor (the iterations a factor does not divide run in a
  /// remainder loop). 0 (the default) and 1 leave it rolled; negative values are errors.
  int loop_unroll_factor = 0;
  /// Compiles the nest that starts at this loop as one loop over every iteration of the inner
  /// loop, so that the inner loop's loads are pipelined across the outer iterations too
  /// (Triton's persistent matmul). The body must hold exactly one `tk::for_range`, directly
  /// (not inside a `tk::if_`), whose bounds and step do not depend on this loop's induction
  /// variable or carried values; the code before and after it runs on its first and last
  /// iteration.
  bool flatten = false;
};

namespace detail {

/// A loop body, called with the loop's induction variable.
using loop_body = function_ref<void(const value_ref &iv)>;
/// A branch, or a loop's condition: called to trace or run it; returns the value of the block it
/// returns (null when it returns none).
using traced_block = function_ref<value_ref()>;

/// The types only the templates below know (the induction variable's, the branches'); the work
/// is in these functions, compiled once with TK_SEPARATE_COMPILATION (control.ipp).

/// `for (iv = lo; iv < hi; iv += step) body(iv)`: run, or traced as `scf.for` with the handles
/// the body assigns carried through it.
TK_DECL void for_range(const term &lo, const term &hi, const term &step, elem_type iv_type,
                       const range_options &options, loop_body body, loc_t loc);

/// Throws tk::error at `loc` for options no loop may have (num_stages outside 1..8, a negative
/// unroll factor).
TK_DECL void check_range_options(const range_options &options, loc_t loc);

/// `condition ? then_branch : else_branch`: run, or traced as `scf.if`. Returns what the branch
/// taken (interpreter) or both branches (trace) return: null for nothing.
TK_DECL value_ref if_(const value_ref &condition, traced_block then_branch,
                      traced_block else_branch, loc_t loc);

/// `while (condition()) body()`: run, or traced as `scf.while`.
TK_DECL void while_(traced_block condition, function_ref<void()> body, loc_t loc);

/// Calls a loop body with the induction variable when it takes one.
template <class Body, class IV> void call_body(Body &body, const IV &iv) {
  if constexpr (std::is_invocable_v<Body &, IV>)
    body(iv);
  else
    body();
}

template <class F> using branch_result = std::invoke_result_t<F &>;

template <class C> constexpr void check_condition() {
  static_assert(any_block<C> && rank_of<C> == 0 && std::is_same_v<element_of<C>, bool>,
                "tk::if_/tk::while_: the condition must be a boolean scalar (tk::i1); for "
                "blocks of conditions use tk::where");
}

/// A branch as a traced_block: calls it and returns the value of the block it returns.
template <class F> auto branch_of(F &branch, loc_t loc) {
  return [&branch, loc]() -> value_ref {
    if constexpr (std::is_void_v<branch_result<F>>) {
      (void)loc; // used by the other branch only
      branch();
      return {};
    } else {
      return operand_of(branch().v_, loc).v;
    }
  };
}

} // namespace detail

/// `for (i = lo; i < hi; i += step) body(i)` as a loop in the kernel (bounds may be block
/// scalars computed at run time), compiled with `options` (`{.num_stages = 4}`, say). `body` takes
/// the induction variable (`tk::i32`, or `tk::i64` when a bound is 64-bit) or nothing.
template <operand L, operand H, operand S, class Body>
void for_range(const L &lo, const H &hi, const S &step, const range_options &options, Body body,
               std::source_location loc = std::source_location::current()) {
  static_assert(std::is_integral_v<detail::element_of<L>> &&
                    std::is_integral_v<detail::element_of<H>> &&
                    std::is_integral_v<detail::element_of<S>>,
                "tk::for_range: bounds and step must be integers");
  static_assert(detail::rank_of<L> == 0 && detail::rank_of<H> == 0 && detail::rank_of<S> == 0,
                "tk::for_range: bounds and step must be scalars, not blocks");
  constexpr dtype d = promote(promote(detail::code_of<L>, detail::code_of<H>), detail::code_of<S>);
  using IV = std::conditional_t<d == dtype::i64 || d == dtype::u64, std::int64_t, std::int32_t>;
  detail::for_range(
      detail::to_operand(lo, loc), detail::to_operand(hi, loc), detail::to_operand(step, loc),
      detail::elem_of<IV>(), options,
      [&](const detail::value_ref &iv) { detail::call_body(body, scalar<IV>(iv)); }, loc);
}

/// `for_range(lo, hi, step, {}, body)`: the kernel's options.
template <operand L, operand H, operand S, class Body>
void for_range(const L &lo, const H &hi, const S &step, Body body,
               std::source_location loc = std::source_location::current()) {
  tk::for_range(lo, hi, step, range_options{}, std::move(body), loc);
}

/// `for_range(lo, hi, 1, options, body)`.
template <operand L, operand H, class Body>
void for_range(const L &lo, const H &hi, const range_options &options, Body body,
               std::source_location loc = std::source_location::current()) {
  tk::for_range(lo, hi, 1, options, std::move(body), loc);
}

/// `for_range(lo, hi, 1, {}, body)`.
template <operand L, operand H, class Body>
void for_range(const L &lo, const H &hi, Body body,
               std::source_location loc = std::source_location::current()) {
  tk::for_range(lo, hi, 1, range_options{}, std::move(body), loc);
}

/// Runs `then_branch` if `condition` holds, else `else_branch`. Handles assigned in either branch
/// take the branch's value afterwards; if the branches return a block, `if_` returns it.
template <class C, class Then, class Else>
auto if_(const C &condition, Then then_branch, Else else_branch,
         std::source_location loc = std::source_location::current()) {
  detail::check_condition<C>();
  using R = detail::branch_result<Then>;
  static_assert(std::is_same_v<R, detail::branch_result<Else>>,
                "tk::if_: both branches must return the same type (or nothing)");
  const detail::value_ref result =
      detail::if_(detail::operand_of(condition.v_, loc).v, detail::branch_of(then_branch, loc),
                  detail::branch_of(else_branch, loc), loc);
  if constexpr (!std::is_void_v<R>)
    return R(result);
}

/// `if_` without an else branch.
template <class C, class Then>
void if_(const C &condition, Then then_branch,
         std::source_location loc = std::source_location::current()) {
  static_assert(std::is_void_v<detail::branch_result<Then>>,
                "tk::if_: a branch that returns a value needs an else branch");
  if constexpr (std::is_void_v<detail::branch_result<Then>>)
    tk::if_(condition, std::move(then_branch), [] {}, loc);
}

/// `while (condition()) body();` as a loop in the kernel; handles assigned in `body` are carried.
template <class Cond, class Body>
void while_(Cond condition, Body body, std::source_location loc = std::source_location::current()) {
  detail::check_condition<std::invoke_result_t<Cond &>>();
  auto run_condition = [&]() -> detail::value_ref {
    return detail::operand_of(condition().v_, loc).v;
  };
  detail::while_(run_condition, [&] { body(); }, loc);
}

// Compile-time helpers (Triton's static_range, static_assert, static_print). A kernel's lambda is
// C++ that runs when the kernel is traced: a plain `for (int i = 0; i < N; ++i)` around block
// operations records them N times, which is Triton's static_range; these cover what plain C++
// does not say as well.

namespace detail {

template <int Begin, int Step, class F, int... I>
void static_for_each(F &f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, Begin + I * Step>{}), ...);
}

/// Prints `text` and a newline, unless the trace (or the interpreter's launch) printed that line
/// already.
TK_DECL void static_print_line(const std::string &text);

/// Appends one argument of tk::static_print as it prints: a block as its element type and shape
/// (`f32[128, 64]`), a scalar handle as its type (`i32`), a number as `<<` writes it (`%g` for
/// floating point), text as it is.
template <class X> void static_print_part(std::string &out, const X &x) {
  if constexpr (any_block<X>) {
    if (!x.v_)
      out += "<no value>";
    else if (x.v_->shape.empty())
      out += to_string(x.v_->type);
    else
      out += to_string(x.v_->type) + to_string(x.v_->shape);
  } else if constexpr (constant_info<X>::is_constant) {
    static_print_part(out, x.value);
  } else if constexpr (std::is_enum_v<X>) {
    static_print_part(out, static_cast<std::underlying_type_t<X>>(x));
  } else if constexpr (std::is_same_v<X, bool>) {
    out += x ? "true" : "false";
  } else if constexpr (std::is_arithmetic_v<X> ||
                       std::is_convertible_v<const X &, std::string_view>) {
    out += message_part(x).text();
  } else {
    out += message_part(double(x)).text(); // tk::half, tk::bfloat16, the fp8 types
  }
}

} // namespace detail

/// Calls `f(std::integral_constant<int, i>{})` for i = Begin, Begin + Step, ... < End while the
/// kernel is traced (Triton's static_range), for bodies whose index must be a compile-time
/// constant: a template argument, `std::get<i>` of a tuple of blocks of different types. Where an
/// `int` will do, a plain C++ `for` loop unrolls the same way.
template <int Begin, int End, int Step = 1, class F> void static_for(F &&f) {
  static_assert(Step > 0, "tk::static_for: the step must be positive");
  constexpr int count = Begin < End ? (End - Begin + Step - 1) / Step : 0;
  detail::static_for_each<Begin, Step>(f, std::make_integer_sequence<int, count>{});
}

/// Fails the trace (and the interpreter's run) with `message` at the caller's line unless
/// `condition` holds (Triton's static_assert): for facts known when the kernel is traced, such
/// as `tk::constant` parameters and block shapes (`x.shape()[0] % 16 == 0`). C++'s own
/// `static_assert` checks what the types say. Run-time values are checked with
/// tk::device_assert.
inline void static_assert_(bool condition, std::string_view message = "",
                           std::source_location loc = std::source_location::current()) {
  if (!condition)
    detail::fail(loc, "tk::static_assert_ failed", message.empty() ? "" : ": ", message);
}

/// A block is a run-time value: its condition cannot be checked when tracing.
template <any_block C>
void static_assert_(const C &, std::string_view = "",
                    std::source_location = std::source_location::current()) {
  static_assert(!any_block<C>, "tk::static_assert_: the condition must be known when the kernel "
                               "is traced (a C++ bool); check run-time values with "
                               "tk::device_assert");
}

/// Prints its arguments, separated by spaces, on a line of its own when the kernel is traced, as
/// Triton's static_print: blocks print their element type and shape (`f32[128, 64]`), scalar
/// handles their type (`i32`), `tk::constant`s and other C++ values their value. Each line
/// prints once per trace, however often the code runs while tracing (a loop body runs twice),
/// and once per launch on the interpreter, not once per program instance:
/// `tk::static_print("acc", acc, "BLOCK", BLOCK);`
template <class... Xs> void static_print(const Xs &...xs) {
  std::string out;
  bool first = true;
  ((out += first ? "" : " ", detail::static_print_part(out, xs), first = false), ...);
  detail::static_print_line(out);
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/control.ipp>
#endif

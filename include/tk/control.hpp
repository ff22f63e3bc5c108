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
#pragma once

#include <tk/detail/config.hpp>

#include <tk/block.hpp>

#include <tuple>
#include <type_traits>

namespace tk {
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
                       loop_body body, loc_t loc);

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
      branch();
      return {};
    } else {
      return operand_of(branch().v_, loc).v;
    }
  };
}

} // namespace detail

/// `for (i = lo; i < hi; i += step) body(i)` as a loop in the kernel (bounds may be block
/// scalars computed at run time). `body` takes the induction variable (`tk::i32`, or `tk::i64`
/// when a bound is 64-bit) or nothing.
template <operand L, operand H, operand S, class Body>
void for_range(const L &lo, const H &hi, const S &step, Body body,
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
      detail::elem_of<IV>(),
      [&](const detail::value_ref &iv) { detail::call_body(body, scalar<IV>(iv)); }, loc);
}

/// `for_range(lo, hi, 1, body)`.
template <operand L, operand H, class Body>
void for_range(const L &lo, const H &hi, Body body,
               std::source_location loc = std::source_location::current()) {
  tk::for_range(lo, hi, 1, std::move(body), loc);
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

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/control.ipp>
#endif

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

TK_DECL void check_carried(const carried_list &carried, const char *what, loc_t loc);

TK_DECL void check_same_type(const value_ref &before, const value_ref &after, const char *what,
                             loc_t loc);

/// Runs `body` once in a scratch region and returns the outer handles it assigned, each with its
/// value from before; the handles are restored and whatever the body recorded is dropped.
template <class Body> carried_list discover_carried(context &ctx, Body &&body) {
  region scratch;
  carried_list carried;
  {
    region_scope scope(ctx, scratch);
    body(scratch);
    carried = scope.current().assigned;
  }
  for (auto &[h, old] : carried)
    h->v_ = old;
  return carried;
}

template <class Body, class IV> void call_body(Body &body, const IV &iv) {
  if constexpr (std::is_invocable_v<Body &, IV>)
    body(iv);
  else
    body();
}

inline value_ref scalar_int(const term &t, elem_type type, loc_t loc) {
  if (t.v && !t.v->shape.empty())
    fail(loc, "tk::for_range: loop bounds must be scalars");
  return materialize(t, type, {}, loc);
}

template <class IV, class Body>
void for_range(const term &lo, const term &hi, const term &step, Body &body, loc_t loc) {
  context &ctx = active(loc);
  if (!step.v && step.i <= 0) // a literal step: caught when tracing too, not only when run
    fail(loc, "tk::for_range: the step must be positive, got ", step.i);
  const elem_type iv_type = elem_of<IV>();
  const auto lb = scalar_int(lo, iv_type, loc), ub = scalar_int(hi, iv_type, loc),
             st = scalar_int(step, iv_type, loc);
  if (!ctx.tracing()) {
    const std::int64_t l = lb->i[0], u = ub->i[0], s = st->i[0];
    if (s <= 0)
      fail(loc, "tk::for_range: the step must be positive, got ", s);
    for (std::int64_t i = l; i < u; i += s)
      call_body(body, scalar<IV>(const_value(iv_type, {}, 0, i, loc)));
    return;
  }
  const carried_list carried = discover_carried(ctx, [&](region &r) {
    r.args.push_back(make_value(iv_type, {}));
    call_body(body, scalar<IV>(r.args[0]));
  });
  check_carried(carried, "tk::for_range", loc);

  auto o = make_owned<op>();
  o->name = "scf.for";
  o->form = syntax::scf_for;
  o->operands = {lb, ub, st};
  o->loc = loc;
  o->regions.resize(1);
  region &r = o->regions[0];
  {
    region_scope scope(ctx, r);
    r.args.push_back(make_value(iv_type, {}));
    for (auto &[h, old] : carried) {
      o->operands.push_back(old);
      r.args.push_back(make_value_like(*old));
      h->v_ = r.args.back();
    }
    call_body(body, scalar<IV>(r.args[0]));
    std::vector<value_ref> yields;
    for (auto &[h, old] : carried) {
      check_same_type(old, h->v_, "tk::for_range", loc);
      yields.push_back(h->v_);
    }
    if (scope.current().assigned.size() != carried.size())
      fail(loc, "tk::for_range: the body assigned different handles on its two traces; "
                "its trace must not depend on anything but its inputs");
    record("scf.yield", syntax::terminator, yields, {}, "", loc);
  }
  for (auto &[h, old] : carried) {
    o->results.push_back(make_value_like(*old));
    h->v_ = o->results.back();
  }
  append(ctx, std::move(o));
}

template <class F> using branch_result = std::invoke_result_t<F &>;

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
  detail::for_range<IV>(detail::to_operand(lo, loc), detail::to_operand(hi, loc),
                        detail::to_operand(step, loc), body, loc);
}

/// `for_range(lo, hi, 1, body)`.
template <operand L, operand H, class Body>
void for_range(const L &lo, const H &hi, Body body,
               std::source_location loc = std::source_location::current()) {
  for_range(lo, hi, 1, std::move(body), loc);
}

namespace detail {

template <class C> constexpr void check_condition() {
  static_assert(any_block<C> && rank_of<C> == 0 && std::is_same_v<element_of<C>, bool>,
                "tk::if_/tk::while_: the condition must be a boolean scalar (tk::i1); for "
                "blocks of conditions use tk::where");
}

/// Runs one branch into `r`; returns what it assigned (with values from before, then restores
/// them) and the values it left in the handles.
template <class F>
auto trace_branch(context &ctx, region &r, F &f, std::vector<value_ref> &returned, loc_t loc) {
  carried_list assigned;
  std::vector<value_ref> after;
  {
    region_scope scope(ctx, r);
    if constexpr (std::is_void_v<branch_result<F>>) {
      f();
    } else {
      auto v = f();
      returned.push_back(operand_of(v.v_, loc).v);
    }
    assigned = scope.current().assigned;
  }
  for (auto &[h, old] : assigned) {
    after.push_back(h->v_);
    h->v_ = old;
  }
  return std::pair{assigned, after};
}

} // namespace detail

/// Runs `then_branch` if `condition` holds, else `else_branch`. Handles assigned in either branch
/// take the branch's value afterwards; if the branches return a block, `if_` returns it.
template <class C, class Then, class Else>
auto if_(const C &condition, Then then_branch, Else else_branch,
         std::source_location loc = std::source_location::current()) {
  detail::check_condition<C>();
  using R = detail::branch_result<Then>;
  static_assert(std::is_same_v<R, detail::branch_result<Else>>,
                "tk::if_: both branches must return the same type (or nothing)");
  detail::context &ctx = detail::active(loc);
  const auto c = detail::operand_of(condition.v_, loc).v;
  if (!ctx.tracing()) {
    if (c->i[0])
      return then_branch();
    if constexpr (std::is_same_v<R, detail::branch_result<Else>>)
      return else_branch();
    else // rejected by the static_assert above
      return then_branch();
  }
  auto o = detail::make_owned<detail::op>();
  o->name = "scf.if";
  o->form = detail::syntax::scf_if;
  o->operands = {c};
  o->loc = loc;
  o->regions.resize(2);
  std::vector<detail::value_ref> ret_then, ret_else;
  auto [then_assigned, then_after] =
      detail::trace_branch(ctx, o->regions[0], then_branch, ret_then, loc);
  auto [else_assigned, else_after] =
      detail::trace_branch(ctx, o->regions[1], else_branch, ret_else, loc);

  // Every handle either branch assigned leaves the `if` as a result.
  detail::carried_list carried = then_assigned;
  for (auto &entry : else_assigned)
    if (!detail::has_entry(carried, entry.first))
      carried.push_back(entry);
  auto value_in = [&](const detail::carried_list &assigned,
                      const std::vector<detail::value_ref> &after, detail::handle_base *h,
                      const detail::value_ref &old) {
    for (std::size_t k = 0; k < assigned.size(); ++k)
      if (assigned[k].first == h)
        return after[k];
    return old;
  };
  std::vector<detail::value_ref> yield_then = ret_then, yield_else = ret_else;
  if (!ret_then.empty())
    detail::check_same_type(ret_then[0], ret_else[0], "tk::if_", loc);
  for (auto &[h, old] : carried) {
    yield_then.push_back(value_in(then_assigned, then_after, h, old));
    yield_else.push_back(value_in(else_assigned, else_after, h, old));
    // A handle without a value before the `if` is fine when both branches assign it.
    if (!yield_then.back() || !yield_else.back())
      detail::fail(loc, "tk::if_: a block handle assigned in only one branch has no value before "
                        "the if; initialize it before tk::if_ or assign it in both branches");
    detail::check_same_type(yield_then.back(), yield_else.back(), "tk::if_", loc);
  }
  for (int k = 0; k < 2; ++k) {
    auto y = detail::make_owned<detail::op>();
    y->name = "scf.yield";
    y->form = detail::syntax::terminator;
    y->operands = k == 0 ? yield_then : yield_else;
    y->loc = loc;
    o->regions[std::size_t(k)].ops.push_back(std::move(y));
  }
  for (auto &v : yield_then)
    o->results.push_back(detail::make_value_like(*v));
  std::size_t next = ret_then.size();
  for (auto &entry : carried)
    entry.first->v_ = o->results[next++];
  const auto results = o->results;
  detail::append(ctx, std::move(o));
  if constexpr (!std::is_void_v<R>)
    return R(results[0]);
}

/// `if_` without an else branch.
template <class C, class Then>
void if_(const C &condition, Then then_branch,
         std::source_location loc = std::source_location::current()) {
  static_assert(std::is_void_v<detail::branch_result<Then>>,
                "tk::if_: a branch that returns a value needs an else branch");
  if constexpr (std::is_void_v<detail::branch_result<Then>>)
    if_(condition, std::move(then_branch), [] {}, loc);
}

/// `while (condition()) body();` as a loop in the kernel; handles assigned in `body` are carried.
template <class Cond, class Body>
void while_(Cond condition, Body body, std::source_location loc = std::source_location::current()) {
  detail::check_condition<std::invoke_result_t<Cond &>>();
  detail::context &ctx = detail::active(loc);
  if (!ctx.tracing()) {
    while (detail::operand_of(condition().v_, loc).v->i[0])
      body();
    return;
  }
  const detail::carried_list carried = detail::discover_carried(ctx, [&](detail::region &) {
    (void)condition();
    body();
  });
  detail::check_carried(carried, "tk::while_", loc);

  auto o = detail::make_owned<detail::op>();
  o->name = "scf.while";
  o->form = detail::syntax::scf_while;
  o->loc = loc;
  o->regions.resize(2);
  {
    detail::region &before = o->regions[0];
    detail::region_scope scope(ctx, before);
    for (auto &[h, old] : carried) {
      o->operands.push_back(old);
      before.args.push_back(detail::make_value_like(*old));
      h->v_ = before.args.back();
    }
    auto c = condition();
    std::vector<detail::value_ref> forwarded{detail::operand_of(c.v_, loc).v};
    for (auto &[h, old] : carried)
      forwarded.push_back(h->v_);
    detail::record("scf.condition", detail::syntax::terminator, forwarded, {}, "", loc);
  }
  {
    detail::region &after = o->regions[1];
    detail::region_scope scope(ctx, after);
    for (auto &[h, old] : carried) {
      after.args.push_back(detail::make_value_like(*old));
      h->v_ = after.args.back();
    }
    body();
    std::vector<detail::value_ref> yields;
    for (auto &[h, old] : carried) {
      detail::check_same_type(old, h->v_, "tk::while_", loc);
      yields.push_back(h->v_);
    }
    detail::record("scf.yield", detail::syntax::terminator, yields, {}, "", loc);
  }
  for (auto &[h, old] : carried) {
    o->results.push_back(detail::make_value_like(*old));
    h->v_ = o->results.back();
  }
  detail::append(ctx, std::move(o));
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/control.ipp>
#endif

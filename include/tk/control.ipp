/// @file control.ipp
/// The bodies of the functions control.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/backend.h>
#include <tk/control.hpp>

#include <unordered_set>

namespace tk::detail {

TK_DECL void check_carried(const carried_list &carried, const char *what, loc_t loc) {
  for (auto &[h, old] : carried) {
    if (!old)
      fail(loc, what,
           ": a block handle assigned in the body has no value before it; initialize "
           "it (e.g. with tk::zeros) before the ",
           what);
    check_origin(*old, loc);
  }
}

TK_DECL void check_same_type(const value_ref &before, const value_ref &after, const char *what,
                             loc_t loc) {
  if (!after)
    fail(loc, what, ": a carried block handle was left without a value by the body");
  check_origin(*before, loc);
  check_origin(*after, loc);
  if (before->type != after->type || before->shape != after->shape || before->kind != after->kind)
    fail(loc, what, ": a carried value changes from ", to_string(before->type), " ",
         to_string(before->shape), " to ", to_string(after->type), " ", to_string(after->shape),
         " in the body; a carried value must keep its type and shape");
}

/// Runs `body` once in a scratch region and returns the outer handles it assigned, each with its
/// value from before; the handles are restored and whatever the body recorded is dropped.
TK_DECL carried_list discover_carried(context &ctx, function_ref<void(region &)> body) {
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

/// Interpreter: traces `construct` (a loop or branch, with the program instance's values coming
/// in) into a scratch region that is dropped, and gives every handle it assigned its value back.
/// The trace's checks of carried values (types and shapes kept, values before a loop, both
/// branches of an if) are then the interpreter's too, at the same line with the same message,
/// though it runs only one branch and perhaps no iteration.
TK_DECL void check_as_traced(context &ctx, function_ref<void()> construct) {
  struct tracing_scope {
    context &ctx;
    explicit tracing_scope(context &c) : ctx(c) { ctx.kind = mode::trace; }
    ~tracing_scope() { ctx.kind = mode::interpret; }
    tracing_scope(const tracing_scope &) = delete;
    tracing_scope &operator=(const tracing_scope &) = delete;
  };
  // The interpreter's handles were made with no region open (depth 0), so the scratch frame
  // records every assignment to them; they get their values back however the trace ends.
  struct restoring_scope : region_scope {
    restoring_scope(context &c, region &r) : region_scope(c, r) {}
    ~restoring_scope() {
      for (auto &[h, old] : current().assigned)
        h->v_ = old;
    }
  };
  region scratch;
  const tracing_scope tracing(ctx);
  restoring_scope scope(ctx, scratch);
  construct();
}

TK_DECL value_ref scalar_int(const term &t, elem_type type, loc_t loc) {
  if (t.v && !t.v->shape.empty())
    fail(loc, "tk::for_range: loop bounds must be scalars");
  return materialize(t, type, {}, loc);
}

/// What one branch of an `if` did: the outer handles it assigned (with their values from before,
/// which are restored), the values it left in them, and the value it returned (may be null).
struct branch_trace {
  carried_list assigned;
  std::vector<value_ref> after;
  value_ref returned;
};

TK_DECL branch_trace trace_branch(context &ctx, region &r, traced_block branch) {
  branch_trace t;
  {
    region_scope scope(ctx, r);
    t.returned = branch();
    t.assigned = scope.current().assigned;
  }
  for (auto &[h, old] : t.assigned) {
    t.after.push_back(h->v_);
    h->v_ = old;
  }
  return t;
}

/// The value handle `h` has after `branch`: the one it assigned, else `old`.
TK_DECL value_ref value_after(const branch_trace &branch, const handle_base *h,
                              const value_ref &old) {
  for (std::size_t k = 0; k < branch.assigned.size(); ++k)
    if (branch.assigned[k].first == h)
      return branch.after[k];
  return old;
}

TK_DECL void check_range_options(const range_options &options, loc_t loc) {
  if (options.num_stages != -1 &&
      (options.num_stages < TK_NUM_STAGES_MIN || options.num_stages > TK_NUM_STAGES_MAX))
    fail(loc, "tk::for_range: num_stages is ", options.num_stages,
         "; it must be " TK_NUM_STAGES_RANGE ", or -1 for the kernel's num_stages");
  if (options.loop_unroll_factor < 0)
    fail(loc, "tk::for_range: loop_unroll_factor is ", options.loop_unroll_factor,
         "; it must be 0 or 1 (no unrolling) or a factor from 2 up");
}

/// The attributes the options give a traced `scf.for` (none for the defaults).
TK_DECL std::string range_attributes(const range_options &options) {
  std::string attrs;
  auto add = [&](const std::string &attr) { attrs += (attrs.empty() ? "" : ", ") + attr; };
  if (options.flatten)
    add("tk.flatten");
  if (options.loop_unroll_factor != 0)
    add("tk.loop_unroll_factor = " + std::to_string(options.loop_unroll_factor) + " : i32");
  if (options.num_stages != -1)
    add("tk.num_stages = " + std::to_string(options.num_stages) + " : i32");
  return attrs;
}

/// Whether `o` (or an op of the regions it holds) reads a value of `variant`.
TK_DECL bool reads_any(const op &o, const std::unordered_set<const value *> &variant) {
  for (const value_ref &v : o.operands)
    if (variant.count(v.get()))
      return true;
  for (const region &nested : o.regions)
    for (const owned<op> &inner : nested.ops)
      if (reads_any(*inner, variant))
        return true;
  return false;
}

/// A flattened loop's body `r`: exactly one `scf.for` at its top level, whose bounds and step do
/// not depend on the outer loop's induction variable or carried values (the nests
/// tk-flatten-loops flattens).
TK_DECL void check_flattenable(const region &r, loc_t loc) {
  std::unordered_set<const value *> variant;
  for (const value_ref &arg : r.args)
    variant.insert(arg.get());
  const op *inner = nullptr;
  int loops = 0;
  for (const owned<op> &o : r.ops) {
    if (o->form == syntax::scf_for) {
      ++loops;
      inner = o.get();
    }
    if (reads_any(*o, variant))
      for (const value_ref &result : o->results)
        variant.insert(result.get());
  }
  if (loops != 1)
    fail(loc,
         "tk::for_range: flatten needs a body holding exactly one tk::for_range (not inside "
         "a tk::if_ or tk::while_); this one holds ",
         loops);
  for (std::size_t k = 0; k < 3; ++k)
    if (variant.count(inner->operands[k].get()))
      fail(inner->loc, "tk::for_range: the ",
           k == 0   ? "lower bound"
           : k == 1 ? "upper bound"
                    : "step",
           " of the loop in a flattened loop depends on the outer loop's induction variable or "
           "carried values; flatten needs the inner loop's bounds and step to be the same on "
           "every outer iteration");
}

TK_DECL void for_range(const term &lo, const term &hi, const term &step, elem_type iv_type,
                       const range_options &options, loop_body body, loc_t loc) {
  check_range_options(options, loc);
  context &ctx = active(loc);
  if (!step.v && step.i <= 0) // a literal step: caught when tracing too, not only when run
    fail(loc, "tk::for_range: the step must be positive, got ", step.i);
  if (!ctx.tracing())
    check_as_traced(ctx, [&] { for_range(lo, hi, step, iv_type, options, body, loc); });
  const value_ref lb = scalar_int(lo, iv_type, loc), ub = scalar_int(hi, iv_type, loc),
                  st = scalar_int(step, iv_type, loc);
  if (!ctx.tracing()) {
    const std::int64_t l = lb->i[0], u = ub->i[0], s = st->i[0];
    if (s <= 0)
      fail(loc, "tk::for_range: the step must be positive, got ", s);
    for (std::int64_t i = l; i < u; i += s)
      body(const_value(iv_type, {}, 0, i, loc));
    return;
  }
  const carried_list carried = discover_carried(ctx, [&](region &r) {
    r.args.push_back(make_value(iv_type, {}));
    body(r.args[0]);
  });
  check_carried(carried, "tk::for_range", loc);

  auto o = make_owned<op>();
  o->name = "scf.for";
  o->form = syntax::scf_for;
  o->operands = {lb, ub, st};
  o->loc = loc;
  o->attrs = range_attributes(options);
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
    body(r.args[0]);
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
  if (options.flatten)
    check_flattenable(r, loc);
  for (auto &[h, old] : carried) {
    o->results.push_back(make_value_like(*old));
    h->v_ = o->results.back();
  }
  append(ctx, std::move(o));
}

TK_DECL value_ref if_(const value_ref &condition, traced_block then_branch,
                      traced_block else_branch, loc_t loc) {
  context &ctx = active(loc);
  if (!ctx.tracing()) {
    check_as_traced(ctx, [&] { (void)if_(condition, then_branch, else_branch, loc); });
    return condition->i[0] ? then_branch() : else_branch();
  }
  auto o = make_owned<op>();
  o->name = "scf.if";
  o->form = syntax::scf_if;
  o->operands = {condition};
  o->loc = loc;
  o->regions.resize(2);
  const branch_trace then_trace = trace_branch(ctx, o->regions[0], then_branch);
  const branch_trace else_trace = trace_branch(ctx, o->regions[1], else_branch);

  // Every handle either branch assigned leaves the `if` as a result.
  carried_list carried = then_trace.assigned;
  for (auto &entry : else_trace.assigned)
    if (!has_entry(carried, entry.first))
      carried.push_back(entry);
  std::vector<value_ref> yield_then, yield_else;
  if (then_trace.returned) {
    check_same_type(then_trace.returned, else_trace.returned, "tk::if_", loc);
    yield_then.push_back(then_trace.returned);
    yield_else.push_back(else_trace.returned);
  }
  for (auto &[h, old] : carried) {
    yield_then.push_back(value_after(then_trace, h, old));
    yield_else.push_back(value_after(else_trace, h, old));
    // A handle without a value before the `if` is fine when both branches assign it.
    if (!yield_then.back() || !yield_else.back())
      fail(loc, "tk::if_: a block handle assigned in only one branch has no value before the "
                "if; initialize it before tk::if_ or assign it in both branches");
    check_same_type(yield_then.back(), yield_else.back(), "tk::if_", loc);
  }
  for (int k = 0; k < 2; ++k) {
    auto y = make_owned<op>();
    y->name = "scf.yield";
    y->form = syntax::terminator;
    y->operands = k == 0 ? yield_then : yield_else;
    y->loc = loc;
    o->regions[std::size_t(k)].ops.push_back(std::move(y));
  }
  for (auto &v : yield_then)
    o->results.push_back(make_value_like(*v));
  std::size_t next = then_trace.returned ? 1 : 0;
  for (auto &entry : carried)
    entry.first->v_ = o->results[next++];
  value_ref returned = then_trace.returned ? o->results[0] : value_ref{};
  append(ctx, std::move(o));
  return returned;
}

TK_DECL void while_(traced_block condition, function_ref<void()> body, loc_t loc) {
  context &ctx = active(loc);
  if (!ctx.tracing()) {
    check_as_traced(ctx, [&] { while_(condition, body, loc); });
    while (condition()->i[0])
      body();
    return;
  }
  const carried_list carried = discover_carried(ctx, [&](region &) {
    (void)condition();
    body();
  });
  check_carried(carried, "tk::while_", loc);

  auto o = make_owned<op>();
  o->name = "scf.while";
  o->form = syntax::scf_while;
  o->loc = loc;
  o->regions.resize(2);
  {
    region &before = o->regions[0];
    region_scope scope(ctx, before);
    for (auto &[h, old] : carried) {
      o->operands.push_back(old);
      before.args.push_back(make_value_like(*old));
      h->v_ = before.args.back();
    }
    std::vector<value_ref> forwarded{condition()};
    for (auto &[h, old] : carried)
      forwarded.push_back(h->v_);
    record("scf.condition", syntax::terminator, forwarded, {}, "", loc);
  }
  {
    region &after = o->regions[1];
    region_scope scope(ctx, after);
    for (auto &[h, old] : carried) {
      after.args.push_back(make_value_like(*old));
      h->v_ = after.args.back();
    }
    body();
    std::vector<value_ref> yields;
    for (auto &[h, old] : carried) {
      check_same_type(old, h->v_, "tk::while_", loc);
      yields.push_back(h->v_);
    }
    record("scf.yield", syntax::terminator, yields, {}, "", loc);
  }
  for (auto &[h, old] : carried) {
    o->results.push_back(make_value_like(*old));
    h->v_ = o->results.back();
  }
  append(ctx, std::move(o));
}

TK_DECL void static_print_line(const std::string &text) {
  if (context *ctx = current_context()) {
    std::vector<std::string> &printed = ctx->static_prints;
    for (const std::string &line : printed)
      if (line == text)
        return;
    printed.push_back(text);
  }
  std::printf("%s\n", text.c_str());
  std::fflush(stdout);
}

} // namespace tk::detail

/// @file primitives.ipp
/// The bodies of the functions primitives.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/env.hpp>
#include <tk/detail/runtime/os.hpp>
#include <tk/detail/trace/primitives.hpp>

namespace tk::detail {

TK_DECL dot_precision default_f32_precision() {
  static const dot_precision precision = [] {
    const auto value = os::environment("TK_F32_DEFAULT");
    if (!value || value->empty() || *value == "tf32")
      return dot_precision::tf32;
    if (*value == "ieee")
      return dot_precision::ieee;
    if (*value == "tf32x3")
      return dot_precision::tf32x3;
    env::complain_once("TK_F32_DEFAULT", value->c_str(), "tf32, ieee or tf32x3",
                       "the default, tf32");
    return dot_precision::tf32;
  }();
  return precision;
}

TK_DECL region_scope::region_scope(context &ctx, region &r) : ctx_(ctx) {
  ctx_.frames.push_back({&r, {}});
}
TK_DECL region_scope::~region_scope() { ctx_.frames.pop_back(); }
TK_DECL frame &region_scope::current() { return ctx_.frames.back(); }

TK_DECL value_ref record1(std::string name, syntax form, std::vector<value_ref> operands,
                          elem_type t, shape_t shape, std::string attrs, loc_t loc) {
  auto r = make_value(t, std::move(shape));
  record(std::move(name), form, std::move(operands), {r}, std::move(attrs), loc);
  return r;
}

TK_DECL std::string i32_attr(std::int64_t v) { return std::to_string(v) + " : i32"; }

TK_DECL std::string segment_sizes(bool mask, bool other) {
  // Appended in place: GCC 12 warns (-Warray-bounds, wrongly) on the inlined chain of `+`.
  std::string s = "operandSegmentSizes = array<i32: 1, ";
  s += mask ? '1' : '0';
  s += ", ";
  s += other ? '1' : '0';
  s += '>';
  return s;
}

TK_DECL op &append(context &ctx, owned<op> o) {
  ctx.body().ops.push_back(std::move(o));
  return *ctx.body().ops.back();
}

TK_DECL context &active(loc_t loc) {
  context *ctx = current_context();
  if (!ctx)
    fail(loc, "TileKit operations run only inside a kernel: call this code through "
              "tk::jit(...).launch(...) or .ir(...)");
  return *ctx;
}

TK_DECL value_ref make_value(elem_type t, shape_t shape) {
  auto v = make_counted<value>(t, std::move(shape));
  if (const context *ctx = current_context()) {
    v->generation = ctx->generation;
    v->origin = ctx->origin;
  }
  return v;
}

TK_DECL std::string instance_name(const context &ctx, std::uint64_t generation) {
  const auto n = ctx.num_programs;
  const auto k = std::int64_t(generation - ctx.first_generation);
  return "(" + std::to_string(k % n[0]) + ", " + std::to_string(k / n[0] % n[1]) + ", " +
         std::to_string(k / (n[0] * n[1])) + ")";
}

[[noreturn, gnu::cold]] TK_DECL void foreign_value(const value &v, const context &ctx, loc_t loc) {
  const auto kernel = [](const kernel_origin *o) {
    return o ? "kernel '" + o->name + "' (" + o->loc.file_name() + ":" +
                   std::to_string(o->loc.line()) + ")"
             : std::string("an unnamed kernel");
  };
  const char *advice = "; a block belongs to the trace or program instance that made it: do not "
                       "keep blocks in static or captured variables across kernels, launches or "
                       "program instances, pass the data as a kernel argument instead";
  if (v.origin != ctx.origin)
    fail(loc, "this block was made by ", kernel(v.origin), " and cannot be used in ",
         kernel(ctx.origin), advice);
  // A launch's context, also while it traces a loop or branch to check it (check_as_traced).
  const bool launch = ctx.first_generation != 0;
  if (launch && v.generation >= ctx.first_generation && v.generation < ctx.generation)
    fail(loc, "this block was made by program instance ", instance_name(ctx, v.generation),
         " and cannot be used in program instance ", instance_name(ctx, ctx.generation),
         " of the same launch of ", kernel(ctx.origin), advice);
  fail(loc, "this block was made by an earlier ", v.concrete() ? "launch" : "trace", " of ",
       kernel(ctx.origin), " and cannot be used in this ", launch ? "launch" : "trace", advice);
}

TK_DECL value_ref make_concrete(elem_type t, shape_t shape) {
  auto v = make_value(t, std::move(shape));
  if (t.is_float())
    v->f.assign(std::size_t(v->size()), 0.0);
  else
    v->i.assign(std::size_t(v->size()), 0);
  return v;
}

TK_DECL std::string lane_name(const shape_t &shape, std::size_t k) {
  if (shape.empty())
    return "the scalar";
  shape_t index(shape.size());
  auto rest = std::int64_t(k);
  for (std::size_t d = shape.size(); d-- > 0;) {
    index[d] = rest % shape[d];
    rest /= shape[d];
  }
  return "lane " + std::to_string(k) + " (index " + to_string(index) + " of the " +
         to_string(shape) + " block)";
}

TK_DECL op &record(std::string name, syntax form, std::vector<value_ref> operands,
                   std::vector<value_ref> results, std::string attrs, loc_t loc) {
  auto o = make_owned<op>();
  o->name = std::move(name);
  o->form = form;
  o->operands = std::move(operands);
  o->results = std::move(results);
  o->attrs = std::move(attrs);
  o->loc = loc;
  auto &body = current_context()->body();
  body.ops.push_back(std::move(o));
  return *body.ops.back();
}

TK_DECL std::string array_attr(const std::vector<std::int64_t> &xs) {
  std::string s = "array<i32";
  for (std::size_t k = 0; k < xs.size(); ++k)
    s += (k ? ", " : ": ") + std::to_string(xs[k]);
  return s + ">";
}

TK_DECL shape_t strides_of(const shape_t &shape) {
  shape_t s(shape.size(), 1);
  for (int d = int(shape.size()) - 2; d >= 0; --d)
    s[std::size_t(d)] = s[std::size_t(d) + 1] * shape[std::size_t(d) + 1];
  return s;
}

TK_DECL value_ref const_value(elem_type t, shape_t shape, double fv, std::int64_t iv, loc_t loc) {
  context &ctx = active(loc);
  if (t.is_float())
    fv = round_float(fv, t.code);
  else
    iv = wrap_int(iv, t.code);
  if (ctx.tracing()) {
    auto r = record1("arith.constant", syntax::constant, {}, t, std::move(shape), "", loc);
    op &o = *ctx.body().ops.back();
    o.number = fv;
    o.integer = iv;
    return r;
  }
  auto v = make_concrete(t, std::move(shape));
  if (t.is_float())
    v->f.assign(v->f.size(), fv);
  else
    v->i.assign(v->i.size(), iv);
  return v;
}

TK_DECL value_ref program_id(int axis, bool count, loc_t loc) {
  context &ctx = active(loc);
  if (axis < 0 || axis > 2)
    fail(loc, count ? "tk::num_programs" : "tk::program_id", ": axis must be 0, 1 or 2, got ",
         axis);
  if (ctx.tracing())
    return record1(count ? "tk.get_num_programs" : "tk.get_program_id", syntax::generic, {},
                   {dtype::i32}, {}, "axis = " + i32_attr(axis), loc);
  auto v = make_concrete({dtype::i32}, {});
  v->i[0] = count ? ctx.num_programs[std::size_t(axis)] : ctx.program_id[std::size_t(axis)];
  return v;
}

TK_DECL void check_block_shape(const shape_t &shape, const char *what, loc_t loc) {
  for (auto d : shape)
    if (d <= 0 || (d & (d - 1)) != 0)
      fail(loc, what, ": every dimension of a block must be a power of two, got shape ",
           to_string(shape));
  if (numel(shape) > max_block_elements)
    fail(loc, what, ": a block may hold at most ", max_block_elements, " elements, shape ",
         to_string(shape), " has ", numel(shape));
}

TK_DECL value_ref arange(std::int64_t start, std::int64_t end, loc_t loc) {
  context &ctx = active(loc);
  if (end <= start)
    fail(loc, "tk::arange(", start, ", ", end, "): end must be greater than start");
  if (start < INT32_MIN || end > INT32_MAX)
    fail(loc, "tk::arange(", start, ", ", end, "): bounds must fit in 32 bits");
  const std::int64_t n = end - start;
  if ((n & (n - 1)) != 0)
    fail(loc, "tk::arange(", start, ", ", end, "): the range holds ", n,
         " values, which is not a power of two; round the block size up with tk::next_pow2 "
         "and mask the extra lanes");
  check_block_shape({n}, "tk::arange", loc);
  if (ctx.tracing())
    return record1("tk.make_range", syntax::generic, {}, {dtype::i32}, {n},
                   "end = " + i32_attr(end) + ", start = " + i32_attr(start), loc);
  auto v = make_concrete({dtype::i32}, {n});
  for (std::int64_t k = 0; k < n; ++k)
    v->i[std::size_t(k)] = start + k;
  return v;
}

TK_DECL value_ref splat(const value_ref &s, shape_t shape, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing())
    return record1("tk.splat", syntax::generic, {s}, s->type, std::move(shape), "", loc);
  auto v = points_like(make_value(s->type, std::move(shape)), *s);
  if (s->type.is_float())
    v->f.assign(std::size_t(v->size()), s->f[0]);
  else
    v->i.assign(std::size_t(v->size()), s->i[0]);
  return v;
}

TK_DECL value_ref broadcast(const value_ref &x, shape_t shape, loc_t loc) {
  context &ctx = active(loc);
  if (x->shape == shape)
    return x;
  // The operations check their operands' shapes first, with messages that name them; a
  // broadcast that shrinks a dimension would record an invalid tk.broadcast and drop elements.
  bool stretches = x->shape.size() == shape.size();
  for (std::size_t d = 0; stretches && d < shape.size(); ++d)
    stretches = x->shape[d] == 1 || x->shape[d] == shape[d];
  if (!stretches)
    internal_error("tk.broadcast from " + to_string(x->shape) + " to " + to_string(shape) +
                   " (at " + loc.file_name() + ":" + std::to_string(loc.line()) + ")");
  if (ctx.tracing())
    return record1("tk.broadcast", syntax::generic, {x}, x->type, std::move(shape), "", loc);
  const auto strides = strides_of(x->shape);
  const auto src_shape = x->shape;
  return gather(x, std::move(shape), [&](const std::vector<std::int64_t> &idx) {
    std::int64_t s = 0;
    for (std::size_t d = 0; d < idx.size(); ++d)
      s += src_shape[d] == 1 ? 0 : idx[d] * strides[d];
    return s;
  });
}

TK_DECL value_ref expand_dims(const value_ref &x, int axis, loc_t loc) {
  context &ctx = active(loc);
  shape_t shape = x->shape;
  shape.insert(shape.begin() + axis, 1);
  if (ctx.tracing())
    return record1("tk.expand_dims", syntax::generic, {x}, x->type, std::move(shape),
                   "axis = " + i32_attr(axis), loc);
  auto v = points_like(make_value(x->type, std::move(shape)), *x);
  v->f = x->f;
  v->i = x->i;
  return v;
}

TK_DECL value_ref reshape(const value_ref &x, shape_t shape, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing())
    return record1("tk.reshape", syntax::generic, {x}, x->type, std::move(shape), "", loc);
  auto v = points_like(make_value(x->type, std::move(shape)), *x);
  v->f = x->f;
  v->i = x->i;
  return v;
}

TK_DECL value_ref trans(const value_ref &x, const std::vector<std::int64_t> &order, loc_t loc) {
  context &ctx = active(loc);
  shape_t shape(order.size());
  for (std::size_t d = 0; d < order.size(); ++d)
    shape[d] = x->shape[std::size_t(order[d])];
  if (ctx.tracing())
    return record1("tk.trans", syntax::generic, {x}, x->type, std::move(shape),
                   "order = " + array_attr(order), loc);
  const auto strides = strides_of(x->shape);
  return gather(x, std::move(shape), [&](const std::vector<std::int64_t> &idx) {
    std::int64_t s = 0;
    for (std::size_t d = 0; d < idx.size(); ++d)
      s += idx[d] * strides[std::size_t(order[d])];
    return s;
  });
}

TK_DECL void copy_element(value &dst, std::int64_t at, const value &src, std::int64_t from) {
  if (dst.type.is_float())
    dst.f[std::size_t(at)] = src.f[std::size_t(from)];
  else
    dst.i[std::size_t(at)] = src.i[std::size_t(from)];
}

TK_DECL value_ref join(const value_ref &a, const value_ref &b, loc_t loc) {
  context &ctx = active(loc);
  shape_t shape = a->shape;
  shape.push_back(2);
  if (ctx.tracing())
    return record1("tk.join", syntax::generic, {a, b}, a->type, std::move(shape), "", loc);
  auto v = make_concrete(a->type, std::move(shape));
  for (std::int64_t k = 0; k < a->size(); ++k) {
    copy_element(*v, 2 * k, *a, k);
    copy_element(*v, 2 * k + 1, *b, k);
  }
  return v;
}

TK_DECL std::pair<value_ref, value_ref> split(const value_ref &x, loc_t loc) {
  context &ctx = active(loc);
  shape_t shape(x->shape.begin(), x->shape.end() - 1);
  if (ctx.tracing()) {
    auto lo = make_value(x->type, shape), hi = make_value(x->type, shape);
    record("tk.split", syntax::generic, {x}, {lo, hi}, "", loc);
    return {lo, hi};
  }
  auto lo = make_concrete(x->type, shape), hi = make_concrete(x->type, shape);
  for (std::int64_t k = 0; k < lo->size(); ++k) {
    copy_element(*lo, k, *x, 2 * k);
    copy_element(*hi, k, *x, 2 * k + 1);
  }
  return {lo, hi};
}

TK_DECL value_ref cat(const value_ref &a, const value_ref &b, loc_t loc) {
  context &ctx = active(loc);
  shape_t shape = a->shape;
  shape[0] *= 2;
  if (ctx.tracing())
    return record1("tk.cat", syntax::generic, {a, b}, a->type, std::move(shape), "", loc);
  auto v = make_concrete(a->type, std::move(shape));
  const auto n = a->size();
  for (std::int64_t k = 0; k < n; ++k) {
    copy_element(*v, k, *a, k);
    copy_element(*v, n + k, *b, k);
  }
  return v;
}

TK_DECL value_ref flip(const value_ref &x, int axis, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing())
    return record1("tk.flip", syntax::generic, {x}, x->type, x->shape, "axis = " + i32_attr(axis),
                   loc);
  const auto strides = strides_of(x->shape);
  const auto n = x->shape[std::size_t(axis)];
  return gather(x, x->shape, [&](const std::vector<std::int64_t> &idx) {
    std::int64_t s = 0;
    for (std::size_t d = 0; d < idx.size(); ++d)
      s += (d == std::size_t(axis) ? n - 1 - idx[d] : idx[d]) * strides[d];
    return s;
  });
}

TK_DECL value_ref gather_along(const value_ref &src, const value_ref &index, int axis, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing())
    return record1("tk.gather", syntax::generic, {src, index}, src->type, index->shape,
                   "axis = " + i32_attr(axis), loc);
  const auto strides = strides_of(src->shape);
  const auto n = src->shape[std::size_t(axis)];
  const bool is_unsigned_index = is_unsigned(index->type.code);
  std::int64_t k = 0;
  return gather(src, index->shape, [&](const std::vector<std::int64_t> &idx) {
    const std::int64_t at = index->i[std::size_t(k)];
    if (at < 0 || at >= n || (is_unsigned_index && std::uint64_t(at) >= std::uint64_t(n)))
      fail(loc, "tk::gather: the index ",
           is_unsigned_index ? std::to_string(std::uint64_t(at)) : std::to_string(at), " at ",
           lane_name(index->shape, std::size_t(k)), " is outside [0, ", n, "), the size of axis ",
           axis, " of the block gathered from");
    ++k;
    std::int64_t s = 0;
    for (std::size_t d = 0; d < idx.size(); ++d)
      s += (d == std::size_t(axis) ? at : idx[d]) * strides[d];
    return s;
  });
}

TK_DECL std::string binop_name(binop o, elem_type t) {
  const bool f = t.is_float(), u = is_unsigned(t.code);
  switch (o) {
  case binop::add:
    return f ? "arith.addf" : "arith.addi";
  case binop::sub:
    return f ? "arith.subf" : "arith.subi";
  case binop::mul:
    return f ? "arith.mulf" : "arith.muli";
  case binop::div:
  case binop::fast_div:
    return f ? "arith.divf" : u ? "arith.divui" : "arith.divsi";
  case binop::rem:
    return f ? "arith.remf" : u ? "arith.remui" : "arith.remsi";
  case binop::floordiv:
    return u ? "arith.divui" : "arith.floordivsi";
  case binop::bit_and:
    return "arith.andi";
  case binop::bit_or:
    return "arith.ori";
  case binop::bit_xor:
    return "arith.xori";
  case binop::shl:
    return "arith.shli";
  case binop::shr:
    return u ? "arith.shrui" : "arith.shrsi";
  case binop::max:
    return f ? "arith.maxnumf" : u ? "arith.maxui" : "arith.maxsi";
  case binop::min:
    return f ? "arith.minnumf" : u ? "arith.minui" : "arith.minsi";
  case binop::maximum:
    return f ? "arith.maximumf" : u ? "arith.maxui" : "arith.maxsi";
  case binop::minimum:
    return f ? "arith.minimumf" : u ? "arith.minui" : "arith.minsi";
  case binop::pow:
    return "math.powf";
  case binop::atan2:
    return "math.atan2";
  }
  return "";
}

TK_DECL double apply_float(binop o, double a, double b) {
  switch (o) {
  case binop::add:
    return a + b;
  case binop::sub:
    return a - b;
  case binop::mul:
    return a * b;
  case binop::div:
  case binop::fast_div:
    return a / b;
  case binop::rem:
    return std::fmod(a, b);
  case binop::max:
    return std::fmax(a, b);
  case binop::min:
    return std::fmin(a, b);
  case binop::maximum: // NaN if either is; -0 < +0
    if (std::isnan(a) || std::isnan(b))
      return std::nan("");
    return a == b ? (std::signbit(a) ? b : a) : std::fmax(a, b);
  case binop::minimum:
    if (std::isnan(a) || std::isnan(b))
      return std::nan("");
    return a == b ? (std::signbit(a) ? a : b) : std::fmin(a, b);
  case binop::pow:
    return std::pow(a, b);
  case binop::atan2:
    return std::atan2(a, b);
  default:
    return 0;
  }
}

TK_DECL std::int64_t apply_int(binop o, std::int64_t a, std::int64_t b, dtype d) {
  const bool u = is_unsigned(d);
  const auto ua = std::uint64_t(a), ub = std::uint64_t(b);
  const int width = bit_width(d);
  switch (o) {
  case binop::add:
    return std::int64_t(ua + ub);
  case binop::sub:
    return std::int64_t(ua - ub);
  case binop::mul:
    return std::int64_t(ua * ub);
  case binop::div:
  case binop::fast_div:
    if (b == 0)
      return 0;
    if (u)
      return std::int64_t(ua / ub);
    if (b == -1)
      return std::int64_t(0 - ua); // INT_MIN / -1 wraps
    return a / b;
  case binop::rem:
    if (b == 0)
      return 0;
    if (u)
      return std::int64_t(ua % ub);
    if (b == -1)
      return 0;
    return a % b;
  case binop::floordiv: {
    if (b == 0)
      return 0;
    if (u)
      return std::int64_t(ua / ub);
    if (b == -1)
      return std::int64_t(0 - ua);
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
      --q;
    return q;
  }
  case binop::bit_and:
    return a & b;
  case binop::bit_or:
    return a | b;
  case binop::bit_xor:
    return a ^ b;
  case binop::shl:
    return ub >= std::uint64_t(width) ? 0 : std::int64_t(ua << ub);
  case binop::shr:
    if (u)
      return ub >= std::uint64_t(width) ? 0 : std::int64_t(ua >> ub);
    return a >> (ub >= std::uint64_t(width) ? width - 1 : int(ub));
  case binop::max:
  case binop::maximum:
    return u ? (ua > ub ? a : b) : (a > b ? a : b);
  case binop::min:
  case binop::minimum:
    return u ? (ua < ub ? a : b) : (a < b ? a : b);
  case binop::pow: // floats only
  case binop::atan2:
    return 0;
  }
  return 0;
}

TK_DECL bool signed_overflow(binop o, std::int64_t a, std::int64_t b, dtype d) {
  if (d != dtype::i64) // exact in 64 bits: overflow is a change on wrapping
    return (o == binop::add || o == binop::sub || o == binop::mul) &&
           wrap_int(apply_int(o, a, b, d), d) != apply_int(o, a, b, d);
  std::int64_t r = 0;
  switch (o) {
  case binop::add:
    return __builtin_add_overflow(a, b, &r);
  case binop::sub:
    return __builtin_sub_overflow(a, b, &r);
  case binop::mul:
    return __builtin_mul_overflow(a, b, &r);
  default:
    return false;
  }
}

TK_DECL value_ref binary(binop o, const value_ref &a, const value_ref &b, loc_t loc) {
  context &ctx = active(loc);
  const elem_type t = a->type;
  if (ctx.tracing())
    return record1(binop_name(o, t), syntax::arith, {a, b}, t, a->shape,
                   o == binop::fast_div ? "fastmath<afn>" : "", loc);
  auto v = make_concrete(t, a->shape);
  const auto n = std::size_t(v->size());
  if (t.is_float())
    for (std::size_t k = 0; k < n; ++k)
      v->f[k] = round_float(apply_float(o, a->f[k], b->f[k]), t.code);
  else
    for (std::size_t k = 0; k < n; ++k)
      v->i[k] = wrap_int(apply_int(o, a->i[k], b->i[k], t.code), t.code);
  if (ctx.checked && t.is_int() && !is_unsigned(t.code) && t.code != dtype::i1)
    for (std::size_t k = 0; k < n; ++k)
      if (signed_overflow(o, a->i[k], b->i[k], t.code)) [[unlikely]]
        overflow_error(o, *a, *b, k, loc);
  return v;
}

TK_DECL double apply_unary(unop o, double x) {
  switch (o) {
  case unop::exp:
    return std::exp(x);
  case unop::exp2:
    return std::exp2(x);
  case unop::log:
    return std::log(x);
  case unop::log2:
    return std::log2(x);
  case unop::sqrt:
  case unop::sqrt_rn:
    return std::sqrt(x);
  case unop::rsqrt:
    return 1.0 / std::sqrt(x);
  case unop::abs:
    return std::fabs(x);
  case unop::sin:
    return std::sin(x);
  case unop::cos:
    return std::cos(x);
  case unop::erf:
    return std::erf(x);
  case unop::floor:
    return std::floor(x);
  case unop::ceil:
    return std::ceil(x);
  case unop::tanh:
    return std::tanh(x);
  case unop::tan:
    return std::tan(x);
  case unop::asin:
    return std::asin(x);
  case unop::acos:
    return std::acos(x);
  case unop::atan:
    return std::atan(x);
  case unop::sinh:
    return std::sinh(x);
  case unop::cosh:
    return std::cosh(x);
  case unop::asinh:
    return std::asinh(x);
  case unop::acosh:
    return std::acosh(x);
  case unop::atanh:
    return std::atanh(x);
  case unop::erfc:
    return std::erfc(x);
  case unop::cbrt:
    return std::cbrt(x);
  case unop::log10:
    return std::log10(x);
  case unop::log1p:
    return std::log1p(x);
  case unop::expm1:
    return std::expm1(x);
  case unop::trunc:
    return std::trunc(x);
  case unop::round: // half away from zero
    return std::round(x);
  case unop::rint: // half to even (the default rounding mode)
    return std::nearbyint(x);
  }
  return 0;
}

TK_DECL value_ref unary(unop o, const value_ref &a, loc_t loc) {
  static constexpr const char *names[] = {
      "math.exp",      "math.exp2",  "math.log",   "math.log2",  "math.sqrt",  "math.rsqrt",
      "math.absf",     "math.sin",   "math.cos",   "math.erf",   "math.floor", "math.ceil",
      "math.sqrt",     "math.tanh",  "math.tan",   "math.asin",  "math.acos",  "math.atan",
      "math.sinh",     "math.cosh",  "math.asinh", "math.acosh", "math.atanh", "math.erfc",
      "math.cbrt",     "math.log10", "math.log1p", "math.expm1", "math.trunc", "math.round",
      "math.roundeven"};
  static_assert(sizeof names / sizeof *names == std::size_t(unop::rint) + 1);
  context &ctx = active(loc);
  const elem_type t = a->type;
  if (ctx.tracing()) {
    std::string name = names[int(o)];
    if (o == unop::abs && t.is_int())
      name = "math.absi";
    return record1(name, syntax::arith, {a}, t, a->shape, o == unop::sqrt ? "fastmath<afn>" : "",
                   loc);
  }
  auto v = make_concrete(t, a->shape);
  const auto n = std::size_t(v->size());
  if (t.is_float())
    for (std::size_t k = 0; k < n; ++k)
      v->f[k] = round_float(apply_unary(o, a->f[k]), t.code);
  else // only abs reaches here for integers
    for (std::size_t k = 0; k < n; ++k)
      v->i[k] = wrap_int(
          is_unsigned(t.code) || a->i[k] >= 0 ? a->i[k] : std::int64_t(0 - std::uint64_t(a->i[k])),
          t.code);
  return v;
}

TK_DECL value_ref fma(const value_ref &a, const value_ref &b, const value_ref &c, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing())
    return record1("math.fma", syntax::arith, {a, b, c}, a->type, a->shape, "", loc);
  auto v = make_concrete(a->type, a->shape);
  for (std::size_t k = 0; k < v->f.size(); ++k)
    v->f[k] = round_float(std::fma(a->f[k], b->f[k], c->f[k]), a->type.code);
  return v;
}

TK_DECL value_ref compare(cmpop o, const value_ref &a, const value_ref &b, loc_t loc) {
  context &ctx = active(loc);
  const elem_type t = a->type;
  if (ctx.tracing()) {
    static constexpr const char *fpred[] = {"olt", "ole", "ogt", "oge", "oeq", "une", "uno"};
    // `uno` is for floats only: never reached here.
    static constexpr const char *spred[] = {"slt", "sle", "sgt", "sge", "eq", "ne", "ne"};
    static constexpr const char *upred[] = {"ult", "ule", "ugt", "uge", "eq", "ne", "ne"};
    const bool u = is_unsigned(t.code) || t.is_pointer();
    const char *pred = t.is_float() ? fpred[int(o)] : u ? upred[int(o)] : spred[int(o)];
    if (t.is_pointer()) { // arith.cmpi takes integers only: compare the addresses
      auto ai = record1("tk.ptr_to_int", syntax::generic, {a}, {dtype::i64}, a->shape, "", loc);
      auto bi = record1("tk.ptr_to_int", syntax::generic, {b}, {dtype::i64}, b->shape, "", loc);
      return record1("arith.cmpi", syntax::compare, {ai, bi}, {dtype::i1}, a->shape, pred, loc);
    }
    return record1(t.is_float() ? "arith.cmpf" : "arith.cmpi", syntax::compare, {a, b}, {dtype::i1},
                   a->shape, pred, loc);
  }
  auto v = make_concrete({dtype::i1}, a->shape);
  auto test = [o](auto x, auto y) {
    switch (o) {
    case cmpop::lt:
      return x < y;
    case cmpop::le:
      return x <= y;
    case cmpop::gt:
      return x > y;
    case cmpop::ge:
      return x >= y;
    case cmpop::eq:
      return x == y;
    case cmpop::ne:
      return x != y;
    case cmpop::uno: // floats only
      return std::isnan(double(x)) || std::isnan(double(y));
    }
    return false;
  };
  const auto n = std::size_t(v->size());
  for (std::size_t k = 0; k < n; ++k) {
    if (t.is_float())
      v->i[k] = o == cmpop::ne ? !(a->f[k] == b->f[k]) : test(a->f[k], b->f[k]);
    else if (is_unsigned(t.code) || t.is_pointer())
      v->i[k] = test(std::uint64_t(a->i[k]), std::uint64_t(b->i[k]));
    else
      v->i[k] = test(a->i[k], b->i[k]);
  }
  return v;
}

TK_DECL value_ref select(const value_ref &c, const value_ref &a, const value_ref &b, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing())
    return record1("arith.select", syntax::select, {c, a, b}, a->type, a->shape, "", loc);
  auto v = make_concrete(a->type, a->shape);
  if (a->extent == b->extent) // pointers into one buffer; else unknown
    v->extent = a->extent;
  const auto n = std::size_t(v->size());
  for (std::size_t k = 0; k < n; ++k) {
    const bool take_a = c->i[c->shape.empty() ? 0 : k] != 0;
    if (v->type.is_float())
      v->f[k] = take_a ? a->f[k] : b->f[k];
    else
      v->i[k] = take_a ? a->i[k] : b->i[k];
  }
  return v;
}

TK_DECL value_ref convert(const value_ref &x, elem_type to, loc_t loc, rounding mode) {
  context &ctx = active(loc);
  const elem_type from = x->type;
  if (mode != rounding::rtne &&
      !(from.is_float() && to.is_float() && bit_width(to.code) < bit_width(from.code)))
    fail(loc,
         "tk::cast: a rounding mode applies only to a float conversion to a narrower float "
         "type, not ",
         to_string(from), " to ", to_string(to));
  if (from == to)
    return x;
  // fp8 converts through f32 only: exactly from fp8 and from f16/bf16, rounded once from f32
  // (f64 rounds to f32 first, and integers convert to f32 first).
  const elem_type f32{dtype::f32};
  if (is_fp8(to.code) && from != f32 && !from.is_pointer())
    return convert(convert(x, f32, loc, from.code == dtype::f64 ? mode : rounding::rtne), to, loc,
                   mode);
  if (is_fp8(from.code) && to != f32 && !to.is_pointer() && to.code != dtype::i1)
    return convert(convert(x, f32, loc), to, loc, mode);
  if (ctx.tracing()) {
    auto emit = [&](const char *name, const value_ref &src, elem_type t) {
      const bool narrowing = std::string_view(name) == "arith.truncf";
      return record1(name, syntax::convert, {src}, t, x->shape,
                     narrowing && mode == rounding::rtz ? "toward_zero" : "", loc);
    };
    if (from.is_pointer() && to.is_pointer())
      return record1("tk.bitcast", syntax::generic, {x}, to, x->shape, "", loc);
    // Addresses are i64 in the IR; other types convert from and to i64 (`!= 0` for i1).
    if (from.is_pointer())
      return convert(
          record1("tk.ptr_to_int", syntax::generic, {x}, {dtype::i64}, x->shape, "", loc), to, loc);
    if (to.is_pointer())
      return record1("tk.int_to_ptr", syntax::generic, {convert(x, {dtype::i64}, loc)}, to,
                     x->shape, "", loc);
    if (to.code == dtype::i1) {
      const bool f = from.is_float();
      auto zero = const_value(from, x->shape, 0.0, 0, loc);
      return record1(f ? "arith.cmpf" : "arith.cmpi", syntax::compare, {x, zero}, to, x->shape,
                     f ? "une" : "ne", loc);
    }
    if (from.is_float() && to.is_float()) {
      const int wf = bit_width(from.code), wt = bit_width(to.code);
      if (wf == wt) // f16 <-> bf16 goes through f32
        return emit("arith.truncf", emit("arith.extf", x, {dtype::f32}), to);
      return emit(wf < wt ? "arith.extf" : "arith.truncf", x, to);
    }
    if (from.is_float())
      return emit(is_unsigned(to.code) ? "arith.fptoui" : "arith.fptosi", x, to);
    if (to.is_float())
      return emit(is_unsigned(from.code) ? "arith.uitofp" : "arith.sitofp", x, to);
    const int wf = bit_width(from.code), wt = bit_width(to.code);
    if (wf == wt) // signless in IR: only the C++ type changes
      return emit("arith.bitcast", x, to);
    if (wf > wt)
      return emit("arith.trunci", x, to);
    return emit(is_unsigned(from.code) ? "arith.extui" : "arith.extsi", x, to);
  }
  auto v = make_concrete(to, x->shape);
  if (from.is_pointer() && to.is_pointer())
    v->extent = x->extent;
  const auto n = std::size_t(v->size());
  for (std::size_t k = 0; k < n; ++k) {
    if (from.is_float() && to.is_float())
      v->f[k] = round_float(x->f[k], to.code, mode);
    else if (from.is_float())
      v->i[k] = to.code == dtype::i1 ? (x->f[k] != 0) : float_to_int(x->f[k], to.code);
    else if (to.is_float())
      v->f[k] = round_float(int_as_real(x->i[k], from.code), to.code);
    else
      v->i[k] = to.code == dtype::i1 ? (x->i[k] != 0) : wrap_int(x->i[k], to.code);
  }
  return v;
}

TK_DECL value_ref bitcast(const value_ref &x, elem_type to, loc_t loc) {
  context &ctx = active(loc);
  if (x->type == to)
    return x;
  if (ctx.tracing())
    return record1(x->type.is_pointer() || to.is_pointer() ? "tk.bitcast" : "arith.bitcast",
                   x->type.is_pointer() || to.is_pointer() ? syntax::generic : syntax::convert, {x},
                   to, x->shape, "", loc);
  auto v = make_concrete(to, x->shape);
  if (x->type.is_pointer() && to.is_pointer())
    v->extent = x->extent;
  const auto n = std::size_t(v->size());
  for (std::size_t k = 0; k < n; ++k) {
    unsigned char bytes[8] = {};
    store_element(bytes, x->type.code, x->type.is_float() ? x->f[k] : 0,
                  x->type.is_float() ? 0 : x->i[k]);
    double f = 0;
    std::int64_t i = 0;
    load_element(bytes, to.code, f, i);
    if (to.is_float())
      v->f[k] = f;
    else
      v->i[k] = wrap_int(i, to.code);
  }
  return v;
}

TK_DECL value_ref addptr(const value_ref &p, const value_ref &off, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing())
    return record1("tk.addptr", syntax::generic, {p, off}, p->type, p->shape, "", loc);
  auto v = points_like(make_concrete(p->type, p->shape), *p);
  const auto size = std::int64_t(elem_type{p->type.pointee}.bytes());
  for (std::size_t k = 0; k < v->i.size(); ++k)
    v->i[k] = std::int64_t(std::uint64_t(p->i[k]) + std::uint64_t(off->i[k] * size));
  return v;
}

TK_DECL void check_access(const context &ctx, const value &p, std::size_t k, bool write, loc_t loc,
                          const char *what) {
  const auto address = std::uint64_t(p.i[k]);
  const elem_type t{p.type.pointee};
  const auto bytes = std::uint64_t(t.bytes());
  if (!what)
    what = write ? "tk::store" : "tk::load";
  if (p.extent >= 0) {
    const buffer_extent &e = ctx.extents[std::size_t(p.extent)];
    if (address < e.begin || address + bytes > e.end) [[unlikely]] {
      const auto offset = std::int64_t(address - e.begin);
      const std::int64_t element =
          offset >= 0 ? offset / std::int64_t(bytes)
                      : -((-offset + std::int64_t(bytes) - 1) / std::int64_t(bytes));
      fail(loc, what, ": ", lane_name(p.shape, k), write ? " writes" : " reads",
           " out of bounds: element ", element, " of launch argument ", p.extent, ", a buffer of ",
           (e.end - e.begin) / bytes, " ", name(t.code),
           " elements; mask the lane off (e.g. with `offsets < n`)");
    }
  }
  if (ctx.checked && address % bytes != 0) [[unlikely]]
    fail(loc, what, ": ", lane_name(p.shape, k), write ? " writes" : " reads", " address ", address,
         ", which is not aligned to its element type (", name(t.code), ", ", bytes,
         " bytes); the GPU faults on a misaligned access (TK_INTERPRET_CHECK)");
}

TK_DECL value_ref load(const value_ref &p, const value_ref &mask, const value_ref &other,
                       loc_t loc) {
  context &ctx = active(loc);
  const elem_type t{p->type.pointee};
  if (ctx.tracing()) {
    std::vector<value_ref> operands{p};
    if (mask)
      operands.push_back(mask);
    if (other)
      operands.push_back(other);
    return record1("tk.load", syntax::generic, std::move(operands), t, p->shape,
                   segment_sizes(bool(mask), bool(other)), loc);
  }
  auto v = make_concrete(t, p->shape);
  const auto n = std::size_t(v->size());
  const bool check = p->extent >= 0 || ctx.checked;
  for (std::size_t k = 0; k < n; ++k) {
    double f = 0;
    std::int64_t i = 0;
    if (!mask || mask->i[k]) {
      if (std::uint64_t(p->i[k]) < null_page) // null, or a small offset from null
        fail(loc, "tk::load: null pointer dereferenced at element ", k,
             " of the block (mask the lane off or pass a valid pointer)");
      if (check)
        check_access(ctx, *p, k, false, loc);
      load_element(reinterpret_cast<const void *>(p->i[k]), t.code, f, i);
    } else if (other) {
      f = t.is_float() ? other->f[k] : 0;
      i = t.is_float() ? 0 : other->i[k];
    }
    if (t.is_float())
      v->f[k] = f;
    else
      v->i[k] = i;
  }
  return v;
}

TK_DECL void store(const value_ref &p, const value_ref &x, const value_ref &mask, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing()) {
    std::vector<value_ref> operands{p, x};
    if (mask)
      operands.push_back(mask);
    record("tk.store", syntax::generic, std::move(operands), {}, "", loc);
    return;
  }
  const auto n = std::size_t(p->size());
  const bool check = p->extent >= 0 || ctx.checked;
  for (std::size_t k = 0; k < n; ++k) {
    if (mask && !mask->i[k])
      continue;
    if (std::uint64_t(p->i[k]) < null_page)
      fail(loc, "tk::store: null pointer at element ", k,
           " of the block (mask the lane off or pass a valid pointer)");
    if (check)
      check_access(ctx, *p, k, true, loc);
    store_element(reinterpret_cast<void *>(p->i[k]), x->type.code, x->type.is_float() ? x->f[k] : 0,
                  x->type.is_float() ? 0 : x->i[k]);
  }
}

TK_DECL value_ref scalar_at(const value_ref &x, std::int64_t k) {
  auto s = make_concrete(x->type, {});
  if (x->type.is_float())
    s->f[0] = x->f[std::size_t(k)];
  else
    s->i[0] = x->i[std::size_t(k)];
  return s;
}

TK_DECL void put(const value_ref &dst, std::int64_t k, const value_ref &scalar) {
  if (dst->type.is_float())
    dst->f[std::size_t(k)] = scalar->f[0];
  else
    dst->i[std::size_t(k)] = scalar->i[0];
}

TK_DECL void trace_combine(context &ctx, region &r, const std::vector<value_ref> &xs,
                           const combine_fn &combine, const char *terminator, loc_t loc) {
  region_scope scope(ctx, r);
  std::vector<value_ref> lhs, rhs;
  for (auto &x : xs)
    lhs.push_back(make_value(x->type, {}));
  for (auto &x : xs)
    rhs.push_back(make_value(x->type, {}));
  r.args = lhs;
  r.args.insert(r.args.end(), rhs.begin(), rhs.end());
  auto out = combine(lhs, rhs);
  if (out.size() != xs.size())
    fail(loc, "the combine function returns ", out.size(), " values for ", xs.size(), " operands");
  for (std::size_t k = 0; k < out.size(); ++k)
    if (out[k]->type != xs[k]->type || !out[k]->shape.empty())
      fail(loc, "the combine function must return scalars of the operands' types (",
           to_string(xs[k]->type), "), got ", to_string(out[k]->type), " of shape ",
           to_string(out[k]->shape));
  record(terminator, syntax::generic, out, {}, "", loc);
}

TK_DECL std::vector<value_ref> reduce(const std::vector<value_ref> &xs, int axis,
                                      const combine_fn &combine, loc_t loc) {
  context &ctx = active(loc);
  const shape_t &in = xs.front()->shape;
  shape_t out_shape = in;
  out_shape.erase(out_shape.begin() + axis);
  std::vector<value_ref> results;
  for (auto &x : xs)
    results.push_back(ctx.tracing() ? make_value(x->type, out_shape)
                                    : make_concrete(x->type, out_shape));
  if (ctx.tracing()) {
    auto o = make_owned<op>();
    o->name = "tk.reduce";
    o->operands = xs;
    o->results = results;
    o->attrs = "axis = " + i32_attr(axis);
    o->loc = loc;
    o->regions.resize(1);
    trace_combine(ctx, o->regions[0], xs, combine, "tk.reduce.return", loc);
    append(ctx, std::move(o));
    return results;
  }
  const auto n = in[std::size_t(axis)];
  const auto inner = strides_of(in)[std::size_t(axis)];
  const auto outer = numel(in) / (n * inner);
  std::vector<std::vector<value_ref>> lanes(static_cast<std::size_t>(n));
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < inner; ++i) {
      for (std::int64_t k = 0; k < n; ++k) {
        lanes[std::size_t(k)].clear();
        for (auto &x : xs)
          lanes[std::size_t(k)].push_back(scalar_at(x, (o * n + k) * inner + i));
      }
      // Pairwise tree, as the GPU combines lanes: deterministic and close to its rounding.
      for (std::int64_t stride = n / 2; stride >= 1; stride /= 2)
        for (std::int64_t k = 0; k < stride; ++k)
          lanes[std::size_t(k)] = combine(lanes[std::size_t(k)], lanes[std::size_t(k + stride)]);
      for (std::size_t r = 0; r < xs.size(); ++r)
        put(results[r], o * inner + i, lanes[0][r]);
    }
  return results;
}

TK_DECL std::vector<value_ref> scan(const std::vector<value_ref> &xs, int axis, bool reverse,
                                    const combine_fn &combine, loc_t loc) {
  context &ctx = active(loc);
  const shape_t &in = xs.front()->shape;
  std::vector<value_ref> results;
  for (auto &x : xs)
    results.push_back(ctx.tracing() ? make_value(x->type, in) : make_concrete(x->type, in));
  if (ctx.tracing()) {
    auto o = make_owned<op>();
    o->name = "tk.scan";
    o->operands = xs;
    o->results = results;
    o->attrs = "axis = " + i32_attr(axis) + ", reverse = " + (reverse ? "true" : "false");
    o->loc = loc;
    o->regions.resize(1);
    trace_combine(ctx, o->regions[0], xs, combine, "tk.scan.return", loc);
    append(ctx, std::move(o));
    return results;
  }
  const auto n = in[std::size_t(axis)];
  const auto inner = strides_of(in)[std::size_t(axis)];
  const auto outer = numel(in) / (n * inner);
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < inner; ++i) {
      std::vector<value_ref> acc;
      for (std::int64_t step = 0; step < n; ++step) {
        const auto k = reverse ? n - 1 - step : step;
        const auto at = (o * n + k) * inner + i;
        std::vector<value_ref> cur;
        for (auto &x : xs)
          cur.push_back(scalar_at(x, at));
        acc = step == 0 ? cur : (reverse ? combine(cur, acc) : combine(acc, cur));
        for (std::size_t r = 0; r < xs.size(); ++r)
          put(results[r], at, acc[r]);
      }
    }
  return results;
}

TK_DECL value_ref dot(const value_ref &a, const value_ref &b, const value_ref &acc,
                      dot_precision precision, int max_num_imprecise_acc, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing()) {
    std::string attrs = "input_precision = \"";
    attrs += precision_name(precision);
    attrs += "\"";
    if (max_num_imprecise_acc >= 0)
      attrs += ", max_num_imprecise_acc = " + i32_attr(max_num_imprecise_acc);
    return record1("tk.dot", syntax::generic, {a, b, acc}, acc->type, acc->shape, attrs, loc);
  }
  const std::size_t r = a->shape.size() - 2;
  const auto batches = r == 0 ? 1 : a->shape[0];
  const auto m = a->shape[r], k = a->shape[r + 1], n = b->shape[r + 1];
  auto v = make_concrete(acc->type, acc->shape);
  // Element (i, j) of matrix `batch` of a [*, rows, cols] block.
  auto at = [](std::int64_t batch, std::int64_t rows, std::int64_t cols, std::int64_t i,
               std::int64_t j) { return std::size_t((batch * rows + i) * cols + j); };
  for (std::int64_t t = 0; t < batches; ++t) {
    if (acc->type.is_float() && precision == dot_precision::tf32x3) {
      std::vector<tf32_split> sa(std::size_t(m * k)), sb(std::size_t(k * n));
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t p = 0; p < k; ++p)
          sa[std::size_t(i * k + p)] = split_tf32(a->f[at(t, m, k, i, p)]);
      for (std::int64_t p = 0; p < k; ++p)
        for (std::int64_t j = 0; j < n; ++j)
          sb[std::size_t(p * n + j)] = split_tf32(b->f[at(t, k, n, p, j)]);
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          double big = 0, small = 0;
          for (std::int64_t p = 0; p < k; ++p) {
            const tf32_split x = sa[std::size_t(i * k + p)], y = sb[std::size_t(p * n + j)];
            big += x.big * y.big;
            small += x.big * y.small + x.small * y.big;
          }
          if (std::isnan(small)) // inf * 0: the big products carry the infinity (or NaN)
            small = 0;
          const auto out = at(t, m, n, i, j);
          v->f[out] = round_float(acc->f[out] + (big + small), acc->type.code);
        }
    } else if (acc->type.is_float()) {
      const bool tf32 = precision == dot_precision::tf32;
      auto in = [&](const value_ref &x, std::size_t idx) {
        const double e = x->f[idx];
        return tf32 ? round_to_tf32(e) : e;
      };
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          double s = 0;
          for (std::int64_t p = 0; p < k; ++p)
            s += in(a, at(t, m, k, i, p)) * in(b, at(t, k, n, p, j));
          const auto out = at(t, m, n, i, j);
          v->f[out] = round_float(acc->f[out] + s, acc->type.code);
        }
    } else {
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          const auto out = at(t, m, n, i, j);
          std::int64_t s = acc->i[out];
          for (std::int64_t p = 0; p < k; ++p)
            s += a->i[at(t, m, k, i, p)] * b->i[at(t, k, n, p, j)];
          v->i[out] = wrap_int(s, acc->type.code);
        }
    }
  }
  return v;
}

} // namespace tk::detail

/// @file debug.ipp
/// The bodies of the functions debug.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/ir/printer.hpp>
#include <tk/detail/trace/debug.hpp>

#include <cmath>
#include <cstdio>

namespace tk::detail {

namespace {

/// printf's conversion for an element of `t`, as the GPU's vprintf uses it.
std::string print_conversion(const elem_type &t, bool is_signed, bool hex) {
  if (t.is_pointer())
    return "%p";
  const int bits = bit_width(t.code);
  if (hex)
    return "0x%0" + std::to_string(std::max(1, bits / 4)) + (bits > 32 ? "llx" : "x");
  if (t.is_float())
    return "%f";
  return std::string(bits > 32 ? "%ll" : "%") + (is_signed && bits > 1 ? "i" : "u");
}

/// Prints element `k` of `v` with `format`, whose one conversion takes the value.
void print_element(const std::string &format, const value &v, std::size_t k, bool is_signed,
                   bool hex) {
  const int bits = v.type.is_pointer() ? 64 : bit_width(v.type.code);
  auto emit = [&](auto x) { std::printf(format.c_str(), x); };
  if (v.type.is_pointer()) {
    emit(reinterpret_cast<void *>(v.i[k]));
  } else if (hex) {
    unsigned char raw[8] = {};
    store_element(raw, v.type.code, v.type.is_float() ? v.f[k] : 0, v.type.is_float() ? 0 : v.i[k]);
    std::uint64_t pattern = 0;
    std::memcpy(&pattern, raw, std::size_t((bits + 7) / 8));
    if (bits > 32)
      emit(static_cast<unsigned long long>(pattern));
    else
      emit(static_cast<unsigned>(pattern));
  } else if (v.type.is_float()) {
    emit(v.f[k]);
  } else if (bits > 32) {
    if (is_signed)
      emit(static_cast<long long>(v.i[k]));
    else
      emit(static_cast<unsigned long long>(v.i[k]));
  } else if (is_signed && bits > 1) {
    emit(static_cast<int>(v.i[k]));
  } else {
    emit(static_cast<unsigned>(v.i[k] & 0xffffffff));
  }
}

/// "pid (x, y, z) " for the program instance running.
std::string pid_text(const context &ctx) {
  return "pid (" + std::to_string(ctx.program_id[0]) + ", " + std::to_string(ctx.program_id[1]) +
         ", " + std::to_string(ctx.program_id[2]) + ")";
}

/// `n` right-aligned in `width` characters, as printf's %*u.
std::string padded(std::int64_t n, int width) {
  std::string s = std::to_string(n);
  return s.size() < std::size_t(width) ? std::string(std::size_t(width) - s.size(), ' ') + s : s;
}

std::string escape_percent(std::string_view text) {
  std::string s;
  for (const char c : text) {
    s += c;
    if (c == '%')
      s += '%';
  }
  return s;
}

/// "array<i32: 1, 0>".
std::string i32_array(const std::vector<std::int64_t> &xs) {
  std::string s = "array<i32";
  for (std::size_t i = 0; i < xs.size(); ++i)
    s += (i ? ", " : ": ") + std::to_string(xs[i]);
  return s + ">";
}

} // namespace

TK_DECL void print_values(std::string_view prefix, const std::vector<value_ref> &values,
                          const std::vector<bool> &is_signed, bool hex, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing()) {
    std::vector<std::int64_t> signs;
    for (const bool s : is_signed)
      signs.push_back(s ? 1 : 0);
    record("tk.print", syntax::generic, values, {},
           std::string("hex = ") + (hex ? "true" : "false") + ", is_signed = " + i32_array(signs) +
               ", prefix = " + mlir_string(prefix),
           loc);
    return;
  }
  // The GPU's format (DebugOpToLLVM.cpp): the program id, the element's index, the prefix, the
  // operand's number when there are several, the value.
  const std::string text = escape_percent(prefix);
  if (values.empty()) {
    std::printf("%s", (pid_text(ctx) + std::string(prefix) + "\n").c_str());
    std::fflush(stdout);
    return;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const value &v = *values[i];
    std::vector<int> widths;
    for (const std::int64_t size : v.shape)
      widths.push_back(size > 1 ? int(std::ceil(std::log10(double(size)))) : 1);
    std::string tail = text;
    if (values.size() > 1)
      tail += "(operand " + std::to_string(i) + ") ";
    tail += print_conversion(v.type, is_signed[i], hex) + "\n";
    const std::size_t n = std::size_t(v.size());
    std::vector<std::int64_t> index(v.shape.size(), 0);
    for (std::size_t k = 0; k < n; ++k) {
      std::string head = pid_text(ctx) + " idx (";
      for (std::size_t d = 0; d < index.size(); ++d)
        head += (d ? ", " : "") + padded(index[d], widths[d]);
      print_element(head + ")" + tail, v, k, is_signed[i], hex);
      for (int d = int(index.size()) - 1; d >= 0; --d) {
        if (++index[std::size_t(d)] < v.shape[std::size_t(d)])
          break;
        index[std::size_t(d)] = 0;
      }
    }
  }
  std::fflush(stdout);
}

TK_DECL void assert_true(const value_ref &condition, std::string_view message, loc_t loc) {
  context &ctx = active(loc);
  if (!ctx.debug)
    return;
  if (ctx.tracing()) {
    const auto id = std::int64_t(ctx.asserts.size());
    ctx.asserts.push_back({std::string(message), loc});
    record("tk.assert", syntax::generic, {condition}, {},
           "file = " + mlir_string(loc.file_name()) +
               ", function = " + mlir_string(loc.function_name()) + ", id = " + i32_attr(id) +
               ", line = " + i32_attr(loc.line()) + ", message = " + mlir_string(message),
           loc);
    return;
  }
  const auto n = std::size_t(condition->size());
  for (std::size_t k = 0; k < n; ++k)
    if (!condition->i[k])
      fail(loc, "device assertion failed: ", message.empty() ? "(no message)" : message,
           " (program ", instance_name(ctx, ctx.generation), ", ", lane_name(condition->shape, k),
           ")");
}

TK_DECL bool asserts_on(loc_t loc) { return active(loc).debug; }

TK_DECL void debug_barrier(loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing())
    record("tk.debug_barrier", syntax::generic, {}, {}, "", loc);
}

TK_DECL void grid_dependency(bool launch_dependents, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing())
    record(launch_dependents ? "tk.gdc_launch_dependents" : "tk.gdc_wait", syntax::generic, {}, {},
           "", loc);
}

namespace {

/// The interpreter's checked mode: fails unless every element of `x` that starts a run of
/// consecutive values (one that does not continue such a run along any dimension; integers step
/// by 1, addresses by the element size) is a multiple of each `values[d]`, the promise
/// tk::multiple_of makes.
void check_multiple_of(const context &ctx, const value &x, const std::vector<std::int64_t> &values,
                       loc_t loc) {
  const bool pointers = x.type.is_pointer();
  const std::int64_t unit = pointers ? (bit_width(x.type.pointee) + 7) / 8 : 1;
  const std::size_t rank = x.shape.size();
  std::vector<std::int64_t> stride(rank, 1);
  for (std::size_t d = rank; d-- > 1;)
    stride[d - 1] = stride[d] * x.shape[d];
  const auto coordinate = [&](std::size_t e, std::size_t d) {
    return std::int64_t(e) / stride[d] % x.shape[d];
  };
  for (std::size_t e = 0; e < x.i.size(); ++e) {
    bool continues = false;
    for (std::size_t d = 0; d < rank && !continues; ++d)
      continues = coordinate(e, d) > 0 && x.i[e] - x.i[e - std::size_t(stride[d])] == unit;
    for (std::size_t d = 0; d < values.size() && !continues; ++d) {
      if (x.i[e] % values[d] == 0)
        continue;
      std::string at;
      for (std::size_t k = 0; k < rank; ++k)
        at += (k ? ", " : " at (") + std::to_string(coordinate(e, k)) + (k + 1 == rank ? ")" : "");
      fail(loc, "tk::multiple_of: the ", pointers ? "address " : "value ", x.i[e], at,
           " is not a multiple of ", values[d], pointers ? " bytes" : "",
           rank > 1 ? " along dimension " + std::to_string(d) : std::string(), ", in program ",
           instance_name(ctx, ctx.generation), " (TK_INTERPRET_CHECK); the compiler relies on it");
    }
  }
}

} // namespace

TK_DECL value_ref hint(hint_kind kind, const value_ref &x, const std::vector<std::int64_t> &values,
                       loc_t loc) {
  context &ctx = active(loc);
  const char *name = kind == hint_kind::multiple_of      ? "tk::multiple_of"
                     : kind == hint_kind::max_contiguous ? "tk::max_contiguous"
                                                         : "tk::max_constancy";
  const std::size_t rank = std::max<std::size_t>(1, x->shape.size());
  if (values.size() != rank)
    fail(loc, name, ": needs one value per dimension of the block (", rank, "), got ",
         values.size());
  for (const std::int64_t v : values)
    if (v < 1 || v > std::int64_t(1) << 30)
      fail(loc, name, ": values must be between 1 and 2^30, got ", v);
  if (!ctx.tracing()) {
    if (ctx.checked && kind == hint_kind::multiple_of)
      check_multiple_of(ctx, *x, values, loc);
    return x;
  }
  const char *op = kind == hint_kind::multiple_of      ? "tk.multiple_of"
                   : kind == hint_kind::max_contiguous ? "tk.max_contiguous"
                                                       : "tk.max_constancy";
  return record1(op, syntax::generic, {x}, x->type, x->shape, "values = " + i32_array(values), loc);
}

TK_DECL void assume(const value_ref &condition, loc_t loc) {
  context &ctx = active(loc);
  if (ctx.tracing()) {
    record("tk.assume", syntax::generic, {condition}, {}, "", loc);
    return;
  }
  if (ctx.checked && !condition->i[0])
    fail(loc, "tk::assume: the condition is false in program ", instance_name(ctx, ctx.generation),
         " (TK_INTERPRET_CHECK); the compiler relies on it");
}

namespace {

const char *cache_name(cache_modifier c) {
  switch (c) {
  case cache_modifier::ca:
    return "ca";
  case cache_modifier::cg:
    return "cg";
  case cache_modifier::cs:
    return "cs";
  case cache_modifier::cv:
    return "cv";
  case cache_modifier::wb:
    return "wb";
  case cache_modifier::wt:
    return "wt";
  case cache_modifier::none:
    break;
  }
  return "";
}

} // namespace

TK_DECL void check_memory_hints(const memory_hints &hints, bool store, loc_t loc) {
  const char *what = store ? "tk::store" : "tk::load";
  const cache_modifier c = hints.cache_modifier;
  if (store && (c == cache_modifier::ca || c == cache_modifier::cv))
    fail(loc, what, ": cache_modifier ", cache_name(c),
         " is for loads; a store takes wb, cg, cs or wt");
  if (!store && (c == cache_modifier::wb || c == cache_modifier::wt))
    fail(loc, what, ": cache_modifier ", cache_name(c),
         " is for stores; a load takes ca, cg, cs or cv");
  if (store && hints.is_volatile)
    fail(loc, what, ": is_volatile applies to loads only, as in Triton");
  if (c != cache_modifier::none && hints.eviction_policy != eviction_policy::normal)
    fail(loc, what, ": give a cache_modifier or an eviction_policy, not both (PTX's ",
         store ? "st" : "ld", " takes one or the other)");
  if (hints.is_volatile &&
      (c != cache_modifier::none || hints.eviction_policy != eviction_policy::normal))
    fail(loc, what, ": a volatile load takes no cache_modifier or eviction_policy");
}

TK_DECL std::string memory_attrs(const memory_hints &hints, std::string base) {
  // Alphabetical, as MLIR prints properties: cache, evict, is_volatile, operandSegmentSizes.
  std::string a;
  auto add = [&](const std::string &s) { a += (a.empty() ? "" : ", ") + s; };
  if (hints.cache_modifier != cache_modifier::none)
    add(std::string("cache = \"") + cache_name(hints.cache_modifier) + "\"");
  if (hints.eviction_policy != eviction_policy::normal)
    add(hints.eviction_policy == eviction_policy::evict_first ? "evict = \"evict_first\""
                                                              : "evict = \"evict_last\"");
  if (hints.is_volatile)
    add("is_volatile");
  if (!base.empty())
    add(base);
  return a;
}

TK_DECL value_ref load_hinted(const value_ref &p, const value_ref &mask, const value_ref &other,
                              const memory_hints &hints, loc_t loc) {
  check_memory_hints(hints, false, loc);
  context &ctx = active(loc);
  if (!ctx.tracing())
    return load(p, mask, other, loc); // the interpreter has no caches
  std::vector<value_ref> operands{p};
  if (mask)
    operands.push_back(mask);
  if (other)
    operands.push_back(other);
  return record1("tk.load", syntax::generic, std::move(operands), elem_type{p->type.pointee},
                 p->shape, memory_attrs(hints, segment_sizes(bool(mask), bool(other))), loc);
}

TK_DECL void store_hinted(const value_ref &p, const value_ref &x, const value_ref &mask,
                          const memory_hints &hints, loc_t loc) {
  check_memory_hints(hints, true, loc);
  context &ctx = active(loc);
  if (!ctx.tracing())
    return store(p, x, mask, loc);
  std::vector<value_ref> operands{p, x};
  if (mask)
    operands.push_back(mask);
  record("tk.store", syntax::generic, std::move(operands), {}, memory_attrs(hints, ""), loc);
}

TK_DECL std::vector<value_ref> inline_asm(std::string_view text, std::string_view constraints,
                                          const std::vector<value_ref> &operands,
                                          const std::vector<elem_type> &types, const shape_t &shape,
                                          bool pure, int pack, loc_t loc) {
  context &ctx = active(loc);
  if (!ctx.tracing())
    fail(loc, "tk::inline_asm_elementwise cannot run on the interpreter: it runs PTX, which "
              "only the GPU can; launch on the GPU, or write the computation with block "
              "operations (bit shifts, tk::bitcast, tk::where) where the interpreter must run it");
  if (pack < 1)
    fail(loc, "tk::inline_asm_elementwise: pack must be at least 1, got ", pack);
  if (numel(shape) % pack != 0)
    fail(loc, "tk::inline_asm_elementwise: pack ", pack, " does not divide the block's ",
         numel(shape), " elements");
  std::vector<value_ref> results;
  for (const elem_type &t : types)
    results.push_back(make_value(t, shape));
  record("tk.inline_asm", syntax::generic, operands, results,
         "asm_string = " + mlir_string(text) + ", constraints = " + mlir_string(constraints) +
             ", pack = " + i32_attr(pack) + ", pure = " + (pure ? "true" : "false"),
         loc);
  return results;
}

} // namespace tk::detail

/// @file extern_elementwise.ipp
/// The bodies of the functions extern_elementwise.hpp declares: included at its end (header-only,
/// the default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/trace/extern_elementwise.hpp>

#include <cmath>

namespace tk::detail {

TK_DECL const extern_function *find_extern_function(std::string_view symbol) {
  // libdevice's names, f32 (`f` suffix) and f64; add a function here to interpret it.
  static const extern_function table[] = {
      {"__nv_exp10f", dtype::f32, 1, [](double x, double) { return std::pow(10.0, x); }},
      {"__nv_exp10", dtype::f64, 1, [](double x, double) { return std::pow(10.0, x); }},
      {"__nv_hypotf", dtype::f32, 2, [](double x, double y) { return std::hypot(x, y); }},
      {"__nv_hypot", dtype::f64, 2, [](double x, double y) { return std::hypot(x, y); }},
  };
  for (const auto &f : table)
    if (symbol == f.symbol)
      return &f;
  return nullptr;
}

TK_DECL value_ref extern_elementwise(const std::string &symbol, const std::vector<value_ref> &args,
                                     elem_type t, loc_t loc) {
  context &ctx = active(loc);
  const shape_t &shape = args.front()->shape;
  if (ctx.tracing())
    return record1("tk.extern_elementwise", syntax::generic, args, t, shape,
                   "pure = true, symbol = \"" + symbol + "\"", loc);
  const extern_function *f = find_extern_function(symbol);
  if (!f)
    fail(loc, "tk.extern_elementwise: the interpreter does not know the device function `", symbol,
         "`; run the kernel on the GPU, or compute the function from TileKit's math "
         "functions");
  bool matches = int(args.size()) == f->arity && t.code == f->type;
  for (const auto &a : args)
    matches = matches && a->type == t && a->shape == shape;
  if (!matches)
    fail(loc, "tk.extern_elementwise: `", symbol, "` takes ", f->arity, " ", name(f->type),
         f->arity == 1 ? " operand" : " operands", " and returns ", name(f->type), ", got ",
         args.size(), args.size() == 1 ? " operand" : " operands", " of type ",
         to_string(args.front()->type), " returning ", to_string(t));
  auto v = make_concrete(t, shape);
  for (std::size_t k = 0; k < v->f.size(); ++k)
    v->f[k] = round_float(f->fn(args[0]->f[k], f->arity > 1 ? args[1]->f[k] : 0.0), t.code);
  return v;
}

TK_DECL value_ref libdevice_call(const char *stem, const std::vector<value_ref> &args, loc_t loc) {
  const elem_type t = args.front()->type;
  const bool f64 = t.code == dtype::f64, wide = f64 || t.code == dtype::f32;
  const elem_type f32{dtype::f32};
  std::vector<value_ref> xs;
  for (const auto &a : args)
    xs.push_back(wide ? a : convert(a, f32, loc));
  const std::string symbol = std::string("__nv_") + stem + (f64 ? "" : "f");
  auto r = extern_elementwise(symbol, xs, wide ? t : f32, loc);
  return wide ? r : convert(r, t, loc);
}

} // namespace tk::detail

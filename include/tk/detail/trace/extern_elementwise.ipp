/// @file extern_elementwise.ipp
/// The bodies of the functions extern_elementwise.hpp declares: included at its end (header-only,
/// the default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/trace/extern_elementwise.hpp>

#include <tk/detail/ir/printer.hpp>

#include <cmath>

namespace tk::detail {

TK_DECL std::optional<extern_function> find_extern_function(std::string_view symbol) {
  constexpr long double pi = 3.141592653589793238462643383279502884L;
  struct entry {
    const char *stem;
    int arity;
    double (*fn)(double, double);
  };
  // Each evaluated in long double and rounded to double (see TK_DETAIL_LIBDEVICE_UNARY).
#define TK_DETAIL_UNARY_ENTRY(NAME, HOST)                                                          \
  {#NAME, 1, [](double x, double) {                                                                \
     const long double a = x;                                                                      \
     return double(HOST);                                                                          \
   }},
#define TK_DETAIL_BINARY_ENTRY(NAME, HOST)                                                         \
  {#NAME, 2, [](double x, double y) {                                                              \
     const long double a = x, b = y;                                                               \
     return double(HOST);                                                                          \
   }},
  static const entry table[] = {TK_DETAIL_LIBDEVICE_UNARY(TK_DETAIL_UNARY_ENTRY)
                                    TK_DETAIL_LIBDEVICE_BINARY(TK_DETAIL_BINARY_ENTRY)};
#undef TK_DETAIL_UNARY_ENTRY
#undef TK_DETAIL_BINARY_ENTRY
  if (!symbol.starts_with("__nv_"))
    return std::nullopt;
  const std::string_view name = symbol.substr(5);
  // `__nv_<stem>` is f64; `__nv_<stem>f` f32 (`__nv_erf` is f64, `__nv_erff` f32).
  for (const entry &e : table)
    if (name == e.stem)
      return extern_function{std::string(symbol), dtype::f64, e.arity, e.fn};
  if (name.ends_with('f'))
    for (const entry &e : table)
      if (name.substr(0, name.size() - 1) == e.stem)
        return extern_function{std::string(symbol), dtype::f32, e.arity, e.fn};
  return std::nullopt;
}

TK_DECL value_ref extern_elementwise(const std::string &symbol, std::string_view library, bool pure,
                                     const extern_host_function &host,
                                     const std::vector<value_ref> &args, elem_type t, loc_t loc) {
  context &ctx = active(loc);
  const shape_t &shape = args.front()->shape;
  if (ctx.tracing()) {
    std::string attributes =
        std::string("pure = ") + (pure ? "true" : "false") + ", symbol = " + mlir_string(symbol);
    if (!library.empty())
      attributes = "library = " + mlir_string(library) + ", " + attributes;
    return record1("tk.extern_elementwise", syntax::generic, args, t, shape, attributes, loc);
  }
  auto v = make_concrete(t, shape);
  const bool float_result = v->i.empty();
  if (host) {
    std::vector<double> operands(args.size());
    for (std::size_t k = 0; k < std::size_t(numel(shape)); ++k) {
      for (std::size_t a = 0; a < args.size(); ++a)
        operands[a] = args[a]->f.empty() ? double(args[a]->i[k]) : args[a]->f[k];
      const double r = host(std::span<const double>(operands));
      if (float_result)
        v->f[k] = round_float(r, t.code);
      else // toward zero, wrapped; NaN and values beyond 2^63 as 0 (no undefined conversion)
        v->i[k] = wrap_int(std::fabs(r) < 9.2e18 ? std::int64_t(r) : 0, t.code);
    }
    return v;
  }
  if (!library.empty())
    fail(loc, "tk::extern_elementwise: `", symbol, "` of ", library,
         " has no host function, so the interpreter cannot run it; give one in "
         "extern_options::host, or run the kernel on the GPU");
  const std::optional<extern_function> f = find_extern_function(symbol);
  if (!f)
    fail(loc, "tk.extern_elementwise: the interpreter does not know the device function `", symbol,
         "`; give a host function in extern_options::host, or run the kernel on the GPU");
  bool matches = int(args.size()) == f->arity && t.code == f->type;
  for (const auto &a : args)
    matches = matches && a->type == t && a->shape == shape;
  if (!matches)
    fail(loc, "tk.extern_elementwise: `", symbol, "` takes ", f->arity, " ", name(f->type),
         f->arity == 1 ? " operand" : " operands", " and returns ", name(f->type), ", got ",
         args.size(), args.size() == 1 ? " operand" : " operands", " of type ",
         to_string(args.front()->type), " returning ", to_string(t));
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
  auto r = extern_elementwise(symbol, {}, true, {}, xs, wide ? t : f32, loc);
  return wide ? r : convert(r, t, loc);
}

} // namespace tk::detail

/// @file extern_elementwise.hpp
/// `tk.extern_elementwise`: a device function, named by its symbol, applied to each element:
/// libdevice's (`__nv_hypotf`), which the backend links itself, or one of an LLVM bitcode library
/// the kernel names. While tracing it is recorded with its symbol (and library); the interpreter
/// computes libdevice's functions from a table of those it knows (find_extern_function), in
/// double precision rounded to the result's type, as it computes the `math` ops, and a library's
/// function through the host function the kernel gives for it.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/trace/ownership.hpp>
#include <tk/detail/trace/primitives.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

/// libdevice's float functions of one operand that `tk::libdevice` offers and the interpreter
/// computes: X(name, host) with `host` an expression of the long double `a` (and `pi`): the
/// interpreter evaluates it in long double and rounds the result to double, then to the element
/// type, which keeps f64 results within about half an ulp where the host's long double functions
/// are more precise than double (x86). The device function of f32 is `__nv_<name>f`, of f64
/// `__nv_<name>`.
#define TK_DETAIL_LIBDEVICE_UNARY(X)                                                               \
  X(acos, std::acos(a))                                                                            \
  X(acosh, std::acosh(a))                                                                          \
  X(asin, std::asin(a))                                                                            \
  X(asinh, std::asinh(a))                                                                          \
  X(atan, std::atan(a))                                                                            \
  X(atanh, std::atanh(a))                                                                          \
  X(cbrt, std::cbrt(a))                                                                            \
  X(ceil, std::ceil(a))                                                                            \
  X(cos, std::cos(a))                                                                              \
  X(cosh, std::cosh(a))                                                                            \
  X(cospi, std::cos(pi *a))                                                                        \
  X(erf, std::erf(a))                                                                              \
  X(erfc, std::erfc(a))                                                                            \
  X(erfcx, a < 25 ? std::exp(a * a) * std::erfc(a) : (1 - 0.5L / (a * a)) / (a * std::sqrt(pi)))   \
  X(exp, std::exp(a))                                                                              \
  X(exp10, std::pow(10.0L, a))                                                                     \
  X(exp2, std::exp2(a))                                                                            \
  X(expm1, std::expm1(a))                                                                          \
  X(fabs, std::fabs(a))                                                                            \
  X(floor, std::floor(a))                                                                          \
  X(lgamma, std::lgamma(a))                                                                        \
  X(log, std::log(a))                                                                              \
  X(log10, std::log10(a))                                                                          \
  X(log1p, std::log1p(a))                                                                          \
  X(log2, std::log2(a))                                                                            \
  X(logb, std::logb(a))                                                                            \
  X(nearbyint, std::nearbyint(a))                                                                  \
  X(normcdf, 0.5L * std::erfc(-a / std::sqrt(2.0L)))                                               \
  X(rcbrt, 1 / std::cbrt(a))                                                                       \
  X(rint, std::rint(a))                                                                            \
  X(round, std::round(a))                                                                          \
  X(rsqrt, 1 / std::sqrt(a))                                                                       \
  X(sin, std::sin(a))                                                                              \
  X(sinh, std::sinh(a))                                                                            \
  X(sinpi, std::sin(pi *a))                                                                        \
  X(sqrt, std::sqrt(a))                                                                            \
  X(tan, std::tan(a))                                                                              \
  X(tanh, std::tanh(a))                                                                            \
  X(tgamma, std::tgamma(a))                                                                        \
  X(trunc, std::trunc(a))

/// The same for two operands, `a` and `b`.
#define TK_DETAIL_LIBDEVICE_BINARY(X)                                                              \
  X(atan2, std::atan2(a, b))                                                                       \
  X(copysign, std::copysign(a, b))                                                                 \
  X(fdim, std::fdim(a, b))                                                                         \
  X(fmax, std::fmax(a, b))                                                                         \
  X(fmin, std::fmin(a, b))                                                                         \
  X(fmod, std::fmod(a, b))                                                                         \
  X(hypot, std::hypot(a, b))                                                                       \
  X(pow, std::pow(a, b))                                                                           \
  X(remainder, std::remainder(a, b))                                                               \
  X(rhypot, 1 / std::hypot(a, b))

namespace tk::detail {

/// A device-library function the interpreter computes: `symbol` takes `arity` operands of element
/// type `type` and returns one of that type; `fn` computes it in double precision (the second
/// operand is 0 for a function of one operand).
struct extern_function {
  std::string symbol;
  dtype type;
  int arity;
  double (*fn)(double, double);
};

/// The libdevice function `symbol` as the interpreter knows it, or nothing.
TK_DECL std::optional<extern_function> find_extern_function(std::string_view symbol);

/// What the interpreter runs for each element of a library's function: its operands converted to
/// double, in order; the result is rounded (or, for an integer type, truncated) to the result
/// type.
using extern_host_function = callback<double(std::span<const double>)>;

/// `symbol` of `library` ("" for libdevice) applied to each element of `args` (one shape),
/// giving a value of type `t`: recorded while tracing (kept even when unused unless `pure`);
/// computed by the interpreter through `host`, or for libdevice without one from its table, and
/// failing at `loc` where it has neither or the operands do not match the table's.
TK_DECL value_ref extern_elementwise(const std::string &symbol, std::string_view library, bool pure,
                                     const extern_host_function &host,
                                     const std::vector<value_ref> &args, elem_type t, loc_t loc);

/// libdevice's function `stem` (`"hypot"`) on `args`, of one float type and shape: `__nv_hypotf` on
/// f32, `__nv_hypot` on f64; f16 and bf16 operands are extended to f32 (`arith.extf`) and the f32
/// result is rounded back (`arith.truncf`).
TK_DECL value_ref libdevice_call(const char *stem, const std::vector<value_ref> &args, loc_t loc);

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/trace/extern_elementwise.ipp>
#endif

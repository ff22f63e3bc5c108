/// @file extern_elementwise.hpp
/// `tk.extern_elementwise`: a device-library function (libdevice's `__nv_hypotf`) applied to each
/// element. While tracing it is recorded with its symbol; the interpreter computes it from a table
/// of the functions it knows (find_extern_function), in double precision rounded to the result's
/// type, as it computes the `math` ops.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/trace/primitives.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace tk::detail {

/// A device-library function the interpreter computes: `symbol` takes `arity` operands of element
/// type `type` and returns one of that type; `fn` computes it in double precision (the second
/// operand is 0 for a function of one operand).
struct extern_function {
  const char *symbol;
  dtype type;
  int arity;
  double (*fn)(double, double);
};

/// The entry of `symbol` in the interpreter's table, or null.
TK_DECL const extern_function *find_extern_function(std::string_view symbol);

/// `symbol` applied to each element of `args` (one shape), giving a value of type `t`: recorded
/// while tracing; computed by the interpreter, which fails at `loc` for a symbol it does not know
/// or operands that do not match it.
TK_DECL value_ref extern_elementwise(const std::string &symbol, const std::vector<value_ref> &args,
                                     elem_type t, loc_t loc);

/// libdevice's function `stem` (`"hypot"`) on `args`, of one float type and shape: `__nv_hypotf` on
/// f32, `__nv_hypot` on f64; f16 and bf16 operands are extended to f32 (`arith.extf`) and the f32
/// result is rounded back (`arith.truncf`).
TK_DECL value_ref libdevice_call(const char *stem, const std::vector<value_ref> &args, loc_t loc);

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/trace/extern_elementwise.ipp>
#endif

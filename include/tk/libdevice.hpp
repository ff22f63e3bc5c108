/// @file libdevice.hpp
/// Device functions by name:
/// - `tk::libdevice::asin(x)` ... (Triton's tl.extra.cuda.libdevice): libdevice's float functions,
///   `__nv_<name>f` on f32 and `__nv_<name>` on f64 (f16 and bf16 through f32), as Triton picks
///   the function from the operands' type;
/// - `tk::extern_elementwise` (Triton's tl.extern_elementwise): any device function, named by
///   its symbol, from libdevice or from an LLVM bitcode library of your own, applied to each
///   element.
#pragma once

#include <tk/block.hpp>
#include <tk/detail/trace/extern_elementwise.hpp>
#include <tk/inline_asm.hpp>
#include <tk/math.hpp>

#include <source_location>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace tk {

/// How tk::extern_elementwise calls its function.
struct extern_options {
  /// The LLVM bitcode (`.bc`) or LLVM IR text (`.ll`) file that defines the function, Triton's
  /// lib_path: the backend links the functions the kernel calls from it. Empty: libdevice, which
  /// the backend finds itself. Part of the kernel's disk-cache key with the file's contents.
  std::string_view library = {};
  /// A pure function (no side effects) may be removed when its result is unused (Triton's
  /// is_pure); one that is not is always called.
  bool is_pure = true;
  /// What the interpreter computes for each element: the operands converted to double, in
  /// order; the result is rounded to the result type (toward zero for integers). Needed for a
  /// library's function on the interpreter; libdevice's functions of `tk::libdevice` are known
  /// without it.
  detail::extern_host_function host = {};
};

/// The device function `symbol` applied to each element of `args` (blocks broadcast to one
/// shape, or literals), giving a block of `R` of that shape. The function takes the arguments'
/// element types in order and returns `R`; the backend declares it so and links it from
/// `options.library` (libdevice when empty). A symbol the library does not define is an error
/// of the compile, naming the kernel's line.
///
///     auto y = tk::extern_elementwise<float>("__nv_asinf", std::tuple{x});
///     auto z = tk::extern_elementwise<float>("smoothstepf", std::tuple{x},
///                                            {.library = "smooth.bc", .host = smoothstep});
template <element R, class... A>
auto extern_elementwise(std::string_view symbol, const std::tuple<A...> &args,
                        const extern_options &options = {},
                        std::source_location loc = std::source_location::current()) {
  static_assert(sizeof...(A) >= 1, "tk::extern_elementwise: the function needs an argument");
  static_assert((operand<A> && ...), "tk::extern_elementwise: the arguments must be blocks or "
                                     "numbers");
  static_assert((any_block<A> || ...),
                "tk::extern_elementwise: at least one argument must be a block or a scalar "
                "handle, to give the result its shape");
  static_assert(!std::is_pointer_v<R>, "tk::extern_elementwise: the result cannot be a pointer");
  constexpr int rank = detail::tuple_rank<A...>;
  const std::vector<detail::value_ref> operands =
      detail::elementwise_operands(args, "tk::extern_elementwise", loc);
  return block<R, rank>(detail::extern_elementwise(std::string(symbol), options.library,
                                                   options.is_pure, options.host, operands,
                                                   detail::elem_of<R>(), loc));
}

/// libdevice's float functions under Triton's names (`libdevice.asin(x)` is
/// `tk::libdevice::asin(x)`), each a `tk.extern_elementwise` of `__nv_<name>f` (f32) or
/// `__nv_<name>` (f64); f16 and bf16 go through f32. The interpreter computes each exactly and
/// rounds once; the GPU gives libdevice's accuracy (its documentation bounds each in ulps).
namespace libdevice {

#define TK_DETAIL_LIBDEVICE_UNARY_FUNCTION(NAME, HOST)                                             \
  template <class T, int R>                                                                        \
  block<T, R> NAME(const block<T, R> &x,                                                           \
                   std::source_location loc = std::source_location::current()) {                   \
    detail::check_float<T>(#NAME);                                                                 \
    return block<T, R>(detail::libdevice_call(#NAME, {detail::operand_of(x.v_, loc).v}, loc));     \
  }
#define TK_DETAIL_LIBDEVICE_BINARY_FUNCTION(NAME, HOST)                                            \
  template <operand A, operand B>                                                                  \
    requires(any_block<A> || any_block<B>)                                                         \
  auto NAME(const A &a, const B &b, std::source_location loc = std::source_location::current()) {  \
    return detail::libdevice_binary(#NAME, "tk::libdevice::" #NAME, a, b, loc);                    \
  }
TK_DETAIL_LIBDEVICE_UNARY(TK_DETAIL_LIBDEVICE_UNARY_FUNCTION)
TK_DETAIL_LIBDEVICE_BINARY(TK_DETAIL_LIBDEVICE_BINARY_FUNCTION)
#undef TK_DETAIL_LIBDEVICE_UNARY_FUNCTION
#undef TK_DETAIL_LIBDEVICE_BINARY_FUNCTION

} // namespace libdevice

} // namespace tk

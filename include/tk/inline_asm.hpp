/// @file inline_asm.hpp
/// `tk::inline_asm_elementwise`: PTX of your own applied to each element, Triton's
/// tl.inline_asm_elementwise.
#pragma once

#include <tk/block.hpp>
#include <tk/detail/trace/debug.hpp>

#include <source_location>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace tk {

namespace detail {

/// The highest rank among the arguments of an elementwise call.
template <class... A>
constexpr int tuple_rank = [] {
  int r = 0;
  ((r = max_rank(r, rank_of<A>)), ...);
  return r;
}();

/// The arguments of an elementwise call of code the user names (tk::inline_asm_elementwise,
/// tk::extern_elementwise), broadcast to one shape: each as a block of its own element type
/// (literals too, so that the code sees exactly the types the user wrote). `what` names the call
/// in errors.
template <class... A>
std::vector<value_ref> elementwise_operands(const std::tuple<A...> &args, const char *what,
                                            loc_t loc) {
  std::vector<term> terms;
  std::apply([&](const auto &...a) { (terms.push_back(to_operand(a, loc)), ...); }, args);
  shape_t shape;
  for (const term &t : terms)
    shape = broadcast_shape(shape, t.shape(), what, loc);
  std::vector<value_ref> operands;
  std::size_t i = 0;
  std::apply(
      [&](const auto &...a) {
        ((operands.push_back(materialize(
             terms[i++], elem_of<element_of<std::remove_cvref_t<decltype(a)>>>(), shape, loc))),
         ...);
      },
      args);
  return operands;
}

} // namespace detail

/// Runs the PTX `asm_text` on each element of `args` (blocks broadcast to one shape, or
/// literals), giving one block of each type `R...` in that shape: a block of `R` for one type,
/// a std::tuple of blocks for several. As in Triton:
///  - `constraints` are LLVM's, the results' first (`"=r,r,r"`: one 32-bit result, two 32-bit
///    operands), numbered $0, $1, ... in that order;
///  - with `pack` > 1 the asm runs once per `pack` elements, and elements narrower than 32 bits
///    travel `pack` to a register (two f16 in one `r`, the first in the low half); wider ones
///    one to a register, the asm then seeing `pack` registers per operand and result;
///  - `is_pure` asm may be removed when its results are unused; otherwise it is kept.
/// The interpreter cannot run PTX: a launch there throws tk::error naming this line.
///
///     auto y = tk::inline_asm_elementwise<tk::half>(
///         "add.f16x2 $0, $1, $2;", "=r,r,r", std::tuple{a, b}, true, 2);
template <element... R, class... A>
  requires(sizeof...(R) >= 1)
auto inline_asm_elementwise(std::string_view asm_text, std::string_view constraints,
                            const std::tuple<A...> &args, bool is_pure, int pack,
                            std::source_location loc = std::source_location::current()) {
  static_assert((operand<A> && ...),
                "tk::inline_asm_elementwise: the arguments must be blocks or numbers");
  static_assert((any_block<A> || ...),
                "tk::inline_asm_elementwise: at least one argument must be a block or a scalar "
                "handle, to give the results their shape");
  constexpr int rank = detail::tuple_rank<A...>;
  const std::vector<detail::value_ref> operands =
      detail::elementwise_operands(args, "tk::inline_asm_elementwise", loc);
  const std::vector<detail::value_ref> results =
      detail::inline_asm(asm_text, constraints, operands, {detail::elem_of<R>()...},
                         operands.front()->shape, is_pure, pack, loc);
  if constexpr (sizeof...(R) == 1) {
    return block<R..., rank>(results.front());
  } else {
    // Indexed, not `results[k++]...`: GCC warns (-Wsequence-point) on the increments, though a
    // braced list sequences them.
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return std::tuple<block<R, rank>...>{block<R, rank>(results[K])...};
    }(std::index_sequence_for<R...>{});
  }
}

} // namespace tk

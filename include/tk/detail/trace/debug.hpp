/// @file debug.hpp
/// The primitives behind <tk/debug.hpp> and the memory hints of <tk/memory.hpp>:
/// `tk.print`, `tk.assert`, `tk.debug_barrier`, the hints `tk.multiple_of`,
/// `tk.max_contiguous`, `tk.max_constancy` and `tk.assume`, loads and stores with cache and
/// eviction qualifiers, and `tk.inline_asm`. Each is recorded while tracing; the interpreter
/// prints, checks or passes values through, and refuses inline assembly.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/trace/primitives.hpp>

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tk {

/// A PTX cache operator for tk::load / tk::store, Triton's `cache_modifier`: loads take `ca`
/// (cache in L1 and L2), `cg` (L2 only), `cs` (streaming, likely used once) and `cv` (fetch
/// again, do not cache); stores `wb` (write back), `cg`, `cs` and `wt` (write through).
enum class cache_modifier : unsigned char { none, ca, cg, cs, cv, wb, wt };

/// An L1 eviction priority for tk::load / tk::store, Triton's `eviction_policy`.
enum class eviction_policy : unsigned char { normal, evict_first, evict_last };

/// How a tk::load or tk::store treats the caches, as Triton's keyword arguments of the same
/// names: `tk::load(p, mask, 0.0f, {.cache_modifier = tk::cache_modifier::cg})`. A volatile
/// load (loads only) is never cached or merged with another. PTX takes either a cache operator
/// or an eviction priority on one access, not both, and neither on a volatile load.
struct memory_hints {
  tk::cache_modifier cache_modifier = tk::cache_modifier::none;
  tk::eviction_policy eviction_policy = tk::eviction_policy::normal;
  bool is_volatile = false;
};

} // namespace tk

namespace tk::detail {

/// Prints `values` (one shape, or scalars) as tk::device_print does, one line per element
/// prefixed with the program id and the element's index; `is_signed` per value.
TK_DECL void print_values(std::string_view prefix, const std::vector<value_ref> &values,
                          const std::vector<bool> &is_signed, bool hex, loc_t loc);

/// tk::device_assert: with debugging on, records `tk.assert` (and the site, for the runtime
/// to name it), or fails on the interpreter where an element of `condition` is false; nothing
/// with debugging off.
TK_DECL void assert_true(const value_ref &condition, std::string_view message, loc_t loc);

/// Whether device asserts are checked in the kernel being traced or interpreted
/// (launch_options::debug, TK_DEBUG).
TK_DECL bool asserts_on(loc_t loc);

TK_DECL void debug_barrier(loc_t loc);

/// tk::gdc_wait (`tk.gdc_wait`) or, with `launch_dependents`, tk::gdc_launch_dependents
/// (`tk.gdc_launch_dependents`): recorded while tracing; nothing on the interpreter, whose
/// launches run one after another.
TK_DECL void grid_dependency(bool launch_dependents, loc_t loc);

/// What a compiler hint may describe: integers other than bool, and pointers.
template <class T>
concept hint_operand = std::is_pointer_v<T> || (std::is_integral_v<T> && !std::is_same_v<T, bool>);

/// The compiler hints: `x` itself, with the fact recorded for the compiler.
enum class hint_kind : unsigned char { multiple_of, max_contiguous, max_constancy };
TK_DECL value_ref hint(hint_kind kind, const value_ref &x, const std::vector<std::int64_t> &values,
                       loc_t loc);

/// tk::assume: recorded for the compiler; checked by the interpreter's checked mode.
TK_DECL void assume(const value_ref &condition, loc_t loc);

/// Fails unless `hints` suit a load (`store` false) or a store, naming the user's line.
TK_DECL void check_memory_hints(const memory_hints &hints, bool store, loc_t loc);

/// The properties of a tk.load / tk.store for `hints` after `base` (e.g. operandSegmentSizes),
/// in the order MLIR prints them.
TK_DECL std::string memory_attrs(const memory_hints &hints, std::string base);

/// tk::load and tk::store with hints: detail::load / detail::store with the qualifiers.
TK_DECL value_ref load_hinted(const value_ref &p, const value_ref &mask, const value_ref &other,
                              const memory_hints &hints, loc_t loc);
TK_DECL void store_hinted(const value_ref &p, const value_ref &x, const value_ref &mask,
                          const memory_hints &hints, loc_t loc);

/// `tk.inline_asm` with results of `types`, all in `shape` (a scalar when empty).
TK_DECL std::vector<value_ref> inline_asm(std::string_view text, std::string_view constraints,
                                          const std::vector<value_ref> &operands,
                                          const std::vector<elem_type> &types, const shape_t &shape,
                                          bool pure, int pack, loc_t loc);

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/trace/debug.ipp>
#endif

/// @file atomics.hpp
/// The atomic primitives behind <tk/atomic.hpp>: `tk.atomic_rmw` and `tk.atomic_cas`, recorded
/// while tracing or performed lane by lane, in row-major order, by the interpreter; the memory
/// orderings and scopes they take; and the operand rules (conversion, broadcasting) before them.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/trace/primitives.hpp>
#include <tk/detail/trace/semantics.hpp>

namespace tk {

/// The memory ordering of an atomic operation, Triton's `sem`: `acq_rel` (the default) makes
/// the operation both an acquire and a release.
enum class sem : unsigned char { relaxed, acquire, release, acq_rel };

/// The threads an atomic operation is ordered with, Triton's `scope`: the whole GPU (`gpu`, the
/// default), the program instance's own block of threads (`cta`) or the whole system (`sys`).
enum class scope : unsigned char { gpu, cta, sys };

} // namespace tk

namespace tk::detail {

/// The `kind` of a `tk.atomic_rmw`: what it stores from the old value and the operand. The front
/// end picks it from the operation and the pointee type (`add` or `fadd`; `max`, `umax` or
/// `fmax`; ...).
enum class atomic_kind : unsigned char {
  add,
  fadd,
  bit_and,
  bit_or,
  bit_xor,
  max,
  min,
  umax,
  umin,
  fmax,
  fmin,
  xchg
};

/// The IR's name of a kind: "add", "fadd", "and", ...
TK_DECL const char *kind_name(atomic_kind k);

TK_DECL const char *sem_name(sem s);

TK_DECL const char *scope_name(scope s);

/// What `kind` writes over `old` given the operand `val`: both the bit patterns of elements
/// of dtype `d`, as is the result. fmax and fmin order the patterns as the GPU does.
TK_DECL std::uint64_t atomic_result_bits(atomic_kind kind, dtype d, std::uint64_t old,
                                         std::uint64_t val);

/// One atomic read-modify-write per lane of `p` where `mask` (null: everywhere) holds; returns
/// the old values, zero in masked-off lanes. `val` has `p`'s shape and pointee type; `what`
/// names the user's function in errors ("tk::atomic_add").
TK_DECL value_ref atomic_rmw(atomic_kind kind, const value_ref &p, const value_ref &val,
                             const value_ref &mask, sem s, scope sc, const char *what, loc_t loc);

/// One compare-and-swap per lane of `p`: where the bits at the address equal `cmp`'s, writes
/// `val`; returns the old values.
TK_DECL value_ref atomic_cas(const value_ref &p, const value_ref &cmp, const value_ref &val, sem s,
                             scope sc, const char *what, loc_t loc);

/// `atomic_rmw` on the user's operands: `val` (a block or a literal) converted to the pointee
/// type and, like `mask`, broadcast to the pointers' shape, which it may not enlarge (as in
/// tk::store).
TK_DECL value_ref atomic_update(atomic_kind kind, const value_ref &p, const term &val,
                                const value_ref &mask, sem s, scope sc, const char *what,
                                loc_t loc);

/// `atomic_cas` on the user's operands, converted and broadcast as `atomic_update` does.
TK_DECL value_ref atomic_compare_swap(const value_ref &p, const term &cmp, const term &val, sem s,
                                      scope sc, const char *what, loc_t loc);

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/trace/atomics.ipp>
#endif

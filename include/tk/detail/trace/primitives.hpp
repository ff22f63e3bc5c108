/// @file primitives.hpp
/// Primitives: the operations the `tk` IR is made of, on operands whose types and shapes already
/// agree. Each one checks what it needs, then either records an op in the region being traced or
/// computes its elements for the program instance being interpreted. Everything the user calls
/// (promotion, broadcasting, `tk::softmax`-style compositions) is built from these, so the
/// interpreter and the compiled kernel share one definition of each operation.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/interp/elements.hpp>
#include <tk/detail/trace/context.hpp>
#include <tk/detail/trace/ownership.hpp>
#include <tk/error.hpp>

#include <cmath>
#include <cstring>
#include <source_location>
#include <string>
#include <vector>

namespace tk::detail {

using loc_t = std::source_location;

TK_DECL context &active(loc_t loc);

TK_DECL value_ref make_value(elem_type t, shape_t shape);

/// A new symbolic value of `v`'s type, shape and kind: a loop's or branch's value standing for
/// `v` (a block, a descriptor or a block pointer).
inline value_ref make_value_like(const value &v) {
  auto r = make_value(v.type, v.shape);
  r->kind = v.kind;
  return r;
}

/// Where program instance `generation` of the launch `ctx` runs, as "(x, y, z)".
TK_DECL std::string instance_name(const context &ctx, std::uint64_t generation);

[[noreturn, gnu::cold]] TK_DECL void foreign_value(const value &v, const context &ctx, loc_t loc);

/// Fails unless `v` was made by the trace or program instance running now.
inline void check_origin(const value &v, loc_t loc) {
  const context *ctx = current_context();
  if (ctx && v.generation != ctx->generation) [[unlikely]]
    foreign_value(v, *ctx, loc);
}

/// A new value with storage for its elements (interpreter).
TK_DECL value_ref make_concrete(elem_type t, shape_t shape);

/// Marks `v` as pointing into the buffer `from` points into (interpreter, pointers).
inline value_ref points_like(value_ref v, const value &from) {
  v->extent = from.extent;
  return v;
}

/// "lane 5 (index [1, 1] of the [4, 4] block)", or "the scalar", for errors about one lane of an
/// operation.
TK_DECL std::string lane_name(const shape_t &shape, std::size_t k);

TK_DECL op &record(std::string name, syntax form, std::vector<value_ref> operands,
                   std::vector<value_ref> results, std::string attrs, loc_t loc);

/// Records an op with one result, of type `t` and `shape`, and returns the result.
TK_DECL value_ref record1(std::string name, syntax form, std::vector<value_ref> operands,
                          elem_type t, shape_t shape, std::string attrs, loc_t loc);

/// "5 : i32".
TK_DECL std::string i32_attr(std::int64_t v);

TK_DECL std::string array_attr(const std::vector<std::int64_t> &xs);

/// Strides of a row-major shape.
TK_DECL shape_t strides_of(const shape_t &shape);

// ---------------------------------------------------------------------------------------------
// Constants, program ids, ranges

/// A constant of type `t` and shape `shape` (a scalar when the shape is empty).
TK_DECL value_ref const_value(elem_type t, shape_t shape, double fv, std::int64_t iv, loc_t loc);

TK_DECL value_ref program_id(int axis, bool count, loc_t loc);

inline constexpr std::int64_t max_block_elements = std::int64_t(1) << 20;

TK_DECL void check_block_shape(const shape_t &shape, const char *what, loc_t loc);

TK_DECL value_ref arange(std::int64_t start, std::int64_t end, loc_t loc);

// ---------------------------------------------------------------------------------------------
// Shapes

TK_DECL value_ref splat(const value_ref &s, shape_t shape, loc_t loc);

/// Copies elements from `src` to a value of shape `shape` where `src_index(out_index)` names the
/// source element of each destination element (interpreter helper for the shape primitives).
template <class Index> value_ref gather(const value_ref &src, shape_t shape, Index src_index) {
  auto v = points_like(make_concrete(src->type, std::move(shape)), *src);
  const auto n = v->size();
  const auto rank = v->shape.size();
  std::vector<std::int64_t> idx(rank, 0);
  for (std::int64_t k = 0; k < n; ++k) {
    const auto s = std::size_t(src_index(idx));
    if (v->type.is_float())
      v->f[std::size_t(k)] = src->f[s];
    else
      v->i[std::size_t(k)] = src->i[s];
    for (int d = int(rank) - 1; d >= 0; --d) {
      if (++idx[std::size_t(d)] < v->shape[std::size_t(d)])
        break;
      idx[std::size_t(d)] = 0;
    }
  }
  return v;
}

/// Expands dimensions of size 1 to `shape` (same rank).
TK_DECL value_ref broadcast(const value_ref &x, shape_t shape, loc_t loc);

TK_DECL value_ref expand_dims(const value_ref &x, int axis, loc_t loc);

TK_DECL value_ref reshape(const value_ref &x, shape_t shape, loc_t loc);

/// Permutes dimensions: result dimension d is source dimension `order[d]`.
TK_DECL value_ref trans(const value_ref &x, const std::vector<std::int64_t> &order, loc_t loc);

/// dst[at] = src[from] (interpreter).
TK_DECL void copy_element(value &dst, std::int64_t at, const value &src, std::int64_t from);

/// Stacks `a` and `b` (one type, one shape) along a new last dimension of size 2.
TK_DECL value_ref join(const value_ref &a, const value_ref &b, loc_t loc);

/// The halves of `x`'s last dimension, which is 2 (join's inverse).
TK_DECL std::pair<value_ref, value_ref> split(const value_ref &x, loc_t loc);

/// `a` then `b` (one type, one shape) along dimension 0.
TK_DECL value_ref cat(const value_ref &a, const value_ref &b, loc_t loc);

/// The elements along `axis` in reverse order.
TK_DECL value_ref flip(const value_ref &x, int axis, loc_t loc);

/// result[i] = src[i with i[axis] replaced by index[i]] (Triton's tl.gather).
TK_DECL value_ref gather_along(const value_ref &src, const value_ref &index, int axis, loc_t loc);

// ---------------------------------------------------------------------------------------------
// Elementwise

enum class binop {
  add,
  sub,
  mul,
  div,
  rem,
  floordiv,
  bit_and,
  bit_or,
  bit_xor,
  shl,
  shr,
  max,
  min,
  fast_div, ///< float `/` that may be approximated (`arith.divf ... fastmath<afn>`)
  maximum,  ///< max propagating NaN on floats (`arith.maximumf`); `max` on integers
  minimum,  ///< min propagating NaN on floats (`arith.minimumf`); `min` on integers
  pow,      ///< floats only: `math.powf`
  atan2     ///< floats only: `math.atan2`
};
/// `sqrt` may be approximated (`fastmath<afn>`); `sqrt_rn` is rounded to nearest. `round` rounds
/// half away from zero, `rint` half to even.
enum class unop {
  exp,
  exp2,
  log,
  log2,
  sqrt,
  rsqrt,
  abs,
  sin,
  cos,
  erf,
  floor,
  ceil,
  sqrt_rn,
  tanh,
  tan,
  asin,
  acos,
  atan,
  sinh,
  cosh,
  asinh,
  acosh,
  atanh,
  erfc,
  cbrt,
  log10,
  log1p,
  expm1,
  trunc,
  round,
  rint
};
/// `uno`: either operand is NaN (floats only).
enum class cmpop { lt, le, gt, ge, eq, ne, uno };

TK_DECL std::string binop_name(binop o, elem_type t);

TK_DECL double apply_float(binop o, double a, double b);

TK_DECL std::int64_t apply_int(binop o, std::int64_t a, std::int64_t b, dtype d);

/// Whether `a op b` overflows the signed type `d` (add, sub and mul; others never do here).
TK_DECL bool signed_overflow(binop o, std::int64_t a, std::int64_t b, dtype d);

[[noreturn, gnu::cold, gnu::noinline]] inline void
overflow_error(binop o, const value &a, const value &b, std::size_t k, loc_t loc) {
  const char *symbol = o == binop::add ? " + " : o == binop::sub ? " - " : " * ";
  const dtype d = a.type.code;
  fail(loc, "integer overflow in ", lane_name(a.shape, k), ": ", a.i[k], symbol, b.i[k],
       " does not fit in ", name(d), " and wraps to ", wrap_int(apply_int(o, a.i[k], b.i[k], d), d),
       " (TK_INTERPRET_CHECK); the GPU wraps it too: compute offsets in 64 bits, e.g. "
       "tk::cast<std::int64_t>(pid) * stride");
}

/// `a op b` on operands of one type and shape.
TK_DECL value_ref binary(binop o, const value_ref &a, const value_ref &b, loc_t loc);

TK_DECL double apply_unary(unop o, double x);

TK_DECL value_ref unary(unop o, const value_ref &a, loc_t loc);

TK_DECL value_ref fma(const value_ref &a, const value_ref &b, const value_ref &c, loc_t loc);

TK_DECL value_ref compare(cmpop o, const value_ref &a, const value_ref &b, loc_t loc);

/// `c ? a : b` elementwise; `c` has the shape of `a` and `b` or is a scalar.
TK_DECL value_ref select(const value_ref &c, const value_ref &a, const value_ref &b, loc_t loc);

/// Converts between element types with Triton's `tl.cast` semantics (not a bit cast).
TK_DECL value_ref convert(const value_ref &x, elem_type to, loc_t loc,
                          rounding mode = rounding::rtne);

/// Reinterprets the bits of each element as another type of the same width.
TK_DECL value_ref bitcast(const value_ref &x, elem_type to, loc_t loc);

// ---------------------------------------------------------------------------------------------
// Memory

/// `p + off` elementwise, in elements of the pointee type; `off` has the shape of `p`.
TK_DECL value_ref addptr(const value_ref &p, const value_ref &off, loc_t loc);

/// The `operandSegmentSizes` property of a load or store with or without a mask and `other`.
TK_DECL std::string segment_sizes(bool mask, bool other);

/// Addresses below this are never mapped: the interpreter reports them as null pointers.
inline constexpr std::uint64_t null_page = 4096;

/// Fails unless lane `k` of `p` may be read (`write` false) or written: within the buffer of the
/// launch argument `p` points into, when the launch knows it, and, in checked mode, aligned.
/// Errors name the operation `what` ("tk::atomic_add"), by default tk::load or tk::store.
/// (Null addresses are checked by the caller.)
TK_DECL void check_access(const context &ctx, const value &p, std::size_t k, bool write, loc_t loc,
                          const char *what = nullptr);

/// Loads `*p` where `mask` (null: everywhere) holds; `other` (null: zero) elsewhere.
TK_DECL value_ref load(const value_ref &p, const value_ref &mask, const value_ref &other,
                       loc_t loc);

TK_DECL void store(const value_ref &p, const value_ref &x, const value_ref &mask, loc_t loc);

// ---------------------------------------------------------------------------------------------
// Regions: reductions, scans

/// Opens `r` as the innermost region being traced for the scope's lifetime.
class region_scope {
public:
  TK_DECL region_scope(context &ctx, region &r);
  TK_DECL ~region_scope();
  region_scope(const region_scope &) = delete;
  region_scope &operator=(const region_scope &) = delete;
  TK_DECL frame &current();

private:
  context &ctx_;
};

/// Appends a fully built op to the innermost region.
TK_DECL op &append(context &ctx, owned<op> o);

/// The combine function of a reduction or scan: `lhs` and `rhs` hold one scalar per operand.
/// It is called before the reduction or scan that receives it returns.
using combine_fn = function_ref<std::vector<value_ref>(const std::vector<value_ref> &lhs,
                                                       const std::vector<value_ref> &rhs)>;

TK_DECL value_ref scalar_at(const value_ref &x, std::int64_t k);

TK_DECL void put(const value_ref &dst, std::int64_t k, const value_ref &scalar);

/// Traces `combine` into `r` over fresh scalar arguments of the operands' types and terminates the
/// region with `terminator`.
TK_DECL void trace_combine(context &ctx, region &r, const std::vector<value_ref> &xs,
                           const combine_fn &combine, const char *terminator, loc_t loc);

/// Reduces each of `xs` (one shape) along `axis` with `combine`.
TK_DECL std::vector<value_ref> reduce(const std::vector<value_ref> &xs, int axis,
                                      const combine_fn &combine, loc_t loc);

/// Inclusive scan of each of `xs` along `axis` with `combine`, last to first when `reverse`.
TK_DECL std::vector<value_ref> scan(const std::vector<value_ref> &xs, int axis, bool reverse,
                                    const combine_fn &combine, loc_t loc);

// ---------------------------------------------------------------------------------------------
// Matrix product

/// How `dot` multiplies f32 inputs (tk::input_precision after the front end's checks: f16,
/// bf16 and i8 inputs always come as `ieee`). The name is the IR's `input_precision`.
enum class dot_precision : unsigned char { ieee, tf32, tf32x3 };

/// The precision TK_F32_DEFAULT names (tf32, ieee or tf32x3, as Triton's TRITON_F32_DEFAULT),
/// read once per process: tf32 when it is unset, or (reported once) when it names none.
TK_DECL dot_precision default_f32_precision();

inline const char *precision_name(dot_precision p) {
  return p == dot_precision::tf32 ? "tf32" : p == dot_precision::tf32x3 ? "tf32x3" : "ieee";
}

/// The TF32 parts of an f32 input for tf32x3: big = tf32(x), small = tf32(x - big), so that
/// big + small holds x to about 21 fraction bits. x - big is exact in f32. Where big is not
/// finite (x infinite or NaN, or rounded up to infinity) small is 0, so that the small products
/// add no NaN (inf - inf) to the big one.
struct tf32_split {
  double big, small;
};
inline tf32_split split_tf32(double x) {
  const double big = round_to_tf32(x);
  return {big, std::isfinite(big) ? round_to_tf32(x - big) : 0.0};
}

/// `a @ b + acc` for a [M, K], b [K, N], acc [M, N], or for each batch of a [B, M, K], b
/// [B, K, N], acc [B, M, N]. `max_num_imprecise_acc` (-1: none) is recorded for the GPU, where
/// it bounds how many fp8 products the tensor cores add with fewer bits than f32; the
/// interpreter's sums are exact or nearly so anyway. With `tf32`, f32 inputs are rounded to
/// TF32 first (round_to_tf32: toward zero, as the tensor cores read them); with `tf32x3`, the
/// result is acc + sum big_a big_b + sum (big_a small_b + small_a big_b) (split_tf32; small_a
/// small_b is left out), the second sum replaced by 0 where it is NaN (an infinite input times a
/// zero small part), as Triton does. Products and sums are exact or nearly so in double; the total
/// is rounded once to the accumulator's type.
TK_DECL value_ref dot(const value_ref &a, const value_ref &b, const value_ref &acc,
                      dot_precision precision, int max_num_imprecise_acc, loc_t loc);

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/trace/primitives.ipp>
#endif

/// @file dot.hpp
/// `tk::dot(a, b, acc)`: the matrix product of a [M, K] and a [K, N] block added to an [M, N]
/// accumulator, for f16, bf16, f32 (TF32 by default, like Triton), fp8 (e4m3 and e5m2, which may
/// be mixed) and i8 inputs.
#pragma once

#include <tk/creation.hpp>

namespace tk {

/// How f32 inputs of `tk::dot` are multiplied (as Triton's `input_precision`). Inputs of other
/// types (f16, bf16, fp8, i8) are multiplied exactly whatever it says: there it has no effect, as
/// in Triton.
enum class input_precision {
  tf32, ///< each input rounded to TF32 (10 fraction bits) toward zero, as the tensor cores read f32
  ieee, ///< full f32 products
  /// three TF32 passes: x = big + small with big = tf32(x), small = tf32(x - big), and a * b as
  /// big_a big_b + big_a small_b + small_a big_b: close to ieee, on tensor cores
  tf32x3,
  /// what TK_F32_DEFAULT says (tf32, ieee or tf32x3, as Triton's TRITON_F32_DEFAULT), else tf32:
  /// the default of tk::dot, as Triton's input_precision=None
  automatic,
};

namespace detail {

template <class A> constexpr bool is_fp8_v = std::is_same_v<A, f8e4m3> || std::is_same_v<A, f8e5m2>;

template <class A> struct dot_accumulator {
  static_assert(std::is_same_v<A, half> || std::is_same_v<A, bfloat16> ||
                    std::is_same_v<A, float> || is_fp8_v<A> || std::is_same_v<A, std::int8_t>,
                "tk::dot: inputs must be f16, bf16, f32, f8e4m3, f8e5m2 or i8 blocks");
  using type = std::conditional_t<std::is_same_v<A, std::int8_t>, std::int32_t, float>;
};

template <class A, int RA, class B, int RB> constexpr void check_dot() {
  static_assert(RA == 2 && RB == 2,
                "tk::dot multiplies 2-D blocks [M, K] x [K, N]; turn a vector into a matrix "
                "with x(tk::_, tk::newaxis) or tk::expand_dims");
  static_assert(std::is_same_v<A, B> || (is_fp8_v<A> && is_fp8_v<B>),
                "tk::dot: both inputs must have the same element type (or be two fp8 types); "
                "convert one with tk::cast");
}

/// The precision the IR records for inputs of type A: `precision` for f32, ieee for the others
/// (exact products; Triton ignores input_precision for them too).
template <class A> dot_precision precision_for(input_precision precision) {
  if constexpr (!std::is_same_v<A, float>)
    return dot_precision::ieee;
  else
    return precision == input_precision::tf32     ? dot_precision::tf32
           : precision == input_precision::tf32x3 ? dot_precision::tf32x3
           : precision == input_precision::ieee   ? dot_precision::ieee
                                                  : default_f32_precision();
}

template <class C>
value_ref dot_impl(const value_ref &a, const value_ref &b, const value_ref &acc,
                   dot_precision precision, loc_t loc) {
  const auto &sa = a->shape, &sb = b->shape;
  if (sa[1] != sb[0])
    fail(loc, "tk::dot: inner dimensions differ: a is ", to_string(sa), ", b is ", to_string(sb));
  if (sa[0] < 16 || sa[1] < 16 || sb[1] < 16)
    fail(loc, "tk::dot: every dimension must be at least 16 (tensor-core tiles), got a ",
         to_string(sa), " and b ", to_string(sb));
  const shape_t out{sa[0], sb[1]};
  if (acc && acc->shape != out)
    fail(loc, "tk::dot: the accumulator is ", to_string(acc->shape), " but a x b is ",
         to_string(out));
  const auto c = acc ? acc : const_value(elem_of<C>(), out, 0, 0, loc);
  return dot(a, b, c, precision, loc);
}

} // namespace detail

/// a x b, accumulated in f32 (i32 for i8 inputs). fp8 products are exact in f32; GPU tensor
/// cores may add them with fewer bits than f32 (docs/writing-kernels.md, "Matrix products").
template <class A, int RA, class B, int RB>
auto dot(const block<A, RA> &a, const block<B, RB> &b,
         input_precision precision = input_precision::automatic,
         std::source_location loc = std::source_location::current()) {
  detail::check_dot<A, RA, B, RB>();
  using C = typename detail::dot_accumulator<A>::type;
  return block<C, 2>(detail::dot_impl<C>(detail::operand_of(a.v_, loc).v,
                                         detail::operand_of(b.v_, loc).v, {},
                                         detail::precision_for<A>(precision), loc));
}

/// a x b + acc. The accumulator is f32 (or f16 for f16 inputs; f32 for fp8), i32 for i8 inputs.
template <class A, int RA, class B, int RB, class C>
block<C, 2> dot(const block<A, RA> &a, const block<B, RB> &b, const block<C, 2> &acc,
                input_precision precision = input_precision::automatic,
                std::source_location loc = std::source_location::current()) {
  detail::check_dot<A, RA, B, RB>();
  using Default = typename detail::dot_accumulator<A>::type;
  static_assert(std::is_same_v<C, Default> || (std::is_same_v<C, half> && std::is_same_v<A, half>),
                "tk::dot: the accumulator must be f32 for float inputs, fp8 included (or f16 "
                "for f16 inputs), and i32 for i8 inputs");
  return block<C, 2>(detail::dot_impl<C>(
      detail::operand_of(a.v_, loc).v, detail::operand_of(b.v_, loc).v,
      detail::operand_of(acc.v_, loc).v, detail::precision_for<A>(precision), loc));
}

} // namespace tk

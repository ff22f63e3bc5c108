/// @file dot_scaled.hpp
/// `tk::dot_scaled`: the matrix product of two blocks in microscaling (MX) formats, Triton's
/// `tl.dot_scaled`: e2m1 (fp4, two to a byte), e4m3 and e5m2 (fp8), bf16 or fp16 elements, each
/// run of 32 along K scaled by a power of two held as an e8m0 byte, or each run of 16 by an e4m3
/// value (NVIDIA's NVFP4 with e2m1 elements). Written with block ops, as
/// Triton emulates it where the tensor cores have no scaled product (Hopper and older): each side
/// is decoded to f32, scaled, rounded to bf16 (fp16 when either side is fp16) and multiplied by
/// `tk::dot` into an f32 accumulator.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/creation.hpp>
#include <tk/dot.hpp>
#include <tk/math.hpp>
#include <tk/shape.hpp>

#include <cstdint>
#include <optional>
#include <type_traits>

namespace tk {

/// An operand's element format in `tk::dot_scaled` (Triton's format strings).
enum class mx_format {
  e2m1, ///< "e2m1": fp4, 1 sign, 2 exponent, 1 mantissa bits; two to a byte, the first in the low
        ///< nibble, packed along K (or along M / N: dot_scaled_options)
  e4m3, ///< "e4m3": f8e4m3 elements, or their bytes
  e5m2, ///< "e5m2": f8e5m2 elements, or their bytes
  bf16, ///< "bf16": bfloat16 elements, or their 16 bits
  fp16, ///< "fp16": half elements, or their 16 bits
};

/// Options of `tk::dot_scaled`, Triton's keyword arguments of the same names.
struct dot_scaled_options {
  /// Skip the NaN of an e8m0 scale of 0xFF: such a scale then reads as 2^128 (infinity in the
  /// product) instead of making its 32 elements NaN.
  bool fast_math = false;
  /// An e2m1 lhs is packed along K ([M, K / 2] bytes); false: along M ([M / 2, K] bytes).
  bool lhs_k_pack = true;
  /// An e2m1 rhs is packed along K ([K / 2, N] bytes); false: along N ([K, N / 2] bytes).
  bool rhs_k_pack = true;
};

namespace detail {

inline const char *mx_format_name(mx_format f) {
  switch (f) {
  case mx_format::e2m1:
    return "e2m1";
  case mx_format::e4m3:
    return "e4m3";
  case mx_format::e5m2:
    return "e5m2";
  case mx_format::bf16:
    return "bf16";
  case mx_format::fp16:
    return "fp16";
  }
  return "?";
}

/// The f32 value of each e2m1 code (the low 4 bits of `code`): sign, then 0, 0.5, 1, 1.5, 2, 3,
/// 4 or 6, built as f32 bits.
template <int R> block<float, R> decode_e2m1(const block<std::int32_t, R> &code, loc_t loc) {
  const auto exponent = (code >> 1) & 3, mantissa = code & 1, sign = (code >> 3) & 1;
  // e == 0: 0 or the subnormal 0.5 (2^-1: f32 exponent 126); else 2^(e-1) (1 + m / 2).
  const auto normal = ((exponent + 126) << 23) | (mantissa << 22);
  const auto subnormal = mantissa * (126 << 23);
  return tk::bitcast<float>(tk::where(exponent == 0, subnormal, normal, loc) | (sign << 31), loc);
}

/// An operand's elements as f32, in the product's orientation ([M, K] or [K, N]): e2m1 bytes
/// unpacked along `packed_dim` (each byte two elements, low nibble first), the others converted.
template <class T>
block<float, 2> mx_elements(const block<T, 2> &x, mx_format format, int packed_dim,
                            const char *side, loc_t loc) {
  auto wrong = [&](const char *wanted) {
    fail(loc, "tk::dot_scaled: ", side, "_format ", mx_format_name(format), " takes ", wanted,
         " elements, got ", to_string(elem_of<T>()));
  };
  if (format == mx_format::e2m1) {
    if constexpr (std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int8_t>) {
      const auto bytes = tk::cast<std::int32_t>(tk::bitcast<std::uint8_t>(x, loc), loc);
      const auto pairs = tk::join(decode_e2m1(bytes & 15, loc), decode_e2m1(bytes >> 4, loc), loc);
      const auto &s = operand_of(x.v_, loc).v->shape;
      if (packed_dim == 1)
        return tk::reshape(pairs, {s[0], 2 * s[1]}, loc);
      return tk::reshape(tk::permute(pairs, {0, 2, 1}, loc), {2 * s[0], s[1]}, loc);
    }
    wrong("8-bit integer (two e2m1 values to a byte)");
  }
  const auto as = [&]<class F>(const char *wanted) -> block<float, 2> {
    if constexpr (std::is_same_v<T, F>)
      return tk::cast<float>(x, loc);
    else if constexpr (std::is_integral_v<T> && sizeof(T) == sizeof(F))
      return tk::cast<float>(tk::bitcast<F>(x, loc), loc);
    wrong(wanted);
    return {};
  };
  switch (format) {
  case mx_format::e4m3:
    return as.template operator()<f8e4m3>("f8e4m3 (or 8-bit integer)");
  case mx_format::e5m2:
    return as.template operator()<f8e5m2>("f8e5m2 (or 8-bit integer)");
  case mx_format::bf16:
    return as.template operator()<bfloat16>("bfloat16 (or 16-bit integer)");
  default:
    return as.template operator()<half>("half (or 16-bit integer)");
  }
}

/// Elements per scale along K: 32 for e8m0 exponents (8-bit integers), 16 for e4m3 values.
template <class S> constexpr int scale_group = std::is_same_v<S, f8e4m3> ? 16 : 32;

/// Scales as f32: e8m0 exponents 2^(s - 127), 2^-127 for 0 (an f32 subnormal), NaN for 0xFF
/// unless `fast_math`; e4m3 scales their value.
template <class S>
block<float, 2> decode_scale(const block<S, 2> &scale, bool fast_math, const char *side,
                             loc_t loc) {
  if constexpr (std::is_same_v<S, f8e4m3>) {
    return tk::cast<float>(scale, loc);
  } else if constexpr (!std::is_same_v<S, std::uint8_t> && !std::is_same_v<S, std::int8_t>) {
    fail(loc, "tk::dot_scaled: ", side,
         "_scale holds e8m0 exponents as 8-bit integers or e4m3 scales (f8e4m3), got ",
         to_string(elem_of<S>()));
    return {};
  } else {
    const auto s = tk::cast<std::int32_t>(tk::bitcast<std::uint8_t>(scale, loc), loc);
    auto bits = tk::where(s == 0, 1 << 22, s << 23, loc);
    if (!fast_math)
      bits = tk::where(s == 255, 0x7fc00000, bits, loc);
    return tk::bitcast<float>(bits, loc);
  }
}

/// `values` ([rows, K], K along dimension 1) times its scales ([rows, K / 32] e8m0 or
/// [rows, K / 16] e4m3).
template <class S>
block<float, 2> apply_mx_scale(const block<float, 2> &values, const block<S, 2> &scale,
                               bool fast_math, const char *side, loc_t loc) {
  constexpr int group = scale_group<S>;
  const auto &v = operand_of(values.v_, loc).v->shape;
  const auto &s = operand_of(scale.v_, loc).v->shape;
  if (v[1] % group != 0 || s[0] != v[0] || s[1] != v[1] / group)
    fail(loc, "tk::dot_scaled: ", side, "_scale must be [", v[0], ", ", v[1], " / ", group,
         "] (one ", group == 16 ? "e4m3 scale" : "e8m0 exponent", " per ", group,
         " elements along K), got ", to_string(s));
  const auto factor =
      tk::broadcast_to(tk::expand_dims(decode_scale(scale, fast_math, side, loc), 2, loc),
                       {v[0], v[1] / group, group}, loc);
  return values * tk::reshape(factor, {v[0], v[1]}, loc);
}

template <class S> constexpr bool is_no_scale_v = std::is_same_v<S, std::nullopt_t>;

template <class L, class LS, class R, class RS>
block<float, 2> dot_scaled(const block<L, 2> &lhs, const LS &lhs_scale, mx_format lhs_format,
                           const block<R, 2> &rhs, const RS &rhs_scale, mx_format rhs_format,
                           const block<float, 2> *acc, dot_scaled_options options, loc_t loc) {
  if (!options.lhs_k_pack && lhs_format != mx_format::e2m1)
    fail(loc, "tk::dot_scaled: only an e2m1 lhs can be packed along M (lhs_k_pack = false)");
  if (!options.rhs_k_pack && rhs_format != mx_format::e2m1)
    fail(loc, "tk::dot_scaled: only an e2m1 rhs can be packed along N (rhs_k_pack = false)");
  auto a = mx_elements(lhs, lhs_format, options.lhs_k_pack ? 1 : 0, "lhs", loc); // [M, K]
  auto b = mx_elements(rhs, rhs_format, options.rhs_k_pack ? 0 : 1, "rhs", loc); // [K, N]
  const auto &sa = operand_of(a.v_, loc).v->shape, &sb = operand_of(b.v_, loc).v->shape;
  if (sa[1] != sb[0])
    fail(loc, "tk::dot_scaled: lhs holds ", sa[1], " elements along K and rhs ", sb[0], " (lhs ",
         to_string(operand_of(lhs.v_, loc).v->shape), " in ", mx_format_name(lhs_format), ", rhs ",
         to_string(operand_of(rhs.v_, loc).v->shape), " in ", mx_format_name(rhs_format), ")");
  if constexpr (!is_no_scale_v<LS>)
    a = apply_mx_scale(a, lhs_scale, options.fast_math, "lhs", loc);
  if constexpr (!is_no_scale_v<RS>) // rhs_scale is [N, K / 32]: scale rhs^T, turn it back
    b = tk::trans(apply_mx_scale(tk::trans(b, loc), rhs_scale, options.fast_math, "rhs", loc), loc);
  const auto multiply = [&]<class C>() {
    const auto ac = tk::cast<C>(a, loc), bc = tk::cast<C>(b, loc);
    return acc ? tk::dot(ac, bc, *acc, input_precision::ieee, loc)
               : tk::dot(ac, bc, input_precision::ieee, loc);
  };
  if (lhs_format == mx_format::fp16 || rhs_format == mx_format::fp16)
    return multiply.template operator()<half>();
  return multiply.template operator()<bfloat16>();
}

} // namespace detail

/// lhs x rhs in MX formats, Triton's `tl.dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale,
/// rhs_format)`: lhs is [M, K] and rhs [K, N] elements (e2m1: bytes of two, [M, K / 2] and
/// [K / 2, N]); lhs_scale is [M, K / 32] and rhs_scale [N, K / 32] e8m0 exponents as uint8 (a
/// scale of 2^(s - 127) for each run of 32 along K), or [M, K / 16] and [N, K / 16] f8e4m3
/// values (one for each run of 16: NVFP4 with e2m1 elements), or `std::nullopt` for none. As in
/// Triton, the scale's type says which. Returns the f32 product.
template <class L, class LS, class R, class RS>
block<float, 2> dot_scaled(const block<L, 2> &lhs, const LS &lhs_scale, mx_format lhs_format,
                           const block<R, 2> &rhs, const RS &rhs_scale, mx_format rhs_format,
                           dot_scaled_options options = {},
                           std::source_location loc = std::source_location::current()) {
  return detail::dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, nullptr,
                            options, loc);
}

/// The same product added to the f32 accumulator `acc` ([M, N]).
template <class L, class LS, class R, class RS>
block<float, 2> dot_scaled(const block<L, 2> &lhs, const LS &lhs_scale, mx_format lhs_format,
                           const block<R, 2> &rhs, const RS &rhs_scale, mx_format rhs_format,
                           const block<float, 2> &acc, dot_scaled_options options = {},
                           std::source_location loc = std::source_location::current()) {
  return detail::dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, &acc, options,
                            loc);
}

} // namespace tk

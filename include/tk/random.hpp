/// @file random.hpp
/// Counter-based random numbers, Triton's `tl.random`: Philox 4x32 (`tk::philox`) from a seed
/// and a block of offsets, and `randint`, `randint4x`, `rand`, `rand4x`, `randn`, `randn4x` on top
/// of it, with Triton's constants, rounds and conversions, so that the same seed and offsets give
/// the same bits as Triton. Nothing is stored: a value is a pure function of (seed, offset), so a
/// kernel regenerates a dropout mask in its backward pass from the seed alone.
///
/// Everything here is written with ordinary block operations (32x32 -> 64-bit products for
/// `umulhi`), as Triton writes its own in `triton.language`: the interpreter and the GPU run the
/// same integer arithmetic, so the integers and `rand`'s floats are identical on both.
#pragma once

#include <tk/creation.hpp>
#include <tk/math.hpp>

#include <array>
#include <cstdint>
#include <type_traits>

namespace tk {

namespace detail {

template <class T>
constexpr bool is_word32_v = std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t>;

/// `x` as u32 bits.
template <class T, int R> block<std::uint32_t, R> as_u32(const block<T, R> &x, loc_t loc) {
  if constexpr (std::is_same_v<T, std::uint32_t>)
    return x;
  else
    return tk::bitcast<std::uint32_t>(x, loc);
}

/// The high half of `x * c` for u32 `x` and a constant `c`.
template <int R>
block<std::uint32_t, R> mulhi_const(const block<std::uint32_t, R> &x, std::uint32_t c, loc_t loc) {
  auto wide = tk::cast<std::uint64_t>(x, loc) * std::uint64_t(c);
  return tk::cast<std::uint32_t>(wide >> std::uint64_t(32), loc);
}

/// A seed as u64: a signed seed is sign-extended first, as Triton's `seed.to(tl.uint64)`.
template <class S> block<std::uint64_t, 0> seed_u64(const S &seed, loc_t loc) {
  if constexpr (std::is_integral_v<S>) {
    static_assert(!std::is_same_v<S, bool>, "tk::philox: the seed is an integer");
    return tk::full<std::uint64_t>(std::uint64_t(std::int64_t(seed)));
  } else {
    static_assert(any_block<S> && rank_of<S> == 0 && std::is_integral_v<element_of<S>> &&
                      !std::is_same_v<element_of<S>, bool>,
                  "tk::philox: the seed is an integer scalar (a C++ integer, tk::i32, tk::i64, "
                  "tk::u32 or tk::u64)");
    using T = element_of<S>;
    if constexpr (std::is_signed_v<T>)
      return tk::bitcast<std::uint64_t>(tk::cast<std::int64_t>(seed, loc), loc);
    else
      return tk::cast<std::uint64_t>(seed, loc);
  }
}

template <class O> constexpr void check_offsets() {
  static_assert(any_block<O> && is_word32_v<element_of<O>>,
                "tk::rand/randn/randint: offsets are an i32 or u32 block (or scalar); 64-bit "
                "offsets are not supported");
}

} // namespace detail

/// Philox 4x32's round count, as Triton's `N_ROUNDS_DEFAULT`.
inline constexpr int philox_rounds = 10;

/// The most significant 32 bits of the 64-bit product of `x` and `y` (i32 or u32 blocks of one
/// type; `__umulhi`). The product is unsigned: i32 operands are taken as their bits.
template <class T, int R1, int R2>
auto umulhi(const block<T, R1> &x, const block<T, R2> &y,
            std::source_location loc = std::source_location::current()) {
  static_assert(detail::is_word32_v<T>, "tk::umulhi: operands are i32 or u32 blocks");
  auto wide = tk::cast<std::uint64_t>(detail::as_u32(x, loc), loc) *
              tk::cast<std::uint64_t>(detail::as_u32(y, loc), loc);
  auto high = tk::cast<std::uint32_t>(wide >> std::uint64_t(32), loc);
  if constexpr (std::is_same_v<T, std::uint32_t>)
    return high;
  else
    return tk::bitcast<std::int32_t>(high, loc);
}

/// Philox 4x32 with `n_rounds` rounds of the counter (c0, c1, c2, c3) under the key made of
/// `seed`'s low and high 32 bits: four u32 blocks. The counters are i32 or u32 blocks of one
/// shape (taken as their bits); the seed an integer scalar or a C++ integer.
template <class S, class T, int R>
std::array<block<std::uint32_t, R>, 4>
philox(const S &seed, const block<T, R> &c0, const block<T, R> &c1, const block<T, R> &c2,
       const block<T, R> &c3, int n_rounds = philox_rounds,
       std::source_location loc = std::source_location::current()) {
  static_assert(detail::is_word32_v<T>, "tk::philox: counters are i32 or u32 blocks");
  constexpr std::uint32_t key_a = 0x9E3779B9u, key_b = 0xBB67AE85u;
  constexpr std::uint32_t round_a = 0xD2511F53u, round_b = 0xCD9E8D57u;
  const auto s = detail::seed_u64(seed, loc);
  auto k0 = tk::cast<std::uint32_t>(s & std::uint64_t(0xFFFFFFFFu), loc);
  auto k1 = tk::cast<std::uint32_t>(s >> std::uint64_t(32), loc);
  auto x0 = detail::as_u32(c0, loc), x1 = detail::as_u32(c1, loc), x2 = detail::as_u32(c2, loc),
       x3 = detail::as_u32(c3, loc);
  for (int r = 0; r < n_rounds; ++r) {
    const auto p0 = x0, p2 = x2;
    x0 = detail::mulhi_const(p2, round_b, loc) ^ x1 ^ k0;
    x2 = detail::mulhi_const(p0, round_a, loc) ^ x3 ^ k1;
    x1 = p2 * round_b;
    x3 = p0 * round_a;
    k0 = k0 + key_a;
    k1 = k1 + key_b;
  }
  return {x0, x1, x2, x3};
}

/// Four blocks of random u32 from `seed` and `offsets` (an i32 or u32 block or scalar):
/// Philox of the counter (offset, 0, 0, 0).
template <class S, class O>
auto randint4x(const S &seed, const O &offsets, int n_rounds = philox_rounds,
               std::source_location loc = std::source_location::current()) {
  detail::check_offsets<O>();
  const auto zero = offsets * 0;
  return philox(seed, offsets, zero, zero, zero, n_rounds, loc);
}

/// One block of random u32: the first of randint4x's.
template <class S, class O>
auto randint(const S &seed, const O &offsets, int n_rounds = philox_rounds,
             std::source_location loc = std::source_location::current()) {
  return randint4x(seed, offsets, n_rounds, loc)[0];
}

/// Random u32 bits as f32 uniform in [0, 1), as Triton converts them: the bits as i32, negative
/// values folded onto non-negative ones (~x), times 4.6566127342e-10 (the largest scale that
/// keeps 2^31 - 1 below 1).
template <int R>
block<float, R> uint_to_uniform_float(const block<std::uint32_t, R> &x,
                                      std::source_location loc = std::source_location::current()) {
  const auto i = tk::bitcast<std::int32_t>(x, loc);
  const auto folded = tk::where(i < 0, ~i, i, loc);
  return tk::cast<float>(folded, loc) * 4.6566127342e-10f;
}

/// Uniform f32 in [0, 1) from `seed` and `offsets`.
template <class S, class O>
auto rand(const S &seed, const O &offsets, int n_rounds = philox_rounds,
          std::source_location loc = std::source_location::current()) {
  return uint_to_uniform_float(randint(seed, offsets, n_rounds, loc), loc);
}

/// Four blocks of uniform f32 in [0, 1): randint4x's, converted.
template <class S, class O>
auto rand4x(const S &seed, const O &offsets, int n_rounds = philox_rounds,
            std::source_location loc = std::source_location::current()) {
  const auto r = randint4x(seed, offsets, n_rounds, loc);
  return std::array{uint_to_uniform_float(r[0], loc), uint_to_uniform_float(r[1], loc),
                    uint_to_uniform_float(r[2], loc), uint_to_uniform_float(r[3], loc)};
}

/// Two standard normal f32 blocks from two uniform ones (Box-Muller, as Triton: u1 at least
/// 1e-7).
template <int R>
std::array<block<float, R>, 2>
pair_uniform_to_normal(const block<float, R> &u1, const block<float, R> &u2,
                       std::source_location loc = std::source_location::current()) {
  const auto v1 = tk::maximum(1.0e-7f, u1, loc);
  const auto theta = 6.283185307179586f * u2;
  const auto r = tk::sqrt(-2.0f * tk::log(v1, loc), loc);
  return {r * tk::cos(theta, loc), r * tk::sin(theta, loc)};
}

/// Standard normal f32 from `seed` and `offsets`: Box-Muller of randint4x's first two.
template <class S, class O>
auto randn(const S &seed, const O &offsets, int n_rounds = philox_rounds,
           std::source_location loc = std::source_location::current()) {
  const auto r = randint4x(seed, offsets, n_rounds, loc);
  return pair_uniform_to_normal(uint_to_uniform_float(r[0], loc), uint_to_uniform_float(r[1], loc),
                                loc)[0];
}

/// Four blocks of standard normal f32: Box-Muller of randint4x's two pairs.
template <class S, class O>
auto randn4x(const S &seed, const O &offsets, int n_rounds = philox_rounds,
             std::source_location loc = std::source_location::current()) {
  const auto u = rand4x(seed, offsets, n_rounds, loc);
  const auto a = pair_uniform_to_normal(u[0], u[1], loc),
             b = pair_uniform_to_normal(u[2], u[3], loc);
  return std::array{a[0], a[1], b[0], b[1]};
}

} // namespace tk

/// @file extern_functions.hpp
/// Device functions by name, Triton's tutorial 07:
/// - `asin_kernel`: y = asin(x) through libdevice's `__nv_asinf`, called by its Triton name,
///   `tk::libdevice::asin`;
/// - `smoothstep_kernel`: y = smoothstepf(x), a function of the user's own LLVM bitcode (or IR
///   text) library, through `tk::extern_elementwise`, with the host function the interpreter
///   runs in its place.
///
/// Launch contract (both): grid `tk::grid(tk::cdiv(n, BLOCK))`; `y` and `x` point to `n` floats;
/// BLOCK a power of two. `smoothstep_library` names the library file before the first launch of
/// `smoothstep_kernel` (the traced kernel keeps the path it saw).
#pragma once

#include <tk/tk.hpp>

#include <cmath>
#include <span>
#include <string>

namespace examples {

inline auto asin_kernel = tk::jit("asin_kernel", [](tk::ptr<float> y, tk::ptr<const float> x,
                                                    tk::i32 n, tk::constant<int> BLOCK) {
  auto offsets = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offsets < n;
  tk::store(y + offsets, tk::libdevice::asin(tk::load(x + offsets, mask)), mask);
});

/// The file that defines `smoothstepf` (examples/from_triton/07-smoothstep.ll).
inline std::string smoothstep_library;

/// smoothstepf on the host, for the interpreter: the Hermite step of x clamped to [0, 1].
inline double smoothstep_host(std::span<const double> operands) {
  const double t = std::fmin(1.0, std::fmax(0.0, operands[0]));
  return t * t * (3 - 2 * t);
}

// [snippet:extern_elementwise]
inline auto smoothstep_kernel =
    tk::jit("smoothstep_kernel", [](tk::ptr<float> y, tk::ptr<const float> x, tk::i32 n,
                                    tk::constant<int> BLOCK) {
      auto offsets = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offsets < n;
      auto v = tk::load(x + offsets, mask);
      auto s = tk::extern_elementwise<float>(
          "smoothstepf", std::tuple{v}, {.library = smoothstep_library, .host = smoothstep_host});
      tk::store(y + offsets, s, mask);
    });
// [/snippet]

} // namespace examples

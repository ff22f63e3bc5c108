/// @file vector_add.hpp
/// Vector addition, the first Triton tutorial's kernel: out[i] = x[i] + y[i] for i < n, in f32.
///
/// Launch contract:
/// - grid: `tk::grid(tk::cdiv(n, BLOCK))`, one program instance per BLOCK elements;
/// - arguments: `out`, `x`, `y` point to `n` floats; the last block is masked, so `n` need not be a
///   multiple of BLOCK and nothing past `out[n - 1]` is written;
/// - constant: BLOCK, a power of two.
#pragma once

#include <tk/tk.hpp>

namespace examples {

inline auto vector_add =
    tk::jit("vector_add", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> y,
                             tk::i32 n, tk::constant<int> BLOCK) {
      auto pid = tk::program_id(0);
      auto offsets = pid * BLOCK + tk::arange(0, BLOCK);
      auto mask = offsets < n;
      tk::store(out + offsets, tk::load(x + offsets, mask) + tk::load(y + offsets, mask), mask);
    });

} // namespace examples

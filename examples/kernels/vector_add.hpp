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

// [snippet:vector_add]
inline auto vector_add =
    tk::jit("vector_add", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> y,
                             tk::i32 n, tk::constant<int> BLOCK) {
      auto pid = tk::program_id(0);
      auto offsets = pid * BLOCK + tk::arange(0, BLOCK);
      auto mask = offsets < n;
      tk::store(out + offsets, tk::load(x + offsets, mask) + tk::load(y + offsets, mask), mask);
    });
// [/snippet]

/// Vector addition for programmatic dependent launch, Triton's tutorial 11: with USE_GDC, the
/// program waits (tk::gdc_wait) for the kernel before it on the stream before it reads x and y,
/// which that kernel may have written, and lets the next kernel start (tk::gdc_launch_dependents)
/// once its loads are issued. Launch it with `launch_options::launch_pdl` so that it may start
/// while the kernel before it finishes; without the attribute, or before sm_90, USE_GDC costs
/// nothing. Same launch contract as `vector_add`, plus USE_GDC.
// [snippet:vector_add_gdc]
inline auto vector_add_gdc =
    tk::jit("add_kernel", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> y,
                             tk::i32 n, tk::constant<int> BLOCK, tk::constant<bool> USE_GDC) {
      auto offsets = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offsets < n;
      if (USE_GDC)
        tk::gdc_wait(); // the previous kernel's writes to x or y are visible after this
      auto sum = tk::load(x + offsets, mask) + tk::load(y + offsets, mask);
      if (USE_GDC)
        tk::gdc_launch_dependents(); // orders no memory: the next kernel still waits for this one
      tk::store(out + offsets, sum, mask);
    });
// [/snippet]

} // namespace examples

/// @file launch_options.hpp
/// What a launch is given besides its arguments: the grid of program instances (`tk::grid`) and
/// the options (`tk::launch_options`): warps, pipeline stages, stream, backend.
#pragma once

#include <tk/detail/env.hpp>

#include <array>
#include <cstdint>
#include <source_location>
#include <string_view>

namespace tk {

/// The number of program instances along each grid axis. Errors about a launch name the place
/// the grid was made.
struct grid {
  std::array<std::int64_t, 3> dims;
  std::source_location loc;

  grid(std::int64_t x, std::int64_t y = 1, std::int64_t z = 1,
       std::source_location where = std::source_location::current())
      : dims{x, y, z}, loc(where) {}
};

/// Where a launch runs.
enum class backend {
  automatic,   ///< the interpreter when TK_INTERPRET=1, else the GPU
  gpu,         ///< the GPU
  interpreter, ///< the CPU interpreter, whatever the environment says
};

struct launch_options {
  int num_warps = 4;
  int num_stages = 3;
  /// A float multiply feeding an add may become one fma, rounded once (Triton's
  /// enable_fp_fusion). Off, each operation is rounded on its own, as the interpreter does.
  bool fp_fusion = true;
  void *stream = nullptr; ///< a CUstream / cudaStream_t, of the launch's device
  /// GPU: the device to launch on, in its primary context (the CUDA runtime's), whatever context
  /// is current; -1 (the default): the thread's current context, else device 0's primary
  /// context (tk::device_guard, tk::set_device). The interpreter ignores it.
  int device = -1;
  tk::backend backend = tk::backend::automatic;
  /// Interpreter: also report signed integer overflow, misaligned addresses and, for buffer
  /// arguments, accesses outside them; as TK_INTERPRET_CHECK=1 does (docs/interpreter.md).
  bool checked = false;
  /// Debugging: tk::device_assert checks its condition (on the GPU and the interpreter), as
  /// Triton's debug flag does; as TK_DEBUG=1 does. Part of the kernel's cache key.
  bool debug = false;
  /// GPU: generate code as for this older target, "sm_80" say (mma.sync rather than wgmma on an
  /// sm_90a GPU), to measure an older GPU's code path on this one; the binary is still made for
  /// and runs on this GPU. Empty: TK_TARGET_ARCH when set, else the GPU's own target. A target
  /// newer than the GPU is an error (docs/environment.md).
  std::string_view target_arch = {};
  /// GPU: programmatic dependent launch (Triton's launch_pdl): the launch may start while the
  /// previous kernel on its stream still runs, once every program of that kernel has called
  /// tk::gdc_launch_dependents or exited; the kernel's tk::gdc_wait waits for that kernel to
  /// finish and its memory to be visible. Set through cuLaunchKernelEx's
  /// PROGRAMMATIC_STREAM_SERIALIZATION attribute; sm_90 and newer (elsewhere, and on the
  /// interpreter, launches stay in stream order). Not part of the kernel's cache key.
  bool launch_pdl = false;
};

/// True when the TK_INTERPRET environment variable asks for the interpreter (1, true, yes, on in
/// any case; docs/environment.md).
inline bool interpret_requested() { return detail::env::flag("TK_INTERPRET"); }

namespace detail {

/// True when TK_INTERPRET_CHECK asks for the interpreter's checked mode.
inline bool interpret_check_requested() { return env::flag("TK_INTERPRET_CHECK"); }

/// Whether a launch with `options` checks device asserts: launch_options::debug or TK_DEBUG.
inline bool debug_requested(const launch_options &options) {
  return options.debug || env::flag("TK_DEBUG");
}

/// Whether a launch with `options` runs on the interpreter.
inline bool interprets(const launch_options &options) {
  return options.backend == backend::interpreter ||
         (options.backend == backend::automatic && interpret_requested());
}

} // namespace detail

} // namespace tk

/// @file compiled_kernel.hpp
/// `tk::compiled_kernel`: what a kernel compiles to for one specialization, from
/// `kernel.compiled(options, args...)`, as Triton's CompiledKernel gives it (`.asm`, `n_regs`,
/// `n_spills`, `metadata`): the IR after each stage of the backend, the PTX, the binary and what
/// the kernel uses of the GPU.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tk {

struct compiled_kernel {
  std::string name;   ///< the kernel's symbol in the binary
  std::string target; ///< the target compiled for: "sm_90a"
  /// The older target the code was lowered for (launch_options::target_arch, TK_TARGET_ARCH),
  /// or "" for `target` itself.
  std::string lowering_target;
  int num_warps = 4;
  int num_stages = 3;
  /// The module after each backend stage, in order (Triton's `.asm`): "tk" (the IR as traced
  /// and verified), "tkgpu" (layouts, coalescing, tensor-core layouts, pipelining and shared
  /// memory decided), "llvm-dialect", "llir" (LLVM IR after optimization) and "ptx".
  std::vector<std::pair<std::string, std::string>> stages;
  /// The traced IR, with the source locations the backend's errors name.
  std::string ir;
  /// The binary a launch loads: a cubin (`binary_is_cubin`), or PTX for the driver's JIT where
  /// neither ptxas nor nvJitLink is there.
  std::string binary;
  bool binary_is_cubin = false;
  /// Per thread: registers, and bytes of spill stores and of local memory (the stack frame,
  /// spills included); -1 where unknown (no cubin).
  int n_regs = -1;
  int spill_store_bytes = -1;
  int local_bytes = -1;
  /// Per block: shared memory (static and dynamic), dynamic shared memory (what a launch
  /// passes), threads (num_warps * 32).
  int shared_bytes = 0;
  int dynamic_shared_bytes = 0;
  int num_threads = 0;
  /// Tensor maps a launch encodes and passes after the arguments (TMA, sm_90 and newer).
  int tensor_maps = 0;

  /// Spilled 4-byte values per thread, as Triton's `n_spills` counts them; -1 where unknown.
  int n_spills() const { return spill_store_bytes < 0 ? -1 : spill_store_bytes / 4; }

  /// The text of stage `stage` ("ptx", "llir", ...); empty when there is none.
  std::string_view asm_of(std::string_view stage) const {
    for (const auto &[name, text] : stages)
      if (name == stage)
        return text;
    return {};
  }

  /// The PTX.
  std::string_view ptx() const { return asm_of("ptx"); }

  /// "tk: kernel 'matmul' for sm_90a: 168 registers, 0 bytes of local memory per thread, 98304
  /// bytes of shared memory, 256 threads": the line TK_DEBUG logs for a loaded kernel and
  /// `tk-compile --resources` prints.
  std::string resources;
};

} // namespace tk

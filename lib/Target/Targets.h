/// @file Targets.h
/// The GPU targets the backend compiles for.
///
/// One row per target name the C ABI accepts: the NVPTX CPU and the PTX ISA version to emit.
#ifndef TK_TARGET_TARGETS_H
#define TK_TARGET_TARGETS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tk {

struct GpuTarget {
  llvm::StringRef name;       // "sm_90a": NVPTX CPU, ptxas -arch and nvJitLink -arch alike
  unsigned ptxVersion;        // PTX ISA * 10: 80 is PTX 8.0
  unsigned computeCapability; // 90 for sm_90a
  unsigned sharedKiBPerSM;    // shared memory of one multiprocessor (CUDA programming guide)
  unsigned sharedKiBPerBlock; // the most one block may have (opt-in; CUDA programming guide)
};

/// The row for `name`, or nullptr when the backend does not support it.
const GpuTarget *lookupGpuTarget(llvm::StringRef name);

/// All supported names, space-separated, in ascending order.
const char *gpuTargetNames();

} // namespace mlir::tk

#endif // TK_TARGET_TARGETS_H

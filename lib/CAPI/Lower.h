/// @file Lower.h
/// The tk -> LLVM dialect pass pipeline.
#ifndef TK_CAPI_LOWER_H
#define TK_CAPI_LOWER_H

#include "tk/backend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::tk {

struct LoweringOptions {
  unsigned numWarps = 4;
  unsigned numStages = 3;
  unsigned computeCapability = 80;      // the lowering's (lowering_target's, or the target's)
  bool wgmma = false;                   // the lowering's target is sm_90a
  unsigned sharedPerMultiprocessor = 0; // the target GPU's, in bytes; 0: tk-pipeline's default
  unsigned sharedPerBlock =
      0;                   // the most a block of the target GPU may have; 0: the passes' default
  bool dumpIR = false;     // print the IR after each stage to stderr (TK_DUMP)
  bool tensorMaps = false; // the caller encodes tensor maps: TMA for descriptors (sm_90+)
  /// Where the tensor maps' recipes go (tk-tma-descriptors' arguments, in order); may be null.
  std::vector<tk_tensor_map> *tensorMapsOut = nullptr;
  /// Where the module's text goes just before tk-to-llvm: the last form in the tk and tkgpu
  /// dialects, layouts, pipelining and shared memory decided (keep_stages); may be null.
  std::string *gpuIROut = nullptr;
  /// Where each stage's name and wall time in ms go, in order (TK_DEBUG); may be null.
  std::vector<std::pair<const char *, double>> *stageTimesOut = nullptr;
};

/// Runs the stages that turn `tk` IR into the LLVM and NVVM dialects, in order (Lower.cpp lists
/// them). Errors are emitted as diagnostics on the module.
LogicalResult lowerToLLVM(ModuleOp module, const LoweringOptions &options);

} // namespace mlir::tk

#endif // TK_CAPI_LOWER_H

//===- Lower.cpp - the tk -> LLVM dialect pass pipeline -------------------===//
//
// The backend's table of contents: each stage in the order it runs, each a pass tk-opt runs by
// the same name (`tk-opt -tk-to-llvm`). A stage without a pass yet (an optimization still to
// write) is skipped. Giving a stage its pass (and a lit test) is all it takes to extend the
// pipeline. With TK_DUMP set, the IR is printed after every stage.
//
//===----------------------------------------------------------------------===//
#include "CAPI/Lower.h"

#include "Conversion/TkToLLVM/Passes.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace mlir::tk {

namespace {

using PassFactory = std::unique_ptr<Pass> (*)(const LoweringOptions &);

std::unique_ptr<Pass> assignLayouts(const LoweringOptions &options) {
  return tkgpu::createTkAssignLayouts(tkgpu::TkAssignLayoutsOptions{options.numWarps});
}
std::unique_ptr<Pass> coalesce(const LoweringOptions &) { return tkgpu::createTkCoalesce(); }
std::unique_ptr<Pass> removeLayoutConversions(const LoweringOptions &) {
  return tkgpu::createTkRemoveLayoutConversions();
}
std::unique_ptr<Pass> accelerateMatmul(const LoweringOptions &options) {
  return tkgpu::createTkAccelerateMatmul(
      tkgpu::TkAccelerateMatmulOptions{options.computeCapability});
}
std::unique_ptr<Pass> pipeline(const LoweringOptions &options) {
  return tkgpu::createTkPipeline(tkgpu::TkPipelineOptions{options.numStages});
}
std::unique_ptr<Pass> allocateSharedMemory(const LoweringOptions &) {
  return createTkAllocateSharedMemory();
}
std::unique_ptr<Pass> toLLVM(const LoweringOptions &) { return createTkToLLVM(); }
std::unique_ptr<Pass> scfToCF(const LoweringOptions &) { return createSCFToControlFlowPass(); }
std::unique_ptr<Pass> cfToLLVM(const LoweringOptions &) {
  return createConvertControlFlowToLLVMPass();
}
std::unique_ptr<Pass> arithToLLVM(const LoweringOptions &) {
  return createArithToLLVMConversionPass();
}
std::unique_ptr<Pass> canonicalize(const LoweringOptions &) { return createCanonicalizerPass(); }
std::unique_ptr<Pass> cse(const LoweringOptions &) { return createCSEPass(); }
std::unique_ptr<Pass> reconcileCasts(const LoweringOptions &) {
  return createReconcileUnrealizedCastsPass();
}

struct Stage {
  const char *name;   // the pass's command-line name, as in tk-opt
  PassFactory create; // nullptr: not written yet
};

// clang-format off
constexpr Stage kStages[] = {
    {"canonicalize",                 canonicalize},  // tk folders (splats), arith folding, DCE
    {"cse",                          cse},           // the front end repeats ranges and splats
    {"tk-assign-layouts",            assignLayouts}, // blocked layouts for every tensor (tkgpu)
    {"tk-coalesce",                  coalesce},      // memory-access layouts from axis info
    {"tk-remove-layout-conversions", removeLayoutConversions},
    {"tk-accelerate-matmul",         accelerateMatmul}, // tensor-core layouts for tk.dot
    {"tk-remove-layout-conversions", removeLayoutConversions}, // the accumulator through loops
    {"tk-pipeline",                  pipeline},      // num_stages: cp.async ahead of the dots
    {"tk-allocate-shared-memory",    allocateSharedMemory},  // offsets, the module's total
    {"tk-to-llvm",                   toLLVM},        // tk/tkgpu -> LLVM + NVVM; scf kept
    {"convert-scf-to-cf",            scfToCF},       // loops, ifs, masked accesses -> blocks
    {"convert-cf-to-llvm",           cfToLLVM},      // cf.br / cf.cond_br -> llvm.br / cond_br
    {"convert-arith-to-llvm",        arithToLLVM},   // the loops' compare and increment
    {"canonicalize",                 canonicalize},
    {"cse",                          cse},
    {"reconcile-unrealized-casts",   reconcileCasts},
};
// clang-format on

} // namespace

LogicalResult lowerToLLVM(ModuleOp module, const LoweringOptions &options) {
  for (const Stage &stage : kStages) {
    if (!stage.create)
      continue;
    PassManager passes(module->getName());
    passes.addPass(stage.create(options));
    if (failed(passes.run(module)))
      return failure();
    if (options.dumpIR) {
      llvm::errs() << "// -----// IR after " << stage.name << " //----- //\n";
      module->print(llvm::errs());
      llvm::errs() << "\n";
    }
  }
  return success();
}

} // namespace mlir::tk

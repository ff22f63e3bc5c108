//===- Lower.cpp - the tk -> LLVM dialect pass pipeline -------------------===//
//
// The backend's table of contents: each stage in the order it runs. A stage without a pass yet
// stops the pipeline with a clear error; giving it one (and a lit test) is all it takes to
// extend the pipeline. With TK_DUMP set, the IR is printed after every stage.
//
//===----------------------------------------------------------------------===//
#include "CAPI/Lower.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace mlir::tk {

namespace {

using PassFactory = std::unique_ptr<Pass> (*)(const LoweringOptions &);

struct Stage {
  const char *name;   // the pass's command-line name, as in tk-opt
  PassFactory create; // nullptr: not written yet
};

// clang-format off
constexpr Stage kStages[] = {
    {"tk-assign-layouts",            nullptr}, // blocked layouts for every tensor (tkgpu)
    {"tk-coalesce",                  nullptr}, // memory-access layouts from axis info
    {"tk-remove-layout-conversions", nullptr},
    {"tk-accelerate-matmul",         nullptr}, // tensor-core layouts for tk.dot
    {"tk-pipeline",                  nullptr}, // num_stages software pipelining
    {"tk-allocate-shared-memory",    nullptr},
    {"tk-to-llvm",                   nullptr}, // tk/tkgpu -> LLVM + NVVM dialects
};
// clang-format on

} // namespace

LogicalResult lowerToLLVM(ModuleOp module, const LoweringOptions &options) {
  for (const Stage &stage : kStages) {
    if (!stage.create)
      return module.emitError("lowering of tk ops to LLVM is not implemented yet (stage '")
             << stage.name << "' has no pass)";
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

/// @file Lower.cpp
/// The tk -> LLVM dialect pass pipeline.
///
/// The backend's table of contents: each stage in the order it runs, each a pass tk-opt runs by
/// the same name (`tk-opt -tk-to-llvm`). A stage without a pass yet (an optimization still to
/// write) is skipped. Giving a stage its pass (and a lit test) is all it takes to extend the
/// pipeline. With TK_DUMP set, the IR is printed after every stage.
#include "CAPI/Lower.h"

#include "Conversion/TkToLLVM/Passes.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/Tk/Transforms/Passes.h"
#include "Dialect/TkGPU/IR/TensorMap.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <memory>

namespace mlir::tk {

namespace {

using PassFactory = std::unique_ptr<Pass> (*)(const LoweringOptions &);

std::unique_ptr<Pass> rewriteBlockPointers(const LoweringOptions &) {
  return tkgpu::createTkRewriteBlockPointers();
}
std::unique_ptr<Pass> rewriteTensorDescriptors(const LoweringOptions &) {
  return tkgpu::createTkRewriteTensorDescriptors();
}
std::unique_ptr<Pass> tmaDescriptors(const LoweringOptions &options) {
  if (!options.tensorMaps || options.computeCapability < 90)
    return nullptr; // no TMA, or a caller that does not encode maps
  return tkgpu::createTkTmaDescriptors();
}
std::unique_ptr<Pass> decomposeBatchedDot(const LoweringOptions &) {
  return tkgpu::createTkDecomposeBatchedDot();
}
std::unique_ptr<Pass> flattenLoops(const LoweringOptions &) { return createTkFlattenLoops(); }
std::unique_ptr<Pass> unrollLoops(const LoweringOptions &) { return createTkUnrollLoops(); }
std::unique_ptr<Pass> legalizeFp8(const LoweringOptions &options) {
  return tkgpu::createTkLegalizeFp8(tkgpu::TkLegalizeFp8Options{options.computeCapability});
}
std::unique_ptr<Pass> assignLayouts(const LoweringOptions &options) {
  return tkgpu::createTkAssignLayouts(tkgpu::TkAssignLayoutsOptions{options.numWarps});
}
std::unique_ptr<Pass> coalesce(const LoweringOptions &) { return tkgpu::createTkCoalesce(); }
std::unique_ptr<Pass> removeLayoutConversions(const LoweringOptions &) {
  return tkgpu::createTkRemoveLayoutConversions();
}
std::unique_ptr<Pass> accelerateMatmul(const LoweringOptions &options) {
  return tkgpu::createTkAccelerateMatmul(
      tkgpu::TkAccelerateMatmulOptions{options.computeCapability, options.wgmma});
}
std::unique_ptr<Pass> pipeline(const LoweringOptions &options) {
  tkgpu::TkPipelineOptions pipelineOptions;
  pipelineOptions.numStages = options.numStages;
  if (options.sharedPerMultiprocessor)
    pipelineOptions.sharedPerMultiprocessor = options.sharedPerMultiprocessor;
  if (options.sharedPerBlock)
    pipelineOptions.sharedPerBlock = options.sharedPerBlock;
  return tkgpu::createTkPipeline(pipelineOptions);
}
std::unique_ptr<Pass> allocateSharedMemory(const LoweringOptions &options) {
  TkAllocateSharedMemoryOptions allocationOptions;
  if (options.sharedPerBlock)
    allocationOptions.sharedPerBlock = options.sharedPerBlock;
  return createTkAllocateSharedMemory(allocationOptions);
}
std::unique_ptr<Pass> toLLVM(const LoweringOptions &options) {
  TkToLLVMOptions llvmOptions;
  llvmOptions.computeCapability = options.computeCapability;
  return createTkToLLVM(llvmOptions);
}
std::unique_ptr<Pass> scfToCF(const LoweringOptions &) { return createSCFToControlFlowPass(); }
std::unique_ptr<Pass> cfToLLVM(const LoweringOptions &) {
  return createConvertControlFlowToLLVMPass();
}
std::unique_ptr<Pass> arithToLLVM(const LoweringOptions &) {
  return createArithToLLVMConversionPass();
}
std::unique_ptr<Pass> splitStructBlockArguments(const LoweringOptions &) {
  return createTkSplitStructBlockArguments();
}
std::unique_ptr<Pass> canonicalize(const LoweringOptions &) { return createCanonicalizerPass(); }
std::unique_ptr<Pass> cse(const LoweringOptions &) { return createCSEPass(); }
std::unique_ptr<Pass> reconcileCasts(const LoweringOptions &) {
  return createReconcileUnrealizedCastsPass();
}

/// The recipes of the tensor-map arguments tk-tma-descriptors appended, in order (with
/// tk-pipeline's boxes and swizzles), for the launch to encode.
void collectTensorMaps(ModuleOp module, std::vector<tk_tensor_map> &out) {
  module.walk([&](func::FuncOp func) {
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      std::optional<tkgpu::TensorMapRecipe> recipe = tkgpu::TensorMapRecipe::of(func, i);
      if (!recipe)
        continue;
      RankedTensorType block =
          cast<tk::TensorDescType>(func.getArgument(i).getType()).getBlockType();
      tk_tensor_map map{};
      map.rank = int(block.getRank());
      map.element_bytes = int(block.getElementTypeBitWidth() / 8);
      map.base_arg = recipe->base;
      map.swizzle = recipe->swizzle;
      for (int d = 0; d < map.rank; ++d) {
        map.shape_arg[d] = recipe->shapeArgs[size_t(d)];
        map.shape[d] = recipe->shape[size_t(d)];
        map.stride_arg[d] = recipe->strideArgs[size_t(d)];
        map.stride[d] = recipe->strides[size_t(d)];
        map.box[d] = recipe->box.empty() ? int(block.getDimSize(d)) : recipe->box[size_t(d)];
      }
      out.push_back(map);
    }
  });
}

struct Stage {
  const char *name;   // the pass's command-line name, as in tk-opt
  PassFactory create; // returns null where the stage does not apply (target, options)
  bool verify;        // run the verifier on the module after the stage
};

// The verifier runs after each of our own stages. After the upstream conversions and clean-ups
// of the LLVM-dialect module, the largest IR of the pipeline, it costs about a third of the
// passes' time on a tensor-core matmul (5 runs over 3,000-11,000 ops): those stages are trusted,
// and the last stage verifies the result.
// clang-format off
constexpr Stage kStages[] = {
    {"tk-rewrite-block-pointers",    rewriteBlockPointers, true},     // to pointer blocks
    {"tk-tma-descriptors",           tmaDescriptors, true}, // tensor maps, where TMA can copy
    {"tk-rewrite-tensor-descriptors", rewriteTensorDescriptors, true}, // to pointer blocks
    {"tk-decompose-batched-dot",     decomposeBatchedDot, true}, // 3-D dots as 2-D ones
    {"tk-legalize-fp8",              legalizeFp8, true},   // fp8 math in f32, fp8 as bytes
    {"tk-flatten-loops",             flattenLoops, true},  // tk.flatten nests as one loop
    {"canonicalize",                 canonicalize, true},  // tk folders (splats), arith, DCE
    {"cse",                          cse, true},           // the front end repeats ranges, splats
    {"tk-assign-layouts",            assignLayouts, true}, // blocked layouts for every tensor
    {"tk-coalesce",                  coalesce, true},      // memory-access layouts from axis info
    {"tk-remove-layout-conversions", removeLayoutConversions, true},
    {"tk-accelerate-matmul",         accelerateMatmul, true}, // tensor-core layouts for tk.dot
    {"tk-remove-layout-conversions", removeLayoutConversions, true}, // the accumulator in loops
    {"tk-pipeline",                  pipeline, true},      // num_stages: cp.async ahead of dots
    {"tk-unroll-loops",              unrollLoops, true},   // tk.loop_unroll_factor
    {"tk-allocate-shared-memory",    allocateSharedMemory, true}, // offsets, the module's total
    {"tk-to-llvm",                   toLLVM, true},        // tk/tkgpu -> LLVM + NVVM; scf kept
    {"convert-scf-to-cf",            scfToCF, false},      // loops, ifs, masked accesses
    {"convert-cf-to-llvm",           cfToLLVM, false},     // cf.br / cf.cond_br -> llvm.br
    {"convert-arith-to-llvm",        arithToLLVM, false},  // the loops' compare and increment
    {"tk-split-struct-block-arguments", splitStructBlockArguments, false}, // a phi per element
    {"canonicalize",                 canonicalize, false},
    {"cse",                          cse, false},
    {"reconcile-unrealized-casts",   reconcileCasts, true},
};
// clang-format on

} // namespace

LogicalResult lowerToLLVM(ModuleOp module, const LoweringOptions &options) {
  for (const Stage &stage : kStages) {
    std::unique_ptr<Pass> pass = stage.create(options);
    if (!pass)
      continue; // not for this target or these options
    if (options.gpuIROut && llvm::StringRef(stage.name) == "tk-to-llvm") {
      llvm::raw_string_ostream os(*options.gpuIROut);
      module->print(os);
    }
    const auto start = std::chrono::steady_clock::now();
    PassManager passes(module->getName());
    passes.enableVerifier(stage.verify);
    passes.addPass(std::move(pass));
    if (failed(passes.run(module)))
      return failure();
    if (options.stageTimesOut)
      options.stageTimesOut->emplace_back(stage.name, std::chrono::duration<double, std::milli>(
                                                          std::chrono::steady_clock::now() - start)
                                                          .count());
    // The recipes once tk-pipeline has given the maps that fill its rings their box and swizzle.
    if (options.tensorMapsOut && llvm::StringRef(stage.name) == "tk-pipeline")
      collectTensorMaps(module, *options.tensorMapsOut);
    if (options.dumpIR) {
      llvm::errs() << "// -----// IR after " << stage.name << " //----- //\n";
      module->print(llvm::errs());
      llvm::errs() << "\n";
    }
  }
  return success();
}

} // namespace mlir::tk

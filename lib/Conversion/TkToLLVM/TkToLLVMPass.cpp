/// @file TkToLLVMPass.cpp
/// The tk-to-llvm pass: checks that every op is one this slice lowers (else an error
/// naming it, at its location) and that every op using shared memory has its offset
/// (tk-allocate-shared-memory), declares the shared array when the module has a size for it,
/// chooses vector widths for loads and stores (AxisInfo), then
/// converts tk/tkgpu/arith/math/func to LLVM + NVVM in one DialectConversion. scf ops stay, on
/// LLVM types (with scf.if around masked accesses): the pipeline's next stages lower them
/// (convert-scf-to-cf, convert-cf-to-llvm, convert-arith-to-llvm for the loop arithmetic).
#include "Conversion/TkToLLVM/Passes.h"

#include "Analysis/Allocation.h"
#include "Analysis/AxisInfo.h"
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKTOLLVM
#include "Conversion/TkToLLVM/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;
using namespace mlir::tk;

namespace {

/// Ops the pass lowers: every tk and tkgpu op, and the arith, math and scf ops the front end
/// prints (of tensor constants, splats: the front end prints no others).
bool isLowered(Operation *op) {
  if (isa<ModuleOp, func::FuncOp, func::ReturnOp>(op))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return !isa<RankedTensorType>(constant.getType()) ||
           isa<SplatElementsAttr>(constant.getValue());
  Dialect *dialect = op->getDialect(); // null for an unregistered op
  return dialect && isa<TkDialect, tkgpu::TkGPUDialect, arith::ArithDialect, math::MathDialect,
                        scf::SCFDialect>(dialect);
}

/// An error for the first op outside the slice, tensor without a layout, tensor larger than a
/// block may be (its elements are unrolled into registers: 2^24 of them ran for minutes), or op
/// using shared memory without an offset in it.
LogicalResult checkLowerable(ModuleOp module) {
  WalkResult result = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    if (!isLowered(op)) {
      op->emitError() << op->getName() << " is not lowered by tk-to-llvm";
      return WalkResult::interrupt();
    }
    if (failed(verifyBlockSizes(op, /*operands=*/false)))
      return WalkResult::interrupt();
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type);
          tensor && !tkgpu::isDistributedLayout(tensor.getEncoding())) {
        op->emitError() << "tensor " << type
                        << " has no layout (run tk-assign-layouts before tk-to-llvm)";
        return WalkResult::interrupt();
      }
    if (!tkgpu::TkGPUDialect::getSharedOffset(op) &&
        (getScratchBytes(op) > 0 || isa<tkgpu::LocalAllocOp>(op))) {
      op->emitError() << op->getName()
                      << " has no shared-memory offset (run tk-allocate-shared-memory before "
                         "tk-to-llvm)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// A vector per `width` elements where a thread holds that many consecutive, aligned elements:
/// AxisInfo's width along the pointer's most contiguous dimension, capped by the layout's
/// sizePerThread there (the elements a thread holds one after the other).
VectorWidths chooseVectorWidths(ModuleOp module) {
  VectorWidths widths;
  AxisInfoResult axisInfo(module);
  if (!axisInfo.succeeded())
    return widths;
  module.walk([&](Operation *op) {
    if (!isa<LoadOp, StoreOp, tkgpu::AsyncCopyGlobalToLocalOp>(op))
      return;
    auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto blocked = type ? dyn_cast<tkgpu::BlockedEncodingAttr>(type.getEncoding()) : nullptr;
    if (!blocked)
      return;
    const unsigned fastest = blocked.getOrder()[0];
    llvm::SmallVector<unsigned, 4> order = axisInfo.getOrder(op->getOperand(0));
    if (order.empty() || order[0] != fastest)
      return;
    widths[op] = std::min(axisInfo.getVectorWidth(op), blocked.getSizePerThread()[fastest]);
  });
  return widths;
}

/// Raises the module's `tkgpu.ptx_version` to what its instructions need beyond every target's
/// own ISA: fp8 mma.sync (m16n8k32 .e4m3/.e5m2) needs PTX 8.4.
void requirePtxVersion(ModuleOp module) {
  module.walk([&](DotOp dot) {
    if (isFloat8(dot.getA().getType().getElementType()) &&
        isa_and_nonnull<tkgpu::MmaEncodingAttr>(dot.getType().getEncoding()))
      tkgpu::TkGPUDialect::requireModulePtxVersion(module, 84);
  });
}

struct TkToLLVMPass : tk::impl::TkToLLVMBase<TkToLLVMPass> {
  using TkToLLVMBase::TkToLLVMBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (failed(checkLowerable(module)))
      return signalPassFailure();
    unsigned numWarps = tkgpu::TkGPUDialect::getModuleNumWarps(module);
    if (numWarps == 0) // IR without layouts, as in lit tests of single patterns
      numWarps = 4;
    VectorWidths widths = chooseVectorWidths(module);
    if (tkgpu::TkGPUDialect::getModuleSharedBytes(module) > 0)
      declareSharedMemory(module);
    requirePtxVersion(module);

    TkToLLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    populateFuncOpToLLVMPatterns(converter, patterns, numWarps);
    populateProgramIdOpToLLVMPatterns(converter, patterns);
    populateMakeRangeOpToLLVMPatterns(converter, patterns);
    populateSplatOpToLLVMPatterns(converter, patterns);
    populateElementwiseOpToLLVMPatterns(converter, patterns);
    populateLoadStoreOpToLLVMPatterns(converter, patterns, widths);
    populateAtomicOpToLLVMPatterns(converter, patterns, computeCapability);
    populateReduceOpToLLVMPatterns(converter, patterns);
    populateScanOpToLLVMPatterns(converter, patterns);
    populateViewOpToLLVMPatterns(converter, patterns);
    populateTmaOpToLLVMPatterns(converter, patterns);
    populateDotOpToLLVMPatterns(converter, patterns);
    populateMMAv2DotOpToLLVMPatterns(converter, patterns);
    populateWGMMADotOpToLLVMPatterns(converter, patterns);
    populateConvertToDotOperandPatterns(converter, patterns);
    populateSharedMemoryOpToLLVMPatterns(converter, patterns, widths);
    populateMathOpToLLVMPatterns(converter, patterns);
    populateDebugOpToLLVMPatterns(converter, patterns, computeCapability);
    populateInlineAsmOpToLLVMPatterns(converter, patterns);
    populatePtrCastOpToLLVMPatterns(converter, patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    ConversionTarget target(*context);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect, scf::SCFDialect>();
    target.addLegalOp<ModuleOp>();
    // packElements' structs, until materializePackedStructs; other casts are the framework's.
    target.addDynamicallyLegalOp<UnrealizedConversionCastOp>(
        [](Operation *op) -> std::optional<bool> {
          if (isPackedStruct(op))
            return true;
          return std::nullopt;
        });
    // An arith, math, tk or tkgpu op left over had no lowering: an error naming it, here rather
    // than in a later stage (the scf ops' arith comes from convert-scf-to-cf, after this pass).
    target.addIllegalDialect<arith::ArithDialect, math::MathDialect, tk::TkDialect,
                             tkgpu::TkGPUDialect>();
    populateControlFlowOpToLLVMPatterns(converter, patterns, target);
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
      module.emitError("tk-to-llvm: could not lower the kernel to the LLVM dialect");
      return signalPassFailure();
    }
    materializePackedStructs(module, keepUnread);
  }
};

} // namespace

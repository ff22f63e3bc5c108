/// @file The tk-to-llvm pass: checks that every op is one this slice lowers (else an error
/// naming it, at its location), chooses vector widths for loads and stores (AxisInfo), then
/// converts in three steps: tk/tkgpu/arith/func -> LLVM + NVVM (with scf.if around masked
/// accesses), scf -> cf, cf -> LLVM.
#include "Conversion/TkToLLVM/Passes.h"

#include "Analysis/AxisInfo.h"
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
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
  return isa<TkDialect, tkgpu::TkGPUDialect, arith::ArithDialect, math::MathDialect,
             scf::SCFDialect>(op->getDialect());
}

/// An error for the first op outside the slice, tensor without a layout, or tensor larger than
/// a block may be (its elements are unrolled into registers: 2^24 of them ran for minutes).
LogicalResult checkLowerable(ModuleOp module) {
  WalkResult result = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    if (!isLowered(op)) {
      op->emitError() << op->getName() << " is not lowered yet";
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
    if (!isa<LoadOp, StoreOp>(op))
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

struct TkToLLVMPass : tk::impl::TkToLLVMBase<TkToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (failed(checkLowerable(module)))
      return signalPassFailure();
    unsigned numWarps = tkgpu::TkGPUDialect::getModuleNumWarps(module);
    if (numWarps == 0) // IR without layouts, as in lit tests of single patterns
      numWarps = 4;
    VectorWidths widths = chooseVectorWidths(module);
    if (failed(allocateSharedMemory(module)))
      return signalPassFailure();

    TkToLLVMTypeConverter converter(context);
    {
      RewritePatternSet patterns(context);
      populateFuncOpToLLVMPatterns(converter, patterns, numWarps);
      populateProgramIdOpToLLVMPatterns(converter, patterns);
      populateMakeRangeOpToLLVMPatterns(converter, patterns);
      populateSplatOpToLLVMPatterns(converter, patterns);
      populateElementwiseOpToLLVMPatterns(converter, patterns);
      populateLoadStoreOpToLLVMPatterns(converter, patterns, widths);
      populateReduceOpToLLVMPatterns(converter, patterns);
      populateScanOpToLLVMPatterns(converter, patterns);
      populateViewOpToLLVMPatterns(converter, patterns);
      populateDotOpToLLVMPatterns(converter, patterns);
      populateMMAv2DotOpToLLVMPatterns(converter, patterns);
      populateConvertToDotOperandPatterns(converter, patterns);
      populateMathOpToLLVMPatterns(converter, patterns);
      populatePtrCastOpToLLVMPatterns(converter, patterns);
      arith::populateArithToLLVMConversionPatterns(converter, patterns);
      ConversionTarget target(*context);
      target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect, scf::SCFDialect>();
      target.addLegalOp<ModuleOp>();
      populateControlFlowOpToLLVMPatterns(converter, patterns, target);
      if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
        module.emitError("tk-to-llvm: could not lower the kernel to the LLVM dialect");
        return signalPassFailure();
      }
    }
    {
      RewritePatternSet patterns(context);
      populateSCFToControlFlowConversionPatterns(patterns);
      ConversionTarget target(*context);
      target.addIllegalDialect<scf::SCFDialect>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(context);
      cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
      // scf -> cf computes loop bounds with arith ops (the induction variable's compare and
      // increment); math ops left here had no lowering: an error naming them.
      arith::populateArithToLLVMConversionPatterns(converter, patterns);
      ConversionTarget target(*context);
      target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect>();
      target.addIllegalDialect<cf::ControlFlowDialect, arith::ArithDialect, math::MathDialect>();
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace

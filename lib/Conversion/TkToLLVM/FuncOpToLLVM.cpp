/// @file FuncOpToLLVM.cpp
/// func.func -> llvm.func (the kernel: `nvvm.kernel`, `nvvm.maxntid`) and func.return ->
/// llvm.return. `tk.divisibility` on a pointer argument (the launch's promise that it is that
/// many bytes aligned) becomes `llvm.align`, so LLVM knows it too; on integers it has done its
/// work in AxisInfo and is dropped.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tk;

namespace {

struct FuncOpConversion : OpConversionPattern<func::FuncOp> {
  FuncOpConversion(TypeConverter &converter, MLIRContext *context, unsigned numWarps)
      : OpConversionPattern(converter, context), numWarps(numWarps) {}

  LogicalResult matchAndRewrite(func::FuncOp func, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FunctionType type = func.getFunctionType();
    if (type.getNumResults() != 0)
      return rewriter.notifyMatchFailure(func, "a kernel returns nothing");
    // LLVM's NVPTX lowering aborts on parameters it cannot pass (an i0, say): refuse them here.
    for (Type input : type.getInputs())
      if (auto integer = dyn_cast<IntegerType>(input);
          integer && !llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth()))
        return func.emitError() << "a kernel argument of type " << input
                                << " cannot be passed; integers are i1, i8, i16, i32 or i64";
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    if (failed(getTypeConverter()->convertSignatureArgs(type.getInputs(), signature)))
      return rewriter.notifyMatchFailure(func, "argument types");
    auto llvmType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(getContext()),
                                                signature.getConvertedTypes());
    auto kernel = LLVM::LLVMFuncOp::create(rewriter, func.getLoc(), func.getName(), llvmType);
    kernel->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), rewriter.getUnitAttr());
    kernel->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                    rewriter.getDenseI32ArrayAttr({static_cast<int32_t>(numWarps * 32), 1, 1}));
    for (unsigned i = 0; i < type.getNumInputs(); ++i)
      if (auto divisibility = func.getArgAttrOfType<IntegerAttr>(i, "tk.divisibility");
          divisibility && isa<PointerType>(type.getInput(i)))
        kernel.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                          rewriter.getI64IntegerAttr(divisibility.getInt()));
    // Tensor maps (tk-tma-descriptors): 128 bytes passed by value, 64-byte aligned, which the
    // kernel reads in place (`__grid_constant__`): TMA takes the parameter's generic address.
    for (unsigned i = 0; i < type.getNumInputs(); ++i)
      if (isa<TensorDescType>(type.getInput(i))) {
        kernel.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                          TypeAttr::get(LLVM::LLVMArrayType::get(rewriter.getI8Type(), 128)));
        kernel.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(), rewriter.getI64IntegerAttr(64));
        kernel.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(), rewriter.getUnitAttr());
      }
    rewriter.inlineRegionBefore(func.getBody(), kernel.getBody(), kernel.end());
    if (failed(rewriter.convertRegionTypes(&kernel.getBody(), *getTypeConverter(), &signature)))
      return failure();
    rewriter.eraseOp(func);
    return success();
  }

  unsigned numWarps;
};

struct ReturnOpConversion : OpConversionPattern<func::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(func::ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, adaptor.getOperands());
    return success();
  }
};

} // namespace

void mlir::tk::populateFuncOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                            RewritePatternSet &patterns, unsigned numWarps) {
  patterns.add<FuncOpConversion>(converter, patterns.getContext(), numWarps);
  patterns.add<ReturnOpConversion>(converter, patterns.getContext());
}

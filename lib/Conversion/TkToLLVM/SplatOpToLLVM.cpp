/// @file SplatOpToLLVM.cpp
/// Tensors of one value: tk.splat and splat arith.constant -> the scalar, once per
/// element the thread holds.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tk;

namespace {

Value splat(ConversionPatternRewriter &rewriter, Location loc, Type structType, Value scalar) {
  unsigned count = cast<LLVM::LLVMStructType>(structType).getBody().size();
  llvm::SmallVector<Value> elements(count, scalar);
  return packElements(rewriter, loc, structType, elements);
}

struct SplatOpConversion : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type structType = getTypeConverter()->convertType(op.getType());
    if (!structType)
      return rewriter.notifyMatchFailure(op, "result has no distributed layout");
    rewriter.replaceOp(op, splat(rewriter, op.getLoc(), structType, adaptor.getSrc()));
    return success();
  }
};

struct SplatConstantOpConversion : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto value = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!type || !value)
      return rewriter.notifyMatchFailure(op, "not a splat tensor constant");
    Type structType = getTypeConverter()->convertType(type);
    Type elementType = getTypeConverter()->convertType(type.getElementType());
    if (!structType || !elementType)
      return rewriter.notifyMatchFailure(op, "result has no distributed layout");
    Value scalar = LLVM::ConstantOp::create(rewriter, op.getLoc(), elementType,
                                            value.getSplatValue<TypedAttr>());
    rewriter.replaceOp(op, splat(rewriter, op.getLoc(), structType, scalar));
    return success();
  }
};

} // namespace

void mlir::tk::populateSplatOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  // Before the upstream arith.constant lowering, which does not know our tensors.
  patterns.add<SplatOpConversion>(converter, patterns.getContext());
  patterns.add<SplatConstantOpConversion>(converter, patterns.getContext(), /*benefit=*/2);
}

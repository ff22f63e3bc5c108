/// @file MakeRangeOpToLLVM.cpp
/// tk.make_range -> the thread's element indices (Layout.h's mapping as IR, from the
/// thread id) plus `start`.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tk;

namespace {

struct MakeRangeOpConversion : OpConversionPattern<MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(MakeRangeOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(type);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "result has no distributed layout");
    Location loc = op.getLoc();
    llvm::SmallVector<Value> elements;
    for (const auto &index : emitIndices(rewriter, loc, type))
      elements.push_back(addConst(rewriter, loc, index[0], op.getStart()));
    rewriter.replaceOp(op, packElements(rewriter, loc, structType, elements));
    return success();
  }
};

} // namespace

void mlir::tk::populateMakeRangeOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<MakeRangeOpConversion>(converter, patterns.getContext());
}

/// @file ProgramIdOpToLLVM.cpp
/// tk.get_program_id / tk.get_num_programs -> nvvm.read.ptx.sreg.ctaid.* / nctaid.*: a
/// program instance is a CTA.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tk;

namespace {

template <class SourceOp, class X, class Y, class Z>
struct GridOpConversion : OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult matchAndRewrite(SourceOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    switch (op.getAxis()) {
    case 0:
      rewriter.replaceOpWithNewOp<X>(op, i32);
      return success();
    case 1:
      rewriter.replaceOpWithNewOp<Y>(op, i32);
      return success();
    case 2:
      rewriter.replaceOpWithNewOp<Z>(op, i32);
      return success();
    default:
      return rewriter.notifyMatchFailure(op, "axis must be 0, 1 or 2");
    }
  }
};

} // namespace

void mlir::tk::populateProgramIdOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<
      GridOpConversion<GetProgramIdOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp>,
      GridOpConversion<GetNumProgramsOp, NVVM::GridDimXOp, NVVM::GridDimYOp, NVVM::GridDimZOp>>(
      converter, patterns.getContext());
}

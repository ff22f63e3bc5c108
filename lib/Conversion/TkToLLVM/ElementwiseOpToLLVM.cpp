/// @file ElementwiseOpToLLVM.cpp
/// Elementwise ops on tensors -> one scalar op per element the thread holds: any arith op
/// (the same op on the elements, which the upstream arith -> LLVM patterns then lower), and
/// tk.addptr (llvm.getelementptr, on scalars too); and the integer shifts on scalars, which
/// the upstream patterns would leave poison for an amount of the width or more: here they give
/// PTX's results (docs/writing-kernels.md), 0 for `<<` and unsigned `>>`, all sign bits for
/// signed `>>`, the amount read unsigned.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// Every operand's elements (all tensors of one shape and layout: the verifiers and
/// tk-assign-layouts see to it), the i-th of each for the i-th scalar op.
SmallVector<SmallVector<Value>> unpackOperands(ConversionPatternRewriter &rewriter, Location loc,
                                               ValueRange operands) {
  SmallVector<SmallVector<Value>> unpacked;
  for (Value operand : operands)
    unpacked.push_back(unpackElements(rewriter, loc, operand));
  return unpacked;
}

/// An arith op on tensors (not arith.constant: SplatOpToLLVM.cpp).
struct ArithTensorOpConversion : ConversionPattern {
  ArithTensorOpConversion(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2, context) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect>(op->getDialect()) || isa<arith::ConstantOp>(op) ||
        op->getNumResults() != 1 || !isa<RankedTensorType>(op->getResult(0).getType()))
      return failure();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Type structType = getTypeConverter()->convertType(type);
    Type elementType = getTypeConverter()->convertType(type.getElementType());
    if (!structType || !elementType)
      return rewriter.notifyMatchFailure(op, "result has no distributed layout");
    for (Value operand : operands)
      if (!isa<LLVM::LLVMStructType>(operand.getType()))
        return rewriter.notifyMatchFailure(op, "operand is not a converted tensor");
    Location loc = op->getLoc();
    SmallVector<SmallVector<Value>> unpacked = unpackOperands(rewriter, loc, operands);
    const unsigned count = cast<LLVM::LLVMStructType>(structType).getBody().size();
    SmallVector<Value> results;
    for (unsigned i = 0; i < count; ++i) {
      OperationState state(loc, op->getName());
      for (const auto &elements : unpacked)
        state.addOperands(elements[i]);
      state.addTypes(elementType);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packElements(rewriter, loc, structType, results));
    return success();
  }
};

/// A scalar arith.shli / shrui / shrsi, its amount checked against the width. Benefit 3:
/// before the upstream arith -> LLVM patterns.
template <class ShiftOp> struct ShiftOpConversion : OpConversionPattern<ShiftOp> {
  ShiftOpConversion(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<ShiftOp>(converter, context, /*benefit=*/3) {}

  LogicalResult matchAndRewrite(ShiftOp op, typename ShiftOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<IntegerType>(op.getType());
    if (!type) // a tensor: ArithTensorOpConversion makes scalar shifts of it first
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getLhs(), amount = adaptor.getRhs();
    const unsigned width = type.getWidth();
    Value limit =
        LLVM::ConstantOp::create(rewriter, loc, type, rewriter.getIntegerAttr(type, width));
    // A 64-bit amount is clamped to the width first: NVPTX folds the select below into PTX's
    // shl/shr, which clamp their amount themselves but take it as 32 bits, so that an amount
    // of 2^32 or more (the i64 minimum, say) would shift by its low word.
    if (width > 32)
      amount = LLVM::UMinOp::create(rewriter, loc, amount, limit);
    Value shifted, beyond;
    if constexpr (std::is_same_v<ShiftOp, arith::ShLIOp>)
      shifted = LLVM::ShlOp::create(rewriter, loc, x, amount);
    else if constexpr (std::is_same_v<ShiftOp, arith::ShRUIOp>)
      shifted = LLVM::LShrOp::create(rewriter, loc, x, amount);
    else
      shifted = LLVM::AShrOp::create(rewriter, loc, x, amount);
    if constexpr (std::is_same_v<ShiftOp, arith::ShRSIOp>)
      beyond = LLVM::AShrOp::create(
          rewriter, loc, x,
          LLVM::ConstantOp::create(rewriter, loc, type, rewriter.getIntegerAttr(type, width - 1)));
    else
      beyond = LLVM::ConstantOp::create(rewriter, loc, type, rewriter.getIntegerAttr(type, 0));
    Value tooFar = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::uge, amount, limit);
    rewriter.replaceOpWithNewOp<LLVM::SelectOp>(op, tooFar, beyond, shifted);
    return success();
  }
};

struct AddPtrOpConversion : OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type pointee = getTypeConverter()->convertType(
        cast<PointerType>(getElementTypeOrSelf(op.getType())).getPointeeType());
    if (!resultType || !pointee)
      return rewriter.notifyMatchFailure(op, "types");
    auto ptrType = LLVM::LLVMPointerType::get(getContext(), 1);
    auto gep = [&](Value ptr, Value offset) -> Value {
      return LLVM::GEPOp::create(rewriter, loc, ptrType, pointee, ptr, ValueRange{offset});
    };
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, gep(adaptor.getPtr(), adaptor.getOffset()));
      return success();
    }
    SmallVector<Value> ptrs = unpackElements(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> offsets = unpackElements(rewriter, loc, adaptor.getOffset());
    SmallVector<Value> results;
    for (auto [ptr, offset] : llvm::zip_equal(ptrs, offsets))
      results.push_back(gep(ptr, offset));
    rewriter.replaceOp(op, packElements(rewriter, loc, resultType, results));
    return success();
  }
};

} // namespace

void mlir::tk::populateElementwiseOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                                   RewritePatternSet &patterns) {
  patterns.add<ArithTensorOpConversion, AddPtrOpConversion, ShiftOpConversion<arith::ShLIOp>,
               ShiftOpConversion<arith::ShRUIOp>, ShiftOpConversion<arith::ShRSIOp>>(
      converter, patterns.getContext());
}

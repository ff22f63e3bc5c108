/// @file PtrCastOpToLLVM.cpp
/// tk.bitcast, tk.ptr_to_int, tk.int_to_ptr, on scalars and (element by element) on
/// tensors. Every `!tk.ptr<T>` is the same opaque `!llvm.ptr<1>`, so tk.bitcast between
/// pointers is the value itself; the other two are llvm.ptrtoint / llvm.inttoptr. (Numbers are
/// bit-cast with arith.bitcast, which ElementwiseOpToLLVM.cpp and the upstream arith patterns
/// lower.)
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// `cast` applied to the scalar `source`, or to each element of the struct `source` (a
/// converted tensor), giving a value of `resultType` (the converted result type).
Value castElements(OpBuilder &builder, Location loc, Value source, Type resultType,
                   llvm::function_ref<Value(Value, Type)> cast) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(resultType);
  if (!structType)
    return cast(source, resultType);
  Type elementType = structType.getBody().front();
  SmallVector<Value> results;
  for (Value element : unpackElements(builder, loc, source))
    results.push_back(cast(element, elementType));
  return packElements(builder, loc, structType, results);
}

/// A tk cast op whose LLVM form is one LLVM op per element (`LLVMCastOp`), or nothing at all
/// where source and result already have the same LLVM type (tk.bitcast).
template <typename TkOp, typename LLVMCastOp> struct CastOpConversion : OpConversionPattern<TkOp> {
  using OpConversionPattern<TkOp>::OpConversionPattern;
  using OpAdaptor = typename TkOp::Adaptor;

  LogicalResult matchAndRewrite(TkOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type");
    Value source = adaptor.getSrc();
    if (source.getType() == resultType) {
      rewriter.replaceOp(op, source);
      return success();
    }
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, castElements(rewriter, loc, source, resultType, [&](Value element, Type type) {
          return LLVMCastOp::create(rewriter, loc, type, element).getResult();
        }));
    return success();
  }
};

} // namespace

void mlir::tk::populatePtrCastOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<CastOpConversion<BitcastOp, LLVM::BitcastOp>,
               CastOpConversion<PtrToIntOp, LLVM::PtrToIntOp>,
               CastOpConversion<IntToPtrOp, LLVM::IntToPtrOp>>(converter, patterns.getContext());
}

/// @file LoadStoreOpToLLVM.cpp
/// tk.load / tk.store -> llvm.load / llvm.store, one per element the thread holds (a store only
/// through the slot holding the element's first copy, where the layout holds it in several) or,
/// where
/// the pass found the elements contiguous and aligned (VectorWidths), one per vector of them
/// (`ld.global.v4.f32`). A mask guards each access with an `scf.if` (a branch once lowered);
/// a masked-off load yields `other`, or zero without it. With vectors, the first element's mask
/// guards the whole vector: the width already took the mask's constancy into account.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

unsigned byteSize(Type type) { return std::max(1u, type.getIntOrFloatBitWidth() / 8); }

/// `elements[first, first + width)` as one vector (or the element itself when width is 1).
Value gather(OpBuilder &b, Location loc, ArrayRef<Value> elements, unsigned first, unsigned width) {
  if (width == 1)
    return elements[first];
  auto type = VectorType::get({width}, elements[first].getType());
  Value vector = LLVM::PoisonOp::create(b, loc, type);
  for (unsigned j = 0; j < width; ++j)
    vector =
        LLVM::InsertElementOp::create(b, loc, vector, elements[first + j], i32Constant(b, loc, j));
  return vector;
}

/// Runs `body` under `if (mask)` when there is a mask; its value (if any) is the if's result,
/// `otherwise` when the mask is false.
Value guarded(OpBuilder &b, Location loc, Value mask, Type type, Value otherwise,
              llvm::function_ref<Value(OpBuilder &)> body) {
  if (!mask)
    return body(b);
  TypeRange results = type ? TypeRange(type) : TypeRange();
  auto ifOp = scf::IfOp::create(b, loc, results, mask, /*withElseRegion=*/bool(type));
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder(b.getListener());
  Value value = body(thenBuilder);
  if (!type)
    return {};
  scf::YieldOp::create(thenBuilder, loc, value);
  OpBuilder elseBuilder = ifOp.getElseBodyBuilder(b.getListener());
  scf::YieldOp::create(elseBuilder, loc, otherwise);
  return ifOp.getResult(0);
}

struct LoadOpConversion : OpConversionPattern<LoadOp> {
  LoadOpConversion(TypeConverter &converter, MLIRContext *context, const VectorWidths &widths)
      : OpConversionPattern(converter, context), widths(widths) {}

  LogicalResult matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type elementType = getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!resultType || !elementType)
      return rewriter.notifyMatchFailure(op, "types");
    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    SmallVector<Value> others = elementsOf(rewriter, loc, adaptor.getOther());
    const unsigned width = std::max(1u, widths.lookup(op));
    SmallVector<Value> loaded;
    for (unsigned i = 0; i < ptrs.size(); i += width) {
      Type type = width == 1 ? elementType : VectorType::get({width}, elementType);
      Value other;
      if (!masks.empty())
        other = others.empty() ? Value(LLVM::ZeroOp::create(rewriter, loc, type))
                               : gather(rewriter, loc, others, i, width);
      Value value = guarded(rewriter, loc, masks.empty() ? Value() : masks[i], type, other,
                            [&](OpBuilder &b) -> Value {
                              return LLVM::LoadOp::create(b, loc, type, ptrs[i],
                                                          width * byteSize(elementType));
                            });
      if (width == 1) {
        loaded.push_back(value);
        continue;
      }
      for (unsigned j = 0; j < width; ++j)
        loaded.push_back(
            LLVM::ExtractElementOp::create(rewriter, loc, value, i32Constant(rewriter, loc, j)));
    }
    if (isa<LLVM::LLVMStructType>(resultType))
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, loaded));
    else
      rewriter.replaceOp(op, loaded.front());
    return success();
  }

  const VectorWidths &widths;
};

struct StoreOpConversion : OpConversionPattern<StoreOp> {
  StoreOpConversion(TypeConverter &converter, MLIRContext *context, const VectorWidths &widths)
      : OpConversionPattern(converter, context), widths(widths) {}

  LogicalResult matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elementType =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getValue().getType()));
    if (!elementType)
      return rewriter.notifyMatchFailure(op, "types");
    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = elementsOf(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    SmallVector<Value> first = emitFirstCopyPredicates(rewriter, loc, op.getPtr().getType());
    const unsigned width = std::max(1u, widths.lookup(op));
    for (unsigned i = 0; i < ptrs.size(); i += width) {
      Value value = gather(rewriter, loc, values, i, width);
      Value mask = masks.empty() ? Value() : masks[i];
      if (!first.empty() && first[i])
        mask = mask ? LLVM::AndOp::create(rewriter, loc, mask, first[i]).getResult() : first[i];
      guarded(rewriter, loc, mask, Type(), Value(), [&](OpBuilder &b) -> Value {
        LLVM::StoreOp::create(b, loc, value, ptrs[i], width * byteSize(elementType));
        return {};
      });
    }
    rewriter.eraseOp(op);
    return success();
  }

  const VectorWidths &widths;
};

} // namespace

void mlir::tk::populateLoadStoreOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 const VectorWidths &widths) {
  patterns.add<LoadOpConversion, StoreOpConversion>(converter, patterns.getContext(), widths);
}

/// @file tk-remove-layout-conversions: removes tkgpu.convert_layout ops where the IR can do
/// without them (rules in Passes.td). Greedy pattern rewrites; the convert_layout folder removes
/// identities and folds chains.
///
/// Not handled yet (Triton's RemoveLayoutConversions does): conversions across scf.for/if/while
/// (loop-carried values keep the layout tk-assign-layouts gave them), hoisting over values with
/// several uses (duplicating them), over reshapes and loads, and choosing layouts by
/// cost (loads and stores are anchors: their layout is coalesce's choice, not changed here).
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKREMOVELAYOUTCONVERSIONS
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

RankedTensorType withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(), layout);
}

Attribute layoutOf(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor ? tensor.getEncoding() : Attribute();
}

/// Ops that make a tensor from nothing but scalars: as cheap in any layout.
bool isCheap(Operation *op) {
  if (!op || op->getNumResults() != 1 || !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<DenseElementsAttr>(constant.getValue());
  return isa<tk::MakeRangeOp, tk::SplatOp>(op);
}

/// A pure op with one tensor result whose tensor operands all have the result's shape.
bool isElementwise(Operation *op) {
  if (!op || op->getNumResults() != 1 || op->getNumRegions() || !isMemoryEffectFree(op) ||
      isa<ConvertLayoutOp>(op) || isCheap(op))
    return false;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result)
    return false;
  return llvm::all_of(op->getOperandTypes(), [&](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return !tensor || tensor.getShape() == result.getShape();
  });
}

/// `op` rebuilt with `operands` and its one result in `layout`.
Value rebuildIn(PatternRewriter &rewriter, Operation *op, ValueRange operands, Attribute layout) {
  Operation *newOp = rewriter.clone(*op);
  newOp->setOperands(operands);
  Value result = newOp->getResult(0);
  result.setType(withLayout(result.getType(), layout));
  if (auto constant = dyn_cast<arith::ConstantOp>(newOp))
    if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
      constant.setValueAttr(dense.reshape(cast<ShapedType>(result.getType())));
  return result;
}

Value convertTo(PatternRewriter &rewriter, Location loc, Value value, Attribute layout) {
  if (layoutOf(value) == layout)
    return value;
  return ConvertLayoutOp::create(rewriter, loc, withLayout(value.getType(), layout), value);
}

/// convert_layout(make_range | splat | constant) -> the same op in the target layout.
struct RematerializeCheap : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert, PatternRewriter &rewriter) const override {
    Operation *def = convert.getSrc().getDefiningOp();
    if (!isCheap(def))
      return rewriter.notifyMatchFailure(convert, "source is not cheap to rebuild");
    rewriter.setInsertionPoint(def);
    rewriter.replaceOp(
        convert, rebuildIn(rewriter, def, def->getOperands(), convert.getType().getEncoding()));
    return success();
  }
};

/// The layout `op`'s tensor operands need for its result to be in `layout`, for the ops a
/// conversion can be hoisted over; null for others.
Attribute operandLayoutFor(Operation *op, Attribute layout) {
  if (isElementwise(op) || isa_and_nonnull<tk::BroadcastOp>(op))
    return layout;
  if (auto expand = dyn_cast_or_null<tk::ExpandDimsOp>(op))
    if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
      if (isa<RankedTensorType>(expand.getSrc().getType()))
        return SliceEncodingAttr::get(op->getContext(), unsigned(expand.getAxis()), blocked);
  return {};
}

/// `value` can be had in `layout` without a real conversion: it is in it, converted from it,
/// cheap to rebuild in it, or made (for this use only) by an op that can be rebuilt in it from
/// operands that are free themselves, up to `depth` ops up.
bool isFree(Value value, Attribute layout, unsigned depth = 8) {
  if (!isa<RankedTensorType>(value.getType()) || layoutOf(value) == layout)
    return true;
  Operation *def = value.getDefiningOp();
  if (auto convert = dyn_cast_or_null<ConvertLayoutOp>(def))
    return layoutOf(convert.getSrc()) == layout;
  if (isCheap(def))
    return true;
  Attribute operandLayout = operandLayoutFor(def, layout);
  if (!operandLayout || !depth || !value.hasOneUse())
    return false;
  return llvm::all_of(def->getOperands(),
                      [&](Value operand) { return isFree(operand, operandLayout, depth - 1); });
}

/// convert_layout(op(x, ...)) -> op in the target layout, for elementwise ops, tk.broadcast and
/// tk.expand_dims used only here, when every operand can be had in the layout that needs for
/// free (isFree): the conversions this leaves on the operands are removed in turn.
struct HoistConversion : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert, PatternRewriter &rewriter) const override {
    Attribute target = convert.getType().getEncoding();
    Operation *def = convert.getSrc().getDefiningOp();
    if (isCheap(def) || isa_and_nonnull<ConvertLayoutOp>(def) || !isFree(convert.getSrc(), target))
      return rewriter.notifyMatchFailure(convert, "an operand would need a real conversion");
    Attribute operandLayout = operandLayoutFor(def, target);
    rewriter.setInsertionPoint(def);
    SmallVector<Value> operands;
    for (Value operand : def->getOperands())
      operands.push_back(isa<RankedTensorType>(operand.getType())
                             ? convertTo(rewriter, def->getLoc(), operand, operandLayout)
                             : operand);
    rewriter.replaceOp(convert, rebuildIn(rewriter, def, operands, target));
    // Now, not later: while it lives, its operands have two uses, which isFree counts.
    rewriter.eraseOp(def);
    return success();
  }
};

/// elementwise(convert_layout(x: L), convert_layout(y: L), cheap...) -> convert_layout of the
/// op computed in L: several conversions become one (or none, once later users fold it).
struct SinkConversion : RewritePattern {
  SinkConversion(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isElementwise(op))
      return failure();
    Attribute source;
    for (Value operand : op->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()) || isCheap(operand.getDefiningOp()))
        continue;
      auto convert = operand.getDefiningOp<ConvertLayoutOp>();
      // A chain of conversions is the folder's to shorten first, and a conversion that can be
      // hoisted away is HoistConversion's (sinking it would undo that, and loop).
      if (!convert || convert.getSrc().getDefiningOp<ConvertLayoutOp>() ||
          isFree(convert.getSrc(), convert.getType().getEncoding()))
        return failure();
      Attribute layout = layoutOf(convert.getSrc());
      if (source && layout != source)
        return failure();
      source = layout;
    }
    if (!source)
      return failure();
    rewriter.setInsertionPoint(op);
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (auto convert = operand.getDefiningOp<ConvertLayoutOp>())
        operand = convert.getSrc();
      operands.push_back(isa<RankedTensorType>(operand.getType())
                             ? convertTo(rewriter, op->getLoc(), operand, source)
                             : operand);
    }
    Value result = rebuildIn(rewriter, op, operands, source);
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op->getResult(0).getType(), result);
    return success();
  }
};

/// reduce(convert_layout(x: L), ...) -> convert_layout(reduce(x) in slice(L)): a reduction works
/// in any blocked layout, and its result is smaller than its operand (a scalar needs no
/// conversion at all), so converting after it moves less data, or none.
struct ReduceBeforeConversion : OpRewritePattern<tk::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tk::ReduceOp reduce, PatternRewriter &rewriter) const override {
    BlockedEncodingAttr source;
    for (Value operand : reduce.getOperands()) {
      auto convert = operand.getDefiningOp<ConvertLayoutOp>();
      auto layout = convert ? dyn_cast<BlockedEncodingAttr>(layoutOf(convert.getSrc()))
                            : BlockedEncodingAttr();
      if (!layout || (source && layout != source))
        return rewriter.notifyMatchFailure(reduce, "operands not all converted from one layout");
      source = layout;
    }
    rewriter.setInsertionPoint(reduce);
    SmallVector<Value> operands;
    for (Value operand : reduce.getOperands())
      operands.push_back(operand.getDefiningOp<ConvertLayoutOp>().getSrc());
    Operation *newReduce = rewriter.clone(*reduce);
    newReduce->setOperands(operands);
    SmallVector<Value> results;
    for (OpResult result : newReduce->getResults()) {
      Type old = result.getType();
      if (!isa<RankedTensorType>(old)) {
        results.push_back(result);
        continue;
      }
      result.setType(withLayout(
          old, SliceEncodingAttr::get(getContext(), unsigned(reduce.getAxis()), source)));
      results.push_back(ConvertLayoutOp::create(rewriter, reduce.getLoc(), old, result));
    }
    rewriter.replaceOp(reduce, results);
    return success();
  }
};

struct RemoveLayoutConversions
    : tkgpu::impl::TkRemoveLayoutConversionsBase<RemoveLayoutConversions> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RematerializeCheap, HoistConversion, SinkConversion, ReduceBeforeConversion>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

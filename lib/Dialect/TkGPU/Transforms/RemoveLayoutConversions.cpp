/// @file RemoveLayoutConversions.cpp
/// tk-remove-layout-conversions: removes tkgpu.convert_layout ops where the IR can do
/// without them (rules in Passes.td). Greedy pattern rewrites; the convert_layout folder removes
/// identities and folds chains.
///
/// Not handled yet (Triton's RemoveLayoutConversions does): conversions across scf.if/while and
/// loop-carried values other than those LoopCarriedLayout moves, hoisting over reshapes (other
/// than ViewBeforeConversion's) and loads, and choosing layouts by cost (loads and stores are
/// anchors: their layout is coalesce's choice, not changed here).
#include "Analysis/Utility.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// A pure elementwise op with one tensor result (arith and math ops, which carry the trait;
/// tk.addptr and the pointer casts): its operands can take the result's layout. The op's kind,
/// not its operands' shapes, decides: a tk.dot or tk.trans of square tiles has operands of its
/// result's shape too.
bool isElementwise(Operation *op) {
  if (!op || op->getNumResults() != 1 || !isMemoryEffectFree(op) || isCheap(op))
    return false;
  if (!op->hasTrait<OpTrait::Elementwise>() &&
      !isa<tk::AddPtrOp, tk::BitcastOp, tk::PtrToIntOp, tk::IntToPtrOp>(op))
    return false;
  return isa<RankedTensorType>(op->getResult(0).getType());
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
    if (isa<BlockedEncodingAttr, MmaEncodingAttr>(layout))
      if (isa<RankedTensorType>(expand.getSrc().getType()))
        return SliceEncodingAttr::get(op->getContext(), unsigned(expand.getAxis()), layout);
  return {};
}

/// `value` is in `layout`, or converting it there moves nothing between threads.
bool isInRegisters(Value value, Attribute layout) {
  auto type = cast<RankedTensorType>(value.getType());
  return type.getEncoding() == layout ||
         (isa<SliceEncodingAttr, MmaEncodingAttr>(layout) &&
          isa<SliceEncodingAttr, MmaEncodingAttr>(type.getEncoding()) &&
          tk::isConversionInRegisters(type, layout));
}

/// `value` can be had in `layout` without a real conversion: it is in it (or in a layout whose
/// threads hold the same elements), converted from a value that is free in it, cheap to rebuild
/// in it, `assumed` (a loop-carried value about to take the layout), or made by
/// an op that can be rebuilt in it from operands that are free themselves, up to `depth` ops
/// up. An op with other users is rebuilt beside the original: the ops this looks through do
/// arithmetic on registers, cheaper than a conversion's round trip through shared memory.
bool isFree(Value value, Attribute layout, unsigned depth = 8, Value assumed = {}) {
  if (!isa<RankedTensorType>(value.getType()) || value == assumed || isInRegisters(value, layout))
    return true;
  Operation *def = value.getDefiningOp();
  if (auto convert = dyn_cast_or_null<ConvertLayoutOp>(def))
    return depth && isFree(convert.getSrc(), layout, depth - 1, assumed);
  if (isCheap(def))
    return true;
  Attribute operandLayout = operandLayoutFor(def, layout);
  if (!operandLayout || !depth)
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isFree(operand, operandLayout, depth - 1, assumed);
  });
}

/// convert_layout(op(x, ...)) -> op in the target layout, for elementwise ops, tk.broadcast and
/// tk.expand_dims, when every operand can be had in the layout that needs for free (isFree):
/// the conversions this leaves on the operands are removed in turn. The original op stays for
/// its other users, if any.
struct HoistConversion : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert, PatternRewriter &rewriter) const override {
    Attribute target = convert.getType().getEncoding();
    Operation *def = convert.getSrc().getDefiningOp();
    if (isInRegisters(convert.getSrc(), target))
      return rewriter.notifyMatchFailure(convert, "the conversion moves nothing between threads");
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
    if (def->use_empty())
      rewriter.eraseOp(def);
    return success();
  }
};

/// The layout a loop-carried value would rather have: the blocked or mma source layout of a
/// real conversion (not of a cheap op; an mma accumulator: `acc = dot(a, b, acc)`) that the value
/// yielded for it is computed from, through the ops HoistConversion looks through, up to `depth`
/// ops up; null when there is none.
Attribute preferredLayout(Value value, Attribute current, unsigned depth = 8) {
  Operation *def = value.getDefiningOp();
  if (!def || !depth)
    return {};
  if (auto convert = dyn_cast<ConvertLayoutOp>(def)) {
    Attribute source = layoutOf(convert.getSrc());
    if (source != current && isa<BlockedEncodingAttr, MmaEncodingAttr, SliceEncodingAttr>(source) &&
        !isCheap(convert.getSrc().getDefiningOp()))
      return source;
    return {};
  }
  if (!operandLayoutFor(def, current) || operandLayoutFor(def, current) != current)
    return {};
  for (Value operand : def->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      if (Attribute layout = preferredLayout(operand, current, depth - 1))
        return layout;
  return {};
}

/// The layout the loads and stores of a loop-carried pointer tensor want (tk-coalesce's): the
/// target of the conversions of `arg` that feed a tk.load or tk.store's pointer, when every
/// conversion of `arg` goes there; null otherwise.
Attribute accessLayout(BlockArgument arg) {
  if (!isa<tk::PointerType>(cast<RankedTensorType>(arg.getType()).getElementType()))
    return {};
  Attribute wanted;
  for (Operation *user : arg.getUsers()) {
    auto convert = dyn_cast<ConvertLayoutOp>(user);
    if (!convert)
      continue;
    Attribute target = convert.getType().getEncoding();
    if (wanted && target != wanted)
      return {};
    bool feedsAccess = llvm::any_of(convert->getUses(), [](OpOperand &use) {
      return isa<tk::LoadOp, tk::StoreOp>(use.getOwner()) && use.getOperandNumber() == 0;
    });
    if (!feedsAccess)
      return {};
    wanted = target;
  }
  return wanted;
}

/// A tensor carried by scf.for in layout L whose next value is computed from a conversion out
/// of layout P (a loop accumulating loaded data: `acc += convert(load)`; a tensor-core
/// accumulator), or a pointer tensor whose loads and stores want P (`ptrs += step` with
/// `load(convert(ptrs))`), is carried in P instead, when the yielded value can then be had in P
/// for free: the conversion in every iteration becomes one of the initial value (free for a
/// splat) and one of the result after the loop.
struct LoopCarriedLayout : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop, PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type)
        continue;
      Value yielded = yield.getOperand(unsigned(i));
      Attribute preferred = preferredLayout(yielded, type.getEncoding());
      if (!preferred)
        preferred = accessLayout(arg);
      if (!preferred || isInRegisters(arg, preferred) || !isFree(yielded, preferred, 8, arg))
        continue;
      auto carried = withLayout(type, preferred);
      Location loc = loop.getLoc();
      rewriter.setInsertionPoint(loop);
      Value init = convertTo(rewriter, loc, loop.getInitArgs()[i], preferred);
      OpResult result = loop->getResult(unsigned(i));
      rewriter.modifyOpInPlace(loop, [&] {
        loop.getInitArgsMutable()[unsigned(i)].assign(init);
        arg.setType(carried);
        result.setType(carried);
      });
      rewriter.setInsertionPointToStart(loop.getBody());
      auto inside = ConvertLayoutOp::create(rewriter, loc, type, arg);
      rewriter.replaceAllUsesExcept(arg, inside, inside);
      rewriter.setInsertionPoint(yield);
      Value next = ConvertLayoutOp::create(rewriter, loc, carried, yielded);
      rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(unsigned(i), next); });
      rewriter.setInsertionPointAfter(loop);
      auto after = ConvertLayoutOp::create(rewriter, loc, type, result);
      rewriter.replaceAllUsesExcept(result, after, after);
      return success();
    }
    return rewriter.notifyMatchFailure(loop, "no loop-carried tensor prefers another layout");
  }
};

/// A tk.broadcast of a tensor with fewer elements: converting it costs a conversion of that
/// smaller tensor (BroadcastBeforeConversion), not of the broadcast.
bool isBroadcastOfSmaller(Value value) {
  auto broadcast = value.getDefiningOp<tk::BroadcastOp>();
  auto source = broadcast ? dyn_cast<RankedTensorType>(broadcast.getSrc().getType()) : nullptr;
  return source && source.getNumElements() < broadcast.getType().getNumElements();
}

/// convert_layout(broadcast(x)) -> broadcast(convert_layout(x)) where x has fewer elements: the
/// same values, with less data moved between threads.
struct BroadcastBeforeConversion : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert, PatternRewriter &rewriter) const override {
    auto broadcast = convert.getSrc().getDefiningOp<tk::BroadcastOp>();
    Attribute target = convert.getType().getEncoding();
    if (!broadcast || !isBroadcastOfSmaller(broadcast) ||
        !isa<BlockedEncodingAttr, MmaEncodingAttr>(target))
      return rewriter.notifyMatchFailure(convert, "not a conversion of a broadcast");
    rewriter.setInsertionPoint(broadcast);
    Value source = convertTo(rewriter, broadcast.getLoc(), broadcast.getSrc(), target);
    rewriter.replaceOp(convert, rebuildIn(rewriter, broadcast, source, target));
    if (broadcast->use_empty())
      rewriter.eraseOp(broadcast);
    return success();
  }
};

/// trans | join | reshape (convert_layout(x: L), ...) -> convert_layout of the op computed from
/// L, in the layout that moves no data (getTransposedLayout, getPairedLayout,
/// getReshapedLayout; tk-assign-layouts' rules): a conversion before an interleave or a
/// transpose goes after it, where later users can fold it (a loaded tile's coalesced layout,
/// carried to the tensor-core operand it is stored from).
struct ViewBeforeConversion : RewritePattern {
  ViewBeforeConversion(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  /// The result layout of `op` with its operands in `layout`; null where there is none.
  static BlockedEncodingAttr resultLayout(Operation *op, BlockedEncodingAttr layout) {
    if (auto trans = dyn_cast<tk::TransOp>(op))
      return getTransposedLayout(layout, trans.getOrder());
    if (isa<tk::JoinOp>(op))
      return getPairedLayout(layout);
    if (auto reshape = dyn_cast<tk::ReshapeOp>(op))
      return getReshapedLayout(layout,
                               cast<RankedTensorType>(reshape.getSrc().getType()).getShape(),
                               reshape.getType().getShape());
    return {};
  }

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isa<tk::TransOp, tk::JoinOp, tk::ReshapeOp>(op) ||
        !isa<RankedTensorType>(op->getOperand(0).getType()))
      return failure();
    // Every operand converted from one blocked layout.
    BlockedEncodingAttr source;
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto convert = operand.getDefiningOp<ConvertLayoutOp>();
      auto layout = convert ? dyn_cast<BlockedEncodingAttr>(layoutOf(convert.getSrc())) : nullptr;
      if (!layout || (source && layout != source) || isCheap(convert.getSrc().getDefiningOp()))
        return rewriter.notifyMatchFailure(op, "operands not all converted from one layout");
      // A loop-carried value's layout is LoopCarriedLayout's choice, made from the conversions
      // of the value it carries: moving one across a transpose would change that choice each
      // time, and loop (`x = maximum(x, trans(x))`).
      if (auto arg = dyn_cast<BlockArgument>(convert.getSrc());
          arg && isa<scf::ForOp>(arg.getOwner()->getParentOp()))
        return rewriter.notifyMatchFailure(op, "a loop-carried value: LoopCarriedLayout's");
      source = layout;
      operands.push_back(convert.getSrc());
    }
    BlockedEncodingAttr result = resultLayout(op, source);
    if (!result || result == layoutOf(op->getResult(0)))
      return rewriter.notifyMatchFailure(op, "no layout keeps the op in registers");
    rewriter.setInsertionPoint(op);
    Value value = rebuildIn(rewriter, op, operands, result);
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op->getResult(0).getType(), value);
    return success();
  }
};

/// elementwise(convert_layout(x: L), y, ...) -> convert_layout of the op computed in L, when
/// every other operand is converted from L too, cheap, or free in L (isFree: a row maximum
/// broadcast back over an mma accumulator): several conversions become one, or none once later
/// users fold it. This carries an mma result forward through the arithmetic on it.
struct SinkConversion : RewritePattern {
  SinkConversion(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  /// The layout of the first operand converted from a real one; null when there is none.
  static Attribute sourceLayout(Operation *op) {
    for (Value operand : op->getOperands()) {
      auto convert = operand.getDefiningOp<ConvertLayoutOp>();
      if (convert && !isCheap(convert.getSrc().getDefiningOp()))
        return layoutOf(convert.getSrc());
    }
    return {};
  }

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isElementwise(op))
      return failure();
    Attribute source = sourceLayout(op);
    if (!source)
      return failure();
    for (Value operand : op->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()) || isCheap(operand.getDefiningOp()))
        continue;
      auto convert = operand.getDefiningOp<ConvertLayoutOp>();
      // A chain of conversions is the folder's to shorten first, and a conversion that can be
      // hoisted away is HoistConversion's (sinking it would undo that, and loop).
      if (convert && (convert.getSrc().getDefiningOp<ConvertLayoutOp>() ||
                      isFree(convert.getSrc(), convert.getType().getEncoding())))
        return failure();
      if (!isFree(operand, source) && !isBroadcastOfSmaller(operand))
        return failure();
    }
    rewriter.setInsertionPoint(op);
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (auto convert = operand.getDefiningOp<ConvertLayoutOp>();
          convert && layoutOf(convert.getSrc()) == source)
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
/// in any blocked or mma layout (a row maximum of a tensor-core product), and its result is
/// smaller than its operand (a scalar needs no conversion at all), so converting after it moves
/// less data, or none.
struct ReduceBeforeConversion : OpRewritePattern<tk::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tk::ReduceOp reduce, PatternRewriter &rewriter) const override {
    Attribute source;
    for (Value operand : reduce.getOperands()) {
      auto convert = operand.getDefiningOp<ConvertLayoutOp>();
      Attribute layout = convert ? layoutOf(convert.getSrc()) : Attribute();
      if (!isa_and_nonnull<BlockedEncodingAttr, MmaEncodingAttr>(layout) ||
          (source && layout != source))
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

/// Rewrites allowed per op of the module before the greedy driver stops: far above what any
/// kernel needs (each op is rebuilt in a few layouts at most).
constexpr int64_t kMaxRewritesPerOp = 64;

int64_t countOps(Operation *root) {
  int64_t n = 0;
  root->walk([&](Operation *) { ++n; });
  return n;
}

struct RemoveLayoutConversions
    : tkgpu::impl::TkRemoveLayoutConversionsBase<RemoveLayoutConversions> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RematerializeCheap, HoistConversion, SinkConversion, ReduceBeforeConversion,
                 LoopCarriedLayout, BroadcastBeforeConversion, ViewBeforeConversion>(&getContext());
    // The IR is valid after every rewrite, so a pass that stops short of a fixed point (a
    // cycle between patterns no rule foresaw) leaves a correct kernel with a conversion too many;
    // the bound keeps such a cycle from compiling forever.
    GreedyRewriteConfig config;
    config.setMaxNumRewrites(kMaxRewritesPerOp * countOps(getOperation()));
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace

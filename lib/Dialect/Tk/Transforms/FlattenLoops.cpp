/// @file FlattenLoops.cpp
/// tk-flatten-loops: a loop nest marked `tk.flatten` (tk::range_options, Triton's
/// `tl.range(flatten=True)`) as one loop, so that the inner loop's loads are pipelined across
/// the outer loop's iterations too (a persistent matmul's next tile starts loading while the
/// current one finishes).
///
/// The nests. An outer scf.for marked tk.flatten whose body is
///
///   prologue(i, outer args)          -- any ops, none of them a loop
///   inner = scf.for j = lbJ to ubJ step stepJ iter_args(inner inits) { body(i, j, ...) }
///   epilogue(i, outer args, inner)   -- any ops
///   scf.yield outer next
///
/// where lbJ, ubJ and stepJ are defined outside the outer loop (after loop-invariant code motion
/// of the outer loop). Triton flattens trees of loops; nests of other shapes are left as they
/// are here (the front end allows tk.flatten only on a body with exactly one loop whose bounds do
/// not depend on the outer loop).
///
/// The rewrite, with lenI and lenJ the trip counts (computed in i64):
///
///   if (lenI > 0 && lenJ > 0) {
///     pro = prologue(lbI, outer inits)            -- the first outer iteration's prologue
///     scf.for t = 0 to lenI * lenJ step 1 iter_args(i = lbI, jj = 0, outer args, pro, inner args)
///       j = lbJ + jj * stepJ
///       inner next = body(i, j, ...)
///       last = jj == lenJ - 1
///       outer next = scf.if last { epilogue(i, ...) } else { outer args }
///       i' = last ? i + stepI : i;  jj' = last ? 0 : jj + 1
///       pro', inner args' = scf.if last && i + stepI < ubI { prologue(i + stepI, outer next) }
///                           else { pro, inner next }
///   } else {
///     the outer loop, its inner loop replaced by the inner inits (it has no iteration)
///   }
///
/// The prologue's values that the inner body or the epilogue read are carried by the flattened
/// loop. Its loads depend on the epilogue only where the prologue reads what the epilogue
/// computes, so tk-pipeline can pipeline them whenever the prologue reads no memory: the next
/// prologue is an scf.if of its own, apart from the epilogue's stores. The flattened loop takes
/// the outer loop's tk.num_stages and tk.loop_unroll_factor, else the inner loop's.
#include "Dialect/Tk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKFLATTENLOOPS
#include "Dialect/Tk/Transforms/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kFlatten = "tk.flatten";
constexpr llvm::StringLiteral kNumStages = "tk.num_stages";
constexpr llvm::StringLiteral kUnrollFactor = "tk.loop_unroll_factor";

/// The one scf.for of `outer`'s body, if its bounds and step are defined outside `outer`.
scf::ForOp findInnerLoop(scf::ForOp outer) {
  scf::ForOp inner;
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (op.walk([](scf::ForOp) { return WalkResult::interrupt(); }).wasInterrupted()) {
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop || inner)
        return {}; // a loop inside another op, or a second loop
      inner = loop;
    }
  }
  if (!inner)
    return {};
  for (Value bound : {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()})
    if (!outer.isDefinedOutsideOfLoop(bound))
      return {};
  return inner;
}

/// `v` as an i64 (sign-extended; an index is cast).
Value toI64(OpBuilder &b, Location loc, Value v) {
  Type i64 = b.getI64Type();
  if (v.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, i64, v);
  if (v.getType().getIntOrFloatBitWidth() < 64)
    return arith::ExtSIOp::create(b, loc, i64, v);
  return v;
}

/// The i64 `v` as a value of `type`.
Value fromI64(OpBuilder &b, Location loc, Value v, Type type) {
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, v);
  if (type.getIntOrFloatBitWidth() < 64)
    return arith::TruncIOp::create(b, loc, type, v);
  return v;
}

/// The trip count of `loop` in i64: (ub - lb + step - 1) / step, at most 0 for no iteration
/// (step > 0, as scf.for requires).
Value tripCount(OpBuilder &b, Location loc, scf::ForOp loop) {
  Value lb = toI64(b, loc, loop.getLowerBound()), ub = toI64(b, loc, loop.getUpperBound()),
        step = toI64(b, loc, loop.getStep());
  Value one = arith::ConstantIntOp::create(b, loc, 1, 64);
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  Value rounded =
      arith::AddIOp::create(b, loc, span, arith::SubIOp::create(b, loc, step, one).getResult());
  return arith::DivSIOp::create(b, loc, rounded, step);
}

/// The option attribute `name` of the flattened loop: the outer loop's, else the inner loop's.
void inheritAttr(scf::ForOp flat, scf::ForOp outer, scf::ForOp inner, StringRef name) {
  if (Attribute a = outer->getAttr(name))
    flat->setAttr(name, a);
  else if (Attribute a = inner->getAttr(name))
    flat->setAttr(name, a);
}

/// Clones `ops` with `map` (which they extend) at `b`'s insertion point.
void cloneAll(OpBuilder &b, ArrayRef<Operation *> ops, IRMapping &map) {
  for (Operation *op : ops)
    b.clone(*op, map);
}

/// Ends `block` (of an scf.if) with a yield of `values`, in place of the terminator the builder
/// of an scf.if without results puts there.
void setYield(OpBuilder &b, Location loc, Block *block, ValueRange values) {
  if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
    block->back().erase();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(block);
  scf::YieldOp::create(b, loc, values);
}

SmallVector<Value> lookup(const IRMapping &map, ValueRange values) {
  return llvm::map_to_vector(values, [&](Value v) { return map.lookupOrDefault(v); });
}

void flatten(scf::ForOp outer, scf::ForOp inner) {
  Location loc = outer.getLoc();
  Block *body = outer.getBody();
  auto outerYield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Operation *> prologue, epilogue;
  for (Operation &op : body->without_terminator()) {
    if (&op == inner)
      continue;
    (op.isBeforeInBlock(inner) ? prologue : epilogue).push_back(&op);
  }
  // The prologue's values read after it, by the inner loop's body, the epilogue or the outer
  // yield: the flattened loop carries them. (The inner loop's inits are read where the
  // prologue runs.)
  llvm::SetVector<Value> carried;
  for (Operation *op : prologue)
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *at = body->findAncestorOpInBlock(*user);
        if (user != inner.getOperation() &&
            (at == inner.getOperation() || !at->isBeforeInBlock(inner)))
          carried.insert(result);
      }

  OpBuilder b(outer);
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 64);
  Value lenI = tripCount(b, loc, outer), lenJ = tripCount(b, loc, inner);
  Value both = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, lenI, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, lenJ, zero));
  auto versions = scf::IfOp::create(b, loc, outer.getResultTypes(), both, /*withElse=*/true);

  // Where a loop has no iteration: the nest as it was, without the inner loop.
  b.setInsertionPointToStart(versions.elseBlock());
  auto plain = cast<scf::ForOp>(b.clone(*outer));
  plain->removeAttr(kFlatten);
  for (scf::ForOp loop : plain.getBody()->getOps<scf::ForOp>()) {
    loop.replaceAllUsesWith(loop.getInitArgs());
    loop.erase();
    break;
  }
  setYield(b, loc, versions.elseBlock(), plain.getResults());

  // The flattened loop.
  b.setInsertionPointToStart(versions.thenBlock());
  Value total = arith::MulIOp::create(b, loc, lenI, lenJ);
  IRMapping first;
  first.map(outer.getInductionVar(), outer.getLowerBound());
  first.map(outer.getRegionIterArgs(), outer.getInitArgs());
  cloneAll(b, prologue, first);
  SmallVector<Value> inits{outer.getLowerBound(), zero};
  llvm::append_range(inits, outer.getInitArgs());
  llvm::append_range(inits, lookup(first, carried.getArrayRef()));
  llvm::append_range(inits, lookup(first, inner.getInitArgs()));
  const unsigned numOuter = outer.getNumRegionIterArgs(), numCarried = carried.size(),
                 numInner = inner.getNumRegionIterArgs();
  auto flat = scf::ForOp::create(b, loc, zero, total, one, inits);
  inheritAttr(flat, outer, inner, kNumStages);
  inheritAttr(flat, outer, inner, kUnrollFactor);
  {
    Block *flatBody = flat.getBody();
    b.setInsertionPointToStart(flatBody);
    ValueRange args = flat.getRegionIterArgs();
    Value i = args[0], jj = args[1];
    ValueRange outerArgs = args.slice(2, numOuter),
               carriedArgs = args.slice(2 + numOuter, numCarried),
               innerArgs = args.slice(2 + numOuter + numCarried, numInner);
    IRMapping map;
    map.map(outer.getInductionVar(), i);
    map.map(outer.getRegionIterArgs(), outerArgs);
    map.map(carried.getArrayRef(), carriedArgs);
    map.map(inner.getRegionIterArgs(), innerArgs);
    // j = lbJ + jj * stepJ
    Value j = fromI64(
        b, loc,
        arith::AddIOp::create(b, loc, toI64(b, loc, inner.getLowerBound()),
                              arith::MulIOp::create(b, loc, jj, toI64(b, loc, inner.getStep()))),
        inner.getInductionVar().getType());
    map.map(inner.getInductionVar(), j);
    for (Operation &op : inner.getBody()->without_terminator())
      b.clone(op, map);
    SmallVector<Value> innerNext =
        lookup(map, cast<scf::YieldOp>(inner.getBody()->getTerminator()).getOperands());
    Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, jj,
                                       arith::SubIOp::create(b, loc, lenJ, one));

    // The epilogue, on the last inner iteration.
    SmallVector<Value> outerNext(outerArgs.begin(), outerArgs.end());
    if (!epilogue.empty() || numOuter) {
      auto ending = scf::IfOp::create(b, loc, outer.getResultTypes(), last, /*withElse=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ending.thenBlock());
      IRMapping atEnd = map;
      atEnd.map(inner.getResults(), innerNext);
      cloneAll(b, epilogue, atEnd);
      setYield(b, loc, ending.thenBlock(), lookup(atEnd, outerYield.getOperands()));
      setYield(b, loc, ending.elseBlock(), outerArgs);
      outerNext.assign(ending.getResults().begin(), ending.getResults().end());
    }

    // The next outer iteration's induction variable and prologue.
    Value iNext = arith::AddIOp::create(b, loc, i, outer.getStep());
    Value more = arith::AndIOp::create(
        b, loc, last,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iNext, outer.getUpperBound()));
    SmallVector<Value> carriedNext(carriedArgs.begin(), carriedArgs.end()),
        innerStart(innerNext.begin(), innerNext.end());
    if (numCarried || numInner) {
      SmallVector<Type> types = llvm::to_vector(ValueRange(carriedArgs).getTypes());
      llvm::append_range(types, ValueRange(innerArgs).getTypes());
      auto starting = scf::IfOp::create(b, loc, types, more, /*withElse=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(starting.thenBlock());
      IRMapping next;
      next.map(outer.getInductionVar(), iNext);
      next.map(outer.getRegionIterArgs(), outerNext);
      cloneAll(b, prologue, next);
      SmallVector<Value> started = lookup(next, carried.getArrayRef());
      llvm::append_range(started, lookup(next, inner.getInitArgs()));
      setYield(b, loc, starting.thenBlock(), started);
      SmallVector<Value> kept(carriedArgs.begin(), carriedArgs.end());
      llvm::append_range(kept, innerNext);
      setYield(b, loc, starting.elseBlock(), kept);
      carriedNext.assign(starting.getResults().begin(), starting.getResults().begin() + numCarried);
      innerStart.assign(starting.getResults().begin() + numCarried, starting.getResults().end());
    }
    Value jjNext = arith::SelectOp::create(b, loc, last, zero,
                                           arith::AddIOp::create(b, loc, jj, one).getResult());
    SmallVector<Value> yields{arith::SelectOp::create(b, loc, last, iNext, i), jjNext};
    llvm::append_range(yields, outerNext);
    llvm::append_range(yields, carriedNext);
    llvm::append_range(yields, innerStart);
    scf::YieldOp::create(b, loc, yields);
  }
  setYield(b, loc, versions.thenBlock(), flat.getResults().slice(2, numOuter));

  outer.replaceAllUsesWith(versions.getResults());
  outer.erase();
}

struct TkFlattenLoopsPass : tk::impl::TkFlattenLoopsBase<TkFlattenLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> marked;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kFlatten))
        marked.push_back(loop);
    });
    // Inner nests first (post-order). A nest around a flattened one is left as it is: its body
    // then holds the scf.if that chooses between the flattened loop and the plain nest.
    for (scf::ForOp outer : marked) {
      outer->removeAttr(kFlatten);
      moveLoopInvariantCode(cast<LoopLikeOpInterface>(outer.getOperation()));
      if (scf::ForOp inner = findInnerLoop(outer))
        flatten(outer, inner);
    }
  }
};

} // namespace

/// @file tk-pipeline: `num_stages` software pipelining of the loops that feed tensor-core dots
/// (Triton's loop pipeliner for mma.sync): the global loads of a dot's operands run
/// num_stages - 1 iterations ahead, as asynchronous copies (`cp.async`) into a ring of
/// num_stages shared-memory tiles, while the tensor cores work on the tile loaded earlier.
///
/// Which loads. A tk.load directly in an scf.for body whose one user is a
/// tkgpu.convert_layout to a `#tkgpu.dot_operand` layout (tk-accelerate-matmul's) in the same
/// body, such that:
///  - its pointers are a rank-2 tensor in a blocked layout, and a thread's elements form vectors
///    of 4, 8 or 16 bytes (AxisInfo, as the load's own lowering would vectorize them);
///  - masked-off elements may read as zero (no `other`, or a zero `other`): cp.async fills them
///    with zeros;
///  - the operand can be read from the swizzled tile (Layout.h's canLoadDotOperandFromShared:
///    ldmatrix, or one element at a time for tf32 operands ldmatrix cannot transpose);
///  - its address and mask depend on no load and no value the dot computes: they are computed
///    from the induction variable, loop-carried pointers and offsets, and values from outside.
/// Other loops, and loops with none of those loads, are left as they are: a loop without a dot
/// gains nothing from the tensor cores waiting less, and its loads are already overlapped by
/// the warps of other programs. num_stages = 1 turns the pass off.
///
/// The rewrite. Before the loop, one `tkgpu.local_alloc` of num_stages tiles per load. In the
/// body, each load becomes a tkgpu.async_copy_global_to_local into slot
/// (iteration % num_stages), followed by one tkgpu.async_commit_group; each conversion becomes a
/// tkgpu.local_load of that slot, after a tkgpu.async_wait. Then the loop is split into two
/// stages with MLIR's loop pipeliner (scf::pipelineForLoop):
///  - stage 0: the copies, the commit and every op their addresses and masks depend on (within
///    the body, and through loop-carried values: the pointer increments);
///  - stage num_stages - 1: the rest (the wait, the local loads, the dot, the epilogue math).
/// The prologue starts the copies of iterations 0 .. num_stages - 2. Iteration i of the
/// pipelined loop runs, in this order:
///   async_wait (num_stages - 2)   -- the copy of iteration i has landed; barrier
///   copies of iteration i + num_stages - 1, commit   -- into the slot iteration i - 1 read
///   local loads of slot i % num_stages, dot, ...
/// The wait's barrier also orders every thread's reads of iteration i - 1 before the copies
/// that overwrite that slot. The last num_stages - 1 iterations start no copies: the
/// pipeliner predicates stage 0 off there (the copies' masks become false: no global read,
/// and the copy groups stay empty), as it does in the prologue when the loop may run fewer
/// than num_stages - 1 iterations. After the loop an async_wait 0 drains every group before
/// the shared memory is used for anything else.
#include "Analysis/AxisInfo.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKPIPELINE
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// A load to pipeline and the conversion that feeds its value to a dot.
struct Candidate {
  tk::LoadOp load;
  ConvertLayoutOp convert;
  SharedEncodingAttr shared;
};

bool isZero(Value value) {
  return matchPattern(value, m_Zero()) || matchPattern(value, m_AnyZeroFloat());
}

/// The loads of `loop` to pipeline (the file comment's conditions but the last, which
/// stageZeroOps checks for the loop as a whole).
SmallVector<Candidate> findCandidates(scf::ForOp loop, const tk::AxisInfoResult &axisInfo) {
  SmallVector<Candidate> candidates;
  for (auto load : loop.getBody()->getOps<tk::LoadOp>()) {
    if (!load.getResult().hasOneUse())
      continue;
    auto convert = dyn_cast<ConvertLayoutOp>(*load.getResult().getUsers().begin());
    if (!convert || convert->getBlock() != loop.getBody() ||
        !isa_and_nonnull<DotOperandEncodingAttr>(convert.getType().getEncoding()))
      continue;
    auto ptrType = dyn_cast<RankedTensorType>(load.getPtr().getType());
    auto blocked = ptrType ? dyn_cast_or_null<BlockedEncodingAttr>(ptrType.getEncoding()) : nullptr;
    if (!blocked || ptrType.getRank() != 2 || (load.getOther() && !isZero(load.getOther())))
      continue;
    Type element = convert.getType().getElementType();
    if (!element.isIntOrFloat())
      continue;
    const unsigned bits = element.getIntOrFloatBitWidth();
    SharedEncodingAttr shared = getDotOperandSharedEncoding(convert.getType(), blocked.getOrder());
    if (!canLoadDotOperandFromShared(convert.getType(), shared))
      continue;
    const unsigned fastest = blocked.getOrder()[0];
    SmallVector<unsigned, 4> order = axisInfo.getOrder(load.getPtr());
    if (order.empty() || order[0] != fastest)
      continue;
    const unsigned width =
        std::min(axisInfo.getVectorWidth(load.getOperation()), blocked.getSizePerThread()[fastest]);
    const unsigned bytes = width * bits / 8;
    if (bytes != 4 && bytes != 8 && bytes != 16)
      continue;
    candidates.push_back({load, convert, shared});
  }
  return candidates;
}

/// The body's ops the candidates' addresses and masks depend on, through loop-carried values
/// too (an iteration argument's next value), with the loads themselves; empty when one of them
/// reads or writes memory or is a dot's input conversion (the loop cannot be pipelined).
llvm::SetVector<Operation *> stageZeroOps(scf::ForOp loop, MutableArrayRef<Candidate> candidates) {
  Block *body = loop.getBody();
  llvm::SetVector<Operation *> ops;
  SmallVector<Value> work;
  for (Candidate &c : candidates) {
    ops.insert(c.load);
    work.append(c.load->getOperands().begin(), c.load->getOperands().end());
  }
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == body && arg.getArgNumber() > 0) // an iteration argument
        work.push_back(yield.getOperand(arg.getArgNumber() - 1));
      continue;
    }
    Operation *def = body->findAncestorOpInBlock(*value.getDefiningOp());
    if (!def || def == yield || !ops.insert(def))
      continue;
    if (!isMemoryEffectFree(def))
      return {};
    def->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        work.push_back(operand);
    });
  }
  return ops;
}

/// `(iv - lb) / step % stages`, the ring slot of the iteration, as an i32.
Value emitSlot(OpBuilder &b, Location loc, scf::ForOp loop, unsigned stages) {
  Value iv = loop.getInductionVar();
  Type type = iv.getType();
  Value iteration = arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, iv, loop.getLowerBound()), loop.getStep());
  Value slot = arith::RemSIOp::create(
      b, loc, iteration, arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, stages)));
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), slot);
  if (type.getIntOrFloatBitWidth() != 32)
    return arith::TruncIOp::create(b, loc, b.getI32Type(), slot);
  return slot;
}

/// The copy's mask and-ed with `predicate` (the pipeliner's, for iterations past the end);
/// other ops stage 0 holds compute values only and run as they are.
Operation *predicate(RewriterBase &rewriter, Operation *op, Value predicate) {
  auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op);
  if (!copy)
    return isa<AsyncCommitGroupOp>(op) || isMemoryEffectFree(op) ? op : nullptr;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(copy);
  RankedTensorType ptrType = copy.getPtr().getType();
  auto maskType =
      RankedTensorType::get(ptrType.getShape(), rewriter.getI1Type(), ptrType.getEncoding());
  Value mask = tk::SplatOp::create(rewriter, copy.getLoc(), maskType, predicate);
  if (copy.getMask())
    mask = arith::AndIOp::create(rewriter, copy.getLoc(), copy.getMask(), mask);
  rewriter.modifyOpInPlace(copy, [&] { copy.getMaskMutable().assign(mask); });
  return copy;
}

/// Rewrites the loads and conversions of `loop` into copies and local loads, then pipelines it
/// (the file comment). Leaves the loop unchanged when it cannot be pipelined.
void pipelineLoop(scf::ForOp loop, MutableArrayRef<Candidate> candidates, unsigned stages) {
  Block *body = loop.getBody();
  // The pipeliner's own preconditions: every yielded value defined by an op of the body.
  for (Value yielded : body->getTerminator()->getOperands())
    if (!yielded.getDefiningOp() || yielded.getDefiningOp()->getBlock() != body)
      return;
  llvm::SetVector<Operation *> stageZero = stageZeroOps(loop, candidates);
  if (stageZero.empty())
    return;
  for (Candidate &c : candidates)
    if (stageZero.contains(c.convert))
      return;

  IRRewriter rewriter(loop.getContext());
  Location loc = loop.getLoc();
  // The buffers, before the loop.
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> buffers;
  for (Candidate &c : candidates) {
    auto type = cast<RankedTensorType>(c.load.getType());
    SmallVector<int64_t> shape{int64_t(stages)};
    shape.append(type.getShape().begin(), type.getShape().end());
    buffers.push_back(LocalAllocOp::create(
        rewriter, c.load.getLoc(),
        MemDescType::get(loop.getContext(), shape, type.getElementType(), c.shared)));
  }
  auto tileType = [&](size_t i) {
    auto type = cast<MemDescType>(buffers[i].getType());
    return MemDescType::get(loop.getContext(), type.getShape().drop_front(), type.getElementType(),
                            type.getEncoding());
  };

  // Loads -> copies into the iteration's slot (in stage 0 with what they compute), then one
  // commit after the last copy (candidates are in body order).
  Operation *lastCopy = nullptr;
  for (auto [i, c] : llvm::enumerate(candidates)) {
    Operation *previous = c.load->getPrevNode();
    rewriter.setInsertionPoint(c.load);
    Value slot = emitSlot(rewriter, c.load.getLoc(), loop, stages);
    Value tile = MemDescIndexOp::create(rewriter, c.load.getLoc(), tileType(i), buffers[i], slot);
    lastCopy = AsyncCopyGlobalToLocalOp::create(rewriter, c.load.getLoc(), c.load.getPtr(), tile,
                                                c.load.getMask());
    for (Operation *op = previous ? previous->getNextNode() : &body->front(); op != c.load;
         op = op->getNextNode())
      stageZero.insert(op);
  }
  rewriter.setInsertionPointAfter(lastCopy);
  stageZero.insert(AsyncCommitGroupOp::create(rewriter, loc));

  // Conversions -> local loads of the iteration's slot, after one wait at the top of the body.
  rewriter.setInsertionPointToStart(body);
  auto wait = AsyncWaitOp::create(rewriter, loc, stages - 2);
  for (auto [i, c] : llvm::enumerate(candidates)) {
    rewriter.setInsertionPoint(c.convert);
    Value slot = emitSlot(rewriter, c.convert.getLoc(), loop, stages);
    Value tile =
        MemDescIndexOp::create(rewriter, c.convert.getLoc(), tileType(i), buffers[i], slot);
    rewriter.replaceOpWithNewOp<LocalLoadOp>(c.convert, c.convert.getType(), tile);
  }
  for (Candidate &c : candidates) {
    stageZero.remove(c.load);
    rewriter.eraseOp(c.load);
  }

  // The schedule: the wait, stage 0 in body order, the rest in body order.
  const unsigned last = stages - 1;
  scf::PipeliningOption options;
  options.getScheduleFn = [&](scf::ForOp forOp,
                              std::vector<std::pair<Operation *, unsigned>> &schedule) {
    schedule.emplace_back(wait, last);
    for (Operation &op : forOp.getBody()->without_terminator())
      if (stageZero.contains(&op))
        schedule.emplace_back(&op, 0);
    for (Operation &op : forOp.getBody()->without_terminator())
      if (&op != wait && !stageZero.contains(&op))
        schedule.emplace_back(&op, last);
  };
  options.peelEpilogue = false;
  options.supportDynamicLoops = true;
  options.predicateFn = predicate;
  rewriter.setInsertionPoint(loop);
  FailureOr<scf::ForOp> pipelined = scf::pipelineForLoop(rewriter, loop, options);
  if (failed(pipelined)) {
    // Checked above; the pipeliner's remaining refusals concern loops this pass never builds.
    loop.emitError("tk-pipeline: the loop could not be pipelined");
    return;
  }
  rewriter.setInsertionPointAfter(*pipelined);
  AsyncWaitOp::create(rewriter, loc, 0);
}

struct TkPipelinePass : tkgpu::impl::TkPipelineBase<TkPipelinePass> {
  using TkPipelineBase::TkPipelineBase;

  void runOnOperation() override {
    if (numStages < 2)
      return;
    ModuleOp module = getOperation();
    tk::AxisInfoResult axisInfo(module);
    if (!axisInfo.succeeded())
      return;
    // Every loop's candidates first: the analysis describes the IR before any rewrite.
    SmallVector<std::pair<scf::ForOp, SmallVector<Candidate>>> loops;
    module.walk([&](scf::ForOp loop) {
      SmallVector<Candidate> candidates = findCandidates(loop, axisInfo);
      if (!candidates.empty())
        loops.emplace_back(loop, std::move(candidates));
    });
    for (auto &[loop, candidates] : loops)
      pipelineLoop(loop, candidates, numStages);
  }
};

} // namespace

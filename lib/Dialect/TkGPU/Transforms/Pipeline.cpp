/// @file tk-pipeline: `num_stages` software pipelining of the loops that feed tensor-core dots
/// (Triton's loop pipeliner for mma.sync): the global loads of a dot's operands run
/// num_stages - 1 iterations ahead, as asynchronous copies (`cp.async`) into a ring of
/// shared-memory tiles, while the tensor cores work on the tile loaded earlier.
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
/// The ring. With num_stages tiles per load, the copies of iteration i + num_stages - 1 go
/// into the slot iteration i - 1 read, as soon as iteration i starts: the barrier of the wait
/// that starts it has freed that slot. With num_stages - 1 tiles, as Triton has them, they go
/// into the slot iteration i itself reads, after a second barrier once every thread has its
/// operands in registers: a tile less of shared memory per load, for a second barrier and
/// copies that start after the dot instead of before it. The smaller ring is chosen (from
/// num_stages = 3) when the larger does not fit in a block, or when it lets more programs
/// share a multiprocessor than the larger ring does, up to the programs its registers allow
/// for certain (255 registers a thread: two of 4 warps, one of 8), and whenever that is one
/// program: then no other program's warps run while a program issues its copies, and after the
/// dot the tensor cores are busy meanwhile (f16 128 x 256 x 64 on 8 warps: 373 -> 395 TFLOP/s
/// at 4096^3 on the H200). 128 x 128 x 32 tf32 tiles at
/// num_stages = 4 take 128 KiB as four tiles, one program per H100 multiprocessor, and 96 KiB
/// as three, two programs: 150 -> 183 TFLOP/s on the H200. 128 x 128 x 32 f16 tiles (64 KiB
/// as four) already fit three programs, and the larger ring's earlier copies run faster.
///
/// The rewrite. Before the loop, one `tkgpu.local_alloc` of the ring per load. In the body,
/// each load becomes a tkgpu.async_copy_global_to_local into slot (iteration % tiles), followed
/// by one tkgpu.async_commit_group; each conversion becomes a tkgpu.local_load of that slot,
/// after a tkgpu.async_wait. Then the loop is split into two stages with MLIR's loop pipeliner
/// (scf::pipelineForLoop):
///  - stage 0: the copies, the commit and every op their addresses and masks depend on (within
///    the body, and through loop-carried values: the pointer increments);
///  - stage num_stages - 1: the rest (the wait, the local loads, the dot, the epilogue math).
/// The prologue starts the copies of iterations 0 .. num_stages - 2. Iteration i of the
/// pipelined loop runs, in this order:
///   async_wait (num_stages - 2)   -- the copy of iteration i has landed; barrier
///   copies of iteration i + num_stages - 1, commit    -- the larger ring
///   local loads of slot i % tiles, dot, the rest of the body
///   barrier                       -- every thread has read slot i % tiles; the smaller ring
///   copies of iteration i + num_stages - 1 into that slot, commit   -- the smaller ring
/// The last num_stages - 1
/// iterations start no copies: the pipeliner predicates stage 0 off there (the copies' masks
/// become false: no global read, and the copy groups stay empty), as it does in the prologue
/// when the loop may run fewer than num_stages - 1 iterations. After the loop an async_wait 0
/// drains every group before the shared memory is used for anything else.
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

/// A load to pipeline and the op that feeds its value to a dot: a conversion to a dot operand
/// layout (mma.sync), or a tkgpu.local_alloc read by tkgpu.warp_group_dot (wgmma).
struct Candidate {
  tk::LoadOp load;
  Operation *use;
  SharedEncodingAttr shared;
  bool isWgmma() const { return isa<LocalAllocOp>(use); }
};

/// The shared layout a load's single user reads its value from: a conversion to a dot operand
/// layout that can read from a tile (mma.sync), or a local_alloc of a tile that only
/// warp_group_dot ops read (wgmma); null otherwise.
SharedEncodingAttr getOperandTileLayout(Operation *use, BlockedEncodingAttr blocked) {
  if (auto convert = dyn_cast<ConvertLayoutOp>(use)) {
    if (!isa_and_nonnull<DotOperandEncodingAttr>(convert.getType().getEncoding()) ||
        !convert.getType().getElementType().isIntOrFloat())
      return {};
    SharedEncodingAttr shared = getDotOperandSharedEncoding(convert.getType(), blocked.getOrder());
    return canLoadDotOperandFromShared(convert.getType(), shared) ? shared : SharedEncodingAttr();
  }
  auto alloc = dyn_cast<LocalAllocOp>(use);
  if (!alloc || alloc.getType().getRank() != 2 ||
      !llvm::all_of(alloc->getUsers(), [](Operation *user) { return isa<WarpGroupDotOp>(user); }))
    return {};
  return alloc.getType().getEncoding();
}

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
    Operation *use = *load.getResult().getUsers().begin();
    if (use->getBlock() != loop.getBody())
      continue;
    auto ptrType = dyn_cast<RankedTensorType>(load.getPtr().getType());
    auto blocked = ptrType ? dyn_cast_or_null<BlockedEncodingAttr>(ptrType.getEncoding()) : nullptr;
    if (!blocked || ptrType.getRank() != 2 || (load.getOther() && !isZero(load.getOther())))
      continue;
    SharedEncodingAttr shared = getOperandTileLayout(use, blocked);
    if (!shared)
      continue;
    const unsigned bits =
        cast<RankedTensorType>(load.getType()).getElementType().getIntOrFloatBitWidth();
    const unsigned fastest = blocked.getOrder()[0];
    if (shared.getOrder()[0] != fastest)
      continue;
    SmallVector<unsigned, 4> order = axisInfo.getOrder(load.getPtr());
    if (order.empty() || order[0] != fastest)
      continue;
    const unsigned width =
        std::min(axisInfo.getVectorWidth(load.getOperation()), blocked.getSizePerThread()[fastest]);
    const unsigned bytes = width * bits / 8;
    if (bytes != 4 && bytes != 8 && bytes != 16)
      continue;
    candidates.push_back({load, use, shared});
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

/// `(iv - lb) / step % tiles`, the ring slot of the iteration, as an i32.
Value emitSlot(OpBuilder &b, Location loc, scf::ForOp loop, unsigned tiles) {
  Value iv = loop.getInductionVar();
  Type type = iv.getType();
  Value iteration = arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, iv, loop.getLowerBound()), loop.getStep());
  Value slot = arith::RemSIOp::create(
      b, loc, iteration, arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, tiles)));
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
    return isa<AsyncCommitGroupOp, BarrierOp>(op) || isMemoryEffectFree(op) ? op : nullptr;
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

/// The tile type of a candidate's ring.
MemDescType getTileType(Candidate c) {
  auto type = cast<RankedTensorType>(c.load.getType());
  return MemDescType::get(c.load.getContext(), type.getShape(), type.getElementType(), c.shared);
}

/// The ring's length, `stages` or `stages - 1` tiles (the file comment's rule).
unsigned chooseRingTiles(ArrayRef<Candidate> candidates, unsigned stages, unsigned numWarps,
                         uint64_t sharedPerMultiprocessor) {
  constexpr uint64_t kMaxSharedPerBlock = 227 * 1024, kReservedPerBlock = 1024;
  if (llvm::any_of(candidates, [](const Candidate &c) { return c.isWgmma(); })) {
    // wgmma: a tile per stage, so that one product stays in flight; one less (the products
    // waited for at once) only where those do not fit.
    uint64_t bytes = 0;
    for (const Candidate &c : candidates) {
      MemDescType tile = getTileType(c);
      bytes +=
          uint64_t(tile.getAllocElements()) * tile.getElementType().getIntOrFloatBitWidth() / 8;
    }
    return stages * bytes > kMaxSharedPerBlock ? stages - 1 : stages;
  }
  if (stages < 3)
    return 2;
  constexpr uint64_t kRegisters = 64 * 1024, kMaxRegistersPerThread = 256;
  uint64_t tileBytes = 0;
  for (const Candidate &c : candidates) {
    MemDescType tile = getTileType(c);
    tileBytes +=
        uint64_t(tile.getAllocElements()) * tile.getElementType().getIntOrFloatBitWidth() / 8;
  }
  auto programs = [&](unsigned tiles) {
    return sharedPerMultiprocessor / (tiles * tileBytes + kReservedPerBlock);
  };
  const uint64_t byRegisters =
      std::max<uint64_t>(1, kRegisters / (uint64_t(numWarps) * 32 * kMaxRegistersPerThread));
  if (stages * tileBytes > kMaxSharedPerBlock || byRegisters == 1 ||
      programs(stages) < std::min(programs(stages - 1), byRegisters))
    return stages - 1;
  return stages;
}

/// Makes the warp_group_dot ops of `loop`'s body whose only use is to be carried to the next
/// iteration, as the accumulator of that same op and nothing else, asynchronous: each is
/// followed by a warp_group_dot_wait with one group pending, whose result is carried instead.
/// Returns the numbers of the loop results they carry (waited for after the loop).
SmallVector<unsigned> makeDotsAsync(RewriterBase &rewriter, scf::ForOp loop) {
  SmallVector<unsigned> carried;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto dot : llvm::make_early_inc_range(loop.getBody()->getOps<WarpGroupDotOp>())) {
    if (!dot.getResult().hasOneUse() || *dot.getResult().getUsers().begin() != yield)
      continue;
    const unsigned i = dot.getResult().getUses().begin()->getOperandNumber();
    BlockArgument arg = loop.getRegionIterArg(i);
    if (!arg.hasOneUse() || dot.getC() != arg)
      continue;
    rewriter.setInsertionPointAfter(dot);
    rewriter.modifyOpInPlace(dot, [&] { dot.setIsAsync(true); });
    auto waited = WarpGroupDotWaitOp::create(rewriter, dot.getLoc(), ValueRange{dot.getResult()},
                                             /*pendings=*/1);
    rewriter.modifyOpInPlace(yield, [&] { yield.setOperand(i, waited.getResult(0)); });
    carried.push_back(i);
  }
  return carried;
}

/// Rewrites the loads and conversions of `loop` into copies and local loads, then pipelines it
/// (the file comment). Leaves the loop unchanged when it cannot be pipelined.
void pipelineLoop(scf::ForOp loop, MutableArrayRef<Candidate> candidates, unsigned stages,
                  unsigned tiles) {
  Block *body = loop.getBody();
  // The pipeliner's own preconditions: every yielded value defined by an op of the body.
  for (Value yielded : body->getTerminator()->getOperands())
    if (!yielded.getDefiningOp() || yielded.getDefiningOp()->getBlock() != body)
      return;
  llvm::SetVector<Operation *> stageZero = stageZeroOps(loop, candidates);
  if (stageZero.empty())
    return;
  for (Candidate &c : candidates)
    if (stageZero.contains(c.use))
      return;

  IRRewriter rewriter(loop.getContext());
  Location loc = loop.getLoc();
  // The rings, before the loop. wgmma reads the tiles where they are, until it completes: its
  // copies always come after the products that read the slot they overwrite.
  const bool wgmma = llvm::any_of(candidates, [](const Candidate &c) { return c.isWgmma(); });
  const bool copiesAfterUse = wgmma || tiles < stages;
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> buffers;
  for (Candidate &c : candidates) {
    auto type = cast<RankedTensorType>(c.load.getType());
    SmallVector<int64_t> shape{int64_t(tiles)};
    shape.append(type.getShape().begin(), type.getShape().end());
    buffers.push_back(LocalAllocOp::create(
        rewriter, c.load.getLoc(),
        MemDescType::get(loop.getContext(), shape, type.getElementType(), c.shared),
        /*src=*/Value()));
  }
  auto tileType = [&](size_t i) {
    auto type = cast<MemDescType>(buffers[i].getType());
    return MemDescType::get(loop.getContext(), type.getShape().drop_front(), type.getElementType(),
                            type.getEncoding());
  };

  // Loads -> copies into the iteration's slot (in stage 0 with what they compute), then one
  // commit after the last copy (candidates are in body order). When the copies overwrite the
  // slot the same iteration reads, a barrier comes first.
  Operation *lastCopy = nullptr;
  for (auto [i, c] : llvm::enumerate(candidates)) {
    Operation *previous = c.load->getPrevNode();
    rewriter.setInsertionPoint(c.load);
    if (copiesAfterUse && i == 0)
      BarrierOp::create(rewriter, c.load.getLoc());
    Value slot = emitSlot(rewriter, c.load.getLoc(), loop, tiles);
    Value tile = MemDescIndexOp::create(rewriter, c.load.getLoc(), tileType(i), buffers[i], slot);
    lastCopy = AsyncCopyGlobalToLocalOp::create(rewriter, c.load.getLoc(), c.load.getPtr(), tile,
                                                c.load.getMask());
    for (Operation *op = previous ? previous->getNextNode() : &body->front(); op != c.load;
         op = op->getNextNode())
      stageZero.insert(op);
  }
  rewriter.setInsertionPointAfter(lastCopy);
  stageZero.insert(AsyncCommitGroupOp::create(rewriter, loc));

  // Conversions -> local loads of the iteration's slot, after one wait at the top of the body;
  // wgmma's tiles -> the slot itself.
  rewriter.setInsertionPointToStart(body);
  auto wait = AsyncWaitOp::create(rewriter, loc, stages - 2);
  if (wgmma)
    wait.setAsyncProxy(true);
  for (auto [i, c] : llvm::enumerate(candidates)) {
    rewriter.setInsertionPoint(c.use);
    Value slot = emitSlot(rewriter, c.use->getLoc(), loop, tiles);
    Value tile = MemDescIndexOp::create(rewriter, c.use->getLoc(), tileType(i), buffers[i], slot);
    if (c.isWgmma())
      rewriter.replaceOp(c.use, tile);
    else
      rewriter.replaceOpWithNewOp<LocalLoadOp>(c.use, c.use->getResult(0).getType(), tile);
  }
  for (Candidate &c : candidates) {
    stageZero.remove(c.load);
    rewriter.eraseOp(c.load);
  }
  // With a slot more than the copies in flight, the products run while the next iteration
  // starts: wait(1) leaves the latest in flight (its accumulator goes straight to the next).
  SmallVector<unsigned> asyncResults =
      wgmma && tiles == stages ? makeDotsAsync(rewriter, loop) : SmallVector<unsigned>();

  // The schedule: the wait, then stage 0 and the rest, each in body order: stage 0 first
  // with a ring of num_stages tiles, last with a ring of num_stages - 1.
  const unsigned last = stages - 1;
  scf::PipeliningOption options;
  options.getScheduleFn = [&](scf::ForOp forOp,
                              std::vector<std::pair<Operation *, unsigned>> &schedule) {
    schedule.emplace_back(wait, last);
    auto addStage = [&](bool zero) {
      for (Operation &op : forOp.getBody()->without_terminator())
        if (&op != wait && stageZero.contains(&op) == zero)
          schedule.emplace_back(&op, zero ? 0 : last);
    };
    addStage(/*zero=*/!copiesAfterUse);
    addStage(/*zero=*/copiesAfterUse);
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
  if (!asyncResults.empty()) {
    SmallVector<Value> results;
    for (unsigned i : asyncResults)
      results.push_back(pipelined->getResult(i));
    auto done = WarpGroupDotWaitOp::create(rewriter, loc, results, /*pendings=*/0);
    for (auto [i, result] : llvm::zip(asyncResults, done.getResults()))
      rewriter.replaceAllUsesExcept(pipelined->getResult(i), result, done);
  }
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
    const unsigned numWarps = TkGPUDialect::getModuleNumWarps(module);
    for (auto &[loop, candidates] : loops)
      pipelineLoop(
          loop, candidates, numStages,
          chooseRingTiles(candidates, numStages, std::max(numWarps, 1u), sharedPerMultiprocessor));
  }
};

} // namespace

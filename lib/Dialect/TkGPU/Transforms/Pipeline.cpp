/// @file Pipeline.cpp
/// tk-pipeline: `num_stages` software pipelining of the loops that feed tensor-core dots
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
/// A loop's own `tk.num_stages` (tk::range_options, Triton's `tl.range(num_stages=...)`) takes
/// the place of the pass's option for that loop: 1 leaves it unpipelined, 4 pipelines it four
/// stages deep in a kernel of three. The pipelined loop keeps the loop's other `tk.` attributes
/// (tk-unroll-loops's `tk.loop_unroll_factor`).
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
///
/// Outside loops, at any num_stages: the wgmma tiles of one value share one tile
/// (shareOperandTiles), and a descriptor load at the top level that only fills such a tile is a
/// TMA copy straight into it (loadTileDirectly).
#include "Analysis/AxisInfo.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"
#include "Dialect/TkGPU/IR/TensorMap.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKPIPELINE
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// A load to pipeline and the op that feeds its value to a dot: a conversion to a dot operand
/// layout (mma.sync), or a tkgpu.local_alloc read by tkgpu.warp_group_dot (wgmma). The load is
/// a tk.load (copied by cp.async), or a tk.descriptor_load of a tensor map (copied by TMA; its
/// tile may be the block's transpose, through a tk.trans between load and local_alloc).
struct Candidate {
  Operation *load;
  Operation *use;
  SharedEncodingAttr shared;
  tk::TransOp trans = nullptr; // TMA: the transpose the tile holds the block as
  bool isWgmma() const { return isa<LocalAllocOp>(use); }
  bool isTma() const { return isa<tk::DescriptorLoadOp>(load); }
  /// The ring's tile: the local_alloc's (wgmma), or the loaded block's shape.
  MemDescType tileType() const {
    if (auto alloc = dyn_cast<LocalAllocOp>(use))
      return alloc.getType();
    auto type = cast<RankedTensorType>(load->getResult(0).getType());
    return MemDescType::get(load->getContext(), type.getShape(), type.getElementType(), shared);
  }
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
/// The TMA candidate of `load`, a tk.descriptor_load of a tensor-map argument whose block (or
/// its tk.trans) only goes to a wgmma tile that TMA can fill; none otherwise.
std::optional<Candidate> findTmaCandidate(tk::DescriptorLoadOp load, Block *body) {
  auto arg = dyn_cast<BlockArgument>(load.getDesc());
  auto func = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()) : nullptr;
  if (!func || !func.getArgAttr(arg.getArgNumber(), TensorMapRecipe::attrName) ||
      !load.getResult().hasOneUse())
    return std::nullopt;
  Operation *use = *load.getResult().getUsers().begin();
  auto trans = dyn_cast<tk::TransOp>(use);
  if (trans) {
    if (!trans.getResult().hasOneUse() || trans->getBlock() != body)
      return std::nullopt;
    use = *trans.getResult().getUsers().begin();
  }
  auto alloc = dyn_cast<LocalAllocOp>(use);
  if (!alloc || alloc->getBlock() != body ||
      !llvm::all_of(alloc->getUsers(), [](Operation *u) { return isa<WarpGroupDotOp>(u); }) ||
      !getTmaTileBoxes(alloc.getType(), load.getType().getShape()))
    return std::nullopt;
  return Candidate{load, alloc, alloc.getType().getEncoding(), trans};
}

SmallVector<Candidate> findCandidates(scf::ForOp loop, const tk::AxisInfoResult &axisInfo) {
  SmallVector<Candidate> candidates;
  // Loads issued an iteration early would move across the atomics of the iterations between,
  // which may be what orders them (a lock, a counter other programs wait on).
  if (loop->walk([](Operation *op) {
            return isa<tk::AtomicRMWOp, tk::AtomicCASOp>(op) ? WalkResult::interrupt()
                                                             : WalkResult::advance();
          })
          .wasInterrupted())
    return candidates;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto load = dyn_cast<tk::DescriptorLoadOp>(op)) {
      if (std::optional<Candidate> c = findTmaCandidate(load, loop.getBody()))
        candidates.push_back(*c);
      continue;
    }
    auto load = dyn_cast<tk::LoadOp>(op);
    // A volatile load reads memory when the program reaches it: never issued iterations early.
    if (!load || load.getIsVolatile())
      continue;
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
  if (auto tma = dyn_cast<AsyncTMACopyGlobalToLocalOp>(op)) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(tma);
    Value pred = tma.getPred()
                     ? arith::AndIOp::create(rewriter, tma.getLoc(), tma.getPred(), predicate)
                     : predicate;
    rewriter.modifyOpInPlace(tma, [&] { tma.getPredMutable().assign(pred); });
    return tma;
  }
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

/// The ring's length, `stages` or `stages - 1` tiles (the file comment's rule).
unsigned chooseRingTiles(ArrayRef<Candidate> candidates, unsigned stages, unsigned numWarps,
                         uint64_t sharedPerMultiprocessor, uint64_t maxSharedPerBlock) {
  constexpr uint64_t kReservedPerBlock = 1024;
  if (llvm::any_of(candidates, [](const Candidate &c) { return c.isWgmma(); })) {
    // wgmma: a tile per stage, so that one product stays in flight; one less (the products
    // waited for at once) only where those do not fit.
    uint64_t bytes = 0;
    for (const Candidate &c : candidates) {
      MemDescType tile = c.tileType();
      bytes +=
          uint64_t(tile.getAllocElements()) * tile.getElementType().getIntOrFloatBitWidth() / 8;
    }
    return stages * bytes > maxSharedPerBlock ? stages - 1 : stages;
  }
  if (stages < 3)
    return 2;
  constexpr uint64_t kRegisters = 64 * 1024, kMaxRegistersPerThread = 256;
  uint64_t tileBytes = 0;
  for (const Candidate &c : candidates) {
    MemDescType tile = c.tileType();
    tileBytes +=
        uint64_t(tile.getAllocElements()) * tile.getElementType().getIntOrFloatBitWidth() / 8;
  }
  auto programs = [&](unsigned tiles) {
    return sharedPerMultiprocessor / (tiles * tileBytes + kReservedPerBlock);
  };
  const uint64_t byRegisters =
      std::max<uint64_t>(1, kRegisters / (uint64_t(numWarps) * 32 * kMaxRegistersPerThread));
  if (stages * tileBytes > maxSharedPerBlock || byRegisters == 1 ||
      programs(stages) < std::min(programs(stages - 1), byRegisters))
    return stages - 1;
  return stages;
}

/// Makes the warp_group_dot ops of `loop`'s body whose result is only carried to the next
/// iteration asynchronous, and returns the numbers of the loop results they carry (waited for
/// after the loop). Two cases:
///  - the next iteration uses the value only as the accumulator of that same op (a matmul's K
///    loop): a warp_group_dot_wait with one group pending follows the op, and its result is
///    carried instead. The product runs while the next iteration starts and issues its own;
///  - the next iteration uses it otherwise (attention's `acc * alpha` before `P V`): a
///    warp_group_dot_wait with no group pending comes before the first of those uses. The
///    product runs across the end of the iteration: its copies, the barrier, the next one's
///    wait for its tiles and the products issued before that use.
/// Either way the wait for the product of iteration i comes before iteration i + 1's copies,
/// which overwrite the slot it read: those come last in the body (the ring of num_stages
/// tiles, which the caller requires). A product that reads a tile stored in the body itself
/// (tkgpu.local_alloc of a register value: weights dequantized before the product) stays
/// synchronous: one tile, written again in the next iteration, has no slot to spare. So does
/// one with max_num_imprecise_acc, which waits for each run of K to add it in f32.
SmallVector<unsigned> makeDotsAsync(RewriterBase &rewriter, scf::ForOp loop) {
  SmallVector<unsigned> carried;
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  auto storedInBody = [&](Value operand) {
    auto alloc = operand.getDefiningOp<LocalAllocOp>();
    return alloc && alloc->getBlock() == body;
  };
  for (auto dot : llvm::make_early_inc_range(body->getOps<WarpGroupDotOp>())) {
    if (!dot.getResult().hasOneUse() || *dot.getResult().getUsers().begin() != yield ||
        storedInBody(dot.getA()) || storedInBody(dot.getB()) || dot.getMaxNumImpreciseAcc())
      continue;
    const unsigned i = dot.getResult().getUses().begin()->getOperandNumber();
    BlockArgument arg = loop.getRegionIterArg(i);
    if (arg.hasOneUse() && dot.getC() == arg) {
      rewriter.setInsertionPointAfter(dot);
      rewriter.modifyOpInPlace(dot, [&] { dot.setIsAsync(true); });
      auto waited = WarpGroupDotWaitOp::create(rewriter, dot.getLoc(), ValueRange{dot.getResult()},
                                               /*pendings=*/1);
      rewriter.modifyOpInPlace(yield, [&] { yield.setOperand(i, waited.getResult(0)); });
      carried.push_back(i);
      continue;
    }
    // The first op of the body that uses the value, but the yield (which carries it on).
    Operation *firstUse = nullptr;
    for (Operation *user : arg.getUsers()) {
      Operation *op = body->findAncestorOpInBlock(*user);
      if (op && op != yield && (!firstUse || op->isBeforeInBlock(firstUse)))
        firstUse = op;
    }
    if (!firstUse)
      continue;
    rewriter.setInsertionPoint(firstUse);
    rewriter.modifyOpInPlace(dot, [&] { dot.setIsAsync(true); });
    auto waited = WarpGroupDotWaitOp::create(rewriter, dot.getLoc(), ValueRange{arg},
                                             /*pendings=*/0);
    rewriter.replaceAllUsesExcept(arg, waited.getResult(0), waited);
    carried.push_back(i);
  }
  return carried;
}

/// Whether `loop` can be pipelined with `candidates`: the pipeliner's own preconditions (every
/// yielded value defined by an op of the body) and the file comment's last condition.
bool canPipeline(scf::ForOp loop, MutableArrayRef<Candidate> candidates) {
  Block *body = loop.getBody();
  for (Value yielded : body->getTerminator()->getOperands())
    if (!yielded.getDefiningOp() || yielded.getDefiningOp()->getBlock() != body)
      return false;
  llvm::SetVector<Operation *> stageZero = stageZeroOps(loop, candidates);
  return !stageZero.empty() && llvm::none_of(candidates, [&](const Candidate &c) {
    return stageZero.contains(c.use) || (c.trans && stageZero.contains(c.trans));
  });
}

/// `((iv - lb) / step / tiles) % 2`, the parity of the phase of the slot's barrier that the
/// iteration waits for, as an i32.
Value emitPhase(OpBuilder &b, Location loc, scf::ForOp loop, unsigned tiles) {
  Value iv = loop.getInductionVar();
  Type type = iv.getType();
  auto constant = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
  };
  Value iteration = arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, iv, loop.getLowerBound()), loop.getStep());
  Value phase = arith::RemSIOp::create(
      b, loc, arith::DivSIOp::create(b, loc, iteration, constant(tiles)), constant(2));
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), phase);
  if (type.getIntOrFloatBitWidth() != 32)
    return arith::TruncIOp::create(b, loc, b.getI32Type(), phase);
  return phase;
}

/// Rewrites the loads and conversions of `loop` into copies and local loads, then pipelines it
/// (the file comment; canPipeline holds).
void pipelineLoop(scf::ForOp loop, MutableArrayRef<Candidate> candidates, unsigned stages,
                  unsigned tiles) {
  Block *body = loop.getBody();
  llvm::SetVector<Operation *> stageZero = stageZeroOps(loop, candidates);
  Operation *firstOfBody = &body->front();

  IRRewriter rewriter(loop.getContext());
  Location loc = loop.getLoc();
  // The rings, before the loop. wgmma reads the tiles where they are, until it completes: its
  // copies always come after the products that read the slot they overwrite.
  const bool wgmma = llvm::any_of(candidates, [](const Candidate &c) { return c.isWgmma(); });
  const unsigned tmaCopies =
      unsigned(llvm::count_if(candidates, [](const Candidate &c) { return c.isTma(); }));
  const bool cpAsync = tmaCopies < candidates.size();
  const bool copiesAfterUse = wgmma || tiles < stages;
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> buffers;
  for (Candidate &c : candidates) {
    MemDescType tile = c.tileType();
    SmallVector<int64_t> shape{int64_t(tiles)};
    shape.append(tile.getShape().begin(), tile.getShape().end());
    buffers.push_back(LocalAllocOp::create(
        rewriter, c.load->getLoc(),
        MemDescType::get(loop.getContext(), shape, tile.getElementType(), tile.getEncoding()),
        /*src=*/Value()));
  }
  auto tileType = [&](Value buffer) {
    auto type = cast<MemDescType>(buffer.getType());
    return MemDescType::get(loop.getContext(), type.getShape().drop_front(), type.getElementType(),
                            type.getEncoding());
  };
  // TMA: an mbarrier per slot, which each of the slot's copies arrives on once.
  Value barriers;
  if (tmaCopies) {
    auto barrierLayout = SharedEncodingAttr::get(loop.getContext(), 1, 1, 1, {1, 0}, 0, 0);
    barriers = LocalAllocOp::create(rewriter, loc,
                                    MemDescType::get(loop.getContext(), {int64_t(tiles), 1, 1},
                                                     rewriter.getI64Type(), barrierLayout),
                                    /*src=*/Value());
    for (unsigned slot = 0; slot < tiles; ++slot) {
      Value index = arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(slot));
      Value barrier = MemDescIndexOp::create(rewriter, loc, tileType(barriers), barriers, index);
      InitBarrierOp::create(rewriter, loc, barrier, tmaCopies);
    }
    BarrierOp::create(rewriter, loc);
  }

  // The waits the body starts with: for the cp.async groups, for the slot's barrier (TMA).
  rewriter.setInsertionPointToStart(body);
  if (cpAsync) {
    auto wait = AsyncWaitOp::create(rewriter, loc, stages - 2);
    if (wgmma)
      wait.setAsyncProxy(true);
  }
  if (tmaCopies) {
    Value slot = emitSlot(rewriter, loc, loop, tiles);
    Value barrier = MemDescIndexOp::create(rewriter, loc, tileType(barriers), barriers, slot);
    WaitBarrierOp::create(rewriter, loc, barrier, emitPhase(rewriter, loc, loop, tiles));
  }
  llvm::SmallPtrSet<Operation *, 8> waits;
  for (Operation *op = &body->front(); op != firstOfBody; op = op->getNextNode())
    waits.insert(op);

  // Loads -> copies into the iteration's slot (in stage 0 with what they compute), then one
  // commit after the last cp.async copy (candidates are in body order). When the copies
  // overwrite the slot the same iteration reads, a barrier comes first.
  Operation *lastCopy = nullptr;
  for (auto [i, c] : llvm::enumerate(candidates)) {
    Operation *previous = c.load->getPrevNode();
    Location at = c.load->getLoc();
    rewriter.setInsertionPoint(c.load);
    if (copiesAfterUse && i == 0)
      BarrierOp::create(rewriter, at);
    Value slot = emitSlot(rewriter, at, loop, tiles);
    Value tile = MemDescIndexOp::create(rewriter, at, tileType(buffers[i]), buffers[i], slot);
    if (auto load = dyn_cast<tk::DescriptorLoadOp>(c.load)) {
      Value barrier = MemDescIndexOp::create(rewriter, at, tileType(barriers), barriers, slot);
      AsyncTMACopyGlobalToLocalOp::create(rewriter, at, load.getDesc(), load.getIndices(), tile,
                                          barrier, /*pred=*/Value());
    } else {
      auto pointerLoad = cast<tk::LoadOp>(c.load);
      lastCopy = AsyncCopyGlobalToLocalOp::create(rewriter, at, pointerLoad.getPtr(), tile,
                                                  pointerLoad.getMask());
    }
    for (Operation *op = previous ? previous->getNextNode() : &body->front(); op != c.load;
         op = op->getNextNode())
      stageZero.insert(op);
  }
  if (lastCopy) {
    rewriter.setInsertionPointAfter(lastCopy);
    stageZero.insert(AsyncCommitGroupOp::create(rewriter, loc));
  }

  // Conversions -> local loads of the iteration's slot, after the waits; wgmma's tiles -> the
  // slot itself.
  for (auto [i, c] : llvm::enumerate(candidates)) {
    rewriter.setInsertionPoint(c.use);
    Value slot = emitSlot(rewriter, c.use->getLoc(), loop, tiles);
    Value tile =
        MemDescIndexOp::create(rewriter, c.use->getLoc(), tileType(buffers[i]), buffers[i], slot);
    if (c.isWgmma())
      rewriter.replaceOp(c.use, tile);
    else
      rewriter.replaceOpWithNewOp<LocalLoadOp>(c.use, c.use->getResult(0).getType(), tile);
  }
  for (Candidate &c : candidates) {
    if (c.trans)
      rewriter.eraseOp(c.trans);
    stageZero.remove(c.load);
    rewriter.eraseOp(c.load);
  }
  // With a slot more than the copies in flight, the products run while the next iteration
  // starts: wait(1) leaves the latest in flight (its accumulator goes straight to the next).
  SmallVector<unsigned> asyncResults =
      wgmma && tiles == stages ? makeDotsAsync(rewriter, loop) : SmallVector<unsigned>();

  // The schedule: the waits (what the body now starts with), then stage 0 and the rest, each in
  // body order: stage 0 first with a ring of num_stages tiles, last with a ring of
  // num_stages - 1.
  const unsigned last = stages - 1;
  scf::PipeliningOption options;
  options.getScheduleFn = [&](scf::ForOp forOp,
                              std::vector<std::pair<Operation *, unsigned>> &schedule) {
    for (Operation &op : forOp.getBody()->without_terminator())
      if (waits.contains(&op))
        schedule.emplace_back(&op, last);
    auto addStage = [&](bool zero) {
      for (Operation &op : forOp.getBody()->without_terminator())
        if (!waits.contains(&op) && stageZero.contains(&op) == zero)
          schedule.emplace_back(&op, zero ? 0 : last);
    };
    addStage(/*zero=*/!copiesAfterUse);
    addStage(/*zero=*/copiesAfterUse);
  };
  options.peelEpilogue = false;
  options.supportDynamicLoops = true;
  options.predicateFn = predicate;
  rewriter.setInsertionPoint(loop);
  SmallVector<NamedAttribute> loopAttrs =
      llvm::to_vector(llvm::make_filter_range(loop->getDiscardableAttrs(), [](NamedAttribute a) {
        return a.getName().strref().starts_with("tk.");
      }));
  FailureOr<scf::ForOp> pipelined = scf::pipelineForLoop(rewriter, loop, options);
  if (failed(pipelined)) {
    // canPipeline checked; the pipeliner's remaining refusals concern loops this pass never
    // builds.
    loop.emitError("tk-pipeline: the loop could not be pipelined");
    return;
  }
  for (NamedAttribute attr : loopAttrs)
    (*pipelined)->setAttr(attr.getName(), attr.getValue());
  rewriter.setInsertionPointAfter(*pipelined);
  if (!asyncResults.empty()) {
    SmallVector<Value> results;
    for (unsigned i : asyncResults)
      results.push_back(pipelined->getResult(i));
    auto done = WarpGroupDotWaitOp::create(rewriter, loc, results, /*pendings=*/0);
    for (auto [i, result] : llvm::zip(asyncResults, done.getResults()))
      rewriter.replaceAllUsesExcept(pipelined->getResult(i), result, done);
  }
  if (cpAsync)
    AsyncWaitOp::create(rewriter, loc, 0);
  // Every TMA copy issued was waited for in the loop; once no thread waits any more, the
  // barriers' bytes may serve another purpose.
  if (tmaCopies) {
    BarrierOp::create(rewriter, loc);
    for (unsigned slot = 0; slot < tiles; ++slot) {
      Value index = arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(slot));
      InvalBarrierOp::create(
          rewriter, loc,
          MemDescIndexOp::create(rewriter, loc, tileType(barriers), barriers, index));
    }
    BarrierOp::create(rewriter, loc);
  }
}

/// Drops the TMA candidates whose tensor map is also read otherwise (outside `loops`' candidates)
/// or into tiles of other boxes: a map has one swizzle and box. Returns each remaining map's
/// boxes, by argument.
llvm::DenseMap<BlockArgument, TmaTileBoxes>
keepConsistentTmaCandidates(MutableArrayRef<std::pair<scf::ForOp, SmallVector<Candidate>>> loops) {
  llvm::DenseMap<BlockArgument, SmallVector<std::pair<Operation *, TmaTileBoxes>>> uses;
  for (auto &[loop, candidates] : loops)
    for (Candidate &c : candidates)
      if (auto load = dyn_cast<tk::DescriptorLoadOp>(c.load))
        uses[cast<BlockArgument>(load.getDesc())].emplace_back(
            load, *getTmaTileBoxes(c.tileType(), load.getType().getShape()));
  llvm::DenseMap<BlockArgument, TmaTileBoxes> maps;
  llvm::SmallPtrSet<Operation *, 8> dropped;
  for (auto &[arg, loads] : uses) {
    const TmaTileBoxes &first = loads.front().second;
    const bool consistent =
        size_t(std::distance(arg.getUses().begin(), arg.getUses().end())) == loads.size() &&
        llvm::all_of(loads, [&](const auto &l) {
          return l.second.rows == first.rows && l.second.width == first.width &&
                 l.second.swizzleBytes == first.swizzleBytes;
        });
    if (consistent)
      maps[arg] = first;
    else
      for (auto &l : loads)
        dropped.insert(l.first);
  }
  for (auto &[loop, candidates] : loops)
    llvm::erase_if(candidates, [&](const Candidate &c) { return dropped.contains(c.load); });
  return maps;
}

/// Records in a tensor map's recipe (`tkgpu.tensor_map`) the box and swizzle its copies use.
void setTensorMapBoxes(BlockArgument arg, const TmaTileBoxes &boxes) {
  auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
  TensorMapRecipe recipe = *TensorMapRecipe::of(func, arg.getArgNumber());
  recipe.box = {int32_t(boxes.rows), int32_t(boxes.width)};
  recipe.swizzle = int32_t(boxes.swizzleBytes);
  func.setArgAttr(arg.getArgNumber(), TensorMapRecipe::attrName, recipe.toAttr(func.getContext()));
}

/// One tile for every wgmma tile of a value: tk-accelerate-matmul writes a value to shared
/// memory before each product that reads it (attention's Q, before each of its two loops).
/// Those tiles hold the same bytes and wgmma only reads them, so the first, moved to just after
/// the value is made, serves them all: the value is written once, and its registers are free
/// from there on instead of held across the first loop for the second one's tile.
void shareOperandTiles(ModuleOp module) {
  llvm::MapVector<Value, SmallVector<LocalAllocOp>> tiles;
  module.walk([&](LocalAllocOp alloc) {
    if (alloc.getSrc() && !alloc->use_empty() &&
        llvm::all_of(alloc->getUsers(), [](Operation *u) { return isa<WarpGroupDotOp>(u); }))
      tiles[alloc.getSrc()].push_back(alloc);
  });
  IRRewriter rewriter(module.getContext());
  for (auto &[value, allocs] : tiles) {
    if (allocs.size() < 2)
      continue;
    rewriter.setInsertionPointAfterValue(value);
    for (MemDescType type : llvm::SetVector<MemDescType>(
             llvm::from_range,
             llvm::map_range(allocs, [](LocalAllocOp a) { return a.getType(); }))) {
      Value shared = LocalAllocOp::create(rewriter, allocs.front().getLoc(), type, value);
      for (LocalAllocOp alloc : allocs)
        if (alloc.getType() == type)
          rewriter.replaceOp(alloc, shared);
    }
  }
}

/// A wgmma operand loaded once, outside any loop (attention's Q): a tk.descriptor_load at the
/// top level of the kernel, of a tensor map read nowhere else, whose block only goes, through
/// one or more tkgpu.local_alloc of one tile type, to warp_group_dot ops.
struct DirectTile {
  tk::DescriptorLoadOp load;
  SmallVector<LocalAllocOp> allocs;
  TmaTileBoxes boxes;
};

std::optional<DirectTile> findDirectTile(tk::DescriptorLoadOp load) {
  auto arg = dyn_cast<BlockArgument>(load.getDesc());
  auto func = dyn_cast<func::FuncOp>(load->getParentOp());
  if (!arg || !func || arg.getOwner() != &func.getBody().front() || !arg.hasOneUse() ||
      !func.getArgAttr(arg.getArgNumber(), TensorMapRecipe::attrName) ||
      load.getResult().use_empty())
    return std::nullopt;
  DirectTile tile{load, {}, {}};
  for (Operation *user : load.getResult().getUsers()) {
    auto alloc = dyn_cast<LocalAllocOp>(user);
    if (!alloc ||
        !llvm::all_of(alloc->getUsers(), [](Operation *u) { return isa<WarpGroupDotOp>(u); }))
      return std::nullopt;
    if (!tile.allocs.empty() && alloc.getType() != tile.allocs.front().getType())
      return std::nullopt;
    tile.allocs.push_back(alloc);
  }
  std::optional<TmaTileBoxes> boxes =
      getTmaTileBoxes(tile.allocs.front().getType(), load.getType().getShape());
  if (!boxes)
    return std::nullopt;
  tile.boxes = *boxes;
  return tile;
}

/// Has TMA copy `tile`'s block straight into one wgmma tile, in its swizzle, which every
/// local_alloc of the block then is: no pass through registers, no tile written per loop.
///
///   local_alloc (tile), local_alloc (barrier); init_barrier 1; barrier
///   async_tma_copy_global_to_local into the tile; wait_barrier phase 0
///   barrier; inval_barrier; barrier
void loadTileDirectly(DirectTile &tile) {
  tk::DescriptorLoadOp load = tile.load;
  MLIRContext *context = load.getContext();
  IRRewriter rewriter(context);
  Location loc = load.getLoc();
  rewriter.setInsertionPoint(load);
  Value buffer = LocalAllocOp::create(rewriter, loc, tile.allocs.front().getType(), Value());
  auto barrierLayout = SharedEncodingAttr::get(context, 1, 1, 1, {1, 0}, 0, 0);
  Value barrier = LocalAllocOp::create(
      rewriter, loc, MemDescType::get(context, {1, 1}, rewriter.getI64Type(), barrierLayout),
      Value());
  InitBarrierOp::create(rewriter, loc, barrier, 1);
  BarrierOp::create(rewriter, loc);
  AsyncTMACopyGlobalToLocalOp::create(rewriter, loc, load.getDesc(), load.getIndices(), buffer,
                                      barrier, /*pred=*/Value());
  Value phase = arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
  WaitBarrierOp::create(rewriter, loc, barrier, phase);
  BarrierOp::create(rewriter, loc);
  InvalBarrierOp::create(rewriter, loc, barrier);
  BarrierOp::create(rewriter, loc);
  for (LocalAllocOp alloc : tile.allocs)
    rewriter.replaceOp(alloc, buffer);
  rewriter.eraseOp(load);
}

/// The num_stages of `loop`: its own `tk.num_stages` (tk::range_options), else the kernel's.
unsigned loopStages(scf::ForOp loop, unsigned kernelStages) {
  if (auto attr = loop->getAttrOfType<IntegerAttr>("tk.num_stages"))
    return unsigned(std::max<int64_t>(1, attr.getInt()));
  return kernelStages;
}

struct TkPipelinePass : tkgpu::impl::TkPipelineBase<TkPipelinePass> {
  using TkPipelineBase::TkPipelineBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    shareOperandTiles(module);
    // Operands loaded once go straight into their tiles, whatever num_stages says.
    SmallVector<DirectTile> tiles;
    module.walk([&](tk::DescriptorLoadOp load) {
      if (std::optional<DirectTile> tile = findDirectTile(load))
        tiles.push_back(std::move(*tile));
    });
    for (DirectTile &tile : tiles) {
      setTensorMapBoxes(cast<BlockArgument>(tile.load.getDesc()), tile.boxes);
      loadTileDirectly(tile);
    }
    // The loops to pipeline: those of num_stages 2 or more, their own or the kernel's.
    llvm::DenseMap<Operation *, unsigned> stagesOf;
    module.walk([&](scf::ForOp loop) {
      if (const unsigned stages = loopStages(loop, numStages); stages >= 2)
        stagesOf[loop] = stages;
    });
    if (stagesOf.empty())
      return;
    tk::AxisInfoResult axisInfo(module);
    if (!axisInfo.succeeded())
      return;
    // Every loop's candidates first: the analysis describes the IR before any rewrite.
    SmallVector<std::pair<scf::ForOp, SmallVector<Candidate>>> loops;
    module.walk([&](scf::ForOp loop) {
      if (!stagesOf.contains(loop))
        return;
      SmallVector<Candidate> candidates = findCandidates(loop, axisInfo);
      if (!candidates.empty())
        loops.emplace_back(loop, std::move(candidates));
    });
    llvm::erase_if(loops, [](auto &l) { return !canPipeline(l.first, l.second); });
    // A tensor map's loads are all in rings of one box and swizzle, or all keep their own copies.
    llvm::DenseMap<BlockArgument, TmaTileBoxes> maps = keepConsistentTmaCandidates(loops);
    llvm::erase_if(loops, [](auto &l) { return l.second.empty(); });
    const unsigned numWarps = TkGPUDialect::getModuleNumWarps(module);
    for (auto &[loop, candidates] : loops) {
      const unsigned stages = stagesOf.lookup(loop);
      pipelineLoop(loop, candidates, stages,
                   chooseRingTiles(candidates, stages, std::max(numWarps, 1u),
                                   sharedPerMultiprocessor, sharedPerBlock));
    }
    for (auto &[arg, boxes] : maps)
      setTensorMapBoxes(arg, boxes);
  }
};

} // namespace

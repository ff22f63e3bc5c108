/// @file ScanOpToLLVM.cpp
/// tk.scan -> LLVM/NVVM: an inclusive scan along the axis with the op's region (inlined
/// per combine). Along the axis a tensor's elements are ordered (repetition of the layout's
/// tile, warp, lane, element of the thread's chunk); an element's result is the combination of
/// everything before it in that order, built from the parts:
///  1. in-thread: a running combine over each chunk of sizePerThread consecutive elements;
///  2. across lanes: Hillis-Steele over the lanes along the axis on the chunks' totals
///     (`shfl.sync.up` by 1, 2, 4, ... lanes; a lane takes its neighbour's value only when there
///     is one), then one more shuffle by one lane for the lanes before it (exclusive);
///  3. across warps, where several warps hold distinct elements along the axis: the last lane
///     of each warp writes the warp's total to shared memory ([rep][warp][position off the
///     axis]); after a barrier the last lanes of the first warp (in scan order) combine the
///     totals in order and write each warp's exclusive prefix, and the whole total, to a second
///     area of the same shape; after another barrier every thread reads its own;
///  4. across repetitions of the tile: each repetition's total (every warp's, or the last
///     lane's, shuffled to all) carried into the next.
/// A thread's elements then combine (repetitions before, warps before, lanes before, own
/// chunk so far) in that order: the region need not be commutative. `reverse` mirrors every
/// step (shfl.sync.down, warps and repetitions from the last): the scan of the flipped tensor,
/// flipped back. Lanes and warps beyond the tensor's extent (a tile larger than the tensor)
/// hold copies and compute the same values as the ones they copy (CombineAxis).
#include "Analysis/Allocation.h"
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/ReduceScanCommon.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <vector>

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// The combination of the elements before some position (one value per operand), which may not
/// exist for every thread: `valid` (i1) says where it does; null when it does everywhere.
struct Prefix {
  SmallVector<Value> values;
  Value valid;
};

SmallVector<Value> select(OpBuilder &b, Location loc, Value condition, ValueRange ifTrue,
                          ValueRange ifFalse) {
  SmallVector<Value> values;
  for (auto [t, f] : llvm::zip_equal(ifTrue, ifFalse))
    values.push_back(LLVM::SelectOp::create(b, loc, condition, t, f));
  return values;
}

/// `earlier` then `later`: their combination where both exist, else the one that does.
Prefix chain(OpBuilder &b, Location loc, Region &combine, const std::optional<Prefix> &earlier,
             const Prefix &later) {
  if (!earlier)
    return later;
  SmallVector<Value> both = emitCombine(b, loc, combine, earlier->values, later.values);
  if (!earlier->valid && !later.valid)
    return {both, Value()};
  if (!earlier->valid)
    return {select(b, loc, later.valid, both, earlier->values), Value()};
  if (!later.valid)
    return {select(b, loc, earlier->valid, both, later.values), Value()};
  SmallVector<Value> eitherOne = select(b, loc, later.valid, both, earlier->values);
  return {select(b, loc, earlier->valid, eitherOne, later.values),
          LLVM::OrOp::create(b, loc, earlier->valid, later.valid)};
}

/// `prefix` then `values`.
SmallVector<Value> applyPrefix(OpBuilder &b, Location loc, Region &combine,
                               const std::optional<Prefix> &prefix, ValueRange values) {
  if (!prefix)
    return SmallVector<Value>(values);
  SmallVector<Value> both = emitCombine(b, loc, combine, prefix->values, values);
  return prefix->valid ? select(b, loc, prefix->valid, both, values) : both;
}

Value icmp(OpBuilder &b, Location loc, LLVM::ICmpPredicate predicate, Value lhs, int64_t rhs) {
  return LLVM::ICmpOp::create(b, loc, predicate, lhs, i32Constant(b, loc, rhs));
}

std::optional<CombineAxis> scanAxis(ScanOp op) {
  auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
  if (!isa_and_nonnull<tkgpu::BlockedEncodingAttr>(type.getEncoding()))
    return std::nullopt; // scans run on blocked layouts only
  return getCombineAxis(type, unsigned(op.getAxis()));
}

/// What a thread knows of one chunk (one group of positions off the axis, one repetition).
struct Chunk {
  SmallVector<SmallVector<Value>> scanned; ///< [element of the chunk][operand]: inclusive
  SmallVector<Value> inclusive;            ///< through the thread's chunk, over the lanes
  std::optional<Prefix> lanes;             ///< the lanes before this one
  std::optional<Prefix> warps;             ///< the warps before this one
  SmallVector<Value> total;                ///< the whole repetition (when there are several)
};

struct ScanOpConversion : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    std::optional<CombineAxis> axis = scanAxis(op);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "operand without a blocked layout, or an axis whose "
                                             "extent is not a power of two");
    FailureOr<SmallVector<Type>> elementTypes =
        getCombineElementTypes(*getTypeConverter(), op.getSrcs());
    if (failed(elementTypes))
      return rewriter.notifyMatchFailure(op, "element type cannot be shuffled");
    const bool reverse = op.getReverse();
    const unsigned numOperands = op.getSrcs().size();
    auto blocked = cast<tkgpu::BlockedEncodingAttr>(srcType.getEncoding());
    SmallVector<unsigned> elemsPerThread = tkgpu::getElemsPerThread(blocked, srcType.getShape());
    const unsigned total = tkgpu::getTotalElemsPerThread(blocked, srcType.getShape());
    const unsigned numGroups = total / elemsPerThread[axis->axis];
    Region &combine = op.getCombineOp();

    SmallVector<SmallVector<Value>> elements; // [operand][element]
    for (Value src : adaptor.getSrcs())
      elements.push_back(unpackElements(rewriter, loc, src));

    // The thread's element numbers by [group][repetition][element of the chunk]; groups are
    // numbered as the reduce lowering numbers them (coordinates off the axis along the order).
    SmallVector<SmallVector<SmallVector<unsigned>>> numbers(
        numGroups,
        SmallVector<SmallVector<unsigned>>(axis->reps, SmallVector<unsigned>(axis->size)));
    for (unsigned e = 0; e < total; ++e) {
      SmallVector<unsigned> coords(elemsPerThread.size());
      unsigned linear = e;
      for (unsigned d : blocked.getOrder()) {
        coords[d] = linear % elemsPerThread[d];
        linear /= elemsPerThread[d];
      }
      unsigned group = 0, stride = 1;
      for (unsigned d : blocked.getOrder()) {
        if (d == axis->axis)
          continue;
        group += coords[d] * stride;
        stride *= elemsPerThread[d];
      }
      const unsigned along = coords[axis->axis];
      numbers[group][along / axis->size][along % axis->size] = e;
    }
    // Positions in scan order: `count` of them, the i-th.
    auto nth = [&](unsigned i, unsigned count) { return reverse ? count - 1 - i : i; };

    auto [laneCoord, warpCoord] = emitAxisCoords(rewriter, loc, *axis);
    // The lane's and warp's places in scan order.
    Value laneRank = laneCoord, warpRank = warpCoord;
    if (reverse && axis->lanes > 1)
      laneRank = LLVM::SubOp::create(rewriter, loc, i32Constant(rewriter, loc, axis->lanes - 1),
                                     laneCoord);
    if (reverse && axis->warps > 1)
      warpRank = LLVM::SubOp::create(rewriter, loc, i32Constant(rewriter, loc, axis->warps - 1),
                                     warpCoord);
    const auto towardsLater = unsigned(reverse ? NVVM::ShflKind::down : NVVM::ShflKind::up);
    auto shuffleAll = [&](ValueRange values, unsigned kind, Value lane) {
      SmallVector<Value> shuffled;
      for (Value value : values)
        shuffled.push_back(emitShuffle(rewriter, loc, value, kind, lane));
      return shuffled;
    };

    // 1 and 2: each chunk in-thread, then over the lanes.
    std::vector<std::vector<Chunk>> chunks(numGroups, std::vector<Chunk>(axis->reps));
    for (unsigned g = 0; g < numGroups; ++g) {
      for (unsigned r = 0; r < axis->reps; ++r) {
        Chunk &chunk = chunks[g][r];
        chunk.scanned.resize(axis->chunk);
        SmallVector<Value> running;
        for (unsigned i = 0; i < axis->chunk; ++i) {
          const unsigned k = nth(i, axis->chunk);
          SmallVector<Value> values;
          for (unsigned o = 0; o < numOperands; ++o)
            values.push_back(elements[o][numbers[g][r][k]]);
          running = running.empty() ? values : emitCombine(rewriter, loc, combine, running, values);
          chunk.scanned[k] = running;
        }
        chunk.inclusive = running;
        if (axis->lanes > 1) {
          for (unsigned step = 1; step < axis->lanes; step *= 2) {
            SmallVector<Value> before = shuffleAll(
                chunk.inclusive, towardsLater, i32Constant(rewriter, loc, step * axis->laneStride));
            SmallVector<Value> both = emitCombine(rewriter, loc, combine, before, chunk.inclusive);
            Value has = icmp(rewriter, loc, LLVM::ICmpPredicate::uge, laneRank, step);
            chunk.inclusive = select(rewriter, loc, has, both, chunk.inclusive);
          }
          chunk.lanes = Prefix{shuffleAll(chunk.inclusive, towardsLater,
                                          i32Constant(rewriter, loc, axis->laneStride)),
                               icmp(rewriter, loc, LLVM::ICmpPredicate::ne, laneRank, 0)};
        }
        if (axis->reps > 1 && axis->warps == 1) {
          // The last lane's inclusive value is the repetition's total (several repetitions:
          // all lanes of the warp along the axis hold distinct elements).
          chunk.total = chunk.inclusive;
          if (axis->lanes > 1) {
            // The lane id with its bits along the axis cleared, then set to the last lane's.
            const unsigned otherBits = 31 & ~((axis->lanes - 1) * axis->laneStride);
            Value lane = LLVM::AndOp::create(
                rewriter, loc, NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type()),
                i32Constant(rewriter, loc, otherBits));
            lane = addConst(rewriter, loc, lane,
                            int64_t(nth(axis->lanes - 1, axis->lanes)) * axis->laneStride);
            chunk.total = shuffleAll(chunk.inclusive, unsigned(NVVM::ShflKind::idx), lane);
          }
        }
      }
    }

    // 3. Across warps: [rep][warp][position] per operand; the warp's total is in the last lane
    // (in scan order) of the distinct ones, and its copies.
    if (axis->warps > 1) {
      uint64_t bytes;
      SmallVector<unsigned> areas = getScanScratchAreas(op, bytes);
      const unsigned base = getScratchOffset(op);
      SmallVector<SmallVector<Value>> indices = emitIndices(rewriter, loc, srcType);
      SmallVector<Value> positions; // per group: row-major off the axis
      for (unsigned g = 0; g < numGroups; ++g) {
        const SmallVector<Value> &index = indices[numbers[g][0][0]];
        Value position;
        for (unsigned d = 0; d < index.size(); ++d) {
          if (d == axis->axis)
            continue;
          position =
              !position
                  ? index[d]
                  : LLVM::AddOp::create(
                        rewriter, loc,
                        LLVM::MulOp::create(rewriter, loc, position,
                                            i32Constant(rewriter, loc, srcType.getDimSize(d))),
                        index[d]);
        }
        positions.push_back(position ? position : i32Constant(rewriter, loc, 0));
      }
      auto slot = [&](unsigned g, unsigned r, Value warp) -> Value {
        Value rw = addConst(rewriter, loc, warp, int64_t(r) * axis->warps);
        Value scaled =
            LLVM::MulOp::create(rewriter, loc, rw, i32Constant(rewriter, loc, axis->positions));
        return LLVM::AddOp::create(rewriter, loc, scaled, positions[g]);
      };
      // The prefix area follows the totals' area of each operand (getScanScratchAreas).
      const unsigned count = axis->reps * axis->warps * axis->positions;
      auto prefixSlot = [&](unsigned g, unsigned r, Value warp) {
        return addConst(rewriter, loc, slot(g, r, warp), count);
      };
      auto firstWarp = [&] { return i32Constant(rewriter, loc, nth(0, axis->warps)); };
      auto ifThen = [&](Value condition) {
        auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), condition,
                                      /*withElseRegion=*/false);
        rewriter.setInsertionPointToStart(ifOp.thenBlock());
      };
      emitBarrier(rewriter, loc);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        if (axis->lanes > 1)
          ifThen(icmp(rewriter, loc, LLVM::ICmpPredicate::eq, laneRank, axis->lanes - 1));
        for (unsigned g = 0; g < numGroups; ++g)
          for (unsigned r = 0; r < axis->reps; ++r) {
            Value index = slot(g, r, warpCoord);
            for (unsigned o = 0; o < numOperands; ++o)
              emitScratchStore(rewriter, loc, base + areas[o], index, chunks[g][r].inclusive[o]);
          }
      }
      emitBarrier(rewriter, loc);
      // The writers of the first warp in scan order combine the totals in scan order and store
      // each warp's exclusive prefix in its slot of the prefix area, and the whole total in the
      // first warp's (which has no prefix). Every thread then loads its own by address: no
      // select among the partial combinations (ptxas 13.0 miscompiled that form for f16, pairing
      // an add of an unselected partial sum with one of the selected; docs/testing.md).
      {
        OpBuilder::InsertionGuard guard(rewriter);
        Value writer = icmp(rewriter, loc, LLVM::ICmpPredicate::eq, warpRank, 0);
        if (axis->lanes > 1)
          writer = LLVM::AndOp::create(
              rewriter, loc, writer,
              icmp(rewriter, loc, LLVM::ICmpPredicate::eq, laneRank, axis->lanes - 1));
        ifThen(writer);
        for (unsigned g = 0; g < numGroups; ++g)
          for (unsigned r = 0; r < axis->reps; ++r) {
            SmallVector<Value> through;
            for (unsigned i = 0; i < axis->warps; ++i) {
              Value index = slot(g, r, i32Constant(rewriter, loc, nth(i, axis->warps)));
              SmallVector<Value> values;
              for (unsigned o = 0; o < numOperands; ++o)
                values.push_back(
                    emitScratchLoad(rewriter, loc, base + areas[o], index, (*elementTypes)[o]));
              through = i == 0 ? values : emitCombine(rewriter, loc, combine, through, values);
              Value target =
                  i + 1 < axis->warps
                      ? prefixSlot(g, r, i32Constant(rewriter, loc, nth(i + 1, axis->warps)))
                      : prefixSlot(g, r, firstWarp());
              for (unsigned o = 0; o < numOperands; ++o)
                emitScratchStore(rewriter, loc, base + areas[o], target, through[o]);
            }
          }
      }
      emitBarrier(rewriter, loc);
      for (unsigned g = 0; g < numGroups; ++g)
        for (unsigned r = 0; r < axis->reps; ++r) {
          Value mineIndex = prefixSlot(g, r, warpCoord), totalIndex = prefixSlot(g, r, firstWarp());
          SmallVector<Value> mine, total;
          for (unsigned o = 0; o < numOperands; ++o) {
            mine.push_back(
                emitScratchLoad(rewriter, loc, base + areas[o], mineIndex, (*elementTypes)[o]));
            total.push_back(
                emitScratchLoad(rewriter, loc, base + areas[o], totalIndex, (*elementTypes)[o]));
          }
          chunks[g][r].total = total;
          chunks[g][r].warps =
              Prefix{mine, icmp(rewriter, loc, LLVM::ICmpPredicate::ne, warpRank, 0)};
        }
    }

    // 4. Repetitions in scan order, then every element: (repetitions, warps, lanes) before it,
    // then its chunk so far. Copies of a chunk's elements take their originals' values.
    SmallVector<SmallVector<Value>> results(numOperands, SmallVector<Value>(total));
    for (unsigned g = 0; g < numGroups; ++g) {
      std::optional<Prefix> repetitions;
      for (unsigned i = 0; i < axis->reps; ++i) {
        const unsigned r = nth(i, axis->reps);
        Chunk &chunk = chunks[g][r];
        std::optional<Prefix> prefix = repetitions;
        if (chunk.warps)
          prefix = chain(rewriter, loc, combine, prefix, *chunk.warps);
        if (chunk.lanes)
          prefix = chain(rewriter, loc, combine, prefix, *chunk.lanes);
        for (unsigned k = 0; k < axis->chunk; ++k) {
          SmallVector<Value> values = applyPrefix(rewriter, loc, combine, prefix, chunk.scanned[k]);
          for (unsigned copy = k; copy < axis->size; copy += axis->chunk)
            for (unsigned o = 0; o < numOperands; ++o)
              results[o][numbers[g][r][copy]] = values[o];
        }
        if (i + 1 < axis->reps)
          repetitions = chain(rewriter, loc, combine, repetitions, Prefix{chunk.total, Value()});
      }
    }

    SmallVector<Value> packed;
    for (unsigned o = 0; o < numOperands; ++o) {
      Type structType = getTypeConverter()->convertType(op.getResult(o).getType());
      if (!structType)
        return rewriter.notifyMatchFailure(op, "result type");
      packed.push_back(packElements(rewriter, loc, structType, results[o]));
    }
    rewriter.replaceOp(op, packed);
    return success();
  }
};

} // namespace

void mlir::tk::populateScanOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<ScanOpConversion>(converter, patterns.getContext());
}

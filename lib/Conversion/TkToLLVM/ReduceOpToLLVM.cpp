/// @file ReduceOpToLLVM.cpp
/// tk.reduce -> LLVM/NVVM, in three steps along the axis, each combining with the op's
/// region (inlined per combine):
///  1. in-thread: a thread combines its own elements of each position off the axis (its
///     elements of one such position are one group; the groups are the result's elements, in
///     the slice layout's order);
///  2. across lanes: a butterfly of `shfl.sync.bfly` over the lanes along the axis, after which
///     every lane of the group holds the warp's partial;
///  3. across warps, where several warps hold distinct elements along the axis: each warp writes
///     its partials to shared memory ([warp][position off the axis]); after a barrier every
///     thread reads the partials of the positions its result elements hold and combines them
///     in warp order, so every thread holding a result element (or every thread, for a scalar)
///     ends with it.
/// Where the layout's tile is larger than the tensor, lanes and warps beyond the tensor's extent
/// hold copies of the first ones' elements: the steps only span the distinct ones (CombineAxis),
/// the copies compute the same values. The region must be commutative: a lane combines its
/// value with its partner's in its own order.
#include "Analysis/Allocation.h"
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/ReduceScanCommon.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// The operands' axis, or none where the op cannot be lowered.
std::optional<CombineAxis> reduceAxis(ReduceOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getSrcs().front().getType());
  if (!type)
    return std::nullopt;
  return getCombineAxis(type, unsigned(op.getAxis()));
}

/// Combines element `e` of every operand into `partial` (or starts it).
void addToGroup(OpBuilder &b, Location loc, ReduceOp op, ArrayRef<SmallVector<Value>> elements,
                unsigned e, SmallVector<Value> &partial) {
  SmallVector<Value> values;
  for (const SmallVector<Value> &operand : elements)
    values.push_back(operand[e]);
  partial = partial.empty() ? values : emitCombine(b, loc, op.getCombineOp(), partial, values);
}

/// Step 1 on a blocked layout. Elements are numbered along the order, so with the coordinates
/// off the axis fixed, the number grows with the axis coordinate: in number order, each group
/// is combined along the axis in tensor order. The group number is the element number without
/// the axis coordinate (the slice layout's numbering).
SmallVector<SmallVector<Value>> combineInThreadBlocked(OpBuilder &b, Location loc, ReduceOp op,
                                                       const CombineAxis &axis,
                                                       ArrayRef<SmallVector<Value>> elements) {
  auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
  auto blocked = cast<tkgpu::BlockedEncodingAttr>(srcType.getEncoding());
  SmallVector<unsigned> elemsPerThread = tkgpu::getElemsPerThread(blocked, srcType.getShape());
  const unsigned total = tkgpu::getTotalElemsPerThread(blocked, srcType.getShape());
  SmallVector<SmallVector<Value>> partials(total / elemsPerThread[axis.axis]); // [group][operand]
  for (unsigned e = 0; e < total; ++e) {
    SmallVector<unsigned> coords = tkgpu::delinearize(e, elemsPerThread, blocked.getOrder());
    if (coords[axis.axis] % axis.size >= axis.chunk)
      continue; // a copy of an element the thread already holds
    unsigned group = 0, stride = 1;
    for (unsigned d : blocked.getOrder()) {
      if (d == axis.axis)
        continue;
      group += coords[d] * stride;
      stride *= elemsPerThread[d];
    }
    addToGroup(b, loc, op, elements, e, partials[group]);
  }
  return partials;
}

/// Step 1 on any other layout (mma): by indices. A thread's element index is the same function
/// of the element number in every thread plus the thread's offset, so thread 0's indices say
/// which elements are copies (an index seen before) and which result element (the slice
/// layout's element of the index without the axis) each one joins.
SmallVector<SmallVector<Value>> combineInThreadByIndex(OpBuilder &b, Location loc, ReduceOp op,
                                                       ArrayRef<SmallVector<Value>> elements) {
  auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
  const unsigned axis = unsigned(op.getAxis());
  Attribute layout = srcType.getEncoding();
  SmallVector<int64_t> resultShape(srcType.getShape());
  resultShape.erase(resultShape.begin() + axis);
  std::map<SmallVector<int64_t>, unsigned> groupOf;
  if (resultShape.empty()) {
    groupOf[{}] = 0;
  } else {
    auto slice = tkgpu::SliceEncodingAttr::get(op.getContext(), axis, layout);
    const unsigned groups = tkgpu::getTotalElemsPerThread(slice, resultShape);
    for (unsigned g = 0; g < groups; ++g)
      groupOf.emplace(tkgpu::getElementIndex(slice, resultShape, 0, 0, g), g);
  }
  SmallVector<SmallVector<Value>> partials(groupOf.size());
  std::set<SmallVector<int64_t>> seen;
  const unsigned total = tkgpu::getTotalElemsPerThread(layout, srcType.getShape());
  for (unsigned e = 0; e < total; ++e) {
    SmallVector<int64_t> index = tkgpu::getElementIndex(layout, srcType.getShape(), 0, 0, e);
    if (!seen.insert(index).second)
      continue;
    index.erase(index.begin() + axis);
    unsigned group = groupOf.at(index);
    addToGroup(b, loc, op, elements, e, partials[group]);
  }
  return partials;
}

struct ReduceOpConversion : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    std::optional<CombineAxis> axis = reduceAxis(op);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "operand without a blocked or mma layout, or an axis "
                                             "whose extent is not a power of two");
    FailureOr<SmallVector<Type>> elementTypes =
        getCombineElementTypes(*getTypeConverter(), op.getSrcs());
    if (failed(elementTypes))
      return rewriter.notifyMatchFailure(op, "element type cannot be shuffled");
    const unsigned numOperands = op.getSrcs().size();
    Attribute layout = srcType.getEncoding();
    Region &combine = op.getCombineOp();

    SmallVector<SmallVector<Value>> elements; // [operand][element]
    for (Value src : adaptor.getSrcs())
      elements.push_back(unpackElements(rewriter, loc, src));

    // 1. In-thread: each group (a result element) combines the thread's elements whose
    // coordinates off the axis are the group's, each element once (not the copies of a tensor
    // smaller than the layout's tile).
    SmallVector<SmallVector<Value>> partials =
        isa<tkgpu::BlockedEncodingAttr>(layout)
            ? combineInThreadBlocked(rewriter, loc, op, *axis, elements)
            : combineInThreadByIndex(rewriter, loc, op, elements);

    // 2. Across lanes: a butterfly over the bits of the lane id that number the distinct lanes
    // along the axis; every lane of a group of partners ends with the group's partial.
    for (unsigned step = 1; step < axis->lanes; step *= 2) {
      Value offset = i32Constant(rewriter, loc, step * axis->laneStride);
      for (SmallVector<Value> &partial : partials) {
        SmallVector<Value> other;
        for (Value value : partial)
          other.push_back(
              emitShuffle(rewriter, loc, value, unsigned(NVVM::ShflKind::bfly), offset));
        partial = emitCombine(rewriter, loc, combine, partial, other);
      }
    }

    // 3. Across warps, through shared memory: partial of warp w at position p (off the axis,
    // row-major) at [w * positions + p], one area per operand.
    if (axis->warps > 1) {
      uint64_t bytes;
      SmallVector<unsigned> areas = getReduceScratchAreas(op, bytes);
      const unsigned base = getScratchOffset(op);
      SmallVector<Value> positions; // per group
      if (srcType.getRank() == 1) {
        positions.push_back(i32Constant(rewriter, loc, 0));
      } else {
        auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
        for (const SmallVector<Value> &index : emitIndices(rewriter, loc, resultType)) {
          Value position = index.front();
          for (unsigned d = 1; d < index.size(); ++d) {
            Value scaled = LLVM::MulOp::create(
                rewriter, loc, position, i32Constant(rewriter, loc, resultType.getDimSize(d)));
            position = LLVM::AddOp::create(rewriter, loc, scaled, index[d]);
          }
          positions.push_back(position);
        }
      }
      Value warpCoord = emitAxisCoords(rewriter, loc, *axis).second;
      Value warpBase = LLVM::MulOp::create(rewriter, loc, warpCoord,
                                           i32Constant(rewriter, loc, axis->positions));
      // Every lane of a group holds the same partial (the region is commutative), and copies
      // of warps the same as the warps they copy: they all write, the same value.
      emitBarrier(rewriter, loc);
      for (auto [group, partial] : llvm::enumerate(partials)) {
        Value index = LLVM::AddOp::create(rewriter, loc, warpBase, positions[group]);
        for (unsigned k = 0; k < numOperands; ++k)
          emitScratchStore(rewriter, loc, base + areas[k], index, partial[k]);
      }
      emitBarrier(rewriter, loc);
      for (auto [group, partial] : llvm::enumerate(partials)) {
        for (unsigned w = 0; w < axis->warps; ++w) {
          Value index = addConst(rewriter, loc, positions[group], int64_t(w) * axis->positions);
          SmallVector<Value> values;
          for (unsigned k = 0; k < numOperands; ++k)
            values.push_back(
                emitScratchLoad(rewriter, loc, base + areas[k], index, (*elementTypes)[k]));
          partial = w == 0 ? values : emitCombine(rewriter, loc, combine, partial, values);
        }
      }
    }

    SmallVector<Value> results;
    for (unsigned k = 0; k < numOperands; ++k) {
      if (srcType.getRank() == 1) {
        results.push_back(partials.front()[k]);
        continue;
      }
      Type structType = getTypeConverter()->convertType(op.getResult(k).getType());
      if (!structType)
        return rewriter.notifyMatchFailure(op, "result type");
      SmallVector<Value> values;
      for (const SmallVector<Value> &partial : partials)
        values.push_back(partial[k]);
      results.push_back(packElements(rewriter, loc, structType, values));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::tk::populateReduceOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<ReduceOpConversion>(converter, patterns.getContext());
}

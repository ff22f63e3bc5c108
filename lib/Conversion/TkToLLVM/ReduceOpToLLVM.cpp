/// @file tk.reduce -> LLVM/NVVM, in three steps along the axis, each combining with the op's
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
///
/// Also the helpers the scan lowering shares: the axis geometry, shuffles of any scalar, the
/// inlined region and scratch areas.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// The product of `sizes` over the dimensions before `dim` in `order` (the id distance of
/// neighbours along `dim` when ids are numbered along `order`).
unsigned strideAlong(ArrayRef<unsigned> sizes, ArrayRef<unsigned> order, unsigned dim) {
  unsigned stride = 1;
  for (unsigned d : order) {
    if (d == dim)
      break;
    stride *= sizes[d];
  }
  return stride;
}

Value lshrConst(OpBuilder &b, Location loc, Value value, unsigned shift) {
  return shift == 0 ? value : LLVM::LShrOp::create(b, loc, value, i32Constant(b, loc, shift));
}

} // namespace

std::optional<CombineAxis> mlir::tk::getCombineAxis(RankedTensorType type, unsigned axis) {
  auto blocked = dyn_cast_or_null<tkgpu::BlockedEncodingAttr>(type.getEncoding());
  if (!blocked || axis >= type.getRank())
    return std::nullopt;
  const int64_t extent = type.getDimSize(axis);
  if (extent <= 0 || !llvm::isPowerOf2_64(uint64_t(extent)))
    return std::nullopt;
  CombineAxis info;
  info.axis = axis;
  info.size = blocked.getSizePerThread()[axis];
  const unsigned lanes = blocked.getThreadsPerWarp()[axis];
  const unsigned warps = blocked.getWarpsPerCTA()[axis];
  // All powers of two: either the tile divides the extent (every copy distinct, the tile
  // repeated) or the extent divides the tile (the first `extent` elements distinct, the rest
  // copies of them, lane- and warp-aligned).
  info.chunk = unsigned(std::min<int64_t>(info.size, extent));
  info.reps = tkgpu::getElemsPerThread(blocked, type.getShape())[axis] / info.size;
  info.lanes = unsigned(std::clamp<int64_t>(extent / info.size, 1, lanes));
  info.warps = unsigned(std::clamp<int64_t>(extent / (int64_t(info.size) * lanes), 1, warps));
  info.laneStride = strideAlong(blocked.getThreadsPerWarp(), blocked.getOrder(), axis);
  info.warpStride = strideAlong(blocked.getWarpsPerCTA(), blocked.getOrder(), axis);
  info.positions = unsigned(type.getNumElements() / extent);
  return info;
}

std::pair<Value, Value> mlir::tk::emitAxisCoords(OpBuilder &b, Location loc,
                                                 const CombineAxis &axis) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  // (id / stride) % copies, the copies of the distinct lanes (warps) coming after them.
  auto coord = [&](Value id, unsigned stride, unsigned count) -> Value {
    if (count == 1)
      return i32Constant(b, loc, 0);
    Value shifted = lshrConst(b, loc, id, llvm::Log2_32(stride));
    return LLVM::AndOp::create(b, loc, shifted, i32Constant(b, loc, count - 1));
  };
  Value lane = LLVM::AndOp::create(b, loc, tid, i32Constant(b, loc, 31));
  Value warp = lshrConst(b, loc, tid, 5);
  return {coord(lane, axis.laneStride, axis.lanes), coord(warp, axis.warpStride, axis.warps)};
}

bool mlir::tk::isShuffleable(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return true;
  if (!type.isIntOrFloat())
    return false;
  const unsigned bits = type.getIntOrFloatBitWidth();
  return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

FailureOr<SmallVector<Type>> mlir::tk::getCombineElementTypes(const TypeConverter &converter,
                                                              ValueRange srcs) {
  SmallVector<Type> types;
  for (Value src : srcs) {
    Type type = converter.convertType(getElementTypeOrSelf(src.getType()));
    if (!type || !isShuffleable(type))
      return failure();
    types.push_back(type);
  }
  return types;
}

Value mlir::tk::emitShuffle(OpBuilder &b, Location loc, Value value, unsigned kindValue,
                            Value lane) {
  auto kind = static_cast<NVVM::ShflKind>(kindValue);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  // shfl's c operand: up clamps at lane 0 (its lower bound), the others at lane 31.
  const int clamp = kind == NVVM::ShflKind::up ? 0 : 0x1f;
  auto shuffle32 = [&](Value x) -> Value {
    return NVVM::ShflOp::create(b, loc, x.getType(), i32Constant(b, loc, -1), x, lane,
                                i32Constant(b, loc, clamp), kind, UnitAttr());
  };
  Type type = value.getType();
  if (type.isF32() || type.isInteger(32))
    return shuffle32(value);
  if (isa<LLVM::LLVMPointerType>(type)) {
    Value bits = LLVM::PtrToIntOp::create(b, loc, i64, value);
    return LLVM::IntToPtrOp::create(b, loc, type, emitShuffle(b, loc, bits, kindValue, lane));
  }
  const unsigned width = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(width);
  Value bits = isa<IntegerType>(type) ? value : LLVM::BitcastOp::create(b, loc, intType, value);
  Value result;
  if (width < 32) {
    // Only the low bits come back, so zero- or sign-extension alike.
    Value wide = LLVM::ZExtOp::create(b, loc, i32, bits);
    result = LLVM::TruncOp::create(b, loc, intType, shuffle32(wide));
  } else {
    // 64 bits: the two halves separately.
    Value low = LLVM::TruncOp::create(b, loc, i32, bits);
    Value high = LLVM::TruncOp::create(
        b, loc, i32, LLVM::LShrOp::create(b, loc, bits, LLVM::ConstantOp::create(b, loc, i64, 32)));
    Value lowBack = LLVM::ZExtOp::create(b, loc, i64, shuffle32(low));
    Value highBack = LLVM::ZExtOp::create(b, loc, i64, shuffle32(high));
    highBack = LLVM::ShlOp::create(b, loc, highBack, LLVM::ConstantOp::create(b, loc, i64, 32));
    result = LLVM::OrOp::create(b, loc, lowBack, highBack);
  }
  return isa<IntegerType>(type) ? result : LLVM::BitcastOp::create(b, loc, type, result);
}

SmallVector<Value> mlir::tk::emitCombine(OpBuilder &b, Location loc, Region &combine,
                                         ValueRange lhs, ValueRange rhs) {
  Block &body = combine.front();
  IRMapping mapping;
  for (auto [arg, value] :
       llvm::zip_equal(body.getArguments(), llvm::concat<const Value>(lhs, rhs)))
    mapping.map(arg, value);
  // The clones are new ops of the conversion: the arith patterns lower them in turn.
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value value : body.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(value));
  return results;
}

SmallVector<unsigned> mlir::tk::getScratchAreas(TypeRange types, uint64_t count,
                                                uint64_t &totalBytes) {
  SmallVector<unsigned> offsets;
  totalBytes = 0;
  for (Type type : types) {
    const unsigned bytes = getScratchElementBytes(type);
    totalBytes = llvm::alignTo(totalBytes, bytes);
    offsets.push_back(unsigned(totalBytes));
    totalBytes += count * bytes;
  }
  return offsets;
}

namespace {

Value scratchAddress(OpBuilder &b, Location loc, unsigned byteOffset, Value index,
                     Type elementType) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = getSharedBase(b, loc);
  if (byteOffset)
    base = LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                               ArrayRef<LLVM::GEPArg>{int32_t(byteOffset)});
  return LLVM::GEPOp::create(b, loc, ptrType, elementType, base, ValueRange{index});
}

} // namespace

void mlir::tk::emitScratchStore(OpBuilder &b, Location loc, unsigned byteOffset, Value index,
                                Value value) {
  if (value.getType().isInteger(1))
    value = LLVM::ZExtOp::create(b, loc, b.getI8Type(), value);
  LLVM::StoreOp::create(b, loc, value, scratchAddress(b, loc, byteOffset, index, value.getType()));
}

Value mlir::tk::emitScratchLoad(OpBuilder &b, Location loc, unsigned byteOffset, Value index,
                                Type type) {
  Type stored = type.isInteger(1) ? b.getI8Type() : type;
  Value value =
      LLVM::LoadOp::create(b, loc, stored, scratchAddress(b, loc, byteOffset, index, stored));
  return type.isInteger(1) ? LLVM::TruncOp::create(b, loc, type, value) : value;
}

namespace {

SmallVector<Type> srcElementTypes(ReduceOp op) {
  SmallVector<Type> types;
  for (Value src : op.getSrcs())
    types.push_back(getElementTypeOrSelf(src.getType()));
  return types;
}

/// The operands' axis, or none where the op cannot be lowered (then it needs no scratch either).
std::optional<CombineAxis> reduceAxis(ReduceOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getSrcs().front().getType());
  if (!type)
    return std::nullopt;
  return getCombineAxis(type, unsigned(op.getAxis()));
}

struct ReduceOpConversion : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    std::optional<CombineAxis> axis = reduceAxis(op);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "operand without a blocked layout, or an axis whose "
                                             "extent is not a power of two");
    FailureOr<SmallVector<Type>> elementTypes =
        getCombineElementTypes(*getTypeConverter(), op.getSrcs());
    if (failed(elementTypes))
      return rewriter.notifyMatchFailure(op, "element type cannot be shuffled");
    const unsigned numOperands = op.getSrcs().size();
    auto blocked = cast<tkgpu::BlockedEncodingAttr>(srcType.getEncoding());
    SmallVector<unsigned> elemsPerThread = tkgpu::getElemsPerThread(blocked, srcType.getShape());
    const unsigned total = tkgpu::getTotalElemsPerThread(blocked, srcType.getShape());
    const unsigned numGroups = total / elemsPerThread[axis->axis];
    Region &combine = op.getCombineOp();

    SmallVector<SmallVector<Value>> elements; // [operand][element]
    for (Value src : adaptor.getSrcs())
      elements.push_back(unpackElements(rewriter, loc, src));

    // 1. In-thread. Elements are numbered along the order, so with the coordinates off the axis
    // fixed, the number grows with the axis coordinate: in number order, each group is
    // combined along the axis in tensor order. The group number is the element number without
    // the axis coordinate (the slice layout's numbering).
    SmallVector<SmallVector<Value>> partials(numGroups); // [group][operand]
    for (unsigned e = 0; e < total; ++e) {
      SmallVector<unsigned> coords = tkgpu::delinearize(e, elemsPerThread, blocked.getOrder());
      if (coords[axis->axis] % axis->size >= axis->chunk)
        continue; // a copy of an element the thread already holds
      unsigned group = 0, stride = 1;
      for (unsigned d : blocked.getOrder()) {
        if (d == axis->axis)
          continue;
        group += coords[d] * stride;
        stride *= elemsPerThread[d];
      }
      SmallVector<Value> values;
      for (unsigned k = 0; k < numOperands; ++k)
        values.push_back(elements[k][e]);
      partials[group] = partials[group].empty()
                            ? values
                            : emitCombine(rewriter, loc, combine, partials[group], values);
    }

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
      SmallVector<unsigned> areas =
          getScratchAreas(srcElementTypes(op), uint64_t(axis->warps) * axis->positions, bytes);
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
          emitScratchStore(rewriter, loc, areas[k], index, partial[k]);
      }
      emitBarrier(rewriter, loc);
      for (auto [group, partial] : llvm::enumerate(partials)) {
        for (unsigned w = 0; w < axis->warps; ++w) {
          Value index = addConst(rewriter, loc, positions[group], int64_t(w) * axis->positions);
          SmallVector<Value> values;
          for (unsigned k = 0; k < numOperands; ++k)
            values.push_back(emitScratchLoad(rewriter, loc, areas[k], index, (*elementTypes)[k]));
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

unsigned mlir::tk::getReduceScratchBytes(ReduceOp op) {
  std::optional<CombineAxis> axis = reduceAxis(op);
  if (!axis || axis->warps == 1)
    return 0;
  uint64_t bytes;
  getScratchAreas(srcElementTypes(op), uint64_t(axis->warps) * axis->positions, bytes);
  return unsigned(bytes);
}

void mlir::tk::populateReduceOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<ReduceOpConversion>(converter, patterns.getContext());
}

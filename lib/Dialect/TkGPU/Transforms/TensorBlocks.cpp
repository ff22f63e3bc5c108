/// @file TensorBlocks.cpp
/// The pointer block and bounds mask of a block of a strided tensor (TensorBlocks.h).
#include "Dialect/TkGPU/Transforms/TensorBlocks.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::tkgpu {

std::pair<Value, Value> emitTensorBlockPointers(OpBuilder &b, Location loc,
                                                const TensorBlock &tensor, ArrayRef<bool> checked) {
  ArrayRef<int64_t> shape = tensor.block.getShape();
  const int64_t rank = tensor.block.getRank();
  Type i1 = b.getI1Type(), i32 = b.getI32Type(), i64 = b.getI64Type();
  auto tensorOf = [&](ArrayRef<int64_t> dims, Type element) {
    return RankedTensorType::get(dims, element);
  };
  Value offsets, mask;
  for (int64_t d = 0; d < rank; ++d) {
    // starts[d] + arange(0, B_d), or the given indices, as a [1, ..., B_d, ..., 1] block.
    Value index = size_t(d) < tensor.indexBlocks.size() ? tensor.indexBlocks[size_t(d)] : Value();
    if (!index) {
      auto range = tk::MakeRangeOp::create(b, loc, tensorOf(shape[d], i32), 0, int32_t(shape[d]));
      Value start = tk::SplatOp::create(b, loc, tensorOf(shape[d], i32), tensor.starts[d]);
      index = arith::AddIOp::create(b, loc, start, range);
    }
    SmallVector<int64_t> dims(rank, 1);
    dims[d] = shape[d];
    for (int64_t axis = 0; axis < rank; ++axis) {
      if (axis == d)
        continue;
      // Axes in increasing order: the new unit dimension goes at `axis` of the result.
      SmallVector<int64_t> expanded(cast<RankedTensorType>(index.getType()).getShape());
      expanded.insert(expanded.begin() + axis, 1);
      index = tk::ExpandDimsOp::create(b, loc, tensorOf(expanded, i32), index, int32_t(axis));
    }
    Value inside;
    if (checked[size_t(d)]) { // in the tensor: 0 <= index < shape[d]
      auto bounds = [&](Value scalar) {
        return tk::SplatOp::create(b, loc, tensorOf(dims, i32), scalar).getResult();
      };
      Value zero = bounds(arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)));
      Value limit = bounds(tensor.shape[d]);
      Value atLeastZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
      Value belowLimit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, limit);
      inside = arith::AndIOp::create(b, loc, atLeastZero, belowLimit);
    }
    Value term = arith::ExtSIOp::create(b, loc, tensorOf(dims, i64), index);
    if (d + 1 < rank || !tensor.unitLastStride)
      term = arith::MulIOp::create(
          b, loc, term, tk::SplatOp::create(b, loc, tensorOf(dims, i64), tensor.strides[d]));
    term = tk::BroadcastOp::create(b, loc, tensorOf(shape, i64), term);
    offsets = offsets ? arith::AddIOp::create(b, loc, offsets, term).getResult() : term;
    if (inside) {
      inside = tk::BroadcastOp::create(b, loc, tensorOf(shape, i1), inside);
      mask = mask ? arith::AndIOp::create(b, loc, mask, inside).getResult() : inside;
    }
  }
  Type ptrType = tensor.base.getType();
  Value base = tk::SplatOp::create(b, loc, tensorOf(shape, ptrType), tensor.base);
  Value ptrs = tk::AddPtrOp::create(b, loc, tensorOf(shape, ptrType), base, offsets);
  return {ptrs, mask};
}

Value emitBlockLoad(OpBuilder &b, Location loc, Type type, Value ptrs, Value mask,
                    bool nanPadding) {
  Value other;
  if (mask && nanPadding) {
    auto tensor = cast<RankedTensorType>(type);
    auto element = cast<FloatType>(tensor.getElementType());
    other = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tensor, APFloat::getNaN(element.getFloatSemantics())));
  }
  return tk::LoadOp::create(b, loc, type, ptrs, mask, other);
}

void appendTensorPartTypes(RankedTensorType block, SmallVectorImpl<Type> &parts) {
  MLIRContext *context = block.getContext();
  parts.push_back(tk::PointerType::get(block.getElementType()));
  parts.append(size_t(block.getRank()), IntegerType::get(context, 32));
  parts.append(size_t(block.getRank()), IntegerType::get(context, 64));
}

} // namespace mlir::tkgpu

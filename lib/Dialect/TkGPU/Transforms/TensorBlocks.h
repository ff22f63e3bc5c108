/// @file TensorBlocks.h
/// The pointer block and bounds mask of a block of a strided tensor in global memory: what
/// tensor descriptors and block pointers become (tk-rewrite-tensor-descriptors,
/// tk-rewrite-block-pointers).
#ifndef TK_DIALECT_TKGPU_TRANSFORMS_TENSORBLOCKS_H
#define TK_DIALECT_TKGPU_TRANSFORMS_TENSORBLOCKS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

#include <utility>

namespace mlir::tkgpu {

/// A block of `block`'s shape in the tensor at `base` (i32 `shape`, i64 `strides`), whose first
/// element is the tensor's element `starts` (i32).
struct TensorBlock {
  RankedTensorType block;
  Value base;
  ValueRange shape, strides, starts;
  /// The last stride is 1 by contract (a descriptor's): it is not multiplied, so AxisInfo sees
  /// the last dimension as contiguous.
  bool unitLastStride = false;
  /// Per dimension, a 1-D i32 block of the indices along it (a gather's rows), which replaces
  /// starts[d] + arange(0, B_d); null, or none at all, for the contiguous range.
  ArrayRef<Value> indexBlocks = {};
};

/// The block's pointers, base + sum_d (starts[d] + arange(0, B_d)) strides[d] (each term
/// broadcast to the block, in i64), and the mask of its elements with 0 <= starts[d] + i_d <
/// shape[d] for each dimension d that `checked` marks (null when none is marked).
std::pair<Value, Value> emitTensorBlockPointers(OpBuilder &b, Location loc,
                                                const TensorBlock &tensor, ArrayRef<bool> checked);

/// A tk.load of `type` through `ptrs` under `mask` (null: none), the masked-off elements reading
/// as zero, or as NaN with `nanPadding` (floats).
Value emitBlockLoad(OpBuilder &b, Location loc, Type type, Value ptrs, Value mask, bool nanPadding);

/// The types a strided tensor of `block`'s element type is taken apart into, appended to
/// `parts`: its base (!tk.ptr), one i32 size and one i64 stride per dimension of `block`. A
/// descriptor is these; a block pointer these and its offsets.
void appendTensorPartTypes(RankedTensorType block, SmallVectorImpl<Type> &parts);

/// Replaces an op that makes a descriptor or block pointer by its operands, its parts.
template <class Op> struct MakeFromPartsPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult matchAndRewrite(Op op, typename OpConversionPattern<Op>::OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> parts;
    for (ValueRange operand : adaptor.getOperands())
      llvm::append_range(parts, operand);
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

} // namespace mlir::tkgpu

#endif // TK_DIALECT_TKGPU_TRANSFORMS_TENSORBLOCKS_H

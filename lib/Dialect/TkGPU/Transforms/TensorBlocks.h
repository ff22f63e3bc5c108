/// @file TensorBlocks.h
/// The pointer block and bounds mask of a block of a strided tensor in global memory: what
/// tensor descriptors and block pointers become (tk-rewrite-tensor-descriptors,
/// tk-rewrite-block-pointers).
#ifndef TK_DIALECT_TKGPU_TRANSFORMS_TENSORBLOCKS_H
#define TK_DIALECT_TKGPU_TRANSFORMS_TENSORBLOCKS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

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
};

/// The block's pointers, base + sum_d (starts[d] + arange(0, B_d)) strides[d] (each term
/// broadcast to the block, in i64), and the mask of its elements with 0 <= starts[d] + i_d <
/// shape[d] for each dimension d that `checked` marks (null when none is marked).
std::pair<Value, Value> emitTensorBlockPointers(OpBuilder &b, Location loc,
                                                const TensorBlock &tensor, ArrayRef<bool> checked);

} // namespace mlir::tkgpu

#endif // TK_DIALECT_TKGPU_TRANSFORMS_TENSORBLOCKS_H

/// @file The C++ API of tkgpu layouts: how many elements a thread holds, which tensor element
/// is a thread's n-th, and Triton's default blocked layout for a shape. Plain index arithmetic,
/// used by the passes that choose layouts and by the lowering to LLVM (which emits the same
/// arithmetic as IR).
#ifndef TK_DIALECT_TKGPU_IR_LAYOUT_H
#define TK_DIALECT_TKGPU_IR_LAYOUT_H

#include "Dialect/TkGPU/IR/Dialect.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir::tkgpu {

/// A layout that maps every element to registers of threads (blocked, slice, mma, dot_operand);
/// false for null.
bool isDistributedLayout(Attribute layout);

/// An mma or dot_operand layout.
bool isTensorCoreLayout(Attribute layout);

/// The layout's rank (the rank of the tensors it lays out).
unsigned getRank(Attribute layout);

/// Dimensions from the fastest-varying, as lane, warp and element numbering follows them.
llvm::SmallVector<unsigned> getOrder(Attribute layout);

/// Warps the layout spreads a tensor over (the product of warpsPerCTA).
unsigned getNumWarps(Attribute layout);

/// Elements each thread holds along each dimension of a tensor of `shape`.
llvm::SmallVector<unsigned> getElemsPerThread(Attribute layout, llvm::ArrayRef<int64_t> shape);

/// Elements each thread holds in all (the product of getElemsPerThread).
unsigned getTotalElemsPerThread(Attribute layout, llvm::ArrayRef<int64_t> shape);

/// The tensor index of the `elem`-th element held by lane `lane` of warp `warp`, for
/// 0 <= elem < getTotalElemsPerThread. A blocked (slice) layout numbers a thread's elements
/// along getOrder, the fastest dimension's first; mma and dot_operand layouts as their
/// attributes describe. In every layout the index is the thread's offset plus the index of
/// thread 0's element, modulo the shape.
llvm::SmallVector<int64_t> getElementIndex(Attribute layout, llvm::ArrayRef<int64_t> shape,
                                           unsigned warp, unsigned lane, unsigned elem);

/// `linear` split into coordinates over `sizes`, the dimension order[0] varying fastest (a
/// thread's element number into per-dimension element coordinates, a lane into lane coordinates).
llvm::SmallVector<unsigned> delinearize(unsigned linear, llvm::ArrayRef<unsigned> sizes,
                                        llvm::ArrayRef<unsigned> order);

/// Triton's default blocked layout for `shape`: order = dimensions reversed (the last one
/// fastest), lanes then warps handed out from the fastest dimension, clamped to the shape, the
/// rest on the slowest. sizePerThread is 1 except, when `elementBits` is given, along the
/// fastest dimension: up to 16 bytes per thread where the tensor has that many elements per
/// thread to give.
BlockedEncodingAttr getDefaultBlockedEncoding(MLIRContext *context, llvm::ArrayRef<int64_t> shape,
                                              unsigned numWarps, unsigned threadsPerWarp = 32,
                                              unsigned elementBits = 0);

/// The layout of a coalesced access: like the default, but dimensions taken in `order` (the
/// most contiguous first) and up to `vectorWidth` elements per thread along order[0].
BlockedEncodingAttr getCoalescedBlockedEncoding(MLIRContext *context, llvm::ArrayRef<int64_t> shape,
                                                unsigned numWarps, llvm::ArrayRef<unsigned> order,
                                                unsigned vectorWidth);

} // namespace mlir::tkgpu

#endif // TK_DIALECT_TKGPU_IR_LAYOUT_H

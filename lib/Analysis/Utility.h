/// @file Utility.h
/// Layout facts that the shared-memory allocation (Allocation.h) and the lowering to LLVM
/// (lib/Conversion/TkToLLVM) both need, so that the analysis does not depend on the conversion:
/// how a reduce's or scan's axis spreads over a thread's elements, the lanes and the warps, and
/// how a view op reads its operand (and whether that can stay in registers), how a conversion
/// through shared memory vectorizes. Plain arithmetic on
/// types and layouts: no IR is built.
#ifndef TK_ANALYSIS_UTILITY_H
#define TK_ANALYSIS_UTILITY_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tk {

/// How a blocked layout spreads a tensor's `axis` over a thread's elements, the lanes and the
/// warps, counting only the copies that hold distinct elements: where the layout's tile along
/// the axis is larger than the tensor, lanes (or warps, or a thread's elements) hold the same
/// elements again, which a reduction must not combine twice.
///
/// An mma layout (a reduction of a tensor-core accumulator) spreads an axis in its own pattern
/// (pairs of columns per lane, rows 8 apart in a thread): only the lane, warp and position
/// fields apply, and a thread's elements are grouped by their indices instead.
struct CombineAxis {
  unsigned axis;
  unsigned size;       ///< sizePerThread[axis]: one chunk of consecutive elements (blocked)
  unsigned chunk;      ///< the distinct elements of a chunk: min(size, shape[axis]) (blocked)
  unsigned reps;       ///< chunks a thread holds along the axis, the tile repeated (blocked)
  unsigned lanes;      ///< lanes holding distinct elements along the axis
  unsigned laneStride; ///< lane id distance between neighbours along the axis
  unsigned warps;      ///< warps holding distinct elements along the axis
  unsigned warpStride; ///< warp id distance between neighbours along the axis
  unsigned positions;  ///< positions off the axis: the product of the other dimensions
};

/// The axis of a tensor with a blocked or mma layout; none for other layouts and where the
/// dimension is not a power of two.
std::optional<CombineAxis> getCombineAxis(RankedTensorType type, unsigned axis);

/// The row-major strides of `shape` (in elements).
llvm::SmallVector<int64_t> getRowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// What a view op (tk.broadcast, tk.expand_dims, tk.reshape, tk.trans, tk.flip, tk.join,
/// tk.cat, tk.split, tkgpu.convert_layout) reads: result element I takes the operand element
/// whose row-major linear index is base + sum over d of coef[d] * I[d]. The operands of
/// tk.join and tk.cat are stacked: operand k's element L has index k * N + L (N elements each).
struct ViewMap {
  Value src;
  RankedTensorType srcType; ///< null for a scalar operand; each operand's type when stacked
  RankedTensorType dstType;
  llvm::SmallVector<int64_t> coef; ///< one per result dimension
  int64_t base = 0;
  unsigned numSources = 1;
};

/// The map of a view op's result `result` (tk.split has two); none for other ops.
std::optional<ViewMap> getViewMap(Operation *op, unsigned result = 0);

/// For each result element, the operand element of the same thread it reads, when that is the
/// same position in every thread's struct (checked for every thread of the block); else none:
/// the values must cross threads, through shared memory. Each answer is computed once per
/// context (tkgpu::LayoutMemo): the check walks every element of every thread.
std::optional<llvm::SmallVector<unsigned>> mapInRegisters(const ViewMap &map);

/// Whether converting a tensor of `type` to `layout` moves nothing between threads: every
/// thread already holds the elements the new layout gives it (a row maximum of one mma
/// accumulator taken for the rows of another with the same warps, say).
bool isConversionInRegisters(RankedTensorType type, Attribute layout);

/// How a rank-2 tkgpu.convert_layout that crosses threads goes through shared memory in vectors:
/// row-major with `rowStride` elements per row (the row, then a 16-byte pad where rows are a
/// multiple of 128 bytes, so that the rows a warp writes at once start in different banks),
/// each thread writing `storeWidth` and reading `loadWidth` consecutive elements along
/// dimension 1 per access.
struct VectorizedExchange {
  int64_t rowStride;
  unsigned storeWidth, loadWidth;
};

/// The vectorized exchange of a conversion from `src` to `dst` (rank 2, power-of-two
/// dimensions, distributed layouts but a dot_operand result, which has its own path, integer or
/// float elements of 16 to 32 bits), when a thread holds runs of at least two
/// consecutive elements along dimension 1 in one of them (a blocked layout whose fastest
/// dimension is 1, an mma layout's pairs); none otherwise (the element-wise path).
std::optional<VectorizedExchange> getVectorizedExchange(RankedTensorType src, RankedTensorType dst);

} // namespace mlir::tk

#endif // TK_ANALYSIS_UTILITY_H

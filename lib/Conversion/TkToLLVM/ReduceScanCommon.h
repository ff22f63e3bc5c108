/// @file What the tk.reduce and tk.scan lowerings share: how a blocked layout spreads the
/// axis over a thread's elements, the lanes and the warps; shuffles of any scalar; the combine
/// region inlined; scratch areas for the warps' partials.
#ifndef TK_CONVERSION_TKTOLLVM_REDUCESCANCOMMON_H
#define TK_CONVERSION_TKTOLLVM_REDUCESCANCOMMON_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

namespace mlir::tk {

/// How a blocked layout spreads a tensor's `axis` over a thread's elements, the lanes and the
/// warps, counting only the copies that hold distinct elements: where the layout's tile along
/// the axis is larger than the tensor, lanes (or warps, or a thread's elements) hold the same
/// elements again, which a reduction must not combine twice.
struct CombineAxis {
  unsigned axis;
  unsigned size;       ///< sizePerThread[axis]: one chunk of consecutive elements
  unsigned chunk;      ///< the distinct elements of a chunk: min(size, shape[axis])
  unsigned reps;       ///< chunks a thread holds along the axis (the tile repeated)
  unsigned lanes;      ///< lanes holding distinct elements along the axis
  unsigned laneStride; ///< lane id distance between neighbours along the axis
  unsigned warps;      ///< warps holding distinct elements along the axis
  unsigned warpStride; ///< warp id distance between neighbours along the axis
  unsigned positions;  ///< positions off the axis: the product of the other dimensions
};

/// The axis of a tensor with a blocked layout; none where the dimension is not a power of two.
std::optional<CombineAxis> getCombineAxis(RankedTensorType type, unsigned axis);

/// The (lanes, warps) coordinates of the current thread along the axis, counted among the
/// distinct copies only (i32; constant 0 where there is one).
std::pair<Value, Value> emitAxisCoords(OpBuilder &builder, Location loc, const CombineAxis &axis);

/// Whether emitShuffle can move a value of this (LLVM) type.
bool isShuffleable(Type type);

/// The LLVM element types of a reduce's or scan's operands, or failure when one of them cannot
/// be shuffled.
FailureOr<llvm::SmallVector<Type>> getCombineElementTypes(const TypeConverter &converter,
                                                          ValueRange srcs);

/// `nvvm.shfl.sync` of any scalar: 32-bit values as they are, narrower ones widened to i32,
/// 64-bit ones and pointers in two 32-bit halves. `kind` is an NVVM::ShflKind; `lane` the lane
/// offset (bfly, up, down) or the source lane (idx).
Value emitShuffle(OpBuilder &builder, Location loc, Value value, unsigned kind, Value lane);

/// The combine region inlined on `lhs` and `rhs` (one value per operand each): its ops cloned,
/// the values its terminator returns.
llvm::SmallVector<Value> emitCombine(OpBuilder &builder, Location loc, Region &combine,
                                     ValueRange lhs, ValueRange rhs);

/// Scratch areas of `count` elements of each of `types` (tk element types), one after another,
/// each aligned to its element: their byte offsets; `totalBytes` the end of the last.
llvm::SmallVector<unsigned> getScratchAreas(TypeRange types, uint64_t count, uint64_t &totalBytes);

} // namespace mlir::tk

#endif // TK_CONVERSION_TKTOLLVM_REDUCESCANCOMMON_H

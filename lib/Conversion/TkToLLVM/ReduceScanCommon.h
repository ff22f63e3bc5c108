/// @file ReduceScanCommon.h
/// What the tk.reduce and tk.scan lowerings share: the thread's coordinates along the
/// axis, shuffles of any scalar, the combine region inlined. The axis geometry (CombineAxis) is
/// in lib/Analysis/Utility.h and the scratch areas in lib/Analysis/Allocation.h, which the
/// shared-memory allocation uses too.
#ifndef TK_CONVERSION_TKTOLLVM_REDUCESCANCOMMON_H
#define TK_CONVERSION_TKTOLLVM_REDUCESCANCOMMON_H

#include "Analysis/Utility.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace mlir::tk {

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

} // namespace mlir::tk

#endif // TK_CONVERSION_TKTOLLVM_REDUCESCANCOMMON_H

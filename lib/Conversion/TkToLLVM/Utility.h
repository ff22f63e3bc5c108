/// @file What every tk-to-llvm op family uses: packing and unpacking the struct a tensor
/// becomes, the thread's tensor indices, i32 constants, and the shared-memory scratch (its
/// address, the barrier around its use, stores and loads of it).
#ifndef TK_CONVERSION_TKTOLLVM_UTILITY_H
#define TK_CONVERSION_TKTOLLVM_UTILITY_H

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir::tk {

/// The struct's members, in order.
llvm::SmallVector<Value> unpackElements(OpBuilder &builder, Location loc, Value packed);

/// A struct of type `structType` holding `elements`.
Value packElements(OpBuilder &builder, Location loc, Type structType, ValueRange elements);

/// The tensor indices (one i32 per dimension) of each element the current thread holds of a
/// tensor of type `type` (distributed layout), from the thread id: Layout.h's getElementIndex
/// as IR.
llvm::SmallVector<llvm::SmallVector<Value>> emitIndices(OpBuilder &builder, Location loc,
                                                        RankedTensorType type);

/// An i32 constant.
Value i32Constant(OpBuilder &builder, Location loc, int64_t value);

/// `value + addend` (i32), or `value` itself when `addend` is 0.
Value addConst(OpBuilder &builder, Location loc, Value value, int64_t addend);

// Shared memory. Ops that exchange values between threads use one scratch area from offset 0:
// emitBarrier, write, emitBarrier, read. Sizes and the module's total: SharedMemory.cpp.

/// Bytes an element takes in scratch: pointers 8, i1 1, else the bit width / 8.
unsigned getScratchElementBytes(Type type);

/// Scratch bytes `op` needs (0 for ops that need none): dispatches to the op families below.
unsigned getScratchBytes(Operation *op);
unsigned getReduceScratchBytes(ReduceOp op); // ReduceOpToLLVM.cpp
unsigned getScanScratchBytes(ScanOp op);     // ScanOpToLLVM.cpp
unsigned getDotScratchBytes(DotOp op);       // DotOpToLLVM.cpp
unsigned getViewScratchBytes(Operation *op); // ViewOpToLLVM.cpp: the view ops, convert_layout

/// Sets the module's `tkgpu.shared` (the largest scratch of its ops, in bytes) and declares the
/// dynamic shared array when it is not 0; an error when no block could have that much.
LogicalResult allocateSharedMemory(ModuleOp module);

/// Declares `tk_shared`, the module's dynamic shared array (`.extern .shared .align 16 .b8
/// tk_shared[]`): its size is the launch's dynamic shared memory.
void declareSharedMemory(ModuleOp module);

/// The scratch area's start (`!llvm.ptr<3>`), and the address of its `index`-th element of
/// `elementType` (an LLVM type; `index` an i32).
Value getSharedBase(OpBuilder &builder, Location loc);
Value getSharedAddress(OpBuilder &builder, Location loc, Type elementType, Value index);

/// `bar.sync 0`: all threads of the block.
void emitBarrier(OpBuilder &builder, Location loc);

/// Writes the thread's `elements` of a tensor of `type` to the scratch, each at its row-major
/// linear index plus `offset` (in elements; i1 as i8), once per distinct index; no barrier
/// (ViewOpToLLVM.cpp, beside the view ops' index helpers it shares).
void storeTensorToShared(OpBuilder &builder, Location loc, RankedTensorType type,
                         ArrayRef<Value> elements, int64_t offset);

/// Store / load of the `index`-th element of the scratch area at `byteOffset` (i1 as i8).
void emitScratchStore(OpBuilder &builder, Location loc, unsigned byteOffset, Value index,
                      Value value);
Value emitScratchLoad(OpBuilder &builder, Location loc, unsigned byteOffset, Value index,
                      Type type);

} // namespace mlir::tk

#endif // TK_CONVERSION_TKTOLLVM_UTILITY_H

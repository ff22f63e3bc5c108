/// @file Utility.h
/// What every tk-to-llvm op family uses: packing and unpacking the struct a tensor
/// becomes, the thread's tensor indices, i32 constants, and the shared-memory scratch (its
/// address, the barrier around its use, stores and loads of it), inline PTX.
#ifndef TK_CONVERSION_TKTOLLVM_UTILITY_H
#define TK_CONVERSION_TKTOLLVM_UTILITY_H

#include "Dialect/TkGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>

#include "llvm/ADT/SmallVector.h"

namespace mlir::tk {

/// The struct's members, in order: the operands of packElements' cast, or the values inserted
/// where `packed` is a chain of insertvalue ops, extractvalue ops for the rest.
llvm::SmallVector<Value> unpackElements(OpBuilder &builder, Location loc, Value packed);

/// A struct of type `structType` holding `elements`. During tk-to-llvm this is a marked
/// `builtin.unrealized_conversion_cast` of the elements, which unpackElements reads back for
/// free; materializePackedStructs turns those still used afterwards into insertvalue chains.
Value packElements(OpBuilder &builder, Location loc, Type structType, ValueRange elements);

/// True for the casts packElements makes (legal during the conversion).
bool isPackedStruct(Operation *op);

/// Once the conversion is done: each struct packElements made becomes a chain of insertvalue
/// ops where something still reads it as a struct (a branch, a yield, an op lowered before its
/// operands' producers), and goes away where nothing does (unless `keepUnread`).
void materializePackedStructs(Operation *root, bool keepUnread = false);

/// The tensor indices (one i32 per dimension) of each element the current thread holds of a
/// tensor of type `type` (distributed layout), from the thread id: Layout.h's getElementIndex
/// as IR. With `stride`, only every stride-th element's (the first of each vector a lowering
/// accesses at once); the others' entries are left empty.
llvm::SmallVector<llvm::SmallVector<Value>> emitIndices(OpBuilder &builder, Location loc,
                                                        RankedTensorType type, unsigned stride = 1);
/// emitIndices in two parts: the thread's offset per dimension, and whether each dimension
/// wraps around (the layout's tile is larger than the tensor). Element e's index is the
/// offsets plus Layout.h's getElementIndex(layout, shape, 0, 0, e), modulo the shape in a
/// dimension that wraps; where none does, an address linear in the index is the thread's
/// address plus a constant per element.
void emitThreadOffsets(OpBuilder &builder, Location loc, RankedTensorType type,
                       llvm::SmallVector<Value> &offsets, llvm::SmallVector<bool> &wraps);
/// `count` inline-asm operands numbered from `first`, as `{$first, ..., $(first + count - 1)}`.
std::string asmOperands(unsigned first, unsigned count);

/// The PTX type name of an fp8 element type in tensor-core instructions: "e4m3" or "e5m2".
inline std::string fp8PtxType(Type fp8) { return isa<Float8E4M3FNType>(fp8) ? "e4m3" : "e5m2"; }

/// An inline-asm statement (AT&T dialect) returning `results` values of `resultType` (a struct
/// of them when more than one; none: void). Without `sideEffects` LLVM may move or drop it like
/// any pure computation.
llvm::SmallVector<Value> emitAsm(OpBuilder &builder, Location loc, StringRef text,
                                 StringRef constraints, ValueRange operands, Type resultType,
                                 unsigned results, bool sideEffects = false);

/// An i32 constant.
Value i32Constant(OpBuilder &builder, Location loc, int64_t value);

/// `value + addend` (i32), or `value` itself when `addend` is 0.
Value addConst(OpBuilder &builder, Location loc, Value value, int64_t addend);

/// The thread's warp (thread index / 32), read from lane 0 with `shfl.sync.idx`, so that ptxas
/// knows it is the same across the warp and keeps what is computed from it in uniform
/// registers (wgmma's matrix descriptors).
Value emitWarpIndex(OpBuilder &builder, Location loc);

// Shared memory. Ops that exchange values between threads use a scratch area at their own
// offset in the module's shared array (tk-allocate-shared-memory's `tkgpu.shared_offset`; the
// sizes: lib/Analysis/Allocation.h): emitBarrier, write, emitBarrier, read.

/// Declares `tk_shared`, the module's dynamic shared array (`.extern .shared .align 16 .b8
/// tk_shared[]`): its size is the launch's dynamic shared memory.
void declareSharedMemory(ModuleOp module);

/// The byte offset of `op`'s scratch in the shared array: its `tkgpu.shared_offset`, which
/// tk-to-llvm checks every op using scratch has.
unsigned getScratchOffset(Operation *op);

/// The shared array's start (`!llvm.ptr<3>`), and the address of the `index`-th element of
/// `elementType` (an LLVM type; `index` an i32) in the area starting `byteOffset` bytes into it.
Value getSharedBase(OpBuilder &builder, Location loc);
Value getSharedAddress(OpBuilder &builder, Location loc, unsigned byteOffset, Type elementType,
                       Value index);

/// The element offset (i32) of tile element (`row`, `col`) in the swizzled shared layout
/// `layout` of a tile of `tileShape`: tkgpu::getSharedOffset as IR.
Value emitSharedOffset(OpBuilder &builder, Location loc, tkgpu::SharedEncodingAttr layout,
                       ArrayRef<int64_t> tileShape, Value row, Value col);
/// `bar.sync 0`: all threads of the block.
void emitBarrier(OpBuilder &builder, Location loc);

/// `fence.proxy.async.shared::cta`: the thread's earlier shared-memory writes become visible to
/// the async proxy (wgmma, bulk copies) once a barrier follows.
void emitAsyncProxyFence(OpBuilder &builder, Location loc);

/// The thread's elements of a converted tensor (an `!llvm.struct`), the scalar itself, or none
/// for a null value (an absent optional operand).
llvm::SmallVector<Value> elementsOf(OpBuilder &builder, Location loc, Value value);

/// Where a layout holds an element in several (thread, element) slots, whether each of the
/// thread's slots holds the element's first copy (an i1 per element; null where it always does):
/// a store writes through that slot alone, so that a block written in place (`store(p, load(p) +
/// 1)`) is never read back by a slot of a later warp after another has written it. For a scalar
/// (`type` not a tensor) one predicate, thread 0. Empty where every slot holds its own element,
/// and for dot-operand layouts (stored as they are).
llvm::SmallVector<Value> emitFirstCopyPredicates(OpBuilder &builder, Location loc, Type type);

/// Writes the thread's `elements` of a tensor of `type` to the scratch area at `byteOffset`,
/// each at its row-major linear index plus `offset` (in elements; i1 as i8), once per distinct
/// index; no barrier (ViewOpToLLVM.cpp, beside the view ops' index helpers it shares).
void storeTensorToShared(OpBuilder &builder, Location loc, unsigned byteOffset,
                         RankedTensorType type, ArrayRef<Value> elements, int64_t offset);

/// Store / load of the `index`-th element of the scratch area at `byteOffset` (i1 as i8).
void emitScratchStore(OpBuilder &builder, Location loc, unsigned byteOffset, Value index,
                      Value value);
Value emitScratchLoad(OpBuilder &builder, Location loc, unsigned byteOffset, Value index,
                      Type type);

} // namespace mlir::tk

#endif // TK_CONVERSION_TKTOLLVM_UTILITY_H

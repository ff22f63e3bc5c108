/// @file What the tk-to-llvm files share: the type converter (a tensor in a distributed layout
/// is a struct of the elements its thread holds), packing and unpacking those structs, the
/// thread's tensor indices, and one populate function per op family.
#ifndef TK_CONVERSION_TKTOLLVM_PATTERNTKTOLLVM_H
#define TK_CONVERSION_TKTOLLVM_PATTERNTKTOLLVM_H

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tk {

/// LLVM types for tk IR: `!tk.ptr<T>` is `!llvm.ptr<1>` (global memory); a ranked tensor with a
/// distributed layout is `!llvm.struct<(T, T, ...)>` with one member per element the thread
/// holds, in Layout.h's order. Scalars convert as LLVMTypeConverter converts them.
class TkToLLVMTypeConverter : public LLVMTypeConverter {
public:
  explicit TkToLLVMTypeConverter(MLIRContext *context);
};

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

/// Vector widths chosen for each tk.load / tk.store before the conversion starts (AxisInfo's
/// width, capped by the elements a thread holds contiguously).
using VectorWidths = llvm::DenseMap<Operation *, unsigned>;

// Shared memory (SharedMemory.cpp). Ops that exchange values between threads use one scratch
// area from offset 0: emitBarrier, write, emitBarrier, read.

/// Bytes an element takes in scratch: pointers 8, i1 1, else the bit width / 8.
unsigned getScratchElementBytes(Type type);

/// Scratch bytes `op` needs (0 for ops that need none): dispatches to the op families below.
unsigned getScratchBytes(Operation *op);
unsigned getReduceScratchBytes(ReduceOp op); // ReduceOpToLLVM.cpp
unsigned getScanScratchBytes(ScanOp op);     // ScanOpToLLVM.cpp
unsigned getDotScratchBytes(DotOp op);       // DotOpToLLVM.cpp
unsigned getViewScratchBytes(Operation *op); // ViewOpToLLVM.cpp: convert_layout, reshape, trans

/// Sets the module's `tkgpu.shared` (the largest scratch of its ops, in bytes) and declares the
/// dynamic shared array when it is not 0; an error when no block could have that much.
LogicalResult allocateSharedMemory(ModuleOp module);

/// The scratch area's start (`!llvm.ptr<3>`), and the address of its `index`-th element of
/// `elementType` (an LLVM type; `index` an i32).
Value getSharedBase(OpBuilder &builder, Location loc);
Value getSharedAddress(OpBuilder &builder, Location loc, Type elementType, Value index);

/// `bar.sync 0`: all threads of the block.
void emitBarrier(OpBuilder &builder, Location loc);

void populateFuncOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns,
                                  unsigned numWarps);
void populateProgramIdOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateMakeRangeOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateSplatOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateElementwiseOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateLoadStoreOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns, const VectorWidths &widths);

void populateReduceOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateScanOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateViewOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateDotOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateMathOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populatePtrCastOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
/// scf.for / scf.if / scf.while carrying tensors: their types converted (legality into `target`).
void populateControlFlowOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns, ConversionTarget &target);

} // namespace mlir::tk

#endif // TK_CONVERSION_TKTOLLVM_PATTERNTKTOLLVM_H

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

#include <optional>
#include <utility>

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
unsigned getViewScratchBytes(Operation *op); // ViewOpToLLVM.cpp: the view ops, convert_layout

/// Sets the module's `tkgpu.shared` (the largest scratch of its ops, in bytes) and declares the
/// dynamic shared array when it is not 0; an error when no block could have that much.
LogicalResult allocateSharedMemory(ModuleOp module);

/// The scratch area's start (`!llvm.ptr<3>`), and the address of its `index`-th element of
/// `elementType` (an LLVM type; `index` an i32).
Value getSharedBase(OpBuilder &builder, Location loc);
Value getSharedAddress(OpBuilder &builder, Location loc, Type elementType, Value index);

/// `bar.sync 0`: all threads of the block.
void emitBarrier(OpBuilder &builder, Location loc);

/// Writes the thread's `elements` of a tensor of `type` to the scratch, each at its row-major
/// linear index plus `offset` (in elements; i1 as i8), once per distinct index; no barrier
/// (ViewOpToLLVM.cpp).
void storeTensorToShared(OpBuilder &builder, Location loc, RankedTensorType type,
                         ArrayRef<Value> elements, int64_t offset);

// Reductions and scans (ReduceOpToLLVM.cpp; ScanOpToLLVM.cpp uses them too).

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

/// Store / load of the `index`-th element of the scratch area at `byteOffset` (i1 as i8).
void emitScratchStore(OpBuilder &builder, Location loc, unsigned byteOffset, Value index,
                      Value value);
Value emitScratchLoad(OpBuilder &builder, Location loc, unsigned byteOffset, Value index,
                      Type type);

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
/// tkgpu.convert_layout blocked -> dot_operand through swizzled shared memory and ldmatrix,
/// ahead of ViewOpToLLVM.cpp's generic conversion.
void populateConvertToDotOperandPatterns(TkToLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateMMAv2DotOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                      RewritePatternSet &patterns);
void populateMathOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populatePtrCastOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
/// scf.for / scf.if / scf.while carrying tensors: their types converted (legality into `target`).
void populateControlFlowOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns, ConversionTarget &target);

} // namespace mlir::tk

#endif // TK_CONVERSION_TKTOLLVM_PATTERNTKTOLLVM_H

/// @file What the tk-to-llvm files share: the type converter (a tensor in a distributed layout
/// is a struct of the elements its thread holds), packing and unpacking those structs, the
/// thread's tensor indices, and one populate function per op family.
#ifndef TK_CONVERSION_TKTOLLVM_PATTERNTKTOLLVM_H
#define TK_CONVERSION_TKTOLLVM_PATTERNTKTOLLVM_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/Builders.h"
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

} // namespace mlir::tk

#endif // TK_CONVERSION_TKTOLLVM_PATTERNTKTOLLVM_H

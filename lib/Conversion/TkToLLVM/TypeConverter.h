/// @file TypeConverter.h
/// The tk-to-llvm type converter: a tensor in a distributed layout is a struct of the
/// elements its thread holds.
#ifndef TK_CONVERSION_TKTOLLVM_TYPECONVERTER_H
#define TK_CONVERSION_TKTOLLVM_TYPECONVERTER_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace mlir::tk {

/// LLVM types for tk IR: `!tk.ptr<T>` is `!llvm.ptr<1>` (global memory); a ranked tensor with a
/// distributed layout is `!llvm.struct<(T, T, ...)>` with one member per element the thread
/// holds, in Layout.h's order. Scalars convert as LLVMTypeConverter converts them.
class TkToLLVMTypeConverter : public LLVMTypeConverter {
public:
  explicit TkToLLVMTypeConverter(MLIRContext *context);
};

} // namespace mlir::tk

#endif // TK_CONVERSION_TKTOLLVM_TYPECONVERTER_H

/// @file TypeConverter.cpp
/// The tk-to-llvm type converter (TypeConverter.h).
#include "Conversion/TkToLLVM/TypeConverter.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

TkToLLVMTypeConverter::TkToLLVMTypeConverter(MLIRContext *context) : LLVMTypeConverter(context) {
  addConversion([context](PointerType) -> Type {
    return LLVM::LLVMPointerType::get(context, /*addressSpace=*/1);
  });
  // A tensor-map argument (tk-tma-descriptors): a generic pointer to the 128-byte map the
  // kernel parameter holds.
  addConversion([context](TensorDescType) -> Type {
    return LLVM::LLVMPointerType::get(context, /*addressSpace=*/0);
  });
  addConversion([context](tkgpu::MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(context, /*addressSpace=*/3);
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    Attribute layout = type.getEncoding();
    if (!tkgpu::isDistributedLayout(layout))
      return std::nullopt; // no layout: tk-assign-layouts did not run
    Type element = convertType(type.getElementType());
    if (!element)
      return std::nullopt;
    unsigned count = tkgpu::getTotalElemsPerThread(layout, type.getShape());
    SmallVector<Type> members(count, element);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), members);
  });
}

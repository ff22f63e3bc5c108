/// @file TensorMap.h
/// The recipe of a tensor-map kernel argument (`tkgpu.tensor_map`, made by
/// tk-tma-descriptors): how the launch encodes the argument's CUtensorMap from the kernel's
/// other arguments. One type for the pass that makes it, the pass that adds its box and
/// swizzle, the dialect's verifier and the C ABI that hands it to the runtime.
#ifndef TK_DIALECT_TKGPU_IR_TENSORMAP_H
#define TK_DIALECT_TKGPU_IR_TENSORMAP_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tkgpu {

/// Per dimension, outermost first as in the IR: the size is argument `shapeArgs[d]`, or the
/// constant `shape[d]` where that index is -1; likewise each stride. The last stride is the
/// constant 1 (TMA reads rows of contiguous elements). `box` is the box each copy moves (the
/// block's shape when empty), `swizzle` the shared-memory swizzle in bytes (0, 32, 64, 128).
struct TensorMapRecipe {
  static constexpr llvm::StringLiteral attrName = "tkgpu.tensor_map";
  static constexpr int maxRank = 5; // cuTensorMapEncodeTiled's

  int32_t base = -1; // the pointer argument
  SmallVector<int32_t> shapeArgs, strideArgs;
  SmallVector<int64_t> shape, strides;
  SmallVector<int32_t> box;
  int32_t swizzle = 0;

  DictionaryAttr toAttr(MLIRContext *context) const;

  /// The recipe of argument `arg` of `func`, checked against the function's arguments and the
  /// argument's descriptor type; an error through `emitError` where it is malformed.
  static FailureOr<TensorMapRecipe> read(FunctionOpInterface func, unsigned arg, Attribute attr,
                                         function_ref<InFlightDiagnostic()> emitError);
  /// The recipe of argument `arg`, where it has one; the IR has been verified.
  static std::optional<TensorMapRecipe> of(FunctionOpInterface func, unsigned arg);
};

} // namespace mlir::tkgpu

#endif // TK_DIALECT_TKGPU_IR_TENSORMAP_H

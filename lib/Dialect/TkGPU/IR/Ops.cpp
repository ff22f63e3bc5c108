/// @file The tkgpu ops' verifiers and folders.
#include "Dialect/TkGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tkgpu;

#define GET_OP_CLASSES
#include "Dialect/TkGPU/IR/TkGPUOps.cpp.inc"

LogicalResult ConvertLayoutOp::verify() {
  auto src = getSrc().getType(), result = getType();
  if (src.getShape() != result.getShape() || src.getElementType() != result.getElementType())
    return emitOpError() << "result must have the operand's shape and element type: converts "
                         << src << " to " << result;
  if (!src.getEncoding() || !result.getEncoding())
    return emitOpError() << "operand and result must both have a layout, got " << src << " and "
                         << result;
  return success();
}

/// An identity conversion is its operand; a conversion of a conversion converts the original.
OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

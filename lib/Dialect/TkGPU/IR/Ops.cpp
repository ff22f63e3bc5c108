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

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  if (src.getRank() != 3 || result.getShape() != src.getShape().drop_front() ||
      src.getElementType() != result.getElementType() || src.getEncoding() != result.getEncoding())
    return emitOpError() << "views one tile of a buffer of tiles: " << result
                         << " is not a tile of " << src;
  return success();
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  RankedTensorType ptr = getPtr().getType();
  MemDescType dst = getDst().getType();
  auto pointee = cast<tk::PointerType>(ptr.getElementType()).getPointeeType();
  if (dst.getShape() != ptr.getShape() || dst.getElementType() != pointee)
    return emitOpError() << "copies " << ptr
                         << " to a tile of the same shape and element type, got " << dst;
  if (!isa_and_nonnull<BlockedEncodingAttr>(ptr.getEncoding()))
    return emitOpError() << "pointers must have a blocked layout, got " << ptr;
  if (getMask() && (getMask().getType().getShape() != ptr.getShape() ||
                    getMask().getType().getEncoding() != ptr.getEncoding()))
    return emitOpError() << "mask " << getMask().getType() << " must have the pointers' shape "
                         << "and layout";
  return success();
}

LogicalResult LocalLoadOp::verify() {
  MemDescType src = getSrc().getType();
  RankedTensorType result = getType();
  if (src.getShape() != result.getShape() || src.getElementType() != result.getElementType())
    return emitOpError() << "reads " << src << " into a tensor of the same shape and element "
                         << "type, got " << result;
  if (!result.getEncoding())
    return emitOpError() << "result must have a layout, got " << result;
  return success();
}

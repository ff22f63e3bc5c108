/// @file Ops.cpp
/// The tkgpu ops' verifiers and folders.
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

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

LogicalResult LocalAllocOp::verify() {
  if (!getSrc())
    return success();
  auto src = cast<RankedTensorType>(getSrc().getType());
  MemDescType result = getType();
  if (result.getRank() != 2 || src.getShape() != result.getShape() ||
      src.getElementType() != result.getElementType())
    return emitOpError() << "stores " << src << " into a tile of the same shape and element type, "
                         << "got " << result;
  if (!src.getEncoding())
    return emitOpError() << "operand must have a layout, got " << src;
  return success();
}

LogicalResult WarpGroupDotOp::verify() {
  RankedTensorType c = getC().getType(), result = getType();
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(result.getEncoding());
  if (!mma || !mma.isHopper())
    return emitOpError() << "result must have an mma layout of version 3, got " << result;
  if (c != result)
    return emitOpError() << "accumulator " << c << " must have the result's type " << result;
  MemDescType b = getB().getType();
  ArrayRef<int64_t> aShape;
  Type aElement;
  if (auto a = dyn_cast<MemDescType>(getA().getType())) {
    aShape = a.getShape();
    aElement = a.getElementType();
  } else {
    auto tensor = cast<RankedTensorType>(getA().getType());
    auto operand = dyn_cast_or_null<DotOperandEncodingAttr>(tensor.getEncoding());
    if (!operand || operand.getOpIdx() != 0 || operand.getParent() != mma)
      return emitOpError() << "a register operand must have the dot_operand layout (opIdx 0) of "
                           << "the result's mma layout, got " << tensor;
    aShape = tensor.getShape();
    aElement = tensor.getElementType();
  }
  if (aShape.size() != 2 || b.getRank() != 2 || aShape[1] != b.getShape()[0] ||
      aShape[0] != result.getDimSize(0) || b.getShape()[1] != result.getDimSize(1))
    return emitOpError() << "shapes do not form a matrix product: " << getA().getType() << " x "
                         << b << " -> " << result;
  if (aElement != b.getElementType() &&
      !(tk::isFloat8(aElement) && tk::isFloat8(b.getElementType())))
    return emitOpError() << "a and b must have the same element type (or two fp8 types), got "
                         << aElement << " and " << b.getElementType();
  return success();
}

/// Whether `type` is one mbarrier: a 1 x 1 tile of i64.
static bool isBarrier(MemDescType type) {
  return type.getShape() == ArrayRef<int64_t>{1, 1} && type.getElementType().isInteger(64);
}

static LogicalResult verifyBarrier(Operation *op, MemDescType type) {
  if (!isBarrier(type))
    return op->emitOpError() << "barrier must be a 1x1 tile of i64, got " << type;
  return success();
}

LogicalResult InitBarrierOp::verify() {
  if (getCount() < 1)
    return emitOpError() << "count must be at least 1, got " << getCount();
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult InvalBarrierOp::verify() { return verifyBarrier(*this, getBarrier().getType()); }

LogicalResult WaitBarrierOp::verify() { return verifyBarrier(*this, getBarrier().getType()); }

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  RankedTensorType block = getDesc().getType().getBlockType();
  MemDescType dst = getDst().getType();
  if (getIndices().size() != size_t(block.getRank()))
    return emitOpError() << "takes one index per dimension of the block " << block << ", got "
                         << getIndices().size();
  if (dst.getElementType() != block.getElementType())
    return emitOpError() << "tile " << dst << " must have the element type of the block " << block;
  if (!getTmaTileBoxes(dst, block.getShape()))
    return emitOpError() << "TMA cannot fill tile " << dst << " with blocks of " << block
                         << ": it must be the block (order [1, 0]) or its transpose (order [0, "
                            "1]) in a wgmma layout, with rows in multiples of 8";
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult WarpGroupDotWaitOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                                   ValueRange operands, DictionaryAttr,
                                                   OpaqueProperties, RegionRange,
                                                   SmallVectorImpl<Type> &types) {
  for (Value operand : operands)
    types.push_back(operand.getType());
  return success();
}

ParseResult LocalAllocOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand src;
  OptionalParseResult hasSrc = parser.parseOptionalOperand(src);
  if (hasSrc.has_value() && failed(*hasSrc))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  Type srcType, resultType;
  if (hasSrc.has_value()) {
    if (parser.parseType(srcType) || parser.parseArrow() ||
        parser.resolveOperand(src, srcType, result.operands))
      return failure();
  }
  if (parser.parseType(resultType))
    return failure();
  result.addTypes(resultType);
  return success();
}

void LocalAllocOp::print(OpAsmPrinter &printer) {
  if (getSrc())
    printer << " " << getSrc();
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << " : ";
  if (getSrc())
    printer << getSrc().getType() << " -> ";
  printer.printType(getType());
}

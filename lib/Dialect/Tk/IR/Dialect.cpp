/// @file Dialect.cpp
/// The tk dialect: registration, and the `tk.divisibility` argument attribute.
#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tk;

#include "Dialect/Tk/IR/TkDialect.cpp.inc"

void TkDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "Dialect/Tk/IR/TkOps.cpp.inc"
      >();
}

/// The number of elements of `type` when it is a tensor holding more than a block may, else
/// nullopt; 0 when the count does not fit in 64 bits.
static std::optional<uint64_t> excessElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return std::nullopt;
  uint64_t count = 1;
  bool overflow = false;
  for (int64_t dim : tensor.getShape()) {
    bool overflowed = false;
    if (!ShapedType::isDynamic(dim))
      count = llvm::SaturatingMultiply(count, uint64_t(dim), &overflowed);
    overflow |= overflowed;
  }
  if (count <= uint64_t(TkDialect::getMaxBlockElements()))
    return std::nullopt;
  return overflow ? 0 : count;
}

static LogicalResult checkBlockSize(Operation *op, Type type, StringRef what, unsigned index) {
  std::optional<uint64_t> count = excessElements(type);
  if (!count)
    return success();
  InFlightDiagnostic error = op->emitOpError() << what << " " << index << " is " << type << ", ";
  if (*count)
    error << *count << " elements";
  else
    error << "more than 2^64 elements";
  return error << "; a block holds at most " << TkDialect::getMaxBlockElements()
               << " (2^20) elements: split the work over more program instances";
}

LogicalResult mlir::tk::verifyBlockSizes(Operation *op, bool operands) {
  if (operands)
    for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
      if (failed(checkBlockSize(op, type, "operand", i)))
        return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(checkBlockSize(op, type, "result", i)))
      return failure();
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        if (failed(checkBlockSize(op, arg.getType(), "block argument", arg.getArgNumber())))
          return failure();
  return success();
}

LogicalResult mlir::tk::verifyBlockSizesIn(Operation *root) {
  WalkResult walk = root->walk<WalkOrder::PreOrder>([](Operation *op) {
    return failed(verifyBlockSizes(op, false)) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

Operation *TkDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                          Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

/// `{tk.divisibility = 16 : i32}` on a kernel argument: the pointer (in bytes) or the integer is
/// a multiple of that power of two. The front end prints 16; the analyses accept any.
LogicalResult TkDialect::verifyRegionArgAttribute(Operation *op, unsigned regionIndex,
                                                  unsigned argIndex, NamedAttribute attr) {
  if (attr.getName() != getDivisibilityAttrName())
    return op->emitError() << "unknown argument attribute '" << attr.getName().getValue()
                           << "' on argument " << argIndex << " (the tk dialect defines only '"
                           << getDivisibilityAttrName() << "')";
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || !value.getType().isSignlessInteger(32))
    return op->emitError() << "'" << getDivisibilityAttrName() << "' of argument " << argIndex
                           << " must be an i32 integer such as `16 : i32`, got " << attr.getValue();
  const int64_t divisor = value.getInt();
  if (divisor <= 0 || !llvm::isPowerOf2_64(uint64_t(divisor)))
    return op->emitError() << "'" << getDivisibilityAttrName() << "' of argument " << argIndex
                           << " must be a positive power of two, got " << divisor;
  // A function declaration has no entry block, hence no argument types to check here.
  if (regionIndex < op->getNumRegions() && !op->getRegion(regionIndex).empty()) {
    Block &entry = op->getRegion(regionIndex).front();
    if (argIndex < entry.getNumArguments()) {
      Type type = entry.getArgument(argIndex).getType();
      if (!isa<PointerType>(type) && !type.isSignlessInteger())
        return op->emitError() << "'" << getDivisibilityAttrName()
                               << "' applies to pointer and integer arguments; argument "
                               << argIndex << " is " << type;
    }
  }
  return success();
}

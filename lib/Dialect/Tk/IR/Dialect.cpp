/// @file The tk dialect: registration, and the `tk.divisibility` argument attribute.
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

/// @file Types.cpp
/// The tkgpu types: `!tkgpu.memdesc<shape x element, #shared>`, its syntax and verifier.
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tkgpu;

#define GET_TYPEDEF_CLASSES
#include "Dialect/TkGPU/IR/TkGPUTypes.cpp.inc"

void TkGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Dialect/TkGPU/IR/TkGPUTypes.cpp.inc"
      >();
}

/// `<3x64x32xf16, #tkgpu.shared<{...}>>`.
Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  SMLoc encodingLoc = parser.getCurrentLocation();
  if (parser.parseAttribute(encoding) || parser.parseGreater())
    return {};
  auto shared = dyn_cast<SharedEncodingAttr>(encoding);
  if (!shared) {
    parser.emitError(encodingLoc) << "memdesc's layout must be a shared layout, got " << encoding;
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), shape, elementType,
                    shared);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", ";
  printer.printAttribute(getEncoding());
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  SharedEncodingAttr encoding) {
  if (shape.size() < 2 || shape.size() > 3)
    return emitError() << "memdesc must have rank 2 (a tile) or 3 (tiles), got " << shape.size();
  if (llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "memdesc's dimensions must be positive";
  if (!elementType.isIntOrFloat())
    return emitError() << "memdesc's elements must be integers or floats, got " << elementType;
  if (encoding.getOrder().size() != 2)
    return emitError() << "memdesc's shared layout must have rank 2 (its tile's)";
  return success();
}

int64_t MemDescType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

int64_t MemDescType::getAllocElements() const {
  ArrayRef<int64_t> shape = getShape();
  const int64_t tiles = shape.size() == 3 ? shape.front() : 1;
  return tiles * getTileElements(getEncoding(), shape.take_back(2));
}

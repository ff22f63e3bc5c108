/// @file The tkgpu layouts: syntax, verifiers, and the `#blocked` / `#slice` aliases they print
/// under.
#include "Dialect/TkGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tkgpu;

#define GET_ATTRDEF_CLASSES
#include "Dialect/TkGPU/IR/TkGPUAttrs.cpp.inc"

namespace {

/// Prints IR with `#blocked`, `#blocked1`, ... instead of repeating each layout at every use.
struct TkGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};

/// `key = [a, b, ...]`.
ParseResult parseArray(AsmParser &parser, StringRef key, SmallVectorImpl<unsigned> &values) {
  if (parser.parseKeyword(key) || parser.parseEqual())
    return failure();
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() { return parser.parseInteger(values.emplace_back()); });
}

void printArray(AsmPrinter &printer, StringRef key, ArrayRef<unsigned> values) {
  printer << key << " = [";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

} // namespace

void TkGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Dialect/TkGPU/IR/TkGPUAttrs.cpp.inc"
      >();
  addInterfaces<TkGPUOpAsmInterface>();
}

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseLBrace() ||
      parseArray(parser, "sizePerThread", sizePerThread) || parser.parseComma() ||
      parseArray(parser, "threadsPerWarp", threadsPerWarp) || parser.parseComma() ||
      parseArray(parser, "warpsPerCTA", warpsPerCTA) || parser.parseComma() ||
      parseArray(parser, "order", order) || parser.parseRBrace() || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), sizePerThread,
                    threadsPerWarp, warpsPerCTA, order);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{";
  printArray(printer, "sizePerThread", getSizePerThread());
  printer << ", ";
  printArray(printer, "threadsPerWarp", getThreadsPerWarp());
  printer << ", ";
  printArray(printer, "warpsPerCTA", getWarpsPerCTA());
  printer << ", ";
  printArray(printer, "order", getOrder());
  printer << "}>";
}

LogicalResult BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          ArrayRef<unsigned> sizePerThread,
                                          ArrayRef<unsigned> threadsPerWarp,
                                          ArrayRef<unsigned> warpsPerCTA,
                                          ArrayRef<unsigned> order) {
  const size_t rank = order.size();
  if (rank == 0)
    return emitError() << "blocked layout must have rank >= 1";
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "blocked layout's sizePerThread, threadsPerWarp, warpsPerCTA and order "
                          "must have one entry per dimension, got "
                       << sizePerThread.size() << ", " << threadsPerWarp.size() << ", "
                       << warpsPerCTA.size() << " and " << rank;
  for (auto [name, values] :
       {std::pair<StringRef, ArrayRef<unsigned>>{"sizePerThread", sizePerThread},
        {"threadsPerWarp", threadsPerWarp},
        {"warpsPerCTA", warpsPerCTA}})
    for (unsigned v : values)
      if (!llvm::isPowerOf2_32(v))
        return emitError() << "blocked layout's " << name
                           << " entries must be positive powers of two, got " << v;
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "blocked layout's order must be a permutation of 0.." << rank - 1;
    seen[d] = true;
  }
  unsigned lanes = 1;
  for (unsigned t : threadsPerWarp)
    lanes *= t;
  if (lanes != 32)
    return emitError() << "blocked layout's threadsPerWarp must multiply to 32 (a warp), got "
                       << lanes;
  return success();
}

LogicalResult
BlockedEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getRank())
    return emitError() << "blocked layout of rank " << getRank() << " on a tensor of rank "
                       << shape.size();
  return success();
}

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  unsigned dim = 0;
  Attribute parent;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseLBrace() || parser.parseKeyword("dim") ||
      parser.parseEqual() || parser.parseInteger(dim) || parser.parseComma() ||
      parser.parseKeyword("parent") || parser.parseEqual())
    return {};
  SMLoc parentLoc = parser.getCurrentLocation();
  if (parser.parseAttribute(parent) || parser.parseRBrace() || parser.parseGreater())
    return {};
  auto blocked = dyn_cast<BlockedEncodingAttr>(parent);
  if (!blocked) {
    parser.emitError(parentLoc) << "slice layout's parent must be a blocked layout, got " << parent;
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), dim, blocked);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = ";
  printer.printAttribute(getParent());
  printer << "}>";
}

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned dim,
                                        BlockedEncodingAttr parent) {
  if (parent.getRank() < 2)
    return emitError() << "slice layout's parent must have rank >= 2, got " << parent.getRank();
  if (dim >= parent.getRank())
    return emitError() << "slice layout's dim " << dim << " is out of range for a parent of rank "
                       << parent.getRank();
  return success();
}

LogicalResult
SliceEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                  function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() + 1 != getParent().getRank())
    return emitError() << "slice layout of rank " << getParent().getRank() - 1
                       << " on a tensor of rank " << shape.size();
  return success();
}

/// @file Attrs.cpp
/// The tkgpu layouts: syntax, verifiers, and the `#blocked` / `#slice` / `#mma` /
/// `#dot_op` / `#shared` aliases they print under.
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

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
    if (isa<MmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<DotOperandEncodingAttr>(attr)) {
      os << "dot_op";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedEncodingAttr>(attr)) {
      os << "shared";
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
  if (!isa<BlockedEncodingAttr, MmaEncodingAttr>(parent)) {
    parser.emitError(parentLoc) << "slice layout's parent must be a blocked or mma layout, got "
                                << parent;
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = ";
  printer.printAttribute(getParent());
  printer << "}>";
}

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned dim,
                                        Attribute parent) {
  if (!isa<BlockedEncodingAttr, MmaEncodingAttr>(parent))
    return emitError() << "slice layout's parent must be a blocked or mma layout, got " << parent;
  const unsigned rank = tkgpu::getRank(parent);
  if (rank < 2)
    return emitError() << "slice layout's parent must have rank >= 2, got " << rank;
  if (dim >= rank)
    return emitError() << "slice layout's dim " << dim << " is out of range for a parent of rank "
                       << rank;
  return success();
}

LogicalResult
SliceEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                  function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() + 1 != tkgpu::getRank(getParent()))
    return emitError() << "slice layout of rank " << tkgpu::getRank(getParent()) - 1
                       << " on a tensor of rank " << shape.size();
  return success();
}

Attribute MmaEncodingAttr::parse(AsmParser &parser, Type) {
  unsigned version = 0;
  SmallVector<unsigned> warpsPerCTA, instrShape;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseLBrace() || parser.parseKeyword("version") ||
      parser.parseEqual() || parser.parseInteger(version) || parser.parseComma() ||
      parseArray(parser, "warpsPerCTA", warpsPerCTA) || parser.parseComma() ||
      parseArray(parser, "instrShape", instrShape) || parser.parseRBrace() || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), version,
                    warpsPerCTA, instrShape);
}

void MmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{version = " << getVersionMajor() << ", ";
  printArray(printer, "warpsPerCTA", getWarpsPerCTA());
  printer << ", ";
  printArray(printer, "instrShape", getInstrShape());
  printer << "}>";
}

LogicalResult MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      unsigned versionMajor, ArrayRef<unsigned> warpsPerCTA,
                                      ArrayRef<unsigned> instrShape) {
  if (versionMajor != 2 && versionMajor != 3)
    return emitError() << "mma layout version " << versionMajor
                       << " is not supported (2: mma.sync, 3: wgmma)";
  if (warpsPerCTA.size() != 2)
    return emitError() << "mma layout's warpsPerCTA must have 2 entries, got "
                       << warpsPerCTA.size();
  for (unsigned w : warpsPerCTA)
    if (!llvm::isPowerOf2_32(w))
      return emitError() << "mma layout's warpsPerCTA entries must be positive powers of two, got "
                         << w;
  if (versionMajor == 2) {
    if (instrShape.size() != 2 || instrShape[0] != 16 || instrShape[1] != 8)
      return emitError() << "mma layout version 2 must have instrShape = [16, 8]";
    return success();
  }
  if (warpsPerCTA[0] % 4 != 0)
    return emitError() << "mma layout version 3 needs warpsPerCTA[0] to be a multiple of 4 (a "
                          "warpgroup down the rows), got "
                       << warpsPerCTA[0];
  if (instrShape.size() != 2 || instrShape[0] != 16 || instrShape[1] % 8 != 0 ||
      instrShape[1] == 0 || instrShape[1] > 256)
    return emitError() << "mma layout version 3 must have instrShape = [16, n] with n a "
                          "multiple of 8 from 8 to 256";
  return success();
}

std::pair<unsigned, unsigned> MmaEncodingAttr::getWarpCoords(unsigned warp) const {
  const unsigned warpsM = getWarpsPerCTA()[0], warpsN = getWarpsPerCTA()[1];
  if (isHopper())
    return {warp % warpsM, warp / warpsM % warpsN};
  return {warp / warpsN % warpsM, warp % warpsN};
}

LogicalResult MmaEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                              function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "mma layout on a tensor of rank " << shape.size() << " (must be 2)";
  return success();
}

Attribute DotOperandEncodingAttr::parse(AsmParser &parser, Type) {
  unsigned opIdx = 0, kWidth = 0;
  Attribute parent;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseLBrace() || parser.parseKeyword("opIdx") ||
      parser.parseEqual() || parser.parseInteger(opIdx) || parser.parseComma() ||
      parser.parseKeyword("parent") || parser.parseEqual())
    return {};
  SMLoc parentLoc = parser.getCurrentLocation();
  if (parser.parseAttribute(parent) || parser.parseComma() || parser.parseKeyword("kWidth") ||
      parser.parseEqual() || parser.parseInteger(kWidth) || parser.parseRBrace() ||
      parser.parseGreater())
    return {};
  auto mma = dyn_cast<MmaEncodingAttr>(parent);
  if (!mma) {
    parser.emitError(parentLoc) << "dot_operand layout's parent must be an mma layout, got "
                                << parent;
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), opIdx, mma, kWidth);
}

void DotOperandEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{opIdx = " << getOpIdx() << ", parent = ";
  printer.printAttribute(getParent());
  printer << ", kWidth = " << getKWidth() << "}>";
}

LogicalResult DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             unsigned opIdx, MmaEncodingAttr parent,
                                             unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "dot_operand layout's opIdx must be 0 (a) or 1 (b), got " << opIdx;
  if (parent.isHopper() && opIdx != 0)
    return emitError() << "dot_operand layout of an mma layout of version 3 must be operand a "
                          "(opIdx 0): wgmma reads b from shared memory";
  if (kWidth != 1 && kWidth != 2 && kWidth != 4)
    return emitError() << "dot_operand layout's kWidth must be 1, 2 or 4 (elements per 32-bit "
                          "register), got "
                       << kWidth;
  return success();
}

LogicalResult
DotOperandEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                       function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "dot_operand layout on a tensor of rank " << shape.size()
                       << " (must be 2)";
  const int64_t k = shape[getOpIdx() == 0 ? 1 : 0];
  if (k % getInstrK() != 0)
    return emitError() << "dot_operand layout with kWidth = " << getKWidth()
                       << " needs K to be a multiple of " << getInstrK() << ", got " << k;
  return success();
}

Attribute SharedEncodingAttr::parse(AsmParser &parser, Type) {
  unsigned vec = 0, perPhase = 0, maxPhase = 0, padding = 0, panelWidth = 0;
  SmallVector<unsigned> order;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseLBrace() || parser.parseKeyword("vec") ||
      parser.parseEqual() || parser.parseInteger(vec) || parser.parseComma() ||
      parser.parseKeyword("perPhase") || parser.parseEqual() || parser.parseInteger(perPhase) ||
      parser.parseComma() || parser.parseKeyword("maxPhase") || parser.parseEqual() ||
      parser.parseInteger(maxPhase) || parser.parseComma() || parseArray(parser, "order", order))
    return {};
  // Optional fields, in this order: `padding = N`, `panelWidth = N`.
  if (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc keyLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key))
      return {};
    if (key == "padding") {
      if (parser.parseEqual() || parser.parseInteger(padding))
        return {};
      if (succeeded(parser.parseOptionalComma()) &&
          (parser.parseKeyword("panelWidth") || parser.parseEqual() ||
           parser.parseInteger(panelWidth)))
        return {};
    } else if (key == "panelWidth") {
      if (parser.parseEqual() || parser.parseInteger(panelWidth))
        return {};
    } else {
      parser.emitError(keyLoc) << "expected 'padding' or 'panelWidth', got '" << key << "'";
      return {};
    }
  }
  if (parser.parseRBrace() || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), vec, perPhase,
                    maxPhase, order, padding, panelWidth);
}

void SharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", ";
  printArray(printer, "order", getOrder());
  if (getPadding())
    printer << ", padding = " << getPadding();
  if (getPanelWidth())
    printer << ", panelWidth = " << getPanelWidth();
  printer << "}>";
}

LogicalResult SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned vec,
                                         unsigned perPhase, unsigned maxPhase,
                                         ArrayRef<unsigned> order, unsigned padding,
                                         unsigned panelWidth) {
  for (auto [name, value] :
       {std::pair<StringRef, unsigned>{"vec", vec}, {"perPhase", perPhase}, {"maxPhase", maxPhase}})
    if (!llvm::isPowerOf2_32(value))
      return emitError() << "shared layout's " << name << " must be a positive power of two, got "
                         << value;
  if (order.size() != 2 || !((order[0] == 0 && order[1] == 1) || (order[0] == 1 && order[1] == 0)))
    return emitError() << "shared layout's order must be [0, 1] or [1, 0]";
  if (panelWidth != 0) {
    if (!llvm::isPowerOf2_32(panelWidth) || panelWidth < vec * maxPhase)
      return emitError() << "shared layout's panelWidth must be a power of two holding "
                            "vec * maxPhase elements, got "
                         << panelWidth;
    if (padding != 0)
      return emitError() << "shared layout cannot have both padding and panels";
  }
  return success();
}

/// @file Types.cpp
/// `!tk.ptr<T>`: parsing, printing (generated) and its verifier.
#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tk;

#define GET_TYPEDEF_CLASSES
#include "Dialect/Tk/IR/TkTypes.cpp.inc"

/// The front end's element types: signless i1, i8, i16, i32, i64; f8E4M3FN, f8E5M2,
/// f8E4M3FNUZ, f8E5M2FNUZ, f16, bf16, f32, f64.
static bool isScalarElementType(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return i.isSignless() && llvm::is_contained({1u, 8u, 16u, 32u, 64u}, i.getWidth());
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType, Float8E5M2FNUZType>(t) ||
         t.isF16() || t.isBF16() || t.isF32() || t.isF64();
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError, Type pointee) {
  if (!isScalarElementType(pointee))
    return emitError() << "!tk.ptr points to an integer or floating-point type (i1 ... i64, "
                          "f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f16, bf16, f32, f64), got "
                       << pointee;
  return success();
}

void TkDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Dialect/Tk/IR/TkTypes.cpp.inc"
      >();
}

/// The block type of a descriptor or block pointer (`what`): static, non-empty, of elements,
/// with power-of-two dimensions.
static LogicalResult verifyAccessBlock(function_ref<InFlightDiagnostic()> emitError,
                                       RankedTensorType block, StringRef what) {
  if (!block || block.getRank() == 0 || !block.hasStaticShape() ||
      !isScalarElementType(block.getElementType()))
    return emitError() << what
                       << "'s block must be a statically shaped tensor of integers or floats, got "
                       << block;
  for (int64_t d : block.getShape())
    if (!llvm::isPowerOf2_64(uint64_t(d)))
      return emitError() << what << "'s block dimensions must be powers of two, got " << block;
  return success();
}

LogicalResult TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                     RankedTensorType block) {
  return verifyAccessBlock(emitError, block, "!tk.tensordesc");
}

LogicalResult BlockPtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   RankedTensorType block) {
  return verifyAccessBlock(emitError, block, "!tk.blockptr");
}

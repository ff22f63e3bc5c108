/// @file ReduceScanCommon.cpp
/// What the tk.reduce and tk.scan lowerings share (ReduceScanCommon.h): the thread's
/// coordinates along the axis, shuffles of any scalar, the inlined combine region.
#include "Conversion/TkToLLVM/ReduceScanCommon.h"

#include "Conversion/TkToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

Value lshrConst(OpBuilder &b, Location loc, Value value, unsigned shift) {
  return shift == 0 ? value : LLVM::LShrOp::create(b, loc, value, i32Constant(b, loc, shift));
}

} // namespace

std::pair<Value, Value> mlir::tk::emitAxisCoords(OpBuilder &b, Location loc,
                                                 const CombineAxis &axis) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  // (id / stride) % copies, the copies of the distinct lanes (warps) coming after them.
  auto coord = [&](Value id, unsigned stride, unsigned count) -> Value {
    if (count == 1)
      return i32Constant(b, loc, 0);
    Value shifted = lshrConst(b, loc, id, llvm::Log2_32(stride));
    return LLVM::AndOp::create(b, loc, shifted, i32Constant(b, loc, count - 1));
  };
  Value lane = LLVM::AndOp::create(b, loc, tid, i32Constant(b, loc, 31));
  Value warp = lshrConst(b, loc, tid, 5);
  return {coord(lane, axis.laneStride, axis.lanes), coord(warp, axis.warpStride, axis.warps)};
}

bool mlir::tk::isShuffleable(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return true;
  if (!type.isIntOrFloat())
    return false;
  const unsigned bits = type.getIntOrFloatBitWidth();
  return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

FailureOr<SmallVector<Type>> mlir::tk::getCombineElementTypes(const TypeConverter &converter,
                                                              ValueRange srcs) {
  SmallVector<Type> types;
  for (Value src : srcs) {
    Type type = converter.convertType(getElementTypeOrSelf(src.getType()));
    if (!type || !isShuffleable(type))
      return failure();
    types.push_back(type);
  }
  return types;
}

Value mlir::tk::emitShuffle(OpBuilder &b, Location loc, Value value, unsigned kindValue,
                            Value lane) {
  auto kind = static_cast<NVVM::ShflKind>(kindValue);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  // shfl's c operand: up clamps at lane 0 (its lower bound), the others at lane 31.
  const int clamp = kind == NVVM::ShflKind::up ? 0 : 0x1f;
  auto shuffle32 = [&](Value x) -> Value {
    return NVVM::ShflOp::create(b, loc, x.getType(), i32Constant(b, loc, -1), x, lane,
                                i32Constant(b, loc, clamp), kind, UnitAttr());
  };
  Type type = value.getType();
  if (type.isF32() || type.isInteger(32))
    return shuffle32(value);
  if (isa<LLVM::LLVMPointerType>(type)) {
    Value bits = LLVM::PtrToIntOp::create(b, loc, i64, value);
    return LLVM::IntToPtrOp::create(b, loc, type, emitShuffle(b, loc, bits, kindValue, lane));
  }
  const unsigned width = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(width);
  Value bits = isa<IntegerType>(type) ? value : LLVM::BitcastOp::create(b, loc, intType, value);
  Value result;
  if (width < 32) {
    // Only the low bits come back, so zero- or sign-extension alike.
    Value wide = LLVM::ZExtOp::create(b, loc, i32, bits);
    result = LLVM::TruncOp::create(b, loc, intType, shuffle32(wide));
  } else {
    // 64 bits: the two halves separately.
    Value low = LLVM::TruncOp::create(b, loc, i32, bits);
    Value high = LLVM::TruncOp::create(
        b, loc, i32, LLVM::LShrOp::create(b, loc, bits, LLVM::ConstantOp::create(b, loc, i64, 32)));
    Value lowBack = LLVM::ZExtOp::create(b, loc, i64, shuffle32(low));
    Value highBack = LLVM::ZExtOp::create(b, loc, i64, shuffle32(high));
    highBack = LLVM::ShlOp::create(b, loc, highBack, LLVM::ConstantOp::create(b, loc, i64, 32));
    result = LLVM::OrOp::create(b, loc, lowBack, highBack);
  }
  return isa<IntegerType>(type) ? result : LLVM::BitcastOp::create(b, loc, type, result);
}

SmallVector<Value> mlir::tk::emitCombine(OpBuilder &b, Location loc, Region &combine,
                                         ValueRange lhs, ValueRange rhs) {
  Block &body = combine.front();
  IRMapping mapping;
  for (auto [arg, value] :
       llvm::zip_equal(body.getArguments(), llvm::concat<const Value>(lhs, rhs)))
    mapping.map(arg, value);
  // The clones are new ops of the conversion: the arith patterns lower them in turn.
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value value : body.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(value));
  return results;
}

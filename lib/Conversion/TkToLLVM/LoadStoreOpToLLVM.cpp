/// @file LoadStoreOpToLLVM.cpp
/// tk.load / tk.store -> llvm.load / llvm.store, one per element the thread holds (a store only
/// through the slot holding the element's first copy, where the layout holds it in several) or,
/// where
/// the pass found the elements contiguous and aligned (VectorWidths), one per vector of them
/// (`ld.global.v4.f32`). A mask guards each access with an `scf.if` (a branch once lowered);
/// a masked-off load yields `other`, or zero without it. With vectors, the first element's mask
/// guards the whole vector: the width already took the mask's constancy into account.
///
/// A load or store with a cache operator or an eviction priority is PTX written out
/// (`ld.global.L1::evict_last.cg.v4.b32`), the vector as 32-bit words (16- or 8-bit accesses
/// for narrower vectors); LLVM has no spelling for either. A volatile load is LLVM's
/// (`ld.volatile.global`).
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

unsigned byteSize(Type type) { return std::max(1u, type.getIntOrFloatBitWidth() / 8); }

/// `elements[first, first + width)` as one vector (or the element itself when width is 1).
Value gather(OpBuilder &b, Location loc, ArrayRef<Value> elements, unsigned first, unsigned width) {
  if (width == 1)
    return elements[first];
  auto type = VectorType::get({width}, elements[first].getType());
  Value vector = LLVM::PoisonOp::create(b, loc, type);
  for (unsigned j = 0; j < width; ++j)
    vector =
        LLVM::InsertElementOp::create(b, loc, vector, elements[first + j], i32Constant(b, loc, j));
  return vector;
}

/// Runs `body` under `if (mask)` when there is a mask; its value (if any) is the if's result,
/// `otherwise` when the mask is false.
Value guarded(OpBuilder &b, Location loc, Value mask, Type type, Value otherwise,
              llvm::function_ref<Value(OpBuilder &)> body) {
  if (!mask)
    return body(b);
  TypeRange results = type ? TypeRange(type) : TypeRange();
  auto ifOp = scf::IfOp::create(b, loc, results, mask, /*withElseRegion=*/bool(type));
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder(b.getListener());
  Value value = body(thenBuilder);
  if (!type)
    return {};
  scf::YieldOp::create(thenBuilder, loc, value);
  OpBuilder elseBuilder = ifOp.getElseBodyBuilder(b.getListener());
  scf::YieldOp::create(elseBuilder, loc, otherwise);
  return ifOp.getResult(0);
}

/// The PTX qualifiers after `ld.global` / `st.global` for a cache operator and an eviction
/// priority, both optional: `.L1::evict_last.cg`.
std::string memoryQualifiers(std::optional<StringRef> cache, std::optional<StringRef> evict) {
  std::string q;
  if (evict)
    q += ".L1::" + evict->str();
  if (cache)
    q += "." + cache->str();
  return q;
}

/// How `bytes` bytes (1, 2, 4, 8 or 16) travel through inline PTX: `count` registers of
/// `bits` bits, with the PTX access type and the register constraint.
struct AsmAccess {
  unsigned count, bits;
  const char *ptxType;
  char constraint;
};

AsmAccess asmAccessOf(unsigned bytes) {
  if (bytes >= 4)
    return {bytes / 4, 32, "b32", 'r'};
  if (bytes == 2)
    return {1, 16, "b16", 'h'};
  return {1, 32, "u8", 'r'}; // one byte, zero-extended into a 32-bit register
}

std::string vectorSuffix(unsigned count) { return count == 1 ? "" : ".v" + std::to_string(count); }

/// `type` (an element or a vector) with i1 elements as i8, as memory holds them.
Type boolsAsBytes(OpBuilder &b, Type type) {
  if (auto vector = dyn_cast<VectorType>(type); vector && vector.getElementType().isInteger(1))
    return VectorType::get(vector.getShape(), b.getI8Type());
  return type.isInteger(1) ? b.getI8Type() : type;
}

/// A load of `type` (an element or a vector of them) from `ptr` in inline PTX.
Value emitAsmLoad(OpBuilder &b, Location loc, Value ptr, Type type, unsigned bytes,
                  StringRef qualifiers) {
  const AsmAccess access = asmAccessOf(bytes);
  Type reg = b.getIntegerType(access.bits);
  const std::string text = "ld.global" + qualifiers.str() + vectorSuffix(access.count) + "." +
                           access.ptxType + " " +
                           (access.count == 1 ? "$0" : asmOperands(0, access.count)) + ", [$" +
                           std::to_string(access.count) + "];";
  std::string constraints;
  for (unsigned i = 0; i < access.count; ++i)
    constraints += std::string("=") + access.constraint + ",";
  constraints += "l";
  SmallVector<Value> words = emitAsm(b, loc, text, constraints, ValueRange{ptr}, reg, access.count,
                                     /*sideEffects=*/true);
  // The words as the loaded type.
  Value bits;
  if (access.count == 1) {
    bits = words.front();
    if (bytes == 1)
      bits = LLVM::TruncOp::create(b, loc, b.getI8Type(), bits);
  } else {
    Value vector = LLVM::PoisonOp::create(b, loc, VectorType::get({access.count}, reg));
    for (unsigned i = 0; i < access.count; ++i)
      vector = LLVM::InsertElementOp::create(b, loc, vector, words[i], i32Constant(b, loc, i));
    bits = vector;
  }
  // Booleans are bytes in memory.
  Type memoryType = boolsAsBytes(b, type);
  if (bits.getType() != memoryType)
    bits = LLVM::BitcastOp::create(b, loc, memoryType, bits);
  return memoryType == type ? bits : LLVM::TruncOp::create(b, loc, type, bits);
}

/// A store of `value` (an element or a vector of them) to `ptr` in inline PTX.
void emitAsmStore(OpBuilder &b, Location loc, Value ptr, Value value, unsigned bytes,
                  StringRef qualifiers) {
  const AsmAccess access = asmAccessOf(bytes);
  Type reg = b.getIntegerType(access.bits);
  if (Type memoryType = boolsAsBytes(b, value.getType()); memoryType != value.getType())
    value = LLVM::ZExtOp::create(b, loc, memoryType, value);
  SmallVector<Value> operands = {ptr};
  if (access.count == 1) {
    Value bits = bytes == 1 ? value : LLVM::BitcastOp::create(b, loc, reg, value).getResult();
    if (bytes == 1) {
      if (!bits.getType().isInteger(8))
        bits = LLVM::BitcastOp::create(b, loc, b.getI8Type(), bits);
      bits = LLVM::ZExtOp::create(b, loc, reg, bits);
    }
    operands.push_back(bits);
  } else {
    Value words = LLVM::BitcastOp::create(b, loc, VectorType::get({access.count}, reg), value);
    for (unsigned i = 0; i < access.count; ++i)
      operands.push_back(
          LLVM::ExtractElementOp::create(b, loc, words, i32Constant(b, loc, i)).getResult());
  }
  const std::string ptxType = bytes == 1 ? "b8" : access.ptxType;
  const std::string text = "st.global" + qualifiers.str() + vectorSuffix(access.count) + "." +
                           ptxType + " [$0], " +
                           (access.count == 1 ? "$1" : asmOperands(1, access.count)) + ";";
  std::string constraints = "l";
  for (unsigned i = 0; i < access.count; ++i)
    constraints += std::string(",") + access.constraint;
  emitAsm(b, loc, text, constraints, operands, Type(), 0, /*sideEffects=*/true);
}

struct LoadOpConversion : OpConversionPattern<LoadOp> {
  LoadOpConversion(TypeConverter &converter, MLIRContext *context, const VectorWidths &widths)
      : OpConversionPattern(converter, context), widths(widths) {}

  LogicalResult matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type elementType = getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!resultType || !elementType)
      return rewriter.notifyMatchFailure(op, "types");
    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    SmallVector<Value> others = elementsOf(rewriter, loc, adaptor.getOther());
    const unsigned width = std::max(1u, widths.lookup(op));
    const std::string qualifiers = memoryQualifiers(op.getCache(), op.getEvict());
    SmallVector<Value> loaded;
    for (unsigned i = 0; i < ptrs.size(); i += width) {
      Type type = width == 1 ? elementType : VectorType::get({width}, elementType);
      Value other;
      if (!masks.empty())
        other = others.empty() ? Value(LLVM::ZeroOp::create(rewriter, loc, type))
                               : gather(rewriter, loc, others, i, width);
      Value value =
          guarded(rewriter, loc, masks.empty() ? Value() : masks[i], type, other,
                  [&](OpBuilder &b) -> Value {
                    const unsigned bytes = width * byteSize(elementType);
                    if (!qualifiers.empty())
                      return emitAsmLoad(b, loc, ptrs[i], type, bytes, qualifiers);
                    return LLVM::LoadOp::create(b, loc, type, ptrs[i], bytes, op.getIsVolatile());
                  });
      if (width == 1) {
        loaded.push_back(value);
        continue;
      }
      for (unsigned j = 0; j < width; ++j)
        loaded.push_back(
            LLVM::ExtractElementOp::create(rewriter, loc, value, i32Constant(rewriter, loc, j)));
    }
    if (isa<LLVM::LLVMStructType>(resultType))
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, loaded));
    else
      rewriter.replaceOp(op, loaded.front());
    return success();
  }

  const VectorWidths &widths;
};

struct StoreOpConversion : OpConversionPattern<StoreOp> {
  StoreOpConversion(TypeConverter &converter, MLIRContext *context, const VectorWidths &widths)
      : OpConversionPattern(converter, context), widths(widths) {}

  LogicalResult matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elementType =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getValue().getType()));
    if (!elementType)
      return rewriter.notifyMatchFailure(op, "types");
    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = elementsOf(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    SmallVector<Value> first = emitFirstCopyPredicates(rewriter, loc, op.getPtr().getType());
    const unsigned width = std::max(1u, widths.lookup(op));
    const std::string qualifiers = memoryQualifiers(op.getCache(), op.getEvict());
    for (unsigned i = 0; i < ptrs.size(); i += width) {
      Value value = gather(rewriter, loc, values, i, width);
      Value mask = masks.empty() ? Value() : masks[i];
      if (!first.empty() && first[i])
        mask = mask ? LLVM::AndOp::create(rewriter, loc, mask, first[i]).getResult() : first[i];
      guarded(rewriter, loc, mask, Type(), Value(), [&](OpBuilder &b) -> Value {
        const unsigned bytes = width * byteSize(elementType);
        if (!qualifiers.empty())
          emitAsmStore(b, loc, ptrs[i], value, bytes, qualifiers);
        else
          LLVM::StoreOp::create(b, loc, value, ptrs[i], bytes);
        return {};
      });
    }
    rewriter.eraseOp(op);
    return success();
  }

  const VectorWidths &widths;
};

} // namespace

void mlir::tk::populateLoadStoreOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 const VectorWidths &widths) {
  patterns.add<LoadOpConversion, StoreOpConversion>(converter, patterns.getContext(), widths);
}

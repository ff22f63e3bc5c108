/// @file InlineAsmOpToLLVM.cpp
/// tk.inline_asm and tk.extern_elementwise: code the user names, applied to each element the
/// thread holds.
///  - tk.extern_elementwise: a call of the device-library function per element, declared in the
///    module and linked by lib/Target/PTXCodeGen.cpp: from libdevice, or from the op's `library`,
///    which must exist and which the module attribute kExternLibrariesAttr records.
///  - tk.inline_asm: one asm statement per `pack` elements, as Triton's inline_asm_elementwise.
///    With `pack` > 1, elements narrower than 32 bits travel `pack` to a register (an integer
///    of `pack` times their width, the first element in the low bits); 32-bit and wider ones
///    one to a register, the statement seeing `pack` registers per operand and result. A thread
///    holding a number of elements that `pack` does not divide fills the last group with zeros.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Target/PTXCodeGen.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// The elements of each converted operand; scalars as one element.
SmallVector<SmallVector<Value>> unpackAll(OpBuilder &b, Location loc, ValueRange operands) {
  SmallVector<SmallVector<Value>> unpacked;
  for (Value operand : operands)
    unpacked.push_back(elementsOf(b, loc, operand));
  return unpacked;
}

/// The converted result for `elements`: a struct of them, or the scalar.
Value repack(OpBuilder &b, Location loc, Type converted, ArrayRef<Value> elements) {
  if (isa<LLVM::LLVMStructType>(converted))
    return packElements(b, loc, converted, elements);
  return elements.front();
}

/// Records on `module` that `symbol` is to be linked from `library`: the module attribute
/// kExternLibrariesAttr, an array of [library, symbol] pairs that PTX code generation links and
/// then removes.
void noteLibrary(ModuleOp module, StringRef library, StringRef symbol) {
  MLIRContext *context = module.getContext();
  SmallVector<Attribute> pairs;
  if (auto existing = module->getAttrOfType<ArrayAttr>(kExternLibrariesAttr))
    pairs.assign(existing.begin(), existing.end());
  auto pair = ArrayAttr::get(context,
                             {StringAttr::get(context, library), StringAttr::get(context, symbol)});
  if (llvm::is_contained(pairs, pair))
    return;
  pairs.push_back(pair);
  module->setAttr(kExternLibrariesAttr, ArrayAttr::get(context, pairs));
}

struct ExternElementwiseOpConversion : OpConversionPattern<ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ExternElementwiseOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type converted = getTypeConverter()->convertType(op.getType());
    Type element = getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!converted || !element)
      return rewriter.notifyMatchFailure(op, "result type");
    auto module = op->getParentOfType<ModuleOp>();
    if (std::optional<StringRef> library = op.getLibrary()) {
      if (!llvm::sys::fs::exists(*library))
        return op.emitError() << "the device function `" << op.getSymbol()
                              << "` comes from the library " << *library
                              << ", which does not exist";
      noteLibrary(module, *library, op.getSymbol());
    }
    SmallVector<SmallVector<Value>> unpacked = unpackAll(rewriter, loc, adaptor.getSrcs());
    SmallVector<Type> argTypes;
    for (Value src : op.getSrcs())
      argTypes.push_back(getTypeConverter()->convertType(getElementTypeOrSelf(src.getType())));
    auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(op.getSymbol());
    if (!function) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      function = LLVM::LLVMFuncOp::create(rewriter, module.getLoc(), op.getSymbol(),
                                          LLVM::LLVMFunctionType::get(element, argTypes));
    }
    const size_t count = isa<LLVM::LLVMStructType>(converted)
                             ? cast<LLVM::LLVMStructType>(converted).getBody().size()
                             : 1;
    SmallVector<Value> results;
    for (size_t i = 0; i < count; ++i) {
      SmallVector<Value> args;
      for (auto [k, elements] : llvm::enumerate(unpacked))
        args.push_back(elements.size() == 1 ? elements.front() : elements[i]);
      results.push_back(LLVM::CallOp::create(rewriter, loc, function, args).getResult());
    }
    rewriter.replaceOp(op, repack(rewriter, loc, converted, results));
    return success();
  }
};

/// How a value travels through the asm: `pack` elements in one integer register of
/// `pack * bits` bits (narrow elements), or one element per register.
struct Register {
  unsigned bits;   ///< of one element
  unsigned perReg; ///< elements per register: pack for narrow elements, else 1
  Type type;       ///< the register's LLVM type
  char constraint; ///< its LLVM constraint letter
};

Register registerFor(OpBuilder &b, Type element, unsigned pack) {
  const unsigned bits = isa<LLVM::LLVMPointerType>(element) ? 64 : element.getIntOrFloatBitWidth();
  const unsigned perReg = bits < 32 ? pack : 1;
  const unsigned regBits = std::max(16u, bits * perReg);
  const char constraint = regBits == 16 ? 'h' : regBits == 32 ? 'r' : 'l';
  return {bits, perReg, b.getIntegerType(regBits), constraint};
}

/// `elements` (of one element type) as a register of `reg`.
Value toRegister(OpBuilder &b, Location loc, ArrayRef<Value> elements, const Register &reg) {
  Value packed = LLVM::ConstantOp::create(b, loc, reg.type, b.getIntegerAttr(reg.type, 0));
  for (auto [j, element] : llvm::enumerate(elements)) {
    Type elementType = element.getType();
    Value bits = element;
    if (isa<LLVM::LLVMPointerType>(elementType))
      bits = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), element);
    else if (!elementType.isInteger(reg.bits))
      bits = LLVM::BitcastOp::create(b, loc, b.getIntegerType(reg.bits), element);
    if (reg.bits == reg.type.getIntOrFloatBitWidth())
      return bits;
    Value wide = LLVM::ZExtOp::create(b, loc, reg.type, bits);
    Value shift =
        LLVM::ConstantOp::create(b, loc, reg.type, b.getIntegerAttr(reg.type, j * reg.bits));
    packed = LLVM::OrOp::create(b, loc, packed, LLVM::ShlOp::create(b, loc, wide, shift));
  }
  return packed;
}

/// The elements of type `elementType` a register holds (`count` of them).
SmallVector<Value> fromRegister(OpBuilder &b, Location loc, Value packed, Type elementType,
                                const Register &reg, unsigned count) {
  SmallVector<Value> elements;
  Type bitsType = b.getIntegerType(reg.bits);
  for (unsigned j = 0; j < count; ++j) {
    Value bits = packed;
    if (reg.bits != reg.type.getIntOrFloatBitWidth()) {
      Value shift =
          LLVM::ConstantOp::create(b, loc, reg.type, b.getIntegerAttr(reg.type, j * reg.bits));
      bits = LLVM::TruncOp::create(b, loc, bitsType, LLVM::LShrOp::create(b, loc, packed, shift));
    }
    if (isa<LLVM::LLVMPointerType>(elementType))
      elements.push_back(LLVM::IntToPtrOp::create(b, loc, elementType, bits));
    else if (elementType != bits.getType())
      elements.push_back(LLVM::BitcastOp::create(b, loc, elementType, bits));
    else
      elements.push_back(bits);
  }
  return elements;
}

struct InlineAsmOpConversion : OpConversionPattern<InlineAsmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(InlineAsmOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const unsigned pack = unsigned(op.getPack());
    SmallVector<Type> converted, resultElements;
    for (Type type : op.getResultTypes()) {
      converted.push_back(getTypeConverter()->convertType(type));
      resultElements.push_back(getTypeConverter()->convertType(getElementTypeOrSelf(type)));
      if (!converted.back() || !resultElements.back())
        return rewriter.notifyMatchFailure(op, "result type");
    }
    SmallVector<SmallVector<Value>> unpacked = unpackAll(rewriter, loc, adaptor.getSrcs());
    const size_t count = isa<LLVM::LLVMStructType>(converted.front())
                             ? cast<LLVM::LLVMStructType>(converted.front()).getBody().size()
                             : 1;
    SmallVector<Register> inRegs, outRegs;
    for (Value src : op.getSrcs()) {
      Type element = getTypeConverter()->convertType(getElementTypeOrSelf(src.getType()));
      if (!element)
        return rewriter.notifyMatchFailure(op, "operand type");
      inRegs.push_back(registerFor(rewriter, element, pack));
    }
    for (Type element : resultElements)
      outRegs.push_back(registerFor(rewriter, element, pack));

    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (size_t first = 0; first < count; first += pack) {
      const unsigned here = unsigned(std::min<size_t>(pack, count - first));
      // Operands: per source, pack / perReg registers of perReg elements each.
      SmallVector<Value> operands;
      for (auto [k, elements] : llvm::enumerate(unpacked)) {
        const Register &reg = inRegs[k];
        for (unsigned r = 0; r < pack / reg.perReg; ++r) {
          SmallVector<Value> group;
          for (unsigned j = 0; j < reg.perReg; ++j) {
            const size_t index = first + r * reg.perReg + j;
            if (index < first + here)
              group.push_back(elements[elements.size() == 1 ? 0 : index]);
          }
          operands.push_back(
              group.empty() ? Value(LLVM::ConstantOp::create(rewriter, loc, reg.type,
                                                             rewriter.getIntegerAttr(reg.type, 0)))
                            : toRegister(rewriter, loc, group, reg));
        }
      }
      SmallVector<Type> outTypes;
      for (const Register &reg : outRegs)
        for (unsigned r = 0; r < pack / reg.perReg; ++r)
          outTypes.push_back(reg.type);
      Type asmType = outTypes.size() == 1
                         ? outTypes.front()
                         : Type(LLVM::LLVMStructType::getLiteral(rewriter.getContext(), outTypes));
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, TypeRange(asmType), operands, op.getAsmString(), op.getConstraints(),
          /*has_side_effects=*/!op.getPure(), /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(rewriter.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
      SmallVector<Value> registers;
      if (outTypes.size() == 1)
        registers.push_back(asmOp.getResult(0));
      else
        for (unsigned r = 0; r < outTypes.size(); ++r)
          registers.push_back(
              LLVM::ExtractValueOp::create(rewriter, loc, asmOp.getResult(0), int64_t(r)));
      unsigned next = 0;
      for (auto [k, reg] : llvm::enumerate(outRegs)) {
        SmallVector<Value> values;
        for (unsigned r = 0; r < pack / reg.perReg; ++r)
          llvm::append_range(values, fromRegister(rewriter, loc, registers[next++],
                                                  resultElements[k], reg, reg.perReg));
        values.resize(here);
        llvm::append_range(results[k], values);
      }
    }
    SmallVector<Value> replacements;
    for (auto [k, type] : llvm::enumerate(converted))
      replacements.push_back(repack(rewriter, loc, type, results[k]));
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

} // namespace

void mlir::tk::populateInlineAsmOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<ExternElementwiseOpConversion, InlineAsmOpConversion>(converter,
                                                                     patterns.getContext());
}

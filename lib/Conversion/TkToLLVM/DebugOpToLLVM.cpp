/// @file DebugOpToLLVM.cpp
/// tk.print, tk.assert, tk.debug_barrier, tk.gdc_wait, tk.gdc_launch_dependents, and the hints
/// (tk.multiple_of, tk.max_contiguous, tk.max_constancy, tk.assume), which only the analyses
/// read:
///  - tk.print: one `vprintf` per element the thread holds, through the slot holding the
///    element's first copy only (each element prints once, as on the interpreter), in Triton's
///    format: `pid (x, y, z) idx (i, j)<prefix><value>`;
///  - tk.assert: where an element of the condition is false, the thread reports the first
///    such element through `__assertfail` (which prints the message and stops the kernel with a
///    trap). Before that, the first failing thread of the launch writes which assertion failed,
///    where, to the host memory at `tk_assert_record`, which the runtime sets when it loads the
///    module: the CUDA error that follows leaves device memory unreadable, and the runtime names
///    the assertion from that record (detail/runtime/asserts.hpp);
///  - tk.debug_barrier: `bar.sync 0`;
///  - tk.gdc_wait, tk.gdc_launch_dependents: `griddepcontrol.wait` / `.launch_dependents` from
///    sm_90; nothing before.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// The module's function `name` of type `type`, declared on first use.
LLVM::LLVMFuncOp declareFunction(OpBuilder &b, ModuleOp module, StringRef name,
                                 LLVM::LLVMFunctionType type) {
  if (auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return function;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

/// A pointer to a NUL-terminated copy of `text` in a constant global of the module (one per
/// distinct text).
Value stringConstant(OpBuilder &b, Location loc, ModuleOp module, StringRef text) {
  std::string bytes = text.str();
  bytes.push_back('\0');
  const std::string name = "tk_str_" + std::to_string(llvm::hash_value(bytes) & 0xffffffffffff);
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/true, LLVM::Linkage::Internal,
                           name, b.getStringAttr(bytes), /*alignment=*/1);
  }
  Value global =
      LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), name);
  return LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), type, global,
                             ArrayRef<LLVM::GEPArg>{0, 0});
}

/// `body` under `if (condition)`; unconditionally when `condition` is null.
void emitIf(OpBuilder &b, Location loc, Value condition,
            llvm::function_ref<void(OpBuilder &)> body) {
  if (!condition)
    return body(b);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(), condition, /*withElseRegion=*/false);
  OpBuilder then = ifOp.getThenBodyBuilder(b.getListener());
  body(then);
}

/// An alloca of `type` at the start of the enclosing function (once per call; outside any loop).
Value entryAlloca(OpBuilder &b, Location loc, Operation *op, Type type) {
  OpBuilder::InsertionGuard guard(b);
  Operation *function = op->getParentOfType<FunctionOpInterface>();
  Block &entry = function->getRegion(0).front();
  b.setInsertionPointToStart(&entry);
  Value one = LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(1));
  return LLVM::AllocaOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), type, one);
}

/// printf's conversion of an element of `type` (an LLVM type), and the value vprintf receives:
/// floats as double, integers narrower than 32 bits widened (signed or not), as C's varargs do.
std::pair<std::string, Value> printfArgument(OpBuilder &b, Location loc, Value value, bool isSigned,
                                             bool hex) {
  Type type = value.getType();
  if (isa<LLVM::LLVMPointerType>(type))
    return {"%p", value};
  const unsigned bits = type.getIntOrFloatBitWidth();
  if (isa<FloatType>(type)) {
    if (hex) {
      Value bitsValue = LLVM::BitcastOp::create(b, loc, b.getIntegerType(bits), value);
      Value wide = bits < 32 ? LLVM::ZExtOp::create(b, loc, b.getI32Type(), bitsValue).getResult()
                             : bitsValue;
      return {"0x%0" + std::to_string(bits / 4) + (bits > 32 ? "llx" : "x"), wide};
    }
    Value wide = type.isF64() ? value : LLVM::FPExtOp::create(b, loc, b.getF64Type(), value);
    return {"%f", wide};
  }
  Value wide = value;
  if (bits < 32)
    wide = isSigned && bits > 1 ? LLVM::SExtOp::create(b, loc, b.getI32Type(), value).getResult()
                                : LLVM::ZExtOp::create(b, loc, b.getI32Type(), value).getResult();
  if (hex)
    return {"0x%0" + std::to_string(std::max(1u, bits / 4)) + (bits > 32 ? "llx" : "x"), wide};
  return {std::string(bits > 32 ? "%ll" : "%") + (isSigned && bits > 1 ? "i" : "u"), wide};
}

/// `text` with each `%` doubled, for a printf format.
std::string escapePercent(StringRef text) {
  std::string escaped;
  for (char c : text) {
    escaped.push_back(c);
    if (c == '%')
      escaped.push_back('%');
  }
  return escaped;
}

struct PrintOpConversion : OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    MLIRContext *context = rewriter.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    auto vprintf =
        declareFunction(rewriter, module, "vprintf",
                        LLVM::LLVMFunctionType::get(rewriter.getI32Type(), {ptrType, ptrType}));
    const std::string prefix = escapePercent(op.getPrefix());
    SmallVector<Value> pid = {NVVM::BlockIdXOp::create(rewriter, loc, rewriter.getI32Type()),
                              NVVM::BlockIdYOp::create(rewriter, loc, rewriter.getI32Type()),
                              NVVM::BlockIdZOp::create(rewriter, loc, rewriter.getI32Type())};
    auto print = [&](OpBuilder &b, const std::string &format, ArrayRef<Value> args) {
      SmallVector<Type> types;
      for (Value arg : args)
        types.push_back(arg.getType());
      auto structType = LLVM::LLVMStructType::getLiteral(context, types);
      Value buffer = entryAlloca(b, loc, op, structType);
      for (auto [i, arg] : llvm::enumerate(args)) {
        Value field = LLVM::GEPOp::create(b, loc, ptrType, structType, buffer,
                                          ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
        LLVM::StoreOp::create(b, loc, arg, field);
      }
      Value text = stringConstant(b, loc, module, format + "\n");
      LLVM::CallOp::create(b, loc, vprintf, ValueRange{text, buffer});
    };
    const std::string pidFormat = "pid (%u, %u, %u) ";

    if (op.getSrcs().empty()) {
      emitIf(rewriter, loc, emitFirstCopyPredicates(rewriter, loc, rewriter.getI32Type())[0],
             [&](OpBuilder &b) { print(b, "pid (%u, %u, %u)" + prefix, pid); });
      rewriter.eraseOp(op);
      return success();
    }
    const size_t numOperands = op.getSrcs().size();
    for (auto [i, original, converted] : llvm::enumerate(op.getSrcs(), adaptor.getSrcs())) {
      SmallVector<Value> elements = elementsOf(rewriter, loc, converted);
      SmallVector<Value> first = emitFirstCopyPredicates(rewriter, loc, original.getType());
      auto tensor = dyn_cast<RankedTensorType>(original.getType());
      SmallVector<SmallVector<Value>> indices;
      std::string idxFormat = "idx (";
      if (tensor) {
        indices = emitIndices(rewriter, loc, tensor);
        for (auto [d, size] : llvm::enumerate(tensor.getShape()))
          idxFormat += (d ? ", %" : "%") +
                       std::to_string(size > 1 ? int(std::ceil(std::log10(double(size)))) : 1) +
                       "u";
      }
      idxFormat += ")";
      const bool isSigned = op.getIsSigned()[i] != 0;
      for (auto [e, element] : llvm::enumerate(elements)) {
        Value guard = first.empty() ? Value() : first[e];
        emitIf(rewriter, loc, guard, [&](OpBuilder &b) {
          SmallVector<Value> args(pid);
          if (tensor)
            llvm::append_range(args, indices[e]);
          auto [conversion, value] = printfArgument(b, loc, element, isSigned, op.getHex());
          args.push_back(value);
          std::string format = pidFormat + idxFormat + prefix;
          if (numOperands > 1)
            format += "(operand " + std::to_string(i) + ") ";
          print(b, format + conversion, args);
        });
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The name of the module global the runtime points at a host record of the failed assertion
/// (detail/runtime/asserts.hpp reads the same layout: id + 1, the program id's x, y, z, the
/// failing element's row-major index).
constexpr llvm::StringLiteral kAssertRecord = "tk_assert_record";
constexpr llvm::StringLiteral kAssertClaimed = "tk_assert_claimed";

void declareAssertGlobals(OpBuilder &b, ModuleOp module) {
  if (module.lookupSymbol<LLVM::GlobalOp>(kAssertRecord))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  LLVM::GlobalOp::create(b, module.getLoc(), b.getI64Type(), /*isConstant=*/false,
                         LLVM::Linkage::External, kAssertRecord, b.getI64IntegerAttr(0),
                         /*alignment=*/8, /*addrSpace=*/1);
  LLVM::GlobalOp::create(b, module.getLoc(), b.getI32Type(), /*isConstant=*/false,
                         LLVM::Linkage::Internal, kAssertClaimed, b.getI32IntegerAttr(0),
                         /*alignment=*/4, /*addrSpace=*/1);
}

struct AssertOpConversion : OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    MLIRContext *context = rewriter.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    declareAssertGlobals(rewriter, module);

    // The first failing element of the thread's and its row-major index.
    Type conditionType = op.getCondition().getType();
    SmallVector<Value> conditions = elementsOf(rewriter, loc, adaptor.getCondition());
    SmallVector<Value> first = emitFirstCopyPredicates(rewriter, loc, conditionType);
    auto tensor = dyn_cast<RankedTensorType>(conditionType);
    SmallVector<SmallVector<Value>> indices;
    if (tensor)
      indices = emitIndices(rewriter, loc, tensor);
    Value trueValue =
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
    Value failed, failedIndex = i32Constant(rewriter, loc, 0);
    for (int64_t e = int64_t(conditions.size()) - 1; e >= 0; --e) {
      Value fails = LLVM::XOrOp::create(rewriter, loc, conditions[e], trueValue);
      if (!first.empty() && first[e])
        fails = LLVM::AndOp::create(rewriter, loc, fails, first[e]);
      Value linear = i32Constant(rewriter, loc, 0);
      if (tensor)
        for (auto [d, size] : llvm::enumerate(tensor.getShape()))
          linear = LLVM::AddOp::create(
              rewriter, loc,
              LLVM::MulOp::create(rewriter, loc, linear, i32Constant(rewriter, loc, size)),
              indices[e][d]);
      failedIndex = LLVM::SelectOp::create(rewriter, loc, fails, linear, failedIndex);
      failed = failed ? LLVM::OrOp::create(rewriter, loc, failed, fails).getResult() : fails;
    }

    auto assertfail =
        declareFunction(rewriter, module, "__assertfail",
                        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                                    {ptrType, ptrType, i32, ptrType, i64}));
    emitIf(rewriter, loc, failed, [&](OpBuilder &b) {
      // The record, by the launch's first failing thread: fields, a system fence, then the
      // id + 1 that marks it written.
      auto globalPtr = LLVM::LLVMPointerType::get(context, 1);
      Value recordSlot = LLVM::AddressOfOp::create(b, loc, globalPtr, kAssertRecord);
      Value record = LLVM::LoadOp::create(b, loc, i64, recordSlot, /*alignment=*/8,
                                          /*isVolatile=*/true);
      Value zero64 = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(0));
      Value hasRecord = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, record, zero64);
      emitIf(b, loc, hasRecord, [&](OpBuilder &b) {
        Value claimed = LLVM::AddressOfOp::create(b, loc, globalPtr, kAssertClaimed);
        Value previous =
            LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::xchg, claimed,
                                      i32Constant(b, loc, 1), LLVM::AtomicOrdering::monotonic);
        Value won =
            LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, previous, i32Constant(b, loc, 0));
        emitIf(b, loc, won, [&](OpBuilder &b) {
          Value base = LLVM::IntToPtrOp::create(b, loc, ptrType, record);
          auto storeField = [&](int32_t field, Value value) {
            Value address =
                LLVM::GEPOp::create(b, loc, ptrType, i32, base, ArrayRef<LLVM::GEPArg>{field});
            LLVM::StoreOp::create(b, loc, value, address, /*alignment=*/4, /*isVolatile=*/true);
          };
          storeField(1, NVVM::BlockIdXOp::create(b, loc, i32));
          storeField(2, NVVM::BlockIdYOp::create(b, loc, i32));
          storeField(3, NVVM::BlockIdZOp::create(b, loc, i32));
          storeField(4, failedIndex);
          emitAsm(b, loc, "fence.sc.sys;", "", {}, Type(), 0, /*sideEffects=*/true);
          storeField(0, i32Constant(b, loc, int64_t(op.getId()) + 1));
          emitAsm(b, loc, "fence.sc.sys;", "", {}, Type(), 0, /*sideEffects=*/true);
        });
      });
      Value message = stringConstant(b, loc, module, op.getMessage());
      Value file = stringConstant(b, loc, module, op.getFile());
      Value function = stringConstant(b, loc, module, op.getFunction());
      Value line = i32Constant(b, loc, op.getLine());
      Value charSize = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1));
      LLVM::CallOp::create(b, loc, assertfail, ValueRange{message, file, line, function, charSize});
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct DebugBarrierOpConversion : OpConversionPattern<DebugBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DebugBarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    emitBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// tk.gdc_wait and tk.gdc_launch_dependents: `griddepcontrol.<what>` from sm_90 (PTX 7.8), with
/// a memory clobber so that no access moves across them; nothing before, where launches on a
/// stream never overlap.
template <class GdcOp> struct GdcOpConversion : OpConversionPattern<GdcOp> {
  GdcOpConversion(TypeConverter &converter, MLIRContext *context, unsigned computeCapability,
                  StringRef instruction)
      : OpConversionPattern<GdcOp>(converter, context), computeCapability(computeCapability),
        instruction(instruction) {}

  LogicalResult matchAndRewrite(GdcOp op, typename GdcOp::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (computeCapability >= 90)
      emitAsm(rewriter, op.getLoc(), instruction, "~{memory}", {}, Type(), 0,
              /*sideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }

  unsigned computeCapability;
  std::string instruction;
};

/// A hint is its operand once the analyses have read it.
template <class HintOp> struct HintOpConversion : OpConversionPattern<HintOp> {
  using OpConversionPattern<HintOp>::OpConversionPattern;

  LogicalResult matchAndRewrite(HintOp op, typename HintOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct AssumeOpConversion : OpConversionPattern<AssumeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(AssumeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    LLVM::AssumeOp::create(rewriter, op.getLoc(), adaptor.getCondition());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tk::populateDebugOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             unsigned computeCapability) {
  patterns.add<GdcOpConversion<GdcWaitOp>>(converter, patterns.getContext(), computeCapability,
                                           "griddepcontrol.wait;");
  patterns.add<GdcOpConversion<GdcLaunchDependentsOp>>(
      converter, patterns.getContext(), computeCapability, "griddepcontrol.launch_dependents;");
  patterns.add<PrintOpConversion, AssertOpConversion, DebugBarrierOpConversion,
               HintOpConversion<MultipleOfOp>, HintOpConversion<MaxContiguousOp>,
               HintOpConversion<MaxConstancyOp>, AssumeOpConversion>(converter,
                                                                     patterns.getContext());
}

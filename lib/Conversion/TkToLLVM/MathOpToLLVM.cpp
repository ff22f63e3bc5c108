/// @file MathOpToLLVM.cpp
/// math ops -> LLVM + NVVM, on tensors (one scalar computation per element the thread
/// holds, as in ElementwiseOpToLLVM.cpp) and on scalars, emitted directly in the LLVM dialect
/// rather than through the upstream math patterns so that the choice per op and type is ours:
///  - f32 exp, exp2, log, log2, rsqrt: the SFU's approximations, as Triton does
///    (exp x = ex2.approx(x * log2 e), log x = lg2.approx(x) * ln 2), through the NVVM
///    intrinsics, which LLVM can still fold and schedule (inline PTX could not be). exp and
///    exp2 flush results below 2^-126 to zero (`ex2.approx.ftz`, Triton's too): one MUFU.EX2,
///    where ptxas wraps the non-ftz form in a range test and two multiplies for subnormals;
///  - sqrt: IEEE (llvm.sqrt is sqrt.rn), or with the `afn` flag on f32 `sqrt.approx.f32`
///    (Triton's tl.sqrt); arith.divf with `afn` on f32: `div.full.f32` (tl.fdiv without
///    ieee_rounding); floor, ceil, absf, absi, fma, trunc, round, copysign: LLVM intrinsics;
///  - the rest (sin, cos, erf, tanh, pow, ...) and every f64 transcendental: libdevice
///    (`__nv_sinf`, `__nv_sin`), declared here and linked by lib/Target/PTXCodeGen.cpp;
///  - f16/bf16 transcendentals: computed in f32 and rounded back (neither has SFU paths on
///    every target, and f32 holds every f16/bf16 value exactly).
/// Also arith.floordivsi / ceildivsi / ceildivui, which the upstream arith -> LLVM patterns
/// leave out (upstream expands them in a separate pass), and arith.remf: libdevice's exact
/// `__nv_fmodf` / `__nv_fmod` (C's fmod, as the interpreter computes it), where the upstream
/// pattern's `frem` becomes x - y * trunc(x / y) in NVPTX, wrong for large quotients; f16/bf16
/// through f32, exact too (fmod's result is representable in its operands' type).
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// libdevice's name stem of the float ops computed by libdevice (on f32 only those without a
/// faster path below): `__nv_<stem>f` on f32, `__nv_<stem>` on f64.
std::optional<StringRef> libdeviceStem(StringRef opName) {
  StringRef stem = opName.split('.').second;
  return llvm::StringSwitch<std::optional<StringRef>>(opName)
      .Cases({"math.exp", "math.exp2", "math.log", "math.log2", "math.rsqrt"}, stem)
      .Cases({"math.sin", "math.cos", "math.tan", "math.asin", "math.acos", "math.atan"}, stem)
      .Cases({"math.sinh", "math.cosh", "math.tanh", "math.asinh", "math.acosh"}, stem)
      .Cases({"math.atanh", "math.atan2", "math.erf", "math.erfc", "math.cbrt"}, stem)
      .Cases({"math.log10", "math.log1p", "math.expm1"}, stem)
      .Case("math.powf", StringRef("pow"))
      .Case("arith.remf", StringRef("fmod"))
      .Default(std::nullopt);
}

bool isIntDiv(Operation *op) {
  return isa<arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp>(op);
}

/// Float ops without rounding error (or with one rounding at the op's own width): LLVM
/// intrinsics on the type itself.
bool isExactFloatOp(Operation *op) {
  return isa<math::AbsFOp, math::FloorOp, math::CeilOp, math::TruncOp, math::RoundOp,
             math::RoundEvenOp, math::CopySignOp, math::FmaOp>(op);
}

/// Whether `op` carries the `afn` fast-math flag: the front end's approximate sqrt and fdiv
/// (Triton's tl.sqrt and tl.fdiv(ieee_rounding=False)).
bool isApproximate(Operation *op) {
  auto fastmath = dyn_cast<arith::ArithFastMathInterface>(op);
  return fastmath && arith::bitEnumContainsAll(fastmath.getFastMathFlagsAttr().getValue(),
                                               arith::FastMathFlags::afn);
}

/// An approximate division, which this file lowers; other divisions are ElementwiseOpToLLVM's.
bool isApproximateDiv(Operation *op) { return isa<arith::DivFOp>(op) && isApproximate(op); }

/// Whether ScalarEmitter::emit lowers `op` on elements of LLVM type `type`.
bool isSupported(Operation *op, Type type) {
  if (isApproximateDiv(op))
    return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
  if (isIntDiv(op) || isa<math::AbsIOp>(op))
    return isa<IntegerType>(type);
  if (isExactFloatOp(op))
    return isa<FloatType>(type);
  if (!type.isF16() && !type.isBF16() && !type.isF32() && !type.isF64())
    return false;
  return isa<math::SqrtOp>(op) || libdeviceStem(op->getName().getStringRef());
}

/// Emits the scalar computation of one element (or of a scalar op).
class ScalarEmitter {
public:
  ScalarEmitter(ConversionPatternRewriter &rewriter, Location loc, ModuleOp module)
      : b(rewriter), loc(loc), module(module) {}

  /// `op`'s result for scalar operands `args`, of LLVM type `type` (the result's), where
  /// isSupported(op, type).
  Value emit(Operation *op, ValueRange args, Type type) {
    if (isIntDiv(op))
      return emitIntDiv(op, args[0], args[1]);
    if (isa<math::AbsIOp>(op))
      return LLVM::AbsOp::create(b, loc, type, args[0], /*is_int_min_poison=*/false);
    // Exact or bit-level ops: LLVM intrinsics at the op's own width.
    if (isa<math::AbsFOp>(op))
      return LLVM::FAbsOp::create(b, loc, type, args[0]);
    if (isa<math::FloorOp>(op))
      return LLVM::FFloorOp::create(b, loc, type, args[0]);
    if (isa<math::CeilOp>(op))
      return LLVM::FCeilOp::create(b, loc, type, args[0]);
    if (isa<math::TruncOp>(op))
      return LLVM::FTruncOp::create(b, loc, type, args[0]);
    if (isa<math::RoundOp>(op))
      return LLVM::RoundOp::create(b, loc, type, args[0]);
    if (isa<math::RoundEvenOp>(op))
      return LLVM::RoundEvenOp::create(b, loc, type, args[0]);
    if (isa<math::CopySignOp>(op))
      return LLVM::CopySignOp::create(b, loc, type, args[0], args[1]);
    if (isa<math::FmaOp>(op))
      return LLVM::FMAOp::create(b, loc, type, args[0], args[1], args[2]);

    // Rounded ops: f16/bf16 through f32 (one rounding back; for sqrt that is still correctly
    // rounded, f32 having more than twice f16's precision).
    if (type.isF16() || type.isBF16()) {
      Type f32 = b.getF32Type();
      SmallVector<Value> wide;
      for (Value arg : args)
        wide.push_back(LLVM::FPExtOp::create(b, loc, f32, arg));
      return LLVM::FPTruncOp::create(b, loc, type, emitRounded(op, wide, f32));
    }
    return emitRounded(op, args, type);
  }

private:
  ConversionPatternRewriter &b;
  Location loc;
  ModuleOp module;

  Value f32Constant(double value) {
    return LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(value));
  }

  Value intrinsic(StringRef intrinsicName, Value arg) {
    return LLVM::CallIntrinsicOp::create(b, loc, arg.getType(), b.getStringAttr(intrinsicName),
                                         ValueRange{arg})
        .getResult(0);
  }

  /// A call of libdevice's `name`, declared in the module on first use.
  Value callLibdevice(StringRef name, ValueRange args, Type type) {
    auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!function) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      SmallVector<Type> argTypes(args.getTypes());
      function = LLVM::LLVMFuncOp::create(b, module.getLoc(), name,
                                          LLVM::LLVMFunctionType::get(type, argTypes));
    }
    return LLVM::CallOp::create(b, loc, function, args).getResult();
  }

  /// Ops whose result is rounded, on f32 or f64 operands.
  Value emitRounded(Operation *op, ValueRange args, Type type) {
    StringRef name = op->getName().getStringRef();
    const bool f32 = type.isF32();
    Value x = args[0];
    // Approximate f32 sqrt and division: sqrt.approx.f32 and div.full.f32, as Triton's
    // tl.sqrt and tl.fdiv; f64 has no approximate forms and stays IEEE.
    if (isApproximateDiv(op))
      return f32 ? LLVM::CallIntrinsicOp::create(b, loc, type,
                                                 b.getStringAttr("llvm.nvvm.div.full"), args)
                       .getResult(0)
                 : LLVM::FDivOp::create(b, loc, args[0], args[1]).getResult();
    if (name == "math.sqrt" && f32 && isApproximate(op))
      return intrinsic("llvm.nvvm.sqrt.approx.f", x);
    if (name == "math.sqrt")
      return LLVM::SqrtOp::create(b, loc, type, x); // sqrt.rn
    if (f32) {
      if (name == "math.exp2")
        return intrinsic("llvm.nvvm.ex2.approx.ftz.f32", x);
      if (name == "math.exp") {
        Value scaled = LLVM::FMulOp::create(b, loc, x, f32Constant(1.4426950408889634)); // log2 e
        return intrinsic("llvm.nvvm.ex2.approx.ftz.f32", scaled);
      }
      if (name == "math.log2")
        return intrinsic("llvm.nvvm.lg2.approx.f", x);
      if (name == "math.log") {
        Value log2 = intrinsic("llvm.nvvm.lg2.approx.f", x);
        return LLVM::FMulOp::create(b, loc, log2, f32Constant(0.6931471805599453)); // ln 2
      }
      if (name == "math.rsqrt")
        return intrinsic("llvm.nvvm.rsqrt.approx.f", x);
    }
    // The rest, and f64 exp, exp2, log, log2, rsqrt (the SFU has no double paths).
    std::optional<StringRef> stem = libdeviceStem(name);
    std::string function = ("__nv_" + *stem + (f32 ? "f" : "")).str();
    return callLibdevice(function, args, type);
  }

  /// Integer division rounding toward -inf (floordivsi) or +inf (ceildivsi, ceildivui): the
  /// truncating quotient, adjusted by one where the remainder is not 0 and the exact quotient
  /// lies on that side.
  Value emitIntDiv(Operation *op, Value lhs, Value rhs) {
    Type type = lhs.getType();
    Value zero = LLVM::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, 0));
    Value one = LLVM::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, 1));
    if (isa<arith::CeilDivUIOp>(op)) {
      Value quotient = LLVM::UDivOp::create(b, loc, lhs, rhs);
      Value remainder = LLVM::URemOp::create(b, loc, lhs, rhs);
      Value inexact = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, remainder, zero);
      Value up = LLVM::AddOp::create(b, loc, quotient, one);
      return LLVM::SelectOp::create(b, loc, inexact, up, quotient);
    }
    Value quotient = LLVM::SDivOp::create(b, loc, lhs, rhs);
    Value remainder = LLVM::SRemOp::create(b, loc, lhs, rhs);
    Value inexact = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, remainder, zero);
    // The exact quotient is negative where the remainder's sign differs from the divisor's.
    Value signs = LLVM::XOrOp::create(b, loc, remainder, rhs);
    if (isa<arith::FloorDivSIOp>(op)) {
      Value negative = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, signs, zero);
      Value adjust = LLVM::AndOp::create(b, loc, inexact, negative);
      Value down = LLVM::SubOp::create(b, loc, quotient, one);
      return LLVM::SelectOp::create(b, loc, adjust, down, quotient);
    }
    Value positive = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::sge, signs, zero);
    Value adjust = LLVM::AndOp::create(b, loc, inexact, positive);
    Value up = LLVM::AddOp::create(b, loc, quotient, one);
    return LLVM::SelectOp::create(b, loc, adjust, up, quotient);
  }
};

/// Any math op, arith's rounding divisions and arith.remf, on tensors or scalars. Benefit 3:
/// before ElementwiseOpToLLVM.cpp's generic arith pattern would split them into scalar arith
/// ops, and before the upstream arith -> LLVM patterns.
struct MathOpConversion : ConversionPattern {
  MathOpConversion(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/3, context) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<math::MathDialect>(op->getDialect()) && !isIntDiv(op) && !isa<arith::RemFOp>(op) &&
        !isApproximateDiv(op))
      return failure();
    if (op->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "not one result");
    Location loc = op->getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    ScalarEmitter emitter(rewriter, loc, module);
    Type resultType = op->getResult(0).getType();
    Type converted = getTypeConverter()->convertType(resultType);
    if (!converted)
      return rewriter.notifyMatchFailure(op, "result type");

    auto tensorType = dyn_cast<RankedTensorType>(resultType);
    if (!tensorType) {
      if (!isSupported(op, converted))
        return rewriter.notifyMatchFailure(op, "no lowering for this op and type");
      rewriter.replaceOp(op, emitter.emit(op, operands, converted));
      return success();
    }

    Type elementType = getTypeConverter()->convertType(tensorType.getElementType());
    auto structType = dyn_cast<LLVM::LLVMStructType>(converted);
    if (!elementType || !structType)
      return rewriter.notifyMatchFailure(op, "result has no distributed layout");
    if (!isSupported(op, elementType))
      return rewriter.notifyMatchFailure(op, "no lowering for this op and element type");
    SmallVector<SmallVector<Value>> unpacked;
    for (Value operand : operands) {
      if (!isa<LLVM::LLVMStructType>(operand.getType()))
        return rewriter.notifyMatchFailure(op, "operand is not a converted tensor");
      unpacked.push_back(unpackElements(rewriter, loc, operand));
    }
    SmallVector<Value> results;
    for (unsigned i = 0, e = structType.getBody().size(); i < e; ++i) {
      SmallVector<Value> args;
      for (const auto &elements : unpacked)
        args.push_back(elements[i]);
      results.push_back(emitter.emit(op, args, elementType));
    }
    rewriter.replaceOp(op, packElements(rewriter, loc, structType, results));
    return success();
  }
};

} // namespace

void mlir::tk::populateMathOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<MathOpConversion>(converter, patterns.getContext());
}

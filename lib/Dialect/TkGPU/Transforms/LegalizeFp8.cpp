/// @file LegalizeFp8.cpp
/// tk-legalize-fp8: arithmetic on f8E4M3FN and f8E5M2 (and their fnuz variants, f8E4M3FNUZ and
/// f8E5M2FNUZ) as integer and f32 arithmetic, so that no later stage sees an fp8 value other than
/// as the byte it is stored in.
///
/// - arith.extf from fp8 decodes the byte: value = significand x 2^exponent, built from its
///   fields with integer ops, one f32 multiply and selects for NaN (and e5m2's infinities).
/// - arith.truncf to fp8 rounds in f32: with q the format's quantum at the value's exponent (a
///   power of two), round(|x| / q) x q, to nearest even through the 2^23 "magic" addition or
///   toward zero through an integer conversion (`roundingmode`), after saturating |x| at the
///   largest finite value (the GPU's `satfinite`); then encodes the fields. NaN becomes 0x7F.
///   Other float types go through f32 first (exact from f16 and bf16; f64 rounds to f32 first).
/// - Other arith and math ops on fp8 compute in f32 and round the result back (once: f32 holds
///   every sum, product and quotient of two fp8 values to well beyond twice fp8's precision, so
///   the result is the correctly rounded one, as the interpreter computes it).
/// - fp8 constants become i8 constants of the same bits, bitcast.
/// - tk.reduce and tk.scan over fp8 (sum, max, argmax, cumsum, a user's combine) reduce f32
///   values, each combine step still rounded to fp8 (widenCombineOp).
/// - tk.dot on fp8 stays on fp8 where the tensor cores multiply it: compute capability 8.9 and
///   newer (mma.sync m16n8k32 .e4m3/.e5m2; wgmma on sm_90a) and K a multiple of 32, one
///   instruction's K, with an f32 accumulator. Elsewhere its operands are decoded and narrowed
///   to f16, which holds every fp8 value exactly, so the dot takes the f16 path with the same
///   products.
///
/// What is left on fp8 is data movement (loads, stores, splats, layouts, selects, bitcasts) and
/// those dots, which the LLVM lowering does on i8.
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKLEGALIZEFP8
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;

namespace {

bool isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType, Float8E5M2FNUZType>(
      getElementTypeOrSelf(type));
}

/// `type` (a scalar or a tensor) with its element type replaced.
Type withElement(Type type, Type element) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(element);
  return element;
}

/// The fields of an fp8 format.
struct Format {
  int mantissaBits, exponentBits;
  bool ieee; // e5m2: infinities and NaNs in the all-ones exponent; e4m3: only S.1111.111 is NaN
  bool fnuz; // e4m3fnuz, e5m2fnuz: every pattern a number but 0x80 (NaN); the bias one larger

  explicit Format(Type element)
      : mantissaBits(isa<Float8E4M3FNType, Float8E4M3FNUZType>(element) ? 3 : 2),
        exponentBits(isa<Float8E4M3FNType, Float8E4M3FNUZType>(element) ? 4 : 5),
        ieee(isa<Float8E5M2Type>(element)),
        fnuz(isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(element)) {}
  int bias() const { return (1 << (exponentBits - 1)) - (fnuz ? 0 : 1); }
  int minExponent() const { return 1 - bias(); }
  /// The largest finite value's bits: 0x7E (448), 0x7B (57344) or, fnuz, 0x7F (240, 57344).
  int maxFiniteCode() const { return ieee ? 0x7B : fnuz ? 0x7F : 0x7E; }
  int nanCode() const { return fnuz ? 0x80 : 0x7F; }
  float maxFinite() const {
    const int field = maxFiniteCode() >> mantissaBits, fraction = maxFiniteCode() & mask();
    return std::ldexp(1.0f + std::ldexp(float(fraction), -mantissaBits), field - bias());
  }
  int mask() const { return (1 << mantissaBits) - 1; }
};

/// Builds elementwise arithmetic on values shaped like `like` (a scalar or a tensor).
class Emitter {
public:
  Emitter(OpBuilder &b, Location loc, Type like) : b(b), loc(loc), like(like) {}

  Value i32(int64_t v) { return constant(b.getI32Type(), b.getI32IntegerAttr(int32_t(v))); }
  Value f32(float v) { return constant(b.getF32Type(), b.getF32FloatAttr(v)); }
  Type i32Type() { return withElement(like, b.getI32Type()); }
  Type f32Type() { return withElement(like, b.getF32Type()); }

  Value andi(Value x, int64_t m) { return arith::AndIOp::create(b, loc, x, i32(m)); }
  Value shl(Value x, int64_t s) { return arith::ShLIOp::create(b, loc, x, i32(s)); }
  Value shr(Value x, int64_t s) { return arith::ShRUIOp::create(b, loc, x, i32(s)); }
  Value add(Value x, int64_t v) { return arith::AddIOp::create(b, loc, x, i32(v)); }
  Value cmp(arith::CmpIPredicate p, Value x, int64_t v) {
    return arith::CmpIOp::create(b, loc, p, x, i32(v));
  }
  Value select(Value c, Value x, Value y) { return arith::SelectOp::create(b, loc, c, x, y); }
  Value toF32(Value bits) { return arith::BitcastOp::create(b, loc, f32Type(), bits); }
  Value toI32(Value f) { return arith::BitcastOp::create(b, loc, i32Type(), f); }
  /// 2^e as an f32, for an i32 value e + 127 in [1, 254].
  Value pow2(Value biased) { return toF32(shl(biased, 23)); }

  OpBuilder &b;
  Location loc;
  Type like;

private:
  Value constant(Type element, TypedAttr scalar) {
    if (auto tensor = dyn_cast<RankedTensorType>(like))
      return arith::ConstantOp::create(b, loc,
                                       DenseElementsAttr::get(tensor.clone(element), scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  }
};

/// The f32 value of the fp8 value `x` (exact).
Value decode(OpBuilder &b, Location loc, Value x) {
  Type element = getElementTypeOrSelf(x.getType());
  const Format f(element);
  Emitter e(b, loc, x.getType());
  Value byte = arith::BitcastOp::create(b, loc, withElement(x.getType(), b.getI8Type()), x);
  Value u = arith::ExtUIOp::create(b, loc, e.i32Type(), byte);
  Value magnitude = e.andi(u, 0x7F);
  Value field = e.shr(magnitude, f.mantissaBits);
  Value fraction = e.andi(magnitude, f.mask());
  // Normal: (1.fraction) 2^(field - bias); subnormal (field 0): 0.fraction 2^(1 - bias).
  Value subnormal = e.cmp(arith::CmpIPredicate::eq, field, 0);
  Value significand = e.select(subnormal, fraction,
                               arith::OrIOp::create(b, loc, fraction, e.i32(1 << f.mantissaBits)));
  Value exponent = e.select(subnormal, e.i32(1), field);
  Value scale = e.pow2(e.add(exponent, 127 - f.bias() - f.mantissaBits));
  Value value = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, e.f32Type(), significand), scale);
  Value bits = e.toI32(value);
  if (f.ieee) { // the all-ones exponent: infinity (fraction 0) or NaN
    Value special = e.cmp(arith::CmpIPredicate::eq, field, (1 << f.exponentBits) - 1);
    Value nan = e.cmp(arith::CmpIPredicate::ne, fraction, 0);
    bits = e.select(special, e.select(nan, e.i32(0x7FC00000), e.i32(0x7F800000)), bits);
  } else if (f.fnuz) { // 0x80, the pattern of -0
    bits = e.select(e.cmp(arith::CmpIPredicate::eq, u, 0x80), e.i32(0x7FC00000), bits);
  } else {
    bits = e.select(e.cmp(arith::CmpIPredicate::eq, magnitude, 0x7F), e.i32(0x7FC00000), bits);
  }
  Value sign = e.shl(e.andi(u, 0x80), 24);
  return e.toF32(arith::OrIOp::create(b, loc, bits, sign));
}

/// The f32 value `x` rounded to the fp8 type `to` (of x's shape) with `mode`, saturating.
Value encode(OpBuilder &b, Location loc, Value x, Type to, arith::RoundingMode mode) {
  const Format f(getElementTypeOrSelf(to));
  Emitter e(b, loc, x.getType());
  Value bits = e.toI32(x);
  Value absBits = e.andi(bits, 0x7FFFFFFF);
  Value isNan = e.cmp(arith::CmpIPredicate::ugt, absBits, 0x7F800000);
  Value a = e.toF32(absBits);
  // Saturate (infinities too); NaN compares false and is handled at the end.
  Value max = e.f32(f.maxFinite());
  Value over = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, a, max);
  a = e.select(over, max, a);
  // q = 2^(E - m), E = max(exponent of a, the format's smallest): a / q is exact and < 2^(m+1).
  Value exponent = e.add(e.shr(e.toI32(a), 23), -127);
  exponent = arith::MaxSIOp::create(b, loc, exponent, e.i32(f.minExponent()));
  Value step = e.add(exponent, -f.mantissaBits);
  Value scaled =
      arith::MulFOp::create(b, loc, a, e.pow2(arith::SubIOp::create(b, loc, e.i32(127), step)));
  Value steps;
  if (mode == arith::RoundingMode::toward_zero) {
    steps = arith::UIToFPOp::create(b, loc, e.f32Type(),
                                    arith::FPToUIOp::create(b, loc, e.i32Type(), scaled));
  } else { // to nearest even: adding 2^23 leaves no fraction bits, so f32's addition rounds
    Value magic = e.f32(8388608.0f);
    steps = arith::SubFOp::create(b, loc, arith::AddFOp::create(b, loc, scaled, magic), magic);
  }
  Value rounded = arith::MulFOp::create(b, loc, steps, e.pow2(e.add(step, 127)));
  // Encode the representable value: normal from its f32 fields, subnormal (or zero) as a count
  // of the smallest subnormal.
  Value roundedBits = e.toI32(rounded);
  Value roundedExponent = e.add(e.shr(roundedBits, 23), -127);
  Value normal =
      arith::OrIOp::create(b, loc, e.shl(e.add(roundedExponent, f.bias()), f.mantissaBits),
                           e.andi(e.shr(roundedBits, 23 - f.mantissaBits), f.mask()));
  Value subnormal = arith::FPToUIOp::create(
      b, loc, e.i32Type(),
      arith::MulFOp::create(b, loc, rounded,
                            e.pow2(e.i32(127 + f.mantissaBits - f.minExponent()))));
  Value isNormal = e.cmp(arith::CmpIPredicate::sge, roundedExponent, f.minExponent());
  Value code = e.select(isNormal, normal, subnormal);
  Value sign = e.andi(e.shr(bits, 24), 0x80);
  if (f.fnuz) // no -0: a zero keeps no sign
    sign = e.select(e.cmp(arith::CmpIPredicate::eq, code, 0), e.i32(0), sign);
  code = e.select(isNan, e.i32(f.nanCode()), arith::OrIOp::create(b, loc, code, sign));
  Value byte = arith::TruncIOp::create(b, loc, withElement(x.getType(), b.getI8Type()), code);
  return arith::BitcastOp::create(b, loc, to, byte);
}

/// The f32 value `x` (an fp8 value's, so exact in any float type) as the non-fp8 float type `to`.
Value exactlyAs(OpBuilder &b, Location loc, Value x, Type to) {
  Type element = getElementTypeOrSelf(to);
  if (element.isF32())
    return x;
  if (element.isF64())
    return arith::ExtFOp::create(b, loc, to, x);
  return arith::TruncFOp::create(b, loc, to, x);
}

arith::RoundingMode roundingOf(arith::TruncFOp op) {
  return op.getRoundingmode().value_or(arith::RoundingMode::to_nearest_even);
}

/// Rewrites `op`, which takes or makes fp8 values; failure when it cannot.
LogicalResult legalize(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  if (auto ext = dyn_cast<arith::ExtFOp>(op)) { // from fp8
    ext.replaceAllUsesWith(exactlyAs(b, loc, decode(b, loc, ext.getIn()), ext.getType()));
  } else if (auto trunc = dyn_cast<arith::TruncFOp>(op)) { // to fp8
    const arith::RoundingMode mode = roundingOf(trunc);
    Value in = trunc.getIn();
    Type inElement = getElementTypeOrSelf(in.getType());
    if (isFp8(inElement)) // between the fp8 types: exact through f32
      in = decode(b, loc, in);
    else if (inElement.isF64()) {
      auto narrow = arith::TruncFOp::create(b, loc, withElement(in.getType(), b.getF32Type()), in);
      narrow.setRoundingmodeAttr(trunc.getRoundingmodeAttr());
      in = narrow;
    } else if (!inElement.isF32())
      in = arith::ExtFOp::create(b, loc, withElement(in.getType(), b.getF32Type()), in);
    trunc.replaceAllUsesWith(encode(b, loc, in, trunc.getType(), mode));
  } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto bytes = [&](APFloat v) { return v.bitcastToAPInt(); };
    Type i8 = withElement(constant.getType(), b.getI8Type());
    TypedAttr attr;
    if (auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue()))
      attr = dense.mapValues(b.getI8Type(), bytes);
    else if (auto scalar = dyn_cast<FloatAttr>(constant.getValue()))
      attr = b.getIntegerAttr(i8, bytes(scalar.getValue()));
    else
      return op->emitOpError() << "an fp8 constant must be a float or a dense float attribute";
    Value raw = arith::ConstantOp::create(b, loc, attr);
    constant.replaceAllUsesWith(
        arith::BitcastOp::create(b, loc, constant.getType(), raw).getResult());
  } else {
    // Any other arith or math op: its fp8 operands as f32, the op on f32, fp8 results rounded.
    if (op->getNumRegions() != 0)
      return op->emitOpError() << "on fp8 values is not supported";
    IRMapping mapping;
    for (Value operand : op->getOperands())
      if (isFp8(operand.getType()))
        mapping.map(operand, decode(b, loc, operand));
    Operation *wide = b.clone(*op, mapping);
    for (auto [result, wideResult] : llvm::zip_equal(op->getResults(), wide->getResults())) {
      if (!isFp8(result.getType()))
        continue;
      wideResult.setType(withElement(result.getType(), b.getF32Type()));
      b.setInsertionPointAfter(wide);
      result.replaceAllUsesWith(
          encode(b, loc, wideResult, result.getType(), arith::RoundingMode::to_nearest_even));
    }
    for (auto [result, wideResult] : llvm::zip_equal(op->getResults(), wide->getResults()))
      if (!result.use_empty())
        result.replaceAllUsesWith(wideResult);
  }
  op->erase();
  return success();
}

/// A tk.reduce or tk.scan over fp8 operands as one over their f32 values (Triton reduces fp8 in
/// f32 too): the operands are decoded, the combine region takes and yields f32, and inside it
/// the original body still computes on fp8 (narrowing exact values, so each combine rounds to
/// fp8 as the interpreter's does); the results are narrowed back, exactly. The arithmetic this
/// creates on fp8 is legalized with the rest.
void widenCombineOp(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type f32 = b.getF32Type();
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(
        isFp8(operand.getType())
            ? arith::ExtFOp::create(b, loc, withElement(operand.getType(), f32), operand)
                  .getResult()
            : operand);
  SmallVector<Type> resultTypes;
  for (Type type : op->getResultTypes())
    resultTypes.push_back(isFp8(type) ? withElement(type, f32) : type);
  OperationState state(loc, op->getName(), operands, resultTypes, op->getAttrs());
  Region *region = state.addRegion();
  Block &oldBody = op->getRegion(0).front();
  Block *body = new Block();
  region->push_back(body);
  IRMapping mapping;
  OpBuilder inner(op->getContext());
  inner.setInsertionPointToStart(body);
  for (BlockArgument arg : oldBody.getArguments()) {
    if (!isFp8(arg.getType())) {
      mapping.map(arg, body->addArgument(arg.getType(), arg.getLoc()));
      continue;
    }
    Value wide = body->addArgument(f32, arg.getLoc());
    mapping.map(arg, arith::TruncFOp::create(inner, arg.getLoc(), arg.getType(), wide));
  }
  for (Operation &nested : oldBody.without_terminator())
    inner.clone(nested, mapping);
  Operation *terminator = oldBody.getTerminator();
  SmallVector<Value> yielded;
  for (Value v : terminator->getOperands()) {
    Value mapped = mapping.lookupOrDefault(v);
    yielded.push_back(
        isFp8(v.getType())
            ? arith::ExtFOp::create(inner, terminator->getLoc(), f32, mapped).getResult()
            : mapped);
  }
  OperationState returnState(terminator->getLoc(), terminator->getName(), yielded, TypeRange(),
                             terminator->getAttrs());
  inner.create(returnState);
  Operation *wide = b.create(state);
  for (auto [result, wideResult] : llvm::zip_equal(op->getResults(), wide->getResults()))
    result.replaceAllUsesWith(
        isFp8(result.getType())
            ? arith::TruncFOp::create(b, loc, result.getType(), wideResult).getResult()
            : wideResult);
  op->erase();
}

/// Whether `op` computes on fp8 values (data movement does not).
bool needsLegalizing(Operation *op) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      isa<arith::SelectOp, arith::BitcastOp>(op))
    return false;
  return llvm::any_of(op->getOperandTypes(), isFp8) || llvm::any_of(op->getResultTypes(), isFp8);
}

/// Widens the fp8 operands of `dot` to f16 (exact) where the target's tensor cores do not
/// multiply fp8 (the file comment), and for an f16 accumulator, which the f16 products add to
/// as the fp8 ones would.
void legalizeDot(tk::DotOp dot, unsigned computeCapability) {
  const int64_t k = dot.getA().getType().getDimSize(1);
  const bool native = computeCapability >= 89 && k % 32 == 0 &&
                      tk::isFloat8(dot.getA().getType().getElementType()) &&
                      tk::isFloat8(dot.getB().getType().getElementType()) &&
                      dot.getType().getElementType().isF32();
  if (!isFp8(dot.getA().getType()) || native)
    return;
  OpBuilder b(dot);
  for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()}) {
    Value x = operand->get();
    operand->set(exactlyAs(b, dot.getLoc(), decode(b, dot.getLoc(), x),
                           withElement(x.getType(), b.getF16Type())));
  }
}

struct TkLegalizeFp8Pass : tkgpu::impl::TkLegalizeFp8Base<TkLegalizeFp8Pass> {
  using TkLegalizeFp8Base::TkLegalizeFp8Base;

  void runOnOperation() override {
    SmallVector<Operation *> combines;
    getOperation().walk([&](Operation *op) {
      if (isa<tk::ReduceOp, tk::ScanOp>(op) &&
          (llvm::any_of(op->getOperandTypes(), isFp8) || llvm::any_of(op->getResultTypes(), isFp8)))
        combines.push_back(op);
    });
    for (Operation *op : combines)
      widenCombineOp(op);
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (auto dot = dyn_cast<tk::DotOp>(op))
        legalizeDot(dot, computeCapability);
      else if (needsLegalizing(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(legalize(op)))
        return signalPassFailure();
  }
};

} // namespace

/// @file MMAv2DotOpToLLVM.cpp
/// tk.dot on tensor cores: `mma.sync.aligned.m16n8kK.row.col` (sm_80 and newer), for a
/// dot whose result is in an `#tkgpu.mma` layout and whose operands are in the matching
/// `#tkgpu.dot_operand` layouts (tk-accelerate-matmul chose them; their attributes describe the
/// fragments). The operands arrive in registers, in the order mma.sync reads them: this pattern
/// packs each register's kWidth elements into an i32 and issues one instruction per 16 x 8
/// accumulator tile and K step, K steps outermost.
///
///   inputs      accumulator   instruction                       registers a / b / c
///   f16, bf16   f32           m16n8k16 .f32.{f16,bf16}...f32     4 / 2 / 4 f32
///   f16         f16           m16n8k16 .f16.f16.f16.f16          4 / 2 / 2 f16x2
///   f32 (tf32)  f32           m16n8k8  .f32.tf32.tf32.f32        4 / 2 / 4 f32
///   i8          i32           m16n8k32 .s32.s8.s8.s32            4 / 2 / 4 i32
///   fp8         f32           m16n8k32 .f32.{e4m3,e5m2}x2.f32    4 / 2 / 4 f32  (PTX 8.4)
///
/// fp8 mma.sync needs PTX ISA 8.4, above the 8.0 of sm_89 and sm_90: tk-to-llvm raises the
/// module's `tkgpu.ptx_version` before lowering, and translation to PTX takes the higher of it
/// and the target's.
///
/// tf32: each f32 operand register goes to mma.sync as it is; the tensor cores read its top 19
/// bits, which rounds toward zero (the interpreter rounds the same way). Rounding to nearest
/// (`cvt.rna.tf32.f32`) cost three instructions per element, as many as the mma.sync
/// instructions of a 128 x 128 x 32 tile. tf32x3 splits x into big = tf32(x) (the low 13 bits
/// cleared) and small = x - big (exact; read as tf32(x - big)). For each 16 x 8 tile and K step,
/// small_a big_b + big_a small_b goes into a fresh accumulator, which is replaced by 0 where it is
/// NaN (an infinite input times a zero small part, or inf - inf in x - big: the big products carry
/// the infinity, as in the interpreter), added to the tile, and then big_a big_b: the small terms
/// first, so that they are not lost under the large one.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/TypeConverter.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// `kWidth` elements packed into one i32 (their vector bitcast), or an f32's bits (a tf32
/// operand: the tensor cores drop the low 13).
Value packRegister(OpBuilder &b, Location loc, ArrayRef<Value> elements) {
  Type i32 = b.getI32Type();
  if (elements.size() == 1 && elements[0].getType().isF32())
    return LLVM::BitcastOp::create(b, loc, i32, elements[0]);
  auto vectorType = VectorType::get({int64_t(elements.size())}, elements[0].getType());
  Value vector = LLVM::UndefOp::create(b, loc, vectorType);
  for (auto [i, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(b, loc, vector, element, i32Constant(b, loc, i));
  return LLVM::BitcastOp::create(b, loc, i32, vector);
}

/// tf32x3's big part of an f32 `x` (as an i32 register): tf32(x), the low 13 bits cleared.
Value bigPart(OpBuilder &b, Location loc, Value x) {
  Value bits = LLVM::BitcastOp::create(b, loc, b.getI32Type(), x);
  return LLVM::AndOp::create(b, loc, bits, i32Constant(b, loc, int32_t(0xffffe000u)));
}

/// tf32x3's small part of an f32 `x` (as an i32 register): x - big, exact in f32, which the
/// tensor cores read as tf32(x - big).
Value smallPart(OpBuilder &b, Location loc, Value x, Value big) {
  Value bigFloat = LLVM::BitcastOp::create(b, loc, b.getF32Type(), big);
  return packRegister(b, loc, {LLVM::FSubOp::create(b, loc, x, bigFloat)});
}

/// The operand's registers, kWidth elements each, in the layout's order.
SmallVector<Value> packOperand(OpBuilder &b, Location loc, ArrayRef<Value> elements,
                               unsigned kWidth) {
  SmallVector<Value> registers;
  for (unsigned i = 0; i < elements.size(); i += kWidth)
    registers.push_back(packRegister(b, loc, elements.slice(i, kWidth)));
  return registers;
}

struct MMAv2DotOpConversion : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                     cType = op.getC().getType();
    auto mma = dyn_cast_or_null<tkgpu::MmaEncodingAttr>(cType.getEncoding());
    if (!mma)
      return rewriter.notifyMatchFailure(op, "result is not in an mma layout");
    auto aLayout = dyn_cast_or_null<tkgpu::DotOperandEncodingAttr>(aType.getEncoding());
    auto bLayout = dyn_cast_or_null<tkgpu::DotOperandEncodingAttr>(bType.getEncoding());
    if (!aLayout || !bLayout || aLayout.getParent() != mma || bLayout.getParent() != mma ||
        aLayout.getOpIdx() != 0 || bLayout.getOpIdx() != 1 ||
        aLayout.getKWidth() != bLayout.getKWidth())
      return op.emitError() << "tk.dot with an mma result needs dot_operand operands of that "
                               "layout (opIdx 0 and 1, one kWidth), got "
                            << aType << " and " << bType;
    Type structType = getTypeConverter()->convertType(op.getType());
    for (Value operand : adaptor.getOperands())
      if (!isa<LLVM::LLVMStructType>(operand.getType()))
        return rewriter.notifyMatchFailure(op, "operand is not a converted tensor");
    Location loc = op.getLoc();
    const unsigned kWidth = aLayout.getKWidth();
    Type in = aType.getElementType(), acc = cType.getElementType();
    const bool tf32 = in.isF32(), tf32x3 = tf32 && op.getInputPrecision() == "tf32x3";
    const bool fp8 = isFloat8(in) && isFloat8(bType.getElementType());

    // Instruction shape and register counts.
    std::string shape = "m16n8k" + std::to_string(aLayout.getInstrK());
    std::string types;
    if (in.isF16() && acc.isF16())
      types = ".f16.f16.f16.f16";
    else if (in.isF16())
      types = ".f32.f16.f16.f32";
    else if (in.isBF16())
      types = ".f32.bf16.bf16.f32";
    else if (tf32)
      types = ".f32.tf32.tf32.f32";
    else if (in.isSignlessInteger(8))
      types = ".s32.s8.s8.s32";
    else if (fp8 && acc.isF32())
      types = ".f32." + fp8PtxType(in) + "." + fp8PtxType(bType.getElementType()) + ".f32";
    else
      return op.emitError() << "tk.dot on tensor cores does not support " << in << " inputs";
    const bool packedAcc = acc.isF16(); // f16 accumulators: two per register
    const unsigned cRegs = packedAcc ? 2 : 4;
    std::string text = "mma.sync.aligned." + shape + ".row.col" + types + " " +
                       asmOperands(0, cRegs) + ", " + asmOperands(cRegs, 4) + ", " +
                       asmOperands(cRegs + 4, 2) + ", " + asmOperands(cRegs + 6, cRegs) + ";";
    const std::string cConstraint = acc.isF32() ? "f" : "r";
    std::string constraints;
    for (unsigned i = 0; i < cRegs; ++i)
      constraints += "=" + cConstraint + ",";
    constraints += "r,r,r,r,r,r";
    for (unsigned i = 0; i < cRegs; ++i)
      constraints += "," + std::to_string(i);
    Type cRegType = acc.isF32() ? Type(rewriter.getF32Type()) : Type(rewriter.getI32Type());

    // Operands: registers in the layouts' order; see the attributes' descriptions.
    SmallVector<Value> aElements = unpackElements(rewriter, loc, adaptor.getA());
    SmallVector<Value> bElements = unpackElements(rewriter, loc, adaptor.getB());
    SmallVector<Value> aRegs, bRegs, aSmall, bSmall;
    if (tf32x3) {
      for (Value x : aElements)
        aRegs.push_back(bigPart(rewriter, loc, x));
      for (Value x : bElements)
        bRegs.push_back(bigPart(rewriter, loc, x));
    } else {
      aRegs = packOperand(rewriter, loc, aElements, kWidth);
      bRegs = packOperand(rewriter, loc, bElements, kWidth);
    }
    if (tf32x3) {
      for (auto [x, big] : llvm::zip_equal(aElements, aRegs))
        aSmall.push_back(smallPart(rewriter, loc, x, big));
      for (auto [x, big] : llvm::zip_equal(bElements, bRegs))
        bSmall.push_back(smallPart(rewriter, loc, x, big));
    }
    const int64_t repK = aType.getDimSize(1) / aLayout.getInstrK();
    const int64_t repM = int64_t(aRegs.size()) / (4 * repK);
    const int64_t repN = int64_t(bRegs.size()) / (2 * repK);

    // Accumulators: four elements per 16 x 8 tile (two f16x2 registers for f16).
    SmallVector<Value> cElements = unpackElements(rewriter, loc, adaptor.getC());
    if (int64_t(cElements.size()) != 4 * repM * repN)
      return op.emitError() << "tk.dot: the accumulator's mma layout holds " << cElements.size()
                            << " elements per thread, the operands' layouts " << 4 * repM * repN;
    SmallVector<SmallVector<Value>> tiles;
    for (int64_t t = 0; t < repM * repN; ++t) {
      ArrayRef<Value> four = ArrayRef<Value>(cElements).slice(4 * t, 4);
      if (packedAcc)
        tiles.push_back({packRegister(rewriter, loc, four.take_front(2)),
                         packRegister(rewriter, loc, four.drop_front(2))});
      else
        tiles.push_back(SmallVector<Value>(four));
    }

    auto issue = [&](SmallVector<Value> &tile, ArrayRef<Value> a, ArrayRef<Value> b) {
      SmallVector<Value> operands;
      llvm::append_range(operands, a);
      llvm::append_range(operands, b);
      llvm::append_range(operands, tile);
      tile = emitAsm(rewriter, loc, text, constraints, operands, cRegType, cRegs);
    };
    Value zero = tf32x3 ? LLVM::ConstantOp::create(rewriter, loc, rewriter.getF32Type(),
                                                   rewriter.getF32FloatAttr(0.0f))
                        : Value();
    for (int64_t k = 0; k < repK; ++k)
      for (int64_t m = 0; m < repM; ++m)
        for (int64_t n = 0; n < repN; ++n) {
          auto aTile = [&](ArrayRef<Value> regs) { return regs.slice(4 * (m * repK + k), 4); };
          auto bTile = [&](ArrayRef<Value> regs) { return regs.slice(2 * (n * repK + k), 2); };
          SmallVector<Value> &tile = tiles[m * repN + n];
          if (tf32x3) {
            SmallVector<Value> small(4, zero);
            issue(small, aTile(aSmall), bTile(bRegs));
            issue(small, aTile(aRegs), bTile(bSmall));
            for (auto [sum, part] : llvm::zip_equal(tile, small)) {
              Value isNaN =
                  LLVM::FCmpOp::create(rewriter, loc, LLVM::FCmpPredicate::uno, part, part);
              sum = LLVM::FAddOp::create(rewriter, loc, sum,
                                         LLVM::SelectOp::create(rewriter, loc, isNaN, zero, part));
            }
          }
          issue(tile, aTile(aRegs), bTile(bRegs));
        }

    SmallVector<Value> results;
    Type f16x2 = VectorType::get({2}, rewriter.getF16Type());
    for (SmallVector<Value> &tile : tiles) {
      if (!packedAcc) {
        llvm::append_range(results, tile);
        continue;
      }
      for (Value reg : tile) {
        Value pair = LLVM::BitcastOp::create(rewriter, loc, f16x2, reg);
        for (int i = 0; i < 2; ++i)
          results.push_back(
              LLVM::ExtractElementOp::create(rewriter, loc, pair, i32Constant(rewriter, loc, i)));
      }
    }
    rewriter.replaceOp(op, packElements(rewriter, loc, structType, results));
    return success();
  }
};

} // namespace

void mlir::tk::populateMMAv2DotOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<MMAv2DotOpConversion>(converter, patterns.getContext());
}

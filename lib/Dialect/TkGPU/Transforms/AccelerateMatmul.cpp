/// @file AccelerateMatmul.cpp
/// tk-accelerate-matmul: tk.dot on tensor cores (Triton's AccelerateMatmul). Each dot the
/// tensor cores can compute gets an `#tkgpu.mma` result and accumulator; tkgpu.convert_layout
/// ops bring its accumulator into that layout and its result back to the blocked layout its
/// users had. tk-remove-layout-conversions then carries the accumulator through loops in the
/// mma layout and removes what conversions it can.
///
/// mma.sync (version 2, sm_80 and newer): the dot stays a tk.dot, its operands converted to
/// `#tkgpu.dot_operand` layouts (registers).
///   f16 x f16 -> f32 or f16, bf16 x bf16 -> f32   m16n8k16, kWidth 2
///   f32 x f32 -> f32 with tf32 or tf32x3           m16n8k8,  kWidth 1 (tf32 operands)
///   i8 x i8 -> i32, K a multiple of 32             m16n8k32, kWidth 4
///   fp8 x fp8 -> f32 (e4m3, e5m2, either mix),      m16n8k32, kWidth 4 (sm_89 and newer)
///     K a multiple of 32
/// Others stay on the FMA path: `ieee` f32 products (exact, as that precision promises), i8 with
/// K = 16, and every dot below sm_80. (tk-legalize-fp8 has widened the fp8 dots that mma.sync
/// cannot take to f16.)
///
/// wgmma (version 3, sm_90a only: the `wgmma` option): the dot becomes a
/// tkgpu.warp_group_dot whose operands are shared-memory tiles (tkgpu.local_alloc of the
/// operand, in getWgmmaSharedEncoding's layout, its contiguous dimension the operand layout's;
/// tk-pipeline turns the loads behind them into copies straight into those tiles), except a
/// 16-bit `a` computed in the kernel, which stays in registers (a `#tkgpu.dot_operand` of the
/// version-3 layout; keepsOperandAInRegisters). Taken where
///   - the CTA has a multiple of 4 warps, M is a multiple of 64 and N of 8 (wgmma's m64nNk);
///   - the inputs are f16 or bf16 (f32 accumulator, or f16 with f16 inputs), f32 with tf32
///     precision, fp8 (f32 accumulator, K a multiple of 32) or i8 (i32 accumulator, K a
///     multiple of 32);
///   - a 32- or 8-bit operand has K contiguous (wgmma transposes 16-bit tiles only), and each
///     tile's contiguous rows hold at least 32 bytes (the narrowest swizzle).
/// Other dots take mma.sync. The warps: a warpgroup holds 64 rows, so 4 warps down M at
/// least; more warps go down M while M has 16-row slices left for them, then across N, each
/// instruction then covering N / warpsPerCTA[1] columns (at most 256).
///
/// mma.sync warps: the result's M x N tile is split among the CTA's warps so that each warp's
/// part is as square as can be, counted in 16 x 16 units (a 16 x 8 instruction tile takes two
/// such columns): starting from one warp, warps double along M while M / (16 wm) >= N / (16 wn)
/// and M has 16-row tiles left for them, else along N. 128 x 128 on 4 warps gives 2 x 2 (64 x
/// 64 per warp), on 8 warps 4 x 2 (32 x 64). Warps beyond the tile's 16 x 8 units wrap around
/// and compute copies (small tiles on many warps).
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKACCELERATEMATMUL
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// Whether `dot` multiplies fp8 values (of one type or two) into an f32 accumulator.
bool isFp8Dot(tk::DotOp dot) {
  return tk::isFloat8(dot.getA().getType().getElementType()) &&
         tk::isFloat8(dot.getB().getType().getElementType()) &&
         dot.getC().getType().getElementType().isF32();
}

/// Elements per 32-bit register of the operands (kWidth) when mma.sync computes `dot` on a GPU of
/// `computeCapability`, or 0.
unsigned getKWidth(tk::DotOp dot, unsigned computeCapability) {
  Type in = dot.getA().getType().getElementType();
  Type acc = dot.getC().getType().getElementType();
  const int64_t k = dot.getA().getType().getDimSize(1);
  if ((in.isF16() && (acc.isF32() || acc.isF16())) || (in.isBF16() && acc.isF32()))
    return k % 16 == 0 ? 2 : 0;
  if (in.isF32() && acc.isF32() && dot.getInputPrecision() != "ieee")
    return k % 8 == 0 ? 1 : 0;
  if (in.isSignlessInteger(8) && acc.isSignlessInteger(32))
    return k % 32 == 0 ? 4 : 0;
  if (isFp8Dot(dot))
    return computeCapability >= 89 && k % 32 == 0 ? 4 : 0;
  return 0;
}

/// The warp grid for an M x N result (the file comment's heuristic).
SmallVector<unsigned, 2> chooseWarps(int64_t m, int64_t n, unsigned numWarps) {
  SmallVector<unsigned, 2> warps{1, 1};
  while (warps[0] * warps[1] < numWarps) {
    if (m / 16 / warps[0] >= n / 16 / warps[1] && warps[0] < m / 16)
      warps[0] *= 2;
    else
      warps[1] *= 2;
  }
  return warps;
}

RankedTensorType withLayout(RankedTensorType type, Attribute layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}

Value convertTo(OpBuilder &builder, Value value, Attribute layout) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getEncoding() == layout)
    return value;
  return ConvertLayoutOp::create(builder, value.getLoc(), withLayout(type, layout), value);
}

/// The value a wgmma operand's tile is stored from: the operand before its conversions between
/// blocked layouts. Any blocked layout can be stored, and the original (a load's, say) has the
/// contiguous dimension of memory, which the tile then shares.
Value storedOperand(Value operand) {
  while (auto convert = operand.getDefiningOp<ConvertLayoutOp>()) {
    if (!isa_and_nonnull<BlockedEncodingAttr>(convert.getSrc().getType().getEncoding()))
      break;
    operand = convert.getSrc();
  }
  return operand;
}

/// The contiguous dimension of a wgmma operand's tile: the blocked layout's fastest one of the
/// value it is stored from.
std::optional<unsigned> getContiguousDim(Value operand) {
  operand = storedOperand(operand);
  auto type = cast<RankedTensorType>(operand.getType());
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding()))
    return blocked.getOrder()[0];
  return std::nullopt;
}

/// Whether wgmma computes `dot` (the file comment's conditions), on `numWarps` warps.
bool canUseWgmma(tk::DotOp dot, unsigned numWarps) {
  RankedTensorType a = dot.getA().getType(), b = dot.getB().getType();
  Type in = a.getElementType(), acc = dot.getC().getType().getElementType();
  const int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
  if (numWarps % 4 != 0 || m % 64 != 0 || n % 8 != 0)
    return false;
  const bool halves = (in.isF16() && (acc.isF32() || acc.isF16())) || (in.isBF16() && acc.isF32());
  const bool tf32 = in.isF32() && acc.isF32() && dot.getInputPrecision() == "tf32";
  const bool bytes = (in.isSignlessInteger(8) && acc.isSignlessInteger(32)) || isFp8Dot(dot);
  if (!halves && !tf32 && !bytes)
    return false;
  const unsigned bits = in.getIntOrFloatBitWidth();
  if (k % (256 / bits) != 0) // one instruction's K: 32 bytes
    return false;
  std::optional<unsigned> aInner = getContiguousDim(dot.getA());
  std::optional<unsigned> bInner = getContiguousDim(dot.getB());
  if (!aInner || !bInner)
    return false;
  if (!halves && (*aInner != 1 || *bInner != 0))
    return false;
  const int64_t aRow = (*aInner == 1 ? k : m) * bits / 8, bRow = (*bInner == 0 ? k : n) * bits / 8;
  return aRow >= 32 && bRow >= 32;
}

/// The version-3 warp grid and instruction N for an M x N result.
std::pair<SmallVector<unsigned, 2>, unsigned> chooseWgmmaShape(int64_t m, int64_t n,
                                                               unsigned numWarps) {
  SmallVector<unsigned, 2> warps{4, 1};
  while (warps[0] * warps[1] < numWarps) {
    if (m >= 32 * int64_t(warps[0]))
      warps[0] *= 2;
    else
      warps[1] *= 2;
  }
  const int64_t instrN = std::clamp<int64_t>(n / warps[1], 8, 256);
  return {warps, unsigned(instrN)};
}

/// Whether wgmma reads `a` from registers: a 16-bit operand computed in the kernel (not loaded
/// from memory, nor an argument), such as softmax(q kT) before its product with v, which then
/// needs no round trip through shared memory. Loaded operands go to tiles, where the pipeline
/// copies them.
bool keepsOperandAInRegisters(tk::DotOp dot, unsigned bits) {
  Operation *def = storedOperand(dot.getA()).getDefiningOp();
  return bits == 16 && def && !isa<tk::LoadOp, tk::DescriptorLoadOp>(def);
}

/// A tile holding `operand` of `dot`, stored from the layout it was converted from
/// (storedOperand). A value the loops around the dot do not change (q in attention) is stored
/// once, before the outermost of them, not in every iteration.
Value allocTile(Operation *dot, Value operand) {
  operand = storedOperand(operand);
  Operation *point = dot;
  while (auto loop = dyn_cast<scf::ForOp>(point->getParentOp())) {
    if (!loop.isDefinedOutsideOfLoop(operand))
      break;
    point = loop;
  }
  OpBuilder builder(point);
  auto type = cast<RankedTensorType>(operand.getType());
  SharedEncodingAttr shared =
      getWgmmaSharedEncoding(builder.getContext(), type.getShape(), getOrder(type.getEncoding()),
                             type.getElementType().getIntOrFloatBitWidth());
  auto tile =
      MemDescType::get(builder.getContext(), type.getShape(), type.getElementType(), shared);
  return LocalAllocOp::create(builder, operand.getLoc(), tile, operand);
}

struct TkAccelerateMatmulPass : tkgpu::impl::TkAccelerateMatmulBase<TkAccelerateMatmulPass> {
  using TkAccelerateMatmulBase::TkAccelerateMatmulBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const unsigned numWarps = TkGPUDialect::getModuleNumWarps(module);
    if (numWarps == 0 || computeCapability < 80)
      return; // no layouts yet, or no mma.sync
    MLIRContext *context = &getContext();
    module.walk([&](tk::DotOp dot) {
      RankedTensorType type = dot.getType();
      if (!isa_and_nonnull<BlockedEncodingAttr>(type.getEncoding()))
        return;
      OpBuilder builder(dot);
      if (wgmma && canUseWgmma(dot, numWarps)) {
        auto [warps, instrN] = chooseWgmmaShape(type.getDimSize(0), type.getDimSize(1), numWarps);
        auto mma = MmaEncodingAttr::get(context, 3, warps, ArrayRef<unsigned>{16, instrN});
        const unsigned bits = dot.getA().getType().getElementTypeBitWidth();
        Value a = keepsOperandAInRegisters(dot, bits)
                      ? convertTo(builder, dot.getA(),
                                  DotOperandEncodingAttr::get(context, 0, mma, 32 / bits))
                      : allocTile(dot, dot.getA());
        Value b = allocTile(dot, dot.getB());
        Value c = convertTo(builder, dot.getC(), mma);
        auto product = WarpGroupDotOp::create(builder, dot.getLoc(), withLayout(type, mma), a, b, c,
                                              dot.getInputPrecisionAttr(), UnitAttr(),
                                              dot.getMaxNumImpreciseAccAttr());
        dot.replaceAllUsesWith(
            ConvertLayoutOp::create(builder, dot.getLoc(), type, product).getResult());
        dot.erase();
        return;
      }
      const unsigned kWidth = getKWidth(dot, computeCapability);
      if (kWidth == 0)
        return;
      auto mma = MmaEncodingAttr::get(context, 2,
                                      chooseWarps(type.getDimSize(0), type.getDimSize(1), numWarps),
                                      ArrayRef<unsigned>{16, 8});
      Value a =
          convertTo(builder, dot.getA(), DotOperandEncodingAttr::get(context, 0, mma, kWidth));
      Value b =
          convertTo(builder, dot.getB(), DotOperandEncodingAttr::get(context, 1, mma, kWidth));
      Value c = convertTo(builder, dot.getC(), mma);
      auto product =
          tk::DotOp::create(builder, dot.getLoc(), withLayout(type, mma), a, b, c,
                            dot.getInputPrecisionAttr(), dot.getMaxNumImpreciseAccAttr());
      Value back = ConvertLayoutOp::create(builder, dot.getLoc(), type, product);
      dot.replaceAllUsesWith(back);
      dot.erase();
    });
  }
};

} // namespace

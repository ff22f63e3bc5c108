/// @file tk-accelerate-matmul: tk.dot on tensor cores (Triton's AccelerateMatmul). Each dot the
/// tensor cores can compute gets an `#tkgpu.mma` result and accumulator, and `#tkgpu.dot_operand`
/// operands; tkgpu.convert_layout ops bring its operands into those layouts and its result back
/// to the blocked layout its users had. tk-remove-layout-conversions then carries the
/// accumulator through loops in the mma layout and removes what conversions it can.
///
/// Which dots (mma.sync, sm_80 and newer):
///   f16 x f16 -> f32 or f16, bf16 x bf16 -> f32   m16n8k16, kWidth 2
///   f32 x f32 -> f32 with tf32 or tf32x3           m16n8k8,  kWidth 1 (tf32 operands)
///   i8 x i8 -> i32, K a multiple of 32             m16n8k32, kWidth 4
/// Others stay on the FMA path: `ieee` f32 products (exact, as that precision promises), i8 with
/// K = 16, and every dot below sm_80.
///
/// Warps: the result's M x N tile is split among the CTA's warps so that each warp's part is as
/// square as can be, counted in 16 x 16 units (a 16 x 8 instruction tile takes two such
/// columns): starting from one warp, warps double along M while M / (16 wm) >= N / (16 wn) and
/// M has 16-row tiles left for them, else along N. 128 x 128 on 4 warps gives 2 x 2 (64 x 64
/// per warp), on 8 warps 4 x 2 (32 x 64). Warps beyond the tile's 16 x 8 units wrap around and
/// compute copies (small tiles on many warps).
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKACCELERATEMATMUL
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// Elements per 32-bit register of the operands (kWidth) when mma.sync computes `dot`, or 0.
unsigned getKWidth(tk::DotOp dot) {
  Type in = dot.getA().getType().getElementType();
  Type acc = dot.getC().getType().getElementType();
  const int64_t k = dot.getA().getType().getDimSize(1);
  if ((in.isF16() && (acc.isF32() || acc.isF16())) || (in.isBF16() && acc.isF32()))
    return k % 16 == 0 ? 2 : 0;
  if (in.isF32() && acc.isF32() && dot.getInputPrecision() != "ieee")
    return k % 8 == 0 ? 1 : 0;
  if (in.isSignlessInteger(8) && acc.isSignlessInteger(32))
    return k % 32 == 0 ? 4 : 0;
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
      const unsigned kWidth = getKWidth(dot);
      if (kWidth == 0)
        return;
      auto mma = MmaEncodingAttr::get(context, 2,
                                      chooseWarps(type.getDimSize(0), type.getDimSize(1), numWarps),
                                      ArrayRef<unsigned>{16, 8});
      OpBuilder builder(dot);
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

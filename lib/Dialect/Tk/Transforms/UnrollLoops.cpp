/// @file UnrollLoops.cpp
/// tk-unroll-loops: unrolls each scf.for by its `tk.loop_unroll_factor` (tk::range_options,
/// Triton's `tl.range(loop_unroll_factor=...)`), with MLIR's loopUnrollByFactor: iteration i of
/// the unrolled loop runs the body for the original iterations i, i + step, ..., i + (N - 1)
/// step, and a loop after it runs the iterations the factor does not divide.
///
/// It runs after tk-pipeline: the pipelined loop keeps the attribute, and is unrolled as any
/// other (its ring slot and barrier phase are computed from the induction variable, which each
/// copy of the body gets as it would have). A loop the utility cannot unroll stays rolled.
#include "Dialect/Tk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKUNROLLLOOPS
#include "Dialect/Tk/Transforms/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kUnrollFactor = "tk.loop_unroll_factor";

struct TkUnrollLoopsPass : tk::impl::TkUnrollLoopsBase<TkUnrollLoopsPass> {
  void runOnOperation() override {
    // Post-order: inner loops first, then the loops that hold them (and their unrolled copies).
    SmallVector<std::pair<scf::ForOp, uint64_t>> loops;
    getOperation().walk([&](scf::ForOp loop) {
      auto factor = loop->getAttrOfType<IntegerAttr>(kUnrollFactor);
      if (!factor)
        return;
      loop->removeAttr(kUnrollFactor);
      if (factor.getInt() > 1)
        loops.emplace_back(loop, uint64_t(factor.getInt()));
    });
    for (auto [loop, factor] : loops)
      (void)loopUnrollByFactor(loop, factor); // on failure the loop runs rolled, as written
  }
};

} // namespace

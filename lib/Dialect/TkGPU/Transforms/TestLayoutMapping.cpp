/// @file tk-test-layout-mapping: prints Layout.h's element <-> thread mapping for the layouts on
/// function arguments, so that lit tests can check it.
#include "Dialect/TkGPU/IR/Layout.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKTESTLAYOUTMAPPING
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

struct TestLayoutMapping : tkgpu::impl::TkTestLayoutMappingBase<TestLayoutMapping> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp func) {
      for (BlockArgument arg : func.getArguments()) {
        auto tensor = dyn_cast<RankedTensorType>(arg.getType());
        if (!tensor || !isDistributedLayout(tensor.getEncoding()))
          continue;
        Attribute layout = tensor.getEncoding();
        ArrayRef<int64_t> shape = tensor.getShape();
        const unsigned warps = getNumWarps(layout), threads = warps * 32;
        const unsigned elems = getTotalElemsPerThread(layout, shape);
        {
          // Triton's defaults for this shape and number of warps, scalar and vectorized.
          MLIRContext *context = func.getContext();
          const unsigned bits = tensor.getElementType().isIntOrFloat()
                                    ? tensor.getElementType().getIntOrFloatBitWidth()
                                    : 64;
          emitRemark(arg.getLoc())
              << "default: " << getDefaultBlockedEncoding(context, shape, warps)
              << "; vectorized: " << getDefaultBlockedEncoding(context, shape, warps, 32, bits);
        }
        InFlightDiagnostic remark = emitRemark(arg.getLoc());
        remark << "elemsPerThread = [";
        llvm::interleaveComma(getElemsPerThread(layout, shape), remark);
        remark << "]";
        // The first two lanes, the first of the second quarter of a warp, the last lane, the
        // first lane of the second warp, the last thread.
        for (unsigned thread : {0u, 1u, 8u, 31u, 32u, threads - 1}) {
          if (thread >= threads)
            continue;
          remark << "; t" << thread << ":";
          for (unsigned e = 0; e < elems; ++e) {
            SmallVector<int64_t> index =
                getElementIndex(layout, shape, thread / 32, thread % 32, e);
            remark << " (";
            llvm::interleaveComma(index, remark);
            remark << ")";
          }
        }
      }
    });
  }
};

} // namespace

/// @file tk-test-layout-mapping: prints Layout.h's element <-> thread mapping for the layouts on
/// function arguments, so that lit tests can check it. For every tensor argument of every
/// function: a remark with Triton's default layouts for its shape and its layout's number of
/// warps (scalar, and vectorized for its element type), and a remark with the elements per
/// thread and, for a few threads, the tensor indices they hold (Layout.h's getElementIndex).
#include "TestPasses.h"

#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

struct TestLayoutMapping : PassWrapper<TestLayoutMapping, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestLayoutMapping)

  StringRef getArgument() const override { return "tk-test-layout-mapping"; }
  StringRef getDescription() const override {
    return "test: prints which elements threads hold, for each layout on a function arg";
  }

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

void mlir::tk::test::registerTestLayoutMappingPass() { PassRegistration<TestLayoutMapping>(); }

/// @file TestLayoutMapping.cpp
/// tk-test-layout-mapping: prints Layout.h's element <-> thread mapping for the layouts on
/// function arguments, so that lit tests can check it. For every tensor argument of every
/// function: a remark with Triton's default layouts for its shape and its layout's number of
/// warps (scalar, and vectorized for its element type), and a remark with the elements per
/// thread and, for a few threads, the tensor indices they hold (Layout.h's getElementIndex).
/// Blocked and slice layouts: threads 0, 1, 8, 31, 32 and the last. mma and dot_operand layouts:
/// lanes 0, 1, 4 and 31 of warp 0 (lane / 4 and lane % 4 place a lane in a tile), lane 0 of
/// every other warp, and the last thread.
#include "TestPasses.h"

#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// The threads whose elements are printed, each once, in increasing order.
SmallVector<unsigned> threadsToPrint(Attribute layout, unsigned threads) {
  SmallVector<unsigned> wanted;
  if (isTensorCoreLayout(layout)) {
    wanted = {0, 1, 4, 31};
    for (unsigned warp = 1; warp < threads / 32; ++warp)
      wanted.push_back(32 * warp);
  } else {
    // The first two lanes, the first of the second quarter of a warp, the last lane, the first
    // lane of the second warp.
    wanted = {0, 1, 8, 31, 32};
  }
  wanted.push_back(threads - 1);
  SmallVector<unsigned> result;
  for (unsigned thread : wanted)
    if (thread < threads && (result.empty() || thread > result.back()))
      result.push_back(thread);
  return result;
}

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
        for (unsigned thread : threadsToPrint(layout, threads)) {
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

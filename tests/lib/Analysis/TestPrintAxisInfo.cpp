/// @file TestPrintAxisInfo.cpp
/// tk-test-print-axis-info: emits a remark with the AxisInfo state of every integer and
/// pointer value (block arguments on their region's op, results on their op) and the vector width
/// and order of every tk.load / tk.store. For the lit tests in tests/lit/Analysis.
#include "TestPasses.h"

#include "Analysis/AxisInfo.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir::tk {
namespace {

bool isIntOrPtrLike(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  return isa<IntegerType, IndexType, PointerType>(type);
}

std::string describe(const AxisInfoResult &result, Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (const AxisInfo *info = result.getAxisInfo(value))
    info->print(os);
  else
    os << "<unreached>";
  return text;
}

struct TestPrintAxisInfoPass : PassWrapper<TestPrintAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAxisInfoPass)

  StringRef getArgument() const override { return "tk-test-print-axis-info"; }
  StringRef getDescription() const override {
    return "Print the AxisInfo analysis (contiguity, divisibility, constancy) as remarks";
  }

  void runOnOperation() override {
    AxisInfoResult result(getOperation());
    if (!result.succeeded())
      return signalPassFailure();
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      // A label for FileCheck (CHECK-LABEL: remark: function @name).
      if (auto func = dyn_cast<FunctionOpInterface>(op))
        func->emitRemark() << "function @" << func.getName();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (isIntOrPtrLike(arg.getType()))
              op->emitRemark() << "arg " << arg.getArgNumber() << ": " << describe(result, arg);
      for (OpResult res : op->getResults()) {
        if (!isIntOrPtrLike(res.getType()))
          continue;
        InFlightDiagnostic remark = op->emitRemark();
        if (op->getNumResults() > 1)
          remark << "result " << res.getResultNumber() << ": ";
        remark << describe(result, res);
      }
      if (isa<LoadOp, StoreOp>(op)) {
        Value ptr = op->getOperand(0);
        InFlightDiagnostic remark = op->emitRemark();
        remark << "vector width = " << result.getVectorWidth(op) << ", order = [";
        llvm::interleaveComma(result.getOrder(ptr), remark);
        remark << "]";
      }
    });
  }
};

} // namespace

void test::registerTestPrintAxisInfoPass() { PassRegistration<TestPrintAxisInfoPass>(); }

} // namespace mlir::tk

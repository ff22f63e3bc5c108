/// @file tk-opt: mlir-opt for TileKit's IR. Parses and verifies the tk dialect with the upstream
/// dialects the front end prints (func, arith, math, scf) and cf; runs passes as they are added.
/// Used by the lit tests (tests/lit) and to check the front end's printed IR.
#include "Analysis/AxisInfo.h"
#include "Conversion/TkToLLVM/Passes.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::tk::registerTestPrintAxisInfoPass();
  mlir::tkgpu::registerTkGPUPasses();
  mlir::tk::registerTkToLLVMPasses();
  mlir::registerCanonicalizerPass(); // for the lit tests of lowerings, as tk_compile runs it
  mlir::registerCSEPass();
  mlir::DialectRegistry registry;
  registry.insert<mlir::tk::TkDialect, mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::tkgpu::TkGPUDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "TileKit IR driver (tk dialect)\n", registry));
}

/// @file tk-opt.cpp
/// tk-opt: mlir-opt for TileKit's IR. Parses and verifies the tk dialect with the upstream
/// dialects the front end prints (func, arith, math, scf), cf, and the llvm and nvvm dialects
/// the lowering produces (so that every stage of the pipeline can be run on its own input); runs
/// the pipeline's passes and the test passes of tests/lib.
/// Used by the lit tests (tests/lit) and to check the front end's printed IR.
///
/// Like tk_compile, it rejects text nested deeper than the backend accepts before parsing it:
/// MLIR's parser recurses once per level, so deep enough text would overflow the stack.
#include "CAPI/Nesting.h"
#include "Conversion/TkToLLVM/Passes.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/Tk/Transforms/Passes.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/Transforms/Passes.h"
#include "TestPasses.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::tk::test::registerTestPasses(); // tests/lib
  mlir::tk::registerTkPasses();
  mlir::tkgpu::registerTkGPUPasses();
  mlir::tk::registerTkToLLVMPasses();
  // Every other stage of lib/CAPI/Lower.cpp's pipeline, runnable by name as tk_compile runs it.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSCFToControlFlowPass();
  mlir::registerConvertControlFlowToLLVMPass();
  mlir::registerArithToLLVMConversionPass();
  mlir::registerReconcileUnrealizedCastsPass();
  mlir::DialectRegistry registry;
  registry.insert<mlir::tk::TkDialect, mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::LLVM::LLVMDialect, mlir::math::MathDialect,
                  mlir::NVVM::NVVMDialect, mlir::scf::SCFDialect, mlir::tkgpu::TkGPUDialect>();
  auto [inputName, outputName] =
      mlir::registerAndParseCLIOptions(argc, argv, "TileKit IR driver (tk dialect)\n", registry);
  const mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses()) // reads no input
    return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, inputName, outputName, registry));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(inputName, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (auto deep = mlir::tk::findExcessNesting(input->getBuffer(), mlir::tk::kMaxNesting)) {
    llvm::errs() << (inputName == "-" ? "<stdin>" : inputName) << ":" << deep->line << ":"
                 << deep->column << ": error: nesting deeper than " << mlir::tk::kMaxNesting
                 << " levels of (), [], {} and <>, the most the compiler accepts\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(outputName, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}

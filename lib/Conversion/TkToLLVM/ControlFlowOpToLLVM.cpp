/// @file ControlFlowOpToLLVM.cpp
/// scf.for / scf.if / scf.while and their terminators carrying tensors: in tk-to-llvm they
/// stay scf ops, with every tensor they carry (operands, results, region arguments) converted to
/// the struct of the thread's elements; the ops in their regions are converted by the other
/// patterns like any other. The pipeline's next stages lower the scf ops (now on LLVM types
/// only) to cf (convert-scf-to-cf) and cf to LLVM (convert-cf-to-llvm). Upstream's structural
/// type conversion does exactly this: an scf op is legal once none of its types need converting.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::tk;

void mlir::tk::populateControlFlowOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                                   RewritePatternSet &patterns,
                                                   ConversionTarget &target) {
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
}

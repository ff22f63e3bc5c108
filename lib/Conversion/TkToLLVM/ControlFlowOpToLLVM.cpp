/// @file scf ops carrying tensors (not written yet).
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

using namespace mlir;
using namespace mlir::tk;

void mlir::tk::populateControlFlowOpToLLVMPatterns(TkToLLVMTypeConverter &, RewritePatternSet &,
                                                   ConversionTarget &) {}

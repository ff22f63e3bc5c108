/// @file math dialect ops on tensors and scalars (not written yet).
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

using namespace mlir;
using namespace mlir::tk;

void mlir::tk::populateMathOpToLLVMPatterns(TkToLLVMTypeConverter &, RewritePatternSet &) {}

/// @file broadcast, expand_dims, reshape, trans, convert_layout (not written yet).
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

using namespace mlir;
using namespace mlir::tk;

unsigned mlir::tk::getViewScratchBytes(Operation *) { return 0; }

void mlir::tk::populateViewOpToLLVMPatterns(TkToLLVMTypeConverter &, RewritePatternSet &) {}

/// @file tk.dot as an FMA loop (not written yet).
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

using namespace mlir;
using namespace mlir::tk;

unsigned mlir::tk::getDotScratchBytes(DotOp) { return 0; }

void mlir::tk::populateDotOpToLLVMPatterns(TkToLLVMTypeConverter &, RewritePatternSet &) {}

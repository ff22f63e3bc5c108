/// @file tk.reduce -> in-thread, warp-shuffle and shared-memory combining (not written yet).
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

using namespace mlir;
using namespace mlir::tk;

unsigned mlir::tk::getReduceScratchBytes(ReduceOp) { return 0; }

void mlir::tk::populateReduceOpToLLVMPatterns(TkToLLVMTypeConverter &, RewritePatternSet &) {}

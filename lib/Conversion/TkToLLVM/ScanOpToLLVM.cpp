/// @file tk.scan (not written yet).
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

using namespace mlir;
using namespace mlir::tk;

unsigned mlir::tk::getScanScratchBytes(ScanOp) { return 0; }

void mlir::tk::populateScanOpToLLVMPatterns(TkToLLVMTypeConverter &, RewritePatternSet &) {}

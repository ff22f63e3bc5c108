/// @file tk.bitcast, tk.ptr_to_int, tk.int_to_ptr (not written yet).
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"

using namespace mlir;
using namespace mlir::tk;

void mlir::tk::populatePtrCastOpToLLVMPatterns(TkToLLVMTypeConverter &, RewritePatternSet &) {}

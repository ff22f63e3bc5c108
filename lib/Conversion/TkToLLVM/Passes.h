/// @file Passes.h
/// The tk-to-llvm pass (Passes.td) and its registration.
#ifndef TK_CONVERSION_TKTOLLVM_PASSES_H
#define TK_CONVERSION_TKTOLLVM_PASSES_H

#include "Dialect/TkGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tk {

#define GEN_PASS_DECL
#include "Conversion/TkToLLVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Conversion/TkToLLVM/Passes.h.inc"

} // namespace mlir::tk

#endif // TK_CONVERSION_TKTOLLVM_PASSES_H

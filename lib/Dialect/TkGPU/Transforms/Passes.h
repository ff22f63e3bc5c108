/// @file Passes.h
/// The tkgpu passes (Passes.td) and their registration.
#ifndef TK_DIALECT_TKGPU_TRANSFORMS_PASSES_H
#define TK_DIALECT_TKGPU_TRANSFORMS_PASSES_H

#include "Dialect/TkGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tkgpu {

#define GEN_PASS_DECL
#include "Dialect/TkGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Dialect/TkGPU/Transforms/Passes.h.inc"

} // namespace mlir::tkgpu

#endif // TK_DIALECT_TKGPU_TRANSFORMS_PASSES_H

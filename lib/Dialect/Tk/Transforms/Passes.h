/// @file Passes.h
/// The passes on tk kernels' loops (Passes.td) and their registration.
#ifndef TK_DIALECT_TK_TRANSFORMS_PASSES_H
#define TK_DIALECT_TK_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tk {

#define GEN_PASS_DECL
#include "Dialect/Tk/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Dialect/Tk/Transforms/Passes.h.inc"

} // namespace mlir::tk

#endif // TK_DIALECT_TK_TRANSFORMS_PASSES_H

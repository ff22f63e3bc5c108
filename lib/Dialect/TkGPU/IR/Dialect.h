/// @file Dialect.h
/// The tkgpu dialect: its layouts (tensor encodings) and ops, generated from
/// TkGPUDialect.td, TkGPUAttrs.td, TkGPUTypes.td and TkGPUOps.td. The one header other backend code
/// includes for them; Layout.h adds the C++ API of the layouts.
#ifndef TK_DIALECT_TKGPU_IR_DIALECT_H
#define TK_DIALECT_TKGPU_IR_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Dialect/Tk/IR/Dialect.h"

#include <memory>
#include <optional>

namespace mlir::tkgpu {
class LayoutMemo; // Layout.h
} // namespace mlir::tkgpu

#include "Dialect/TkGPU/IR/TkGPUDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Dialect/TkGPU/IR/TkGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Dialect/TkGPU/IR/TkGPUTypes.h.inc"

namespace mlir::tkgpu {
/// The kernel's shared memory, as the resource of the shared-memory ops' memory effects.
struct SharedMemory : SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};
} // namespace mlir::tkgpu

#define GET_OP_CLASSES
#include "Dialect/TkGPU/IR/TkGPUOps.h.inc"

#endif // TK_DIALECT_TKGPU_IR_DIALECT_H

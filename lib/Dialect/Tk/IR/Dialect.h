/// @file The tk dialect, its `!tk.ptr<T>` type and its ops (generated from TkDialect.td,
/// TkTypes.td and TkOps.td). The only header other backend code includes for them.
#ifndef TK_DIALECT_TK_IR_DIALECT_H
#define TK_DIALECT_TK_IR_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Dialect/Tk/IR/TkDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Dialect/Tk/IR/TkTypes.h.inc"

#define GET_OP_CLASSES
#include "Dialect/Tk/IR/TkOps.h.inc"

#endif // TK_DIALECT_TK_IR_DIALECT_H

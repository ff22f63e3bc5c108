/// @file Dialect.h
/// The tk dialect, its `!tk.ptr<T>` type and its ops (generated from TkDialect.td,
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

namespace mlir::tk {

/// Fails, with an error at `op`, when one of its results or of its regions' block arguments
/// (and, with `operands`, one of its operands) is a tensor of more than
/// TkDialect::getMaxBlockElements() elements.
LogicalResult verifyBlockSizes(Operation *op, bool operands);

/// Fails, with an error at the first op concerned, when a value anywhere in `root` (results
/// and block arguments) is a tensor larger than a block may be: run before work that grows
/// with block sizes, on IR whose ops are not all tk ops.
LogicalResult verifyBlockSizesIn(Operation *root);

/// Whether `type` is one of the fp8 element types tk has: f8E4M3FN or f8E5M2.
inline bool isFloat8(Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); }

/// The tk ops' trait: no operand or result larger than a block may be.
template <typename ConcreteType>
class BlockSizeLimit : public OpTrait::TraitBase<ConcreteType, BlockSizeLimit> {
public:
  static LogicalResult verifyTrait(Operation *op) { return verifyBlockSizes(op, true); }
};

} // namespace mlir::tk

#define GET_OP_CLASSES
#include "Dialect/Tk/IR/TkOps.h.inc"

#endif // TK_DIALECT_TK_IR_DIALECT_H

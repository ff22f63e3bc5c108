/// @file Dialect.cpp
/// The tkgpu dialect: registration, its module attributes `tkgpu.num_warps`,
/// `tkgpu.threads_per_warp` and `tkgpu.shared`, `tkgpu.shared_offset` on ops and
/// `tkgpu.tensor_map` on kernel arguments.
#include "Dialect/TkGPU/IR/Dialect.h"

#include "Dialect/TkGPU/IR/Layout.h"
#include "Dialect/TkGPU/IR/TensorMap.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tkgpu;

#include "Dialect/TkGPU/IR/TkGPUDialect.cpp.inc"

unsigned TkGPUDialect::getModuleNumWarps(Operation *module) {
  auto attr = module->getAttrOfType<IntegerAttr>(getNumWarpsAttrName());
  return attr ? static_cast<unsigned>(attr.getInt()) : 0;
}

void TkGPUDialect::setModuleNumWarps(Operation *module, unsigned numWarps) {
  Builder b(module->getContext());
  module->setAttr(getNumWarpsAttrName(), b.getI32IntegerAttr(static_cast<int32_t>(numWarps)));
  module->setAttr(getThreadsPerWarpAttrName(), b.getI32IntegerAttr(32));
}

uint64_t TkGPUDialect::getModuleSharedBytes(Operation *module) {
  auto attr = module->getAttrOfType<IntegerAttr>(getSharedAttrName());
  return attr ? static_cast<uint64_t>(attr.getInt()) : 0;
}

void TkGPUDialect::setModuleSharedBytes(Operation *module, uint64_t bytes) {
  Builder b(module->getContext());
  module->setAttr(getSharedAttrName(), b.getI32IntegerAttr(static_cast<int32_t>(bytes)));
}

unsigned TkGPUDialect::getModulePtxVersion(Operation *module) {
  auto attr = module->getAttrOfType<IntegerAttr>(getPtxVersionAttrName());
  return attr ? static_cast<unsigned>(attr.getInt()) : 0;
}

void TkGPUDialect::requireModulePtxVersion(Operation *module, unsigned version) {
  if (getModulePtxVersion(module) >= version)
    return;
  Builder b(module->getContext());
  module->setAttr(getPtxVersionAttrName(), b.getI32IntegerAttr(static_cast<int32_t>(version)));
}

std::optional<uint64_t> TkGPUDialect::getSharedOffset(Operation *op) {
  auto attr = op->getAttrOfType<IntegerAttr>(getSharedOffsetAttrName());
  if (!attr)
    return std::nullopt;
  return static_cast<uint64_t>(attr.getInt());
}

void TkGPUDialect::setSharedOffset(Operation *op, uint64_t offset) {
  Builder b(op->getContext());
  op->setAttr(getSharedOffsetAttrName(), b.getI32IntegerAttr(static_cast<int32_t>(offset)));
}

void TkGPUDialect::initialize() {
  layoutMemo = std::make_unique<LayoutMemo>();
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "Dialect/TkGPU/IR/TkGPUOps.cpp.inc"
      >();
}

/// `tkgpu.num_warps` (a power of two, at most getMaxNumWarps()), `tkgpu.threads_per_warp` (32) and
/// `tkgpu.shared` (the shared-memory bytes tk-allocate-shared-memory reserved, >= 0) on a module;
/// every blocked layout in a module with `tkgpu.num_warps` spreads over exactly that many warps.
/// `tkgpu.shared_offset` (bytes, >= 0) on any op.
LogicalResult TkGPUDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  const bool isNumWarps = attr.getName() == getNumWarpsAttrName();
  const bool isShared = attr.getName() == getSharedAttrName();
  const bool isSharedOffset = attr.getName() == getSharedOffsetAttrName();
  const bool isPtxVersion = attr.getName() == getPtxVersionAttrName();
  if (!isNumWarps && !isShared && !isSharedOffset && !isPtxVersion &&
      attr.getName() != getThreadsPerWarpAttrName())
    return op->emitError() << "unknown attribute '" << attr.getName().getValue()
                           << "' (the tkgpu dialect defines '" << getNumWarpsAttrName() << "', '"
                           << getThreadsPerWarpAttrName() << "', '" << getSharedAttrName() << "', '"
                           << getPtxVersionAttrName() << "' and '" << getSharedOffsetAttrName()
                           << "')";
  if (isSharedOffset) {
    if (!value || !value.getType().isSignlessInteger(32) || value.getInt() < 0)
      return op->emitError() << "'" << getSharedOffsetAttrName()
                             << "' must be an i32 integer of at least 0, got " << attr.getValue();
    return success();
  }
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << attr.getName().getValue() << "' belongs on the module";
  if (!value || !value.getType().isSignlessInteger(32))
    return op->emitError() << "'" << attr.getName().getValue() << "' must be an i32 integer, got "
                           << attr.getValue();
  const int64_t n = value.getInt();
  if (isPtxVersion) {
    if (n < 60 || n > 99)
      return op->emitError() << "'" << getPtxVersionAttrName()
                             << "' must be a PTX ISA version times ten (60 to 99), got " << n;
    return success();
  }
  if (isShared) {
    if (n < 0)
      return op->emitError() << "'" << getSharedAttrName() << "' must be at least 0, got " << n;
    return success();
  }
  if (!isNumWarps) {
    if (n != 32)
      return op->emitError() << "'" << getThreadsPerWarpAttrName()
                             << "' must be 32 (NVIDIA warps), got " << n;
    return success();
  }
  if (n <= 0 || !llvm::isPowerOf2_64(uint64_t(n)) || n > getMaxNumWarps())
    return op->emitError() << "'" << getNumWarpsAttrName() << "' must be a power of two from 1 to "
                           << getMaxNumWarps() << ", got " << n;
  WalkResult walk = op->walk([&](Operation *inner) {
    for (Type type : inner->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !isDistributedLayout(tensor.getEncoding()))
        continue;
      if (getNumWarps(tensor.getEncoding()) != uint64_t(n)) {
        inner->emitOpError() << "result layout " << tensor.getEncoding() << " spreads over "
                             << getNumWarps(tensor.getEncoding()) << " warps, but the module has "
                             << getNumWarpsAttrName() << " = " << n;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// `tkgpu.tensor_map` on an argument of a function: a recipe the launch can encode
/// (TensorMapRecipe::read says what is checked).
LogicalResult TkGPUDialect::verifyRegionArgAttribute(Operation *op, unsigned regionIndex,
                                                     unsigned argIndex, NamedAttribute attr) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (attr.getName() != TensorMapRecipe::attrName)
    return op->emitError() << "unknown argument attribute '" << attr.getName().getValue()
                           << "' (the tkgpu dialect defines '" << TensorMapRecipe::attrName << "')";
  if (!func || regionIndex != 0)
    return op->emitError() << "'" << TensorMapRecipe::attrName
                           << "' belongs on an argument of a function";
  return TensorMapRecipe::read(func, argIndex, attr.getValue(), [&] { return op->emitError(); });
}

/// @file Shared memory for the ops that exchange values between threads (reductions and scans
/// across warps, layout conversions, reshapes, the FMA dot): each op's scratch size and the
/// module's total (the array and the barrier around its use are in Utility.cpp).
///
/// Every such op uses the scratch from offset 0, with a barrier before it writes (earlier ops'
/// reads are done) and one before it reads (its own writes are visible). So the kernel needs
/// the largest op's scratch, not the sum, and no liveness analysis; the barriers cost little
/// next to the exchange itself. The size goes on the module as `tkgpu.shared` (bytes), which
/// the compile result reports and the launch passes as dynamic shared memory, so it may exceed
/// the 48 KB a static array could have.
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tk;

unsigned mlir::tk::getScratchElementBytes(Type type) {
  type = getElementTypeOrSelf(type);
  if (isa<PointerType>(type))
    return 8;
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

unsigned mlir::tk::getScratchBytes(Operation *op) {
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return getReduceScratchBytes(reduce);
  if (auto scan = dyn_cast<ScanOp>(op))
    return getScanScratchBytes(scan);
  if (auto dot = dyn_cast<DotOp>(op))
    return getDotScratchBytes(dot);
  if (isa<tkgpu::ConvertLayoutOp, BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp>(op))
    return getViewScratchBytes(op);
  return 0;
}

LogicalResult mlir::tk::allocateSharedMemory(ModuleOp module) {
  uint64_t bytes = 0;
  Operation *largest = nullptr;
  module.walk([&](Operation *op) {
    if (uint64_t need = getScratchBytes(op); need > bytes)
      bytes = need, largest = op;
  });
  tkgpu::TkGPUDialect::setModuleSharedBytes(module, bytes);
  if (bytes == 0)
    return success();
  constexpr uint64_t kMaxSharedPerBlock = 227 * 1024; // sm_90/sm_100; less on older GPUs
  if (bytes > kMaxSharedPerBlock)
    return largest->emitError()
           << largest->getName() << " needs " << bytes
           << " bytes of shared memory to exchange values between threads, more than a block "
              "can have ("
           << kMaxSharedPerBlock << "): use smaller blocks";
  declareSharedMemory(module);
  return success();
}

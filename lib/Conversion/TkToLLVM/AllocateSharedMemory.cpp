/// @file AllocateSharedMemory.cpp
/// tk-allocate-shared-memory: the Allocation analysis (lib/Analysis/Allocation.h) over the
/// module, its offsets written on the ops that use scratch and on each tkgpu.local_alloc
/// (`tkgpu.shared_offset`), and its
/// total on the module (`tkgpu.shared`), which the compile result reports and the launch passes
/// as dynamic shared memory, so it may exceed the 48 KB a static array could have. An error at
/// the op whose buffer ends last when the total is more than a block can have.
#include "Conversion/TkToLLVM/Passes.h"

#include "Analysis/Allocation.h"
#include "Dialect/TkGPU/IR/Dialect.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKALLOCATESHAREDMEMORY
#include "Conversion/TkToLLVM/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;
using namespace mlir::tk;

namespace {

struct AllocateSharedMemoryPass : tk::impl::TkAllocateSharedMemoryBase<AllocateSharedMemoryPass> {
  using TkAllocateSharedMemoryBase::TkAllocateSharedMemoryBase;

  void runOnOperation() override {
    const uint64_t maxSharedPerBlock = sharedPerBlock;
    ModuleOp module = getOperation();
    Allocation allocation(module);
    for (const Buffer &buffer : allocation.getBuffers())
      tkgpu::TkGPUDialect::setSharedOffset(buffer.owner, buffer.offset);
    const uint64_t bytes = allocation.getTotalBytes();
    tkgpu::TkGPUDialect::setModuleSharedBytes(module, bytes);
    if (bytes <= maxSharedPerBlock)
      return;
    const Buffer *last = llvm::find_if(allocation.getBuffers(), [&](const Buffer &buffer) {
      return buffer.offset + buffer.bytes == bytes;
    });
    if (last->kind == Buffer::Kind::Explicit) {
      last->owner->emitError() << "the pipelined loads need " << bytes
                               << " bytes of shared memory in all, more than a block can have ("
                               << maxSharedPerBlock
                               << " on this GPU): use fewer num_stages or smaller blocks";
      return signalPassFailure();
    }
    last->owner->emitError() << last->owner->getName() << " needs " << bytes
                             << " bytes of shared memory to exchange values between threads, "
                                "more than a block can have ("
                             << maxSharedPerBlock << " on this GPU): use smaller blocks";
    signalPassFailure();
  }
};

} // namespace

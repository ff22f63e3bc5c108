/// @file TestAllocation.cpp
/// tk-test-print-allocation: the Allocation analysis (lib/Analysis/Allocation.h) as
/// remarks, for tests/lit/Analysis/allocation.mlir. Besides the ops' scratch, any op carrying
/// `test.buffer_bytes = N` defines an explicit buffer of N bytes held by its first result, as a
/// `tkgpu.local_alloc` does (those count too): live from the op to the result's last use (to the
/// end of a loop the use is in), so that overlapping live ranges and the offsets they get can be
/// checked.
#include "TestPasses.h"

#include "Analysis/Allocation.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tk {
namespace {

constexpr llvm::StringLiteral kBufferBytes = "test.buffer_bytes";

uint64_t testBufferBytes(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result || result.getResultNumber() != 0)
    return 0;
  auto bytes = result.getOwner()->getAttrOfType<IntegerAttr>(kBufferBytes);
  return bytes ? uint64_t(bytes.getInt()) : getExplicitBufferBytes(value);
}

struct TestPrintAllocationPass : PassWrapper<TestPrintAllocationPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAllocationPass)

  StringRef getArgument() const override { return "tk-test-print-allocation"; }
  StringRef getDescription() const override {
    return "Print the shared-memory allocation (buffers, live intervals, offsets) as remarks";
  }

  void runOnOperation() override {
    Allocation allocation(getOperation(), testBufferBytes);
    for (const Buffer &buffer : allocation.getBuffers())
      buffer.owner->emitRemark() << (buffer.kind == Buffer::Kind::Scratch ? "scratch" : "buffer")
                                 << " of " << buffer.bytes << " bytes live [" << buffer.live.start
                                 << ", " << buffer.live.end << "] at offset " << buffer.offset;
    getOperation()->emitRemark() << "total " << allocation.getTotalBytes() << " bytes";
  }
};

} // namespace

void test::registerTestPrintAllocationPass() { PassRegistration<TestPrintAllocationPass>(); }

} // namespace mlir::tk

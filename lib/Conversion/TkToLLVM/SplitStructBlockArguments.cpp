/// @file SplitStructBlockArguments.cpp
/// tk-split-struct-block-arguments (Passes.td): one block argument per member of an
/// `!llvm.struct` block argument, so that a loop-carried tensor reaches LLVM as one phi per
/// element rather than a phi of a struct.
#include "Conversion/TkToLLVM/Passes.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKSPLITSTRUCTBLOCKARGUMENTS
#include "Conversion/TkToLLVM/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;

namespace {

/// A literal struct whose members are all scalars or vectors: what tk-to-llvm makes of a tensor.
LLVM::LLVMStructType splittableStruct(Type type) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(type);
  if (!structType || structType.isIdentified() || structType.getBody().empty())
    return {};
  for (Type member : structType.getBody())
    if (isa<LLVM::LLVMStructType, LLVM::LLVMArrayType>(member))
      return {};
  return structType;
}

/// True when every edge into `block` is a successor of a branch whose operands for it are all
/// forwarded (none produced by the branch itself), so that they can be rewritten.
bool predecessorsAreBranches(Block &block) {
  for (BlockOperand &edge : block.getUses()) {
    auto branch = dyn_cast<BranchOpInterface>(edge.getOwner());
    if (!branch || branch.getSuccessorOperands(edge.getOperandNumber()).getProducedOperandCount())
      return false;
  }
  return true;
}

/// Replaces argument `index` of `block` (of type `structType`) by one new trailing argument per
/// member.
void splitArgument(Block &block, unsigned index, LLVM::LLVMStructType structType) {
  BlockArgument whole = block.getArgument(index);
  const Location loc = whole.getLoc();
  SmallVector<BlockArgument> members;
  for (Type type : structType.getBody())
    members.push_back(block.addArgument(type, loc));

  // Each edge passes the members of what it passed for the struct.
  OpBuilder builder(whole.getContext());
  SmallVector<BlockOperand *> edges =
      llvm::map_to_vector(block.getUses(), [](BlockOperand &edge) { return &edge; });
  for (BlockOperand *edge : edges) {
    auto branch = cast<BranchOpInterface>(edge->getOwner());
    SuccessorOperands operands = branch.getSuccessorOperands(edge->getOperandNumber());
    const Value passed = operands[index];
    builder.setInsertionPoint(branch);
    for (auto [i, type] : llvm::enumerate(structType.getBody()))
      operands.append(LLVM::ExtractValueOp::create(builder, loc, passed, int64_t(i)).getResult());
  }

  // Member reads become the members; anything else reads the struct rebuilt from them.
  Value rebuilt;
  for (OpOperand &use : llvm::make_early_inc_range(whole.getUses())) {
    auto extract = dyn_cast<LLVM::ExtractValueOp>(use.getOwner());
    if (extract && extract.getPosition().size() == 1) {
      extract.replaceAllUsesWith(members[size_t(extract.getPosition()[0])]);
      extract.erase();
      continue;
    }
    if (!rebuilt) {
      builder.setInsertionPointToStart(&block);
      rebuilt = LLVM::UndefOp::create(builder, loc, structType);
      for (auto [i, member] : llvm::enumerate(members))
        rebuilt = LLVM::InsertValueOp::create(builder, loc, rebuilt, member, int64_t(i));
    }
    use.set(rebuilt);
  }

  for (BlockOperand *edge : edges)
    cast<BranchOpInterface>(edge->getOwner())
        .getSuccessorOperands(edge->getOperandNumber())
        .erase(index);
  block.eraseArgument(index);
}

struct SplitStructBlockArgumentsPass
    : tk::impl::TkSplitStructBlockArgumentsBase<SplitStructBlockArgumentsPass> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<LLVM::LLVMFuncOp>())
      for (Block &block : function.getBody()) {
        if (block.isEntryBlock() || !predecessorsAreBranches(block))
          continue;
        // Back to front: splitting an argument erases it and appends its members.
        for (unsigned index = block.getNumArguments(); index-- > 0;)
          if (LLVM::LLVMStructType structType =
                  splittableStruct(block.getArgument(index).getType()))
            splitArgument(block, index, structType);
      }
  }
};

} // namespace

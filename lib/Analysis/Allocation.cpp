/// @file Allocation.cpp
/// The scratch sizes of each op family and the allocation of buffers over live ranges
/// (Allocation.h, whose file comment states the algorithm).
#include "Analysis/Allocation.h"

#include "Analysis/Utility.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

unsigned mlir::tk::getScratchElementBytes(Type type) {
  type = getElementTypeOrSelf(type);
  if (isa<PointerType>(type))
    return 8;
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

SmallVector<unsigned> mlir::tk::getScratchAreas(TypeRange types, uint64_t count,
                                                uint64_t &totalBytes) {
  SmallVector<unsigned> offsets;
  totalBytes = 0;
  for (Type type : types) {
    const unsigned bytes = getScratchElementBytes(type);
    totalBytes = llvm::alignTo(totalBytes, bytes);
    offsets.push_back(unsigned(totalBytes));
    totalBytes += count * bytes;
  }
  return offsets;
}

namespace {

SmallVector<Type> elementTypes(ValueRange srcs) {
  SmallVector<Type> types;
  for (Value src : srcs)
    types.push_back(getElementTypeOrSelf(src.getType()));
  return types;
}

/// The operands' axis, or none where the op cannot be lowered (then it needs no scratch either).
template <typename OpTy> std::optional<CombineAxis> combineAxis(OpTy op) {
  auto type = dyn_cast<RankedTensorType>(op.getSrcs().front().getType());
  if (!type)
    return std::nullopt;
  return getCombineAxis(type, unsigned(op.getAxis()));
}

} // namespace

SmallVector<unsigned> mlir::tk::getReduceScratchAreas(ReduceOp op, uint64_t &totalBytes) {
  std::optional<CombineAxis> axis = combineAxis(op);
  totalBytes = 0;
  if (!axis || axis->warps == 1)
    return {};
  return getScratchAreas(elementTypes(op.getSrcs()), uint64_t(axis->warps) * axis->positions,
                         totalBytes);
}

SmallVector<unsigned> mlir::tk::getScanScratchAreas(ScanOp op, uint64_t &totalBytes) {
  std::optional<CombineAxis> axis = combineAxis(op);
  totalBytes = 0;
  if (!axis || axis->warps == 1)
    return {};
  // Per operand: the warps' totals, then their exclusive prefixes (ScanOpToLLVM.cpp).
  return getScratchAreas(elementTypes(op.getSrcs()),
                         2 * uint64_t(axis->reps) * axis->warps * axis->positions, totalBytes);
}

unsigned mlir::tk::getReduceScratchBytes(ReduceOp op) {
  uint64_t bytes;
  getReduceScratchAreas(op, bytes);
  return unsigned(bytes);
}

unsigned mlir::tk::getScanScratchBytes(ScanOp op) {
  uint64_t bytes;
  getScanScratchAreas(op, bytes);
  return unsigned(bytes);
}

unsigned mlir::tk::getDotScratchBytes(DotOp op) {
  if (!isa_and_nonnull<tkgpu::BlockedEncodingAttr>(op.getType().getEncoding()))
    return 0; // tensor cores: the operands arrive in registers
  RankedTensorType a = op.getA().getType(), b = op.getB().getType();
  return unsigned(a.getNumElements() + b.getNumElements()) *
         getScratchElementBytes(a.getElementType());
}

unsigned mlir::tk::getViewScratchBytes(Operation *op) {
  std::optional<ViewMap> map = getViewMap(op);
  if (!map || !map->srcType)
    return 0;
  bool inRegisters = mapInRegisters(*map).has_value();
  if (isa<SplitOp>(op)) // one exchange serves both halves
    if (std::optional<ViewMap> second = getViewMap(op, 1))
      inRegisters = inRegisters && mapInRegisters(*second);
  if (inRegisters)
    return 0;
  // A dot operand read from a tile (ConvertToDotOperand.cpp): the tile, its rows' padding too.
  if (isa<tkgpu::ConvertLayoutOp>(op) && map->srcType.getRank() == 2 &&
      isa<tkgpu::DotOperandEncodingAttr>(map->dstType.getEncoding()))
    if (auto blocked = dyn_cast<tkgpu::BlockedEncodingAttr>(map->srcType.getEncoding()))
      if (map->dstType.getElementType().isIntOrFloat())
        return unsigned(tkgpu::getTileElements(
                            tkgpu::getDotOperandSharedEncoding(map->dstType, blocked.getOrder()),
                            map->srcType.getShape()) *
                        getScratchElementBytes(map->srcType.getElementType()));
  if (isa<tkgpu::ConvertLayoutOp>(op))
    if (std::optional<VectorizedExchange> exchange =
            getVectorizedExchange(map->srcType, map->dstType))
      return unsigned(map->srcType.getDimSize(0) * exchange->rowStride *
                      getScratchElementBytes(map->srcType.getElementType()));
  return unsigned(map->numSources * map->srcType.getNumElements()) *
         getScratchElementBytes(map->srcType.getElementType());
}

unsigned mlir::tk::getGatherScratchBytes(GatherOp op) {
  RankedTensorType src = op.getSrc().getType();
  return unsigned(src.getNumElements()) * getScratchElementBytes(src.getElementType());
}

uint64_t mlir::tk::getTmaTileBytes(RankedTensorType block) {
  return uint64_t(block.getNumElements()) * (block.getElementTypeBitWidth() / 8);
}

/// Whether `op` accesses a tensor map (a descriptor that is a kernel argument, tk-tma-descriptors)
/// rather than a descriptor made in the kernel.
static bool accessesTensorMap(Operation *op) {
  return isa<DescriptorLoadOp, DescriptorStoreOp>(op) && isa<BlockArgument>(op->getOperand(0));
}

unsigned mlir::tk::getTmaScratchBytes(Operation *op) {
  if (!accessesTensorMap(op))
    return 0;
  auto desc = cast<TensorDescType>(op->getOperand(0).getType());
  return unsigned(llvm::alignTo(getTmaTileBytes(desc.getBlockType()), 16) + 16);
}

uint64_t mlir::tk::getScratchAlignment(Operation *op) {
  return accessesTensorMap(op) ? kTmaAlignment : kSharedAlignment;
}

AtomicScratch mlir::tk::getAtomicScratch(Operation *op) {
  if (!isa<AtomicRMWOp, AtomicCASOp>(op))
    return {};
  Value result = op->getResult(0);
  const unsigned elementBytes = getScratchElementBytes(result.getType());
  const bool used = !result.use_empty();
  auto tensor = dyn_cast<RankedTensorType>(result.getType());
  if (!tensor) // thread 0 alone updates a scalar; the others read what it read
    return {0, used ? elementBytes : 0u, false};
  if (!tensor.getEncoding() || !tkgpu::hasDuplicates(tensor.getEncoding(), tensor.getShape()))
    return {};
  const uint64_t elements = uint64_t(tensor.getNumElements());
  const auto claims = unsigned(llvm::alignTo(elements * 4, 16));
  return {claims, claims + (used ? unsigned(elements * elementBytes) : 0u), true};
}

unsigned mlir::tk::getScratchBytes(Operation *op) {
  if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return getAtomicScratch(op).totalBytes;
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return getReduceScratchBytes(reduce);
  if (auto scan = dyn_cast<ScanOp>(op))
    return getScanScratchBytes(scan);
  if (auto dot = dyn_cast<DotOp>(op))
    return getDotScratchBytes(dot);
  if (isa<tkgpu::ConvertLayoutOp, BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp, FlipOp, JoinOp,
          CatOp, SplitOp>(op))
    return getViewScratchBytes(op);
  if (auto gather = dyn_cast<GatherOp>(op))
    return getGatherScratchBytes(gather);
  return getTmaScratchBytes(op);
}

uint64_t mlir::tk::getExplicitBufferBytes(Value value) {
  if (!value.getDefiningOp<tkgpu::LocalAllocOp>())
    return 0;
  auto type = cast<tkgpu::MemDescType>(value.getType());
  return uint64_t(type.getAllocElements()) * getScratchElementBytes(type.getElementType());
}

uint64_t mlir::tk::assignOffsets(llvm::MutableArrayRef<Buffer> buffers) {
  SmallVector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (buffers[a].bytes != buffers[b].bytes)
      return buffers[a].bytes > buffers[b].bytes;
    return buffers[a].live.start < buffers[b].live.start;
  });
  SmallVector<size_t> placed;
  uint64_t total = 0;
  for (size_t i : order) {
    Buffer &buffer = buffers[i];
    // The placed buffers live at the same time, by offset; the first gap that holds this one.
    SmallVector<const Buffer *> live;
    for (size_t j : placed)
      if (buffers[j].live.intersects(buffer.live))
        live.push_back(&buffers[j]);
    llvm::sort(live, [](const Buffer *a, const Buffer *b) { return a->offset < b->offset; });
    uint64_t offset = 0;
    for (const Buffer *other : live) {
      if (offset + buffer.bytes <= other->offset)
        break;
      offset = std::max(offset, llvm::alignTo(other->offset + other->bytes, buffer.alignment));
    }
    buffer.offset = offset;
    total = std::max(total, offset + buffer.bytes);
    placed.push_back(i);
  }
  return total;
}

Allocation::Allocation(Operation *root, ExplicitBufferBytes explicitBytes) {
  uint64_t next = 0;
  root->walk([&](Operation *op, const WalkStage &stage) {
    if (op == root)
      return;
    if (stage.isBeforeAllRegions())
      spans[op].start = next++;
    if (stage.isAfterAllRegions())
      spans[op].end = next - 1;
  });
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root)
      return;
    if (uint64_t bytes = getScratchBytes(op))
      buffers.push_back({Buffer::Kind::Scratch, op, Value(), bytes, getSpan(op), /*offset=*/0,
                         getScratchAlignment(op)});
    for (Value result : op->getResults())
      if (uint64_t bytes = explicitBytes(result))
        buffers.push_back({Buffer::Kind::Explicit, op, result, bytes, getLiveInterval(result),
                           /*offset=*/0,
                           isa<tkgpu::LocalAllocOp>(op) ? kTileAlignment : kSharedAlignment});
  });
  totalBytes = assignOffsets(buffers);
}

Interval Allocation::getSpan(Operation *op) const { return spans.lookup(op); }

Interval Allocation::getLiveInterval(Value value) const {
  Operation *def = value.getDefiningOp();
  Interval live{getSpan(def).start, getSpan(def).start};
  // The users of the buffer and of its views (tkgpu.memdesc_index).
  SmallVector<Operation *> users;
  SmallVector<Value> views{value};
  while (!views.empty())
    for (Operation *user : views.pop_back_val().getUsers()) {
      users.push_back(user);
      if (auto index = dyn_cast<tkgpu::MemDescIndexOp>(user))
        views.push_back(index.getResult());
    }
  for (Operation *user : users) {
    // The outermost loop around the use that does not contain the definition: the buffer is
    // read again on its next iteration, so it lives to the loop's end.
    Operation *until = user;
    for (Operation *parent = user->getParentOp(); parent && !parent->isAncestor(def);
         parent = parent->getParentOp())
      if (isa<LoopLikeOpInterface>(parent))
        until = parent;
    live.end = std::max(live.end, getSpan(until).end);
  }
  return live;
}

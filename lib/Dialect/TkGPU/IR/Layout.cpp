/// @file Index arithmetic of the tkgpu layouts (Layout.h).
#include "Dialect/TkGPU/IR/Layout.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tkgpu;
using llvm::SmallVector;

namespace {

/// Elements per thread of a blocked layout: sizePerThread per repetition of the CTA's tile.
SmallVector<unsigned> blockedElemsPerThread(BlockedEncodingAttr blocked, ArrayRef<int64_t> shape) {
  SmallVector<unsigned> elems;
  for (unsigned d = 0; d < blocked.getRank(); ++d) {
    const int64_t tile = int64_t(blocked.getSizePerThread()[d]) * blocked.getThreadsPerWarp()[d] *
                         blocked.getWarpsPerCTA()[d];
    elems.push_back(blocked.getSizePerThread()[d] *
                    unsigned(std::max<int64_t>(1, llvm::divideCeil(shape[d], tile))));
  }
  return elems;
}

/// The tensor index of a blocked layout's element with per-dimension element coordinates
/// `elem` held by the thread at `warp` / `lane` coordinates.
SmallVector<int64_t> blockedIndex(BlockedEncodingAttr blocked, ArrayRef<int64_t> shape,
                                  ArrayRef<unsigned> warp, ArrayRef<unsigned> lane,
                                  ArrayRef<unsigned> elem) {
  SmallVector<int64_t> index;
  for (unsigned d = 0; d < blocked.getRank(); ++d) {
    const int64_t size = blocked.getSizePerThread()[d];
    const int64_t tile = size * blocked.getThreadsPerWarp()[d] * blocked.getWarpsPerCTA()[d];
    const int64_t thread = int64_t(warp[d]) * blocked.getThreadsPerWarp()[d] + lane[d];
    const int64_t i = (elem[d] / size) * tile + thread * size + elem[d] % size;
    index.push_back(i % shape[d]); // a tensor smaller than the tile wraps around
  }
  return index;
}

/// A slice's shape with its dimension put back (as 1) for its parent.
SmallVector<int64_t> parentShape(SliceEncodingAttr slice, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> padded(shape);
  padded.insert(padded.begin() + slice.getDim(), 1);
  return padded;
}

} // namespace

bool mlir::tkgpu::isDistributedLayout(Attribute layout) {
  return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr>(layout);
}

unsigned mlir::tkgpu::getRank(Attribute layout) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
    return blocked.getRank();
  return cast<SliceEncodingAttr>(layout).getParent().getRank() - 1;
}

SmallVector<unsigned> mlir::tkgpu::getOrder(Attribute layout) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
    return SmallVector<unsigned>(blocked.getOrder());
  auto slice = cast<SliceEncodingAttr>(layout);
  SmallVector<unsigned> order;
  for (unsigned d : slice.getParent().getOrder())
    if (d != slice.getDim())
      order.push_back(d > slice.getDim() ? d - 1 : d);
  return order;
}

unsigned mlir::tkgpu::getNumWarps(Attribute layout) {
  auto blocked = dyn_cast<BlockedEncodingAttr>(layout);
  if (!blocked)
    blocked = cast<SliceEncodingAttr>(layout).getParent();
  unsigned warps = 1;
  for (unsigned w : blocked.getWarpsPerCTA())
    warps *= w;
  return warps;
}

SmallVector<unsigned> mlir::tkgpu::getElemsPerThread(Attribute layout, ArrayRef<int64_t> shape) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
    return blockedElemsPerThread(blocked, shape);
  auto slice = cast<SliceEncodingAttr>(layout);
  SmallVector<unsigned> elems = blockedElemsPerThread(slice.getParent(), parentShape(slice, shape));
  elems.erase(elems.begin() + slice.getDim());
  return elems;
}

unsigned mlir::tkgpu::getTotalElemsPerThread(Attribute layout, ArrayRef<int64_t> shape) {
  unsigned total = 1;
  for (unsigned n : getElemsPerThread(layout, shape))
    total *= n;
  return total;
}

SmallVector<int64_t> mlir::tkgpu::getElementIndex(Attribute layout, ArrayRef<int64_t> shape,
                                                  unsigned warp, unsigned lane, unsigned elem) {
  SmallVector<unsigned> elemCoords =
      delinearize(elem, getElemsPerThread(layout, shape), getOrder(layout));
  auto blocked = dyn_cast<BlockedEncodingAttr>(layout);
  auto slice = dyn_cast<SliceEncodingAttr>(layout);
  SmallVector<int64_t> fullShape(shape);
  if (slice) {
    blocked = slice.getParent();
    fullShape = parentShape(slice, shape);
    elemCoords.insert(elemCoords.begin() + slice.getDim(), 0);
  }
  SmallVector<unsigned> warpCoords =
      delinearize(warp, blocked.getWarpsPerCTA(), blocked.getOrder());
  SmallVector<unsigned> laneCoords =
      delinearize(lane, blocked.getThreadsPerWarp(), blocked.getOrder());
  SmallVector<int64_t> index = blockedIndex(blocked, fullShape, warpCoords, laneCoords, elemCoords);
  if (slice)
    index.erase(index.begin() + slice.getDim());
  return index;
}

SmallVector<unsigned> mlir::tkgpu::delinearize(unsigned linear, ArrayRef<unsigned> sizes,
                                               ArrayRef<unsigned> order) {
  SmallVector<unsigned> coords(sizes.size(), 0);
  for (unsigned d : order) {
    coords[d] = linear % sizes[d];
    linear /= sizes[d];
  }
  return coords;
}

namespace {

/// Lanes, then warps, handed to the dimensions in `order`, as far as each has elements for them
/// (sizePerThread given); the last dimension in `order` takes what is left (wrapping around if
/// it is too small).
BlockedEncodingAttr distribute(MLIRContext *context, ArrayRef<int64_t> shape,
                               SmallVector<unsigned> sizePerThread, ArrayRef<unsigned> order,
                               unsigned numWarps, unsigned threadsPerWarp) {
  const unsigned rank = shape.size();
  SmallVector<unsigned> lanes(rank, 1), warps(rank, 1);
  unsigned lanesLeft = threadsPerWarp, warpsLeft = numWarps;
  int64_t threadsLeft = int64_t(numWarps) * threadsPerWarp;
  for (unsigned i = 0; i + 1 < rank; ++i) {
    const unsigned d = order[i];
    const int64_t threads =
        std::clamp<int64_t>(threadsLeft, 1, std::max<int64_t>(1, shape[d] / sizePerThread[d]));
    lanes[d] = unsigned(std::clamp<int64_t>(threads, 1, lanesLeft));
    warps[d] = unsigned(std::clamp<int64_t>(threads / lanes[d], 1, warpsLeft));
    lanesLeft /= lanes[d];
    warpsLeft /= warps[d];
    threadsLeft /= threads;
  }
  lanes[order.back()] = lanesLeft;
  warps[order.back()] = warpsLeft;
  return BlockedEncodingAttr::get(context, sizePerThread, lanes, warps, order);
}

int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

} // namespace

BlockedEncodingAttr mlir::tkgpu::getDefaultBlockedEncoding(MLIRContext *context,
                                                           ArrayRef<int64_t> shape,
                                                           unsigned numWarps,
                                                           unsigned threadsPerWarp,
                                                           unsigned elementBits) {
  const unsigned rank = shape.size();
  SmallVector<unsigned> order, sizePerThread(rank, 1);
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  const unsigned fastest = order.front();
  if (elementBits) {
    const int64_t perThread =
        std::max<int64_t>(1, product(shape) / (int64_t(numWarps) * threadsPerWarp));
    const int64_t vector = std::max<unsigned>(1, 128 / elementBits);
    sizePerThread[fastest] = unsigned(std::min({vector, perThread, shape[fastest]}));
  }
  return distribute(context, shape, sizePerThread, order, numWarps, threadsPerWarp);
}

BlockedEncodingAttr mlir::tkgpu::getCoalescedBlockedEncoding(MLIRContext *context,
                                                             ArrayRef<int64_t> shape,
                                                             unsigned numWarps,
                                                             ArrayRef<unsigned> order,
                                                             unsigned vectorWidth) {
  const unsigned threadsPerWarp = 32;
  SmallVector<unsigned> sizePerThread(shape.size(), 1);
  const int64_t perThread =
      std::max<int64_t>(1, product(shape) / (int64_t(numWarps) * threadsPerWarp));
  sizePerThread[order.front()] =
      unsigned(std::min({int64_t(vectorWidth), perThread, shape[order.front()]}));
  return distribute(context, shape, sizePerThread, order, numWarps, threadsPerWarp);
}

/// @file Layout.cpp
/// Index arithmetic of the tkgpu layouts (Layout.h).
#include "Dialect/TkGPU/IR/Layout.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <bit>

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

/// Repetitions of an mma layout's grid tile (16 warpsPerCTA[0] x n warpsPerCTA[1]) over a
/// tensor of `shape` along M and N (at least 1: a smaller tensor wraps around).
std::pair<int64_t, int64_t> mmaReps(MmaEncodingAttr mma, ArrayRef<int64_t> shape) {
  const int64_t n = mma.getInstrShape()[1];
  return {std::max<int64_t>(1, llvm::divideCeil(shape[0], 16 * int64_t(mma.getWarpsPerCTA()[0]))),
          std::max<int64_t>(1, llvm::divideCeil(shape[1], n * int64_t(mma.getWarpsPerCTA()[1])))};
}

/// The M (a) or N (b) repetitions and the K tiles of a dot operand over a tensor of `shape`.
std::pair<int64_t, int64_t> operandReps(DotOperandEncodingAttr op, ArrayRef<int64_t> shape) {
  auto [repM, repN] =
      mmaReps(op.getParent(), op.getOpIdx() == 0 ? SmallVector<int64_t>{shape[0], 1}
                                                 : SmallVector<int64_t>{1, shape[1]});
  const int64_t k = shape[op.getOpIdx() == 0 ? 1 : 0];
  return {op.getOpIdx() == 0 ? repM : repN, std::max<int64_t>(1, k / op.getInstrK())};
}

SmallVector<unsigned> tensorCoreElemsPerThread(Attribute layout, ArrayRef<int64_t> shape) {
  if (auto mma = dyn_cast<MmaEncodingAttr>(layout)) {
    auto [repM, repN] = mmaReps(mma, shape);
    return {unsigned(2 * repM), unsigned(2 * repN * (mma.getInstrShape()[1] / 8))};
  }
  auto op = cast<DotOperandEncodingAttr>(layout);
  auto [rep, repK] = operandReps(op, shape);
  const unsigned kWidth = op.getKWidth();
  if (op.getOpIdx() == 0)
    return {unsigned(2 * rep), unsigned(2 * kWidth * repK)};
  return {unsigned(2 * kWidth * repK), unsigned(rep)};
}

/// Layout.h's getElementIndex for the mma and dot_operand layouts (their attributes' comments
/// give the mapping).
SmallVector<int64_t> tensorCoreIndex(Attribute layout, ArrayRef<int64_t> shape, unsigned warp,
                                     unsigned lane, unsigned elem) {
  auto mma = dyn_cast<MmaEncodingAttr>(layout);
  auto op = dyn_cast<DotOperandEncodingAttr>(layout);
  if (op)
    mma = op.getParent();
  const int64_t warpsM = mma.getWarpsPerCTA()[0], warpsN = mma.getWarpsPerCTA()[1];
  auto [warpM, warpN] = mma.getWarpCoords(warp);
  const int64_t g = lane / 4, t = lane % 4;
  int64_t row = 0, col = 0;
  if (!op) {
    auto [repM, repN] = mmaReps(mma, shape);
    (void)repM;
    const int64_t n = mma.getInstrShape()[1], pieces = n / 8;
    const int64_t q = elem % 4, piece = elem / 4 % pieces, r = elem / (4 * pieces);
    row = (r / repN) * 16 * warpsM + warpM * 16 + g + 8 * (q / 2);
    col = (r % repN) * n * warpsN + warpN * n + piece * 8 + 2 * t + q % 2;
  } else {
    auto [rep, repK] = operandReps(op, shape);
    (void)rep;
    const int64_t kWidth = op.getKWidth(), v = elem % kWidth;
    if (op.getOpIdx() == 0) {
      const int64_t j = (elem / kWidth) % 4, r = elem / (4 * kWidth);
      row = (r / repK) * 16 * warpsM + warpM * 16 + g + 8 * (j % 2);
      col = (r % repK) * op.getInstrK() + t * kWidth + 4 * kWidth * (j / 2) + v;
    } else {
      const int64_t j = (elem / kWidth) % 2, r = elem / (2 * kWidth);
      row = (r % repK) * op.getInstrK() + t * kWidth + 4 * kWidth * j + v;
      col = (r / repK) * 8 * warpsN + warpN * 8 + g;
    }
  }
  return {row % shape[0], col % shape[1]};
}

/// A thread's elements in a slice of an mma layout: the distinct rows (dim 1 removed) or
/// columns (dim 0 removed) of the parent's elements, in the parent's order. Rows: per rep of
/// the grid's tile, l / 4 and l / 4 + 8. Columns: per rep, per 8-wide piece, 2 (l % 4) and
/// 2 (l % 4) + 1.
unsigned mmaSliceElems(MmaEncodingAttr mma, unsigned dim, int64_t extent) {
  if (dim == 1)
    return unsigned(2 * mmaReps(mma, {extent, 1}).first);
  return unsigned(2 * mmaReps(mma, {1, extent}).second * (mma.getInstrShape()[1] / 8));
}

int64_t mmaSliceIndex(MmaEncodingAttr mma, unsigned dim, int64_t extent, unsigned warp,
                      unsigned lane, unsigned elem) {
  auto [warpM, warpN] = mma.getWarpCoords(warp);
  const int64_t g = lane / 4, t = lane % 4;
  if (dim == 1) {
    const int64_t row =
        (elem / 2) * 16 * int64_t(mma.getWarpsPerCTA()[0]) + warpM * 16 + g + 8 * (elem % 2);
    return row % extent;
  }
  const int64_t n = mma.getInstrShape()[1], pieces = n / 8;
  const int64_t col = (elem / (2 * pieces)) * n * int64_t(mma.getWarpsPerCTA()[1]) + warpN * n +
                      ((elem / 2) % pieces) * 8 + 2 * t + elem % 2;
  return col % extent;
}

} // namespace

bool mlir::tkgpu::isTensorCoreLayout(Attribute layout) {
  return isa_and_nonnull<MmaEncodingAttr, DotOperandEncodingAttr>(layout);
}

bool mlir::tkgpu::isDistributedLayout(Attribute layout) {
  return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr>(layout) ||
         isTensorCoreLayout(layout);
}

unsigned mlir::tkgpu::getRank(Attribute layout) {
  if (isTensorCoreLayout(layout))
    return 2;
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
    return blocked.getRank();
  return getRank(cast<SliceEncodingAttr>(layout).getParent()) - 1;
}

SmallVector<unsigned> mlir::tkgpu::getOrder(Attribute layout) {
  if (auto op = dyn_cast<DotOperandEncodingAttr>(layout); op && op.getOpIdx() == 1)
    return {0, 1}; // b's registers run along K
  if (isTensorCoreLayout(layout))
    return {1, 0};
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
    return SmallVector<unsigned>(blocked.getOrder());
  auto slice = cast<SliceEncodingAttr>(layout);
  SmallVector<unsigned> order;
  for (unsigned d : getOrder(slice.getParent()))
    if (d != slice.getDim())
      order.push_back(d > slice.getDim() ? d - 1 : d);
  return order;
}

unsigned mlir::tkgpu::getNumWarps(Attribute layout) {
  if (auto op = dyn_cast<DotOperandEncodingAttr>(layout))
    layout = op.getParent();
  if (auto mma = dyn_cast<MmaEncodingAttr>(layout))
    return mma.getWarpsPerCTA()[0] * mma.getWarpsPerCTA()[1];
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return getNumWarps(slice.getParent());
  auto blocked = cast<BlockedEncodingAttr>(layout);
  unsigned warps = 1;
  for (unsigned w : blocked.getWarpsPerCTA())
    warps *= w;
  return warps;
}

SmallVector<unsigned> mlir::tkgpu::getElemsPerThread(Attribute layout, ArrayRef<int64_t> shape) {
  if (isTensorCoreLayout(layout))
    return tensorCoreElemsPerThread(layout, shape);
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
    return blockedElemsPerThread(blocked, shape);
  auto slice = cast<SliceEncodingAttr>(layout);
  if (auto mma = dyn_cast<MmaEncodingAttr>(slice.getParent()))
    return {mmaSliceElems(mma, slice.getDim(), shape[0])};
  SmallVector<unsigned> elems = blockedElemsPerThread(cast<BlockedEncodingAttr>(slice.getParent()),
                                                      parentShape(slice, shape));
  elems.erase(elems.begin() + slice.getDim());
  return elems;
}

unsigned mlir::tkgpu::getTotalElemsPerThread(Attribute layout, ArrayRef<int64_t> shape) {
  unsigned total = 1;
  for (unsigned n : getElemsPerThread(layout, shape))
    total *= n;
  return total;
}

bool mlir::tkgpu::hasDuplicates(Attribute layout, ArrayRef<int64_t> shape) {
  int64_t elements = 1;
  for (int64_t d : shape)
    elements *= d;
  const int64_t slots = int64_t(getTotalElemsPerThread(layout, shape)) * 32 * getNumWarps(layout);
  return slots > elements;
}

SmallVector<int64_t> mlir::tkgpu::getElementIndex(Attribute layout, ArrayRef<int64_t> shape,
                                                  unsigned warp, unsigned lane, unsigned elem) {
  if (isTensorCoreLayout(layout))
    return tensorCoreIndex(layout, shape, warp, lane, elem);
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    if (auto mma = dyn_cast<MmaEncodingAttr>(slice.getParent()))
      return {mmaSliceIndex(mma, slice.getDim(), shape[0], warp, lane, elem)};
  SmallVector<unsigned> elemCoords =
      delinearize(elem, getElemsPerThread(layout, shape), getOrder(layout));
  auto blocked = dyn_cast<BlockedEncodingAttr>(layout);
  auto slice = dyn_cast<SliceEncodingAttr>(layout);
  SmallVector<int64_t> fullShape(shape);
  if (slice) {
    blocked = cast<BlockedEncodingAttr>(slice.getParent());
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

SharedEncodingAttr mlir::tkgpu::getSharedEncoding(MLIRContext *context, ArrayRef<int64_t> shape,
                                                  ArrayRef<unsigned> order, unsigned elementBits,
                                                  unsigned chunkBytes) {
  const int64_t bytes = std::max(1u, elementBits / 8);
  const int64_t vec = std::max<int64_t>(1, chunkBytes / bytes);
  const int64_t cols = shape[order[0]];
  const int64_t rowBytes = std::max<int64_t>(1, cols * bytes);
  const int64_t chunks = std::max<int64_t>(1, cols / vec);
  const int64_t perPhase = std::max<int64_t>(1, 128 / rowBytes);
  const int64_t maxPhase = std::max<int64_t>(1, std::min<int64_t>(chunks, 8 / perPhase));
  auto pow2 = [](int64_t x) { return unsigned(std::bit_floor(uint64_t(x))); };
  return SharedEncodingAttr::get(context, pow2(vec), pow2(perPhase), pow2(maxPhase), order,
                                 /*padding=*/0, /*panelWidth=*/0);
}

SharedEncodingAttr mlir::tkgpu::getDotOperandSharedEncoding(RankedTensorType operand,
                                                            ArrayRef<unsigned> order) {
  const unsigned bits = operand.getElementType().getIntOrFloatBitWidth();
  SharedEncodingAttr ldmatrix =
      getSharedEncoding(operand.getContext(), operand.getShape(), order, bits);
  if ((bits != 32 && bits != 8) || canLoadDotOperandWithLdmatrix(operand, ldmatrix))
    return ldmatrix;
  const int64_t cols = operand.getShape()[order[0]];
  if (bits == 8) // rows 16 bytes longer: addresses the thread's base plus a constant
    return SharedEncodingAttr::get(operand.getContext(), /*vec=*/16, /*perPhase=*/1,
                                   /*maxPhase=*/1, order, /*padding=*/cols >= 32 ? 16 : 0,
                                   /*panelWidth=*/0);
  // Read one element at a time: a warp reads 8 consecutive elements of each of 4 rows. Rows of
  // 24 words modulo 32 banks (16 or more elements padded by 8) put those 32 reads in distinct
  // banks, and every address is the thread's base plus a constant.
  return SharedEncodingAttr::get(operand.getContext(), /*vec=*/4, /*perPhase=*/1,
                                 /*maxPhase=*/1, order, /*padding=*/cols >= 16 ? 8 : 0,
                                 /*panelWidth=*/0);
}

int64_t mlir::tkgpu::getSharedOffset(SharedEncodingAttr layout, ArrayRef<int64_t> tileShape,
                                     int64_t row, int64_t col) {
  const int64_t rows = tileShape[layout.getOrder()[1]], cols = tileShape[layout.getOrder()[0]];
  const int64_t vec = layout.getVec();
  const int64_t phase = (row / layout.getPerPhase()) % layout.getMaxPhase();
  const int64_t width = layout.getPanelWidth() ? std::min<int64_t>(layout.getPanelWidth(), cols)
                                               : cols + layout.getPadding();
  const int64_t panel = layout.getPanelWidth() ? col / width : 0;
  const int64_t inPanel = col - panel * width;
  const int64_t chunk = (inPanel / vec) ^ phase;
  return panel * rows * width + row * width + chunk * vec + inPanel % vec;
}

SharedEncodingAttr mlir::tkgpu::getWgmmaSharedEncoding(MLIRContext *context,
                                                       ArrayRef<int64_t> shape,
                                                       ArrayRef<unsigned> order,
                                                       unsigned elementBits) {
  const int64_t bytes = elementBits / 8;
  const int64_t rowBytes = shape[order[0]] * bytes;
  const int64_t swizzle = std::min<int64_t>(128, rowBytes); // 32, 64 or 128
  return SharedEncodingAttr::get(context, unsigned(16 / bytes), unsigned(128 / swizzle),
                                 unsigned(swizzle / 16), order, /*padding=*/0,
                                 rowBytes > 128 ? unsigned(128 / bytes) : 0);
}

unsigned mlir::tkgpu::getWgmmaSwizzleBytes(SharedEncodingAttr layout) {
  return 16 * layout.getMaxPhase();
}

std::optional<TmaTileBoxes> mlir::tkgpu::getTmaTileBoxes(MemDescType tile,
                                                         ArrayRef<int64_t> blockShape) {
  if (tile.getRank() != 2 || blockShape.size() != 2 || !tile.getElementType().isIntOrFloat())
    return std::nullopt;
  const unsigned bits = tile.getElementType().getIntOrFloatBitWidth();
  if (bits != 8 && bits != 16 && bits != 32)
    return std::nullopt;
  SharedEncodingAttr layout = tile.getEncoding();
  const bool transposed = layout.getOrder()[0] == 0;
  ArrayRef<int64_t> shape = tile.getShape();
  if (shape[transposed ? 1 : 0] != blockShape[0] || shape[transposed ? 0 : 1] != blockShape[1])
    return std::nullopt;
  // getWgmmaSharedEncoding's layouts: 16-byte chunks, eight rows to a swizzle pattern.
  const int64_t rows = blockShape[0];
  const unsigned swizzle = 16 * layout.getMaxPhase();
  if (layout.getPadding() != 0 || layout.getVec() * bits != 128 ||
      layout.getPerPhase() * layout.getMaxPhase() != 8 || swizzle < 32)
    return std::nullopt;
  const int64_t width = layout.getPanelWidth() ? layout.getPanelWidth() : blockShape[1];
  if (width * bits != swizzle * 8 || blockShape[1] % width != 0 || rows % 8 != 0 || rows > 256)
    return std::nullopt;
  return TmaTileBoxes{rows, width, blockShape[1] / width, swizzle};
}

bool mlir::tkgpu::canLoadDotOperandWithLdmatrix(RankedTensorType type, SharedEncodingAttr shared) {
  auto operand = dyn_cast_or_null<DotOperandEncodingAttr>(type.getEncoding());
  if (!operand || type.getRank() != 2 || !type.getElementType().isIntOrFloat())
    return false;
  const unsigned bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  if (bytes * operand.getKWidth() != 4 || shared.getVec() * bytes != 16)
    return false;
  const unsigned kDim = operand.getOpIdx() == 0 ? 1 : 0, nonKDim = 1 - kDim;
  const unsigned inner = shared.getOrder()[0];
  if (inner != kDim && bytes != 2)
    return false;
  ArrayRef<int64_t> shape = type.getShape();
  auto pow2 = [](int64_t x) { return x > 0 && llvm::isPowerOf2_64(uint64_t(x)); };
  return pow2(shape[0]) && pow2(shape[1]) && shape[inner] >= 16 / bytes && shape[nonKDim] >= 8;
}

bool mlir::tkgpu::canLoadDotOperandFromShared(RankedTensorType type, SharedEncodingAttr shared) {
  if (canLoadDotOperandWithLdmatrix(type, shared))
    return true;
  auto pow2 = [](int64_t x) { return x > 0 && llvm::isPowerOf2_64(uint64_t(x)); };
  return isa_and_nonnull<DotOperandEncodingAttr>(type.getEncoding()) && type.getRank() == 2 &&
         type.getElementType().isIntOrFloat() &&
         type.getElementType().getIntOrFloatBitWidth() >= 8 &&
         type.getElementType().getIntOrFloatBitWidth() <= 32 && pow2(type.getShape()[0]) &&
         pow2(type.getShape()[1]);
}

int64_t mlir::tkgpu::getTileElements(SharedEncodingAttr layout, ArrayRef<int64_t> tileShape) {
  const unsigned inner = layout.getOrder()[0], outer = layout.getOrder()[1];
  return tileShape[outer] * (tileShape[inner] + layout.getPadding());
}

LayoutMemo::RegisterMap LayoutMemo::registerMap(RankedTensorType src, RankedTensorType dst,
                                                ArrayRef<int64_t> coef,
                                                llvm::function_ref<RegisterMap()> compute) {
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_tuple(src.getAsOpaquePointer(), dst.getAsOpaquePointer(),
                             std::vector<int64_t>(coef.begin(), coef.end()));
  auto it = registerMaps.find(key);
  if (it == registerMaps.end())
    it = registerMaps.emplace(std::move(key), compute()).first;
  return it->second;
}

BlockedEncodingAttr mlir::tkgpu::getTransposedLayout(BlockedEncodingAttr layout,
                                                     llvm::ArrayRef<int32_t> perm) {
  llvm::SmallVector<unsigned> size, lanes, warps, order, position(perm.size());
  for (auto [d, from] : llvm::enumerate(perm)) {
    size.push_back(layout.getSizePerThread()[unsigned(from)]);
    lanes.push_back(layout.getThreadsPerWarp()[unsigned(from)]);
    warps.push_back(layout.getWarpsPerCTA()[unsigned(from)]);
    position[unsigned(from)] = unsigned(d);
  }
  for (unsigned d : layout.getOrder())
    order.push_back(position[d]);
  return BlockedEncodingAttr::get(layout.getContext(), size, lanes, warps, order);
}

BlockedEncodingAttr mlir::tkgpu::getPairedLayout(BlockedEncodingAttr layout) {
  llvm::SmallVector<unsigned> size(layout.getSizePerThread()), lanes(layout.getThreadsPerWarp()),
      warps(layout.getWarpsPerCTA()), order{unsigned(size.size())};
  size.push_back(2);
  lanes.push_back(1);
  warps.push_back(1);
  llvm::append_range(order, layout.getOrder());
  return BlockedEncodingAttr::get(layout.getContext(), size, lanes, warps, order);
}

BlockedEncodingAttr mlir::tkgpu::getUnpairedLayout(BlockedEncodingAttr layout) {
  const auto last = unsigned(layout.getRank() - 1);
  if (layout.getRank() < 2 || layout.getSizePerThread()[last] != 2 ||
      layout.getThreadsPerWarp()[last] != 1 || layout.getWarpsPerCTA()[last] != 1 ||
      layout.getOrder()[0] != last)
    return {};
  return BlockedEncodingAttr::get(layout.getContext(), layout.getSizePerThread().drop_back(),
                                  layout.getThreadsPerWarp().drop_back(),
                                  layout.getWarpsPerCTA().drop_back(),
                                  llvm::to_vector(layout.getOrder().drop_front()));
}

BlockedEncodingAttr mlir::tkgpu::getReshapedLayout(BlockedEncodingAttr layout,
                                                   llvm::ArrayRef<int64_t> shape,
                                                   llvm::ArrayRef<int64_t> result) {
  const std::size_t rank = shape.size();
  if (rank == 0 || layout.getRank() != rank)
    return {};
  llvm::ArrayRef<unsigned> size = layout.getSizePerThread(), lanes = layout.getThreadsPerWarp(),
                           warps = layout.getWarpsPerCTA(), order = layout.getOrder();
  const unsigned last = unsigned(rank - 1);
  MLIRContext *context = layout.getContext();
  // [..., n, c] -> [..., n * c]: each thread holds whole runs of c, the fastest dimension.
  if (rank >= 2 && result.size() == rank - 1 && shape.drop_back(2) == result.drop_back() &&
      shape[last - 1] * shape[last] == result.back() && order[0] == last &&
      int64_t(size[last]) == shape[last] && lanes[last] == 1 && warps[last] == 1) {
    llvm::SmallVector<unsigned> newSize(size.drop_back()), newOrder;
    newSize.back() *= size[last];
    for (unsigned d : order.drop_front())
      newOrder.push_back(d);
    return BlockedEncodingAttr::get(context, newSize, lanes.drop_back(), warps.drop_back(),
                                    newOrder);
  }
  // [..., n * c] -> [..., n, c]: each thread's run along the last dimension, its fastest, is
  // whole runs of c.
  if (result.size() == rank + 1 && shape.drop_back() == result.drop_back(2) &&
      result[rank - 1] * result[rank] == shape[last] && order[0] == last && result[rank] > 0 &&
      size[last] % result[rank] == 0) {
    const auto c = unsigned(result[rank]);
    llvm::SmallVector<unsigned> newSize(size), newLanes(lanes), newWarps(warps),
        newOrder{unsigned(rank)};
    newSize.back() /= c;
    newSize.push_back(c);
    newLanes.push_back(1);
    newWarps.push_back(1);
    llvm::append_range(newOrder, order);
    return BlockedEncodingAttr::get(context, newSize, newLanes, newWarps, newOrder);
  }
  return {};
}

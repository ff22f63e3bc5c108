/// @file Utility.cpp
/// Layout facts the allocation and the lowering share (Utility.h): the axis geometry of
/// reductions and scans, and the view ops' element maps.
#include "Analysis/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// The product of `sizes` over the dimensions before `dim` in `order` (the id distance of
/// neighbours along `dim` when ids are numbered along `order`).
unsigned strideAlong(ArrayRef<unsigned> sizes, ArrayRef<unsigned> order, unsigned dim) {
  unsigned stride = 1;
  for (unsigned d : order) {
    if (d == dim)
      break;
    stride *= sizes[d];
  }
  return stride;
}

} // namespace

std::optional<CombineAxis> mlir::tk::getCombineAxis(RankedTensorType type, unsigned axis) {
  auto blocked = dyn_cast_or_null<tkgpu::BlockedEncodingAttr>(type.getEncoding());
  auto mma = dyn_cast_or_null<tkgpu::MmaEncodingAttr>(type.getEncoding());
  if ((!blocked && !mma) || axis >= type.getRank())
    return std::nullopt;
  const int64_t extent = type.getDimSize(axis);
  if (extent <= 0 || !llvm::isPowerOf2_64(uint64_t(extent)))
    return std::nullopt;
  CombineAxis info;
  info.axis = axis;
  if (mma) {
    // Along N, lane l holds columns 2 (l % 4) and 2 (l % 4) + 1 of each 8-wide piece: 4 lanes
    // 1 apart, warps n columns apart. Along M, rows l / 4 (and + 8, in the thread): 8 lanes 4
    // apart, warps 16 rows apart. Version 3 numbers warps down M first, version 2 along N.
    const unsigned warpsM = mma.getWarpsPerCTA()[0], warpsN = mma.getWarpsPerCTA()[1];
    const int64_t n = mma.getInstrShape()[1];
    info.size = info.chunk = 1;
    info.reps = tkgpu::getElemsPerThread(mma, type.getShape())[axis];
    if (axis == 1) {
      info.lanes = unsigned(std::clamp<int64_t>(extent / 2, 1, 4));
      info.laneStride = 1;
      info.warps = unsigned(std::clamp<int64_t>(extent / n, 1, warpsN));
      info.warpStride = mma.isHopper() ? warpsM : 1;
    } else {
      info.lanes = unsigned(std::clamp<int64_t>(extent, 1, 8));
      info.laneStride = 4;
      info.warps = unsigned(std::clamp<int64_t>(extent / 16, 1, warpsM));
      info.warpStride = mma.isHopper() ? 1 : warpsN;
    }
    info.positions = unsigned(type.getNumElements() / extent);
    return info;
  }
  info.size = blocked.getSizePerThread()[axis];
  const unsigned lanes = blocked.getThreadsPerWarp()[axis];
  const unsigned warps = blocked.getWarpsPerCTA()[axis];
  // All powers of two: either the tile divides the extent (every copy distinct, the tile
  // repeated) or the extent divides the tile (the first `extent` elements distinct, the rest
  // copies of them, lane- and warp-aligned).
  info.chunk = unsigned(std::min<int64_t>(info.size, extent));
  info.reps = tkgpu::getElemsPerThread(blocked, type.getShape())[axis] / info.size;
  info.lanes = unsigned(std::clamp<int64_t>(extent / info.size, 1, lanes));
  info.warps = unsigned(std::clamp<int64_t>(extent / (int64_t(info.size) * lanes), 1, warps));
  info.laneStride = strideAlong(blocked.getThreadsPerWarp(), blocked.getOrder(), axis);
  info.warpStride = strideAlong(blocked.getWarpsPerCTA(), blocked.getOrder(), axis);
  info.positions = unsigned(type.getNumElements() / extent);
  return info;
}

SmallVector<int64_t> mlir::tk::getRowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

namespace {

constexpr unsigned kThreadsPerWarp = 32;

int64_t dotProduct(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  int64_t sum = 0;
  for (auto [x, y] : llvm::zip_equal(a, b))
    sum += x * y;
  return sum;
}

} // namespace

std::optional<ViewMap> mlir::tk::getViewMap(Operation *op, unsigned result) {
  ViewMap map;
  map.src = op->getOperand(0);
  map.srcType = dyn_cast<RankedTensorType>(map.src.getType());
  map.dstType = dyn_cast<RankedTensorType>(op->getResult(result).getType());
  if (!map.dstType) // tk.split of a tensor<2xT>: scalar halves, lowered without a map
    return std::nullopt;
  const unsigned rank = map.dstType.getRank();
  if (isa<JoinOp, CatOp>(op)) {
    map.numSources = 2;
    if (!map.srcType) { // a join of two scalars: element k is operand k
      map.coef.assign({1});
      return map;
    }
  }
  if (!map.srcType) {
    map.coef.assign(rank, 0);
    return map;
  }
  ArrayRef<int64_t> srcShape = map.srcType.getShape();
  SmallVector<int64_t> srcStrides = getRowMajorStrides(srcShape);
  if (isa<JoinOp>(op)) {
    map.coef = srcStrides;
    map.coef.push_back(map.srcType.getNumElements());
  } else if (isa<CatOp>(op)) {
    map.coef = getRowMajorStrides(map.dstType.getShape());
  } else if (isa<SplitOp>(op)) {
    map.coef.assign(srcStrides.begin(), srcStrides.end() - 1);
    map.base = result;
  } else if (auto flip = dyn_cast<FlipOp>(op)) {
    const auto axis = size_t(flip.getAxis());
    map.coef = srcStrides;
    map.coef[axis] = -srcStrides[axis];
    map.base = (srcShape[axis] - 1) * srcStrides[axis];
  } else if (isa<BroadcastOp>(op)) {
    for (unsigned d = 0; d < rank; ++d)
      map.coef.push_back(srcShape[d] == 1 ? 0 : srcStrides[d]);
  } else if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    map.coef = srcStrides;
    map.coef.insert(map.coef.begin() + expand.getAxis(), 0);
  } else if (auto trans = dyn_cast<TransOp>(op)) {
    for (int32_t from : trans.getOrder())
      map.coef.push_back(srcStrides[from]);
  } else if (isa<ReshapeOp>(op)) {
    map.coef = getRowMajorStrides(map.dstType.getShape());
  } else if (isa<tkgpu::ConvertLayoutOp>(op)) {
    map.coef = srcStrides;
  } else {
    return std::nullopt;
  }
  return map;
}

namespace {

/// Per thread, the per-dimension index of its element 0 (its offset); per element, its index
/// in thread 0. An element's index in a thread is their sum modulo the shape.
struct LayoutTable {
  SmallVector<SmallVector<int64_t>> offsets, bases;
  SmallVector<int64_t> shape, strides;
  SmallVector<int64_t> masks; // per dimension: shape - 1 for a power of two, else -1

  LayoutTable(RankedTensorType type, unsigned threads) : shape(type.getShape()) {
    for (int64_t n : shape)
      masks.push_back(llvm::isPowerOf2_64(n) ? n - 1 : -1);
    Attribute layout = type.getEncoding();
    strides = getRowMajorStrides(shape);
    for (unsigned t = 0; t < threads; ++t)
      offsets.push_back(
          tkgpu::getElementIndex(layout, shape, t / kThreadsPerWarp, t % kThreadsPerWarp, 0));
    const unsigned count = tkgpu::getTotalElemsPerThread(layout, shape);
    for (unsigned e = 0; e < count; ++e)
      bases.push_back(tkgpu::getElementIndex(layout, shape, 0, 0, e));
  }

  /// The linear index, under `coef`, of the element `elem` of `thread`. This runs for every
  /// element of every thread: the modulo is a mask where the dimension is a power of two.
  int64_t linear(unsigned thread, unsigned elem, ArrayRef<int64_t> coef) const {
    int64_t sum = 0;
    for (unsigned d = 0; d < shape.size(); ++d) {
      const int64_t i = offsets[thread][d] + bases[elem][d];
      sum += (masks[d] >= 0 ? i & masks[d] : i % shape[d]) * coef[d];
    }
    return sum;
  }
};

} // namespace

/// mapInRegisters, computed.
static std::optional<SmallVector<unsigned>> computeMapInRegisters(const ViewMap &map) {
  Attribute srcLayout = map.srcType.getEncoding(), dstLayout = map.dstType.getEncoding();
  if (!tkgpu::isDistributedLayout(srcLayout) || !tkgpu::isDistributedLayout(dstLayout))
    return std::nullopt;
  const unsigned warps = tkgpu::getNumWarps(dstLayout);
  if (tkgpu::getNumWarps(srcLayout) != warps)
    return std::nullopt;
  const unsigned threads = warps * kThreadsPerWarp;
  LayoutTable src(map.srcType, threads), dst(map.dstType, threads);

  // Thread 0: the first operand element at each linear index. Stacked operands (tk.join,
  // tk.cat) number their elements one operand after the other, as the lowering unpacks them.
  const auto count = unsigned(src.bases.size());
  const int64_t numElements = map.srcType.getNumElements();
  llvm::DenseMap<int64_t, unsigned> elemAt;
  for (unsigned k = 0; k < map.numSources; ++k)
    for (unsigned e = 0; e < count; ++e)
      elemAt.try_emplace(k * numElements + dotProduct(src.bases[e], src.strides), k * count + e);
  SmallVector<unsigned> mapping;
  for (const SmallVector<int64_t> &base : dst.bases) {
    auto it = elemAt.find(map.base + dotProduct(base, map.coef));
    if (it == elemAt.end())
      return std::nullopt;
    mapping.push_back(it->second);
  }
  // Every thread: the matched element is the one the result element reads.
  for (unsigned t = 0; t < threads; ++t)
    for (unsigned e = 0; e < mapping.size(); ++e)
      if ((mapping[e] / count) * numElements + src.linear(t, mapping[e] % count, src.strides) !=
          map.base + dst.linear(t, e, map.coef))
        return std::nullopt;
  return mapping;
}

std::optional<SmallVector<unsigned>> mlir::tk::mapInRegisters(const ViewMap &map) {
  auto *dialect = map.dstType.getContext()->getLoadedDialect<tkgpu::TkGPUDialect>();
  if (!dialect) // no layouts without the dialect: nothing to remember
    return computeMapInRegisters(map);
  SmallVector<int64_t> key(map.coef);
  key.append({map.base, int64_t(map.numSources)});
  return dialect->getLayoutMemo().registerMap(map.srcType, map.dstType, key,
                                              [&] { return computeMapInRegisters(map); });
}

bool mlir::tk::isConversionInRegisters(RankedTensorType type, Attribute layout) {
  ViewMap map;
  map.srcType = type;
  map.dstType = RankedTensorType::get(type.getShape(), type.getElementType(), layout);
  map.coef = getRowMajorStrides(type.getShape());
  return mapInRegisters(map).has_value();
}

namespace {

/// Consecutive elements along dimension 1 that a thread of `layout` holds one after the other,
/// each run starting at a multiple of its length, in every thread of a `shape` tensor (power of
/// two, 1 where unsure).
unsigned getRunAlongColumns(Attribute layout, ArrayRef<int64_t> shape) {
  unsigned run = 1, tile = 0;
  if (auto blocked = dyn_cast<tkgpu::BlockedEncodingAttr>(layout)) {
    if (blocked.getOrder()[0] != 1)
      return 1;
    run = blocked.getSizePerThread()[1];
    tile = run * blocked.getThreadsPerWarp()[1] * blocked.getWarpsPerCTA()[1];
  } else if (auto mma = dyn_cast<tkgpu::MmaEncodingAttr>(layout)) {
    run = 2; // a thread's elements of a 16 x 8 piece: (g, 2t), (g, 2t + 1), (g + 8, ...)
    tile = mma.getInstrShape()[1] * mma.getWarpsPerCTA()[1];
  } else {
    return 1;
  }
  // A tensor narrower than the layout's tile wraps around: runs stay whole only when it is a
  // multiple of the run.
  if (shape[1] < int64_t(tile) && shape[1] % run != 0)
    return 1;
  return unsigned(std::min<int64_t>(run, shape[1]));
}

} // namespace

std::optional<VectorizedExchange> mlir::tk::getVectorizedExchange(RankedTensorType src,
                                                                  RankedTensorType dst) {
  if (!src || !dst || src.getRank() != 2 || dst.getShape() != src.getShape() ||
      !tkgpu::isDistributedLayout(src.getEncoding()) ||
      !tkgpu::isDistributedLayout(dst.getEncoding()) ||
      isa<tkgpu::DotOperandEncodingAttr>(dst.getEncoding())) // ConvertToDotOperand.cpp's
    return std::nullopt;
  Type element = src.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 16 ||
      element.getIntOrFloatBitWidth() > 32)
    return std::nullopt;
  ArrayRef<int64_t> shape = src.getShape();
  if (!llvm::isPowerOf2_64(uint64_t(shape[0])) || !llvm::isPowerOf2_64(uint64_t(shape[1])))
    return std::nullopt;
  const unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  const unsigned widest = 16 / bytes;
  VectorizedExchange exchange;
  exchange.storeWidth = std::min(getRunAlongColumns(src.getEncoding(), shape), widest);
  exchange.loadWidth = std::min(getRunAlongColumns(dst.getEncoding(), shape), widest);
  if (exchange.storeWidth == 1 && exchange.loadWidth == 1)
    return std::nullopt;
  exchange.rowStride = shape[1];
  if ((shape[1] * bytes) % 128 == 0)
    exchange.rowStride += 16 / bytes;
  return exchange;
}

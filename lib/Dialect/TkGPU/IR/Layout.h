/// @file Layout.h
/// The C++ API of tkgpu layouts: how many elements a thread holds, which tensor element
/// is a thread's n-th, and Triton's default blocked layout for a shape. Plain index arithmetic,
/// used by the passes that choose layouts and by the lowering to LLVM (which emits the same
/// arithmetic as IR).
#ifndef TK_DIALECT_TKGPU_IR_LAYOUT_H
#define TK_DIALECT_TKGPU_IR_LAYOUT_H

#include "Dialect/TkGPU/IR/Dialect.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <vector>

namespace mlir::tkgpu {

/// A layout that maps every element to registers of threads (blocked, slice, mma, dot_operand);
/// false for null.
bool isDistributedLayout(Attribute layout);

/// An mma or dot_operand layout.
bool isTensorCoreLayout(Attribute layout);

/// The layout's rank (the rank of the tensors it lays out).
unsigned getRank(Attribute layout);

/// Dimensions from the fastest-varying, as lane, warp and element numbering follows them.
llvm::SmallVector<unsigned> getOrder(Attribute layout);

/// Warps the layout spreads a tensor over (the product of warpsPerCTA).
unsigned getNumWarps(Attribute layout);

/// Elements each thread holds along each dimension of a tensor of `shape`.
llvm::SmallVector<unsigned> getElemsPerThread(Attribute layout, llvm::ArrayRef<int64_t> shape);

/// Elements each thread holds in all (the product of getElemsPerThread).
unsigned getTotalElemsPerThread(Attribute layout, llvm::ArrayRef<int64_t> shape);

/// Whether some element of a tensor of `shape` is held by more than one (thread, element)
/// slot: the layout's tile is larger than the tensor somewhere, or a slice spreads threads
/// along the dimension it removed. Every distributed layout holds every element at least once,
/// so this is `slots > elements`.
bool hasDuplicates(Attribute layout, llvm::ArrayRef<int64_t> shape);

/// The tensor index of the `elem`-th element held by lane `lane` of warp `warp`, for
/// 0 <= elem < getTotalElemsPerThread. A blocked (slice) layout numbers a thread's elements
/// along getOrder, the fastest dimension's first; mma and dot_operand layouts as their
/// attributes describe. In every layout the index is the thread's offset plus the index of
/// thread 0's element, modulo the shape.
llvm::SmallVector<int64_t> getElementIndex(Attribute layout, llvm::ArrayRef<int64_t> shape,
                                           unsigned warp, unsigned lane, unsigned elem);

/// `linear` split into coordinates over `sizes`, the dimension order[0] varying fastest (a
/// thread's element number into per-dimension element coordinates, a lane into lane coordinates).
llvm::SmallVector<unsigned> delinearize(unsigned linear, llvm::ArrayRef<unsigned> sizes,
                                        llvm::ArrayRef<unsigned> order);

/// Triton's default blocked layout for `shape`: order = dimensions reversed (the last one
/// fastest), lanes then warps handed out from the fastest dimension, clamped to the shape, the
/// rest on the slowest. sizePerThread is 1 except, when `elementBits` is given, along the
/// fastest dimension: up to 16 bytes per thread where the tensor has that many elements per
/// thread to give.
BlockedEncodingAttr getDefaultBlockedEncoding(MLIRContext *context, llvm::ArrayRef<int64_t> shape,
                                              unsigned numWarps, unsigned threadsPerWarp = 32,
                                              unsigned elementBits = 0);

/// The view ops' layouts that move no data between threads (tk-assign-layouts gives them;
/// tk-remove-layout-conversions moves conversions across the ops with them).
///
/// `layout` with its dimensions permuted as tk.trans's `perm` permutes the tensor's.
BlockedEncodingAttr getTransposedLayout(BlockedEncodingAttr layout, llvm::ArrayRef<int32_t> perm);

/// `layout` with a new last dimension of 2 held by each thread (the fastest): tk.join's result,
/// tk.split's operand, whose two halves then sit side by side in every thread's registers.
BlockedEncodingAttr getPairedLayout(BlockedEncodingAttr layout);

/// getPairedLayout's inverse, where `layout` is such a layout; else null.
BlockedEncodingAttr getUnpairedLayout(BlockedEncodingAttr layout);

/// The layout of tk.reshape's result from `shape` in `layout` to `result` whose threads hold the
/// elements they held, for the reshapes of interleaving and de-interleaving: the last two
/// dimensions merged where each thread holds the whole last one (a join's pairs, in order), or
/// the last split in two where each thread's run along it is a multiple of the new last size.
/// Null for any other reshape.
BlockedEncodingAttr getReshapedLayout(BlockedEncodingAttr layout, llvm::ArrayRef<int64_t> shape,
                                      llvm::ArrayRef<int64_t> result);

/// The layout of a coalesced access: like the default, but dimensions taken in `order` (the
/// most contiguous first) and up to `vectorWidth` elements per thread along order[0].
BlockedEncodingAttr getCoalescedBlockedEncoding(MLIRContext *context, llvm::ArrayRef<int64_t> shape,
                                                unsigned numWarps, llvm::ArrayRef<unsigned> order,
                                                unsigned vectorWidth);

/// The swizzled shared layout of a rank-2 tile of `shape` whose dimension `order[0]` is
/// contiguous, with `elementBits`-bit elements: chunks of `chunkBytes` (vec elements),
/// perPhase = max(1, 128 / row bytes) rows per 128-byte line, maxPhase = min(chunks per row,
/// 8 / perPhase) (SharedEncodingAttr's description).
SharedEncodingAttr getSharedEncoding(MLIRContext *context, llvm::ArrayRef<int64_t> shape,
                                     llvm::ArrayRef<unsigned> order, unsigned elementBits,
                                     unsigned chunkBytes = 16);

/// The layout of a tile that dot operand `operand` (a `#tkgpu.dot_operand` tensor) is read from,
/// its dimension `order[0]` contiguous: 16-byte chunks, as ldmatrix reads them; for 32-bit
/// operands ldmatrix cannot read (M or N contiguous: tf32 b of a row-major matrix, read one
/// element at a time), no swizzle but rows padded by 8 elements, so that the four K rows a warp
/// reads at once, eight consecutive elements each, fall in distinct banks and each element's
/// address is the thread's base plus a constant; for such 8-bit operands (i8 b of a row-major
/// matrix) rows padded by 16 bytes, for the constant addresses (2-way bank conflicts remain:
/// 16-byte aligned rows cannot separate a warp's four rows further).
SharedEncodingAttr getDotOperandSharedEncoding(RankedTensorType operand,
                                               llvm::ArrayRef<unsigned> order);

/// The element offset of tile element (row, col) in `layout`, rows along order[1] and columns
/// (contiguous) along order[0] of a tile of `tileShape`: the panels and the swizzle as plain
/// arithmetic (the lowering emits it as IR).
int64_t getSharedOffset(SharedEncodingAttr layout, llvm::ArrayRef<int64_t> tileShape, int64_t row,
                        int64_t col);

/// The layout wgmma reads a rank-2 operand tile of `shape` from, its dimension `order[0]`
/// contiguous: the widest of the 32, 64 and 128-byte swizzles that a row holds (rows of at
/// least 32 bytes), 16-byte chunks, and 128-byte panels where rows are longer.
SharedEncodingAttr getWgmmaSharedEncoding(MLIRContext *context, llvm::ArrayRef<int64_t> shape,
                                          llvm::ArrayRef<unsigned> order, unsigned elementBits);

/// The swizzle width in bytes (32, 64 or 128) of a layout from getWgmmaSharedEncoding.
unsigned getWgmmaSwizzleBytes(SharedEncodingAttr layout);

/// How the Tensor Memory Accelerator fills a wgmma tile with a rank-2 block of a tensor map
/// (tkgpu.async_tma_copy_global_to_local): `panels` boxes of `rows` x `width` elements (outer x
/// inner), side by side along the block's rows, copied in the map's swizzle mode of
/// `swizzleBytes` (32, 64 or 128), which is the tile's own swizzle.
struct TmaTileBoxes {
  int64_t rows = 0, width = 0, panels = 0;
  unsigned swizzleBytes = 0;
};

/// The boxes that fill `tile` (rank 2) with a block of `blockShape` (rank 2, row-major in
/// global memory) of `elementBits`-bit elements; none where TMA cannot: the tile must be the
/// block with order [1, 0] or its transpose with order [0, 1], laid out as
/// getWgmmaSharedEncoding lays it out, with rows in multiples of 8 (whole swizzle patterns) and
/// boxes of at most 256 elements a side.
std::optional<TmaTileBoxes> getTmaTileBoxes(MemDescType tile, llvm::ArrayRef<int64_t> blockShape);

/// The elements a tile of `tileShape` (rank 2) takes in `layout`, its rows' padding included.
int64_t getTileElements(SharedEncodingAttr layout, llvm::ArrayRef<int64_t> tileShape);

/// Whether `ldmatrix` can read a dot operand of `type` (a `#tkgpu.dot_operand` layout) from a
/// tile laid out by `shared`: kWidth elements fill a 32-bit register, M (or N) contiguous only
/// for 16-bit types (`ldmatrix.trans`), power-of-two dimensions, at least a 16-byte chunk along
/// the contiguous one and 8 along M (or N).
bool canLoadDotOperandWithLdmatrix(RankedTensorType type, SharedEncodingAttr shared);

/// Whether a dot operand of `type` can be read from a tile laid out by `shared` at all: with
/// ldmatrix, or one element at a time (rank 2, power-of-two dimensions, int or float elements of
/// at most 32 bits).
bool canLoadDotOperandFromShared(RankedTensorType type, SharedEncodingAttr shared);

/// Answers to layout queries that are pure functions of uniqued types, remembered for the
/// context's lifetime (one per context: TkGPUDialect::getLayoutMemo). Lowering a tensor-core
/// kernel asks whether the same few dozen views stay in registers hundreds of times, and each
/// answer walks every element of every thread. Safe to use from several threads.
class LayoutMemo {
public:
  /// For each result element of a view, the operand element of the same thread it reads; none
  /// when the view moves data between threads (tk::mapInRegisters).
  using RegisterMap = std::optional<llvm::SmallVector<unsigned>>;

  /// The register map of the view from `src` to `dst` that reads with `coef`: `compute()` the
  /// first time, the remembered answer after.
  RegisterMap registerMap(RankedTensorType src, RankedTensorType dst, llvm::ArrayRef<int64_t> coef,
                          llvm::function_ref<RegisterMap()> compute);

private:
  std::mutex mutex;
  std::map<std::tuple<const void *, const void *, std::vector<int64_t>>, RegisterMap> registerMaps;
};

} // namespace mlir::tkgpu

#endif // TK_DIALECT_TKGPU_IR_LAYOUT_H

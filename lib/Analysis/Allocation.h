/// @file Allocation.h
/// Shared memory of a kernel: how much each op needs (scratch sizes, by op family) and
/// where each buffer lives (offsets), from live ranges. The tk-allocate-shared-memory pass
/// writes the offsets on the ops; the lowering reads them.
///
/// Buffers. A buffer is `bytes` of shared memory live over a closed interval of a linear
/// numbering of the ops: a pre-order walk, so an op is numbered before the ops nested in it and
/// its span is [its number, its last nested op's number]. There are two kinds:
///  - scratch: an op that exchanges values between threads (getScratchBytes(op) > 0: reductions
///    and scans across warps, layout conversions and views that move data, the FMA dot) uses a
///    buffer live over its own span only; its lowering writes and reads it between barriers.
///  - explicit: a value that holds a buffer (getExplicitBufferBytes(value) > 0) lives from its
///    defining op to its last use. A use inside a loop (LoopLikeOpInterface) that does not
///    contain the definition extends the interval to the end of the outermost such loop: the
///    next iteration reads the buffer again. `tkgpu.local_alloc` defines one (the ring buffers
///    of software pipelining, live across a loop); the uses of its `tkgpu.memdesc_index` views
///    count as its own.
///
/// Offsets: first fit by size. Buffers are placed largest first (ties: the earlier interval,
/// then the earlier buffer); each takes the lowest offset, a multiple of 16 bytes, at which it
/// overlaps none of the buffers already placed whose intervals intersect its own (the gaps
/// between those, sorted by offset, tried in order). Buffers live at the same time never share a
/// byte; buffers live at different times reuse the same bytes. The total is the largest
/// offset + bytes, not rounded up. Scratch buffers are each live at one op, so today they all
/// sit at offset 0 and the total is the largest op's scratch, with a barrier before each op
/// writes and before it reads (earlier users are done; its own writes are visible).
#ifndef TK_ANALYSIS_ALLOCATION_H
#define TK_ANALYSIS_ALLOCATION_H

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/IR/Operation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir::tk {

// Scratch sizes. Each family's lowering lays its scratch out as these functions count it.

/// Bytes an element takes in scratch: pointers 8, i1 1, else the bit width / 8.
unsigned getScratchElementBytes(Type type);

/// Scratch areas of `count` elements of each of `types` (tk element types), one after another,
/// each aligned to its element: their byte offsets; `totalBytes` the end of the last.
llvm::SmallVector<unsigned> getScratchAreas(TypeRange types, uint64_t count, uint64_t &totalBytes);

/// The areas of a tk.reduce across warps (one per operand, [warp][position off the axis]) and
/// of a tk.scan across warps (one per operand, [repetition][warp][position off the axis]).
llvm::SmallVector<unsigned> getReduceScratchAreas(ReduceOp op, uint64_t &totalBytes);
llvm::SmallVector<unsigned> getScanScratchAreas(ScanOp op, uint64_t &totalBytes);

/// The scratch of a tk.atomic_rmw / tk.atomic_cas (AtomicOpToLLVM.cpp). A tensor whose layout
/// holds some element in several (thread, element) slots is updated once per element: each
/// slot writes its number as a claim to the element's i32 at [0, resultsOffset), and the slot
/// whose claim survives performs the update. Where the result is read, each updater then
/// writes the old value at resultsOffset + its index * element bytes, and every slot reads its
/// element back. A scalar is updated by thread 0 alone, which shares the old value the same
/// way (no claims). Layouts without duplicates need none.
struct AtomicScratch {
  unsigned resultsOffset = 0;
  unsigned totalBytes = 0;
  bool claims = false;
};
AtomicScratch getAtomicScratch(Operation *op);

/// Scratch bytes `op` needs (0 for ops that need none): dispatches to the op families below.
unsigned getScratchBytes(Operation *op);
unsigned getReduceScratchBytes(ReduceOp op); ///< the warps' partials, when warps hold the axis
unsigned getScanScratchBytes(ScanOp op);     ///< the warps' totals, when warps hold the axis
unsigned getDotScratchBytes(DotOp op);       ///< a then b, row-major
unsigned getViewScratchBytes(Operation *op); ///< the operand, when it cannot stay in registers
unsigned getGatherScratchBytes(GatherOp op); ///< the operand, read at the indices
/// The tile a TMA copy of `block` fills or reads: its elements row-major, unpadded.
uint64_t getTmaTileBytes(RankedTensorType block);
/// The scratch of a tk.descriptor_load / tk.descriptor_store through a tensor map (TmaOpToLLVM):
/// the tile rounded up to 16 bytes, then its mbarrier.
unsigned getTmaScratchBytes(Operation *op);
/// The alignment of an op's scratch offset: kTmaAlignment for TMA tiles, else kSharedAlignment.
uint64_t getScratchAlignment(Operation *op);

/// Bytes of the explicit buffer `value` holds (a tkgpu.local_alloc's), 0 when it holds none.
uint64_t getExplicitBufferBytes(Value value);

// Buffers and their offsets.

/// A closed interval [start, end] of op numbers.
struct Interval {
  uint64_t start = 0;
  uint64_t end = 0;
  bool intersects(const Interval &other) const { return start <= other.end && other.start <= end; }
};

struct Buffer {
  enum class Kind { Scratch, Explicit };
  Kind kind;
  Operation *owner; ///< scratch: the op using it; explicit: the op defining `value`
  Value value;      ///< explicit only
  uint64_t bytes;
  Interval live;
  uint64_t offset = 0;     ///< set by assignOffsets
  uint64_t alignment = 16; ///< of the offset: kSharedAlignment, kTileAlignment for tiles
};

/// The alignment of every buffer's offset (bytes): the widest vector access.
constexpr uint64_t kSharedAlignment = 16;

/// The alignment of explicit buffers (tiles), and of the shared array itself: wgmma's
/// swizzles are functions of the address bits, which repeat every 1024 bytes (8 rows of 128).
constexpr uint64_t kTileAlignment = 1024;

/// The alignment of tiles that TMA copies into or out of, unswizzled (and of the shared array
/// of a module that has them).
constexpr uint64_t kTmaAlignment = 128;

/// Sets each buffer's offset, first fit by size (the file comment); returns the total bytes.
uint64_t assignOffsets(llvm::MutableArrayRef<Buffer> buffers);

/// The buffers of the ops nested in `root` (root excluded), their live intervals and offsets.
class Allocation {
public:
  using ExplicitBufferBytes = llvm::function_ref<uint64_t(Value)>;

  /// `explicitBytes` says which values hold explicit buffers (tests pass their own).
  explicit Allocation(Operation *root, ExplicitBufferBytes explicitBytes = getExplicitBufferBytes);

  /// In creation order: scratch and explicit buffers as the walk meets their owners.
  llvm::ArrayRef<Buffer> getBuffers() const { return buffers; }
  /// The shared memory all buffers need together (bytes).
  uint64_t getTotalBytes() const { return totalBytes; }

  /// The op's span: [its number, its last nested op's number].
  Interval getSpan(Operation *op) const;
  /// The interval an explicit buffer held by `value` (an op's result) is live over.
  Interval getLiveInterval(Value value) const;

private:
  llvm::DenseMap<Operation *, Interval> spans;
  llvm::SmallVector<Buffer> buffers;
  uint64_t totalBytes = 0;
};

} // namespace mlir::tk

#endif // TK_ANALYSIS_ALLOCATION_H

// Layouts (tensor encodings) of the tkgpu dialect. Distributed layouts map every element to
// registers of threads: `blocked` and `slice` for ordinary tensors, `mma` for the accumulator of
// a tensor-core matrix product and `dot_operand` for its operands.

#ifndef TKGPU_ATTRS_TD
#define TKGPU_ATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"
include "TkGPUDialect.td"

class TkGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TkGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TkGPU_BlockedEncodingAttr : TkGPU_Attr<"BlockedEncoding", "blocked",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "each thread holds sizePerThread contiguous elements, tiled over the tensor";
  let description = [{
    Per dimension d: a thread holds `sizePerThread[d]` consecutive elements, a warp's
    `threadsPerWarp[d]` threads are next to each other, and the CTA's `warpsPerCTA[d]` warps
    next to those. The resulting tile of `sizePerThread * threadsPerWarp * warpsPerCTA` elements
    repeats over a larger tensor (each thread then holds several chunks) and wraps around a
    smaller one (elements are then held by several threads). `order` lists the dimensions from
    the fastest-varying: lane and warp ids, and a thread's elements, are numbered along it.
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
  }];
}

def TkGPU_SliceEncodingAttr : TkGPU_Attr<"SliceEncoding", "slice",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "the parent layout with dimension `dim` removed (results of reductions)";
  let description = [{
    A tensor of rank r - 1 laid out like its parent (rank r) with dimension `dim` squeezed out:
    element i is held by the threads that hold element i (with 0 inserted at `dim`) of the
    parent. A reduction along `dim` produces it; `tk.expand_dims` at `dim` turns it back into
    the parent for free. The parent is a blocked layout or an mma layout (the rows or columns
    of an accumulator: a row maximum of `dot(q, kᵀ)`, say); a thread's elements are the distinct
    ones of the parent's, in the parent's order.
  }];
  let parameters = (ins "unsigned":$dim, "Attribute":$parent);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TkGPU_MmaEncodingAttr : TkGPU_Attr<"MmaEncoding", "mma",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "the accumulator of a tensor-core matrix product (2: mma.sync, 3: wgmma)";
  let description = [{
    A rank-2 tensor as the accumulator fragments of the tensor cores hold it. Each warp holds
    a 16 x n tile (`instrShape` = [16, n]) made of 16 x 8 pieces; in a piece, lane l holds
    rows l / 4 and l / 4 + 8, columns 2 (l % 4) and 2 (l % 4) + 1: four elements, numbered
    row by row. The CTA's warps form a `warpsPerCTA[0]` x `warpsPerCTA[1]` grid whose tile
    of 16 warpsPerCTA[0] x n warpsPerCTA[1] repeats over the tensor. A thread's elements: rep
    by rep, the reps row by row; in a rep, the warp tile's pieces left to right, four each.
    A tensor smaller than the grid's tile wraps around (warps hold copies).

    Version 2 (`mma.sync.m16n8kK`): n = 8; warp w at row w / warpsPerCTA[1], column
    w % warpsPerCTA[1].
    Version 3 (`wgmma.mma_async.m64nNkK`, sm_90a): n is the instruction's N (8 to 256, a
    multiple of 8); warps are numbered down the rows first, warp w at row w % warpsPerCTA[0],
    column w / warpsPerCTA[0], so that each warpgroup (four consecutive warps) holds the
    64 x n accumulator of one instruction; warpsPerCTA[0] is a multiple of 4.
  }];
  let parameters = (ins "unsigned":$versionMajor,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isHopper() const { return getVersionMajor() == 3; }
    /// The row and column of warp `warp` in the warp grid.
    std::pair<unsigned, unsigned> getWarpCoords(unsigned warp) const;
  }];
}

def TkGPU_DotOperandEncodingAttr : TkGPU_Attr<"DotOperandEncoding", "dot_operand",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "operand `opIdx` (0: a, 1: b) of a tensor-core product in layout `parent`";
  let description = [{
    The registers mma.sync reads its a (M x K, opIdx 0) or b (K x N, opIdx 1) fragments from.
    Each 32-bit register holds `kWidth` consecutive elements along K (2 for 16-bit types, 1 for
    tf32, 4 for 8-bit integers); an instruction takes K = 8 kWidth. With g = lane / 4 and
    t = lane % 4: a's tile (16 x 8 kWidth) is four registers, register j at row g + 8 (j % 2),
    columns t kWidth + 4 kWidth (j / 2) + [0, kWidth); b's tile (8 kWidth x 8) is two
    registers, register j at rows t kWidth + 4 kWidth j + [0, kWidth), column g. a's tiles are
    held by the warps of the parent's row (repeating every 16 warpsPerCTA[0] rows), b's by the
    warps of its column (every 8 warpsPerCTA[1] columns); a thread's elements go tile by tile,
    the M (or N) tiles outermost, then K tiles, then registers, then the kWidth elements.
    K must be a multiple of 8 kWidth: it never wraps around (a copy would be added twice).
  }];
  let parameters = (ins "unsigned":$opIdx, "MmaEncodingAttr":$parent, "unsigned":$kWidth);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The K extent of one instruction: 8 kWidth.
    unsigned getInstrK() const { return 8 * getKWidth(); }
  }];
}

def TkGPU_SharedEncodingAttr : TkGPU_Attr<"SharedEncoding", "shared"> {
  let summary = "a swizzled tile in shared memory (the layout of a `!tkgpu.memdesc`)";
  let description = [{
    A rank-2 tile stored row by row along `order[0]` (the contiguous dimension): R rows of C
    elements. Each row is cut into chunks of `vec` elements (16 bytes; 32 for tiles read one
    32-bit element at a time); chunk q of row r is stored at chunk q ^ ((r / perPhase) %
    maxPhase). `ldmatrix` reads the same chunk of eight consecutive rows at once, and the
    swizzle puts those eight reads in distinct banks. Each row is followed by `padding` unused
    elements (0 unless printed): a tile read one 32-bit element at a time is not swizzled
    (maxPhase = 1) but padded, so that its addresses stay affine in the element's position.
    getDotOperandSharedEncoding (Layout.h) derives the parameters from the tile's row length.

    With `panelWidth` = P (0 unless printed), the rows are cut into panels of P elements: panel
    p holds columns [p P, (p + 1) P) of every row, R rows of P elements swizzled as above, and
    the panels follow one another. These are the layouts wgmma reads through matrix
    descriptors (getWgmmaSharedEncoding): P elements are the swizzle's width in bytes (32, 64
    or 128), the tile's start is aligned to 8 of those rows, and the swizzle is then the one
    the hardware applies to the address bits.
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order, "unsigned":$padding,
                        "unsigned":$panelWidth);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TKGPU_ATTRS_TD

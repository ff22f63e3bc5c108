// Layouts (tensor encodings) of the tkgpu dialect. Distributed layouts map every element to
// registers of threads: `blocked` and `slice` now; tensor-core layouts (`mma` v2/v3 accumulator,
// `dot_operand`) and the shared-memory layout (`shared`, swizzled) are planned under those names.

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
    the parent for free.
  }];
  let parameters = (ins "unsigned":$dim, "BlockedEncodingAttr":$parent);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TKGPU_ATTRS_TD

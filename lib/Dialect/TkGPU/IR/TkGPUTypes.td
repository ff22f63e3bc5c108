// Types of the tkgpu dialect.

#ifndef TKGPU_TYPES_TD
#define TKGPU_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "TkGPUAttrs.td"

def TkGPU_MemDescType : TypeDef<TkGPU_Dialect, "MemDesc"> {
  let mnemonic = "memdesc";
  let summary = "a buffer in shared memory";
  let description = [{
    `!tkgpu.memdesc<3x64x32xf16, #tkgpu.shared<{...}>>`: a shared-memory buffer of `shape`
    elements. The last two dimensions are a tile laid out by `encoding`; a leading dimension
    counts tiles (the slots of a ring buffer, one tile after another). `tkgpu.local_alloc`
    creates one, `tkgpu.memdesc_index` views one slot of it.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        "SharedEncodingAttr":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
    /// Elements in the buffer (the product of the shape).
    int64_t getNumElements() const;
    /// Elements the buffer takes in shared memory: its tiles' rows padded (SharedEncodingAttr).
    int64_t getAllocElements() const;
  }];
}

#endif // TKGPU_TYPES_TD

// Passes on tkgpu layouts. One pass per file beside this one; each has a lit test under
// tests/lit/Dialect/TkGPU/.

#ifndef TKGPU_PASSES_TD
#define TKGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def TkRewriteBlockPointers : Pass<"tk-rewrite-block-pointers", "::mlir::ModuleOp"> {
  let summary = "block pointers as masked pointer blocks (Triton's RewriteTensorPointer)";
  let description = [{
    A `!tk.blockptr` becomes its base, shape, strides and offsets (a 1:N type conversion, also
    of the loops and branches that carry it); tk.advance adds to the offsets; each
    tk.block_load / tk.block_store becomes a tk.load / tk.store through the block of pointers
    base + sum (offsets[d] + arange(B_d)) strides[d], masked to the tensor along the dimensions
    of `boundary_check` (NaN-padded loads yield NaN there). Any other op holding a block
    pointer is an error (RewriteBlockPointers.cpp).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TkTmaDescriptors : Pass<"tk-tma-descriptors", "::mlir::ModuleOp"> {
  let summary = "tensor descriptors the launch knows as tensor-map kernel parameters (TMA)";
  let description = [{
    A tk.make_tensor_descriptor of a 16-byte aligned pointer argument, sizes and strides that
    are arguments or constants (strides of 16-byte multiples, the last 1; for a descriptor that
    stores, rows of 16-byte multiples too) and a block TMA can copy becomes a new kernel
    argument of its type, appended after the others, with the recipe
    of its tensor map in the argument attribute `tkgpu.tensor_map`: the launch encodes the map
    (cuTensorMapEncodeTiled) and passes it by value (TmaDescriptors.cpp). An access whose
    innermost index is not provably a multiple of 16 bytes (or a store whose indices may be
    negative) goes through the map under a check at run time, and through the descriptor made
    in the kernel otherwise. Other descriptors are left to tk-rewrite-tensor-descriptors.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TkRewriteTensorDescriptors : Pass<"tk-rewrite-tensor-descriptors", "::mlir::ModuleOp"> {
  let summary = "tensor-descriptor loads, stores and reductions as masked pointer blocks";
  let description = [{
    Each tk.descriptor_load / tk.descriptor_store / tk.descriptor_reduce becomes a tk.load /
    tk.store / tk.atomic_rmw through the block of pointers base + sum (indices[d] +
    arange(B_d)) strides[d], masked to the tensor (elements outside read as zero, or NaN with
    `nan_padding`, and are neither written nor combined into); the last stride is taken as 1
    (the descriptor's contract), so the accesses vectorize. A descriptor becomes its parts
    (base, sizes, strides), also where scf.for, scf.if and scf.while carry it; it must be made
    by tk.make_tensor_descriptor in the kernel, except a tensor-map argument of
    tk-tma-descriptors, left to the TMA lowering (RewriteTensorDescriptors.cpp).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TkDecomposeBatchedDot : Pass<"tk-decompose-batched-dot", "::mlir::ModuleOp"> {
  let summary = "a 3-D (batched) tk.dot as one 2-D tk.dot per batch";
  let description = [{
    A tk.dot of [B, M, K] x [B, K, N] + [B, M, N] becomes B tk.dots of matrices: the operands'
    batch dimension is moved last and halved log2(B) times (tk.reshape, tk.split), and the
    products are joined back the same way (tk.join, tk.reshape, tk.trans). A splat accumulator
    becomes B copies of its 2-D constant (DecomposeBatchedDot.cpp).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TkLegalizeFp8 : Pass<"tk-legalize-fp8", "::mlir::ModuleOp"> {
  let summary = "arithmetic on f8E4M3FN / f8E5M2 as integer and f32 arithmetic";
  let description = [{
    arith.extf from fp8 decodes the byte's fields; arith.truncf to fp8 rounds in f32 (to
    nearest even, or toward zero with `roundingmode`), saturating at the largest finite value
    as the GPU's satfinite conversions do, and encodes the fields (NaN: 0x7F); other arith and
    math ops on fp8 compute in f32 and round back; fp8 constants become i8 constants, bitcast.
    A tk.dot keeps its fp8 operands where the tensor cores multiply fp8 (compute capability 8.9
    and newer, K a multiple of 32); elsewhere they are widened to f16, exactly. What stays on
    fp8 is data movement and those dots, lowered on i8 (LegalizeFp8.cpp).
  }];
  let options = [
    Option<"computeCapability", "compute-capability", "unsigned", "80",
           "the target's compute capability times ten (fp8 tensor cores need 89)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TkAssignLayouts : Pass<"tk-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "gives every tensor a tkgpu layout (Triton's ConvertTritonToTritonGPU)";
  let description = [{
    A DialectConversion: tensors without a layout get one. Ops that make tensors from
    scalars or constants (`tk.make_range`, `tk.splat`, `arith.constant`) get the default
    blocked layout of their shape; elementwise ops keep their first tensor operand's layout,
    preferring one not made by those ops (other operands are converted to it); `tk.reduce`
    results are its operand's layout sliced along the axis; `tk.expand_dims` turns a slice
    along its axis back into the parent, and otherwise converts its operand to a slice of the
    default layout of its result; `tk.trans` permutes its operand's blocked layout;
    `tk.broadcast` gives the default layout of its result's shape (a blocked operand is
    converted to it before it is broadcast, while it is small; a slice is kept); `tk.join`
    and `tk.cat` take their first operand's blocked layout for both, and `tk.join` adds a last
    dimension of 2 held by each thread; `tk.split` gives the halves its operand's layout less
    that dimension, converting an operand whose pairs are not in one thread; `tk.reshape`
    that merges a last dimension each thread holds whole into the one before (an interleave)
    or splits the last dimension where each thread's run is whole runs of the new last one (a
    de-interleave) keeps every element in its thread, and other reshapes take the default
    layout of their result; `tk.dot` takes
    default blocked operands; `scf` values carried through loops and branches take the default
    layout of their shape.
    Sets `tkgpu.num_warps` and `tkgpu.threads_per_warp` on the module.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "4", "warps per program instance (CTA)">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkGPUDialect"];
}

def TkCoalesce : Pass<"tk-coalesce", "::mlir::ModuleOp"> {
  let summary = "vectorizes loads and stores: layouts with contiguous elements per thread";
  let description = [{
    For each tk.load / tk.store of a tensor whose addresses AxisInfo proves contiguous and
    aligned along their most contiguous dimension (AxisInfoResult::getVectorWidth, mask
    included): a blocked layout of its shape whose threads spread from that dimension, each
    holding the width's consecutive elements along it (at most 16 bytes, and only where each
    thread has that many elements). Each access gets its own layout: its operands are converted
    to it and a load's result converted back, and tk-remove-layout-conversions removes what it
    can of those conversions.
  }];
  let dependentDialects = ["::mlir::tkgpu::TkGPUDialect"];
}

def TkRemoveLayoutConversions : Pass<"tk-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "removes tkgpu.convert_layout ops where the IR can do without them";
  let description = [{
    Greedy rewrites: identity conversions go; chains fold into one conversion; ops without
    tensor operands (`tk.make_range`, `tk.splat`, `arith.constant`) are rebuilt in the layout
    they are converted to; a conversion of an elementwise op, `tk.broadcast` or
    `tk.expand_dims` is hoisted above the op when every operand can be had in the layout
    needed for free (in it already, converted from it, cheap, or made by such an op in turn, up
    to 8 ops up; an op with other users is rebuilt beside the original) (backward); an
    elementwise op whose tensor operands are all conversions from one layout is rebuilt in that
    layout, with one conversion after it, and so are `tk.trans`, `tk.join` and the in-register
    reshapes of tk-assign-layouts, in the layout that moves no data (forward); a conversion of
    a `tk.broadcast` is moved before it, onto the smaller tensor; a tensor carried by `scf.for` whose next
    value is computed from a conversion out of another layout is carried in that layout when
    the next value is then free in it (loop-carried). Not handled yet: see
    RemoveLayoutConversions.cpp.
  }];
  let dependentDialects = ["::mlir::tkgpu::TkGPUDialect"];
}

def TkAccelerateMatmul : Pass<"tk-accelerate-matmul", "::mlir::ModuleOp"> {
  let summary = "tensor-core layouts for tk.dot (Triton's AccelerateMatmul)";
  let description = [{
    Each tk.dot that mma.sync can compute (f16 and bf16 inputs, f32 inputs with tf32 or
    tf32x3 precision, i8 inputs with K a multiple of 32; sm_80 and newer) gets an
    `#tkgpu.mma` result and accumulator and `#tkgpu.dot_operand` operands, with
    tkgpu.convert_layout ops into those layouts and back to the result's blocked layout. The
    warp grid is chosen from the result's shape (AccelerateMatmul.cpp). With `wgmma` (sm_90a),
    the dots wgmma can compute become tkgpu.warp_group_dot with a version-3 `#tkgpu.mma`
    result and shared-memory operands (tkgpu.local_alloc of each). Other dots keep their
    blocked layouts (the FMA path).
  }];
  let options = [
    Option<"computeCapability", "compute-capability", "unsigned", "80",
           "the target's compute capability times ten (mma.sync needs 80)">,
    Option<"wgmma", "wgmma", "bool", "false",
           "the target has wgmma (sm_90a): dots it can compute become tkgpu.warp_group_dot">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkGPUDialect"];
}

def TkPipeline : Pass<"tk-pipeline", "::mlir::ModuleOp"> {
  let summary = "num_stages software pipelining of the loads that feed tensor-core dots";
  let description = [{
    In each scf.for whose body loads a tk.dot's tensor-core operands, the loads run
    num_stages - 1 iterations ahead as cp.async copies (tkgpu.async_copy_global_to_local)
    into a ring of num_stages or num_stages - 1 shared-memory tiles (tkgpu.local_alloc;
    the smaller when it lets more programs share a multiprocessor), and the dot reads its
    operands from there (tkgpu.local_load after tkgpu.async_wait). Pipeline.cpp states which
    loads qualify and the schedule. num-stages = 1 leaves every loop as it is.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", "3",
           "iterations of loads in flight or landed (the kernel's num_stages; 1: no pipelining)">,
    Option<"sharedPerMultiprocessor", "shared-per-sm", "unsigned", "233472",
           "shared memory of one multiprocessor of the GPU, in bytes (228 KiB: sm_90); it "
           "decides which ring a loop gets">,
    Option<"sharedPerBlock", "shared-per-block", "unsigned", "232448",
           "the most shared memory one block may have, in bytes (227 KiB: sm_90); a ring that "
           "needs more gets a tile less">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkGPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TKGPU_PASSES_TD

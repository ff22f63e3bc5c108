// Ops of the tkgpu dialect.

#ifndef TKGPU_OPS_TD
#define TKGPU_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "TkGPUDialect.td"
include "TkGPUTypes.td"
include "Dialect/Tk/IR/TkTypes.td"

// The kernel's shared memory, for the memory effects of the ops below.
def TkGPU_SharedMemory : Resource<"::mlir::tkgpu::SharedMemory">;

def TkGPU_ConvertLayoutOp : Op<TkGPU_Dialect, "convert_layout", [Pure]> {
  let summary = "the same tensor in another layout";
  let description = [{
    Moves a tensor's elements between threads (through shuffles or shared memory once
    lowered): same shape and element type, both operand and result with a layout.
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

// Shared-memory buffers and asynchronous copies into them (the ops software pipelining,
// tk-pipeline, builds its loops from).

def TkGPU_LocalAllocOp : Op<TkGPU_Dialect, "local_alloc",
    [MemoryEffects<[MemAlloc<TkGPU_SharedMemory>, MemWrite<TkGPU_SharedMemory>]>]> {
  let summary = "a buffer in shared memory";
  let description = [{
    Reserves a shared-memory buffer for the rest of its live range (its last use, through
    `tkgpu.memdesc_index` views included; to the end of a loop that uses it). Without `src`
    its contents start undefined; with `src` (a tensor of the tile's shape and element type,
    in a distributed layout) the buffer is a tile holding it, written by every thread between
    two barriers, and visible to wgmma (the async proxy) too. tk-allocate-shared-memory gives
    it its offset.
  }];
  let arguments = (ins Optional<AnyRankedTensor>:$src);
  let results = (outs TkGPU_MemDescType:$result);
  // `tkgpu.local_alloc : !tkgpu.memdesc<...>`, or with a value
  // `tkgpu.local_alloc %src : tensor<...> -> !tkgpu.memdesc<...>`.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TkGPU_MemDescIndexOp : Op<TkGPU_Dialect, "memdesc_index", [Pure]> {
  let summary = "slot `index` of a buffer of tiles";
  let description = [{
    A view of tile `index` (along the leading dimension) of a rank-3 buffer: the same memory,
    the leading dimension dropped. `index` must be in range.
  }];
  let arguments = (ins TkGPU_MemDescType:$src, I32:$index);
  let results = (outs TkGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TkGPU_AsyncCopyGlobalToLocalOp : Op<TkGPU_Dialect, "async_copy_global_to_local",
    [MemoryEffects<[MemRead, MemWrite<TkGPU_SharedMemory>]>]> {
  let summary = "starts copying a block of global memory into a shared-memory tile";
  let description = [{
    Each element of `ptr` (a tensor of pointers in a blocked layout) is copied to the same
    position of `dst`, asynchronously (`cp.async`): the copy joins the thread's current group
    of copies (`tkgpu.async_commit_group` closes it) and is visible only after
    `tkgpu.async_wait` has waited for its group. Where `mask` is false the element is zero
    and global memory is not read.
  }];
  let arguments = (ins RankedTensorOf<[Tk_PtrType]>:$ptr, TkGPU_MemDescType:$dst,
                       Optional<RankedTensorOf<[I1]>>:$mask);
  let assemblyFormat = [{
    $ptr `,` $dst (`mask` $mask^)? attr-dict `:` type($ptr) `->` qualified(type($dst))
    (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def TkGPU_AsyncCommitGroupOp : Op<TkGPU_Dialect, "async_commit_group"> {
  let summary = "closes the thread's current group of asynchronous copies";
  let description = [{
    The copies started since the last commit form one group (`cp.async.commit_group`); an
    empty group is allowed.
  }];
  let assemblyFormat = "attr-dict";
}

def TkGPU_AsyncWaitOp : Op<TkGPU_Dialect, "async_wait"> {
  let summary = "waits until at most `num` groups of copies are in flight, then syncs the CTA";
  let description = [{
    Waits for the thread's committed groups but the `num` most recent
    (`cp.async.wait_group num`), then for all threads of the CTA (`bar.sync`): the tiles those
    groups wrote are visible to every thread, and every thread is done with what it read
    before. With `async_proxy`, wgmma reads the tiles next: each thread makes its copies
    visible to the async proxy (`fence.proxy.async.shared::cta`) before the barrier.
  }];
  let arguments = (ins I32Attr:$num, UnitAttr:$async_proxy);
  let assemblyFormat = "$num attr-dict";
}

def TkGPU_BarrierOp : Op<TkGPU_Dialect, "barrier",
    [MemoryEffects<[MemRead<TkGPU_SharedMemory>, MemWrite<TkGPU_SharedMemory>]>]> {
  let summary = "waits for every thread of the CTA";
  let description = [{
    `bar.sync`: every thread is done with the shared memory it read or wrote before, so that
    a tile read by all threads can be overwritten (by copies into a ring slot, say).
  }];
  let assemblyFormat = "attr-dict";
}

def TkGPU_LocalLoadOp : Op<TkGPU_Dialect, "local_load",
    [MemoryEffects<[MemRead<TkGPU_SharedMemory>]>]> {
  let summary = "a shared-memory tile as a tensor in registers";
  let description = [{
    Reads a rank-2 tile into a tensor of the same shape and element type in a distributed
    layout. Lowered for `#tkgpu.dot_operand` results with `ldmatrix`.
  }];
  let arguments = (ins TkGPU_MemDescType:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

// Hopper's Tensor Memory Accelerator (TMA) copies into shared memory and the mbarriers that
// signal them, as tk-pipeline builds TMA rings from them. A barrier is a 1 x 1 i64 tile: a ring
// of them is a `!tkgpu.memdesc<S x 1 x 1 x i64, ...>`, one per slot.

def TkGPU_InitBarrierOp : Op<TkGPU_Dialect, "init_barrier",
    [MemoryEffects<[MemWrite<TkGPU_SharedMemory>]>]> {
  let summary = "initializes an mbarrier expecting `count` arrivals per phase";
  let description = [{
    One thread initializes the barrier (`mbarrier.init`, phase 0) and fences the
    initialization (`fence.mbarrier_init`). A `tkgpu.barrier` must follow before other
    threads use it.
  }];
  let arguments = (ins TkGPU_MemDescType:$barrier, I32Attr:$count);
  let assemblyFormat = "$barrier `,` $count attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TkGPU_InvalBarrierOp : Op<TkGPU_Dialect, "inval_barrier",
    [MemoryEffects<[MemWrite<TkGPU_SharedMemory>]>]> {
  let summary = "ends an mbarrier's life, so that its bytes may serve another purpose";
  let description = [{
    One thread invalidates the barrier (`mbarrier.inval`). No thread may wait on it any more:
    a `tkgpu.barrier` must come before.
  }];
  let arguments = (ins TkGPU_MemDescType:$barrier);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TkGPU_AsyncTMACopyGlobalToLocalOp : Op<TkGPU_Dialect, "async_tma_copy_global_to_local",
    [AttrSizedOperandSegments,
     MemoryEffects<[MemRead, MemWrite<TkGPU_SharedMemory>]>]> {
  let summary = "starts a TMA copy of a tensor-map block into a swizzled tile";
  let description = [{
    One thread arms `barrier` with one arrival and the tile's bytes
    (`mbarrier.arrive.expect_tx`) and has the Tensor Memory Accelerator copy the block of
    `desc` (a tensor-map argument of tk-tma-descriptors) that starts at `indices` into `dst`
    (`cp.async.bulk.tensor`), which completes those bytes on the barrier: the tile is visible
    to the threads that waited for the barrier's phase (`tkgpu.wait_barrier`). Elements
    outside the tensor are zero.

    The tile holds the rank-2 block row-major: its shape is the block's with order [1, 0],
    or the block transposed with order [0, 1] (the same bytes, viewed as the transpose). Its
    layout is a wgmma one (getWgmmaSharedEncoding): rows of 32, 64 or 128 bytes swizzled as
    the tensor map's swizzle mode does it, or wider rows in panels of 128 bytes, each panel
    copied as one box of the map. Where `pred` is false nothing is armed or copied.
  }];
  let arguments = (ins Tk_TensorDescType:$desc, Variadic<I32>:$indices,
                       TkGPU_MemDescType:$dst, TkGPU_MemDescType:$barrier,
                       Optional<I1>:$pred);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $dst `,` $barrier (`pred` $pred^)? attr-dict `:`
    qualified(type($desc)) `->` qualified(type($dst)) `,` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def TkGPU_WaitBarrierOp : Op<TkGPU_Dialect, "wait_barrier",
    [MemoryEffects<[MemRead<TkGPU_SharedMemory>, MemWrite<TkGPU_SharedMemory>]>]> {
  let summary = "waits until an mbarrier's phase of parity `phase` has completed";
  let description = [{
    Every thread waits (`mbarrier.try_wait.parity`) for the phase whose parity is `phase`
    (0 or 1: the phase count modulo 2) to complete. What the phase's copies wrote is then
    visible to the thread.
  }];
  let arguments = (ins TkGPU_MemDescType:$barrier, I32:$phase);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

// Hopper's warpgroup matrix products (wgmma).

def TkGPU_WarpGroupDotOp : Op<TkGPU_Dialect, "warp_group_dot",
    [MemoryEffects<[MemRead<TkGPU_SharedMemory>]>]> {
  let summary = "d = a b + c on the tensor cores of a warpgroup (wgmma.mma_async, sm_90a)";
  let description = [{
    The matrix product of tk.dot, as Hopper's tensor cores compute it: `c` and the result in
    a version-3 `#tkgpu.mma` layout, `b` a shared-memory tile (K x N) and `a` one too (M x K),
    or a tensor in the matching `#tkgpu.dot_operand` layout (registers). Each warpgroup
    computes its 64-row slices, one `wgmma.mma_async` per 64 x n piece and K step, reading
    the tiles through matrix descriptors (their layouts from getWgmmaSharedEncoding).
    With `is_async`, the product is only issued: its value may be used by another
    warp_group_dot as accumulator, and otherwise only after a `tkgpu.warp_group_dot_wait`
    has waited for it; the tiles must stay unchanged until then. Without it the op waits for
    its own product. With `max_num_imprecise_acc` (fp8 inputs, f32 accumulator), the product
    is computed in runs of that many K (rounded up to one instruction's 32) from zero, each
    run waited for and added to the accumulator in f32 (tk.dot's attribute).
  }];
  let arguments = (ins AnyTypeOf<[TkGPU_MemDescType, AnyRankedTensor]>:$a,
                       TkGPU_MemDescType:$b, AnyRankedTensor:$c,
                       DefaultValuedStrAttr<StrAttr, "tf32">:$input_precision,
                       UnitAttr:$is_async,
                       OptionalAttr<I32Attr>:$max_num_imprecise_acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,` type($c)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def TkGPU_WarpGroupDotWaitOp : Op<TkGPU_Dialect, "warp_group_dot_wait",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "waits until at most `pendings` groups of warpgroup products are in flight";
  let description = [{
    `wgmma.wait_group pendings`: every asynchronous tkgpu.warp_group_dot the warpgroup
    issued but the `pendings` most recent ones (each op issues one group) has completed. The
    results are the operands, usable from here on: an operand that is such a product must be
    one of the completed ones.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

#endif // TKGPU_OPS_TD

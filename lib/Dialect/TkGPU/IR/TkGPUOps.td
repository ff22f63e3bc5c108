// Ops of the tkgpu dialect.

#ifndef TKGPU_OPS_TD
#define TKGPU_OPS_TD

include "mlir/IR/OpBase.td"
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
    [MemoryEffects<[MemAlloc<TkGPU_SharedMemory>]>]> {
  let summary = "a buffer in shared memory";
  let description = [{
    Reserves a shared-memory buffer for the rest of its live range (its last use, through
    `tkgpu.memdesc_index` views included; to the end of a loop that uses it). Its contents
    start undefined. tk-allocate-shared-memory gives it its offset.
  }];
  let results = (outs TkGPU_MemDescType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
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
    before.
  }];
  let arguments = (ins I32Attr:$num);
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

#endif // TKGPU_OPS_TD

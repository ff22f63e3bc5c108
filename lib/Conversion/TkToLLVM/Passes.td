// The lowering of tk + tkgpu IR to the LLVM and NVVM dialects. Lit tests under
// tests/lit/Conversion/TkToLLVM/, one per op family (one .cpp each beside this file).

#ifndef TK_TO_LLVM_PASSES_TD
#define TK_TO_LLVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def TkAllocateSharedMemory : Pass<"tk-allocate-shared-memory", "::mlir::ModuleOp"> {
  let summary = "places every shared-memory buffer of the kernel (lib/Analysis/Allocation.h)";
  let description = [{
    Each op that exchanges values between threads through shared memory (reductions and scans
    across warps, layout conversions and views that move data, the FMA dot) gets the byte
    offset of its scratch as `tkgpu.shared_offset`; the module gets the bytes the kernel needs
    in all as `tkgpu.shared`. Buffers live at the same time do not overlap (first fit by size,
    16-byte aligned offsets); a scratch is live at its op only, so today every op's is at 0 and
    the total is the largest. More than a block of the target can have (`shared-per-block`) is
    an error at the op.
  }];
  let options = [
    Option<"sharedPerBlock", "shared-per-block", "unsigned", "232448",
           "the most shared memory one block may have, in bytes (227 KiB: sm_90)">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkGPUDialect"];
}

def TkToLLVM : Pass<"tk-to-llvm", "::mlir::ModuleOp"> {
  let summary = "lowers tk ops on tensors with tkgpu layouts to the LLVM and NVVM dialects";
  let description = [{
    A DialectConversion: a tensor in a distributed layout becomes an `!llvm.struct` of the
    elements the thread holds (Layout.h's getTotalElemsPerThread), `!tk.ptr<T>` becomes
    `!llvm.ptr<1>`; ops on tensors become one scalar op per element. The kernel (`func.func`)
    becomes an `llvm.func` with `nvvm.kernel` and `nvvm.maxntid` = num_warps * 32. Masked loads
    and stores become `scf.if`s around `llvm.load`/`llvm.store`; these and the kernel's own
    `scf.for` / `scf.if` / `scf.while` stay scf ops, their types converted, for the pipeline's
    convert-scf-to-cf, convert-cf-to-llvm and convert-arith-to-llvm. Loads and stores whose elements are contiguous in a thread (sizePerThread) and
    aligned (AxisInfo's vector width) become one vector access. Ops using shared memory take
    their offset from `tkgpu.shared_offset` (run tk-allocate-shared-memory first: an op without
    one is an error); the shared array is declared when the module's `tkgpu.shared` is not 0.
    While the patterns run, a result's struct is an `unrealized_conversion_cast` of its
    elements, which the ops reading it take apart for free; at the end the casts still read
    become `llvm.insertvalue` chains and the others go (`keep-unread` builds them too). Any other op (an unregistered
    one, a tensor `arith.constant` that is not a splat) stops the pass with an error naming it
    ("test.op is not lowered by tk-to-llvm").
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"keepUnread", "keep-unread", "bool", /*default=*/"false",
           "also build the structs of results nothing reads (for lit tests of single ops, "
           "whose results are unused); by default they are never built">,
    Option<"computeCapability", "compute-capability", "unsigned", /*default=*/"90",
           "the target's compute capability, for instructions that only some targets have "
           "(bf16 atomic add: 90)">
  ];
}

def TkSplitStructBlockArguments
    : Pass<"tk-split-struct-block-arguments", "::mlir::ModuleOp"> {
  let summary = "gives each member of an `!llvm.struct` block argument its own argument";
  let description = [{
    After convert-scf-to-cf and convert-cf-to-llvm, a tensor carried by a loop or yielded by an
    `scf.if` is one block argument of the struct tk-to-llvm made for it: a matmul's accumulator
    of 128 floats is one phi of a 128-member struct. NVPTX's instruction selection rebuilds
    every member's register copy for each `llvm.extractvalue` of such a value in another block.
    This pass replaces each block argument of a struct of scalars or vectors by one argument per
    member: the branches pass `llvm.extractvalue`s of what they passed (which canonicalize then
    folds against the `llvm.insertvalue` chain that built the struct), an `llvm.extractvalue` of
    the argument becomes the member's argument, and any other use gets the struct rebuilt from
    the members at the top of the block. The entry block, and blocks with a predecessor that is
    not a branch (`BranchOpInterface`), are left alone. The PTX is the same; the IR before it
    is smaller.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TK_TO_LLVM_PASSES_TD

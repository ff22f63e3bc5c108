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
    the total is the largest. More than a block can have (227 KB) is an error at the op.
  }];
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
    one is an error); the shared array is declared when the module's `tkgpu.shared` is not 0. Ops outside this slice stop the
    pass with an error naming the op ("tk.reduce is not lowered yet").
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TK_TO_LLVM_PASSES_TD

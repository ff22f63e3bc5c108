// The lowering of tk + tkgpu IR to the LLVM and NVVM dialects. Lit tests under
// tests/lit/Conversion/TkToLLVM/, one per op family (one .cpp each beside this file).

#ifndef TK_TO_LLVM_PASSES_TD
#define TK_TO_LLVM_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    aligned (AxisInfo's vector width) become one vector access. Ops outside this slice stop the
    pass with an error naming the op ("tk.reduce is not lowered yet").
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TK_TO_LLVM_PASSES_TD

/// @file PTXCodeGen.h
/// LLVM + NVVM dialect module to PTX.
///
/// The code generator's first half: an MLIR module in the LLVM and NVVM dialects, holding one
/// kernel (an llvm.func with the unit attribute nvvm.kernel), becomes LLVM IR, is linked with the
/// bitcode libraries its extern functions name and with libdevice when it calls __nv_*
/// functions, is optimized by a short LLVM pass pipeline and is
/// emitted as PTX by the NVPTX target. Errors are emitted as MLIR diagnostics on the module.
#ifndef TK_TARGET_PTXCODEGEN_H
#define TK_TARGET_PTXCODEGEN_H

#include "Target/Targets.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tk {

/// The module attribute naming the LLVM bitcode (or IR text) libraries to link: an array of
/// [library, symbol] string pairs, one per device function a tk.extern_elementwise calls from a
/// library (the lowering adds them). Code generation links each library's functions the kernel
/// calls, checks that each symbol got a definition, and removes the attribute.
inline constexpr llvm::StringLiteral kExternLibrariesAttr = "tk.extern_libraries";

struct PTXModule {
  std::string ptx;
  std::string kernelName;
  uint64_t sharedBytes = 0; // static shared memory (addrspace(3) globals)
  double translateMs = 0, optMs = 0, ptxMs = 0;
  std::string llvmIR; // the LLVM IR after optimization, when asked for (keepLLVMIR)
  std::string log;    // what TK_DEBUG shows: libdevice linked or not, ...
};

/// Registers what translateToPTX needs in a context: the LLVM and NVVM dialects and their
/// translations to LLVM IR.
void registerPTXCodeGenDialects(DialectRegistry &registry);

/// Translates `module` for `target`. A kernel without nvvm.maxntid / nvvm.reqntid gets
/// nvvm.maxntid = [threadsPerBlock, 1, 1]. With `fpFusion`, a multiply feeding an add may become
/// one fma (rounded once); without it, each is rounded on its own. The PTX is written for the
/// target's ISA, or for `minPtxVersion` (times ten) where that is higher: the ISA the module's
/// instructions need (fp8 mma.sync needs 8.4). With `keepLLVMIR`, the optimized LLVM IR's text
/// is kept in PTXModule::llvmIR.
FailureOr<PTXModule> translateToPTX(ModuleOp module, const GpuTarget &target,
                                    unsigned threadsPerBlock, bool fpFusion = true,
                                    unsigned minPtxVersion = 0, bool keepLLVMIR = false);

} // namespace mlir::tk

#endif // TK_TARGET_PTXCODEGEN_H

/// @file PtxasInfo.h
/// What ptxas -v (and nvJitLink -verbose) says a kernel uses.
///
/// The lines ptxas prints with -v, per function:
///   ptxas info    : Compiling entry function 'matmul' for 'sm_80'
///   ptxas info    : Function properties for matmul
///       1752 bytes stack frame, 2648 bytes spill stores, 2656 bytes spill loads
///   ptxas info    : Used 32 registers, used 1 barriers, 1752 bytes cumulative stack size, ...
/// nvJitLink's info log holds the same lines (the properties line prefixed with `ptxas .`),
/// then a summary of its own (`used 168 registers, ..., 0 bytes smem, ...`). Plain C++ with the
/// standard library only, so that a test can compile it on its own.
#ifndef TK_TARGET_PTXASINFO_H
#define TK_TARGET_PTXASINFO_H

#include <string_view>

namespace mlir::tk {

/// One kernel's resources; -1 for what the log does not say.
struct KernelResources {
  int registers = -1;         ///< per thread
  int spillStoreBytes = -1;   ///< per thread
  int spillLoadBytes = -1;    ///< per thread
  int stackBytes = -1;        ///< the stack frame per thread, spills included (local memory)
  int staticSharedBytes = -1; ///< `N bytes smem`: static shared memory (absent when 0)
};

/// The resources of `kernel` in `log` (ptxas -v's or nvJitLink -verbose's output), or of the
/// first entry function there when no function is named `kernel`. Lines it does not know are
/// skipped; all -1 when none is about a kernel.
KernelResources parsePtxasInfo(std::string_view log, std::string_view kernel);

} // namespace mlir::tk

#endif // TK_TARGET_PTXASINFO_H

//===- Cubin.h - PTX to cubin through nvJitLink or ptxas --------*- C++ -*-===//
//
// The code generator's second half. Tries ptxas as a subprocess, then nvJitLink (dlopen'ed);
// TK_NVJITLINK=1 tries nvJitLink first, TK_NVJITLINK=0 never. When neither works the caller
// hands PTX to the driver's JIT.
//
//===----------------------------------------------------------------------===//
#ifndef TK_TARGET_CUBIN_H
#define TK_TARGET_CUBIN_H

#include "Target/Targets.h"

#include <optional>
#include <string>

namespace mlir::tk {

struct Cubin {
  std::string bytes;
  std::string producer; // "nvJitLink" or "ptxas"
};

/// The cubin for `ptx`, or nothing; `log` says what was tried and why each failed.
std::optional<Cubin> compilePTXToCubin(const std::string &ptx, const GpuTarget &target,
                                       std::string &log);

} // namespace mlir::tk

#endif // TK_TARGET_CUBIN_H

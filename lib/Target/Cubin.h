/// @file Cubin.h
/// PTX to cubin through nvJitLink or ptxas.
///
/// The code generator's second half. Tries ptxas as a subprocess (at most TK_PTXAS_TIMEOUT
/// seconds), then nvJitLink (dlopen'ed); TK_NVJITLINK=1 tries nvJitLink first, TK_NVJITLINK=0
/// never. What either makes must be a cubin for the target (Target/CubinCheck.h), else
/// it counts as that producer's failure. Both run verbose, so that the cubin comes with what the
/// kernel uses (registers, spills: Target/PtxasInfo.h). When neither works the caller hands PTX to
/// the driver's JIT.
#ifndef TK_TARGET_CUBIN_H
#define TK_TARGET_CUBIN_H

#include "Target/Targets.h"

#include <optional>
#include <string>

namespace mlir::tk {

struct Cubin {
  std::string bytes;
  std::string producer; // "nvJitLink" or "ptxas"
  std::string info;     // ptxas -v's output, or nvJitLink's info log with -verbose (PtxasInfo.h)
};

/// The cubin for `ptx`, or nothing; `log` says what was tried and why each failed.
std::optional<Cubin> compilePTXToCubin(const std::string &ptx, const GpuTarget &target,
                                       std::string &log);

/// The first producer compilePTXToCubin would try that is there, for cache keys: "ptxas <path>
/// (<version line>; <size> bytes, modified <ns>)", "nvJitLink 13.0 (<library>)" or "driver JIT".
/// Found once per process and setting of TK_NVJITLINK, TK_PTXAS, CUDA_PATH and PATH; the text
/// lives as long as the process.
const char *cubinProducer();

} // namespace mlir::tk

#endif // TK_TARGET_CUBIN_H

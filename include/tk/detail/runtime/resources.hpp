/// @file resources.hpp
/// The one line that says what a compiled kernel uses of the GPU: logged by the runtime for each
/// kernel it loads (TK_DEBUG), printed by `tk-compile --resources` and kept in
/// tk::compiled_kernel. The standard library only: tools/tk-compile includes it too.
#pragma once

#include <string>
#include <string_view>

namespace tk::detail {

/// "tk: kernel 'matmul' for sm_90a: 255 registers, 400 bytes of local memory per thread (spills
/// or stack), 32768 bytes of shared memory, 256 threads\n". `lowering_target` other than
/// `target` is named; -1 registers or local bytes: unknown (no cubin), and said so.
inline std::string resource_line(std::string_view kernel, std::string_view target,
                                 std::string_view lowering_target, bool from_cache, int registers,
                                 int local_bytes, long long shared_bytes, int threads) {
  std::string line = "tk: kernel '" + std::string(kernel) + "' for " + std::string(target);
  if (!lowering_target.empty() && lowering_target != target)
    line += " (lowered for " + std::string(lowering_target) + ")";
  if (from_cache)
    line += " (from the disk cache)";
  line += ": ";
  if (registers < 0 || local_bytes < 0)
    line += "registers and local memory unknown (no cubin)";
  else
    line += std::to_string(registers) + " registers, " + std::to_string(local_bytes) +
            " bytes of local memory per thread" + (local_bytes > 0 ? " (spills or stack)" : "");
  return line + ", " + std::to_string(shared_bytes) + " bytes of shared memory, " +
         std::to_string(threads) + " threads\n";
}

} // namespace tk::detail

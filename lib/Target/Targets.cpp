/// @file Targets.cpp
/// The GPU targets the backend compiles for.
///
/// PTX ISA per target: each target's minimum (what LLVM 22 emits for it by default), raised to
/// 8.0 (CUDA 12.0, driver >= 525) so that later lowerings may rely on one ISA for sm_75..sm_90a.
/// All of these are accepted by CUDA 13.0's ptxas and nvJitLink (ISA <= 9.0). CUDA 13 dropped
/// sm_101 (renamed sm_110); sm_87/sm_88 (Jetson) are left out until someone needs them.
#include "Target/Targets.h"

namespace mlir::tk {

namespace {
constexpr GpuTarget kTargets[] = {
    {"sm_75", 80, 75, 64, 64},      {"sm_80", 80, 80, 164, 163},    {"sm_86", 80, 86, 100, 99},
    {"sm_89", 80, 89, 100, 99},     {"sm_90", 80, 90, 228, 227},    {"sm_90a", 80, 90, 228, 227},
    {"sm_100", 86, 100, 228, 227},  {"sm_100a", 86, 100, 228, 227}, {"sm_103a", 88, 103, 228, 227},
    {"sm_110a", 90, 110, 228, 227}, {"sm_120", 87, 120, 100, 99},   {"sm_120a", 87, 120, 100, 99},
    {"sm_121a", 88, 121, 100, 99},
};
} // namespace

const GpuTarget *lookupGpuTarget(llvm::StringRef name) {
  for (const GpuTarget &target : kTargets)
    if (target.name == name)
      return &target;
  return nullptr;
}

const char *gpuTargetNames() {
  return "sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_100a sm_103a sm_110a sm_120 sm_120a "
         "sm_121a";
}

} // namespace mlir::tk

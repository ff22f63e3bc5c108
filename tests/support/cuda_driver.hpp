/// @file cuda_driver.hpp
/// The CUDA driver for the GPU tests, loaded at run time (dlopen), so that the tests build
/// without one and skip (exit 77, "SKIPPED: <why>") where there is no GPU. Needs only cuda.h.
#pragma once

#include "tk/backend.h"

#include <cuda.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

namespace tk_test {

// cuda.h maps cuMemAlloc to cuMemAlloc_v2 &c.: decltype gives the versioned prototype and the
// string names the same version.
#define TK_TEST_DRIVER_FUNCTIONS(X)                                                                \
  X(cuInit, "cuInit")                                                                              \
  X(cuDeviceGet, "cuDeviceGet")                                                                    \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute")                                                  \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")                                          \
  X(cuCtxSetCurrent, "cuCtxSetCurrent")                                                            \
  X(cuCtxSynchronize, "cuCtxSynchronize")                                                          \
  X(cuModuleLoadData, "cuModuleLoadData")                                                          \
  X(cuModuleUnload, "cuModuleUnload")                                                              \
  X(cuModuleGetFunction, "cuModuleGetFunction")                                                    \
  X(cuFuncSetAttribute, "cuFuncSetAttribute")                                                      \
  X(cuLaunchKernel, "cuLaunchKernel")                                                              \
  X(cuMemAlloc, "cuMemAlloc_v2")                                                                   \
  X(cuMemFree, "cuMemFree_v2")                                                                     \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2")                                                               \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2")                                                               \
  X(cuMemsetD8, "cuMemsetD8_v2")                                                                   \
  X(cuMemcpyDtoD, "cuMemcpyDtoD_v2")                                                               \
  X(cuEventCreate, "cuEventCreate")                                                                \
  X(cuEventDestroy, "cuEventDestroy_v2")                                                           \
  X(cuEventRecord, "cuEventRecord")                                                                \
  X(cuEventSynchronize, "cuEventSynchronize")                                                      \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2")                                                   \
  X(cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled")

struct driver {
#define TK_TEST_DECLARE(function, name) decltype(&::function) function = nullptr;
  TK_TEST_DRIVER_FUNCTIONS(TK_TEST_DECLARE)
#undef TK_TEST_DECLARE
};

inline driver cu;

[[noreturn]] inline void skip(const std::string &why) {
  std::printf("SKIPPED: %s\n", why.c_str());
  std::exit(77);
}

inline void require(CUresult result, const char *what) {
  if (result != CUDA_SUCCESS) {
    std::printf("FAIL %s: CUresult %d\n", what, static_cast<int>(result));
    std::exit(1);
  }
}

/// Loads the driver, makes device 0's primary context current and returns its base target
/// ("sm_90"); skips without a driver, a GPU or a target the backend supports.
inline std::string init_driver() {
  void *libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!libcuda)
    skip("no CUDA driver (libcuda.so.1)");
#define TK_TEST_RESOLVE(function, name)                                                            \
  cu.function = reinterpret_cast<decltype(cu.function)>(dlsym(libcuda, name));                     \
  if (!cu.function)                                                                                \
    skip("the driver lacks " name);
  TK_TEST_DRIVER_FUNCTIONS(TK_TEST_RESOLVE)
#undef TK_TEST_RESOLVE
  CUdevice device;
  if (cu.cuInit(0) != CUDA_SUCCESS || cu.cuDeviceGet(&device, 0) != CUDA_SUCCESS)
    skip("no usable GPU");
  int major = 0, minor = 0;
  cu.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  cu.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  const std::string base = "sm_" + std::to_string(major * 10 + minor);
  const std::string supported = std::string(" ") + tk_backend_targets() + " ";
  if (supported.find(" " + base + " ") == std::string::npos)
    skip(base + " is not a backend target");
  CUcontext context;
  require(cu.cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  require(cu.cuCtxSetCurrent(context), "cuCtxSetCurrent");
  return base;
}

/// `base` with the architecture-specific suffix ("sm_90a") when the backend has that target.
inline std::string specific_target(const std::string &base) {
  const std::string supported = std::string(" ") + tk_backend_targets() + " ";
  return supported.find(" " + base + "a ") != std::string::npos ? base + "a" : base;
}

/// Host microseconds per call of `launch_once` (which launches without synchronizing), over
/// `launches` calls after `warmup` calls, the device idle at the start and synchronized after.
template <class F> double host_us_per_launch(F &&launch_once, int launches, int warmup) {
  for (int i = 0; i < warmup; ++i)
    launch_once();
  require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < launches; ++i)
    launch_once();
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      launches;
  require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
  return us;
}

} // namespace tk_test

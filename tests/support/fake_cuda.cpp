/// @file fake_cuda.cpp
/// A stand-in for libcuda.so.1, so that the runtime's driver layer (tk/detail/runtime/driver.hpp)
/// can be tested on machines without a GPU: it exports cuDriverGetVersion and cuGetProcAddress_v2
/// like the real driver and hands out fakes of the few functions the layer calls at load time and
/// for contexts, devices and pointers.
///
/// Environment variables, read on every call, choose how it misbehaves:
///   FAKE_CUDA_VERSION  what cuDriverGetVersion reports (default 12080)
///   FAKE_CUDA_VERSION_RESULT  the CUresult cuDriverGetVersion returns (default 0; the toolkit's
///                      stub library returns 34, CUDA_ERROR_STUB_LIBRARY)
///   FAKE_CUDA_MISSING  a function cuGetProcAddress_v2 reports as not found
///   FAKE_CUDA_INIT     the CUresult cuInit returns (default 0)
///   FAKE_CUDA_DEVICES  how many devices there are (default 2)
///   FAKE_CUDA_CC       the compute capability, "9.0" by default
///   FAKE_CUDA_REJECT_IMAGES  1: cuModuleLoadData rejects every image, as it rejects anything
///                      but an ELF file or PTX text otherwise (CUDA_ERROR_INVALID_IMAGE)
///   FAKE_CUDA_LOAD_RESULT  N: cuModuleLoadData fails with CUresult N (2: out of memory)
///   FAKE_CUDA_EVENT_US  how far the fake GPU clock moves at each cuEventRecord, in us
///                      (default 1000): consecutive records are that far apart
///   FAKE_CUDA_RECORD_RESULT, FAKE_CUDA_SYNC_RESULT, FAKE_CUDA_QUERY_RESULT,
///                      FAKE_CUDA_CAPTURE_RESULT  N: cuEventRecord, cuStreamSynchronize and
///                      cuCtxSynchronize, cuEventQuery, cuStreamEndCapture return CUresult N
/// fake_cuda_stat(name) reports what the event, stream, memset and graph fakes were asked for.
/// Device handles are ordinal + 100, so that mixing up ordinals and handles shows. Pointers
/// 0x1000, 0x2000 and 0x3000 are device, page-locked host and managed memory; the driver knows
/// no other address.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

using result = int;
struct context_object {
  int device;
};
context_object primary_contexts[8] = {{100}, {101}, {102}, {103}, {104}, {105}, {106}, {107}};
thread_local context_object *current = nullptr;
thread_local context_object *pushed = nullptr; // one level of push is enough here

int env_int(const char *name, int fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

result fake_cuInit(unsigned) { return env_int("FAKE_CUDA_INIT", 0); }
result fake_cuDeviceGetCount(int *count) {
  *count = env_int("FAKE_CUDA_DEVICES", 2);
  return 0;
}
result fake_cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal >= env_int("FAKE_CUDA_DEVICES", 2))
    return 101; // CUDA_ERROR_INVALID_DEVICE
  *device = ordinal + 100;
  return 0;
}
result fake_cuDeviceGetName(char *name, int length, int device) {
  const std::string text = "Fake GPU " + std::to_string(device - 100);
  std::strncpy(name, text.c_str(), static_cast<std::size_t>(length));
  return 0;
}
result fake_cuDeviceGetAttribute(int *value, int attribute, int device) {
  if (device < 100 || device >= 108)
    return 101; // CUDA_ERROR_INVALID_DEVICE
  const char *cc = std::getenv("FAKE_CUDA_CC");
  const std::string text = cc && *cc ? cc : "9.0";
  switch (attribute) {
  case 75: // COMPUTE_CAPABILITY_MAJOR
    *value = std::atoi(text.c_str());
    return 0;
  case 76: // COMPUTE_CAPABILITY_MINOR
    *value = std::atoi(text.c_str() + text.find('.') + 1);
    return 0;
  case 16: // MULTIPROCESSOR_COUNT
    *value = 132;
    return 0;
  case 8: // MAX_SHARED_MEMORY_PER_BLOCK
    *value = 49152;
    return 0;
  case 97: // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
    *value = 232448;
    return 0;
  case 38: // L2_CACHE_SIZE: 50 MiB, plus the device's ordinal, so that devices differ
    *value = 52428800 + (device - 100);
    return 0;
  default:
    return 1; // CUDA_ERROR_INVALID_VALUE
  }
}
result fake_cuCtxGetCurrent(context_object **ctx) {
  *ctx = current;
  return 0;
}
result fake_cuCtxSetCurrent(context_object *ctx) {
  current = ctx;
  return 0;
}
result fake_cuCtxGetDevice(int *device) {
  if (!current)
    return 201; // CUDA_ERROR_INVALID_CONTEXT
  *device = current->device;
  return 0;
}
result fake_cuCtxPushCurrent(context_object *ctx) {
  pushed = current;
  current = ctx;
  return 0;
}
result fake_cuCtxPopCurrent(context_object **ctx) {
  if (ctx)
    *ctx = current;
  current = pushed;
  pushed = nullptr;
  return 0;
}
result fake_cuDevicePrimaryCtxRetain(context_object **ctx, int device) {
  if (device < 100 || device >= 108)
    return 101; // CUDA_ERROR_INVALID_DEVICE
  *ctx = &primary_contexts[device - 100];
  return 0;
}
result fake_cuPointerGetAttribute(void *data, int attribute, unsigned long long ptr) {
  unsigned type = 0, managed = 0;
  switch (ptr) {
  case 0x1000:
    type = 2; // CU_MEMORYTYPE_DEVICE
    break;
  case 0x2000:
    type = 1; // CU_MEMORYTYPE_HOST
    break;
  case 0x3000:
    type = 2; // managed memory reports CU_MEMORYTYPE_DEVICE and IS_MANAGED
    managed = 1;
    break;
  case 0x4000:
    type = 1; // pageable host memory, as drivers with HMM report it: HOST, no device address
    break;
  default:
    return 1; // CUDA_ERROR_INVALID_VALUE
  }
  if (attribute == 3) { // CU_POINTER_ATTRIBUTE_DEVICE_POINTER: only registered memory has one
    if (ptr == 0x4000)
      return 1;
    *static_cast<unsigned long long *>(data) = ptr;
  } else if (attribute == 2) // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
    *static_cast<unsigned *>(data) = type;
  else if (attribute == 8) // CU_POINTER_ATTRIBUTE_IS_MANAGED
    *static_cast<unsigned *>(data) = managed;
  else
    return 1;
  return 0;
}
result fake_cuGetErrorName(result error, const char **text) {
  switch (error) {
  case 1:
    *text = "CUDA_ERROR_INVALID_VALUE";
    return 0;
  case 100:
    *text = "CUDA_ERROR_NO_DEVICE";
    return 0;
  case 200:
    *text = "CUDA_ERROR_INVALID_IMAGE";
    return 0;
  case 999:
    *text = "CUDA_ERROR_UNKNOWN";
    return 0;
  default:
    *text = nullptr;
    return 1;
  }
}
result fake_cuGetErrorString(result error, const char **text) {
  switch (error) {
  case 1:
    *text = "invalid argument";
    return 0;
  case 100:
    *text = "no CUDA-capable device is detected";
    return 0;
  case 200:
    *text = "device kernel image is invalid";
    return 0;
  case 999:
    *text = "unknown error";
    return 0;
  default:
    *text = nullptr;
    return 1;
  }
}
result fake_cuModuleLoadData(void **module, const void *image) {
  static int module_object;
  const char *bytes = static_cast<const char *>(image);
  const bool elf = std::strncmp(bytes, "\177ELF", 4) == 0;
  const bool ptx = std::strncmp(bytes, "//", 2) == 0 || std::strncmp(bytes, ".version", 8) == 0;
  if (env_int("FAKE_CUDA_REJECT_IMAGES", 0) || !(elf || ptx))
    return 200; // CUDA_ERROR_INVALID_IMAGE
  if (const int forced = env_int("FAKE_CUDA_LOAD_RESULT", 0))
    return forced;
  *module = &module_object;
  return 0;
}
result fake_cuModuleGetFunction(void **function, void *, const char *) {
  static int function_object;
  *function = &function_object;
  return 0;
}
result fake_cuModuleUnload(void *) { return 0; }
// A loaded function's registers (CU_FUNC_ATTRIBUTE_NUM_REGS, 4): 40; its local memory (3):
// FAKE_CUDA_LOCAL_BYTES, default 0.
result fake_cuFuncGetAttribute(int *value, int attribute, void *) {
  if (attribute != 3 && attribute != 4)
    return 999;
  *value = attribute == 4 ? 40 : env_int("FAKE_CUDA_LOCAL_BYTES", 0);
  return 0;
}
result fake_cuDeviceTotalMem(std::size_t *bytes, int device) {
  if (device < 100 || device >= 108)
    return 101; // CUDA_ERROR_INVALID_DEVICE
  *bytes = std::size_t{80} << 30;
  return 0;
}
// Events, streams, memsets and graphs (tests/unit/testing.cpp): no work runs; an event records
// the fake GPU clock, which every record moves on by FAKE_CUDA_EVENT_US.
struct event_object {
  double stamp;
  unsigned flags;
};
double gpu_clock_ms = 0;
struct {
  long long events_live, streams_live, graphs_live, execs_live, memsets, memset_words,
      graph_launches, captures;
} stats;
int stream_object, graph_object, exec_object;
result fake_cuEventCreate(event_object **e, unsigned flags) {
  *e = new event_object{0, flags};
  ++stats.events_live;
  return 0;
}
result fake_cuEventRecord(event_object *e, void *) {
  if (const int r = env_int("FAKE_CUDA_RECORD_RESULT", 0))
    return r;
  gpu_clock_ms += env_int("FAKE_CUDA_EVENT_US", 1000) / 1000.0;
  e->stamp = gpu_clock_ms;
  return 0;
}
result fake_cuEventSynchronize(event_object *) { return 0; }
result fake_cuEventQuery(event_object *) { return env_int("FAKE_CUDA_QUERY_RESULT", 0); }
result fake_cuEventElapsedTime(float *ms, event_object *start, event_object *end) {
  if ((start->flags | end->flags) & 2) // CU_EVENT_DISABLE_TIMING
    return 1;
  *ms = float(end->stamp - start->stamp);
  return 0;
}
result fake_cuEventDestroy(event_object *e) {
  delete e;
  --stats.events_live;
  return 0;
}
result fake_cuStreamWaitEvent(void *, event_object *, unsigned) { return 0; }
result fake_cuStreamCreate(void **s, unsigned) {
  *s = &stream_object;
  ++stats.streams_live;
  return 0;
}
result fake_cuStreamDestroy(void *) {
  --stats.streams_live;
  return 0;
}
result fake_cuStreamSynchronize(void *) { return env_int("FAKE_CUDA_SYNC_RESULT", 0); }
result fake_cuCtxSynchronize() { return env_int("FAKE_CUDA_SYNC_RESULT", 0); }
result fake_cuMemAlloc(unsigned long long *ptr, std::size_t) {
  *ptr = 0x10000000;
  return 0;
}
result fake_cuMemsetD32Async(unsigned long long, unsigned, std::size_t count, void *) {
  ++stats.memsets;
  stats.memset_words = static_cast<long long>(count);
  return 0;
}
result fake_cuStreamBeginCapture(void *, int) {
  ++stats.captures;
  return 0;
}
result fake_cuStreamEndCapture(void *, void **graph) {
  if (const int r = env_int("FAKE_CUDA_CAPTURE_RESULT", 0))
    return r;
  *graph = &graph_object;
  ++stats.graphs_live;
  return 0;
}
result fake_cuGraphInstantiateWithFlags(void **exec, void *, unsigned long long) {
  *exec = &exec_object;
  ++stats.execs_live;
  return 0;
}
result fake_cuGraphLaunch(void *, void *) {
  ++stats.graph_launches;
  return 0;
}
result fake_cuGraphExecDestroy(void *) {
  --stats.execs_live;
  return 0;
}
result fake_cuGraphDestroy(void *) {
  --stats.graphs_live;
  return 0;
}
result fake_unused() { return 999; } // CUDA_ERROR_UNKNOWN: not expected to be called

struct entry {
  const char *name;
  void *function;
};

template <class F> void *address(F *f) { return reinterpret_cast<void *>(f); }

const entry entries[] = {
    {"cuInit", address(fake_cuInit)},
    {"cuDeviceGet", address(fake_cuDeviceGet)},
    {"cuDeviceGetCount", address(fake_cuDeviceGetCount)},
    {"cuDeviceGetAttribute", address(fake_cuDeviceGetAttribute)},
    {"cuDeviceGetName", address(fake_cuDeviceGetName)},
    {"cuCtxGetCurrent", address(fake_cuCtxGetCurrent)},
    {"cuCtxSetCurrent", address(fake_cuCtxSetCurrent)},
    {"cuCtxGetDevice", address(fake_cuCtxGetDevice)},
    {"cuCtxPushCurrent", address(fake_cuCtxPushCurrent)},
    {"cuCtxPopCurrent", address(fake_cuCtxPopCurrent)},
    {"cuDevicePrimaryCtxRetain", address(fake_cuDevicePrimaryCtxRetain)},
    {"cuPointerGetAttribute", address(fake_cuPointerGetAttribute)},
    {"cuGetErrorName", address(fake_cuGetErrorName)},
    {"cuGetErrorString", address(fake_cuGetErrorString)},
    {"cuModuleLoadData", address(fake_cuModuleLoadData)},
    {"cuModuleUnload", address(fake_cuModuleUnload)},
    {"cuModuleGetFunction", address(fake_cuModuleGetFunction)},
    {"cuFuncSetAttribute", address(fake_unused)},
    {"cuFuncGetAttribute", address(fake_cuFuncGetAttribute)},
    {"cuLaunchKernel", address(fake_unused)},
    {"cuEventCreate", address(fake_cuEventCreate)},
    {"cuEventRecord", address(fake_cuEventRecord)},
    {"cuEventSynchronize", address(fake_cuEventSynchronize)},
    {"cuEventElapsedTime", address(fake_cuEventElapsedTime)},
    {"cuEventDestroy", address(fake_cuEventDestroy)},
    {"cuStreamSynchronize", address(fake_cuStreamSynchronize)},
    {"cuMemAlloc", address(fake_cuMemAlloc)},
    {"cuMemFree", address(fake_unused)},
    {"cuMemcpyHtoD", address(fake_unused)},
    {"cuMemcpyDtoH", address(fake_unused)},
    {"cuMemsetD8", address(fake_unused)},
    {"cuEventQuery", address(fake_cuEventQuery)},
    {"cuStreamWaitEvent", address(fake_cuStreamWaitEvent)},
    {"cuStreamCreate", address(fake_cuStreamCreate)},
    {"cuStreamDestroy", address(fake_cuStreamDestroy)},
    {"cuCtxSynchronize", address(fake_cuCtxSynchronize)},
    {"cuDeviceTotalMem", address(fake_cuDeviceTotalMem)},
    {"cuMemGetInfo", address(fake_unused)},
    {"cuMemsetD32Async", address(fake_cuMemsetD32Async)},
    {"cuStreamBeginCapture", address(fake_cuStreamBeginCapture)},
    {"cuStreamEndCapture", address(fake_cuStreamEndCapture)},
    {"cuGraphInstantiateWithFlags", address(fake_cuGraphInstantiateWithFlags)},
    {"cuGraphLaunch", address(fake_cuGraphLaunch)},
    {"cuGraphExecDestroy", address(fake_cuGraphExecDestroy)},
    {"cuGraphDestroy", address(fake_cuGraphDestroy)},
};

} // namespace

extern "C" __attribute__((visibility("default"))) result cuDriverGetVersion(int *version) {
  *version = env_int("FAKE_CUDA_VERSION", 12080);
  return env_int("FAKE_CUDA_VERSION_RESULT", 0);
}

extern "C" __attribute__((visibility("default"))) result cuGetProcAddress_v2(
    const char *symbol, void **pfn, int cuda_version, std::uint64_t flags, int *status) {
  *pfn = nullptr;
  // The runtime must ask for the CUDA 12.0 entry points with default flags.
  if (cuda_version != 12000 || flags != 0)
    return 1; // CUDA_ERROR_INVALID_VALUE
  const char *missing = std::getenv("FAKE_CUDA_MISSING");
  for (const entry &e : entries)
    if (std::strcmp(e.name, symbol) == 0 && !(missing && std::strcmp(missing, symbol) == 0)) {
      *pfn = e.function;
      if (status)
        *status = 0; // CU_GET_PROC_ADDRESS_SUCCESS
      return 0;
    }
  if (status)
    *status = 1; // CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND
  return 500;    // CUDA_ERROR_NOT_FOUND
}

/// What the event, stream, memset and graph fakes were asked for: "events_live", "streams_live",
/// "graphs_live", "execs_live" (created and not destroyed), "memsets", "memset_words" (the last
/// one's count), "graph_launches", "captures"; -1 for another name.
extern "C" __attribute__((visibility("default"))) long long fake_cuda_stat(const char *name) {
  const struct {
    const char *name;
    long long value;
  } all[] = {{"events_live", stats.events_live},
             {"streams_live", stats.streams_live},
             {"graphs_live", stats.graphs_live},
             {"execs_live", stats.execs_live},
             {"memsets", stats.memsets},
             {"memset_words", stats.memset_words},
             {"graph_launches", stats.graph_launches},
             {"captures", stats.captures}};
  for (const auto &s : all)
    if (std::strcmp(s.name, name) == 0)
      return s.value;
  return -1;
}

/// @file driver.hpp
/// The CUDA driver, loaded at run time (libcuda.so.1, nvcuda.dll) instead of linked: a program
/// built with TileKit starts, and interprets kernels, on a machine without an NVIDIA driver, and
/// building it needs no CUDA toolkit.
///
/// cuda.h is not included. The handle types are the same incomplete structs cuda.h and the CUDA
/// runtime use (`CUstream` and `cudaStream_t` are both `CUstream_st *`), so the user's handles
/// convert to ours without casts and a translation unit may include cuda.h as well; everything
/// else lives in tk::detail::cu under names of our own, with the numeric values of cuda.h (CUDA
/// 13.0), whose ABI NVIDIA keeps stable.
///
/// Every function but the first two is resolved through cuGetProcAddress with an explicit CUDA
/// version (12.0), not by symbol name: cuda.h renames calls between releases (`cuMemAlloc` →
/// `cuMemAlloc_v2`, `cuEventElapsedTime` → `cuEventElapsedTime_v2` in CUDA 13), and asking for the
/// 12.0 entry points gives the signatures declared here on every driver from 12.0 on.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/runtime/os.hpp>
#include <tk/detail/trace/ownership.hpp>
#include <tk/error.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <source_location>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// cuda.h's handle types (`typedef struct CUctx_st *CUcontext;` ...), declared the same way.
struct CUctx_st;
struct CUstream_st;
struct CUmod_st;
struct CUfunc_st;
struct CUevent_st;
struct CUgraph_st;
struct CUgraphExec_st;

// The driver's calling convention (cuda.h's CUDAAPI); #undef'd at the end of this file.
#ifdef _WIN32
#define TK_DETAIL_CUDAAPI __stdcall
#else
#define TK_DETAIL_CUDAAPI
#endif

namespace tk::detail::cu {

static_assert(sizeof(void *) == 8, "TileKit's GPU runtime needs a 64-bit process");

using result = int;                    ///< CUresult (an enum of int size)
using device_handle = int;             ///< CUdevice (cuda.h: `typedef int CUdevice_v1`)
using deviceptr = unsigned long long;  ///< CUdeviceptr on 64-bit hosts (CUdeviceptr_v2)
using context = ::CUctx_st *;          ///< CUcontext
using stream = ::CUstream_st *;        ///< CUstream, cudaStream_t
using module_handle = ::CUmod_st *;    ///< CUmodule
using function_handle = ::CUfunc_st *; ///< CUfunction
using event = ::CUevent_st *;          ///< CUevent
using graph = ::CUgraph_st *;          ///< CUgraph
using graph_exec = ::CUgraphExec_st *; ///< CUgraphExec
using uint64 = std::uint64_t;          ///< cuuint64_t

// CUresult values (cuda.h, enum cudaError_enum).
inline constexpr result success = 0;                         // CUDA_SUCCESS
inline constexpr result error_invalid_value = 1;             // CUDA_ERROR_INVALID_VALUE
inline constexpr result error_not_initialized = 3;           // CUDA_ERROR_NOT_INITIALIZED
inline constexpr result error_stub_library = 34;             // CUDA_ERROR_STUB_LIBRARY
inline constexpr result error_no_device = 100;               // CUDA_ERROR_NO_DEVICE
inline constexpr result error_invalid_image = 200;           // CUDA_ERROR_INVALID_IMAGE
inline constexpr result error_invalid_context = 201;         // CUDA_ERROR_INVALID_CONTEXT
inline constexpr result error_no_binary_for_gpu = 209;       // CUDA_ERROR_NO_BINARY_FOR_GPU
inline constexpr result error_invalid_ptx = 218;             // CUDA_ERROR_INVALID_PTX
inline constexpr result error_unsupported_ptx_version = 222; // CUDA_ERROR_UNSUPPORTED_PTX_VERSION
inline constexpr result error_not_found = 500;               // CUDA_ERROR_NOT_FOUND
inline constexpr result error_assert = 710;                  // CUDA_ERROR_ASSERT

// CUdevice_attribute values (cuda.h, enum CUdevice_attribute_enum).
inline constexpr int attribute_max_shared_memory_per_block = 8;        // ..._PER_BLOCK
inline constexpr int attribute_multiprocessor_count = 16;              // ..._MULTIPROCESSOR_COUNT
inline constexpr int attribute_compute_capability_major = 75;          // ..._MAJOR
inline constexpr int attribute_compute_capability_minor = 76;          // ..._MINOR
inline constexpr int attribute_max_shared_memory_per_block_optin = 97; // ..._PER_BLOCK_OPTIN
inline constexpr int attribute_warp_size = 10;                         // ..._WARP_SIZE
inline constexpr int attribute_clock_rate = 13;                        // ..._CLOCK_RATE (kHz)
inline constexpr int attribute_memory_clock_rate = 36;                 // ..._MEMORY_CLOCK_RATE
inline constexpr int attribute_global_memory_bus_width = 37;           // ..._BUS_WIDTH (bits)
inline constexpr int attribute_l2_cache_size = 38;                     // ..._L2_CACHE_SIZE
inline constexpr int attribute_max_registers_per_multiprocessor = 82;  // ..._PER_MULTIPROCESSOR
inline constexpr int attribute_max_shared_memory_per_multiprocessor = 81; // ..._PER_MULTIPROC...
inline constexpr int attribute_pci_bus_id = 33;                           // ..._PCI_BUS_ID
inline constexpr int attribute_pci_device_id = 34;                        // ..._PCI_DEVICE_ID

// CUfunction_attribute values (cuda.h, enum CUfunction_attribute_enum).
inline constexpr int function_max_threads_per_block = 0;         // ..._MAX_THREADS_PER_BLOCK
inline constexpr int function_shared_size_bytes = 1;             // ..._SHARED_SIZE_BYTES
inline constexpr int function_local_size_bytes = 3;              // ..._LOCAL_SIZE_BYTES
inline constexpr int function_num_regs = 4;                      // ..._NUM_REGS
inline constexpr int function_max_dynamic_shared_size_bytes = 8; // ..._MAX_DYNAMIC_SHARED_...

// CUpointer_attribute values (cuda.h, enum CUpointer_attribute_enum).
inline constexpr int pointer_attribute_device_pointer = 3; // CU_POINTER_ATTRIBUTE_DEVICE_POINTER
inline constexpr int pointer_attribute_memory_type = 2;    // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
inline constexpr int pointer_attribute_is_managed = 8;     // CU_POINTER_ATTRIBUTE_IS_MANAGED

// CUmemorytype values (cuda.h, enum CUmemorytype_enum).
inline constexpr unsigned memory_type_host = 1;    // CU_MEMORYTYPE_HOST
inline constexpr unsigned memory_type_device = 2;  // CU_MEMORYTYPE_DEVICE
inline constexpr unsigned memory_type_array = 3;   // CU_MEMORYTYPE_ARRAY
inline constexpr unsigned memory_type_unified = 4; // CU_MEMORYTYPE_UNIFIED

// CUevent_flags values (cuda.h, enum CUevent_flags_enum).
inline constexpr unsigned event_default = 0;        // CU_EVENT_DEFAULT
inline constexpr unsigned event_disable_timing = 2; // CU_EVENT_DISABLE_TIMING

// CUstream_flags and CUstreamCaptureMode values (cuda.h).
inline constexpr unsigned stream_non_blocking = 1;         // CU_STREAM_NON_BLOCKING
inline constexpr int stream_capture_mode_thread_local = 1; // CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
inline constexpr result error_not_ready = 600;             // CUDA_ERROR_NOT_READY

// cuGetProcAddress (cuda.h, enums CUdriverProcAddress_flags, CUdriverProcAddressQueryResult).
inline constexpr uint64 get_proc_address_default = 0; // CU_GET_PROC_ADDRESS_DEFAULT
inline constexpr int get_proc_address_success = 0;    // CU_GET_PROC_ADDRESS_SUCCESS

/// The CUDA version whose entry points are requested, and the oldest driver accepted: 12.0
/// (driver R525) is the first with cuGetProcAddress_v2. Asking for the same version everywhere
/// keeps the signatures here right on newer drivers, which still serve 12.0's entry points.
inline constexpr int required_version = 12000;

/// The driver's library on this platform.
inline constexpr const char *default_library =
#ifdef _WIN32
    "nvcuda.dll";
#else
    "libcuda.so.1";
#endif

/// What kind of memory an address points to, as far as the driver knows.
enum class pointer_kind {
  device,          ///< device memory (cuMemAlloc, cudaMalloc, a memory pool)
  host_registered, ///< page-locked host memory mapped for the device (cuMemHostAlloc, registered)
  managed,         ///< managed (unified) memory
  host,            ///< memory the driver does not know: a plain host pointer
};

/// Whether a kernel may dereference memory of this kind.
inline constexpr bool usable_on_device(pointer_kind k) { return k != pointer_kind::host; }

/// A GPU as TileKit sees it.
struct device_info {
  int ordinal = 0;                 ///< its index among the devices the process sees
  device_handle handle = 0;        ///< its CUdevice
  std::string name;                ///< "NVIDIA H100 80GB HBM3"
  int major = 0;                   ///< compute capability
  int minor = 0;                   ///<
  std::string target;              ///< the backend's target: "sm_90a", "sm_86"
  int max_shared_bytes = 0;        ///< shared memory per block without opting in (48 KiB)
  int max_shared_bytes_optin = 0;  ///< shared memory per block with opting in (the limit)
  int sm_count = 0;                ///< streaming multiprocessors
  std::size_t total_memory = 0;    ///< bytes of device memory
  int l2_cache_bytes = 0;          ///<
  int warp_size = 32;              ///<
  int clock_khz = 0;               ///< the SM clock's peak
  int memory_clock_khz = 0;        ///< the memory clock's peak
  int memory_bus_bits = 0;         ///< the memory bus width
  int max_shared_bytes_per_sm = 0; ///<
  int max_registers_per_sm = 0;    ///<
  int pci_bus = 0;                 ///<
  int pci_device = 0;              ///<
};

/// The compute capabilities TileKit compiles for start here.
inline constexpr int minimum_compute_capability = 75;

/// The targets the backend library offers ("sm_75 sm_80 ... sm_90a"); loads it (get_backend)
/// on the first call. What a driver asks by default for device_info::target: the choice of
/// target belongs to the backend, which the driver layer does not otherwise need.
TK_DECL const char *loaded_backend_targets(std::source_location where);

/// The backend target for compute capability `major`.`minor`, given the backend's targets
/// (space-separated): "sm_XYa" where the backend has it, since the architecture-specific target
/// unlocks wgmma, TMA and the like and the kernel runs on exactly this GPU anyway; else "sm_XY";
/// empty when the backend has neither.
TK_DECL std::string target_name(int major, int minor, std::string_view backend_targets);

/// The hint closing every "cannot use the GPU" message.
inline constexpr const char *interpreter_hint =
    "run on the CPU interpreter with TK_INTERPRET=1 or launch_options{.backend = "
    "tk::backend::interpreter}";

/// CUlaunchAttribute: an attribute id, padding to 8 bytes, then a 64-byte union of values.
struct launch_attribute {
  int id = 0;
  char pad[4] = {};
  union {
    char bytes[64];
    int programmatic_stream_serialization_allowed; ///< ..._PROGRAMMATIC_STREAM_SERIALIZATION
    void *align;
  } value = {};
};
static_assert(sizeof(launch_attribute) == 72, "CUlaunchAttribute is 72 bytes");

/// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION (cuda.h, enum CUlaunchAttributeID_enum).
inline constexpr int launch_attribute_programmatic_stream_serialization = 6;

/// CUlaunchConfig: the grid, block, dynamic shared memory and stream of a launch, and its
/// attributes.
struct launch_config {
  unsigned grid_x, grid_y, grid_z;
  unsigned block_x, block_y, block_z;
  unsigned shared_bytes;
  stream s;
  launch_attribute *attributes;
  unsigned attribute_count;
};

/// The loaded driver: its function table and what the runtime caches about it. Loaded once per
/// process by get_driver(); `load` exists so that tests can load a stand-in.
class driver {
public:
  // The function table, each an entry point of CUDA 12.0 (see the file comment). Names are our
  // own: cuda.h #defines most cu* names to versioned ones, which would rename members here.
  result(TK_DETAIL_CUDAAPI *init)(unsigned flags) = nullptr;
  result(TK_DETAIL_CUDAAPI *driver_get_version)(int *version) = nullptr;
  result(TK_DETAIL_CUDAAPI *get_proc_address)(const char *symbol, void **pfn, int cuda_version,
                                              uint64 flags, int *symbol_status) = nullptr;
  result(TK_DETAIL_CUDAAPI *device_get)(device_handle *dev, int ordinal) = nullptr;
  result(TK_DETAIL_CUDAAPI *device_get_count)(int *count) = nullptr;
  result(TK_DETAIL_CUDAAPI *device_get_attribute)(int *value, int attribute,
                                                  device_handle dev) = nullptr;
  result(TK_DETAIL_CUDAAPI *device_get_name)(char *name, int length, device_handle dev) = nullptr;
  result(TK_DETAIL_CUDAAPI *ctx_get_current)(context *ctx) = nullptr;
  result(TK_DETAIL_CUDAAPI *ctx_set_current)(context ctx) = nullptr;
  result(TK_DETAIL_CUDAAPI *ctx_get_device)(device_handle *dev) = nullptr;
  result(TK_DETAIL_CUDAAPI *ctx_push_current)(context ctx) = nullptr;
  result(TK_DETAIL_CUDAAPI *ctx_pop_current)(context *ctx) = nullptr;
  result(TK_DETAIL_CUDAAPI *device_primary_ctx_retain)(context *ctx, device_handle dev) = nullptr;
  result(TK_DETAIL_CUDAAPI *module_load_data)(module_handle *mod, const void *image) = nullptr;
  result(TK_DETAIL_CUDAAPI *module_unload)(module_handle mod) = nullptr;
  result(TK_DETAIL_CUDAAPI *module_get_function)(function_handle *fn, module_handle mod,
                                                 const char *name) = nullptr;
  result(TK_DETAIL_CUDAAPI *func_set_attribute)(function_handle fn, int attribute,
                                                int value) = nullptr;
  result(TK_DETAIL_CUDAAPI *func_get_attribute)(int *value, int attribute,
                                                function_handle fn) = nullptr;
  result(TK_DETAIL_CUDAAPI *launch_kernel)(function_handle fn, unsigned grid_x, unsigned grid_y,
                                           unsigned grid_z, unsigned block_x, unsigned block_y,
                                           unsigned block_z, unsigned shared_bytes, stream s,
                                           void **params, void **extra) = nullptr;
  result(TK_DETAIL_CUDAAPI *pointer_get_attribute)(void *data, int attribute,
                                                   deviceptr ptr) = nullptr;
  result(TK_DETAIL_CUDAAPI *get_error_name)(result error, const char **text) = nullptr;
  result(TK_DETAIL_CUDAAPI *get_error_string)(result error, const char **text) = nullptr;
  result(TK_DETAIL_CUDAAPI *event_create)(event *e, unsigned flags) = nullptr;
  result(TK_DETAIL_CUDAAPI *event_record)(event e, stream s) = nullptr;
  result(TK_DETAIL_CUDAAPI *event_synchronize)(event e) = nullptr;
  result(TK_DETAIL_CUDAAPI *event_elapsed_time)(float *ms, event start, event end) = nullptr;
  result(TK_DETAIL_CUDAAPI *event_destroy)(event e) = nullptr;
  result(TK_DETAIL_CUDAAPI *stream_synchronize)(stream s) = nullptr;
  result(TK_DETAIL_CUDAAPI *event_query)(event e) = nullptr;
  result(TK_DETAIL_CUDAAPI *stream_wait_event)(stream s, event e, unsigned flags) = nullptr;
  result(TK_DETAIL_CUDAAPI *stream_create)(stream *s, unsigned flags) = nullptr;
  result(TK_DETAIL_CUDAAPI *stream_destroy)(stream s) = nullptr;
  result(TK_DETAIL_CUDAAPI *ctx_synchronize)() = nullptr;
  result(TK_DETAIL_CUDAAPI *device_total_mem)(std::size_t *bytes, device_handle dev) = nullptr;
  result(TK_DETAIL_CUDAAPI *mem_get_info)(std::size_t *free, std::size_t *total) = nullptr;
  result(TK_DETAIL_CUDAAPI *memset_d32_async)(deviceptr dst, unsigned value, std::size_t count,
                                              stream s) = nullptr;
  result(TK_DETAIL_CUDAAPI *mem_alloc)(deviceptr *ptr, std::size_t bytes) = nullptr;
  result(TK_DETAIL_CUDAAPI *mem_free)(deviceptr ptr) = nullptr;
  result(TK_DETAIL_CUDAAPI *memcpy_htod)(deviceptr dst, const void *src,
                                         std::size_t bytes) = nullptr;
  result(TK_DETAIL_CUDAAPI *memcpy_dtoh)(void *dst, deviceptr src, std::size_t bytes) = nullptr;
  result(TK_DETAIL_CUDAAPI *memset_d8)(deviceptr dst, unsigned char value,
                                       std::size_t count) = nullptr;
  /// For device asserts (detail/runtime/asserts.hpp); null where the driver lacks them, and
  /// then a failed assert is reported without its message.
  result(TK_DETAIL_CUDAAPI *module_get_global)(deviceptr *ptr, std::size_t *bytes,
                                               module_handle mod, const char *name) = nullptr;
  result(TK_DETAIL_CUDAAPI *mem_host_alloc)(void **ptr, std::size_t bytes,
                                            unsigned flags) = nullptr;
  result(TK_DETAIL_CUDAAPI *mem_host_get_device_pointer)(deviceptr *ptr, void *host,
                                                         unsigned flags) = nullptr;
  /// CUDA graphs (stream capture, instantiate, launch), for timing and autotuning short
  /// kernels; null where the driver lacks them.
  result(TK_DETAIL_CUDAAPI *stream_begin_capture)(stream s, int mode) = nullptr;
  result(TK_DETAIL_CUDAAPI *stream_end_capture)(stream s, graph *g) = nullptr;
  result(TK_DETAIL_CUDAAPI *graph_instantiate)(graph_exec *exec, graph g,
                                               unsigned long long flags) = nullptr;
  result(TK_DETAIL_CUDAAPI *graph_launch)(graph_exec exec, stream s) = nullptr;
  result(TK_DETAIL_CUDAAPI *graph_exec_destroy)(graph_exec exec) = nullptr;
  result(TK_DETAIL_CUDAAPI *graph_destroy)(graph g) = nullptr;
  /// cuTensorMapEncodeTiled (CUDA 12.0: the enums as ints, the map as 128 bytes); null where the
  /// driver lacks it, and then kernels are compiled without tensor maps.
  result(TK_DETAIL_CUDAAPI *tensor_map_encode_tiled)(
      void *map, int data_type, unsigned rank, void *address, const std::uint64_t *dims,
      const std::uint64_t *strides, const std::uint32_t *box, const std::uint32_t *element_strides,
      int interleave, int swizzle, int l2_promotion, int oob_fill) = nullptr;

  /// cuLaunchKernelEx, for launches with attributes (launch_options::launch_pdl); null where the
  /// driver lacks it, and then such launches go through cuLaunchKernel without the attributes.
  result(TK_DETAIL_CUDAAPI *launch_kernel_ex)(const launch_config *config, function_handle fn,
                                              void **params, void **extra) = nullptr;

  int version = 0;      ///< cuDriverGetVersion: 12080 for CUDA 12.8
  int device_count = 0; ///< at least 1
  std::string library;  ///< the file it was loaded from

  /// The targets the backend offers, for device_info::target; the loaded backend's by default.
  const char *(*backend_targets)(std::source_location where) = loaded_backend_targets;

  driver() = default;
  driver(const driver &) = delete;
  driver &operator=(const driver &) = delete;

  /// Loads the driver from `library`, initializes it and checks that it can run kernels: a
  /// CUDA 12.0+ driver that sees at least one GPU. Throws tk::error at `where` saying what is
  /// missing and how to fix it. The library is never unloaded (kernels and contexts live in it).
  static owned<driver> load(const std::string &library,
                            std::source_location where = std::source_location::current());

  /// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" for `r`.
  std::string describe(result r) const;

  /// Throws tk::error at `where` unless `r` is success: "<what> failed: CUDA_ERROR_... (...)".
  void check(result r, const char *what,
             std::source_location where = std::source_location::current()) const;

  /// The context to launch in: the calling thread's current one when there is one (so that
  /// TileKit shares memory, streams and modules with the CUDA runtime and other libraries), else
  /// device 0's primary context (the CUDA runtime's too), which becomes current for this thread.
  context launch_context(std::source_location where = std::source_location::current()) const;

  /// The primary context of device `ordinal` (the CUDA runtime's for that device), retained
  /// once for the life of the process. It is not made current. Throws tk::error at `where` for
  /// an ordinal the driver does not have.
  context device_context(int ordinal,
                         std::source_location where = std::source_location::current()) const;

  /// The calling thread's current context, null when it has none.
  context current_context(std::source_location where = std::source_location::current()) const;

  /// The GPU of device ordinal `ordinal`, queried once. Throws tk::error for a GPU that TileKit
  /// cannot compile for.
  const device_info &device_at(int ordinal,
                               std::source_location where = std::source_location::current()) const;

  /// The GPU that context `ctx` belongs to.
  const device_info &device_of(context ctx,
                               std::source_location where = std::source_location::current()) const;

  /// What `ptr` points to. Needs a current context (launch_context) when the driver knows the
  /// pointer; a plain host pointer is `host` whatever the context.
  pointer_kind kind_of(deviceptr ptr,
                       std::source_location where = std::source_location::current()) const;

  /// "12.8" for 12080.
  static std::string version_text(int v) {
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  }

private:
  struct device_slot {
    device_handle handle = 0;
    std::once_flag once;
    device_info info;
    std::once_flag primary_once;
    context primary = nullptr; ///< retained on first use, for the life of the process
  };
  mutable std::vector<device_slot> devices_; // each device is queried once, on first use

  /// Resolves the table through cuGetProcAddress; throws naming the first missing function.
  void resolve_all(std::source_location where);

  device_info query(int ordinal, device_handle dev, std::source_location where) const;
};

/// The CUDA driver, loaded and initialized once per process on first use (thread-safe). A
/// failure is remembered and reported again, at each caller's location, on every later call.
TK_DECL const driver &get_driver(std::source_location where = std::source_location::current());

/// get_driver().check(r, what, where).
inline void check(result r, const char *what,
                  std::source_location where = std::source_location::current()) {
  get_driver(where).check(r, what, where);
}

/// get_driver().launch_context(where).
inline context launch_context(std::source_location where = std::source_location::current()) {
  return get_driver(where).launch_context(where);
}

/// get_driver().device_of(ctx, where).
inline const device_info &device_of(context ctx,
                                    std::source_location where = std::source_location::current()) {
  return get_driver(where).device_of(ctx, where);
}

/// Makes a context current for the calling thread for the scope of the object, when it is not
/// already, and then makes the one before it current again: a launch on a device other than the
/// thread's (launch_options::device), a buffer freed or copied in the context it came from.
class scoped_context {
public:
  scoped_context(const driver &d, context ctx, std::source_location where) : driver_(d) {
    if (d.current_context(where) != ctx) {
      d.check(d.ctx_push_current(ctx), "cuCtxPushCurrent", where);
      pushed_ = true;
    }
  }
  ~scoped_context() {
    if (pushed_) {
      context popped = nullptr;
      driver_.ctx_pop_current(&popped);
    }
  }
  scoped_context(const scoped_context &) = delete;
  scoped_context &operator=(const scoped_context &) = delete;

private:
  const driver &driver_;
  bool pushed_ = false;
};

/// get_driver().kind_of(ptr, where).
inline pointer_kind kind_of(deviceptr ptr,
                            std::source_location where = std::source_location::current()) {
  return get_driver(where).kind_of(ptr, where);
}

} // namespace tk::detail::cu

#undef TK_DETAIL_CUDAAPI

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/runtime/driver.ipp>
#endif

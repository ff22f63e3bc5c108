/// @file launch.hpp
/// The GPU launch path of `kernel::launch`: the specialization key of a launch, the in-process
/// cache of compiled kernels, compiling a traced kernel for a device (the backend library, through
/// its disk cache) and loading it, and the tensor maps of the argument block for cuLaunchKernel.
///
/// The hot path — a launch whose specialization was compiled before — reads the current context,
/// builds the key on the stack, finds it in a lock-free list and calls cuLaunchKernel with
/// pointers to the arguments: no allocation, no string, no lock. Only a miss traces, compiles,
/// loads a module and publishes a new entry, under a mutex.
#pragma once

#include <tk/detail/env.hpp>
#include <tk/detail/runtime/driver.hpp>
#include <tk/error.hpp>

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tk::detail {

/// A kernel compiled and loaded for one context: what cuLaunchKernel needs.
struct loaded_kernel {
  cu::function_handle function = nullptr;
  unsigned threads = 0;      ///< per block: num_warps * 32
  unsigned shared_bytes = 0; ///< dynamic shared memory per block
  /// The tensor maps the launch encodes and passes after the arguments (TMA, sm_90 and newer),
  /// as the backend describes them.
  std::vector<tk_tensor_map> tensor_maps;
};

/// A CUtensorMap: 128 bytes, 64-byte aligned, passed by value.
struct alignas(64) tensor_map_bytes {
  std::array<std::uint8_t, 128> bytes;
};

/// Encodes `recipe`'s tensor map for the argument block `params` (pointers to the kernel's
/// arguments, the kernel's parameter order) into `map`: the driver's result, not success where
/// the values at launch do not fit TMA (a size or stride that is not positive, which the
/// descriptor's contract rules out, or beyond the driver's limits); the caller then takes the
/// pointer path.
inline cu::result encode_tensor_map(const cu::driver &driver, const tk_tensor_map &recipe,
                                    void *const *params, tensor_map_bytes &map) {
  if (!driver.tensor_map_encode_tiled)
    return cu::error_not_found;
  auto value = [&](std::int32_t arg, std::int64_t constant) -> std::int64_t {
    return arg < 0 ? constant : *static_cast<const std::int32_t *>(params[arg]);
  };
  std::array<std::uint64_t, TK_TENSOR_MAP_MAX_RANK> dims{}, strides{};
  std::array<std::uint32_t, TK_TENSOR_MAP_MAX_RANK> box{}, element_strides{};
  for (int d = 0; d < recipe.rank; ++d) { // innermost first, as the driver takes them
    const auto from = std::size_t(recipe.rank - 1 - d), i = std::size_t(d);
    const std::int64_t size = value(recipe.shape_arg[from], recipe.shape[from]);
    const std::int64_t stride = value(recipe.stride_arg[from], recipe.stride[from]);
    if (size < 1 || stride < 1)
      return cu::error_invalid_value;
    dims[i] = std::uint64_t(size);
    box[i] = std::uint32_t(recipe.box[from]);
    element_strides[i] = 1;
    if (d > 0)
      strides[i - 1] = std::uint64_t(stride) * std::uint64_t(recipe.element_bytes);
  }
  void *base = *static_cast<void *const *>(params[recipe.base_arg]);
  // CU_TENSOR_MAP_SWIZZLE_NONE, _32B, _64B, _128B.
  const int swizzle = recipe.swizzle == 128  ? 3
                      : recipe.swizzle == 64 ? 2
                      : recipe.swizzle == 32 ? 1
                                             : 0;
  // Unsigned integers of the element's size: a copy moves bytes, and out-of-bounds elements
  // read as zero whatever the type.
  const int data_type = recipe.element_bytes == 1   ? 0  // CU_TENSOR_MAP_DATA_TYPE_UINT8
                        : recipe.element_bytes == 2 ? 1  // UINT16
                        : recipe.element_bytes == 4 ? 2  // UINT32
                                                    : 4; // UINT64
  return driver.tensor_map_encode_tiled(map.bytes.data(), data_type, unsigned(recipe.rank), base,
                                        dims.data(), strides.data(), box.data(),
                                        element_strides.data(), /*interleave=*/0, swizzle,
                                        /*l2_promotion=*/2 /* L2_128B */, /*oob_fill=*/0);
}

/// What decides the code of a launch, exactly (no hash: two keys are equal only when the code
/// is the same). Per argument one word: a constant's value bits, a pointer's 16-byte alignment,
/// an integer's divisibility by 16 (1) or equality to 1 (2), as the trace specializes on them;
/// 0 for others.
/// A number that no other kernel or tuner object of the process has had: what the caches key an
/// object on. Not its address, which an object made later may have again once this one is gone
/// (kernels made in a loop or a function, each with its own captures), and which would then find
/// the other kernel's code. Copies keep the number: they trace the same code.
inline std::uint64_t new_identity() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

template <std::size_t N> struct launch_key {
  std::uint64_t kernel = 0; ///< the kernel object's new_identity()
  cu::context context = nullptr;
  int num_warps = 0;
  int num_stages = 0;
  bool fp_fusion = true;
  std::uint64_t target_arch = 0; ///< arch_word of the target asked for; 0: the device's own
  std::array<std::uint64_t, N> args{};
  bool operator==(const launch_key &) const = default;
};

/// Whether the GPU can reach `address` (device, managed or registered host memory), as far as
/// the driver can tell. Asking the driver costs a call per pointer, so each thread remembers the
/// last 16 addresses it found reachable; loops that launch on the same buffers ask once.
inline bool reachable_on_device(const cu::driver &driver, std::uintptr_t address,
                                std::source_location where) {
  struct recent {
    std::array<std::uintptr_t, 16> addresses{};
    unsigned next = 0;
  };
  thread_local recent known;
  for (std::uintptr_t a : known.addresses)
    if (a == address)
      return true;
  if (!cu::usable_on_device(driver.kind_of(address, where)))
    return false;
  known.addresses[known.next++ % known.addresses.size()] = address;
  return true;
}

/// Compiled kernels of one `launch` instantiation (or autotuning choices of one `tk::autotune`
/// launch): a singly linked list that only grows, read without a lock (entries are published
/// with a release store and never change or go away, as the modules they hold stay loaded for
/// the life of the process).
template <class Key, class Value = loaded_kernel> class launch_cache {
public:
  const Value *find(const Key &key) const {
    for (const node *n = head_.load(std::memory_order_acquire); n; n = n->next)
      if (n->key == key)
        return &n->value;
    return nullptr;
  }

  /// The entry for `key`, made by `make()` (under the lock, once) on a miss.
  template <class Make> const Value &get(const Key &key, Make &&make) {
    if (const Value *hit = find(key))
      return *hit;
    std::lock_guard lock(mutex_);
    if (const Value *hit = find(key))
      return *hit;
    auto *n = new node{key, make(), head_.load(std::memory_order_relaxed)};
    head_.store(n, std::memory_order_release);
    return n->value;
  }

private:
  struct node {
    Key key;
    Value value;
    const node *next;
  };
  std::atomic<const node *> head_{nullptr};
  std::mutex mutex_;
};

/// What compile_and_load compiles and loads with: the process's driver and backend, or stand-ins
/// in tests.
struct kernel_toolchain {
  const cu::driver &driver;
  const backend_library &backend;
};

/// The environment variable that asks for code of an older target than the GPU's.
inline constexpr const char *target_arch_variable = "TK_TARGET_ARCH";

/// TK_TARGET_ARCH, read once per process (at the first GPU launch that asks); "" when unset.
inline std::string_view env_target_arch() {
  static const std::string value = [] {
#if defined(_MSC_VER)
#pragma warning(push)
#pragma warning(disable : 4996) // getenv is fine: the value is copied at once
#endif
    const char *v = std::getenv(target_arch_variable);
#if defined(_MSC_VER)
#pragma warning(pop)
#endif
    return std::string(v ? v : "");
  }();
  return value;
}

/// The target a launch asks to be lowered for, and who asked: launch_options::target_arch when
/// set, else TK_TARGET_ARCH; an empty name means the GPU's own target.
struct requested_arch {
  std::string_view name;
  const char *source = "launch_options::target_arch";
};
inline requested_arch requested_target_arch(std::string_view option) {
  if (!option.empty())
    return {option, "launch_options::target_arch"};
  return {env_target_arch(), target_arch_variable};
}

/// A target name as one word of a launch key (names are at most 8 characters: "sm_100a"; a
/// longer one is never valid, and its launch fails before anything is cached). 0: none.
inline std::uint64_t arch_word(std::string_view name) {
  if (name.size() > sizeof(std::uint64_t))
    return ~std::uint64_t(0);
  std::uint64_t word = 0;
  std::memcpy(&word, name.data(), name.size());
  return word;
}

/// The target to lower for when `arch` asks for one, checked against the GPU `device` and the
/// backend's `targets` (space-separated): "" when it asks for none or for the device's own
/// target. Throws tk::error at `where` for a name the backend does not know, a target newer than
/// the device, and an architecture-specific target ("sm_90a") of another GPU.
inline std::string resolve_target_arch(requested_arch arch, const cu::device_info &device,
                                       std::string_view targets, std::source_location where) {
  if (arch.name.empty() || arch.name == device.target)
    return "";
  const std::string name(arch.name);
  if ((" " + std::string(targets) + " ").find(" " + name + " ") == std::string::npos)
    fail(where, arch.source, " is '", name, "', which is not a target of this TileKit backend (",
         targets, ")");
  std::size_t digits = 3; // after "sm_"
  while (digits < name.size() && name[digits] >= '0' && name[digits] <= '9')
    ++digits;
  const int capability = std::atoi(name.c_str() + 3);
  const int device_capability = device.major * 10 + device.minor;
  if (capability > device_capability)
    fail(where, arch.source, " is ", name, ", newer than the GPU ", device.name, " (",
         device.target, "): code for it may use instructions this GPU lacks; use ", device.target,
         " or an older target (sm_80 for the mma.sync path)");
  if (digits < name.size()) // "sm_90a": instructions of exactly that GPU
    fail(where, arch.source, " is ", name, ", an architecture-specific target: its code runs on ",
         name.substr(0, digits), " GPUs only, and ", device.name, " is ", device.target, "; use ",
         name.substr(0, digits), " or older");
  return name;
}

/// What a kernel is compiled from and for.
struct kernel_source {
  const std::string &name;
  const std::string &ir;
  const cu::device_info &device;
  int num_warps = 4;
  int num_stages = 3;
  bool fp_fusion = true;
  /// An older target to lower for (resolve_target_arch); "" for the device's own. The binary is
  /// still for device.target.
  std::string target_arch = {};
  /// Whether the launch encodes tensor maps (the driver has cuTensorMapEncodeTiled): tensor
  /// descriptors may then be copied by TMA.
  bool tensor_maps = false;
};

/// A result of the backend, freed with it.
class compile_result {
public:
  compile_result(const backend_library &backend, tk_compile_result *result)
      : backend_(&backend), result_(result) {}
  compile_result(compile_result &&other) noexcept
      : backend_(other.backend_), result_(std::exchange(other.result_, nullptr)) {}
  compile_result &operator=(compile_result &&other) noexcept {
    std::swap(backend_, other.backend_);
    std::swap(result_, other.result_);
    return *this;
  }
  ~compile_result() { backend_->result_free(result_); }
  tk_compile_result *get() const { return result_; }

private:
  const backend_library *backend_;
  tk_compile_result *result_;
};

/// `source` compiled by the backend through its disk cache (`mode`: TK_CACHE_REPLACE for an
/// entry the driver rejected). Throws tk::error at `where` when the backend fails.
inline compile_result compile_kernel(const backend_library &backend, const kernel_source &source,
                                     tk_cache_mode mode, std::source_location where) {
  tk_compile_options opts;
  backend.compile_options_init(&opts);
  opts.target = source.device.target.c_str();
  opts.num_warps = source.num_warps;
  opts.num_stages = source.num_stages;
  opts.fp_fusion = source.fp_fusion ? 1 : 0;
  opts.lowering_target = source.target_arch.empty() ? nullptr : source.target_arch.c_str();
  opts.tensor_maps = source.tensor_maps ? 1 : 0;
  opts.output = TK_OUTPUT_AUTO;
  tk_compile_result *raw = nullptr;
  const tk_status status =
      backend.compile_cached(source.ir.data(), source.ir.size(), nullptr, &opts, mode, &raw);
  compile_result result(backend, raw);
  if (status != TK_OK)
    fail(where, "cannot compile kernel '", source.name, "' for ", source.device.target,
         source.target_arch.empty() ? "" : " (lowered for " + source.target_arch + ")", ":\n",
         backend.result_error(raw));
  return result;
}

/// Whether cuModuleLoadData or cuModuleGetFunction failed with `r` because of the image itself,
/// which a cached one may be: written by another toolchain, for another driver, or damaged in a
/// way its checksum cannot see (a bad producer's output stored by an older TileKit).
inline bool image_rejected(cu::result r) {
  return r == cu::error_invalid_image || r == cu::error_no_binary_for_gpu ||
         r == cu::error_invalid_ptx || r == cu::error_unsupported_ptx_version ||
         r == cu::error_not_found;
}

/// Loads the binary of `result` into the current context: the function and what a launch needs,
/// or the call that failed (`failed_call`) and its result.
inline cu::result load_kernel(const kernel_toolchain &tools, const compile_result &result,
                              loaded_kernel &loaded, const char *&failed_call) {
  const backend_library &backend = tools.backend;
  std::size_t size = 0;
  // A cubin is an ELF image; PTX for the driver's JIT comes NUL-terminated.
  const void *image = backend.result_binary(result.get(), &size);
  cu::module_handle module = nullptr;
  cu::result r = tools.driver.module_load_data(&module, image);
  failed_call = "cuModuleLoadData";
  if (r != cu::success)
    return r;
  r = tools.driver.module_get_function(&loaded.function, module,
                                       backend.result_kernel_name(result.get()));
  failed_call = "cuModuleGetFunction";
  if (r != cu::success) {
    tools.driver.module_unload(module);
    return r;
  }
  loaded.threads = unsigned(backend.result_threads_per_block(result.get()));
  loaded.shared_bytes = unsigned(backend.result_dynamic_shared_bytes(result.get()));
  loaded.tensor_maps.resize(std::size_t(backend.result_tensor_map_count(result.get())));
  for (std::size_t i = 0; i < loaded.tensor_maps.size(); ++i)
    backend.result_tensor_map(result.get(), int(i), &loaded.tensor_maps[i]);
  return cu::success;
}

/// `source` compiled for its device and loaded into the current context: the backend takes it
/// from its disk cache when it has the binary, else compiles it, and it is stored once it has
/// loaded. A cached binary the driver rejects is deleted and compiled again, once. Errors name
/// `where` (the launch's grid).
inline loaded_kernel compile_and_load(const kernel_toolchain &tools, const kernel_source &source,
                                      std::source_location where) {
  const cu::device_info &device = source.device;
  const backend_library &backend = tools.backend;
  compile_result result = compile_kernel(backend, source, TK_CACHE_USE, where);
  bool from_cache = backend.result_from_cache(result.get()) != 0;

  const std::size_t shared = backend.result_dynamic_shared_bytes(result.get());
  if (shared > std::size_t(device.max_shared_bytes_optin))
    fail(where, "kernel '", source.name, "' needs ", shared, " bytes of shared memory per block; ",
         device.name, " has at most ", device.max_shared_bytes_optin, ": use smaller blocks");
  loaded_kernel loaded;
  const char *call = nullptr;
  cu::result r = load_kernel(tools, result, loaded, call);
  bool retried = false;
  if (r != cu::success && from_cache && image_rejected(r)) {
    if (env::flag("TK_DEBUG"))
      std::fputs(("tk: cache entry " + std::string(backend.result_cache_entry(result.get())) +
                  " of kernel '" + source.name + "' does not load (" + call + ": " +
                  tools.driver.describe(r) + "); deleting it and compiling again\n")
                     .c_str(),
                 stderr);
    result = compile_kernel(backend, source, TK_CACHE_REPLACE, where);
    from_cache = false;
    retried = true;
    r = load_kernel(tools, result, loaded, call);
  }
  if (r != cu::success) {
    const char *kind = backend.result_kind(result.get()) == TK_OUTPUT_PTX ? "PTX" : "cubin";
    fail(where, "cannot load kernel '", source.name, "' on ", device.name, " (", device.target,
         "): ", call, " failed: ", tools.driver.describe(r), "; the ", kind,
         from_cache ? std::string(" came from the disk cache")
                    : std::string(" was compiled just now (producer: ") + backend.producer() + ")",
         retried ? ", after the cached one had failed to load as well and was deleted" : "");
  }
  if (!from_cache)
    backend.result_cache_store(result.get());
  if (loaded.shared_bytes > 48 * 1024)
    tools.driver.check(tools.driver.func_set_attribute(loaded.function,
                                                       cu::function_max_dynamic_shared_size_bytes,
                                                       int(loaded.shared_bytes)),
                       "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", where);
  return loaded;
}

/// `ir` compiled for the device of `ctx` and loaded there, with the process's driver, backend
/// and disk cache (see the overload above), lowered for `arch` when it names an older target.
/// Errors name `where` (the launch's grid).
inline loaded_kernel compile_and_load(const std::string &kernel_name, const std::string &ir,
                                      cu::context ctx, int num_warps, int num_stages,
                                      bool fp_fusion, requested_arch arch,
                                      std::source_location where, bool tensor_maps = true) {
  const cu::driver &driver = cu::get_driver(where);
  const cu::device_info &device = driver.device_of(ctx, where);
  const backend_library &backend = get_backend(where);
  const kernel_source source{kernel_name,
                             ir,
                             device,
                             num_warps,
                             num_stages,
                             fp_fusion,
                             resolve_target_arch(arch, device, backend.targets(), where),
                             tensor_maps && driver.tensor_map_encode_tiled != nullptr};
  return compile_and_load({driver, backend}, source, where);
}

} // namespace tk::detail

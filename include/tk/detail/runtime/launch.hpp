/// @file launch.hpp
/// The GPU launch path of `kernel::launch`: the specialization key of a launch, the in-process
/// cache of compiled kernels, compiling a traced kernel for a device (through the disk cache and
/// the backend library), and the argument block for cuLaunchKernel.
///
/// The hot path — a launch whose specialization was compiled before — reads the current context,
/// builds the key on the stack, finds it in a lock-free list and calls cuLaunchKernel with
/// pointers to the arguments: no allocation, no string, no lock. Only a miss traces, compiles,
/// loads a module and publishes a new entry, under a mutex.
#pragma once

#include <tk/detail/runtime/cubin_check.hpp>
#include <tk/detail/runtime/disk_cache.hpp>
#include <tk/detail/runtime/driver.hpp>
#include <tk/error.hpp>

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tk::detail {

/// A kernel compiled and loaded for one context: what cuLaunchKernel needs.
struct loaded_kernel {
  cu::function_handle function = nullptr;
  unsigned threads = 0;      ///< per block: num_warps * 32
  unsigned shared_bytes = 0; ///< dynamic shared memory per block
  /// The tensor maps the launch encodes and passes after the arguments (TMA, sm_90 and newer).
  std::vector<tensor_map_recipe> tensor_maps;
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
inline cu::result encode_tensor_map(const cu::driver &driver, const tensor_map_recipe &recipe,
                                    void *const *params, tensor_map_bytes &map) {
  if (!driver.tensor_map_encode_tiled)
    return cu::error_not_found;
  auto value = [&](std::int32_t arg, std::int64_t constant) -> std::int64_t {
    return arg < 0 ? constant : *static_cast<const std::int32_t *>(params[arg]);
  };
  std::array<std::uint64_t, tensor_map_recipe::max_rank> dims{}, strides{};
  std::array<std::uint32_t, tensor_map_recipe::max_rank> box{}, element_strides{};
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

/// The disk cache for compiled kernels (TK_CACHE_DIR or the OS's cache directory), keyed by the
/// backend's version too.
inline const disk_cache *kernel_disk_cache(const backend_library &backend) {
  static const disk_cache *cache = [&]() -> const disk_cache * {
    const std::string dir = disk_cache::default_directory();
    if (dir.empty())
      return nullptr;
    return new disk_cache(dir, backend.version());
  }();
  return cache;
}

/// What compile_and_load compiles and loads with: the process's driver, backend and disk cache
/// (or none), or stand-ins in tests.
struct kernel_toolchain {
  const cu::driver &driver;
  const backend_library &backend;
  const disk_cache *cache = nullptr;
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

/// The disk-cache key of `source` compiled by `backend`: everything that decides the binary.
/// The producer (ptxas and its version, nvJitLink, the driver's JIT) is part of it, so that a
/// binary made by one toolchain is not reused under another.
inline cache_key kernel_cache_key(const backend_library &backend, const kernel_source &source) {
  const std::string options =
      "num_warps=" + std::to_string(source.num_warps) +
      ";num_stages=" + std::to_string(source.num_stages) +
      (source.fp_fusion ? "" : ";fp_fusion=0") +
      (source.target_arch.empty() ? "" : ";lowered_for=" + source.target_arch) +
      (source.tensor_maps ? ";tensor_maps" : "");
  return make_cache_key(
      {source.ir, source.device.target, options, backend.version(), backend.producer()});
}

/// Compiles `source` through the backend. Throws tk::error at `where` when the backend fails, or
/// hands back a cubin that is not one for the device (an old or broken backend): such bytes must
/// not reach the disk cache.
inline cached_kernel compile_kernel(const backend_library &backend, const kernel_source &source,
                                    std::source_location where) {
  tk_compile_options opts;
  backend.compile_options_init(&opts);
  opts.target = source.device.target.c_str();
  opts.num_warps = source.num_warps;
  opts.num_stages = source.num_stages;
  opts.fp_fusion = source.fp_fusion ? 1 : 0;
  opts.lowering_target = source.target_arch.empty() ? nullptr : source.target_arch.c_str();
  opts.tensor_maps = source.tensor_maps ? 1 : 0;
  opts.output = TK_OUTPUT_AUTO;
  tk_compile_result *result = nullptr;
  const tk_status status = backend.compile(source.ir.data(), source.ir.size(), &opts, &result);
  if (status != TK_OK) {
    std::string error = backend.result_error(result);
    backend.result_free(result);
    fail(where, "cannot compile kernel '", source.name, "' for ", source.device.target,
         source.target_arch.empty() ? "" : " (lowered for " + source.target_arch + ")", ":\n",
         error);
  }
  std::size_t size = 0;
  const void *binary = backend.result_binary(result, &size);
  cached_kernel k;
  k.binary.assign(static_cast<const char *>(binary), size);
  k.kernel_name = backend.result_kernel_name(result);
  k.target = source.device.target;
  k.threads_per_block = unsigned(backend.result_threads_per_block(result));
  k.dynamic_shared_bytes = unsigned(backend.result_dynamic_shared_bytes(result));
  k.binary_kind =
      backend.result_kind(result) == TK_OUTPUT_CUBIN ? cached_kernel::cubin : cached_kernel::ptx;
  const int maps = backend.result_tensor_map_count ? backend.result_tensor_map_count(result) : 0;
  for (int i = 0; i < maps; ++i) {
    tk_tensor_map m{};
    if (backend.result_tensor_map(result, i, &m) != 0)
      continue;
    tensor_map_recipe r;
    r.rank = m.rank;
    r.element_bytes = m.element_bytes;
    r.base_arg = m.base_arg;
    for (std::size_t d = 0; d < tensor_map_recipe::max_rank; ++d) {
      r.shape_arg[d] = m.shape_arg[d];
      r.shape[d] = m.shape[d];
      r.stride_arg[d] = m.stride_arg[d];
      r.stride[d] = m.stride[d];
      r.box[d] = m.box[d];
    }
    r.swizzle = m.swizzle;
    k.tensor_maps.push_back(r);
  }
  backend.result_free(result);
  if (k.binary_kind == cached_kernel::cubin)
    if (const std::string problem = cubin_problem(k.binary, k.target); !problem.empty())
      fail(where, "cannot compile kernel '", source.name, "' for ", k.target,
           ": the backend returned a cubin that is not one (", problem, "); its producer was ",
           backend.producer());
  return k;
}

/// Whether cuModuleLoadData or cuModuleGetFunction failed with `r` because of the image itself,
/// which a cached one may be: written by another toolchain, for another driver, or damaged in a
/// way its checksum cannot see (a bad producer's output stored by an older TileKit).
inline bool image_rejected(cu::result r) {
  return r == cu::error_invalid_image || r == cu::error_no_binary_for_gpu ||
         r == cu::error_invalid_ptx || r == cu::error_unsupported_ptx_version ||
         r == cu::error_not_found;
}

/// Loads `k` into the current context: the function and what a launch needs, or the call that
/// failed (`failed_call`) and its result.
inline cu::result load_kernel(const cu::driver &driver, cached_kernel &k, loaded_kernel &loaded,
                              const char *&failed_call) {
  // PTX for the driver's JIT must end with a NUL; the cubin is an ELF image.
  if (k.binary_kind == cached_kernel::ptx)
    k.binary.push_back('\0');
  cu::module_handle module = nullptr;
  cu::result r = driver.module_load_data(&module, k.binary.data());
  if (k.binary_kind == cached_kernel::ptx)
    k.binary.pop_back();
  failed_call = "cuModuleLoadData";
  if (r != cu::success)
    return r;
  r = driver.module_get_function(&loaded.function, module, k.kernel_name.c_str());
  failed_call = "cuModuleGetFunction";
  if (r != cu::success) {
    driver.module_unload(module);
    return r;
  }
  loaded.threads = k.threads_per_block;
  loaded.shared_bytes = k.dynamic_shared_bytes;
  loaded.tensor_maps = k.tensor_maps;
  return cu::success;
}

/// `source` compiled for its device and loaded into the current context: from the disk cache
/// when it holds the binary, else through the backend, then stored once it has loaded. A cached
/// binary the driver rejects is deleted and compiled again, once. Errors name `where` (the
/// launch's grid).
inline loaded_kernel compile_and_load(const kernel_toolchain &tools, const kernel_source &source,
                                      std::source_location where) {
  const cu::device_info &device = source.device;
  const backend_library &backend = tools.backend;
  const cache_key key = kernel_cache_key(backend, source);

  std::optional<cached_kernel> compiled;
  if (tools.cache)
    if (std::optional<std::string> bytes = tools.cache->load(key, "cubin"))
      compiled = deserialize(*bytes);
  bool from_cache = compiled.has_value();
  if (!compiled)
    compiled = compile_kernel(backend, source, where);

  if (compiled->dynamic_shared_bytes > unsigned(device.max_shared_bytes_optin))
    fail(where, "kernel '", source.name, "' needs ", compiled->dynamic_shared_bytes,
         " bytes of shared memory per block; ", device.name, " has at most ",
         device.max_shared_bytes_optin, ": use smaller blocks");
  loaded_kernel loaded;
  const char *call = nullptr;
  cu::result r = load_kernel(tools.driver, *compiled, loaded, call);
  bool retried = false;
  if (r != cu::success && from_cache && image_rejected(r)) {
    if (cache_impl::debug_enabled())
      cache_impl::log_line("cache entry " + tools.cache->entry_path(key, "cubin") + " of kernel '" +
                           source.name + "' does not load (" + call + ": " +
                           tools.driver.describe(r) + "); deleting it and compiling again");
    tools.cache->remove(key, "cubin");
    compiled = compile_kernel(backend, source, where);
    from_cache = false;
    retried = true;
    r = load_kernel(tools.driver, *compiled, loaded, call);
  }
  if (r != cu::success) {
    const char *kind = compiled->binary_kind == cached_kernel::ptx ? "PTX" : "cubin";
    fail(where, "cannot load kernel '", source.name, "' on ", device.name, " (", device.target,
         "): ", call, " failed: ", tools.driver.describe(r), "; the ", kind,
         from_cache ? std::string(" came from the disk cache")
                    : std::string(" was compiled just now (producer: ") + backend.producer() + ")",
         retried ? ", after the cached one had failed to load as well and was deleted" : "");
  }
  if (tools.cache && !from_cache)
    tools.cache->store(key, "cubin", serialize(*compiled));
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
  return compile_and_load({driver, backend, kernel_disk_cache(backend)}, source, where);
}

} // namespace tk::detail

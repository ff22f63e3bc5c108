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

#include <tk/detail/disk_cache.hpp>
#include <tk/detail/driver.hpp>
#include <tk/error.hpp>

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>

namespace tk::detail {

/// A kernel compiled and loaded for one context: what cuLaunchKernel needs.
struct loaded_kernel {
  cu::function_handle function = nullptr;
  unsigned threads = 0;      ///< per block: num_warps * 32
  unsigned shared_bytes = 0; ///< dynamic shared memory per block
};

/// What decides the code of a launch, exactly (no hash: two keys are equal only when the code
/// is the same). Per argument one word: a constant's value bits, a pointer's 16-byte alignment,
/// an integer's divisibility by 16 (1) or equality to 1 (2), as the trace specializes on them;
/// 0 for others.
template <std::size_t N> struct launch_key {
  const void *kernel = nullptr;
  cu::context context = nullptr;
  int num_warps = 0;
  int num_stages = 0;
  bool fp_fusion = true;
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

/// `ir` compiled for the device of `ctx` and loaded there: from the disk cache when it holds the
/// binary, else through the backend (then stored). Errors name `where` (the launch's grid).
inline loaded_kernel compile_and_load(const std::string &kernel_name, const std::string &ir,
                                      cu::context ctx, int num_warps, int num_stages,
                                      bool fp_fusion, std::source_location where) {
  const cu::driver &driver = cu::get_driver(where);
  const cu::device_info &device = driver.device_of(ctx, where);
  const backend_library &backend = get_backend(where);
  const std::string options = "num_warps=" + std::to_string(num_warps) +
                              ";num_stages=" + std::to_string(num_stages) +
                              (fp_fusion ? "" : ";fp_fusion=0");
  const cache_key key = make_cache_key({ir, device.target, options, backend.version()});
  const disk_cache *cache = kernel_disk_cache(backend);

  std::optional<cached_kernel> compiled;
  if (cache)
    if (std::optional<std::string> bytes = cache->load(key, "cubin"))
      compiled = deserialize(*bytes);
  if (!compiled) {
    tk_compile_options opts;
    backend.compile_options_init(&opts);
    opts.target = device.target.c_str();
    opts.num_warps = num_warps;
    opts.num_stages = num_stages;
    opts.fp_fusion = fp_fusion ? 1 : 0;
    opts.output = TK_OUTPUT_AUTO;
    tk_compile_result *result = nullptr;
    const tk_status status = backend.compile(ir.data(), ir.size(), &opts, &result);
    if (status != TK_OK) {
      std::string error = backend.result_error(result);
      backend.result_free(result);
      fail(where, "cannot compile kernel '", kernel_name, "' for ", device.target, ":\n", error);
    }
    std::size_t size = 0;
    const void *binary = backend.result_binary(result, &size);
    cached_kernel k;
    k.binary.assign(static_cast<const char *>(binary), size);
    k.kernel_name = backend.result_kernel_name(result);
    k.target = device.target;
    k.threads_per_block = unsigned(backend.result_threads_per_block(result));
    k.dynamic_shared_bytes = unsigned(backend.result_dynamic_shared_bytes(result));
    k.binary_kind =
        backend.result_kind(result) == TK_OUTPUT_CUBIN ? cached_kernel::cubin : cached_kernel::ptx;
    backend.result_free(result);
    if (cache)
      cache->store(key, "cubin", serialize(k));
    compiled = std::move(k);
  }

  if (compiled->dynamic_shared_bytes > unsigned(device.max_shared_bytes_optin))
    fail(where, "kernel '", kernel_name, "' needs ", compiled->dynamic_shared_bytes,
         " bytes of shared memory per block; ", device.name, " has at most ",
         device.max_shared_bytes_optin, ": use smaller blocks");
  // PTX for the driver's JIT must end with a NUL; the cubin is an ELF image.
  if (compiled->binary_kind == cached_kernel::ptx)
    compiled->binary.push_back('\0');
  loaded_kernel loaded;
  cu::module_handle module = nullptr;
  cu::check(driver.module_load_data(&module, compiled->binary.data()), "cuModuleLoadData", where);
  cu::check(driver.module_get_function(&loaded.function, module, compiled->kernel_name.c_str()),
            "cuModuleGetFunction", where);
  loaded.threads = compiled->threads_per_block;
  loaded.shared_bytes = compiled->dynamic_shared_bytes;
  if (loaded.shared_bytes > 48 * 1024)
    cu::check(driver.func_set_attribute(loaded.function, cu::function_max_dynamic_shared_size_bytes,
                                        int(loaded.shared_bytes)),
              "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", where);
  return loaded;
}

} // namespace tk::detail

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

#include <tk/detail/config.hpp>

#include <tk/detail/env.hpp>
#include <tk/detail/runtime/backend_loader.hpp>
#include <tk/detail/runtime/driver.hpp>
#include <tk/detail/runtime/resources.hpp>
#include <tk/detail/trace/ownership.hpp>
#include <tk/error.hpp>

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tk::detail {

/// A kernel compiled and loaded for one context: what cuLaunchKernel needs.
struct loaded_kernel {
  cu::function_handle function = nullptr;
  cu::module_handle module = nullptr; ///< the function's module
  unsigned threads = 0;               ///< per block: num_warps * 32
  unsigned shared_bytes = 0;          ///< dynamic shared memory per block
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
TK_DECL cu::result encode_tensor_map(const cu::driver &driver, const tk_tensor_map &recipe,
                                     void *const *params, tensor_map_bytes &map);

/// A number that no other kernel or tuner object of the process has had: what the caches key an
/// object on. Not its address, which an object made later may have again once this one is gone
/// (kernels made in a loop or a function, each with its own captures), and which would then find
/// the other kernel's code. Copies keep the number: they trace the same code.
inline std::uint64_t new_identity() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

/// Whether the GPU can reach `address` (device, managed or registered host memory), as far as
/// the driver can tell. Asking the driver costs a call per pointer, so each thread remembers the
/// last 16 addresses it found reachable; loops that launch on the same buffers ask once.
TK_DECL bool reachable_on_device(const cu::driver &driver, std::uintptr_t address,
                                 std::source_location where);

/// The autotuning choices of one `tk::autotune` launch instantiation: a singly linked list that
/// only grows, read without a lock (entries are published with a release store and never change
/// or go away).
template <class Key, class Value> class launch_cache {
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
TK_DECL std::string_view env_target_arch();

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

/// The options that decide a kernel's code: the launch key holds them, `code_options_of` makes
/// them from a launch's `launch_options`, and `compile_kernel` makes the backend's
/// `tk_compile_options` from them (from which the backend makes its disk-cache key). An option
/// that changes the code is added here, in those two functions and in the backend's C ABI.
struct code_options {
  int num_warps = 4;
  int num_stages = 3;
  bool fp_fusion = true;
  /// Whether the kernel may take tensor maps (TMA). Off: the pointer path, which a launch falls
  /// back to when its values do not fit TMA, and the only path where the driver cannot encode
  /// tensor maps.
  bool tensor_maps = true;
  /// The older target asked for (requested_target_arch); an empty name: the GPU's own.
  requested_arch target_arch = {};
  /// Device asserts compiled in (launch_options::debug, TK_DEBUG).
  bool debug = false;

  /// Same code: equal options and the same target name, whoever asked for it.
  friend bool operator==(const code_options &a, const code_options &b) {
    return a.num_warps == b.num_warps && a.num_stages == b.num_stages &&
           a.fp_fusion == b.fp_fusion && a.tensor_maps == b.tensor_maps &&
           a.target_arch.name == b.target_arch.name && a.debug == b.debug;
  }
};

/// Why `num_warps` and `num_stages` cannot make a kernel, or "" when they can: the one check of
/// them, for launches and autotune configs alike, with the backend's range (<tk/backend.h>), so
/// that the interpreter refuses what the GPU would.
TK_DECL std::string invalid_code_options(int num_warps, int num_stages);

/// What decides the code of a kernel object's launch, exactly (no hash: two keys are equal only
/// when the code is the same): its code options and context, and per argument one word (see
/// specialization_word in kernel/run.hpp). The parameter types are not in it: each instantiation
/// of kernel::launch for other parameters has compiled_kernels of its own.
struct kernel_key {
  std::uint64_t kernel = 0; ///< the kernel object's new_identity()
  cu::context context = nullptr;
  code_options code;
  std::span<const std::uint64_t> args;
};

/// The compiled kernels of one kernel type and parameter list: a singly linked list that only
/// grows, read without a lock (entries are published with a release store and never change or go
/// away, as the modules they hold stay loaded for the life of the process).
class compiled_kernels {
public:
  const loaded_kernel *find(const kernel_key &key) const;

  /// The entry for `key`, made by `make()` (under the lock, once) on a miss.
  const loaded_kernel &get(const kernel_key &key, function_ref<loaded_kernel()> make);

private:
  struct entry;
  std::atomic<const entry *> head_{nullptr};
  std::mutex mutex_;
};

/// A target name as one word of a launch key (names are at most 8 characters: "sm_100a"; a
/// longer one is never valid, and its launch fails before anything is cached). 0: none.
TK_DECL std::uint64_t arch_word(std::string_view name);

/// The target to lower for when `arch` asks for one, checked against the GPU `device` and the
/// backend's `targets` (space-separated): "" when it asks for none or for the device's own
/// target. Throws tk::error at `where` for a name the backend does not know, a target newer than
/// the device, and an architecture-specific target ("sm_90a") of another GPU.
TK_DECL std::string resolve_target_arch(requested_arch arch, const cu::device_info &device,
                                        std::string_view targets, std::source_location where);

/// What a kernel is compiled from and for.
struct kernel_source {
  const std::string &name;
  const std::string &ir;
  const cu::device_info &device;
  code_options code = {};
  /// `code.target_arch` resolved for `device` (resolve_target_arch): the older target to lower
  /// for, or "" for the device's own. The binary is for device.target either way.
  std::string lowering_target = {};
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
TK_DECL compile_result compile_kernel(const backend_library &backend, const kernel_source &source,
                                      tk_cache_mode mode, std::source_location where);

/// Whether cuModuleLoadData or cuModuleGetFunction failed with `r` because of the image itself,
/// which a cached one may be: written by another toolchain, for another driver, or damaged in a
/// way its checksum cannot see (a bad producer's output stored by an older TileKit).
inline bool image_rejected(cu::result r) {
  return r == cu::error_invalid_image || r == cu::error_no_binary_for_gpu ||
         r == cu::error_invalid_ptx || r == cu::error_unsupported_ptx_version ||
         r == cu::error_not_found;
}

/// Loads the binary of `result` into the current context, or `image_override` (PTX text) in its
/// place: the function and what a launch needs, or the call that failed (`failed_call`) and its
/// result.
TK_DECL cu::result load_kernel(const kernel_toolchain &tools, const compile_result &result,
                               loaded_kernel &loaded, const char *&failed_call,
                               const std::string *image_override = nullptr);

/// The environment variables of experiments with a kernel's code (docs/environment.md): compile
/// every kernel afresh, bypassing the disk cache; write each compiled kernel's IR and PTX to a
/// directory; take a kernel's IR or PTX from a directory instead.
inline constexpr const char *always_compile_variable = "TK_ALWAYS_COMPILE";
inline constexpr const char *dump_dir_variable = "TK_DUMP_DIR";
inline constexpr const char *override_dir_variable = "TK_OVERRIDE_DIR";

/// The contents of the file at `path`, if it can be read.
TK_DECL std::optional<std::string> read_text_file(const std::string &path);

/// `$TK_OVERRIDE_DIR/<kernel><suffix>` when it exists (said on stderr, as it changes the code).
TK_DECL std::optional<std::string> override_file(const std::string &kernel,
                                                 std::string_view suffix);

/// Writes `text` to `$TK_DUMP_DIR/<kernel><suffix>` when the variable is set.
TK_DECL void dump_file(const std::string &kernel, std::string_view suffix, std::string_view text);

/// `source` compiled for its device and loaded into the current context: the backend takes it
/// from its disk cache when it has the binary, else compiles it, and it is stored once it has
/// loaded. A cached binary the driver rejects is deleted and compiled again, once. Errors name
/// `where` (the launch's grid).
TK_DECL loaded_kernel compile_and_load(const kernel_toolchain &tools, const kernel_source &source,
                                       std::source_location where);

/// `ir` compiled for the device of `ctx` and loaded there, with the process's driver, backend
/// and disk cache (see the overload above), with tensor maps only where `code` allows them and
/// the driver can encode them. Errors name `where` (the launch's grid).
TK_DECL loaded_kernel compile_and_load(const std::string &kernel_name, const std::string &ir,
                                       cu::context ctx, const code_options &code,
                                       std::source_location where);

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/runtime/launch.ipp>
#endif

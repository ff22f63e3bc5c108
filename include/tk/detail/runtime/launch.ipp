/// @file launch.ipp
/// The bodies of the functions launch.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/runtime/launch.hpp>

namespace tk::detail {

TK_DECL cu::result encode_tensor_map(const cu::driver &driver, const tk_tensor_map &recipe,
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

TK_DECL bool reachable_on_device(const cu::driver &driver, std::uintptr_t address,
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

struct compiled_kernels::entry {
  kernel_key key; ///< `args` points into `words`, `code.target_arch.name` into `target_arch`
  std::vector<std::uint64_t> words;
  std::string target_arch;
  loaded_kernel kernel;
  const entry *next;
};

TK_DECL std::string invalid_code_options(int num_warps, int num_stages) {
  if (num_warps < 1 || num_warps > 32 || (num_warps & (num_warps - 1)))
    return "num_warps is " + std::to_string(num_warps) + "; it must be 1, 2, 4, 8, 16 or 32";
  if (num_stages < TK_NUM_STAGES_MIN || num_stages > TK_NUM_STAGES_MAX)
    return "num_stages is " + std::to_string(num_stages) + "; it must be " TK_NUM_STAGES_RANGE;
  return "";
}

TK_DECL bool same_kernel_key(const kernel_key &a, const kernel_key &b) {
  if (a.kernel != b.kernel || a.context != b.context || !(a.code == b.code) ||
      a.args.size() != b.args.size())
    return false;
  for (std::size_t k = 0; k < a.args.size(); ++k)
    if (a.args[k] != b.args[k])
      return false;
  return true;
}

TK_DECL const loaded_kernel *compiled_kernels::find(const kernel_key &key) const {
  for (const entry *e = head_.load(std::memory_order_acquire); e; e = e->next)
    if (same_kernel_key(e->key, key))
      return &e->kernel;
  return nullptr;
}

TK_DECL const loaded_kernel &compiled_kernels::get(const kernel_key &key,
                                                   function_ref<loaded_kernel()> make) {
  if (const loaded_kernel *hit = find(key))
    return *hit;
  std::lock_guard lock(mutex_);
  if (const loaded_kernel *hit = find(key))
    return *hit;
  auto *e = new entry{key,
                      {key.args.begin(), key.args.end()},
                      std::string(key.code.target_arch.name),
                      make(),
                      head_.load(std::memory_order_relaxed)};
  e->key.args = e->words;
  e->key.code.target_arch.name = e->target_arch;
  head_.store(e, std::memory_order_release);
  return e->kernel;
}

TK_DECL std::string_view env_target_arch() {
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

TK_DECL std::uint64_t arch_word(std::string_view name) {
  if (name.size() > sizeof(std::uint64_t))
    return ~std::uint64_t(0);
  std::uint64_t word = 0;
  std::memcpy(&word, name.data(), name.size());
  return word;
}

TK_DECL std::string resolve_target_arch(requested_arch arch, const cu::device_info &device,
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

TK_DECL compile_result compile_kernel(const backend_library &backend, const kernel_source &source,
                                      tk_cache_mode mode, std::source_location where) {
  tk_compile_options opts;
  backend.compile_options_init(&opts);
  opts.target = source.device.target.c_str();
  opts.num_warps = source.code.num_warps;
  opts.num_stages = source.code.num_stages;
  opts.fp_fusion = source.code.fp_fusion ? 1 : 0;
  opts.tensor_maps = source.code.tensor_maps ? 1 : 0;
  opts.lowering_target = source.lowering_target.empty() ? nullptr : source.lowering_target.c_str();
  opts.output = TK_OUTPUT_AUTO;
  tk_compile_result *raw = nullptr;
  const tk_status status =
      backend.compile_cached(source.ir.data(), source.ir.size(), nullptr, &opts, mode, &raw);
  compile_result result(backend, raw);
  if (status != TK_OK)
    fail(where, "cannot compile kernel '", source.name, "' for ", source.device.target,
         source.lowering_target.empty() ? "" : " (lowered for " + source.lowering_target + ")",
         ":\n", backend.result_error(raw));
  return result;
}

TK_DECL cu::result load_kernel(const kernel_toolchain &tools, const compile_result &result,
                               loaded_kernel &loaded, const char *&failed_call,
                               const std::string *image_override) {
  const backend_library &backend = tools.backend;
  std::size_t size = 0;
  // A cubin is an ELF image; PTX for the driver's JIT comes NUL-terminated.
  const void *image =
      image_override ? image_override->c_str() : backend.result_binary(result.get(), &size);
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
  loaded.module = module;
  loaded.threads = unsigned(backend.result_threads_per_block(result.get()));
  loaded.shared_bytes = unsigned(backend.result_dynamic_shared_bytes(result.get()));
  loaded.tensor_maps.resize(std::size_t(backend.result_tensor_map_count(result.get())));
  for (std::size_t i = 0; i < loaded.tensor_maps.size(); ++i)
    backend.result_tensor_map(result.get(), int(i), &loaded.tensor_maps[i]);
  return cu::success;
}

/// One line on stderr (TK_DEBUG) of what a loaded kernel uses: registers and local memory per
/// thread (spills, or the stack of a call), shared memory and threads per block. Spills cost
/// the speed of a kernel silently otherwise.
TK_DECL void log_resources(const cu::driver &driver, const kernel_source &source,
                           const loaded_kernel &loaded, bool from_cache) {
  int registers = -1, local = -1;
  driver.func_get_attribute(&registers, cu::function_num_regs, loaded.function);
  driver.func_get_attribute(&local, cu::function_local_size_bytes, loaded.function);
  std::fputs(resource_line(source.name, source.device.target, source.lowering_target, from_cache,
                           registers, local, loaded.shared_bytes, int(loaded.threads))
                 .c_str(),
             stderr);
}

TK_DECL std::optional<std::string> read_text_file(const std::string &path) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return std::nullopt;
  std::string text;
  char chunk[4096];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, file)) > 0;)
    text.append(chunk, n);
  std::fclose(file);
  return text;
}

TK_DECL std::optional<std::string> override_file(const std::string &kernel,
                                                 std::string_view suffix) {
  const std::optional<std::string> dir = os::environment(override_dir_variable);
  if (!dir || dir->empty())
    return std::nullopt;
  const std::string path = *dir + "/" + kernel + std::string(suffix);
  std::optional<std::string> text = read_text_file(path);
  if (text)
    std::fputs(("tk: kernel '" + kernel + "': using " + path + " (" + override_dir_variable + ")\n")
                   .c_str(),
               stderr);
  return text;
}

TK_DECL void dump_file(const std::string &kernel, std::string_view suffix, std::string_view text) {
  const std::optional<std::string> dir = os::environment(dump_dir_variable);
  if (!dir || dir->empty() || text.empty())
    return;
  const std::string path = *dir + "/" + kernel + std::string(suffix);
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file || std::fwrite(text.data(), 1, text.size(), file) != text.size())
    std::fputs(("tk: cannot write " + path + " (" + dump_dir_variable + ")\n").c_str(), stderr);
  if (file)
    std::fclose(file);
}

TK_DECL loaded_kernel compile_and_load(const kernel_toolchain &tools, const kernel_source &traced,
                                       std::source_location where) {
  const cu::device_info &device = traced.device;
  const backend_library &backend = tools.backend;
  // TK_OVERRIDE_DIR: the kernel's IR, or its PTX, from a file instead.
  const std::optional<std::string> ir_override = override_file(traced.name, ".mlir");
  const std::optional<std::string> ptx_override = override_file(traced.name, ".ptx");
  const kernel_source source{traced.name, ir_override ? *ir_override : traced.ir, traced.device,
                             traced.code, traced.lowering_target};
  // TK_ALWAYS_COMPILE, TK_DUMP_DIR: compiled afresh (the entry replaced), which also gives the
  // PTX to dump.
  const bool dump = os::environment(dump_dir_variable).value_or("") != "";
  const bool fresh = dump || env::flag(always_compile_variable);
  compile_result result =
      compile_kernel(backend, source, fresh ? TK_CACHE_REPLACE : TK_CACHE_USE, where);
  bool from_cache = backend.result_from_cache(result.get()) != 0;
  if (dump) {
    dump_file(source.name, ".mlir", source.ir);
    dump_file(source.name, ".ptx", backend.result_ptx(result.get()));
  }

  const std::size_t shared = backend.result_dynamic_shared_bytes(result.get());
  if (shared > std::size_t(device.max_shared_bytes_optin))
    fail(where, "kernel '", source.name, "' needs ", shared, " bytes of shared memory per block; ",
         device.name, " has at most ", device.max_shared_bytes_optin, ": use smaller blocks");
  loaded_kernel loaded;
  const char *call = nullptr;
  cu::result r = load_kernel(tools, result, loaded, call, ptx_override ? &*ptx_override : nullptr);
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
    r = load_kernel(tools, result, loaded, call, ptx_override ? &*ptx_override : nullptr);
  }
  if (r != cu::success) {
    if (ptx_override)
      fail(where, "cannot load kernel '", source.name, "' on ", device.name, " (", device.target,
           "): ", call, " failed: ", tools.driver.describe(r), "; its PTX came from ",
           override_dir_variable, " (", source.name, ".ptx)");
    const char *kind = backend.result_kind(result.get()) == TK_OUTPUT_PTX ? "PTX" : "cubin";
    fail(where, "cannot load kernel '", source.name, "' on ", device.name, " (", device.target,
         "): ", call, " failed: ", tools.driver.describe(r), "; the ", kind,
         from_cache ? std::string(" came from the disk cache")
                    : std::string(" was compiled just now (producer: ") + backend.producer() + ")",
         retried ? ", after the cached one had failed to load as well and was deleted" : "");
  }
  if (!from_cache)
    backend.result_cache_store(result.get());
  if (env::flag("TK_DEBUG"))
    log_resources(tools.driver, source, loaded, from_cache);
  if (loaded.shared_bytes > 48 * 1024)
    tools.driver.check(tools.driver.func_set_attribute(loaded.function,
                                                       cu::function_max_dynamic_shared_size_bytes,
                                                       int(loaded.shared_bytes)),
                       "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", where);
  return loaded;
}

TK_DECL loaded_kernel compile_and_load(const std::string &kernel_name, const std::string &ir,
                                       cu::context ctx, const code_options &code,
                                       std::source_location where) {
  const cu::driver &driver = cu::get_driver(where);
  const cu::device_info &device = driver.device_of(ctx, where);
  const backend_library &backend = get_backend(where);
  kernel_source source{kernel_name, ir, device, code,
                       resolve_target_arch(code.target_arch, device, backend.targets(), where)};
  source.code.tensor_maps = code.tensor_maps && driver.tensor_map_encode_tiled != nullptr;
  return compile_and_load({driver, backend}, source, where);
}

} // namespace tk::detail

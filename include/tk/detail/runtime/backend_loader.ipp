/// @file backend_loader.ipp
/// The bodies of the functions backend_loader.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/runtime/backend_loader.hpp>

namespace tk::detail {

TK_DECL owned<backend_library> load_backend_from(const std::string &path, std::string &why) {
  void *handle = os::open_library(path, why);
  if (!handle)
    return nullptr;
  auto lib = make_owned<backend_library>();
  lib->path = path;
  lib->handle = handle;
  const char *missing = nullptr;
  auto resolve = [&](auto &slot, const char *name) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(os::find_symbol(handle, name));
    if (!slot && !missing)
      missing = name;
  };
  // First, so that a TileKit backend of another version is named as one. Version 1 had no
  // tk_backend_abi_version.
  resolve(lib->abi_version, "tk_backend_abi_version");
  const int abi = lib->abi_version ? lib->abi_version() : 1;
  if (abi != TK_BACKEND_ABI_VERSION) {
    why = !lib->abi_version && !os::find_symbol(handle, "tk_compile")
              ? std::string("it is not a TileKit backend library of this version: it lacks "
                            "tk_compile")
              : "it is a TileKit backend of another version (its C ABI is version " +
                    std::to_string(abi) + ", this program needs version " +
                    std::to_string(TK_BACKEND_ABI_VERSION) + ")";
    os::close_library(handle);
    return nullptr;
  }
  resolve(lib->compile, "tk_compile");
  resolve(lib->compile_options_init, "tk_compile_options_init");
  resolve(lib->result_free, "tk_compile_result_free");
  resolve(lib->result_status, "tk_compile_result_status");
  resolve(lib->result_error, "tk_compile_result_error");
  resolve(lib->result_binary, "tk_compile_result_binary");
  resolve(lib->result_kind, "tk_compile_result_kind");
  resolve(lib->result_ptx, "tk_compile_result_ptx");
  resolve(lib->result_kernel_name, "tk_compile_result_kernel_name");
  resolve(lib->result_target, "tk_compile_result_target");
  resolve(lib->result_shared_bytes, "tk_compile_result_shared_bytes");
  resolve(lib->result_dynamic_shared_bytes, "tk_compile_result_dynamic_shared_bytes");
  resolve(lib->result_threads_per_block, "tk_compile_result_threads_per_block");
  resolve(lib->result_tensor_map_count, "tk_compile_result_tensor_map_count");
  resolve(lib->result_tensor_map, "tk_compile_result_tensor_map");
  resolve(lib->result_producer_log, "tk_compile_result_producer_log");
  resolve(lib->result_stage_ms, "tk_compile_result_stage_ms");
  resolve(lib->stage_name, "tk_stage_name");
  resolve(lib->targets, "tk_backend_targets");
  resolve(lib->version, "tk_backend_version");
  resolve(lib->producer, "tk_backend_producer");
  resolve(lib->compile_cached, "tk_compile_cached");
  resolve(lib->result_from_cache, "tk_compile_result_from_cache");
  resolve(lib->result_cache_entry, "tk_compile_result_cache_entry");
  resolve(lib->result_cache_store, "tk_compile_result_cache_store");
  resolve(lib->cache_directory, "tk_cache_directory");
  resolve(lib->cache_load, "tk_cache_load");
  resolve(lib->cache_store, "tk_cache_store");
  resolve(lib->cache_free, "tk_cache_free");
  resolve(lib->result_resources, "tk_compile_result_resources");
  resolve(lib->result_stage_ir_count, "tk_compile_result_stage_ir_count");
  resolve(lib->result_stage_ir, "tk_compile_result_stage_ir");
  resolve(lib->result_stage_ir_named, "tk_compile_result_stage_ir_named");
  if (missing) {
    // Not ours, or from another version of TileKit: close it so a later search can load the
    // right one.
    os::close_library(handle);
    why = std::string("it is not a TileKit backend library of this version: it lacks ") + missing;
    return nullptr;
  }
  return lib;
}

TK_DECL std::vector<std::string> backend_search_paths() {
  std::vector<std::string> paths;
#ifdef TK_BACKEND_LIBRARY_PATH
  paths.push_back(TK_BACKEND_LIBRARY_PATH);
#endif
  const std::string dir = os::executable_directory();
  if (!dir.empty()) {
    paths.push_back(dir + os::path_separator + backend_file_name());
    paths.push_back(dir + os::path_separator + ".." + os::path_separator + "lib" +
                    os::path_separator + backend_file_name());
  }
  paths.push_back(backend_file_name());
  return paths;
}

} // namespace tk::detail

/// @file backend_loader.hpp
/// The backend library (libtilekit_backend.so, tilekit_backend.dll), loaded at run time: the
/// header-only front end then needs no link dependency, and a program that only interprets
/// kernels runs where the backend is not installed.
///
/// Where it is looked for, in order:
///  1. the environment variable TK_BACKEND_LIBRARY, a full path: when set, nothing else is tried,
///     so that a mistyped path is reported rather than silently replaced by another copy;
///  2. TK_BACKEND_LIBRARY_PATH, a full path fixed at compile time (CMake's tk::tk target defines
///     it as the library it built); a program run on another machine, where that path does not
///     exist, goes on to the next places;
///  3. the directory of the running executable (a program shipped with the library beside it);
///  4. `lib/` beside that directory, `<exe dir>/../lib/` (the installed layout, bin/ and lib/:
///     TileKit's bundle, docs/deploy.md, and its build tree, where examples/ sits beside lib/);
///  5. the dynamic loader's own search (LD_LIBRARY_PATH, rpath, PATH on Windows) for the plain
///     file name.
///
/// The functions are called only through the table below, never directly.
#pragma once

#include <tk/backend.h>
#include <tk/detail/runtime/os.hpp>
#include <tk/detail/trace/ownership.hpp>
#include <tk/error.hpp>

#include <source_location>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tk::detail {

/// The backend's C ABI (<tk/backend.h>), resolved from a loaded library.
struct backend_library {
  decltype(&::tk_compile) compile = nullptr;
  decltype(&::tk_compile_options_init) compile_options_init = nullptr;
  decltype(&::tk_compile_result_free) result_free = nullptr;
  decltype(&::tk_compile_result_status) result_status = nullptr;
  decltype(&::tk_compile_result_error) result_error = nullptr;
  decltype(&::tk_compile_result_binary) result_binary = nullptr;
  decltype(&::tk_compile_result_kind) result_kind = nullptr;
  decltype(&::tk_compile_result_ptx) result_ptx = nullptr;
  decltype(&::tk_compile_result_kernel_name) result_kernel_name = nullptr;
  decltype(&::tk_compile_result_target) result_target = nullptr;
  decltype(&::tk_compile_result_shared_bytes) result_shared_bytes = nullptr;
  decltype(&::tk_compile_result_dynamic_shared_bytes) result_dynamic_shared_bytes = nullptr;
  decltype(&::tk_compile_result_threads_per_block) result_threads_per_block = nullptr;
  decltype(&::tk_compile_result_tensor_map_count) result_tensor_map_count = nullptr;
  decltype(&::tk_compile_result_tensor_map) result_tensor_map = nullptr;
  decltype(&::tk_compile_result_producer_log) result_producer_log = nullptr;
  decltype(&::tk_compile_result_stage_ms) result_stage_ms = nullptr;
  decltype(&::tk_stage_name) stage_name = nullptr;
  decltype(&::tk_backend_targets) targets = nullptr;
  decltype(&::tk_backend_version) version = nullptr;
  decltype(&::tk_backend_abi_version) abi_version = nullptr;
  decltype(&::tk_backend_producer) producer = nullptr;
  decltype(&::tk_compile_cached) compile_cached = nullptr;
  decltype(&::tk_compile_result_from_cache) result_from_cache = nullptr;
  decltype(&::tk_compile_result_cache_entry) result_cache_entry = nullptr;
  decltype(&::tk_compile_result_cache_store) result_cache_store = nullptr;
  decltype(&::tk_cache_directory) cache_directory = nullptr;
  decltype(&::tk_cache_load) cache_load = nullptr;
  decltype(&::tk_cache_store) cache_store = nullptr;
  decltype(&::tk_cache_free) cache_free = nullptr;

  /// The file it was loaded from.
  std::string path;
  /// The OS handle. The library is never closed: compiled code and LLVM's static state in it
  /// must outlive every caller, including other threads and static destructors at exit.
  void *handle = nullptr;
};

/// The backend library's file name on this platform.
inline std::string backend_file_name() { return os::library_file_name("tilekit_backend"); }

/// Loads the backend from `path` and resolves its table; nothing on failure, with `why` set.
inline owned<backend_library> load_backend_from(const std::string &path, std::string &why) {
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
  if (missing) {
    // Not ours, or from another version of TileKit: close it so a later search can load the
    // right one.
    os::close_library(handle);
    why = std::string("it is not a TileKit backend library of this version: it lacks ") + missing;
    return nullptr;
  }
  return lib;
}

/// The places the backend is looked for when TK_BACKEND_LIBRARY is unset, in order.
inline std::vector<std::string> backend_search_paths() {
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

/// Ends each search error: how to run without the backend.
inline constexpr const char *backend_interpreter_hint =
    "; or run on the CPU interpreter with TK_INTERPRET=1 or launch_options{.backend = "
    "tk::backend::interpreter}";

/// Loads the backend from the first of `paths` that holds it; a path that does not exist or
/// does not load is passed over. Throws tk::error at `where`, naming every path and why each
/// failed.
inline owned<backend_library>
find_backend_in(const std::vector<std::string> &paths,
                std::source_location where = std::source_location::current()) {
  std::string tried;
  for (const std::string &path : paths) {
    std::string why;
    if (auto lib = load_backend_from(path, why))
      return lib;
    tried += "\n  " + path + ": " + why;
  }
  fail(where, "cannot find the TileKit backend library ", backend_file_name(),
       ", which compiles kernels for the GPU; tried:", tried,
       "\nset TK_BACKEND_LIBRARY to its full path (TileKit's build puts it in lib/ of the build "
       "directory)",
       backend_interpreter_hint);
}

/// Searches for the backend and loads it (every call searches again; see get_backend): from
/// TK_BACKEND_LIBRARY when set, else from the first of backend_search_paths() that holds it.
/// Throws tk::error at `where`, naming every place tried and why each failed.
inline owned<backend_library>
find_backend(std::source_location where = std::source_location::current()) {
  const auto from_env = os::environment("TK_BACKEND_LIBRARY");
  if (from_env && !from_env->empty()) {
    std::string why;
    if (auto lib = load_backend_from(*from_env, why))
      return lib;
    fail(where, "cannot load the TileKit backend from TK_BACKEND_LIBRARY=", *from_env, " (", why,
         "); set TK_BACKEND_LIBRARY to the full path of ", backend_file_name(),
         " or unset it to search the usual places", backend_interpreter_hint);
  }
  return find_backend_in(backend_search_paths(), where);
}

/// The backend, loaded once per process on first use (thread-safe). A failure is remembered and
/// reported again, at each caller's location, on every later call.
inline const backend_library &
get_backend(std::source_location where = std::source_location::current()) {
  struct state {
    owned<backend_library> lib;
    std::string error;
  };
  // Never destroyed: the library is never unloaded (see backend_library::handle).
  static const state *const loaded = [] {
    auto *s = new state;
    try {
      s->lib = find_backend();
    } catch (const tk::error &e) {
      s->error = e.message();
    }
    return s;
  }();
  if (!loaded->lib)
    throw tk::error(loaded->error, where);
  return *loaded->lib;
}

} // namespace tk::detail

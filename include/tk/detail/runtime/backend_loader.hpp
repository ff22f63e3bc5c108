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

#include <tk/detail/config.hpp>

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
  decltype(&::tk_compile_result_resources) result_resources = nullptr;
  decltype(&::tk_compile_result_stage_ir_count) result_stage_ir_count = nullptr;
  decltype(&::tk_compile_result_stage_ir) result_stage_ir = nullptr;
  decltype(&::tk_compile_result_stage_ir_named) result_stage_ir_named = nullptr;

  /// The file it was loaded from.
  std::string path;
  /// The OS handle. The library is never closed: compiled code and LLVM's static state in it
  /// must outlive every caller, including other threads and static destructors at exit.
  void *handle = nullptr;
};

/// The backend library's file name on this platform.
inline std::string backend_file_name() { return os::library_file_name("tilekit_backend"); }

/// Loads the backend from `path` and resolves its table; nothing on failure, with `why` set.
TK_DECL owned<backend_library> load_backend_from(const std::string &path, std::string &why);

/// The places the backend is looked for when TK_BACKEND_LIBRARY is unset, in order.
TK_DECL std::vector<std::string> backend_search_paths();

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

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/runtime/backend_loader.ipp>
#endif

/// @file Cached.cpp
/// The C ABI's disk cache (include/tk/backend.h).
///
/// tk_compile_cached: the key of a compile, the entry it names, and tk_compile_named on a miss;
/// tk_cache_load/store: the other kinds of entries (autotuning results).
#include "CAPI/Result.h"
#include "Cache/DiskCache.h"
#include "Cache/KernelEntry.h"
#include "tk/backend.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using tk::cache::cache_key;
using tk::cache::cached_kernel;
using tk::cache::disk_cache;

/// The cache as it is now ($TK_CACHE_DIR is read on every call: cheap, and a program or test may
/// change it), or nothing without a directory.
std::optional<disk_cache> current_cache() {
  std::string dir = disk_cache::default_directory();
  if (dir.empty())
    return std::nullopt;
  return disk_cache(std::move(dir), tk_backend_version());
}

std::string_view text(const char *s) { return s ? std::string_view(s) : std::string_view(); }

/// The options that decide the binary, as one string: the one place a new option joins the key.
std::string options_key(const tk_compile_options &opts) {
  std::string key = "num_warps=" + std::to_string(opts.num_warps) +
                    ";num_stages=" + std::to_string(opts.num_stages);
  if (!opts.fp_fusion)
    key += ";fp_fusion=0";
  if (const std::string_view lowering = text(opts.lowering_target);
      !lowering.empty() && lowering != text(opts.target))
    key += ";lowered_for=" + std::string(lowering);
  if (opts.tensor_maps)
    key += ";tensor_maps";
  if (opts.output != TK_OUTPUT_AUTO)
    key += ";output=" + std::to_string(int(opts.output));
  return key;
}

/// The contents of every device-function library the IR names (`library = "<path>"` of
/// tk.extern_elementwise, an MLIR string: \" \\ and \XX escapes), each after its path; a file
/// that cannot be read as "unreadable" (the compile then fails and stores nothing). A library
/// rebuilt in place thus changes the key.
std::string libraries_key(std::string_view ir) {
  static constexpr std::string_view marker = "library = \"";
  std::string key;
  for (std::size_t at = ir.find(marker); at != std::string_view::npos; at = ir.find(marker, at)) {
    at += marker.size();
    std::string path;
    for (; at < ir.size() && ir[at] != '"'; ++at) {
      if (ir[at] != '\\' || at + 1 >= ir.size()) {
        path += ir[at];
      } else if (ir[at + 1] == '"' || ir[at + 1] == '\\') {
        path += ir[++at];
      } else if (at + 2 < ir.size()) {
        const std::string hex(ir.substr(at + 1, 2));
        path += char(std::strtol(hex.c_str(), nullptr, 16));
        at += 2;
      }
    }
    std::ifstream file(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << file.rdbuf();
    key += path + '\0' + (file ? bytes.str() : std::string("unreadable")) + '\0';
  }
  return key;
}

cache_key kernel_key(std::string_view ir, const tk_compile_options &opts) {
  const std::string options = options_key(opts);
  const std::string libraries = libraries_key(ir);
  return tk::cache::make_cache_key(
      {ir, text(opts.target), options, tk_backend_version(), tk_backend_producer(), libraries});
}

/// A tensor map's recipe as the C ABI (tk_tensor_map) or the cache entry
/// (tk::cache::tensor_map_recipe) holds it, from the other: the same fields.
template <class To, class From> To copy_map(const From &from) {
  To to{};
  to.rank = from.rank;
  to.element_bytes = from.element_bytes;
  to.base_arg = from.base_arg;
  for (std::size_t d = 0; d < TK_TENSOR_MAP_MAX_RANK; ++d) {
    to.shape_arg[d] = from.shape_arg[d];
    to.shape[d] = from.shape[d];
    to.stride_arg[d] = from.stride_arg[d];
    to.stride[d] = from.stride[d];
    to.box[d] = from.box[d];
  }
  to.swizzle = from.swizzle;
  return to;
}

/// The launch metadata of `k` as a result's.
void fill_from_entry(tk_compile_result &result, cached_kernel &&k) {
  result.binary = std::move(k.binary);
  result.kind = k.binary_kind == cached_kernel::ptx ? TK_OUTPUT_PTX : TK_OUTPUT_CUBIN;
  if (result.kind == TK_OUTPUT_PTX)
    result.ptx = result.binary;
  result.kernelName = std::move(k.kernel_name);
  result.target = std::move(k.target);
  result.threadsPerBlock = int(k.threads_per_block);
  result.dynamicSharedBytes = k.dynamic_shared_bytes;
  result.sharedBytes = size_t(k.static_shared_bytes) + k.dynamic_shared_bytes;
  result.registers = k.registers;
  result.spillStoreBytes = k.spill_store_bytes;
  result.spillLoadBytes = k.spill_load_bytes;
  result.stackBytes = k.stack_bytes;
  for (const tk::cache::tensor_map_recipe &r : k.tensor_maps)
    result.tensorMaps.push_back(copy_map<tk_tensor_map>(r));
}

/// A fresh result as a cache entry's payload.
cached_kernel entry_of(const tk_compile_result &result) {
  cached_kernel k;
  k.binary = result.binary;
  k.binary_kind = result.kind == TK_OUTPUT_PTX ? cached_kernel::ptx : cached_kernel::cubin;
  k.kernel_name = result.kernelName;
  k.target = result.target;
  k.threads_per_block = std::uint32_t(result.threadsPerBlock);
  k.dynamic_shared_bytes = std::uint32_t(result.dynamicSharedBytes);
  k.static_shared_bytes = std::uint32_t(result.sharedBytes - result.dynamicSharedBytes);
  k.registers = result.registers;
  k.spill_store_bytes = result.spillStoreBytes;
  k.spill_load_bytes = result.spillLoadBytes;
  k.stack_bytes = result.stackBytes;
  for (const tk_tensor_map &m : result.tensorMaps)
    k.tensor_maps.push_back(copy_map<tk::cache::tensor_map_recipe>(m));
  return k;
}

/// The key of a tk_cache_load/store entry, or nothing for arguments that name none.
std::optional<cache_key> entry_key(const char *kind, const char *const *parts, const size_t *sizes,
                                   size_t count) {
  if (!kind || !disk_cache::valid_kind(kind) || std::strcmp(kind, "cubin") == 0 ||
      (count && (!parts || !sizes)))
    return std::nullopt;
  std::vector<std::string_view> all;
  for (size_t i = 0; i < count; ++i) {
    if (!parts[i] && sizes[i])
      return std::nullopt;
    all.emplace_back(parts[i] ? parts[i] : "", sizes[i]);
  }
  all.emplace_back(tk_backend_version());
  return tk::cache::make_cache_key(all.data(), all.size());
}

} // namespace

extern "C" {

tk_status tk_compile_cached(const char *ir, size_t ir_len, const char *source_name,
                            const tk_compile_options *opts, tk_cache_mode mode,
                            tk_compile_result **out) {
  if (!out)
    return TK_ERROR_INVALID_ARGUMENT;
  if (mode != TK_CACHE_USE && mode != TK_CACHE_REPLACE) {
    auto *result = new tk_compile_result();
    result->status = TK_ERROR_INVALID_ARGUMENT;
    result->error = "tk_compile_cached: " + std::to_string(int(mode)) +
                    " is not a tk_cache_mode (TK_CACHE_USE, TK_CACHE_REPLACE)";
    *out = result;
    return result->status;
  }
  std::optional<disk_cache> cache;
  cache_key key;
  if (ir && opts && opts->target) {
    cache = current_cache();
    if (cache) {
      key = kernel_key(std::string_view(ir, ir_len), *opts);
      // An entry keeps no stage IR: with keep_stages the kernel is compiled afresh (and may be
      // stored, as the binary is the same), not taken from the entry.
      if (mode == TK_CACHE_REPLACE) {
        cache->remove(key, "cubin");
      } else if (opts->keep_stages) {
        if (tk::cache::debug_enabled())
          tk::cache::log_line("keep_stages: compiling, not reading " +
                              cache->entry_path(key, "cubin"));
      } else if (std::optional<std::string> bytes = cache->load(key, "cubin")) {
        if (std::optional<cached_kernel> k = tk::cache::deserialize(*bytes)) {
          auto *result = new tk_compile_result();
          fill_from_entry(*result, std::move(*k));
          result->fromCache = true;
          result->cacheDirectory = cache->directory();
          result->cacheKey = key;
          result->cacheEntry = cache->entry_path(key, "cubin");
          *out = result;
          return TK_OK;
        }
        if (tk::cache::debug_enabled())
          tk::cache::log_line("cache entry " + cache->entry_path(key, "cubin") +
                              " does not hold a kernel; recompiling");
      }
    }
  }
  const tk_status status = tk_compile_named(ir, ir_len, source_name, opts, out);
  if (status == TK_OK && cache) {
    (*out)->cacheDirectory = cache->directory();
    (*out)->cacheKey = key;
    (*out)->cacheEntry = cache->entry_path(key, "cubin");
  }
  return status;
}

int tk_compile_result_from_cache(const tk_compile_result *res) { return res && res->fromCache; }

const char *tk_compile_result_cache_entry(const tk_compile_result *res) {
  return res ? res->cacheEntry.c_str() : "";
}

int tk_compile_result_cache_store(const tk_compile_result *res) {
  if (!res || res->fromCache || res->status != TK_OK || res->cacheDirectory.empty())
    return 0;
  const disk_cache cache(res->cacheDirectory, tk_backend_version());
  return cache.store(res->cacheKey, "cubin", tk::cache::serialize(entry_of(*res))) ? 1 : 0;
}

const char *tk_cache_directory(void) {
  thread_local std::string dir;
  dir = disk_cache::default_directory();
  return dir.c_str();
}

void *tk_cache_load(const char *kind, const char *const *parts, const size_t *sizes, size_t count,
                    size_t *size) {
  const std::optional<cache_key> key = entry_key(kind, parts, sizes, count);
  const std::optional<disk_cache> cache = current_cache();
  if (!key || !cache || !size)
    return nullptr;
  const std::optional<std::string> bytes = cache->load(*key, kind);
  if (!bytes)
    return nullptr;
  void *payload = std::malloc(bytes->size() + 1);
  if (!payload)
    return nullptr;
  std::memcpy(payload, bytes->data(), bytes->size());
  static_cast<char *>(payload)[bytes->size()] = '\0';
  *size = bytes->size();
  return payload;
}

int tk_cache_store(const char *kind, const char *const *parts, const size_t *sizes, size_t count,
                   const void *payload, size_t size) {
  const std::optional<cache_key> key = entry_key(kind, parts, sizes, count);
  const std::optional<disk_cache> cache = current_cache();
  if (!key || !cache || (!payload && size))
    return 0;
  return cache->store(*key, kind,
                      std::string_view(static_cast<const char *>(payload ? payload : ""), size))
             ? 1
             : 0;
}

void tk_cache_free(void *payload) { std::free(payload); }

} // extern "C"

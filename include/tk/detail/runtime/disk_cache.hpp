/// @file disk_cache.hpp
/// The on-disk kernel cache: compiled binaries (and autotuning results) stored under a per-user
/// directory so that a kernel is compiled once per machine, not once per process.
///
/// Entries are keyed by a 128-bit hash of everything that determines the binary
/// (`make_cache_key`), written to a temporary file and renamed into place (readers see the old or
/// the new complete entry, never a partial one), and verified on every read: a damaged, truncated,
/// foreign or stale entry is a miss, so the caller compiles again and `store` replaces it. The
/// cache never throws for I/O problems and never returns bytes it did not verify. The file format
/// is described in docs/runtime.md, section "Disk cache".
#pragma once

#include <tk/detail/env.hpp>
#include <tk/detail/runtime/os.hpp>
#include <tk/error.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tk::detail {

/// A 128-bit cache key; `hex()` is its 32 lowercase hex digits, `hi` first.
struct cache_key {
  std::uint64_t hi = 0, lo = 0;

  std::string hex() const {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(32, '0');
    for (int i = 0; i < 16; ++i) {
      out[static_cast<std::size_t>(15 - i)] = digits[(hi >> (4 * i)) & 0xf];
      out[static_cast<std::size_t>(31 - i)] = digits[(lo >> (4 * i)) & 0xf];
    }
    return out;
  }

  friend bool operator==(const cache_key &, const cache_key &) = default;
};

namespace cache_impl {

inline void put_le(std::string &out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

inline std::uint64_t get_le(const unsigned char *p, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i)
    value |= std::uint64_t{p[i]} << (8 * i);
  return value;
}

/// Reads little-endian fields from a byte string; any read past the end clears `ok` and every
/// later read returns zero or empty, so parsers check `ok` once at the end.
class reader {
public:
  explicit reader(std::string_view bytes) : bytes_(bytes) {}

  std::uint64_t integer(int width) {
    if (!ok_ || remaining() < static_cast<std::size_t>(width)) {
      ok_ = false;
      return 0;
    }
    const auto *p = reinterpret_cast<const unsigned char *>(bytes_.data() + pos_);
    pos_ += static_cast<std::size_t>(width);
    return get_le(p, width);
  }
  std::string_view bytes(std::uint64_t n) {
    if (!ok_ || remaining() < n) {
      ok_ = false;
      return {};
    }
    std::string_view out = bytes_.substr(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return out;
  }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  std::size_t position() const { return pos_; }
  bool ok() const { return ok_; }

private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

inline std::uint64_t rotl64(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline std::uint64_t fmix64(std::uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

/// MurmurHash3 x64_128. Reads bytes explicitly as little-endian so that the keys (and therefore
/// the file names) are the same on every host.
inline cache_key murmur3_128(std::string_view data, std::uint64_t seed) {
  constexpr std::uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
  const auto *p = reinterpret_cast<const unsigned char *>(data.data());
  const std::size_t n = data.size(), blocks = n / 16;
  std::uint64_t h1 = seed, h2 = seed;
  auto mix1 = [&](std::uint64_t k1) {
    k1 *= c1;
    k1 = rotl64(k1, 31);
    k1 *= c2;
    h1 ^= k1;
  };
  auto mix2 = [&](std::uint64_t k2) {
    k2 *= c2;
    k2 = rotl64(k2, 33);
    k2 *= c1;
    h2 ^= k2;
  };
  for (std::size_t i = 0; i < blocks; ++i) {
    mix1(get_le(p + 16 * i, 8));
    h1 = rotl64(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    mix2(get_le(p + 16 * i + 8, 8));
    h2 = rotl64(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  const std::size_t tail = n & 15;
  std::array<unsigned char, 16> last{};
  for (std::size_t i = 0; i < tail; ++i)
    last[i] = p[blocks * 16 + i];
  if (tail > 8)
    mix2(get_le(last.data() + 8, 8));
  if (tail > 0)
    mix1(get_le(last.data(), 8));
  h1 ^= n;
  h2 ^= n;
  h1 += h2;
  h2 += h1;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 += h2;
  h2 += h1;
  return {h1, h2};
}

inline std::uint64_t checksum64(std::string_view payload) {
  return murmur3_128(payload, 0x746b2d7061796c64ULL).hi;
}

/// TK_DEBUG, read as the backend reads it (env.hpp). Read on every use (only on the rare paths
/// that log) so that it can change while the process runs.
inline bool debug_enabled() { return env::flag("TK_DEBUG"); }

/// One whole line per call, so that lines from concurrent threads do not interleave.
inline void log_line(const std::string &message) {
  const std::string line = "tk: " + message + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

/// Set once the "not writable" warning has been printed; a reference so that tests can reset it.
inline std::atomic<bool> &unwritable_warned() {
  static std::atomic<bool> warned{false};
  return warned;
}

inline void warn_unwritable(const std::string &dir, const std::string &reason) {
  if (!debug_enabled() || unwritable_warned().exchange(true))
    return;
  log_line("cache directory " + dir + " is not writable (" + reason +
           "); compiled kernels will not be cached");
}

/// A temporary file name unique among all threads of all processes writing to the directory:
/// the process id, and a counter that no two threads of the process see at the same value.
inline std::string temporary_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  return ".tmp." + std::to_string(os::process_id()) + "." +
         std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
}

/// `dir` / `name`, with the platform's separator.
inline std::string join(const std::string &dir, std::string_view name) {
  std::string out = dir;
  if (!out.empty() && out.back() != os::path_separator && out.back() != '/')
    out.push_back(os::path_separator);
  out.append(name);
  return out;
}

inline constexpr char magic[4] = {'T', 'K', 'C', '1'};
inline constexpr std::uint32_t format_version = 1;
/// Bounds what a damaged length field can make `load` allocate.
inline constexpr std::uint64_t max_entry_bytes = std::uint64_t{1} << 30;

} // namespace cache_impl

/// A 128-bit hash of everything that determines a binary: the IR text, the compile options
/// (target, num_warps, num_stages, ...) and the backend's version. Each part is prefixed by its
/// length, so ("ab", "c") and ("a", "bc") give different keys.
inline cache_key make_cache_key(std::initializer_list<std::string_view> parts) {
  std::string buffer;
  std::size_t size = 0;
  for (std::string_view part : parts)
    size += 8 + part.size();
  buffer.reserve(size);
  for (std::string_view part : parts) {
    cache_impl::put_le(buffer, part.size(), 8);
    buffer.append(part);
  }
  return cache_impl::murmur3_128(buffer, 0x74696c656b697431ULL);
}

/// A directory of verified cache entries. Stateless apart from its directory and producer
/// version, so one instance may be used from many threads; many processes may share the
/// directory.
class disk_cache {
public:
  /// `producer_version` (e.g. the backend's version string) is recorded in every entry; an entry
  /// written by another producer version is a miss.
  disk_cache(std::string dir, std::string producer_version)
      : dir_(std::move(dir)), producer_(std::move(producer_version)) {
    if (producer_.size() > 0xffff)
      internal_error("cache producer version longer than 65535 bytes");
  }

  /// `$TK_CACHE_DIR` if set; otherwise `$XDG_CACHE_HOME/tilekit` or `$HOME/.cache/tilekit` on
  /// Linux and other POSIX systems, `$HOME/Library/Caches/tilekit` on macOS,
  /// `%LOCALAPPDATA%\tilekit` on Windows (paths in UTF-8 there). Empty when none of these
  /// variables is set.
  static std::string default_directory() {
    using cache_impl::join;
    if (std::string dir = os::environment_path("TK_CACHE_DIR"); !dir.empty())
      return dir;
#if defined(_WIN32)
    if (std::string base = os::environment_path("LOCALAPPDATA"); !base.empty())
      return join(base, "tilekit");
#elif defined(__APPLE__)
    if (std::string home = os::environment_path("HOME"); !home.empty())
      return join(join(join(home, "Library"), "Caches"), "tilekit");
#else
    // The XDG specification says a relative XDG_CACHE_HOME is invalid and must be ignored.
    if (std::string base = os::environment_path("XDG_CACHE_HOME");
        !base.empty() && os::is_absolute_path(base))
      return join(base, "tilekit");
    if (std::string home = os::environment_path("HOME"); !home.empty())
      return join(join(home, ".cache"), "tilekit");
#endif
    return {};
  }

  const std::string &directory() const { return dir_; }
  const std::string &producer_version() const { return producer_; }

  /// Where the entry for (`key`, `kind`) lives: `<dir>/<2 hex digits>/<30 hex digits>.<kind>`.
  /// `kind` ("cubin", "tune", ...) must be 1 to 16 characters from [a-z0-9_-].
  std::string entry_path(const cache_key &key, std::string_view kind) const {
    check_kind(kind);
    const std::string hex = key.hex();
    return cache_impl::join(cache_impl::join(dir_, std::string_view(hex).substr(0, 2)),
                            hex.substr(2) + "." + std::string(kind));
  }

  /// The verified payload stored for (`key`, `kind`), or nullopt: absent, unreadable, damaged,
  /// written by another format or producer version, or for another key. Bad entries are logged
  /// under TK_DEBUG=1.
  std::optional<std::string> load(const cache_key &key, std::string_view kind) const {
    return load_entry(entry_path(key, kind), key, kind);
  }

  /// Writes the entry for (`key`, `kind`) atomically, replacing any previous one. False when it
  /// could not be written (e.g. a read-only directory): the cache is then simply not used, and
  /// TK_DEBUG=1 says so once per process.
  bool store(const cache_key &key, std::string_view kind, std::string_view payload) const {
    return store_entry(entry_path(key, kind), key, kind, payload);
  }

  /// Deletes the entry for (`key`, `kind`), if any: for an entry that verified but whose
  /// contents turned out unusable (a binary the driver rejects).
  void remove(const cache_key &key, std::string_view kind) const {
    os::remove_file(entry_path(key, kind));
  }

private:
  static void check_kind(std::string_view kind) {
    bool valid = !kind.empty() && kind.size() <= 16;
    for (char c : kind)
      valid = valid && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-');
    if (!valid)
      internal_error("invalid cache entry kind '" + std::string(kind) + "'");
  }

  std::string encode(const cache_key &key, std::string_view kind, std::string_view payload) const {
    using cache_impl::put_le;
    std::string out(cache_impl::magic, sizeof cache_impl::magic);
    put_le(out, cache_impl::format_version, 4);
    put_le(out, key.hi, 8);
    put_le(out, key.lo, 8);
    put_le(out, kind.size(), 2);
    out.append(kind);
    put_le(out, producer_.size(), 2);
    out.append(producer_);
    put_le(out, payload.size(), 8);
    put_le(out, cache_impl::checksum64(payload), 8);
    out.reserve(out.size() + payload.size());
    out.append(payload);
    return out;
  }

  static std::nullopt_t bad_entry(const std::string &path, std::string_view state,
                                  const std::string &reason) {
    if (cache_impl::debug_enabled())
      cache_impl::log_line("cache entry " + path + " is " + std::string(state) + " (" + reason +
                           "); recompiling");
    return std::nullopt;
  }

  std::optional<std::string> load_entry(const std::string &path, const cache_key &key,
                                        std::string_view kind) const {
    std::string why;
    const os::file_kind type = os::file_status(path, why);
    if (type == os::file_kind::missing)
      return std::nullopt;
    if (!why.empty())
      return bad_entry(path, "unreadable", why);
    if (type != os::file_kind::regular)
      return bad_entry(path, "unreadable", "not a regular file");

    // The size comes from the open file: a concurrent rename replaces the name, not the file
    // being read.
    std::string bytes;
    bool too_large = false;
    if (!os::read_file(path, bytes, cache_impl::max_entry_bytes, why, too_large))
      return too_large ? bad_entry(path, "corrupted", "larger than any entry TileKit writes")
                       : bad_entry(path, "unreadable", why);

    return decode(path, std::move(bytes), key, kind);
  }

  std::optional<std::string> decode(const std::string &path, std::string bytes,
                                    const cache_key &key, std::string_view kind) const {
    cache_impl::reader in(bytes);
    const std::string_view found = in.bytes(sizeof cache_impl::magic);
    if (!in.ok())
      return bad_entry(path, "corrupted", "truncated");
    if (found != std::string_view(cache_impl::magic, sizeof cache_impl::magic))
      return bad_entry(path, "corrupted", "not a TileKit cache entry");
    const std::uint64_t version = in.integer(4);
    if (!in.ok())
      return bad_entry(path, "corrupted", "truncated");
    if (version != cache_impl::format_version)
      return bad_entry(path, "stale",
                       "format version " + std::to_string(version) + ", expected " +
                           std::to_string(cache_impl::format_version));
    const cache_key stored{in.integer(8), in.integer(8)};
    const std::string_view stored_kind = in.bytes(in.integer(2));
    const std::string_view producer = in.bytes(in.integer(2));
    const std::uint64_t length = in.integer(8);
    const std::uint64_t checksum = in.integer(8);
    if (!in.ok())
      return bad_entry(path, "corrupted", "truncated");
    if (stored != key || stored_kind != kind)
      return bad_entry(path, "corrupted",
                       "it holds the entry for " + stored.hex() + "." + std::string(stored_kind));
    if (producer != producer_)
      return bad_entry(path, "stale",
                       "written by '" + std::string(producer) + "', expected '" + producer_ + "'");
    if (length != in.remaining())
      return bad_entry(path, "corrupted", length > in.remaining() ? "truncated" : "trailing bytes");
    const std::size_t header = in.position();
    if (cache_impl::checksum64(std::string_view(bytes).substr(header)) != checksum)
      return bad_entry(path, "corrupted", "checksum mismatch");
    bytes.erase(0, header);
    return bytes;
  }

  bool store_entry(const std::string &path, const cache_key &key, std::string_view kind,
                   std::string_view payload) const {
    // The entry's subdirectory: `path` up to its last separator.
    const std::string parent = path.substr(0, path.find_last_of(
#if defined(_WIN32)
                                                  "\\/"
#else
                                                  "/"
#endif
                                                  ));
    std::string why;
    if (!os::make_directories(parent, why)) {
      cache_impl::warn_unwritable(dir_, "cannot create " + parent + ": " + why);
      return false;
    }

    // Same directory as the entry, so that the rename below stays on one file system and is
    // atomic: readers see the old complete entry or the new one.
    const std::string temporary = path + cache_impl::temporary_suffix();
    const std::string bytes = encode(key, kind, payload);
    if (bool created = false; !os::write_file(temporary, bytes, why, created)) {
      if (created) {
        os::remove_file(temporary);
        cache_impl::warn_unwritable(dir_, "cannot write " + temporary + ": " + why);
      } else {
        cache_impl::warn_unwritable(dir_, "cannot create a file in " + parent + ": " + why);
      }
      return false;
    }

    bool renamed = os::rename_file(temporary, path, why);
    if (std::string ignored;
        !renamed && os::file_status(path, ignored, /*follow=*/false) == os::file_kind::directory) {
      // Something that is not ours sits where the entry belongs; it was a miss, so replace it.
      os::remove_all(path);
      why.clear();
      renamed = os::rename_file(temporary, path, why);
    }
    if (!renamed) {
      os::remove_file(temporary);
      cache_impl::warn_unwritable(dir_, "cannot replace " + path + ": " + why);
      return false;
    }
    return true;
  }

  std::string dir_;
  std::string producer_;
};

/// A compiled kernel as the cache stores it: the binary and what launching it needs.
/// How a launch builds one tensor-map parameter of a kernel: tk_tensor_map of <tk/backend.h>
/// (its fields and their meaning), kept with the binary.
struct tensor_map_recipe {
  static constexpr int max_rank = 5; // TK_TENSOR_MAP_MAX_RANK
  std::int32_t rank = 0, element_bytes = 0, base_arg = 0;
  std::array<std::int32_t, max_rank> shape_arg{}, stride_arg{}, box{};
  std::array<std::int64_t, max_rank> shape{}, stride{};
  std::int32_t swizzle = 0; ///< 0, 32, 64 or 128 bytes

  friend bool operator==(const tensor_map_recipe &, const tensor_map_recipe &) = default;
};

struct cached_kernel {
  enum : std::uint8_t { cubin = 0, ptx = 1 };

  std::string binary;
  std::string kernel_name;
  std::string target; ///< e.g. "sm_90a"
  std::uint32_t threads_per_block = 0;
  std::uint32_t dynamic_shared_bytes = 0;
  std::uint8_t binary_kind = cubin;
  std::vector<tensor_map_recipe> tensor_maps; ///< parameters after the kernel's arguments

  friend bool operator==(const cached_kernel &, const cached_kernel &) = default;
};

namespace cache_impl {
inline constexpr std::uint8_t kernel_format_version = 3;
} // namespace cache_impl

/// Explicit little-endian fixed-width fields, so that the bytes do not depend on the compiler's
/// struct layout: u8 version (3), u8 binary_kind, u32 threads_per_block, u32
/// dynamic_shared_bytes, then kernel_name, target and binary, each as a u32 length (u64 for the
/// binary) followed by its bytes, then a u32 count of tensor maps and each map's fields (u32
/// rank, element_bytes, base_arg, then per dimension u32 shape_arg, u64 shape, u32 stride_arg,
/// u64 stride, u32 box, then u32 swizzle; arguments and constants as two's complement).
inline std::string serialize(const cached_kernel &kernel) {
  using cache_impl::put_le;
  if (kernel.kernel_name.size() > 0xffffffffu || kernel.target.size() > 0xffffffffu)
    internal_error("cached kernel name or target too long");
  std::string out;
  out.reserve(26 + kernel.kernel_name.size() + kernel.target.size() + kernel.binary.size());
  put_le(out, cache_impl::kernel_format_version, 1);
  put_le(out, kernel.binary_kind, 1);
  put_le(out, kernel.threads_per_block, 4);
  put_le(out, kernel.dynamic_shared_bytes, 4);
  put_le(out, kernel.kernel_name.size(), 4);
  out.append(kernel.kernel_name);
  put_le(out, kernel.target.size(), 4);
  out.append(kernel.target);
  put_le(out, kernel.binary.size(), 8);
  out.append(kernel.binary);
  put_le(out, kernel.tensor_maps.size(), 4);
  for (const tensor_map_recipe &m : kernel.tensor_maps) {
    put_le(out, std::uint32_t(m.rank), 4);
    put_le(out, std::uint32_t(m.element_bytes), 4);
    put_le(out, std::uint32_t(m.base_arg), 4);
    for (int d = 0; d < tensor_map_recipe::max_rank; ++d) {
      const auto i = std::size_t(d);
      put_le(out, std::uint32_t(m.shape_arg[i]), 4);
      put_le(out, std::uint64_t(m.shape[i]), 8);
      put_le(out, std::uint32_t(m.stride_arg[i]), 4);
      put_le(out, std::uint64_t(m.stride[i]), 8);
      put_le(out, std::uint32_t(m.box[i]), 4);
    }
    put_le(out, std::uint32_t(m.swizzle), 4);
  }
  return out;
}

/// The kernel `serialize` wrote, or nullopt for anything else: another version, an unknown
/// binary kind, a length past the end, or trailing bytes.
inline std::optional<cached_kernel> deserialize(std::string_view bytes) {
  cache_impl::reader in(bytes);
  cached_kernel kernel;
  const std::uint64_t version = in.integer(1);
  kernel.binary_kind = static_cast<std::uint8_t>(in.integer(1));
  kernel.threads_per_block = static_cast<std::uint32_t>(in.integer(4));
  kernel.dynamic_shared_bytes = static_cast<std::uint32_t>(in.integer(4));
  kernel.kernel_name = in.bytes(in.integer(4));
  kernel.target = in.bytes(in.integer(4));
  kernel.binary = in.bytes(in.integer(8));
  const std::uint64_t maps = in.integer(4);
  for (std::uint64_t k = 0; k < maps && in.ok() && k <= tensor_map_recipe::max_rank * 64; ++k) {
    tensor_map_recipe m;
    m.rank = std::int32_t(std::uint32_t(in.integer(4)));
    m.element_bytes = std::int32_t(std::uint32_t(in.integer(4)));
    m.base_arg = std::int32_t(std::uint32_t(in.integer(4)));
    for (int d = 0; d < tensor_map_recipe::max_rank; ++d) {
      const auto i = std::size_t(d);
      m.shape_arg[i] = std::int32_t(std::uint32_t(in.integer(4)));
      m.shape[i] = std::int64_t(in.integer(8));
      m.stride_arg[i] = std::int32_t(std::uint32_t(in.integer(4)));
      m.stride[i] = std::int64_t(in.integer(8));
      m.box[i] = std::int32_t(std::uint32_t(in.integer(4)));
    }
    m.swizzle = std::int32_t(std::uint32_t(in.integer(4)));
    if (m.rank < 1 || m.rank > tensor_map_recipe::max_rank ||
        (m.swizzle != 0 && m.swizzle != 32 && m.swizzle != 64 && m.swizzle != 128))
      return std::nullopt;
    kernel.tensor_maps.push_back(m);
  }
  if (kernel.tensor_maps.size() != maps)
    return std::nullopt;
  if (!in.ok() || in.remaining() != 0 || version != cache_impl::kernel_format_version ||
      kernel.binary_kind > cached_kernel::ptx)
    return std::nullopt;
  return kernel;
}

} // namespace tk::detail

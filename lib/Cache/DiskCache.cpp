/// @file DiskCache.cpp
/// Compiled kernels kept on disk.
#include "Cache/DiskCache.h"

#include "Cache/Bytes.h"
#include "Cache/Files.h"
#include "tk/detail/env.hpp"

#include <array>
#include <atomic>
#include <cstdio>
#include <utility>

namespace tk::cache {

namespace {

std::uint64_t rotl64(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

std::uint64_t fmix64(std::uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

/// MurmurHash3 x64_128. Reads bytes explicitly as little-endian so that the keys (and therefore
/// the file names) are the same on every host.
cache_key murmur3_128(std::string_view data, std::uint64_t seed) {
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

std::uint64_t checksum64(std::string_view payload) {
  return murmur3_128(payload, 0x746b2d7061796c64ULL).hi;
}

/// Set once the "not writable" warning has been printed.
std::atomic<bool> unwritable_warned{false};

void warn_unwritable(const std::string &dir, const std::string &reason) {
  if (!debug_enabled() || unwritable_warned.exchange(true))
    return;
  log_line("cache directory " + dir + " is not writable (" + reason +
           "); compiled kernels will not be cached");
}

/// A temporary file name unique among all threads of all processes writing to the directory:
/// the process id, and a counter that no two threads of the process see at the same value.
std::string temporary_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  return ".tmp." + std::to_string(process_id()) + "." +
         std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
}

/// `dir` / `name`, with the platform's separator.
std::string join(const std::string &dir, std::string_view name) {
  std::string out = dir;
  if (!out.empty() && out.back() != separator && out.back() != '/')
    out.push_back(separator);
  out.append(name);
  return out;
}

constexpr char magic[4] = {'T', 'K', 'C', '1'};
constexpr std::uint32_t format_version = 1;
/// Bounds what a damaged length field can make `load` allocate.
constexpr std::uint64_t max_entry_bytes = std::uint64_t{1} << 30;

std::nullopt_t bad_entry(const std::string &path, std::string_view state,
                         const std::string &reason) {
  if (debug_enabled())
    log_line("cache entry " + path + " is " + std::string(state) + " (" + reason +
             "); recompiling");
  return std::nullopt;
}

} // namespace

std::string cache_key::hex() const {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int i = 0; i < 16; ++i) {
    out[static_cast<std::size_t>(15 - i)] = digits[(hi >> (4 * i)) & 0xf];
    out[static_cast<std::size_t>(31 - i)] = digits[(lo >> (4 * i)) & 0xf];
  }
  return out;
}

cache_key make_cache_key(const std::string_view *parts, std::size_t count) {
  std::string buffer;
  std::size_t size = 0;
  for (std::size_t i = 0; i < count; ++i)
    size += 8 + parts[i].size();
  buffer.reserve(size);
  for (std::size_t i = 0; i < count; ++i) {
    put_le(buffer, parts[i].size(), 8);
    buffer.append(parts[i]);
  }
  return murmur3_128(buffer, 0x74696c656b697431ULL);
}

cache_key make_cache_key(std::initializer_list<std::string_view> parts) {
  return make_cache_key(parts.begin(), parts.size());
}

bool debug_enabled() { return detail::env::flag("TK_DEBUG"); }

void log_line(const std::string &message) {
  const std::string line = "tk: " + message + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

void reset_unwritable_warning() { unwritable_warned = false; }

disk_cache::disk_cache(std::string dir, std::string producer_version)
    : dir_(std::move(dir)), producer_(std::move(producer_version)) {}

std::string disk_cache::default_directory() {
  if (std::string dir = environment_path("TK_CACHE_DIR"); !dir.empty())
    return dir;
#if defined(_WIN32)
  if (std::string base = environment_path("LOCALAPPDATA"); !base.empty())
    return join(base, "tilekit");
#elif defined(__APPLE__)
  if (std::string home = environment_path("HOME"); !home.empty())
    return join(join(join(home, "Library"), "Caches"), "tilekit");
#else
  // The XDG specification says a relative XDG_CACHE_HOME is invalid and must be ignored.
  if (std::string base = environment_path("XDG_CACHE_HOME");
      !base.empty() && is_absolute_path(base))
    return join(base, "tilekit");
  if (std::string home = environment_path("HOME"); !home.empty())
    return join(join(home, ".cache"), "tilekit");
#endif
  return {};
}

bool disk_cache::valid_kind(std::string_view kind) {
  bool valid = !kind.empty() && kind.size() <= 16;
  for (char c : kind)
    valid = valid && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-');
  return valid;
}

std::string disk_cache::entry_path(const cache_key &key, std::string_view kind) const {
  if (!valid_kind(kind))
    return {};
  const std::string hex = key.hex();
  return join(join(dir_, std::string_view(hex).substr(0, 2)),
              hex.substr(2) + "." + std::string(kind));
}

std::string disk_cache::encode(const cache_key &key, std::string_view kind,
                               std::string_view payload) const {
  std::string out(magic, sizeof magic);
  put_le(out, format_version, 4);
  put_le(out, key.hi, 8);
  put_le(out, key.lo, 8);
  put_le(out, kind.size(), 2);
  out.append(kind);
  put_le(out, producer_.size(), 2);
  out.append(producer_);
  put_le(out, payload.size(), 8);
  put_le(out, checksum64(payload), 8);
  out.reserve(out.size() + payload.size());
  out.append(payload);
  return out;
}

std::optional<std::string> disk_cache::load(const cache_key &key, std::string_view kind) const {
  const std::string path = entry_path(key, kind);
  if (path.empty())
    return std::nullopt;
  std::string why;
  const file_kind type = file_status(path, why);
  if (type == file_kind::missing)
    return std::nullopt;
  if (!why.empty())
    return bad_entry(path, "unreadable", why);
  if (type != file_kind::regular)
    return bad_entry(path, "unreadable", "not a regular file");

  // The size comes from the open file: a concurrent rename replaces the name, not the file
  // being read.
  std::string bytes;
  bool too_large = false;
  if (!read_file(path, bytes, max_entry_bytes, why, too_large))
    return too_large ? bad_entry(path, "corrupted", "larger than any entry TileKit writes")
                     : bad_entry(path, "unreadable", why);
  return decode(path, std::move(bytes), key, kind);
}

std::optional<std::string> disk_cache::decode(const std::string &path, std::string bytes,
                                              const cache_key &key, std::string_view kind) const {
  reader in(bytes);
  const std::string_view found = in.bytes(sizeof magic);
  if (!in.ok())
    return bad_entry(path, "corrupted", "truncated");
  if (found != std::string_view(magic, sizeof magic))
    return bad_entry(path, "corrupted", "not a TileKit cache entry");
  const std::uint64_t version = in.integer(4);
  if (!in.ok())
    return bad_entry(path, "corrupted", "truncated");
  if (version != format_version)
    return bad_entry(path, "stale",
                     "format version " + std::to_string(version) + ", expected " +
                         std::to_string(format_version));
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
  if (checksum64(std::string_view(bytes).substr(header)) != checksum)
    return bad_entry(path, "corrupted", "checksum mismatch");
  bytes.erase(0, header);
  return bytes;
}

bool disk_cache::store(const cache_key &key, std::string_view kind,
                       std::string_view payload) const {
  const std::string path = entry_path(key, kind);
  if (path.empty() || producer_.size() > 0xffff)
    return false;
  // The entry's subdirectory: `path` up to its last separator.
  const std::string parent = path.substr(0, path.find_last_of(
#if defined(_WIN32)
                                                "\\/"
#else
                                                "/"
#endif
                                                ));
  std::string why;
  if (!make_directories(parent, why)) {
    warn_unwritable(dir_, "cannot create " + parent + ": " + why);
    return false;
  }

  // Same directory as the entry, so that the rename below stays on one file system and is
  // atomic: readers see the old complete entry or the new one.
  const std::string temporary = path + temporary_suffix();
  const std::string bytes = encode(key, kind, payload);
  if (bool created = false; !write_file(temporary, bytes, why, created)) {
    if (created) {
      remove_file(temporary);
      warn_unwritable(dir_, "cannot write " + temporary + ": " + why);
    } else {
      warn_unwritable(dir_, "cannot create a file in " + parent + ": " + why);
    }
    return false;
  }

  bool renamed = rename_file(temporary, path, why);
  if (std::string ignored;
      !renamed && file_status(path, ignored, /*follow=*/false) == file_kind::directory) {
    // Something that is not ours sits where the entry belongs; it was a miss, so replace it.
    remove_all(path);
    why.clear();
    renamed = rename_file(temporary, path, why);
  }
  if (!renamed) {
    remove_file(temporary);
    warn_unwritable(dir_, "cannot replace " + path + ": " + why);
    return false;
  }
  return true;
}

void disk_cache::remove(const cache_key &key, std::string_view kind) const {
  if (const std::string path = entry_path(key, kind); !path.empty())
    remove_file(path);
}

} // namespace tk::cache

/// @file DiskCache.h
/// Compiled kernels kept on disk.
///
/// The on-disk kernel cache: compiled binaries (and autotuning results) stored under a per-user
/// directory, so that a kernel is compiled once per machine, not once per process.
///
/// Entries are keyed by a 128-bit hash of everything that determines the binary
/// (`make_cache_key`), written to a temporary file and renamed into place (readers see the old or
/// the new complete entry, never a partial one), and verified on every read: a damaged,
/// truncated, foreign or stale entry is a miss, so the caller compiles again and `store` replaces
/// it. The cache never throws and never returns bytes it did not verify. The file format is
/// described in docs/runtime.md, section "Disk cache".
#ifndef TK_CACHE_DISKCACHE_H
#define TK_CACHE_DISKCACHE_H

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace tk::cache {

/// A 128-bit cache key; `hex()` is its 32 lowercase hex digits, `hi` first.
struct cache_key {
  std::uint64_t hi = 0, lo = 0;

  std::string hex() const;
  friend bool operator==(const cache_key &, const cache_key &) = default;
};

/// A 128-bit hash of everything that determines a binary: the IR text, the compile options
/// (target, num_warps, num_stages, ...) and the backend's version. Each part is prefixed by its
/// length, so ("ab", "c") and ("a", "bc") give different keys.
cache_key make_cache_key(std::initializer_list<std::string_view> parts);
cache_key make_cache_key(const std::string_view *parts, std::size_t count);

/// TK_DEBUG, read on every use (only on the rare paths that log) so that it can change while the
/// process runs.
bool debug_enabled();

/// Writes "tk: <message>" to stderr, one whole line per call, so that lines from concurrent
/// threads do not interleave.
void log_line(const std::string &message);

/// Lets the next unwritable directory be reported again (the report is once per process).
void reset_unwritable_warning();

/// A directory of verified cache entries. Stateless apart from its directory and producer
/// version, so one instance may be used from many threads; many processes may share the
/// directory.
class disk_cache {
public:
  /// `producer_version` (e.g. the backend's version string, at most 65535 bytes) is recorded in
  /// every entry; an entry written by another producer version is a miss.
  disk_cache(std::string dir, std::string producer_version);

  /// `$TK_CACHE_DIR` if set; otherwise `$XDG_CACHE_HOME/tilekit` or `$HOME/.cache/tilekit` on
  /// Linux and other POSIX systems, `$HOME/Library/Caches/tilekit` on macOS,
  /// `%LOCALAPPDATA%\tilekit` on Windows (paths in UTF-8 there). Empty when none of these
  /// variables is set.
  static std::string default_directory();

  /// Whether `kind` names entries: 1 to 16 characters from [a-z0-9_-] ("cubin", "tune").
  static bool valid_kind(std::string_view kind);

  const std::string &directory() const { return dir_; }
  const std::string &producer_version() const { return producer_; }

  /// Where the entry for (`key`, `kind`) lives: `<dir>/<2 hex digits>/<30 hex digits>.<kind>`;
  /// empty for a kind that is not valid_kind.
  std::string entry_path(const cache_key &key, std::string_view kind) const;

  /// The verified payload stored for (`key`, `kind`), or nothing: absent, unreadable, damaged,
  /// written by another format or producer version, or for another key. Bad entries are logged
  /// under TK_DEBUG=1.
  std::optional<std::string> load(const cache_key &key, std::string_view kind) const;

  /// Writes the entry for (`key`, `kind`) atomically, replacing any previous one. False when it
  /// could not be written (e.g. a read-only directory): the cache is then simply not used, and
  /// TK_DEBUG=1 says so once per process.
  bool store(const cache_key &key, std::string_view kind, std::string_view payload) const;

  /// Deletes the entry for (`key`, `kind`), if any: for an entry that verified but whose
  /// contents turned out unusable (a binary the driver rejects).
  void remove(const cache_key &key, std::string_view kind) const;

private:
  std::string encode(const cache_key &key, std::string_view kind, std::string_view payload) const;
  std::optional<std::string> decode(const std::string &path, std::string bytes,
                                    const cache_key &key, std::string_view kind) const;

  std::string dir_;
  std::string producer_;
};

} // namespace tk::cache

#endif // TK_CACHE_DISKCACHE_H

/// @file Files.h
/// The file operations of the disk cache.
///
/// The few file-system calls the disk cache makes. None throws: each reports failure by its
/// result, with the reason as text for the cache's TK_DEBUG log.
#ifndef TK_CACHE_FILES_H
#define TK_CACHE_FILES_H

#include <cstdint>
#include <string>
#include <string_view>

namespace tk::cache {

/// The separator between a directory and a file name.
inline constexpr char separator =
#ifdef _WIN32
    '\\';
#else
    '/';
#endif

/// The identifier of the running process.
std::uint64_t process_id();

/// The text for an errno value: "Permission denied".
std::string errno_text(int err);

/// The value of the environment variable `name` as a path (UTF-8 on Windows, read through the
/// wide environment so that non-ASCII user names survive); empty when unset or empty.
std::string environment_path(const char *name);

/// Whether `path` is absolute: starts at the root (POSIX), or has a drive and a separator or is
/// a UNC path (Windows).
bool is_absolute_path(std::string_view path);

/// What a path names.
enum class file_kind { missing, regular, directory, other };

/// The kind of file at `path`, following symbolic links unless `follow` is false; `missing` when
/// it or a parent does not exist. On any other failure it returns `other` and sets `error`.
file_kind file_status(const std::string &path, std::string &error, bool follow = true);

/// Creates `path` and its missing parents, like `mkdir -p`. False with `error` set on failure.
bool make_directories(const std::string &path, std::string &error);

/// Reads the whole regular file at `path` into `bytes`. `error` says why it failed: no
/// permission, a read error, or more than `max_bytes` (`too_large`; checked on the open file, so
/// that a concurrent rename cannot swap in another file between the check and the read).
bool read_file(const std::string &path, std::string &bytes, std::uint64_t max_bytes,
               std::string &error, bool &too_large);

/// Creates (or truncates) the file at `path` and writes `bytes` to it. On failure `error` says
/// why and `created` whether the file was made (and should be removed).
bool write_file(const std::string &path, std::string_view bytes, std::string &error, bool &created);

/// Renames `from` to `to`, atomically replacing a file at `to`. False with `error` set on
/// failure.
bool rename_file(const std::string &from, const std::string &to, std::string &error);

/// Removes the file (not directory) at `path`, if any.
void remove_file(const std::string &path);

/// Removes `path` and, for a directory, everything in it, without following links; best
/// effort: what cannot be removed stays.
void remove_all(const std::string &path);

} // namespace tk::cache

#endif // TK_CACHE_FILES_H

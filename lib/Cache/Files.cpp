/// @file Files.cpp
/// The file operations of the disk cache.
///
/// POSIX calls on Linux and macOS, the C runtime's wide (UTF-16) calls on Windows; paths are
/// std::strings, UTF-8 on Windows. No <filesystem>: the same code served the header-only runtime,
/// where that header's cost mattered (docs/build-cost.md), and it reports errors as text the
/// cache logs.
#include "Cache/Files.h"

#include <cerrno>
#include <cstdlib>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>

#ifdef _WIN32
#include <direct.h>
#include <io.h>
#include <process.h>
#include <windows.h>
#else
#include <dirent.h>
#include <unistd.h>
#endif

namespace tk::cache {

std::uint64_t process_id() {
#ifdef _WIN32
  return static_cast<std::uint64_t>(_getpid());
#else
  return static_cast<std::uint64_t>(getpid());
#endif
}

std::string errno_text(int err) {
  return err ? std::generic_category().message(err) : std::string("unknown error");
}

#ifdef _WIN32
/// UTF-8 → UTF-16 (CP_UTF8 = 65001); invalid sequences become U+FFFD.
static std::wstring widen(std::string_view utf8) {
  if (utf8.empty())
    return {};
  const int n =
      MultiByteToWideChar(65001, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
  std::wstring wide(static_cast<std::size_t>(n > 0 ? n : 0), L'\0');
  if (n > 0)
    MultiByteToWideChar(65001, 0, utf8.data(), static_cast<int>(utf8.size()), wide.data(), n);
  return wide;
}

/// UTF-16 → UTF-8.
static std::string narrow(std::wstring_view wide) {
  if (wide.empty())
    return {};
  const int n = WideCharToMultiByte(65001, 0, wide.data(), static_cast<int>(wide.size()), nullptr,
                                    0, nullptr, nullptr);
  std::string utf8(static_cast<std::size_t>(n > 0 ? n : 0), '\0');
  if (n > 0)
    WideCharToMultiByte(65001, 0, wide.data(), static_cast<int>(wide.size()), utf8.data(), n,
                        nullptr, nullptr);
  return utf8;
}
#endif

std::string environment_path(const char *name) {
#ifdef _WIN32
  const std::wstring wide(name, name + std::char_traits<char>::length(name));
#if defined(_MSC_VER)
#pragma warning(push)
#pragma warning(disable : 4996) // _wgetenv is fine: the value is copied at once
#endif
  const wchar_t *value = _wgetenv(wide.c_str());
#if defined(_MSC_VER)
#pragma warning(pop)
#endif
  return value ? narrow(value) : std::string();
#else
  const char *value = std::getenv(name);
  return value ? std::string(value) : std::string();
#endif
}

bool is_absolute_path(std::string_view path) {
#ifdef _WIN32
  if (path.size() >= 2 && (path[0] == '\\' || path[0] == '/') &&
      (path[1] == '\\' || path[1] == '/'))
    return true;
  return path.size() >= 3 && path[1] == ':' && (path[2] == '\\' || path[2] == '/');
#else
  return !path.empty() && path[0] == '/';
#endif
}

file_kind file_status(const std::string &path, std::string &error, bool follow) {
#ifdef _WIN32
  (void)follow; // the C runtime's stat does not follow links either way
  struct _stat64 st;
  if (_wstat64(widen(path).c_str(), &st) != 0) {
#else
  struct stat st;
  if ((follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) != 0) {
#endif
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR)
      return file_kind::missing;
    error = errno_text(err);
    return file_kind::other;
  }
#ifdef _WIN32
  if ((st.st_mode & _S_IFMT) == _S_IFREG)
    return file_kind::regular;
  return (st.st_mode & _S_IFMT) == _S_IFDIR ? file_kind::directory : file_kind::other;
#else
  if (S_ISREG(st.st_mode))
    return file_kind::regular;
  return S_ISDIR(st.st_mode) ? file_kind::directory : file_kind::other;
#endif
}

bool make_directories(const std::string &path, std::string &error) {
  std::size_t at = 0;
#ifdef _WIN32
  // A UNC path (\\server\share\...): the server and share are not directories to create.
  if (path.size() > 2 && (path[0] == '\\' || path[0] == '/') &&
      (path[1] == '\\' || path[1] == '/')) {
    at = path.find_first_of("\\/", 2);
    if (at != std::string::npos)
      at = path.find_first_of("\\/", at + 1);
    if (at == std::string::npos)
      return true;
  }
#endif
  for (;;) {
    at = path.find_first_of(
#ifdef _WIN32
        "\\/",
#else
        "/",
#endif
        at + 1);
    const std::string prefix = path.substr(0, at);
    if (!prefix.empty()) {
#ifdef _WIN32
      const bool made = _wmkdir(widen(prefix).c_str()) == 0;
#else
      const bool made = ::mkdir(prefix.c_str(), 0777) == 0;
#endif
      const int err = errno;
      if (!made) {
        std::string why;
        const file_kind kind = file_status(prefix, why);
        // Already there (or a root, a drive: not creatable, but there): go on.
        if (kind != file_kind::directory) {
          error = errno_text(kind == file_kind::missing || err != EEXIST ? err : ENOTDIR);
          return false;
        }
      }
    }
    if (at == std::string::npos)
      return true;
  }
}

bool read_file(const std::string &path, std::string &bytes, std::uint64_t max_bytes,
               std::string &error, bool &too_large) {
  too_large = false;
#ifdef _WIN32
  const int fd = _wopen(widen(path).c_str(), _O_RDONLY | _O_BINARY);
#else
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
#endif
  if (fd < 0) {
    error = errno_text(errno);
    return false;
  }
#ifdef _WIN32
  struct _stat64 st;
  const bool sized = _fstat64(fd, &st) == 0;
#else
  struct stat st;
  const bool sized = ::fstat(fd, &st) == 0;
#endif
  bool ok = sized && st.st_size >= 0;
  if (!ok)
    error = "cannot determine its size";
  else if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    ok = false;
    too_large = true;
  }
  if (ok) {
    bytes.assign(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (ok && done < bytes.size()) {
      const std::size_t left = bytes.size() - done;
      const std::size_t chunk = left < (std::size_t{1} << 30) ? left : std::size_t{1} << 30;
#ifdef _WIN32
      const int n = _read(fd, bytes.data() + done, static_cast<unsigned>(chunk));
#else
      const ssize_t n = ::read(fd, bytes.data() + done, chunk);
#endif
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        ok = false;
        error = "read failed";
      } else {
        done += static_cast<std::size_t>(n);
      }
    }
  }
#ifdef _WIN32
  _close(fd);
#else
  ::close(fd);
#endif
  return ok;
}

bool write_file(const std::string &path, std::string_view bytes, std::string &error,
                bool &created) {
#ifdef _WIN32
  const int fd = _wopen(widen(path).c_str(), _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY,
                        _S_IREAD | _S_IWRITE);
#else
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
#endif
  created = fd >= 0;
  if (fd < 0) {
    error = errno_text(errno);
    return false;
  }
  bool ok = true;
  std::size_t done = 0;
  while (ok && done < bytes.size()) {
    const std::size_t left = bytes.size() - done;
    const std::size_t chunk = left < (std::size_t{1} << 30) ? left : std::size_t{1} << 30;
#ifdef _WIN32
    const int n = _write(fd, bytes.data() + done, static_cast<unsigned>(chunk));
#else
    const ssize_t n = ::write(fd, bytes.data() + done, chunk);
#endif
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      ok = false;
      error = errno_text(n < 0 ? errno : 0);
    } else {
      done += static_cast<std::size_t>(n);
    }
  }
#ifdef _WIN32
  const bool closed = _close(fd) == 0;
#else
  const bool closed = ::close(fd) == 0;
#endif
  if (ok && !closed) {
    ok = false;
    error = errno_text(errno);
  }
  return ok;
}

bool rename_file(const std::string &from, const std::string &to, std::string &error) {
#ifdef _WIN32
  // MOVEFILE_REPLACE_EXISTING (0x1).
  if (MoveFileExW(widen(from).c_str(), widen(to).c_str(), 0x1ul))
    return true;
  error = "MoveFileExW failed with error " + std::to_string(GetLastError());
#else
  if (::rename(from.c_str(), to.c_str()) == 0)
    return true;
  error = errno_text(errno);
#endif
  return false;
}

void remove_file(const std::string &path) {
#ifdef _WIN32
  _wunlink(widen(path).c_str());
#else
  ::unlink(path.c_str());
#endif
}

void remove_all(const std::string &path) {
  std::string error;
  if (file_status(path, error, /*follow=*/false) != file_kind::directory) {
    remove_file(path);
    return;
  }
#ifdef _WIN32
  struct _wfinddata64_t entry;
  const std::wstring pattern = widen(path + "\\*");
  const std::intptr_t find = _wfindfirst64(pattern.c_str(), &entry);
  if (find != -1) {
    do {
      const std::wstring_view name = entry.name;
      if (name != L"." && name != L"..")
        remove_all(path + separator + narrow(name));
    } while (_wfindnext64(find, &entry) == 0);
    _findclose(find);
  }
  _wrmdir(widen(path).c_str());
#else
  // Names first, removals after: a directory changing while it is read may skip entries.
  std::string names; // NUL-separated
  if (DIR *dir = ::opendir(path.c_str())) {
    while (const dirent *entry = ::readdir(dir)) {
      const std::string_view name = entry->d_name;
      if (name != "." && name != "..")
        names.append(name).push_back('\0');
    }
    ::closedir(dir);
  }
  for (std::size_t at = 0; at < names.size();) {
    const std::size_t end = names.find('\0', at);
    remove_all(path + separator + names.substr(at, end - at));
    at = end + 1;
  }
  ::rmdir(path.c_str());
#endif
}

} // namespace tk::cache

/// @file os.hpp
/// The little of the operating system the GPU runtime needs: shared libraries opened at run time
/// (the CUDA driver and the backend are loaded, not linked, so that a program using only the
/// interpreter needs neither), the directory of the running executable (where an installed
/// program keeps the backend library, beside itself or in ../lib), environment variables and the
/// few file operations of the disk cache.
///
/// POSIX uses dlopen and the POSIX file calls; Windows uses kernel32 and the C runtime's wide
/// (UTF-16) file calls. kernel32's few functions are declared here rather than through
/// <windows.h>, so that including TileKit does not bring the Windows macros (`min`, `max`,
/// `near`, `ERROR`, ...) into the user's code. The declarations match <windows.h>'s exactly (with
/// its default STRICT handle types), so a program may include both.
///
/// The file operations take paths as `std::string`s, in UTF-8 on Windows, and stay clear of
/// <filesystem> and <fstream>, which would cost every program including TileKit a good part of
/// its compile time (docs/build-cost.md).
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>

#ifdef _WIN32
#include <cstdarg>
#include <direct.h>
#include <io.h>
#include <process.h>

struct HINSTANCE__; // <windows.h>'s HMODULE is `HINSTANCE__ *` (STRICT, the default)

namespace tk::detail::os::win {
using farproc = std::intptr_t(__stdcall *)(); // <windows.h>'s FARPROC
} // namespace tk::detail::os::win

extern "C" {
__declspec(dllimport) HINSTANCE__ *__stdcall LoadLibraryExA(const char *lpLibFileName, void *hFile,
                                                            unsigned long dwFlags);
__declspec(dllimport) tk::detail::os::win::farproc __stdcall GetProcAddress(HINSTANCE__ *hModule,
                                                                            const char *lpProcName);
__declspec(dllimport) int __stdcall FreeLibrary(HINSTANCE__ *hLibModule);
__declspec(dllimport) unsigned long __stdcall GetLastError(void);
__declspec(dllimport) unsigned long __stdcall
GetModuleFileNameA(HINSTANCE__ *hModule, char *lpFilename, unsigned long nSize);
__declspec(dllimport) unsigned long __stdcall
FormatMessageA(unsigned long dwFlags, const void *lpSource, unsigned long dwMessageId,
               unsigned long dwLanguageId, char *lpBuffer, unsigned long nSize, va_list *Arguments);
__declspec(dllimport) int __stdcall
MoveFileExW(const wchar_t *lpExistingFileName, const wchar_t *lpNewFileName, unsigned long dwFlags);
__declspec(dllimport) int __stdcall MultiByteToWideChar(unsigned int CodePage,
                                                        unsigned long dwFlags,
                                                        const char *lpMultiByteStr, int cbMultiByte,
                                                        wchar_t *lpWideCharStr, int cchWideChar);
__declspec(dllimport) int __stdcall
WideCharToMultiByte(unsigned int CodePage, unsigned long dwFlags, const wchar_t *lpWideCharStr,
                    int cchWideChar, char *lpMultiByteStr, int cbMultiByte,
                    const char *lpDefaultChar, int *lpUsedDefaultChar);
}
#else
#include <dirent.h>
#include <dlfcn.h>
#include <unistd.h>
#endif

namespace tk::detail::os {

/// The platform's name for a shared library called `base` ("tilekit_backend" →
/// "libtilekit_backend.so" or "tilekit_backend.dll").
inline std::string library_file_name(const std::string &base) {
#ifdef _WIN32
  return base + ".dll";
#elif defined(__APPLE__)
  return "lib" + base + ".dylib";
#else
  return "lib" + base + ".so";
#endif
}

/// The separator between a directory and a file name.
inline constexpr char path_separator =
#ifdef _WIN32
    '\\';
#else
    '/';
#endif

/// Why the last call into the OS layer failed, as text: dlerror() on POSIX (which also clears
/// it), the message for GetLastError() on Windows. Call it right after the failing call.
inline std::string last_error() {
#ifdef _WIN32
  const unsigned long code = GetLastError();
  char buffer[512] = {};
  // FORMAT_MESSAGE_FROM_SYSTEM (0x1000) | FORMAT_MESSAGE_IGNORE_INSERTS (0x200).
  unsigned long n = FormatMessageA(0x1000 | 0x200, nullptr, code, 0, buffer,
                                   static_cast<unsigned long>(sizeof buffer), nullptr);
  while (n > 0 && (buffer[n - 1] == '\n' || buffer[n - 1] == '\r' || buffer[n - 1] == ' '))
    --n;
  std::string text(buffer, n);
  return (text.empty() ? "error" : text) + " (Windows error " + std::to_string(code) + ")";
#else
  const char *text = dlerror();
  return text ? text : "unknown error";
#endif
}

/// Opens a shared library by full path or, for a plain name, through the loader's search. Returns
/// null and sets `error` on failure. Symbols stay local to the library (RTLD_LOCAL), so that the
/// backend's copy of LLVM never meets another one in the process.
inline void *open_library(const std::string &path, std::string &error) {
#ifdef _WIN32
  // LOAD_WITH_ALTERED_SEARCH_PATH (0x8) finds the DLL's own dependencies next to it; it is only
  // allowed with a full path.
  const bool has_directory = path.find_first_of("\\/") != std::string::npos;
  void *handle = LoadLibraryExA(path.c_str(), nullptr, has_directory ? 0x8ul : 0ul);
#else
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
#endif
  if (!handle)
    error = last_error();
  return handle;
}

/// The address of `name` in `library`, or null.
inline void *find_symbol(void *library, const char *name) {
#ifdef _WIN32
  // A function pointer converted to void *: conditionally supported, and what every Windows
  // loader does.
  return reinterpret_cast<void *>(GetProcAddress(static_cast<HINSTANCE__ *>(library), name));
#else
  return dlsym(library, name);
#endif
}

/// Closes a library opened by open_library.
inline void close_library(void *library) {
  if (!library)
    return;
#ifdef _WIN32
  FreeLibrary(static_cast<HINSTANCE__ *>(library));
#else
  dlclose(library);
#endif
}

/// The directory holding the running executable, without a trailing separator; empty when the
/// system cannot tell.
inline std::string executable_directory() {
  std::string path;
#ifdef _WIN32
  std::string buffer(260, '\0');
  for (;;) {
    const unsigned long n =
        GetModuleFileNameA(nullptr, buffer.data(), static_cast<unsigned long>(buffer.size()));
    if (n == 0)
      return {};
    if (n < buffer.size()) { // else truncated: try a larger buffer
      path.assign(buffer.data(), n);
      break;
    }
    buffer.resize(buffer.size() * 2);
  }
#else
  std::string buffer(256, '\0');
  for (;;) {
    const ssize_t n = readlink("/proc/self/exe", buffer.data(), buffer.size());
    if (n <= 0)
      return {};
    if (static_cast<std::size_t>(n) < buffer.size()) { // else truncated: try a larger buffer
      path.assign(buffer.data(), static_cast<std::size_t>(n));
      break;
    }
    buffer.resize(buffer.size() * 2);
  }
#endif
  const std::size_t slash = path.find_last_of(
#ifdef _WIN32
      "\\/"
#else
      "/"
#endif
  );
  return slash == std::string::npos ? std::string() : path.substr(0, slash == 0 ? 1 : slash);
}

/// The value of the environment variable `name`; nothing when it is unset. An empty value is
/// returned as set: callers decide whether it means anything.
inline std::optional<std::string> environment(const char *name) {
#if defined(_MSC_VER)
#pragma warning(push)
#pragma warning(disable : 4996) // getenv is fine: the value is copied at once
#endif
  const char *value = std::getenv(name);
#if defined(_MSC_VER)
#pragma warning(pop)
#endif
  if (!value)
    return std::nullopt;
  return std::string(value);
}

/// The identifier of the running process.
inline std::uint64_t process_id() {
#ifdef _WIN32
  return static_cast<std::uint64_t>(_getpid());
#else
  return static_cast<std::uint64_t>(getpid());
#endif
}

/// The text for an errno value: "Permission denied".
inline std::string errno_text(int err) {
  return err ? std::generic_category().message(err) : std::string("unknown error");
}

#ifdef _WIN32
/// UTF-8 → UTF-16 (CP_UTF8 = 65001); invalid sequences become U+FFFD.
inline std::wstring widen(std::string_view utf8) {
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
inline std::string narrow(std::wstring_view wide) {
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

/// The value of the environment variable `name` as a path (UTF-8 on Windows, read through the
/// wide environment so that non-ASCII user names survive); empty when unset or empty.
inline std::string environment_path(const char *name) {
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

/// Whether `path` is absolute: starts at the root (POSIX), or has a drive and a separator or is
/// a UNC path (Windows).
inline bool is_absolute_path(std::string_view path) {
#ifdef _WIN32
  if (path.size() >= 2 && (path[0] == '\\' || path[0] == '/') &&
      (path[1] == '\\' || path[1] == '/'))
    return true;
  return path.size() >= 3 && path[1] == ':' && (path[2] == '\\' || path[2] == '/');
#else
  return !path.empty() && path[0] == '/';
#endif
}

/// What a path names, following symbolic links (or not).
enum class file_kind { missing, regular, directory, other };

/// The kind of file at `path`; `missing` when it or a parent does not exist. On any other
/// failure it returns `other` and sets `error`.
inline file_kind file_status(const std::string &path, std::string &error, bool follow = true) {
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

/// Creates `path` and its missing parents, like `mkdir -p`. False with `error` set on failure.
inline bool make_directories(const std::string &path, std::string &error) {
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

/// Reads the whole regular file at `path` into `bytes`. `error` says why it failed: no
/// permission, a read error, or more than `max_bytes` (checked on the open file, so that a
/// concurrent rename cannot swap in another file between the check and the read).
inline bool read_file(const std::string &path, std::string &bytes, std::uint64_t max_bytes,
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

/// Creates (or truncates) the file at `path` and writes `bytes` to it. On failure `error` says
/// why and `created` whether the file was made (and should be removed).
inline bool write_file(const std::string &path, std::string_view bytes, std::string &error,
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

/// Renames `from` to `to`, atomically replacing a file at `to`. False with `error` set on
/// failure.
inline bool rename_file(const std::string &from, const std::string &to, std::string &error) {
#ifdef _WIN32
  // MOVEFILE_REPLACE_EXISTING (0x1).
  if (MoveFileExW(widen(from).c_str(), widen(to).c_str(), 0x1ul))
    return true;
  error = last_error();
#else
  if (::rename(from.c_str(), to.c_str()) == 0)
    return true;
  error = errno_text(errno);
#endif
  return false;
}

/// Removes the file (not directory) at `path`, if any.
inline void remove_file(const std::string &path) {
#ifdef _WIN32
  _wunlink(widen(path).c_str());
#else
  ::unlink(path.c_str());
#endif
}

/// Removes `path` and, for a directory, everything in it, without following links; best
/// effort: what cannot be removed stays.
inline void remove_all(const std::string &path) {
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
        remove_all(path + path_separator + narrow(name));
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
    remove_all(path + path_separator + names.substr(at, end - at));
    at = end + 1;
  }
  ::rmdir(path.c_str());
#endif
}

} // namespace tk::detail::os

/// @file os.hpp
/// The little of the operating system the GPU runtime needs: shared libraries opened at run time
/// (the CUDA driver and the backend are loaded, not linked, so that a program using only the
/// interpreter needs neither), the directory of the running executable (where an installed
/// program keeps the backend library, beside itself or in ../lib) and environment variables.
/// The disk cache's file operations are the backend library's (lib/Cache/Files.cpp).
///
/// POSIX uses dlopen; Windows uses kernel32. kernel32's few functions are declared here rather than
/// through <windows.h>, so that including TileKit does not bring the Windows macros (`min`, `max`,
/// `near`, `ERROR`, ...) into the user's code. The declarations match <windows.h>'s exactly (with
/// its default STRICT handle types), so a program may include both.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#ifdef _WIN32
#include <cstdarg>

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
}
#else
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

} // namespace tk::detail::os

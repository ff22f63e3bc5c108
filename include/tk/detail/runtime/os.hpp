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

#include <tk/detail/config.hpp>

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
TK_DECL std::string library_file_name(const std::string &base);

/// The separator between a directory and a file name.
inline constexpr char path_separator =
#ifdef _WIN32
    '\\';
#else
    '/';
#endif

/// Why the last call into the OS layer failed, as text: dlerror() on POSIX (which also clears
/// it), the message for GetLastError() on Windows. Call it right after the failing call.
TK_DECL std::string last_error();

/// Opens a shared library by full path or, for a plain name, through the loader's search. Returns
/// null and sets `error` on failure. Symbols stay local to the library (RTLD_LOCAL), so that the
/// backend's copy of LLVM never meets another one in the process.
TK_DECL void *open_library(const std::string &path, std::string &error);

/// The address of `name` in `library`, or null.
TK_DECL void *find_symbol(void *library, const char *name);

/// Closes a library opened by open_library.
TK_DECL void close_library(void *library);

/// The directory holding the running executable, without a trailing separator; empty when the
/// system cannot tell.
TK_DECL std::string executable_directory();

/// The value of the environment variable `name`; nothing when it is unset. An empty value is
/// returned as set: callers decide whether it means anything.
TK_DECL std::optional<std::string> environment(const char *name);

} // namespace tk::detail::os

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/runtime/os.ipp>
#endif

/// @file os.ipp
/// The bodies of the functions os.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/runtime/os.hpp>

namespace tk::detail::os {

TK_DECL std::string library_file_name(const std::string &base) {
#ifdef _WIN32
  return base + ".dll";
#elif defined(__APPLE__)
  return "lib" + base + ".dylib";
#else
  return "lib" + base + ".so";
#endif
}

TK_DECL std::string last_error() {
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

TK_DECL void *open_library(const std::string &path, std::string &error) {
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

TK_DECL void *find_symbol(void *library, const char *name) {
#ifdef _WIN32
  // A function pointer converted to void *: conditionally supported, and what every Windows
  // loader does.
  return reinterpret_cast<void *>(GetProcAddress(static_cast<HINSTANCE__ *>(library), name));
#else
  return dlsym(library, name);
#endif
}

TK_DECL void close_library(void *library) {
  if (!library)
    return;
#ifdef _WIN32
  FreeLibrary(static_cast<HINSTANCE__ *>(library));
#else
  dlclose(library);
#endif
}

TK_DECL std::string executable_directory() {
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

TK_DECL std::optional<std::string> environment(const char *name) {
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

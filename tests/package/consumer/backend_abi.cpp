/// @file backend_abi.cpp
/// A program linking the installed backend library through tk::backend and calling its C ABI
/// (tk/backend.h) directly (test package.install): prints the backend's version and targets.
#include <tk/backend.h>

#include <cstdio>
#include <cstring>

int main() {
  const char *version = tk_backend_version();
  const char *targets = tk_backend_targets();
  if (!version || !*version || !targets || !std::strstr(targets, "sm_")) {
    std::printf("FAIL: tk_backend_version() = %s, tk_backend_targets() = %s\n",
                version ? version : "(null)", targets ? targets : "(null)");
    return 1;
  }
  std::printf("tk::backend: version %s, targets %s\nPASS\n", version, targets);
  return 0;
}

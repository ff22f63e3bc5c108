/// @file backend_check.hpp
/// Shared by the programs that test libtilekit_backend.so through its C ABI: a check that
/// prints a line and counts failures, one tk_compile call with its result, reading a file, and
/// whether a ptxas is there.
#pragma once

#include "tk/backend.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace backend_test {

inline int failures = 0;

inline void check(bool ok, const std::string &what, const std::string &detail = "") {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) {
    ++failures;
    if (!detail.empty())
      std::printf("     %s\n", detail.c_str());
  }
}

inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// The whole of a file ("" when it cannot be read).
inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Whether tk_compile can find a ptxas: TK_PTXAS, CUDA_PATH/bin, /usr/local/cuda/bin or PATH.
inline bool ptxasAvailable() {
  if (const char *p = std::getenv("TK_PTXAS"); p && access(p, X_OK) == 0)
    return true;
  if (const char *root = std::getenv("CUDA_PATH"))
    if (access((std::string(root) + "/bin/ptxas").c_str(), X_OK) == 0)
      return true;
  return access("/usr/local/cuda/bin/ptxas", X_OK) == 0 ||
         std::system("command -v ptxas > /dev/null 2>&1") == 0;
}

struct Compiled {
  tk_status status;
  tk_compile_result *result = nullptr;
  Compiled(const std::string &ir, const char *target, tk_output_kind output, int warps = 4,
           int fpFusion = 1) {
    tk_compile_options opts;
    tk_compile_options_init(&opts);
    opts.target = target;
    opts.output = output;
    opts.num_warps = warps;
    opts.fp_fusion = fpFusion;
    status = tk_compile(ir.data(), ir.size(), &opts, &result);
  }
  ~Compiled() { tk_compile_result_free(result); }
  Compiled(const Compiled &) = delete;
  Compiled &operator=(const Compiled &) = delete;
  std::string error() const { return tk_compile_result_error(result); }
  std::string producerLog() const { return tk_compile_result_producer_log(result); }
};

} // namespace backend_test

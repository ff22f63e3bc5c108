/// @file CudaPaths.cpp
/// Where the CUDA toolkit's pieces live.
#include "Target/CudaPaths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

namespace mlir::tk {

namespace {
std::vector<std::string> cudaRoots() {
  std::vector<std::string> roots;
  if (const char *cudaPath = std::getenv("CUDA_PATH"); cudaPath && *cudaPath)
    roots.emplace_back(cudaPath);
  roots.emplace_back("/usr/local/cuda");
  return roots;
}
} // namespace

std::string findLibdevice() {
  for (const std::string &root : cudaRoots()) {
    std::string path = root + "/nvvm/libdevice/libdevice.10.bc";
    if (llvm::sys::fs::exists(path))
      return path;
  }
  return "";
}

std::string findPtxas(std::string &tried) {
  if (const char *explicitPath = std::getenv("TK_PTXAS"); explicitPath && *explicitPath) {
    if (llvm::sys::fs::can_execute(explicitPath))
      return explicitPath;
    tried += std::string("TK_PTXAS=") + explicitPath + " is not executable";
    return ""; // an explicit choice is not second-guessed
  }
  for (const std::string &root : cudaRoots()) {
    std::string path = root + "/bin/ptxas";
    if (llvm::sys::fs::can_execute(path))
      return path;
    tried += path + " not found; ";
  }
  if (auto onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  tried += "no ptxas on PATH";
  return "";
}

std::vector<std::string> nvJitLinkCandidates() {
  std::vector<std::string> candidates;
  for (const std::string &root : cudaRoots())
    candidates.push_back(root + "/lib64/libnvJitLink.so.13");
  candidates.emplace_back("libnvJitLink.so.13");
  return candidates;
}

} // namespace mlir::tk

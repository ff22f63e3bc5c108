/// @file CudaPaths.h
/// Where the CUDA toolkit's pieces live.
///
/// Looked up in this order: an explicit variable (TK_PTXAS for ptxas), CUDA_PATH, /usr/local/cuda,
/// then the system search (PATH for ptxas, the loader's path for libnvJitLink). A TK_PTXAS that
/// is set but not executable means no ptxas: nothing else is searched.
#ifndef TK_TARGET_CUDAPATHS_H
#define TK_TARGET_CUDAPATHS_H

#include <string>
#include <vector>

namespace mlir::tk {

/// libdevice.10.bc, or "" when there is none.
std::string findLibdevice();

/// The ptxas to run, or "" (with the places tried appended to `tried`).
std::string findPtxas(std::string &tried);

/// libnvJitLink.so.13 candidates for dlopen, most specific first.
std::vector<std::string> nvJitLinkCandidates();

} // namespace mlir::tk

#endif // TK_TARGET_CUDAPATHS_H

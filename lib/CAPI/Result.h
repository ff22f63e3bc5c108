/// @file Result.h
/// What tk_compile and tk_compile_cached return.
#ifndef TK_CAPI_RESULT_H
#define TK_CAPI_RESULT_H

#include "Cache/DiskCache.h"
#include "tk/backend.h"

#include <string>
#include <utility>
#include <vector>

/// The opaque result of the C ABI (tk/backend.h): a binary and its launch metadata, or an error.
struct tk_compile_result {
  tk_status status = TK_OK;
  std::string error;
  std::string binary;
  tk_output_kind kind = TK_OUTPUT_PTX;
  std::string ptx;
  std::string kernelName;
  std::string target;
  size_t sharedBytes = 0;
  size_t dynamicSharedBytes = 0;
  int threadsPerBlock = 0;
  std::vector<tk_tensor_map> tensorMaps;
  std::string producerLog;
  double stageMs[TK_STAGE_COUNT] = {};
  /// keep_stages: each stage's name and the module's text after it, in order.
  std::vector<std::pair<std::string, std::string>> stageIR;
  /// What ptxas or nvJitLink reported (Target/PtxasInfo.h); -1: unknown.
  int registers = -1;
  int spillStoreBytes = -1;
  int spillLoadBytes = -1;
  int stackBytes = -1;

  // Through the disk cache (tk_compile_cached): where the entry is, and whether the binary came
  // from it or is to be stored there (tk_compile_result_cache_store).
  bool fromCache = false;
  std::string cacheDirectory; ///< empty: no disk cache
  tk::cache::cache_key cacheKey;
  std::string cacheEntry;
};

#endif // TK_CAPI_RESULT_H

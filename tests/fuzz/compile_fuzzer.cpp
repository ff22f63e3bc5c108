/// @file libFuzzer harness: arbitrary bytes as IR text through tk_compile (PTX output, so no
/// subprocess runs). Any crash, abort or leak is a bug: bad input must come back as an error.
/// Built with clang++-22 -fsanitize=fuzzer,address against libtilekit_backend.so, which (like
/// Debian's MLIR inside it) is not instrumented: coverage guides mutations only through this
/// file, so the seed corpus (corpus/) and the dictionary (mlir.dict) do most of the work.
#include "tk/backend.h"

#include <cstddef>
#include <cstdint>

// MLIR's allocators poison memory for ASan only when instrumented; mixing instrumented and
// uninstrumented code needs user poisoning off (docs/GPU.md).
extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0:detect_leaks=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tk_compile_options opts;
  tk_compile_options_init(&opts);
  opts.target = "sm_80";
  opts.output = TK_OUTPUT_PTX;
  tk_compile_result *result = nullptr;
  tk_compile(reinterpret_cast<const char *>(data), size, &opts, &result);
  tk_compile_result_free(result);
  return 0;
}

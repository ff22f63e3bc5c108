/// @file compile_fuzzer.cpp
/// libFuzzer harness: arbitrary bytes as IR text through tk_compile, the whole pipeline to
/// PTX (no subprocess runs). Any crash, abort, failed assertion or leak is a bug: bad input must
/// come back as an error.
///
/// Built in the fuzzing variant of the build (tests/fuzz/CMakeLists.txt, docs/testing.md): the
/// backend's own code is compiled by clang-22 with -fsanitize=fuzzer-no-link,address and linked
/// statically into this program, so coverage of lib/ guides the mutations; Debian's MLIR and LLVM
/// archives are not instrumented.
///
/// Options: by default sm_80, 4 warps, 3 stages, fp fusion on (tk_compile_options_init), so a
/// seed means what it means to tk_compile. A comment line in the input changes them; MLIR's
/// parser skips it like any other comment:
///
///   // fuzz: target=sm_90a warps=8 stages=2 lowering=sm_80 fusion=0 maps=1
///
/// maps=1: the caller encodes tensor maps (tk_compile_options::tensor_maps, as the runtime does
/// on sm_90), so tk-tma-descriptors runs and the recipes are collected and returned.
/// Keys may come in any order and each may be left out; the first such line counts. Values go to
/// tk_compile unchecked (warps=3 tests its validation). mlir.dict holds the spellings.
#include "tk/backend.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

// MLIR's allocators poison memory for ASan only when instrumented; mixing instrumented and
// uninstrumented code needs user poisoning off (docs/testing.md).
extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0:detect_leaks=1"; }

namespace {

struct FuzzOptions {
  std::string target = "sm_80";
  std::string lowering;
  int warps = 4;
  int stages = 3;
  int fusion = 1;
  int maps = 0;
};

/// The value after `key=` in `line`, up to the next blank; empty when the key is not there.
std::string_view valueOf(std::string_view line, std::string_view key) {
  for (size_t at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
    if (at != 0 && line[at - 1] != ' ' && line[at - 1] != '\t')
      continue; // part of a longer word
    std::string_view value = line.substr(at + key.size());
    return value.substr(0, value.find_first_of(" \t\r"));
  }
  return {};
}

int toInt(std::string_view text, int fallback) {
  if (text.empty() || text.size() > 11)
    return fallback;
  std::string digits(text);
  char *end = nullptr;
  long value = std::strtol(digits.c_str(), &end, 10);
  return *end == '\0' ? static_cast<int>(value) : fallback;
}

FuzzOptions parseOptions(std::string_view text) {
  FuzzOptions opts;
  constexpr std::string_view marker = "// fuzz:";
  size_t at = text.find(marker);
  if (at == std::string_view::npos)
    return opts;
  std::string_view line = text.substr(at + marker.size());
  line = line.substr(0, line.find('\n'));
  if (std::string_view v = valueOf(line, "target="); !v.empty())
    opts.target = std::string(v.substr(0, 32));
  if (std::string_view v = valueOf(line, "lowering="); !v.empty())
    opts.lowering = std::string(v.substr(0, 32));
  opts.warps = toInt(valueOf(line, "warps="), opts.warps);
  opts.stages = toInt(valueOf(line, "stages="), opts.stages);
  opts.fusion = toInt(valueOf(line, "fusion="), opts.fusion);
  opts.maps = toInt(valueOf(line, "maps="), opts.maps);
  return opts;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = reinterpret_cast<const char *>(data);
  FuzzOptions fuzz = parseOptions(std::string_view(text, size));
  tk_compile_options opts;
  tk_compile_options_init(&opts);
  opts.target = fuzz.target.c_str();
  opts.lowering_target = fuzz.lowering.c_str();
  opts.num_warps = fuzz.warps;
  opts.num_stages = fuzz.stages;
  opts.fp_fusion = fuzz.fusion;
  opts.tensor_maps = fuzz.maps;
  opts.output = TK_OUTPUT_PTX;
  tk_compile_result *result = nullptr;
  tk_compile(text, size, &opts, &result);
  tk_tensor_map map;
  for (int i = 0, n = tk_compile_result_tensor_map_count(result); i < n; ++i)
    tk_compile_result_tensor_map(result, i, &map);
  tk_compile_result_free(result);
  return 0;
}

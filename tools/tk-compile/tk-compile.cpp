/// @file tk-compile.cpp
/// tk-compile: the backend's C ABI (include/tk/backend.h) on the command line. Compiles one
/// IR file (or stdin) and writes the PTX (default) or the binary; used by the lit tests of code
/// generation (tests/lit/Target) and to look at what the backend emits.
///   tk-compile --target=sm_90a [--lowering-target=sm_80] [--num-warps=4] [--emit=ptx|cubin|auto]
///   [--tensor-maps] [-o out] [--time] [--resources] [--dump-stages=DIR] in.mlir
/// Exit status: 0 done, 1 the input could not be read, did not compile or the output could not
/// be written, 2 a usage error (each with a message on stderr).
#include "tk/backend.h"
#include "tk/detail/runtime/resources.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

namespace {

constexpr const char *kUsage =
    "usage: tk-compile --target=SM [--lowering-target=SM] [--num-warps=N] [--num-stages=N]\n"
    "                  [--no-fp-fusion] [--emit=ptx|cubin|auto] [--tensor-maps] [-o FILE]\n"
    "                  [--time] [--resources] [--dump-stages=DIR] FILE|-\n"
    "Compiles tk or LLVM-dialect IR from FILE (- for stdin) and writes PTX (the default) or the\n"
    "binary to stdout or FILE. --num-warps: a power of two from 1 to 32 (default 4);\n"
    "--num-stages: 1 to 8 (default 3); --lowering-target: lower as for this older target\n"
    "(sm_80: mma.sync), still for --target's GPU; --tensor-maps: the caller encodes tensor maps\n"
    "(TMA on sm_90+), their recipes listed on stderr; --time: the producer and stage times on\n"
    "stderr; --resources: the kernel's registers, local and shared memory and threads on\n"
    "stderr (registers and local memory need a cubin: --emit=cubin or auto); --dump-stages=DIR:\n"
    "the module after each stage into DIR (made if missing), as KERNEL.tk.mlir,\n"
    "KERNEL.tkgpu.mlir, KERNEL.llvm.mlir, KERNEL.ll, KERNEL.ptx and KERNEL.cubin (with a cubin),\n"
    "also the stages before a failed one.\n"
    "Exit status: 0 done, 1 input, compile or output failed, 2 usage error.\n";

int usage(const std::string &why) {
  std::fprintf(stderr, "tk-compile: %s\n%stargets: %s\n", why.c_str(), kUsage,
               tk_backend_targets());
  return 2;
}

int failure(const std::string &what) {
  std::fprintf(stderr, "tk-compile: %s\n", what.c_str());
  return 1;
}

bool option(const char *arg, const char *name, std::string &value) {
  size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0 || arg[length] != '=')
    return false;
  value = arg + length + 1;
  return true;
}

/// The whole of `text` as a decimal int, or false ("4x", "", " 4" and out-of-range values are
/// not integers).
bool parseInt(std::string_view text, int &value) {
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty();
}

/// Reads all of `file` into `text`; false with errno set on a read error (a directory too).
bool readAll(std::FILE *file, std::string &text) {
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0)
    text.append(buffer, n);
  return !std::ferror(file);
}

/// Reads `input` ("-": stdin); an error message, empty on success.
std::string readInput(const std::string &input, std::string &text) {
  if (input == "-")
    return readAll(stdin, text) ? "" : std::string("cannot read stdin: ") + std::strerror(errno);
  std::FILE *file = std::fopen(input.c_str(), "rb");
  if (!file)
    return "cannot open " + input + ": " + std::strerror(errno);
  const bool ok = readAll(file, text);
  const int error = errno;
  std::fclose(file);
  return ok ? "" : "cannot read " + input + ": " + std::strerror(error);
}

/// Writes `size` bytes to `output` ("-": stdout) and closes it, checking every step (a full
/// disk shows only at fflush or fclose); an error message, empty on success.
std::string writeOutput(const std::string &output, const void *data, size_t size) {
  const bool toStdout = output == "-";
  std::FILE *out = toStdout ? stdout : std::fopen(output.c_str(), "wb");
  const std::string name = toStdout ? "stdout" : output;
  if (!out)
    return "cannot open " + name + ": " + std::strerror(errno);
  bool ok = std::fwrite(data, 1, size, out) == size;
  ok = std::fflush(out) == 0 && ok;
  int error = errno;
  if (std::fclose(out) != 0 && ok) {
    ok = false;
    error = errno;
  }
  return ok ? "" : "cannot write " + name + ": " + std::strerror(error);
}

/// The line the runtime logs for a loaded kernel under TK_DEBUG (docs/environment.md), from the
/// backend's numbers (tk/detail/runtime/resources.hpp).
std::string resourceLine(const tk_compile_result *result, const std::string &loweringTarget) {
  tk_resources used{};
  tk_compile_result_resources(result, &used);
  return tk::detail::resource_line(
      tk_compile_result_kernel_name(result), tk_compile_result_target(result), loweringTarget,
      false, used.registers, used.stack_bytes, used.shared_bytes, used.threads);
}

/// The file name a stage's text goes to in --dump-stages's directory, after the kernel's name.
std::string stageFileSuffix(const std::string &stage) {
  if (stage == "llir")
    return ".ll";
  if (stage == "ptx")
    return ".ptx";
  if (stage == "llvm-dialect")
    return ".llvm.mlir";
  return "." + stage + ".mlir";
}

/// Writes every stage `result` kept (and its cubin) into `dir`; an error message, empty on
/// success.
std::string dumpStages(const tk_compile_result *result, const std::string &dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    return "cannot make " + dir + ": " + error.message();
  std::string kernel = tk_compile_result_kernel_name(result);
  if (kernel.empty())
    kernel = "kernel"; // a compile that failed before the kernel was named
  const std::string base = (std::filesystem::path(dir) / kernel).string();
  for (int i = 0; i < tk_compile_result_stage_ir_count(result); ++i) {
    const char *name = nullptr;
    const char *text = tk_compile_result_stage_ir(result, i, &name);
    if (std::string why = writeOutput(base + stageFileSuffix(name), text, std::strlen(text));
        !why.empty())
      return why;
  }
  size_t size = 0;
  const void *binary = tk_compile_result_binary(result, &size);
  if (binary && tk_compile_result_kind(result) == TK_OUTPUT_CUBIN)
    return writeOutput(base + ".cubin", binary, size);
  return "";
}

} // namespace

int main(int argc, char **argv) {
  tk_compile_options opts;
  tk_compile_options_init(&opts);
  opts.output = TK_OUTPUT_PTX;
  std::string target, loweringTarget, input, output = "-", value, stagesDir;
  bool time = false, resources = false;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
      std::printf("%stargets: %s\n", kUsage, tk_backend_targets());
      return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
    } else if (option(arg, "--target", value)) {
      target = value;
    } else if (option(arg, "--lowering-target", value)) {
      loweringTarget = value;
    } else if (option(arg, "--num-warps", value)) {
      if (!parseInt(value, opts.num_warps))
        return usage("--num-warps takes an integer, got '" + value + "'");
    } else if (option(arg, "--num-stages", value)) {
      if (!parseInt(value, opts.num_stages))
        return usage("--num-stages takes an integer, got '" + value + "'");
    } else if (option(arg, "--emit", value)) {
      if (value == "ptx")
        opts.output = TK_OUTPUT_PTX;
      else if (value == "cubin")
        opts.output = TK_OUTPUT_CUBIN;
      else if (value == "auto")
        opts.output = TK_OUTPUT_AUTO;
      else
        return usage("--emit takes ptx, cubin or auto, got '" + value + "'");
    } else if (std::strcmp(arg, "-o") == 0) {
      if (i + 1 == argc)
        return usage("-o needs a file name");
      output = argv[++i];
    } else if (std::strcmp(arg, "--no-fp-fusion") == 0) {
      opts.fp_fusion = 0;
    } else if (std::strcmp(arg, "--tensor-maps") == 0) {
      opts.tensor_maps = 1;
    } else if (std::strcmp(arg, "--time") == 0) {
      time = true;
    } else if (std::strcmp(arg, "--resources") == 0) {
      resources = true;
    } else if (option(arg, "--dump-stages", value)) {
      if (value.empty())
        return usage("--dump-stages takes a directory");
      stagesDir = value;
      opts.keep_stages = 1;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return usage(std::string("unknown option ") + arg);
    } else if (!input.empty()) {
      return usage("one input file only, got " + input + " and " + arg);
    } else {
      input = arg;
    }
  }
  if (input.empty())
    return usage("no input file");
  std::string text;
  if (std::string error = readInput(input, text); !error.empty())
    return failure(error);
  opts.target = target.empty() ? nullptr : target.c_str();
  opts.lowering_target = loweringTarget.empty() ? nullptr : loweringTarget.c_str();

  tk_compile_result *result = nullptr;
  const std::string name = input == "-" ? "<stdin>" : input;
  tk_status status = tk_compile_named(text.data(), text.size(), name.c_str(), &opts, &result);
  const std::string dumpError = stagesDir.empty() ? "" : dumpStages(result, stagesDir);
  if (status != TK_OK) {
    std::fputs(tk_compile_result_error(result), stderr);
    tk_compile_result_free(result);
    if (!dumpError.empty())
      failure(dumpError);
    return 1;
  }
  if (!dumpError.empty()) {
    tk_compile_result_free(result);
    return failure(dumpError);
  }
  size_t size = 0;
  const void *binary = tk_compile_result_binary(result, &size);
  if (std::string error = writeOutput(output, binary, size); !error.empty()) {
    tk_compile_result_free(result);
    return failure(error);
  }
  for (int i = 0; i < tk_compile_result_tensor_map_count(result); ++i) {
    tk_tensor_map map{};
    tk_compile_result_tensor_map(result, i, &map);
    std::fprintf(stderr, "tensor map %d: base argument %d, %d-byte elements, box", i, map.base_arg,
                 map.element_bytes);
    for (int d = 0; d < map.rank; ++d)
      std::fprintf(stderr, "%s%d", d ? "x" : " ", map.box[d]);
    std::fprintf(stderr, ", swizzle %d\n", map.swizzle);
  }
  if (resources)
    std::fputs(resourceLine(result, loweringTarget).c_str(), stderr);
  if (time) {
    std::fprintf(stderr, "%s for %s\n%s", tk_compile_result_kernel_name(result),
                 tk_compile_result_target(result), tk_compile_result_producer_log(result));
    for (int stage = 0; stage < TK_STAGE_COUNT; ++stage)
      std::fprintf(stderr, "  %-9s %8.2f ms\n", tk_stage_name(static_cast<tk_stage>(stage)),
                   tk_compile_result_stage_ms(result, static_cast<tk_stage>(stage)));
  }
  tk_compile_result_free(result);
  return 0;
}

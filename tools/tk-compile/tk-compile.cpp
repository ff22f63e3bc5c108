/// @file tk-compile: the backend's C ABI (include/tk/backend.h) on the command line. Compiles one
/// IR file (or stdin) and writes the PTX (default) or the binary; used by the lit tests of code
/// generation (tests/lit/Target) and to look at what the backend emits.
///   tk-compile --target=sm_90a [--num-warps=4] [--emit=ptx|cubin|auto] [-o out] [--time] in.mlir
#include "tk/backend.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

namespace {

int usage(const char *why) {
  std::fprintf(stderr,
               "tk-compile: %s\nusage: tk-compile --target=SM [--num-warps=N] [--num-stages=N] "
               "[--no-fp-fusion] [--emit=ptx|cubin|auto] [-o FILE] [--time] FILE|-\ntargets: %s\n",
               why, tk_backend_targets());
  return 2;
}

bool option(const char *arg, const char *name, std::string &value) {
  size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0 || arg[length] != '=')
    return false;
  value = arg + length + 1;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  tk_compile_options opts;
  tk_compile_options_init(&opts);
  opts.output = TK_OUTPUT_PTX;
  std::string target, input, output = "-", value;
  bool time = false;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (option(arg, "--target", value)) {
      target = value;
    } else if (option(arg, "--num-warps", value)) {
      opts.num_warps = std::atoi(value.c_str());
    } else if (option(arg, "--num-stages", value)) {
      opts.num_stages = std::atoi(value.c_str());
    } else if (option(arg, "--emit", value)) {
      if (value == "ptx")
        opts.output = TK_OUTPUT_PTX;
      else if (value == "cubin")
        opts.output = TK_OUTPUT_CUBIN;
      else if (value == "auto")
        opts.output = TK_OUTPUT_AUTO;
      else
        return usage("--emit takes ptx, cubin or auto");
    } else if (std::strcmp(arg, "-o") == 0 && i + 1 < argc) {
      output = argv[++i];
    } else if (std::strcmp(arg, "--no-fp-fusion") == 0) {
      opts.fp_fusion = 0;
    } else if (std::strcmp(arg, "--time") == 0) {
      time = true;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return usage((std::string("unknown option ") + arg).c_str());
    } else {
      input = arg;
    }
  }
  if (input.empty())
    return usage("no input file");
  std::string text;
  if (input == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(input, std::ios::binary);
    if (!in)
      return usage(("cannot read " + input).c_str());
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  opts.target = target.empty() ? nullptr : target.c_str();

  tk_compile_result *result = nullptr;
  tk_status status = tk_compile(text.data(), text.size(), &opts, &result);
  if (status != TK_OK) {
    std::fputs(tk_compile_result_error(result), stderr);
    tk_compile_result_free(result);
    return 1;
  }
  size_t size = 0;
  const void *binary = tk_compile_result_binary(result, &size);
  std::FILE *out = output == "-" ? stdout : std::fopen(output.c_str(), "wb");
  if (!out || std::fwrite(binary, 1, size, out) != size) {
    std::fprintf(stderr, "tk-compile: cannot write %s\n", output.c_str());
    return 1;
  }
  if (out != stdout)
    std::fclose(out);
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

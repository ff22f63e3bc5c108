/// @file artifacts_test.cpp
/// What tk_compile hands back besides the binary: each stage's IR (keep_stages), the resources
/// ptxas and nvJitLink report (and their parser, Target/PtxasInfo.cpp, on sample logs), the
/// resources of a result from the disk cache, and TK_DUMP for the kernels it names.
/// Usage: artifacts_test <dir of inputs/*.mlir>. Prints a line per check; exits non-zero on
/// failure. Needs no GPU; the checks of cubins are skipped without ptxas.
#include "../support/capture_stderr.hpp"
#include "Target/PtxasInfo.h"
#include "backend_check.hpp"
#include "tk/backend.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using backend_test::check;
using backend_test::contains;
using backend_test::ptxasAvailable;
using backend_test::readFile;
using mlir::tk::KernelResources;
using mlir::tk::parsePtxasInfo;

namespace {

fs::path scratch;

bool same(const KernelResources &r, int registers, int stores, int loads, int stack, int smem) {
  return r.registers == registers && r.spillStoreBytes == stores && r.spillLoadBytes == loads &&
         r.stackBytes == stack && r.staticSharedBytes == smem;
}

std::string describe(const KernelResources &r) {
  return "registers " + std::to_string(r.registers) + ", spill stores " +
         std::to_string(r.spillStoreBytes) + ", spill loads " + std::to_string(r.spillLoadBytes) +
         ", stack " + std::to_string(r.stackBytes) + ", smem " +
         std::to_string(r.staticSharedBytes);
}

/// The parser on what ptxas 13.0 -v and nvJitLink 13.0 -verbose printed (kernels of
/// tests/backend/inputs; the spilling one with -maxrregcount=32).
void parser() {
  const std::string plain = "ptxas info    : 0 bytes gmem\n"
                            "ptxas info    : Compiling entry function 'vector_add' for 'sm_90a'\n"
                            "ptxas info    : Function properties for vector_add\n"
                            "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                            "ptxas info    : Used 26 registers, used 0 barriers\n"
                            "ptxas info    : Compile time = 15.561 ms\n";
  KernelResources r = parsePtxasInfo(plain, "vector_add");
  check(same(r, 26, 0, 0, 0, 0), "ptxas -v: registers, no spills, no smem", describe(r));

  const std::string shared =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'exp_shared' for 'sm_90a'\n"
      "ptxas info    : Function properties for exp_shared\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 14 registers, used 1 barriers, 1024 bytes smem\n";
  r = parsePtxasInfo(shared, "exp_shared");
  check(same(r, 14, 0, 0, 0, 1024), "ptxas -v: static shared memory", describe(r));

  const std::string spills =
      "ptxas info    : Overriding maximum register limit 256 for 'matmul_kn' with  32 of "
      "maxrregcount option\n"
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'matmul_kn' for 'sm_80'\n"
      "ptxas info    : Function properties for matmul_kn\n"
      "    1752 bytes stack frame, 2648 bytes spill stores, 2656 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 1 barriers, 1752 bytes cumulative stack size, 388 "
      "bytes cmem[0]\n"
      "ptxas info    : Compile time = 74.927 ms\n";
  r = parsePtxasInfo(spills, "matmul_kn");
  check(same(r, 32, 2648, 2656, 1752, 0), "ptxas -v: spills and the stack frame", describe(r));

  // A called function's properties come before the kernel's and are not the kernel's.
  const std::string calls =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Function properties for vprintf\n"
      "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Compiling entry function 'printing' for 'sm_90a'\n"
      "ptxas info    : Function properties for printing\n"
      "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 20 registers, used 0 barriers, 16 bytes cumulative stack size\n";
  r = parsePtxasInfo(calls, "printing");
  check(same(r, 20, 0, 0, 16, 0), "ptxas -v: the kernel's lines, not a callee's", describe(r));
  r = parsePtxasInfo(calls, "not_there");
  check(same(r, 20, 0, 0, 16, 0), "ptxas -v: another name: the first entry function", describe(r));

  const std::string nvJitLink =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'matmul_kn' for 'sm_80'\n"
      "ptxas info    : Function properties for matmul_kn\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 168 registers, used 1 barriers, 388 bytes cmem[0]\n"
      "ptxas info    : Compile time = 102.350 ms\n"
      "info    : 0 bytes gmem\n"
      "info    : Function properties for 'matmul_kn':\n"
      "info    : used 168 registers, used 1 barriers, 0 stack, 0 bytes smem, 388 bytes cmem[0], "
      "0 bytes lmem\n";
  r = parsePtxasInfo(nvJitLink, "matmul_kn");
  check(same(r, 168, 0, 0, 0, 0), "nvJitLink -verbose: its info log", describe(r));

  r = parsePtxasInfo("", "k");
  check(same(r, -1, -1, -1, -1, -1), "an empty log: all unknown", describe(r));
  r = parsePtxasInfo("ptxas fatal   : Unresolved extern function 'f'\r\nUsed 3 registers\n", "k");
  check(same(r, -1, -1, -1, -1, -1), "lines about no function: all unknown", describe(r));
  r = parsePtxasInfo("ptxas info    : Compiling entry function 'k' for 'sm_80'\r\n"
                     "ptxas info    : Used 99999999999 registers\r\n",
                     "k");
  check(same(r, -1, -1, -1, -1, 0), "CRLF lines, a number out of range: unknown", describe(r));
}

tk_compile_options options(tk_output_kind output, bool keepStages) {
  tk_compile_options opts;
  tk_compile_options_init(&opts);
  opts.target = "sm_90a";
  opts.output = output;
  opts.keep_stages = keepStages ? 1 : 0;
  return opts;
}

struct Result {
  tk_status status;
  tk_compile_result *result = nullptr;
  Result(const std::string &ir, const tk_compile_options &opts, bool cached = false) {
    status =
        cached ? tk_compile_cached(ir.data(), ir.size(), "kernel.cpp", &opts, TK_CACHE_USE, &result)
               : tk_compile(ir.data(), ir.size(), &opts, &result);
  }
  ~Result() { tk_compile_result_free(result); }
  Result(const Result &) = delete;
  Result &operator=(const Result &) = delete;
  std::string error() const { return tk_compile_result_error(result); }
  std::vector<std::string> stageNames() const {
    std::vector<std::string> names;
    for (int i = 0; i < tk_compile_result_stage_ir_count(result); ++i) {
      const char *name = nullptr;
      tk_compile_result_stage_ir(result, i, &name);
      names.push_back(name ? name : "(null)");
    }
    return names;
  }
  tk_resources resources() const {
    tk_resources r{};
    r.registers = -2;
    tk_compile_result_resources(result, &r);
    return r;
  }
};

std::string joined(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &name : names)
    out += (out.empty() ? "" : " ") + name;
  return out;
}

void stages(const std::string &vectorAddTk, const std::string &vectorAddLLVM) {
  tk_compile_options defaults;
  tk_compile_options_init(&defaults);
  check(defaults.keep_stages == 0, "keep_stages is off by default");
  {
    Result plain(vectorAddTk, options(TK_OUTPUT_PTX, false));
    check(plain.status == TK_OK && tk_compile_result_stage_ir_count(plain.result) == 0 &&
              tk_compile_result_stage_ir_named(plain.result, "ptx") == nullptr,
          "without keep_stages no stage is kept", plain.error());
  }
  Result kept(vectorAddTk, options(TK_OUTPUT_PTX, true));
  check(kept.status == TK_OK && joined(kept.stageNames()) == "tk tkgpu llvm-dialect llir ptx",
        "keep_stages on tk IR: tk, tkgpu, llvm-dialect, llir, ptx",
        kept.error() + joined(kept.stageNames()));
  auto text = [&](const char *name) {
    const char *t = tk_compile_result_stage_ir_named(kept.result, name);
    return t ? std::string(t) : std::string();
  };
  check(contains(text("tk"), "func.func @vector_add") && contains(text("tk"), "tk.load") &&
            !contains(text("tk"), "#tkgpu") && !contains(text("tk"), "loc("),
        "stage tk: the IR as parsed, without locations", text("tk"));
  check(contains(text("tkgpu"), "#tkgpu.blocked") && contains(text("tkgpu"), "tkgpu.shared") &&
            contains(text("tkgpu"), "tk.load") && !contains(text("tkgpu"), "llvm.func"),
        "stage tkgpu: layouts and shared memory, before conversion to LLVM", text("tkgpu"));
  check(contains(text("llvm-dialect"), "llvm.func @vector_add") &&
            !contains(text("llvm-dialect"), "tk.load"),
        "stage llvm-dialect: the LLVM dialect", text("llvm-dialect"));
  check(contains(text("llir"), "define ") && contains(text("llir"), "@vector_add") &&
            contains(text("llir"), "target triple = \"nvptx64-nvidia-cuda\""),
        "stage llir: LLVM IR", text("llir"));
  check(text("ptx") == tk_compile_result_ptx(kept.result) &&
            contains(text("ptx"), ".entry vector_add"),
        "stage ptx: the PTX");
  const char *name = "unchanged";
  check(tk_compile_result_stage_ir(kept.result, 5, &name) == nullptr && name == nullptr &&
            tk_compile_result_stage_ir(kept.result, -1, nullptr) == nullptr &&
            tk_compile_result_stage_ir_named(kept.result, "cubin") == nullptr &&
            tk_compile_result_stage_ir_named(kept.result, nullptr) == nullptr &&
            tk_compile_result_stage_ir_count(nullptr) == 0 &&
            tk_compile_result_stage_ir(nullptr, 0, nullptr) == nullptr,
        "stage IR: out of range, unknown names and NULL give NULL");

  Result llvm(vectorAddLLVM, options(TK_OUTPUT_PTX, true));
  check(llvm.status == TK_OK && joined(llvm.stageNames()) == "llvm-dialect llir ptx",
        "keep_stages on LLVM-dialect input: llvm-dialect, llir, ptx",
        llvm.error() + joined(llvm.stageNames()));

  Result broken("module { func.func @f( }", options(TK_OUTPUT_PTX, true));
  check(broken.status == TK_ERROR_PARSE && tk_compile_result_stage_ir_count(broken.result) == 0,
        "keep_stages, IR that does not parse: no stage");
}

void resources(const std::string &vectorAddTk, const std::string &expShared) {
  {
    Result ptx(vectorAddTk, options(TK_OUTPUT_PTX, false));
    const tk_resources r = ptx.resources();
    check(ptx.status == TK_OK && r.registers == -1 && r.spill_store_bytes == -1 &&
              r.spill_load_bytes == -1 && r.stack_bytes == -1 && r.shared_bytes == 0 &&
              r.threads == 128,
          "PTX: registers, spills and stack unknown; shared memory and threads known");
  }
  {
    Result failed("module {", options(TK_OUTPUT_PTX, false));
    tk_resources r{};
    check(tk_compile_result_resources(failed.result, &r) == -1 &&
              tk_compile_result_resources(nullptr, &r) == -1 &&
              tk_compile_result_resources(failed.result, nullptr) == -1,
          "resources of a failed result, or with NULL: -1");
  }
  if (!ptxasAvailable()) {
    std::printf("skip resources of cubins: no ptxas (TK_PTXAS, CUDA_PATH/bin, "
                "/usr/local/cuda/bin, PATH)\n");
    return;
  }
  setenv("TK_NVJITLINK", "0", 1);
  {
    Result cubin(vectorAddTk, options(TK_OUTPUT_CUBIN, false));
    const tk_resources r = cubin.resources();
    check(cubin.status == TK_OK &&
              contains(tk_compile_result_producer_log(cubin.result), "cubin by ptxas") &&
              r.registers > 0 && r.registers <= 255 && r.spill_store_bytes == 0 &&
              r.spill_load_bytes == 0 && r.stack_bytes == 0 && r.shared_bytes == 0 &&
              r.threads == 128,
          "cubin by ptxas: registers > 0, no spills, no stack",
          cubin.error() + " registers " + std::to_string(r.registers));
  }
  {
    Result cubin(expShared, options(TK_OUTPUT_CUBIN, false));
    const tk_resources r = cubin.resources();
    check(cubin.status == TK_OK && r.registers > 0 && r.shared_bytes == 1024,
          "cubin by ptxas with static shared memory: 1024 bytes", cubin.error());
  }
  setenv("TK_NVJITLINK", "1", 1);
  {
    Result cubin(vectorAddTk, options(TK_OUTPUT_CUBIN, false));
    const std::string log = tk_compile_result_producer_log(cubin.result);
    const tk_resources r = cubin.resources();
    if (log.rfind("cubin by nvJitLink", 0) == 0)
      check(r.registers > 0 && r.spill_store_bytes == 0 && r.stack_bytes == 0,
            "cubin by nvJitLink: registers > 0 from its info log",
            "registers " + std::to_string(r.registers));
    else
      std::printf("skip resources through nvJitLink: %s", log.c_str());
  }
  unsetenv("TK_NVJITLINK");
}

void cached(const std::string &vectorAddTk, const std::string &expShared) {
  setenv("TK_CACHE_DIR", (scratch / "cache").c_str(), 1);
  const tk_output_kind kind = ptxasAvailable() ? TK_OUTPUT_CUBIN : TK_OUTPUT_PTX;
  for (const std::string *ir : {&vectorAddTk, &expShared}) {
    Result first(*ir, options(kind, false), true);
    check(first.status == TK_OK && !tk_compile_result_from_cache(first.result) &&
              tk_compile_result_cache_store(first.result) == 1,
          "a compile stored in the disk cache", first.error());
    Result hit(*ir, options(kind, false), true);
    const tk_resources a = first.resources(), b = hit.resources();
    check(hit.status == TK_OK && tk_compile_result_from_cache(hit.result) &&
              a.registers == b.registers && a.spill_store_bytes == b.spill_store_bytes &&
              a.spill_load_bytes == b.spill_load_bytes && a.stack_bytes == b.stack_bytes &&
              a.shared_bytes == b.shared_bytes && a.threads == b.threads &&
              tk_compile_result_shared_bytes(hit.result) ==
                  tk_compile_result_shared_bytes(first.result) &&
              (kind == TK_OUTPUT_PTX || b.registers > 0),
          "a result from the disk cache has the compile's resources and shared bytes",
          hit.error() + " registers " + std::to_string(a.registers) + " / " +
              std::to_string(b.registers) + ", shared " + std::to_string(a.shared_bytes) + " / " +
              std::to_string(b.shared_bytes));
    Result stages(*ir, options(kind, true), true);
    check(stages.status == TK_OK && !tk_compile_result_from_cache(stages.result) &&
              tk_compile_result_stage_ir_count(stages.result) == (ir == &vectorAddTk ? 5 : 3) &&
              std::string(tk_compile_result_cache_entry(stages.result)) ==
                  tk_compile_result_cache_entry(first.result),
          "keep_stages through the cache: compiled afresh with its stages, the same entry",
          stages.error());
  }
  unsetenv("TK_CACHE_DIR");
}

/// What TK_DUMP=`value` prints while vector_add compiles.
std::string dumped(const std::string &vectorAddTk, const char *value) {
  setenv("TK_DUMP", value, 1);
  const std::string err = tk_test::capture_stderr_in((scratch / "stderr.txt").string(), [&] {
    Result r(vectorAddTk, options(TK_OUTPUT_PTX, false));
  });
  unsetenv("TK_DUMP");
  return err;
}

void dumpByName(const std::string &vectorAddTk) {
  const std::string marker = "// -----// IR after tk-to-llvm //----- //";
  check(contains(dumped(vectorAddTk, "1"), marker), "TK_DUMP=1 dumps every kernel");
  check(contains(dumped(vectorAddTk, "vector_add"), marker), "TK_DUMP=vector_add dumps it");
  check(contains(dumped(vectorAddTk, "softmax, vector_add"), marker),
        "TK_DUMP=softmax, vector_add: a list of names, spaces allowed");
  const std::string other = dumped(vectorAddTk, "softmax");
  check(other.empty(), "TK_DUMP=softmax: vector_add is not dumped, and nothing is said", other);
  const std::string prefix = dumped(vectorAddTk, "vector");
  check(prefix.empty(), "TK_DUMP=vector: names match whole", prefix);
  const std::string off = dumped(vectorAddTk, "off");
  check(off.empty(), "TK_DUMP=off: nothing", off);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <inputs dir>\n", argv[0]);
    return 2;
  }
  const std::string vectorAddTk = readFile(std::string(argv[1]) + "/vector_add_tk.mlir");
  const std::string vectorAdd = readFile(std::string(argv[1]) + "/vector_add.mlir");
  const std::string expShared = readFile(std::string(argv[1]) + "/exp_shared.mlir");
  if (vectorAddTk.empty() || vectorAdd.empty() || expShared.empty()) {
    std::printf("FAIL cannot read the inputs in %s\n", argv[1]);
    return 1;
  }
  char dir[] = "/tmp/tk-artifacts-test-XXXXXX";
  if (!mkdtemp(dir)) {
    std::printf("FAIL cannot make a temporary directory\n");
    return 1;
  }
  scratch = dir;
  unsetenv("TK_DUMP");
  parser();
  stages(vectorAddTk, vectorAdd);
  resources(vectorAddTk, expShared);
  cached(vectorAddTk, expShared);
  dumpByName(vectorAddTk);
  fs::remove_all(scratch);
  std::printf("%d failure(s)\n", backend_test::failures);
  return backend_test::failures == 0 ? 0 : 1;
}

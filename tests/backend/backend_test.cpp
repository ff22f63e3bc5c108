/// @file backend_test.cpp
/// Tests of libtilekit_backend.so through its C ABI (include/tk/backend.h) only: code
/// generation for every target, cubins through ptxas, and one error test per misuse.
/// Usage: backend_test <dir of inputs/*.mlir>. Prints a line per check; exits non-zero on failure.
#include "backend_check.hpp"
#include "tk/backend.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <pthread.h>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

extern "C" int tk_backend_header_is_c(void); // header_c.c

namespace {

using backend_test::check;
using backend_test::Compiled;
using backend_test::contains;
using backend_test::ptxasAvailable;

std::string inputDir;

std::string readInput(const char *name) {
  std::ifstream in(inputDir + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().empty()) {
    std::printf("FAIL cannot read %s/%s\n", inputDir.c_str(), name);
    std::exit(1);
  }
  return text.str();
}

void everyTargetToPTX(const std::string &vectorAdd) {
  std::istringstream names(tk_backend_targets());
  std::string target;
  while (names >> target) {
    Compiled c(vectorAdd, target.c_str(), TK_OUTPUT_PTX);
    std::string ptx = c.status == TK_OK ? tk_compile_result_ptx(c.result) : "";
    size_t size = 0;
    const void *binary = tk_compile_result_binary(c.result, &size);
    check(c.status == TK_OK && contains(ptx, ".entry vector_add") &&
              contains(ptx, ".target " + target + "\n") && binary && size == ptx.size() &&
              tk_compile_result_kind(c.result) == TK_OUTPUT_PTX,
          "vector_add -> PTX for " + target, c.error());
    check(std::string(tk_compile_result_kernel_name(c.result)) == "vector_add" &&
              tk_compile_result_threads_per_block(c.result) == 128 &&
              tk_compile_result_target(c.result) == target &&
              tk_compile_result_shared_bytes(c.result) == 0 && contains(ptx, ".maxntid 128"),
          "vector_add metadata for " + target);
  }
}

/// tk_compile from several threads at once (each has its own contexts; one-time setup is
/// guarded): every result must be the same PTX.
void threads(const std::string &vectorAdd, const std::string &expShared) {
  Compiled reference(vectorAdd, "sm_90a", TK_OUTPUT_PTX);
  std::string expected = tk_compile_result_ptx(reference.result);
  std::vector<int> ok(8, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < 8; ++t)
    workers.emplace_back([&, t] {
      Compiled c(t % 2 ? expShared : vectorAdd, "sm_90a", TK_OUTPUT_PTX);
      ok[t] =
          c.status == TK_OK && (t % 2 || std::string(tk_compile_result_ptx(c.result)) == expected);
    });
  for (std::thread &worker : workers)
    worker.join();
  bool all = true;
  for (int value : ok)
    all = all && value;
  check(all, "8 threads compiling at once");
}

void timings(const std::string &vectorAdd) {
  Compiled c(vectorAdd, "sm_90a", TK_OUTPUT_AUTO);
  check(c.status == TK_OK, "vector_add sm_90a auto", c.error());
  std::printf("     stages (ms):");
  for (int s = 0; s < TK_STAGE_COUNT; ++s)
    std::printf(" %s %.2f", tk_stage_name(static_cast<tk_stage>(s)),
                tk_compile_result_stage_ms(c.result, static_cast<tk_stage>(s)));
  std::printf("\n     producer: %s", tk_compile_result_producer_log(c.result));
}

void cubins(const std::string &vectorAdd, const std::string &expShared) {
  if (!ptxasAvailable()) {
    std::printf(
        "skip cubin tests: no ptxas (TK_PTXAS, CUDA_PATH/bin, /usr/local/cuda/bin, PATH)\n");
    return;
  }
  setenv("TK_NVJITLINK", "0", 1); // exercise ptxas, not nvJitLink
  for (const char *target : {"sm_80", "sm_90a", "sm_100a", "sm_120a"}) {
    Compiled c(vectorAdd, target, TK_OUTPUT_CUBIN);
    size_t size = 0;
    const auto *bytes =
        static_cast<const unsigned char *>(tk_compile_result_binary(c.result, &size));
    bool elf = bytes && size > 4 &&
               std::memcmp(bytes,
                           "\x7f"
                           "ELF",
                           4) == 0;
    check(c.status == TK_OK && elf && tk_compile_result_kind(c.result) == TK_OUTPUT_CUBIN &&
              contains(tk_compile_result_producer_log(c.result), "cubin by ptxas"),
          std::string("vector_add -> cubin by ptxas for ") + target,
          c.error() + tk_compile_result_producer_log(c.result));
  }
  {
    Compiled c(expShared, "sm_90a", TK_OUTPUT_CUBIN);
    std::string ptx = tk_compile_result_ptx(c.result);
    check(c.status == TK_OK && tk_compile_result_shared_bytes(c.result) == 1024 &&
              contains(ptx, "ex2.approx") && !contains(ptx, "__nv_expf") &&
              contains(ptx, "bar.sync"),
          "exp_shared: libdevice linked, 1024 shared bytes, cubin", c.error());
  }
  unsetenv("TK_NVJITLINK");
  {
    Compiled c(vectorAdd, "sm_90a", TK_OUTPUT_CUBIN);
    check(c.status == TK_OK && contains(tk_compile_result_producer_log(c.result), "cubin by ptxas"),
          "vector_add -> cubin, ptxas first by default",
          c.error() + tk_compile_result_producer_log(c.result));
  }
  setenv("TK_NVJITLINK", "1", 1);
  {
    Compiled c(vectorAdd, "sm_90a", TK_OUTPUT_CUBIN);
    size_t size = 0;
    tk_compile_result_binary(c.result, &size);
    const std::string log = tk_compile_result_producer_log(c.result);
    // nvJitLink tried first: it made the cubin, or its failure is logged before ptxas made it.
    check(c.status == TK_OK && size > 0 &&
              (log.rfind("cubin by nvJitLink", 0) == 0 || log.rfind("nvJitLink failed", 0) == 0),
          "vector_add -> cubin, nvJitLink first (TK_NVJITLINK=1)",
          c.error() + tk_compile_result_producer_log(c.result));
  }
  setenv("TK_NVJITLINK", "0", 1);
  setenv("TK_PTXAS", "/nonexistent/ptxas", 1);
  {
    Compiled autoKind(vectorAdd, "sm_90a", TK_OUTPUT_AUTO);
    check(autoKind.status == TK_OK && tk_compile_result_kind(autoKind.result) == TK_OUTPUT_PTX &&
              contains(tk_compile_result_producer_log(autoKind.result), "driver's JIT"),
          "no nvJitLink, no ptxas: auto falls back to PTX", autoKind.error());
    Compiled cubin(vectorAdd, "sm_90a", TK_OUTPUT_CUBIN);
    check(cubin.status == TK_ERROR_NO_CUBIN &&
              contains(cubin.error(), "TK_PTXAS=/nonexistent/ptxas"),
          "no nvJitLink, no ptxas: TK_OUTPUT_CUBIN fails with the reasons", cubin.error());
  }
  unsetenv("TK_PTXAS");
  unsetenv("TK_NVJITLINK");
}

// tk IR as the front end prints it, through the whole pipeline (Lower.cpp): the front end's
// vector add (masked loads and store, 16-byte vectors: aligned pointers, n a multiple of 16)
// and an unmasked copy, to PTX and, with ptxas, to cubins.
void tkLevel(const std::string &vectorAddTk, const std::string &copy) {
  for (const char *target : {"sm_80", "sm_90a"}) {
    Compiled c(vectorAddTk, target, TK_OUTPUT_PTX);
    std::string ptx = c.status == TK_OK ? tk_compile_result_ptx(c.result) : "";
    check(c.status == TK_OK && contains(ptx, ".entry vector_add") &&
              contains(ptx, std::string(".target ") + target) &&
              contains(ptx, "ld.global.v4.b32") && contains(ptx, "st.global.v4.b32") &&
              contains(ptx, ".maxntid 128, 1, 1") && contains(ptx, "%ctaid.x") &&
              contains(ptx, "%tid.x"),
          std::string("front end's vector_add (tk IR) -> PTX for ") + target, c.error() + ptx);
  }
  {
    Compiled c(copy, "sm_80", TK_OUTPUT_PTX, 8);
    std::string ptx = c.status == TK_OK ? tk_compile_result_ptx(c.result) : "";
    check(c.status == TK_OK && contains(ptx, ".entry copy") &&
              contains(ptx, ".maxntid 256, 1, 1") && contains(ptx, "ld.global") &&
              contains(ptx, "st.global"),
          "tk IR copy, 8 warps -> PTX", c.error() + ptx);
  }
  {
    // An aligned load stored through an unaligned pointer: a 16-byte load, scalar stores, and a
    // layout conversion through shared memory between them.
    const std::string mixed = R"(module {
  func.func @copy(%arg0: !tk.ptr<f32>, %arg1: !tk.ptr<f32> {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32>
    %1 = "tk.splat"(%arg1) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>>
    %2 = "tk.addptr"(%1, %0) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tk.ptr<f32>>) -> tensor<1024xf32>
    %4 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>>
    %5 = "tk.addptr"(%4, %0) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>>
    "tk.store"(%5, %3) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>) -> ()
    return
  }
})";
    Compiled c(mixed, "sm_90a", TK_OUTPUT_PTX);
    std::string ptx = c.status == TK_OK ? tk_compile_result_ptx(c.result) : "";
    check(c.status == TK_OK && contains(ptx, "ld.global.v4.b32") &&
              contains(ptx, "st.global.b32") && contains(ptx, "bar.sync"),
          "tk IR copy, aligned load + unaligned store -> v4 load, scalar stores", c.error() + ptx);
  }
  if (!ptxasAvailable()) {
    std::printf("skip tk IR -> cubin: no ptxas\n");
    return;
  }
  for (const char *target : {"sm_80", "sm_90a"}) {
    Compiled c(vectorAddTk, target, TK_OUTPUT_CUBIN);
    check(c.status == TK_OK && tk_compile_result_kind(c.result) == TK_OUTPUT_CUBIN,
          std::string("front end's vector_add (tk IR) -> cubin for ") + target,
          c.error() + tk_compile_result_producer_log(c.result));
  }
}

/// tk.extern_elementwise with a `library`: its function linked from LLVM IR text and inlined;
/// a library that does not define the symbol, one that is not LLVM IR, and one that does not
/// exist, each an error naming the library (the last at the op's line).
void externLibraries() {
  const std::string dir = "/tmp/tk_backend_test_libs." + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  auto write = [&](const char *name, const char *text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  const std::string good = write("twice.ll", R"(define float @twice_plus_one(float %x) {
  %y = fmul float %x, 2.000000e+00
  %z = fadd float %y, 1.000000e+00
  ret float %z
}
)");
  const std::string other = write("other.ll", R"(define float @something_else(float %x) {
  ret float %x
}
)");
  const std::string garbage = write("garbage.ll", "this is not LLVM IR\n");
  auto kernel = [](const std::string &library) {
    return R"(module {
  func.func @ext(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
    %1 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
    %2 = "tk.addptr"(%1, %0) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
    %4 = "tk.extern_elementwise"(%3) <{library = ")" +
           library +
           R"(", pure = true, symbol = "twice_plus_one"}> : (tensor<128xf32>) -> tensor<128xf32> loc("kernel.cpp":7:3)
    "tk.store"(%2, %4) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>) -> ()
    return
  }
})";
  };
  {
    Compiled c(kernel(good), "sm_90a", TK_OUTPUT_PTX);
    const std::string ptx = c.status == TK_OK ? tk_compile_result_ptx(c.result) : "";
    check(c.status == TK_OK && contains(ptx, "0f3F800000") && !contains(ptx, "twice_plus_one") &&
              !contains(ptx, "call"),
          "extern library: twice_plus_one linked and inlined (its + 1.0, no call)",
          c.error() + ptx);
  }
  {
    Compiled c(kernel(other), "sm_90a", TK_OUTPUT_PTX);
    check(c.status != TK_OK && contains(c.error(), "the device function `twice_plus_one` is not "
                                                   "defined in " +
                                                       other),
          "extern library without the symbol: an error naming both", c.error());
  }
  {
    Compiled c(kernel(garbage), "sm_90a", TK_OUTPUT_PTX);
    check(c.status != TK_OK &&
              contains(c.error(), "cannot read the device-function library " + garbage),
          "extern library that is not LLVM IR: an error naming it", c.error());
  }
  {
    Compiled c(kernel(dir + "/missing.bc"), "sm_90a", TK_OUTPUT_PTX);
    check(c.status != TK_OK && contains(c.error(), "kernel.cpp:7:3") &&
              contains(c.error(), "comes from the library " + dir +
                                      "/missing.bc, which does "
                                      "not exist"),
          "extern library that does not exist: an error at the op's line", c.error());
  }
  std::filesystem::remove_all(dir);
}

/// fp_fusion: the front end's vector add turned into out = x * y + x. On (the default), the
/// multiply and add become one fma; off, NVPTX writes mul.rn and add.rn, which ptxas may not
/// contract either.
void fpFusion(const std::string &vectorAddTk) {
  tk_compile_options defaults;
  tk_compile_options_init(&defaults);
  check(defaults.fp_fusion == 1, "fp_fusion is on by default");
  const std::string add = "%14 = arith.addf %13, %10 : tensor<1024xf32>";
  std::string muladd = vectorAddTk;
  const auto at = muladd.find(add);
  check(at != std::string::npos, "vector_add_tk.mlir has the add fp fusion rewrites");
  if (at == std::string::npos)
    return;
  muladd.replace(at, add.size(),
                 "%mul = arith.mulf %13, %10 : tensor<1024xf32>\n"
                 "    %14 = arith.addf %mul, %13 : tensor<1024xf32>");
  for (int fusion : {1, 0}) {
    Compiled c(muladd, "sm_90a", TK_OUTPUT_PTX, 4, fusion);
    const std::string ptx = c.status == TK_OK ? tk_compile_result_ptx(c.result) : "";
    const bool fma = contains(ptx, "fma.rn.f32");
    const bool separate = contains(ptx, "mul.rn.f32") && contains(ptx, "add.rn.f32");
    check(c.status == TK_OK && (fusion ? fma && !separate : separate && !fma),
          fusion ? "fp_fusion=1: x * y + x is one fma.rn.f32"
                 : "fp_fusion=0: x * y + x is mul.rn.f32 then add.rn.f32",
          c.error() + ptx);
  }
}

/// lowering_target: code lowered as for an older target, still made for `target`; a newer or
/// another GPU's architecture-specific target is refused by name.
/// tk_compile_options::tensor_maps: on sm_90a both descriptors of descriptor_copy.mlir become
/// tensor-map parameters, with recipes naming the kernel's arguments; without the option, or
/// below sm_90, there are none and the copies go through pointers.
void tensorMaps(const std::string &descriptorCopy) {
  tk_compile_options defaults;
  tk_compile_options_init(&defaults);
  check(defaults.tensor_maps == 0, "tensor_maps is off by default");
  struct Outcome {
    tk_status status;
    std::vector<tk_tensor_map> maps;
    std::string ptx, error;
    int outOfRange;
  };
  auto compile = [&](const char *target, int tensorMaps) {
    tk_compile_options opts;
    tk_compile_options_init(&opts);
    opts.target = target;
    opts.tensor_maps = tensorMaps;
    opts.output = TK_OUTPUT_PTX;
    tk_compile_result *result = nullptr;
    Outcome o;
    o.status = tk_compile(descriptorCopy.data(), descriptorCopy.size(), &opts, &result);
    for (int i = 0; i < tk_compile_result_tensor_map_count(result); ++i) {
      tk_tensor_map map;
      o.maps.push_back(tk_compile_result_tensor_map(result, i, &map) == 0 ? map : tk_tensor_map{});
    }
    tk_tensor_map unused;
    o.outOfRange = tk_compile_result_tensor_map(result, int(o.maps.size()), &unused);
    o.ptx = tk_compile_result_ptx(result);
    o.error = tk_compile_result_error(result);
    tk_compile_result_free(result);
    return o;
  };
  const Outcome tma = compile("sm_90a", 1);
  check(tma.status == TK_OK && tma.maps.size() == 2, "tensor_maps on sm_90a: two maps", tma.error);
  if (tma.maps.size() == 2) {
    for (int m = 0; m < 2; ++m) {
      const tk_tensor_map &map = tma.maps[size_t(m)];
      check(map.rank == 2 && map.element_bytes == 4 && map.base_arg == 1 - m &&
                map.shape_arg[0] == 2 && map.shape_arg[1] == 3 && map.stride_arg[0] == 4 &&
                map.stride_arg[1] == -1 && map.stride[1] == 1 && map.box[0] == 64 &&
                map.box[1] == 32,
            "tensor map " + std::to_string(m) + ": base, sizes and strides name the arguments");
    }
  }
  check(tma.outOfRange == -1, "tk_compile_result_tensor_map refuses an index out of range");
  check(contains(tma.ptx, ".param .align 64 .b8 descriptor_copy_param_5[128]") &&
            contains(tma.ptx, ".param .align 64 .b8 descriptor_copy_param_6[128]") &&
            contains(tma.ptx, "cp.async.bulk.tensor.2d.shared::cluster.global") &&
            contains(tma.ptx, "cp.async.bulk.tensor.2d.global.shared::cta") &&
            contains(tma.ptx, "mbarrier.try_wait.parity"),
        "tensor_maps on sm_90a: 128-byte map parameters and TMA copies in the PTX");
  for (auto [target, option] : {std::pair{"sm_90a", 0}, std::pair{"sm_80", 1}}) {
    const Outcome plain = compile(target, option);
    check(plain.status == TK_OK && plain.maps.empty() &&
              !contains(plain.ptx, "cp.async.bulk.tensor") &&
              !contains(plain.ptx, "descriptor_copy_param_5"),
          std::string("tensor_maps ") + std::to_string(option) + " on " + target +
              ": no maps, the pointer path",
          plain.error);
  }
}

/// TMA rings (tk-pipeline): with tensor maps on sm_90a, descriptor_matmul.mlir's two loads fill
/// wgmma's rings by TMA, one mbarrier per slot; the maps' recipes carry the box of a 128-byte
/// panel and the 128-byte swizzle. Without pipelining (num_stages 1) the maps stay unswizzled.
void tmaRings(const std::string &descriptorMatmul) {
  auto compile = [&](int stages, std::vector<tk_tensor_map> &maps, std::string &ptx) {
    tk_compile_options opts;
    tk_compile_options_init(&opts);
    opts.target = "sm_90a";
    opts.tensor_maps = 1;
    opts.num_stages = stages;
    opts.output = TK_OUTPUT_PTX;
    tk_compile_result *result = nullptr;
    const tk_status status =
        tk_compile(descriptorMatmul.data(), descriptorMatmul.size(), &opts, &result);
    for (int i = 0; i < tk_compile_result_tensor_map_count(result); ++i) {
      tk_tensor_map map{};
      tk_compile_result_tensor_map(result, i, &map);
      maps.push_back(map);
    }
    ptx = tk_compile_result_ptx(result);
    const std::string error = tk_compile_result_error(result);
    tk_compile_result_free(result);
    check(status == TK_OK, "descriptor matmul compiles with " + std::to_string(stages) + " stages",
          error);
  };
  std::vector<tk_tensor_map> maps;
  std::string ptx;
  compile(3, maps, ptx);
  // Map 0 is A (64 x 64: one box), map 1 B (64 x 128: two panels of 64 columns).
  check(maps.size() == 2 && maps[0].swizzle == 128 && maps[0].box[0] == 64 &&
            maps[0].box[1] == 64 && maps[1].swizzle == 128 && maps[1].box[0] == 64 &&
            maps[1].box[1] == 64,
        "TMA rings: each map's box is a 128-byte panel, swizzled 128 bytes");
  check(contains(ptx, "mbarrier.init.shared::cta.b64 [%r") &&
            contains(ptx, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r") &&
            contains(ptx, "], 8192;") && contains(ptx, "], 16384;") &&
            contains(ptx, "mbarrier::complete_tx::bytes") &&
            contains(ptx, "mbarrier.inval.shared::cta.b64") &&
            contains(ptx, "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16") &&
            !contains(ptx, "cp.async.cg.shared.global") && !contains(ptx, "ld.shared.u16"),
        "TMA rings: copies armed on mbarriers (8 KiB of A, 16 KiB of B), no cp.async, no "
        "register round trip");
  std::vector<tk_tensor_map> plain;
  compile(1, plain, ptx);
  check(plain.size() == 2 && plain[0].swizzle == 0 && plain[0].box[1] == 64 &&
            plain[1].swizzle == 0 && plain[1].box[1] == 128,
        "num_stages 1: no ring, the maps unswizzled with the block as the box");
}

void loweringTarget(const std::string &vectorAddTk) {
  tk_compile_options defaults;
  tk_compile_options_init(&defaults);
  check(defaults.lowering_target == nullptr, "lowering_target is unset by default");
  auto compile = [&](const char *target, const char *lowering, std::string &error,
                     std::string &ptx) {
    tk_compile_options opts;
    tk_compile_options_init(&opts);
    opts.target = target;
    opts.lowering_target = lowering;
    opts.output = TK_OUTPUT_PTX;
    tk_compile_result *result = nullptr;
    const tk_status status = tk_compile(vectorAddTk.data(), vectorAddTk.size(), &opts, &result);
    error = tk_compile_result_error(result);
    ptx = tk_compile_result_ptx(result);
    const std::string compiledFor = tk_compile_result_target(result);
    tk_compile_result_free(result);
    return std::pair{status, compiledFor};
  };
  std::string error, ptx;
  for (const char *lowering : {"", "sm_80", "sm_75", "sm_90", "sm_90a"}) {
    auto [status, compiledFor] = compile("sm_90a", lowering, error, ptx);
    check(status == TK_OK && compiledFor == "sm_90a" && contains(ptx, ".target sm_90a") &&
              contains(ptx, ".entry vector_add"),
          std::string("lowering_target '") + lowering + "' on sm_90a: PTX for sm_90a", error);
  }
  const struct {
    const char *target, *lowering;
    std::string message;
  } refused[] = {
      {"sm_90a", "sm_100a",
       "lowering_target sm_100a is newer than target sm_90a: its code may use instructions that "
       "sm_90a lacks; use a target no newer than sm_90a"},
      {"sm_80", "sm_86",
       "lowering_target sm_86 is newer than target sm_80: its code may use instructions that "
       "sm_80 lacks; use a target no newer than sm_80"},
      {"sm_100a", "sm_90a",
       "lowering_target sm_90a is architecture-specific: its instructions exist on sm_90 alone, "
       "not on sm_100a; use sm_90 or older"},
      {"sm_90a", "sm_42", "unknown lowering_target 'sm_42'; supported: sm_75 sm_80"},
  };
  for (const auto &r : refused) {
    auto [status, compiledFor] = compile(r.target, r.lowering, error, ptx);
    check(status == TK_ERROR_INVALID_ARGUMENT && contains(error, r.message) && ptx.empty(),
          std::string("lowering_target ") + r.lowering + " for target " + r.target + " refused",
          error);
  }
}

void errors(const std::string &vectorAdd) {
  {
    std::string bad = "module {\n  llvm.func @k() {\n    %0 = llvm.mlir.constant(1 : i32) : \n";
    Compiled c(bad, "sm_80", TK_OUTPUT_PTX);
    check(c.status == TK_ERROR_PARSE && contains(c.error(), "<tk-ir>:3:") &&
              contains(c.error(), "error:"),
          "malformed IR: parse error with line:col", c.error());
  }
  {
    std::string bad = "module {\n  llvm.func @k() attributes {nvvm.kernel} {\n"
                      "    %0 = llvm.fadd %1, %1 : f32 loc(\"user.cpp\":12:7)\n"
                      "    llvm.return\n  }\n}\n";
    Compiled c(bad, "sm_80", TK_OUTPUT_PTX);
    check(c.status == TK_ERROR_PARSE && contains(c.error(), ":3:"),
          "undefined value: error names the line", c.error());
  }
  {
    std::string bad = "module {\n  llvm.func @k(%a: f32) attributes {nvvm.kernel} {\n"
                      "    %0 = llvm.fadd %a, %a : i32 loc(\"user.cpp\":12:7)\n"
                      "    llvm.return\n  }\n}\n";
    Compiled c(bad, "sm_80", TK_OUTPUT_PTX);
    check(c.status == TK_ERROR_PARSE && !c.error().empty(), "type mismatch rejected", c.error());
  }
  {
    std::string noKernel = "module {\n  llvm.func @k() {\n    llvm.return\n  }\n}\n";
    Compiled c(noKernel, "sm_80", TK_OUTPUT_PTX);
    check(c.status == TK_ERROR_CODEGEN && contains(c.error(), "nvvm.kernel"),
          "no nvvm.kernel function: codegen error", c.error());
  }
  {
    Compiled c(vectorAdd, "sm_42", TK_OUTPUT_PTX);
    check(c.status == TK_ERROR_INVALID_ARGUMENT && contains(c.error(), "unknown target 'sm_42'") &&
              contains(c.error(), "sm_90a"),
          "unknown target", c.error());
  }
  for (int warps : {0, 3, 64, -4}) {
    Compiled c(vectorAdd, "sm_80", TK_OUTPUT_PTX, warps);
    check(c.status == TK_ERROR_INVALID_ARGUMENT && contains(c.error(), "num_warps"),
          "num_warps " + std::to_string(warps) + " rejected", c.error());
  }
  {
    Compiled c("", "sm_80", TK_OUTPUT_PTX);
    check(c.status == TK_ERROR_INVALID_ARGUMENT && contains(c.error(), "empty"), "empty input",
          c.error());
  }
  {
    Compiled c(vectorAdd, nullptr, TK_OUTPUT_PTX);
    check(c.status == TK_ERROR_INVALID_ARGUMENT && contains(c.error(), "no target"), "no target",
          c.error());
  }
  {
    tk_compile_result *result = nullptr;
    check(tk_compile(vectorAdd.data(), vectorAdd.size(), nullptr, &result) ==
                  TK_ERROR_INVALID_ARGUMENT &&
              result && contains(tk_compile_result_error(result), "no options"),
          "NULL options");
    tk_compile_result_free(result);
    check(tk_compile(vectorAdd.data(), vectorAdd.size(), nullptr, nullptr) ==
              TK_ERROR_INVALID_ARGUMENT,
          "NULL out");
  }
  {
    // A reduction across warps: warp shuffles, then shared memory (reported as dynamic).
    const std::string reduce = R"(module {
  func.func @row_sum(%arg0: !tk.ptr<i32>) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
    %1 = "tk.reduce"(%0) <{axis = 0 : i32}> ({
      ^bb0(%a: i32, %b: i32):
        %s = arith.addi %a, %b : i32
        "tk.reduce.return"(%s) : (i32) -> ()
    }) : (tensor<128xi32>) -> i32 loc("row_sum.cpp":7:12)
    "tk.store"(%arg0, %1) : (!tk.ptr<i32>, i32) -> ()
    func.return
  }
})";
    Compiled c(reduce, "sm_90a", TK_OUTPUT_PTX);
    const std::string ptx = c.status == TK_OK ? tk_compile_result_ptx(c.result) : "";
    check(c.status == TK_OK && contains(ptx, "shfl.sync.bfly") && contains(ptx, "bar.sync") &&
              contains(ptx, ".extern .shared .align 16 .b8 tk_shared[]") &&
              tk_compile_result_dynamic_shared_bytes(c.result) > 0 &&
              tk_compile_result_shared_bytes(c.result) ==
                  tk_compile_result_dynamic_shared_bytes(c.result),
          "tk.reduce across 4 warps: shuffles, shared memory reported as dynamic", c.error());
  }
  {
    // More shared memory than a block can have: an error at the op that needs it.
    const std::string dot = R"(module {
  func.func @big_dot(%arg0: !tk.ptr<f32>) {
    %0 = arith.constant dense<1.0> : tensor<256x256xf32>
    %1 = "tk.dot"(%0, %0, %0) <{input_precision = "ieee"}> : (tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32> loc("big.cpp":3:14)
    %2 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<256x256x!tk.ptr<f32>>
    "tk.store"(%2, %1) : (tensor<256x256x!tk.ptr<f32>>, tensor<256x256xf32>) -> ()
    func.return
  }
})";
    Compiled c(dot, "sm_90a", TK_OUTPUT_PTX);
    check(c.status == TK_ERROR_UNSUPPORTED &&
              contains(c.error(), "big.cpp:3:14: error: tk.dot needs ") &&
              contains(c.error(), "bytes of shared memory"),
          "a dot too large for shared memory: an error at its line", c.error());
  }
  {
    Compiled c("this is not MLIR \x01\xff", "sm_80", TK_OUTPUT_PTX);
    check(c.status == TK_ERROR_PARSE, "garbage text", c.error());
  }
  {
    Compiled c("module { foo.bar() : () -> () }", "sm_80", TK_OUTPUT_PTX);
    check(c.status == TK_ERROR_PARSE && contains(c.error(), "foo"), "unregistered dialect",
          c.error());
  }
  check(std::strlen(tk_backend_version()) > 0 && tk_stage_name(TK_STAGE_COUNT) == nullptr,
        std::string("version: ") + tk_backend_version());
  {
    // The version names the sources (12 hex digits), so that the disk cache never reuses a
    // binary compiled by a backend built from other sources.
    const std::string version = tk_backend_version();
    const std::size_t at = version.find("; source ");
    bool hex =
        at != std::string::npos && version.size() == at + 9 + 12 + 1 && version.back() == ')';
    for (std::size_t i = at + 9; hex && i < at + 9 + 12; ++i)
      hex = std::isxdigit(static_cast<unsigned char>(version[i])) != 0;
    check(hex, "the version names the backend's sources", version);
  }
}

/// Runs `body` on a new thread with a `stackBytes` stack (a caller with little stack, as many
/// thread pools give their workers) and waits for it.
void onThreadWithStack(size_t stackBytes, const std::function<void()> &body) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stackBytes);
  pthread_t thread;
  auto trampoline = [](void *arg) -> void * {
    (*static_cast<const std::function<void()> *>(arg))();
    return nullptr;
  };
  const bool started =
      pthread_create(&thread, &attr, trampoline, const_cast<std::function<void()> *>(&body)) == 0;
  pthread_attr_destroy(&attr);
  check(started, "a thread with a " + std::to_string(stackBytes / 1024) + " KiB stack");
  if (started)
    pthread_join(thread, nullptr);
}

std::string repeat(const std::string &text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i)
    out += text;
  return out;
}

/// A kernel whose store sits in `n` nested scf.if regions: the text nests n + 4 deep (module,
/// function, n regions, then the store's `(` and `!tk.ptr<` at the innermost level).
std::string nestedIfs(int n) {
  return "module {\n  func.func @deep(%p: !tk.ptr<i32>, %c: i1) {\n" + repeat("scf.if %c {\n", n) +
         "%v = arith.constant 1 : i32\n\"tk.store\"(%p, %v) : (!tk.ptr<i32>, i32) -> ()\n" +
         repeat("}\n", n) + "    return\n  }\n}\n";
}

/// Text nested deeper than the backend accepts (256 levels) is an error with its position, not
/// a stack overflow in the recursive parser, also for a caller with a small stack: tk_compile
/// runs on a thread of its own with a 64 MB stack and measures the nesting before parsing.
void deepNesting() {
  const int deep = 100000;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"regions nested 5000 deep", nestedIfs(5000)},
      {"generic regions nested 5000 deep", "module {\n" +
                                               repeat("\"scf.execute_region\"() ({\n", 5000) +
                                               repeat("}) : () -> ()\n", 5000) + "}\n"},
      {"brackets nested 10000 deep",
       "module attributes {tk.x = " + repeat("[", 10000) + repeat("]", 10000) + "} {\n}\n"},
      {"dictionaries nested 10000 deep", "module attributes {tk.x = " + repeat("{a = ", 10000) +
                                             "1" + repeat("}", 10000) + "} {\n}\n"},
      {"!tk.ptr nested 100000 deep", "module {\n  func.func @k(%a: " + repeat("!tk.ptr<", deep) +
                                         "f32" + repeat(">", deep) + ") {\n    return\n  }\n}\n"},
  };
  auto run = [&](const std::string &caller) {
    for (const auto &[what, ir] : cases) {
      const auto start = std::chrono::steady_clock::now();
      Compiled c(ir, "sm_90a", TK_OUTPUT_PTX);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      check(c.status == TK_ERROR_PARSE && contains(c.error(), "<tk-ir>:") &&
                contains(c.error(), ": error: nesting deeper than 256 levels of (), [], {} and "
                                    "<>, the most the compiler accepts"),
            what + " (" + std::to_string(ir.size()) + " bytes, " + caller + "): rejected in " +
                std::to_string(ms) + " ms",
            c.error());
    }
    // The position is the bracket that opens level 257: here the innermost `!tk.ptr<`.
    const std::string over = nestedIfs(253);
    const size_t lastLine = over.rfind("\"tk.store\"");
    const std::string where =
        "<tk-ir>:" + std::to_string(4 + 253) + ":" +
        std::to_string(over.find("!tk.ptr<", lastLine) - lastLine + std::strlen("!tk.ptr<"));
    Compiled deeper(over, "sm_90a", TK_OUTPUT_PTX);
    check(deeper.status == TK_ERROR_PARSE && contains(deeper.error(), where + ": error: nesting"),
          "257 levels: the error is at the bracket that opens level 257 (" + where + "), " + caller,
          deeper.error());
    Compiled limit(nestedIfs(252), "sm_90a", TK_OUTPUT_PTX);
    check(limit.status == TK_OK && contains(tk_compile_result_ptx(limit.result), ".entry deep"),
          "256 levels (252 nested regions) compile to PTX, " + caller, limit.error());
  };
  run("caller's thread");
  onThreadWithStack(256 * 1024, [&] { run("caller with a 256 KiB stack"); });
}

/// Blocks of more than 2^20 elements (the front end's limit) are rejected before any pass
/// unrolls them: a 150-byte make_range of 2^24 elements used to run for minutes and take GBs.
void blockSizes() {
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"make_range of 2^24 elements",
       "module {\n  func.func @k() {\n    %0 = \"tk.make_range\"() <{end = 16777216 : i32, "
       "start = 0 : i32}> : () -> tensor<16777216xi32> loc(\"big.cpp\":3:9)\n    return\n  "
       "}\n}\n",
       "big.cpp:3:9: error: 'tk.make_range' op result 0 is 'tensor<16777216xi32>', 16777216 "
       "elements; a block holds at most 1048576 (2^20) elements"},
      {"make_range of 2^30 elements",
       "module {\n  func.func @k() {\n    %0 = \"tk.make_range\"() <{end = 1073741824 : i32, "
       "start = 0 : i32}> : () -> tensor<1073741824xi32>\n    return\n  }\n}\n",
       "<tk-ir>:3:10: error: 'tk.make_range' op result 0 is 'tensor<1073741824xi32>'"},
      {"arith.constant of 2^30 elements",
       "module {\n  func.func @k(%p: !tk.ptr<f32>) {\n    %0 = arith.constant dense<1.0> : "
       "tensor<1073741824xf32> loc(\"c.cpp\":7:3)\n    return\n  }\n}\n",
       "c.cpp:7:3: error: 'arith.constant' op result 0 is 'tensor<1073741824xf32>', 1073741824 "
       "elements; a block holds at most 1048576 (2^20) elements"},
      {"scf.for carrying 2^21 elements",
       "module {\n  func.func @k(%t: tensor<2097152xf32>, %n: index) {\n    %0 = scf.for %i = "
       "%n to %n step %n iter_args(%a = %t) -> (tensor<2097152xf32>) {\n      scf.yield %a : "
       "tensor<2097152xf32>\n    }\n    return\n  }\n}\n",
       "error: 'func.func' op block argument 0 is 'tensor<2097152xf32>', 2097152 elements"},
  };
  for (const auto &[what, ir, message] : cases) {
    const auto start = std::chrono::steady_clock::now();
    Compiled c(ir, "sm_90a", TK_OUTPUT_PTX);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    check(c.status == TK_ERROR_PARSE && contains(c.error(), message) && ms < 10000,
          what + ": rejected in " + std::to_string(ms) + " ms", c.error());
  }
}

/// tk_compile_named: positions in the text carry the given name; NULL or "" is <tk-ir>.
void sourceNames() {
  const std::string bad = "module {\n  llvm.func @k() {\n    %0 = llvm.mlir.constant(1 : i32) : \n";
  tk_compile_options opts;
  tk_compile_options_init(&opts);
  opts.target = "sm_80";
  for (const char *name : {"kernels/add.mlir", "", static_cast<const char *>(nullptr)}) {
    tk_compile_result *result = nullptr;
    const tk_status status = tk_compile_named(bad.data(), bad.size(), name, &opts, &result);
    const std::string expected = std::string(name && *name ? name : "<tk-ir>") + ":3:";
    const std::string error = tk_compile_result_error(result);
    check(status == TK_ERROR_PARSE && contains(error, expected + "39: error:"),
          std::string("tk_compile_named, name ") + (name ? "'" + std::string(name) + "'" : "NULL") +
              ": " + expected,
          error);
    tk_compile_result_free(result);
  }
  tk_compile_result *result = nullptr;
  check(tk_compile_named(bad.data(), bad.size(), "x.mlir", &opts, nullptr) ==
                TK_ERROR_INVALID_ARGUMENT &&
            tk_compile_named(bad.data(), bad.size(), "x.mlir", nullptr, &result) ==
                TK_ERROR_INVALID_ARGUMENT,
        "tk_compile_named: NULL out or options");
  tk_compile_result_free(result);
}

/// What running each compile on its own thread costs: a thread with a 64 MB stack, created and
/// joined (tk_compile does that once per call; a cold compile takes about 24 ms).
void threadCost() {
  const int rounds = 200;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds; ++i) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t(64) << 20);
    pthread_t thread;
    pthread_create(&thread, &attr, [](void *) -> void * { return nullptr; }, nullptr);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
  }
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      rounds;
  std::printf("     a thread with a 64 MB stack, created and joined: %.1f us\n", us);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <inputs dir>\n", argv[0]);
    return 2;
  }
  inputDir = argv[1];
  std::string vectorAdd = readInput("vector_add.mlir");
  check(tk_backend_header_is_c() == 1, "tk/backend.h compiles as C and works from C");
  everyTargetToPTX(vectorAdd);
  timings(vectorAdd);
  threads(vectorAdd, readInput("exp_shared.mlir"));
  cubins(vectorAdd, readInput("exp_shared.mlir"));
  tkLevel(readInput("vector_add_tk.mlir"), readInput("tk_level.mlir"));
  externLibraries();
  fpFusion(readInput("vector_add_tk.mlir"));
  loweringTarget(readInput("vector_add_tk.mlir"));
  tensorMaps(readInput("descriptor_copy.mlir"));
  tmaRings(readInput("descriptor_matmul.mlir"));
  errors(vectorAdd);
  deepNesting();
  blockSizes();
  sourceNames();
  threadCost();
  std::printf("%d failure(s)\n", backend_test::failures);
  return backend_test::failures == 0 ? 0 : 1;
}

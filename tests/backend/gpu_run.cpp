/// @file GPU test of the backend: tk_compile's cubins (nvJitLink, ptxas) and its PTX (driver JIT)
/// load and compute the right results. The driver is loaded at run time, so this builds without
/// one and exits 77 ("SKIPPED") where there is no GPU (tests/README.md, label gpu).
/// Usage: tk_backend_gpu_test <dir of inputs/*.mlir>.
#include "../support/cuda_driver.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using tk_test::cu;
using tk_test::require;
int failures = 0;

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Module {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  int threads = 0;
  unsigned dynamic_shared_bytes = 0; ///< cuLaunchKernel's sharedMemBytes
  /// False when what the CUDA toolkit provides is missing: no cubin (neither ptxas nor
  /// nvJitLink) or no libdevice. A machine with only the driver skips those checks.
  bool available = true;
  Module(const std::string &ir, const std::string &target, tk_output_kind output) {
    tk_compile_options opts;
    tk_compile_options_init(&opts);
    opts.target = target.c_str();
    opts.output = output;
    tk_compile_result *result = nullptr;
    const tk_status status = tk_compile(ir.data(), ir.size(), &opts, &result);
    const std::string error = status == TK_OK ? "" : tk_compile_result_error(result);
    if (status == TK_ERROR_NO_CUBIN || error.find("libdevice.10.bc was not found") != error.npos) {
      std::printf("skip %s (no CUDA toolkit): %s\n", target.c_str(), error.c_str());
      tk_compile_result_free(result);
      available = false;
      return;
    }
    if (status != TK_OK) {
      std::printf("FAIL tk_compile: %s\n", tk_compile_result_error(result));
      std::exit(1);
    }
    std::printf("     %s for %s: %s", tk_compile_result_kernel_name(result), target.c_str(),
                tk_compile_result_producer_log(result));
    require(cu.cuModuleLoadData(&module, tk_compile_result_binary(result, nullptr)),
            "cuModuleLoadData");
    require(cu.cuModuleGetFunction(&function, module, tk_compile_result_kernel_name(result)),
            "cuModuleGetFunction");
    threads = tk_compile_result_threads_per_block(result);
    dynamic_shared_bytes = unsigned(tk_compile_result_dynamic_shared_bytes(result));
    tk_compile_result_free(result);
  }
  ~Module() {
    if (module)
      cu.cuModuleUnload(module);
  }
};

void check(bool ok, const std::string &what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  failures += !ok;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <inputs dir>\n", argv[0]);
    return 2;
  }
  std::string inputs = argv[1];
  const std::string base = tk_test::init_driver();
  int n = 1000003;
  std::vector<float> a(n), b(n), out(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    b[i] = 1.0f - static_cast<float>(i);
  }
  CUdeviceptr da, db, dout;
  require(cu.cuMemAlloc(&da, n * sizeof(float)), "cuMemAlloc");
  require(cu.cuMemAlloc(&db, n * sizeof(float)), "cuMemAlloc");
  require(cu.cuMemAlloc(&dout, n * sizeof(float)), "cuMemAlloc");
  require(cu.cuMemcpyHtoD(da, a.data(), n * sizeof(float)), "cuMemcpyHtoD");
  require(cu.cuMemcpyHtoD(db, b.data(), n * sizeof(float)), "cuMemcpyHtoD");

  std::string vectorAdd = slurp(inputs + "/vector_add.mlir");
  std::string targets[] = {base, tk_test::specific_target(base)};
  struct Variant {
    const char *name;
    const char *nvJitLink; // TK_NVJITLINK
    tk_output_kind output;
  } variants[] = {{"cubin (nvJitLink first)", "1", TK_OUTPUT_CUBIN},
                  {"cubin (ptxas)", "0", TK_OUTPUT_CUBIN},
                  {"PTX (driver JIT)", nullptr, TK_OUTPUT_PTX}};
  for (const std::string &target : targets)
    for (const Variant &variant : variants) {
      if (variant.nvJitLink)
        setenv("TK_NVJITLINK", variant.nvJitLink, 1);
      else
        unsetenv("TK_NVJITLINK");
      Module kernel(vectorAdd, target, variant.output);
      if (!kernel.available)
        continue;
      std::vector<float> zeros(n, 0.0f);
      require(cu.cuMemcpyHtoD(dout, zeros.data(), n * sizeof(float)), "cuMemcpyHtoD");
      void *args[] = {&dout, &da, &db, &n};
      unsigned blocks = static_cast<unsigned>((n + kernel.threads - 1) / kernel.threads);
      require(cu.cuLaunchKernel(kernel.function, blocks, 1, 1, kernel.threads, 1, 1, 0, nullptr,
                                args, nullptr),
              "cuLaunchKernel");
      require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
      require(cu.cuMemcpyDtoH(out.data(), dout, n * sizeof(float)), "cuMemcpyDtoH");
      int wrong = 0;
      for (int i = 0; i < n; ++i)
        wrong += out[i] != a[i] + b[i];
      check(wrong == 0, "vector_add " + target + " " + variant.name);
    }
  unsetenv("TK_NVJITLINK");

  // The front end's vector add (tk IR, BLOCK = 1024, n specialized as a multiple of 16) through
  // the whole lowering: 1000000 elements, the last program instance masked; the 3 floats past n
  // must keep their sentinel.
  for (const std::string &target : targets) {
    Module kernel(slurp(inputs + "/vector_add_tk.mlir"), target, TK_OUTPUT_CUBIN);
    if (!kernel.available)
      continue;
    int m = 1000000;
    std::vector<float> sentinel(n, -7.0f);
    require(cu.cuMemcpyHtoD(dout, sentinel.data(), n * sizeof(float)), "cuMemcpyHtoD");
    void *args[] = {&dout, &da, &db, &m};
    unsigned blocks = static_cast<unsigned>((m + 1023) / 1024);
    require(cu.cuLaunchKernel(kernel.function, blocks, 1, 1, kernel.threads, 1, 1, 0, nullptr, args,
                              nullptr),
            "cuLaunchKernel");
    require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
    require(cu.cuMemcpyDtoH(out.data(), dout, n * sizeof(float)), "cuMemcpyDtoH");
    int wrong = 0;
    for (int i = 0; i < n; ++i)
      wrong += out[i] != (i < m ? a[i] + b[i] : -7.0f);
    check(wrong == 0,
          "front end's vector_add (tk IR) " + target + " (" + std::to_string(wrong) + " wrong)");
  }

  {
    Module kernel(slurp(inputs + "/exp_shared.mlir"), targets[1], TK_OUTPUT_AUTO);
    if (kernel.available) {
      void *args[] = {&dout, &da};
      int threads = 128;
      require(cu.cuLaunchKernel(kernel.function, 1, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr),
              "cuLaunchKernel");
      require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
      require(cu.cuMemcpyDtoH(out.data(), dout, threads * sizeof(float)), "cuMemcpyDtoH");
      int wrong = 0;
      for (int i = 0; i < threads; ++i) {
        float expected = std::exp(a[i ^ 1]);
        wrong += std::fabs(out[i] - expected) > 1e-5f * std::fabs(expected);
      }
      check(wrong == 0, "exp_shared " + targets[1] + " (libdevice expf, shared memory)");
    }
  }
  // Tensor maps (sm_90 and newer): tma_copy.mlir, a kernel in the form tk-tma-descriptors gives,
  // with its two maps encoded here as the runtime is to encode them. 100 x 40 f32 matrices with
  // rows of 48; two programs copy 2 x columns [16, 48) of their 64 rows; outside the tensor
  // nothing is written.
  if (std::atoi(base.c_str() + 3) >= 90) {
    Module kernel(slurp(inputs + "/tma_copy.mlir"), targets[1], TK_OUTPUT_AUTO);
    if (kernel.available) {
      const int rows = 100, cols = 40, ld = 48;
      std::vector<float> sentinel(n, -7.0f);
      require(cu.cuMemcpyHtoD(dout, sentinel.data(), n * sizeof(float)), "cuMemcpyHtoD");
      auto encode = [&](CUtensorMap &map, CUdeviceptr base) {
        const cuuint64_t dims[] = {cuuint64_t(cols), cuuint64_t(rows)}; // innermost first
        const cuuint64_t strides[] = {cuuint64_t(ld) * sizeof(float)};  // bytes, from dim 1
        const cuuint32_t box[] = {32, 64}, elementStrides[] = {1, 1};
        require(cu.cuTensorMapEncodeTiled(
                    &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, reinterpret_cast<void *>(base), dims,
                    strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                    CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                "cuTensorMapEncodeTiled");
      };
      alignas(64) CUtensorMap in_map, out_map;
      encode(in_map, da);
      encode(out_map, dout);
      int m = rows, k = cols, stride = ld;
      void *args[] = {&dout, &da, &m, &k, &stride, &in_map, &out_map};
      require(cu.cuLaunchKernel(kernel.function, 2, 1, 1, kernel.threads, 1, 1,
                                kernel.dynamic_shared_bytes, nullptr, args, nullptr),
              "cuLaunchKernel");
      require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
      require(cu.cuMemcpyDtoH(out.data(), dout, n * sizeof(float)), "cuMemcpyDtoH");
      int wrong = 0;
      for (int i = 0; i < 2 * 64 * ld; ++i) {
        const int r = i / ld, c = i % ld;
        const bool copied = r < rows && c >= 16 && c < cols;
        wrong += out[i] != (copied ? 2 * a[i] : -7.0f);
      }
      check(wrong == 0, "tma_copy " + targets[1] + " (tensor maps, cp.async.bulk.tensor; " +
                            std::to_string(wrong) + " wrong)");
    }
  }

  cu.cuMemFree(da);
  cu.cuMemFree(db);
  cu.cuMemFree(dout);
  std::printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}

/// @file gpu_run.cpp
/// GPU test of the backend: tk_compile's cubins (nvJitLink, ptxas) and its PTX (driver JIT)
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
  std::vector<tk_tensor_map> tensorMaps; ///< the maps the launch passes after the arguments
  Module(const std::string &ir, const std::string &target, tk_output_kind output,
         bool withTensorMaps = false) {
    tk_compile_options opts;
    tk_compile_options_init(&opts);
    opts.target = target.c_str();
    opts.output = output;
    opts.tensor_maps = withTensorMaps ? 1 : 0;
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
    for (int i = 0; i < tk_compile_result_tensor_map_count(result); ++i) {
      tk_tensor_map map;
      if (tk_compile_result_tensor_map(result, i, &map) == 0)
        tensorMaps.push_back(map);
    }
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
  // Tensor maps (sm_90 and newer): descriptor_copy.mlir compiled with tensor_maps, its two maps
  // encoded from the recipes tk_compile returns, as the runtime encodes them. 100 x 48 f32
  // matrices with rows of 64; two programs copy 2 x columns [32, 64) of their 64 rows; outside
  // the tensor nothing is written.
  if (std::atoi(base.c_str() + 3) >= 90) {
    Module kernel(slurp(inputs + "/descriptor_copy.mlir"), targets[1], TK_OUTPUT_AUTO, true);
    if (kernel.available) {
      const int rows = 100, cols = 48, ld = 64;
      std::vector<float> sentinel(n, -7.0f);
      require(cu.cuMemcpyHtoD(dout, sentinel.data(), n * sizeof(float)), "cuMemcpyHtoD");
      int m = rows, k = cols, stride = ld;
      std::vector<void *> args = {&dout, &da, &m, &k, &stride};
      // The value of an i32 argument, or a recipe's constant.
      auto value = [&](int arg, long long constant) {
        return arg < 0 ? constant : *static_cast<const int *>(args[size_t(arg)]);
      };
      std::vector<CUtensorMap> maps(kernel.tensorMaps.size());
      for (std::size_t i = 0; i < maps.size(); ++i) {
        const tk_tensor_map &r = kernel.tensorMaps[i];
        cuuint64_t dims[TK_TENSOR_MAP_MAX_RANK], strides[TK_TENSOR_MAP_MAX_RANK];
        cuuint32_t box[TK_TENSOR_MAP_MAX_RANK], elementStrides[TK_TENSOR_MAP_MAX_RANK];
        for (int d = 0; d < r.rank; ++d) { // innermost first
          const int from = r.rank - 1 - d;
          dims[d] = cuuint64_t(value(r.shape_arg[from], r.shape[from]));
          box[d] = cuuint32_t(r.box[from]);
          elementStrides[d] = 1;
          if (d > 0)
            strides[d - 1] =
                cuuint64_t(value(r.stride_arg[from], r.stride[from])) * cuuint64_t(r.element_bytes);
        }
        const CUdeviceptr tensor = *static_cast<const CUdeviceptr *>(args[size_t(r.base_arg)]);
        require(cu.cuTensorMapEncodeTiled(
                    &maps[i], CU_TENSOR_MAP_DATA_TYPE_UINT32, cuuint32_t(r.rank),
                    reinterpret_cast<void *>(tensor), dims, strides, box, elementStrides,
                    CU_TENSOR_MAP_INTERLEAVE_NONE,
                    r.swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                    : r.swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                    : r.swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                      : CU_TENSOR_MAP_SWIZZLE_NONE,
                    CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                "cuTensorMapEncodeTiled");
      }
      for (CUtensorMap &map : maps)
        args.push_back(&map);
      require(cu.cuLaunchKernel(kernel.function, 2, 1, 1, kernel.threads, 1, 1,
                                kernel.dynamic_shared_bytes, nullptr, args.data(), nullptr),
              "cuLaunchKernel");
      require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
      require(cu.cuMemcpyDtoH(out.data(), dout, n * sizeof(float)), "cuMemcpyDtoH");
      int wrong = 0;
      for (int i = 0; i < 2 * 64 * ld; ++i) {
        const int r = i / ld, c = i % ld;
        const bool copied = r < rows && c >= 32 && c < cols;
        wrong += out[i] != (copied ? 2 * a[i] : -7.0f);
      }
      check(maps.size() == 2 && wrong == 0,
            "descriptor_copy " + targets[1] + " through " + std::to_string(maps.size()) +
                " tensor maps (cp.async.bulk.tensor; " + std::to_string(wrong) + " wrong)");
    }
  }

  cu.cuMemFree(da);
  cu.cuMemFree(db);
  cu.cuMemFree(dout);
  std::printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}

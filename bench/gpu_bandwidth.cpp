// Memory-bound kernels on the GPU: the example kernels, compiled by tk_compile and launched
// through the driver API, timed with CUDA events (median of 20 after 3 warm-up launches), as
// GB/s and as % of a device-to-device copy measured in the same run. The peers (Triton,
// PyTorch) come from ../shared/docs/PERFORMANCE.md until the side-by-side benchmarks exist.
//
//   bench_gpu_bandwidth            (skips, exit 77, without a GPU)
#include "../tests/support/cuda_driver.hpp"
#include "kernels/layernorm.hpp"
#include "kernels/softmax.hpp"
#include "kernels/vector_add.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

using tk_test::cu;
using tk_test::require;
std::string target;

struct kernel {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  unsigned threads = 0, shared = 0;
  kernel(const std::string &ir, int num_warps) {
    tk_compile_options opts;
    tk_compile_options_init(&opts);
    opts.target = target.c_str();
    opts.num_warps = num_warps;
    opts.output = TK_OUTPUT_CUBIN;
    tk_compile_result *result = nullptr;
    if (tk_compile(ir.data(), ir.size(), &opts, &result) != TK_OK) {
      std::printf("tk_compile failed: %s\n", tk_compile_result_error(result));
      std::exit(1);
    }
    require(cu.cuModuleLoadData(&module, tk_compile_result_binary(result, nullptr)), "load");
    require(cu.cuModuleGetFunction(&function, module, tk_compile_result_kernel_name(result)),
            "function");
    threads = unsigned(tk_compile_result_threads_per_block(result));
    shared = unsigned(tk_compile_result_dynamic_shared_bytes(result));
    if (shared > 48 * 1024)
      require(cu.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    int(shared)),
              "cuFuncSetAttribute");
    tk_compile_result_free(result);
  }
  ~kernel() { cu.cuModuleUnload(module); }
  void launch(unsigned grid, std::vector<void *> params) const {
    require(cu.cuLaunchKernel(function, grid, 1, 1, threads, 1, 1, shared, nullptr, params.data(),
                              nullptr),
            "cuLaunchKernel");
  }
};

/// Median milliseconds of `run`, each timed with events on the default stream.
double median_ms(const std::function<void()> &run) {
  CUevent start, stop;
  require(cu.cuEventCreate(&start, 0), "event");
  require(cu.cuEventCreate(&stop, 0), "event");
  for (int i = 0; i < 3; ++i)
    run();
  std::vector<double> times;
  for (int i = 0; i < 20; ++i) {
    require(cu.cuEventRecord(start, nullptr), "record");
    run();
    require(cu.cuEventRecord(stop, nullptr), "record");
    require(cu.cuEventSynchronize(stop), "sync");
    float ms = 0;
    require(cu.cuEventElapsedTime(&ms, start, stop), "elapsed");
    times.push_back(ms);
  }
  cu.cuEventDestroy(start);
  cu.cuEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

CUdeviceptr alloc(std::size_t bytes) {
  CUdeviceptr p;
  require(cu.cuMemAlloc(&p, bytes), "cuMemAlloc");
  require(cu.cuMemsetD8(p, 0, bytes), "cuMemsetD8");
  return p;
}

template <class T> T *traced(CUdeviceptr p) {
  return reinterpret_cast<T *>(static_cast<std::uintptr_t>(p));
}

double copy_gbs = 0;

void report(const std::string &what, double bytes, double ms, double triton) {
  const double gbs = bytes / ms / 1e6;
  std::printf("| %-34s | %8.3f | %6.0f | %5.1f%% | %6.0f | %5.2f |\n", what.c_str(), ms, gbs,
              100 * gbs / copy_gbs, triton, triton > 0 ? gbs / triton : 0.0);
}

} // namespace

int main() {
  target = tk_test::specific_target(tk_test::init_driver());
  const std::size_t gib = std::size_t(1) << 30;
  CUdeviceptr a = alloc(gib), b = alloc(gib), c = alloc(gib);
  copy_gbs = 2.0 * double(gib) /
             median_ms([&] { require(cu.cuMemcpyDtoD(b, a, gib), "cuMemcpyDtoD"); }) / 1e6;
  std::printf("target %s; device-to-device copy of 1 GiB: %.0f GB/s\n\n", target.c_str(), copy_gbs);
  std::printf(
      "| kernel | ms | GB/s | of copy | Triton GB/s | ratio |\n|---|---:|---:|---:|---:|---:|\n");

  {
    int n = 1 << 28;
    kernel k(examples::vector_add.ir(traced<float>(c), traced<const float>(a),
                                     traced<const float>(b), n, tk::constant(1024)),
             4);
    const double ms = median_ms([&] { k.launch(unsigned(n / 1024), {&c, &a, &b, &n}); });
    report("vector_add 2^28 f32", 3.0 * 4 * n, ms, 3040);
  }
  const double triton_softmax[] = {2942, 2943, 2917};
  int i = 0;
  for (int cols : {1024, 4096, 16384}) {
    int rows = int((gib / 4) / std::size_t(cols)), stride = cols;
    for (int warps : {4, 8, 16}) {
      kernel k(examples::softmax.ir(traced<float>(b), traced<const float>(a), stride, cols,
                                    tk::constant(cols)),
               warps);
      const double ms = median_ms([&] { k.launch(unsigned(rows), {&b, &a, &stride, &cols}); });
      report("softmax " + std::to_string(cols) + " cols, " + std::to_string(warps) + " warps",
             2.0 * double(gib), ms, triton_softmax[i]);
    }
    ++i;
  }
  const double triton_layernorm[] = {2992, 2820, 3003};
  i = 0;
  CUdeviceptr w = alloc(65536 * 2), bias = alloc(65536 * 2), mean = alloc(1 << 22),
              rstd = alloc(1 << 22);
  for (int cols : {1024, 4096, 8192}) {
    int rows = int((gib / 2 / 2) / std::size_t(cols)), stride = cols, n = cols;
    float eps = 1e-5f;
    const int warps = std::min(std::max(cols / 256, 1), 8);
    kernel k(examples::layernorm.ir(traced<tk::half>(b), traced<const tk::half>(a),
                                    traced<const tk::half>(w), traced<const tk::half>(bias),
                                    traced<float>(mean), traced<float>(rstd), stride, n, eps,
                                    tk::constant(cols)),
             warps);
    const double ms = median_ms(
        [&] { k.launch(unsigned(rows), {&b, &a, &w, &bias, &mean, &rstd, &stride, &n, &eps}); });
    report("layernorm f16 " + std::to_string(cols) + " cols, " + std::to_string(warps) + " warps",
           2.0 * 2 * double(rows) * cols, ms, triton_layernorm[i++]);
  }
  return 0;
}

/// @file gpu_check.cpp
/// GPU check of the whole compiler: the example kernels (and small scan and argmax kernels),
/// traced by the front end for device pointers, compiled by tk_compile to a cubin for this GPU,
/// launched with the driver API on fresh random inputs and poisoned outputs, and compared with
/// the interpreter running the same kernel on the same inputs. Skips (77) without a GPU.
///
///   tk_e2e_gpu [seed]
#include "../support/cuda_driver.hpp"
#include "Cache/DiskCache.h"
#include "Cache/KernelEntry.h"
#include "Target/CubinCheck.h"
#include "kernels/layernorm.hpp"
#include "kernels/matmul.hpp"
#include "kernels/softmax.hpp"
#include "kernels/vector_add.hpp"

#include <tk/tk.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using tk::half;
using tk_test::cu;
using tk_test::require;

std::string target;
int failures = 0;
std::mt19937 gen;

template <class T> struct device_vector {
  CUdeviceptr ptr = 0;
  std::size_t size = 0;
  explicit device_vector(const std::vector<T> &host) : size(host.size()) {
    require(cu.cuMemAlloc(&ptr, size * sizeof(T) + 16), "cuMemAlloc");
    require(cu.cuMemcpyHtoD(ptr, host.data(), size * sizeof(T)), "cuMemcpyHtoD");
  }
  ~device_vector() { cu.cuMemFree(ptr); }
  device_vector(const device_vector &) = delete;
  device_vector &operator=(const device_vector &) = delete;
  std::vector<T> download() const {
    std::vector<T> host(size);
    require(cu.cuMemcpyDtoH(host.data(), ptr, size * sizeof(T)), "cuMemcpyDtoH");
    return host;
  }
  /// The device address as the front end's pointer argument: tracing reads only its value (for
  /// the alignment the IR is specialized on).
  T *traced() const { return reinterpret_cast<T *>(static_cast<std::uintptr_t>(ptr)); }
};

/// Outputs start as all-ones bytes (NaN for floats), so an element never written shows.
template <class T> void poison(device_vector<T> &v) {
  require(cu.cuMemsetD8(v.ptr, 0xff, v.size * sizeof(T)), "cuMemsetD8");
}

template <class T> std::vector<T> random_vector(std::size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> v(n);
  for (auto &x : v)
    x = T(dist(gen));
  return v;
}

/// Compiles `ir` for this GPU and launches it over `grid` with `params` (pointers to the
/// kernel's non-constant arguments, in order, as cuLaunchKernel takes them).
void launch(const std::string &ir, unsigned grid, int num_warps, std::vector<void *> params) {
  tk_compile_options opts;
  tk_compile_options_init(&opts);
  opts.target = target.c_str();
  opts.num_warps = num_warps;
  opts.output = TK_OUTPUT_AUTO; // a cubin, or PTX for the driver without the CUDA toolkit
  tk_compile_result *result = nullptr;
  if (tk_compile(ir.data(), ir.size(), &opts, &result) != TK_OK) {
    std::printf("FAIL tk_compile: %s\n", tk_compile_result_error(result));
    tk_compile_result_free(result);
    ++failures;
    return;
  }
  CUmodule module;
  CUfunction function;
  require(cu.cuModuleLoadData(&module, tk_compile_result_binary(result, nullptr)),
          "cuModuleLoadData");
  require(cu.cuModuleGetFunction(&function, module, tk_compile_result_kernel_name(result)),
          "cuModuleGetFunction");
  const auto shared = static_cast<int>(tk_compile_result_dynamic_shared_bytes(result));
  if (shared > 48 * 1024)
    require(
        cu.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared),
        "cuFuncSetAttribute");
  const auto threads = static_cast<unsigned>(tk_compile_result_threads_per_block(result));
  tk_compile_result_free(result);
  require(cu.cuLaunchKernel(function, grid, 1, 1, threads, 1, 1, static_cast<unsigned>(shared),
                            nullptr, params.data(), nullptr),
          "cuLaunchKernel");
  require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
  cu.cuModuleUnload(module);
}

/// Compares `got` with `want` element by element: |got - want| <= atol + rtol * |want|, NaN only
/// where want is NaN. Prints the first mismatch.
template <class T>
void compare(const std::string &what, const std::vector<T> &got, const std::vector<T> &want,
             double atol, double rtol) {
  std::size_t wrong = 0, first = got.size();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = double(got[i]), w = double(want[i]);
    const bool ok = std::isnan(w) ? std::isnan(g) : std::fabs(g - w) <= atol + rtol * std::fabs(w);
    if (!ok && wrong++ == 0)
      first = i;
  }
  std::printf("%s %s (%zu elements", wrong ? "FAIL" : "ok  ", what.c_str(), got.size());
  if (wrong)
    std::printf(", %zu wrong; first at %zu: got %g, want %g", wrong, first, double(got[first]),
                double(want[first]));
  std::printf(")\n");
  failures += wrong != 0;
}

constexpr tk::launch_options interpreter{.backend = tk::backend::interpreter};

void vector_add(int n) {
  auto x = random_vector<float>(std::size_t(n), -10, 10),
       y = random_vector<float>(x.size(), -10, 10);
  std::vector<float> want(x.size());
  const int block = 1024;
  examples::vector_add.launch(tk::grid(tk::cdiv(n, block)), interpreter, want.data(),
                              std::as_const(x).data(), std::as_const(y).data(), n,
                              tk::constant(block));
  device_vector<float> dx(x), dy(y), dout(want);
  poison(dout);
  const std::string ir =
      examples::vector_add.ir(dout.traced(), (const float *)dx.traced(), (const float *)dy.traced(),
                              n, tk::constant(block));
  launch(ir, unsigned(tk::cdiv(n, block)), 4, {&dout.ptr, &dx.ptr, &dy.ptr, &n});
  compare("vector_add n=" + std::to_string(n), dout.download(), want, 0, 0);
}

void softmax(int rows, int cols, int block, int num_warps) {
  auto in = random_vector<float>(std::size_t(rows) * cols, -8, 8);
  std::vector<float> want(in.size());
  int stride = cols;
  examples::softmax.launch(tk::grid(rows), interpreter, want.data(), std::as_const(in).data(),
                           stride, cols, tk::constant(block));
  device_vector<float> din(in), dout(want);
  poison(dout);
  const std::string ir = examples::softmax.ir(dout.traced(), (const float *)din.traced(), stride,
                                              cols, tk::constant(block));
  launch(ir, unsigned(rows), num_warps, {&dout.ptr, &din.ptr, &stride, &cols});
  compare("softmax " + std::to_string(rows) + "x" + std::to_string(cols) +
              " BLOCK=" + std::to_string(block) + " num_warps=" + std::to_string(num_warps),
          dout.download(), want, 1e-7, 1e-5);
}

void layernorm(int rows, int cols, int block) {
  auto x = random_vector<half>(std::size_t(rows) * cols, -4, 6);
  auto w = random_vector<half>(std::size_t(cols), 0.5, 1.5),
       b = random_vector<half>(std::size_t(cols), -1, 1);
  std::vector<half> want_y(x.size());
  std::vector<float> want_mean(static_cast<std::size_t>(rows)),
      want_rstd(static_cast<std::size_t>(rows));
  int stride = cols, n = cols;
  float eps = 1e-5f;
  examples::layernorm.launch(tk::grid(rows), interpreter, want_y.data(), std::as_const(x).data(),
                             std::as_const(w).data(), std::as_const(b).data(), want_mean.data(),
                             want_rstd.data(), stride, n, eps, tk::constant(block));
  device_vector<half> dx(x), dw(w), db(b), dy(want_y);
  device_vector<float> dmean(want_mean), drstd(want_rstd);
  poison(dy), poison(dmean), poison(drstd);
  const std::string ir = examples::layernorm.ir(
      dy.traced(), (const half *)dx.traced(), (const half *)dw.traced(), (const half *)db.traced(),
      dmean.traced(), drstd.traced(), stride, n, eps, tk::constant(block));
  launch(ir, unsigned(rows), 4,
         {&dy.ptr, &dx.ptr, &dw.ptr, &db.ptr, &dmean.ptr, &drstd.ptr, &stride, &n, &eps});
  const std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
  compare("layernorm y " + shape, dy.download(), want_y, 2e-3, 2e-3);
  compare("layernorm mean " + shape, dmean.download(), want_mean, 1e-5, 1e-5);
  compare("layernorm rstd " + shape, drstd.download(), want_rstd, 1e-5, 1e-5);
}

void matmul(int M, int N, int K) {
  auto a = random_vector<half>(std::size_t(M) * K, -1, 1),
       b = random_vector<half>(std::size_t(K) * N, -1, 1);
  std::vector<half> want(std::size_t(M) * N);
  const int bm = 64, bn = 64, bk = 32, group = 4;
  const unsigned grid = unsigned(tk::cdiv(M, bm) * tk::cdiv(N, bn));
  int sam = K, sak = 1, sbk = N, sbn = 1, scm = N, scn = 1;
  examples::matmul.launch(tk::grid(int(grid)), interpreter, want.data(), std::as_const(a).data(),
                          std::as_const(b).data(), M, N, K, sam, sak, sbk, sbn, scm, scn,
                          tk::constant(bm), tk::constant(bn), tk::constant(bk), tk::constant(group),
                          tk::constant(tk::input_precision::tf32));
  device_vector<half> da(a), dbuf(b), dc(want);
  poison(dc);
  const std::string ir = examples::matmul.ir(
      dc.traced(), (const half *)da.traced(), (const half *)dbuf.traced(), M, N, K, sam, sak, sbk,
      sbn, scm, scn, tk::constant(bm), tk::constant(bn), tk::constant(bk), tk::constant(group),
      tk::constant(tk::input_precision::tf32));
  launch(ir, grid, 4,
         {&dc.ptr, &da.ptr, &dbuf.ptr, &M, &N, &K, &sam, &sak, &sbk, &sbn, &scm, &scn});
  // f32 accumulation in another order, then rounding to f16: one f16 ulp of the result's scale.
  compare("matmul f16 " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K),
          dc.download(), want, 2e-2, 2e-3);
}

// A row-wise inclusive prefix sum (i32 and f32) and argmax over 2-D blocks.
inline auto scans =
    tk::jit("scans", [](tk::ptr<int> isum, tk::ptr<float> fsum, tk::ptr<const int> ix,
                        tk::ptr<const float> fx, tk::constant<int> ROWS, tk::constant<int> COLS) {
      auto r = tk::expand_dims(tk::arange(0, ROWS), 1);
      auto c = tk::expand_dims(tk::arange(0, COLS), 0);
      auto offs = tk::program_id(0) * ROWS * COLS + r * COLS + c;
      tk::store(isum + offs, tk::cumsum(tk::load(ix + offs), 1));
      tk::store(fsum + offs, tk::cumsum(tk::load(fx + offs), 1));
    });

inline auto argmax =
    tk::jit("argmax", [](tk::ptr<int> out_row, tk::ptr<int> out_col, tk::ptr<const float> x,
                         tk::constant<int> ROWS, tk::constant<int> COLS) {
      auto r = tk::expand_dims(tk::arange(0, ROWS), 1);
      auto c = tk::expand_dims(tk::arange(0, COLS), 0);
      auto v = tk::load(x + tk::program_id(0) * ROWS * COLS + r * COLS + c);
      tk::store(out_row + tk::program_id(0) * COLS + tk::arange(0, COLS), tk::argmax(v, 0));
      tk::store(out_col + tk::program_id(0) * ROWS + tk::arange(0, ROWS), tk::argmax(v, 1));
    });

void scan_and_argmax(int programs, int rows, int cols) {
  const std::size_t n = std::size_t(programs) * rows * cols;
  std::vector<int> ix(n);
  std::uniform_int_distribution<int> small(-100, 100);
  for (auto &v : ix)
    v = small(gen);
  auto fx = random_vector<float>(n, -1, 1);
  std::vector<int> want_i(n);
  std::vector<float> want_f(n);
  scans.launch(tk::grid(programs), interpreter, want_i.data(), want_f.data(),
               std::as_const(ix).data(), std::as_const(fx).data(), tk::constant(rows),
               tk::constant(cols));
  device_vector<int> dix(ix), dsum_i(want_i);
  device_vector<float> dfx(fx), dsum_f(want_f);
  poison(dsum_i), poison(dsum_f);
  launch(scans.ir(dsum_i.traced(), dsum_f.traced(), (const int *)dix.traced(),
                  (const float *)dfx.traced(), tk::constant(rows), tk::constant(cols)),
         unsigned(programs), 4, {&dsum_i.ptr, &dsum_f.ptr, &dix.ptr, &dfx.ptr});
  const std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
  compare("cumsum i32 " + shape, dsum_i.download(), want_i, 0, 0);
  compare("cumsum f32 " + shape, dsum_f.download(), want_f, 1e-5, 1e-5);

  std::vector<int> want_r(std::size_t(programs) * cols), want_c(std::size_t(programs) * rows);
  argmax.launch(tk::grid(programs), interpreter, want_r.data(), want_c.data(),
                std::as_const(fx).data(), tk::constant(rows), tk::constant(cols));
  device_vector<int> dr(want_r), dc(want_c);
  poison(dr), poison(dc);
  launch(argmax.ir(dr.traced(), dc.traced(), (const float *)dfx.traced(), tk::constant(rows),
                   tk::constant(cols)),
         unsigned(programs), 4, {&dr.ptr, &dc.ptr, &dfx.ptr});
  compare("argmax axis 0 " + shape, dr.download(), want_r, 0, 0);
  compare("argmax axis 1 " + shape, dc.download(), want_c, 0, 0);
}

/// Reductions and scans of fp8 (e4m3 and e5m2): sum, max, argmax and cumsum along a row, on the
/// GPU against the interpreter. The sums are of -1, 0 and 1 over 16 columns whose prefix sums stay
/// within [-4, 4], so that every partial sum of a run of them, in whatever order a scan or a tree
/// adds it, is an integer within [-8, 8], exact in both formats (e5m2 has no 9); max and argmax
/// take rows of distinct values.
template <class F8> void fp8_reductions(const char *type, int rows) {
  static auto kernel =
      tk::jit("fp8_reductions", [](tk::ptr<float> sums, tk::ptr<float> maxes, tk::ptr<int> argmaxes,
                                   tk::ptr<float> cumsums, auto small, auto distinct) {
        auto row = tk::program_id(0);
        auto cols = tk::arange(0, 16);
        auto s = tk::load(small + row * 16 + cols);
        auto d = tk::load(distinct + row * 16 + cols);
        tk::store(sums + row, tk::cast<float>(tk::sum(s, 0)));
        tk::store(maxes + row, tk::cast<float>(tk::max(d, 0)));
        tk::store(argmaxes + row, tk::argmax(d, 0));
        tk::store(cumsums + row * 16 + cols, tk::cast<float>(tk::cumsum(s, 0)));
      });
  const std::size_t n = std::size_t(rows) * 16;
  std::vector<F8> small(n), distinct(n);
  std::uniform_int_distribution<int> pick(-1, 1);
  for (std::size_t r = 0; r < n / 16; ++r) {
    int prefix = 0;
    for (std::size_t k = 0; k < 16; ++k) {
      int x = pick(gen);
      if (std::abs(prefix + x) > 4)
        x = -x;
      prefix += x;
      small[r * 16 + k] = F8(float(x));
    }
  }
  for (int r = 0; r < rows; ++r) {
    std::vector<int> values(16);
    for (int k = 0; k < 16; ++k)
      values[std::size_t(k)] = k - 8; // -8 to 7: exact in both formats
    std::shuffle(values.begin(), values.end(), gen);
    for (int k = 0; k < 16; ++k)
      distinct[std::size_t(r) * 16 + std::size_t(k)] = F8(float(values[std::size_t(k)]));
  }
  const auto count = std::size_t(rows);
  std::vector<float> sums(count), maxes(count), cumsums(n);
  std::vector<int> argmaxes(count);
  kernel.launch(tk::grid(rows), interpreter, sums.data(), maxes.data(), argmaxes.data(),
                cumsums.data(), std::as_const(small).data(), std::as_const(distinct).data());
  tk::device_buffer<F8> dsmall(small), ddistinct(distinct);
  tk::device_buffer<float> dsums(sums.size()), dmaxes(maxes.size()), dcumsums(n);
  tk::device_buffer<int> dargmaxes(argmaxes.size());
  kernel.launch(tk::grid(rows), {.backend = tk::backend::gpu}, dsums.data(), dmaxes.data(),
                dargmaxes.data(), dcumsums.data(), std::as_const(dsmall).data(),
                std::as_const(ddistinct).data());
  const std::string what = std::string(type) + " " + std::to_string(rows) + "x16";
  compare("sum " + what, dsums.to_host(), sums, 0, 0);
  compare("max " + what, dmaxes.to_host(), maxes, 0, 0);
  compare("argmax " + what, dargmaxes.to_host(), argmaxes, 0, 0);
  compare("cumsum " + what, dcumsums.to_host(), cumsums, 0, 0);
}

/// The runtime's own path: `kernel::launch` on device pointers (in-process cache, disk cache,
/// tk_compile, cuLaunchKernel), twice per kernel so that the second launch is a cache hit.
void launch_path() {
  const int n = 1000003, block = 1024;
  auto x = random_vector<float>(std::size_t(n), -10, 10),
       y = random_vector<float>(x.size(), -10, 10);
  std::vector<float> want(x.size());
  examples::vector_add.launch(tk::grid(tk::cdiv(n, block)), interpreter, want.data(),
                              std::as_const(x).data(), std::as_const(y).data(), n,
                              tk::constant(block));
  device_vector<float> dx(x), dy(y), dout(want);
  for (int round = 0; round < 2; ++round) {
    poison(dout);
    examples::vector_add.launch(tk::grid(tk::cdiv(n, block)), {.backend = tk::backend::gpu},
                                dout.traced(), (const float *)dx.traced(),
                                (const float *)dy.traced(), n, tk::constant(block));
    require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
    compare("kernel::launch vector_add, launch " + std::to_string(round + 1), dout.download(), want,
            0, 0);
  }

  const int rows = 64, cols = 3000, stride = cols;
  auto in = random_vector<float>(std::size_t(rows) * cols, -8, 8);
  std::vector<float> want_s(in.size());
  examples::softmax.launch(tk::grid(rows), interpreter, want_s.data(), std::as_const(in).data(),
                           stride, cols, tk::constant(4096));
  device_vector<float> din(in), ds(want_s);
  for (int warps : {4, 8}) {
    poison(ds);
    examples::softmax.launch(tk::grid(rows), {.num_warps = warps, .backend = tk::backend::gpu},
                             ds.traced(), (const float *)din.traced(), stride, cols,
                             tk::constant(4096));
    require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
    compare("kernel::launch softmax 64x3000, " + std::to_string(warps) + " warps", ds.download(),
            want_s, 1e-7, 1e-5);
  }

  // A host buffer passed where device memory is needed: the driver tells, the launch says so.
  {
    std::vector<float> host(static_cast<std::size_t>(n));
    std::string message;
    try {
      examples::vector_add.launch(tk::grid(tk::cdiv(n, block)), {.backend = tk::backend::gpu},
                                  host.data(), (const float *)dx.traced(),
                                  (const float *)dy.traced(), n, tk::constant(block));
    } catch (const tk::error &e) {
      message = e.message();
    }
    const bool ok = message.find("launch argument 0 (a pointer, for the kernel's parameter 0, a "
                                 "tk::ptr of float) is host memory the GPU cannot reach") == 0;
    std::printf("%s kernel::launch rejects a host pointer (%s)\n", ok ? "ok  " : "FAIL",
                message.c_str());
    failures += !ok;
  }

  // Host time per launch of a tiny cached kernel, against raw cuLaunchKernel on the same cubin.
  int small = 1024;
  const std::string ir =
      examples::vector_add.ir(dout.traced(), (const float *)dx.traced(), (const float *)dy.traced(),
                              small, tk::constant(block));
  tk_compile_options opts;
  tk_compile_options_init(&opts);
  opts.target = target.c_str();
  opts.output = TK_OUTPUT_AUTO; // a cubin, or PTX for the driver without the CUDA toolkit
  tk_compile_result *result = nullptr;
  require(tk_compile(ir.data(), ir.size(), &opts, &result) == TK_OK ? CUDA_SUCCESS
                                                                    : CUDA_ERROR_UNKNOWN,
          "tk_compile");
  CUmodule module;
  CUfunction function;
  require(cu.cuModuleLoadData(&module, tk_compile_result_binary(result, nullptr)), "load");
  require(cu.cuModuleGetFunction(&function, module, tk_compile_result_kernel_name(result)),
          "function");
  tk_compile_result_free(result);
  const int launches = 20000;
  auto host_us = [&](auto &&launch_once) {
    return tk_test::host_us_per_launch(launch_once, launches, 200);
  };
  const double raw = host_us([&] {
    void *params[] = {&dout.ptr, &dx.ptr, &dy.ptr, &small};
    cu.cuLaunchKernel(function, 1, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr);
  });
  const double ours = host_us([&] {
    examples::vector_add.launch(tk::grid(1), {.backend = tk::backend::gpu}, dout.traced(),
                                (const float *)dx.traced(), (const float *)dy.traced(), small,
                                tk::constant(block));
  });
  std::printf("info launch overhead: kernel::launch %.2f us, raw cuLaunchKernel %.2f us per "
              "launch (%.2fx; %d launches each)\n",
              ours, raw, ours / raw, launches);
  cu.cuModuleUnload(module);
}

/// tk::device_buffer, a grid callable and tk::autotune on the GPU: the tuned softmax and
/// layernorm (the examples' kernels) against the interpreter, the tuning remembered in memory
/// (the next launch does not time again) and on disk (a `.tune` entry in TK_CACHE_DIR).
void autotune_path() {
  const int rows = 48, cols = 2500, stride = cols;
  auto in = random_vector<float>(std::size_t(rows) * cols, -8, 8);
  std::vector<float> want(in.size());
  examples::softmax.launch(tk::grid(rows), interpreter, want.data(), std::as_const(in).data(),
                           stride, cols, tk::constant(4096));
  tk::device_buffer<float> din(in), dout(in.size());
  for (int round = 0; round < 2; ++round) {
    dout.fill_bytes(0xff);
    const auto start = std::chrono::steady_clock::now();
    examples::softmax_tuned.launch(
        [&](int) { return tk::grid(rows); }, {.backend = tk::backend::gpu}, dout.data(),
        static_cast<const float *>(din.data()), stride, cols, tk::constant(4096));
    const std::vector<float> got = dout.to_host();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    compare("autotuned softmax 48x2500, launch " + std::to_string(round + 1) + " (" +
                std::to_string(ms) + " ms)",
            got, want, 1e-7, 1e-5);
  }

  // A copy larger than the buffer is an error naming both sizes.
  {
    std::vector<float> too_big(in.size() + 1);
    std::string message;
    try {
      dout.download(too_big);
    } catch (const tk::error &e) {
      message = e.message();
    }
    const std::string want = "tk::device_buffer download of " + std::to_string(too_big.size()) +
                             " elements; the buffer holds " + std::to_string(in.size());
    const bool ok = message == want;
    std::printf("%s tk::device_buffer rejects a copy past its end (%s)\n", ok ? "ok  " : "FAIL",
                message.c_str());
    failures += !ok;
  }

  const int ln_rows = 40, ln_cols = 3000;
  auto x = random_vector<half>(std::size_t(ln_rows) * ln_cols, -3, 5);
  auto w = random_vector<half>(std::size_t(ln_cols), 0.5, 1.5);
  auto b = random_vector<half>(std::size_t(ln_cols), -1, 1);
  std::vector<half> want_y(x.size());
  std::vector<float> want_mean(static_cast<std::size_t>(ln_rows)),
      want_rstd(static_cast<std::size_t>(ln_rows));
  examples::layernorm.launch(tk::grid(ln_rows), interpreter, want_y.data(), std::as_const(x).data(),
                             std::as_const(w).data(), std::as_const(b).data(), want_mean.data(),
                             want_rstd.data(), ln_cols, ln_cols, 1e-5f, tk::constant(1024));
  tk::device_buffer<half> dx(x), dw(w), db(b), dy(x.size());
  tk::device_buffer<float> dmean(want_mean.size()), drstd(want_rstd.size());
  dy.fill_bytes(0xff);
  dmean.fill_bytes(0xff);
  drstd.fill_bytes(0xff);
  int block_seen = 0;
  examples::layernorm_tuned.launch(
      [&](int BLOCK) {
        block_seen = BLOCK;
        return tk::grid(ln_rows);
      },
      {.backend = tk::backend::gpu}, dy.data(), static_cast<const half *>(dx.data()),
      static_cast<const half *>(dw.data()), static_cast<const half *>(db.data()), dmean.data(),
      drstd.data(), ln_cols, ln_cols, 1e-5f, tk::tuned<int>("BLOCK"));
  std::vector<float> got_y, want_yf;
  for (half v : dy.to_host())
    got_y.push_back(float(v));
  for (half v : want_y)
    want_yf.push_back(float(v));
  compare("autotuned layernorm 40x3000 y (BLOCK " + std::to_string(block_seen) + ")", got_y,
          want_yf, 2e-3, 2e-3);
  compare("autotuned layernorm mean", dmean.to_host(), want_mean, 1e-5, 1e-5);
  compare("autotuned layernorm rstd", drstd.to_host(), want_rstd, 1e-5, 1e-5);

  int tune_entries = 0;
  if (const char *dir = std::getenv("TK_CACHE_DIR"))
    for (const auto &e : std::filesystem::recursive_directory_iterator(dir))
      tune_entries += e.path().extension() == ".tune";
  const bool ok = tune_entries >= 2;
  std::printf("%s autotune: %d tuning(s) in the disk cache\n", ok ? "ok  " : "FAIL", tune_entries);
  failures += !ok;
}

/// autotune_options::post_hook on the GPU: a kernel that adds into its output, tuned over two
/// configs with event timing; post_hook zeroes the output after each tuning launch, so the
/// launch after tuning adds exactly once. It tunes in a disk cache of its own, so that a tuning
/// an earlier run stored (the bundle run twice with one TK_CACHE_DIR) does not skip the tuning.
void autotune_hooks() {
  const char *outer = std::getenv("TK_CACHE_DIR");
  const std::string saved = outer ? outer : "";
  char own[] = "/tmp/tk-autotune-hooks-XXXXXX";
  if (!mkdtemp(own)) {
    std::printf("FAIL autotune hooks: cannot make a temporary directory\n");
    ++failures;
    return;
  }
  setenv("TK_CACHE_DIR", own, 1);
  struct restore {
    const char *dir;
    const std::string &saved;
    bool had;
    ~restore() {
      std::filesystem::remove_all(dir);
      had ? setenv("TK_CACHE_DIR", saved.c_str(), 1) : unsetenv("TK_CACHE_DIR");
    }
  } restore_cache{own, saved, outer != nullptr};
  static auto accumulate = tk::jit("accumulate", [](tk::ptr<float> out, tk::ptr<const float> in,
                                                    tk::i32 n, tk::constant<int> BLOCK) {
    auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
    auto mask = offs < n;
    tk::store(out + offs, tk::load(out + offs, mask) + tk::load(in + offs, mask), mask);
  });
  const int n = 1 << 16;
  const auto in = random_vector<float>(std::size_t(n), -4, 4);
  tk::device_buffer<float> din(in), dout(in.size());
  dout.fill_bytes(0);
  int pre = 0, post = 0;
  auto tuned = tk::autotune(accumulate, {.configs = {{{{"BLOCK", 256}}, 4}, {{{"BLOCK", 1024}}, 4}},
                                         .key = {2},
                                         .warmup_ms = 2,
                                         .repeat_ms = 5,
                                         .pre_hook = [&](const tk::config &) { ++pre; },
                                         .post_hook =
                                             [&](const tk::config &) {
                                               dout.fill_bytes(0);
                                               ++post;
                                             }});
  tuned.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); },
               {.backend = tk::backend::gpu}, dout.data(), static_cast<const float *>(din.data()),
               n, tk::tuned<int>("BLOCK"));
  compare("autotune post_hook: the launch after tuning adds once (" + std::to_string(post) +
              " tuning launches)",
          dout.to_host(), in, 0, 0);
  const bool ok = pre == post && post >= 2 * 7;
  std::printf("%s autotune hooks ran around every tuning launch (pre %d, post %d)\n",
              ok ? "ok  " : "FAIL", pre, post);
  failures += !ok;
}

/// launch_options::fp_fusion. With a = b = 1 + 2^-12 and c = -1, a * b = 1 + 2^-11 + 2^-24 is a
/// tie in f32 that rounds to 1 + 2^-11: rounded twice (fusion off, and the interpreter), a * b + c
/// is 2^-11; as one fma (fusion on, the default) it is 2^-11 + 2^-24.
void fp_fusion() {
  static auto muladd = tk::jit("muladd", [](tk::ptr<float> out, tk::ptr<const float> a,
                                            tk::ptr<const float> b, tk::ptr<const float> c) {
    auto offsets = tk::arange(0, 256);
    tk::store(out + offsets, tk::load(a + offsets) * tk::load(b + offsets) + tk::load(c + offsets));
  });
  const float x = 1.0f + std::ldexp(1.0f, -12);
  const std::vector<float> a(256, x), c(256, -1.0f);
  const float separately = std::ldexp(1.0f, -11), fused = separately + std::ldexp(1.0f, -24);
  std::vector<float> interpreted(256);
  muladd.launch(tk::grid(1), interpreter, interpreted.data(), a.data(), a.data(), c.data());
  compare("fp_fusion: the interpreter rounds a * b + c twice", interpreted,
          std::vector<float>(256, separately), 0, 0);
  device_vector<float> da(a), dc(c), dout(interpreted);
  for (bool fusion : {true, false}) {
    poison(dout);
    muladd.launch(tk::grid(1), {.fp_fusion = fusion, .backend = tk::backend::gpu}, dout.traced(),
                  (const float *)da.traced(), (const float *)da.traced(),
                  (const float *)dc.traced());
    require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
    compare(fusion ? "fp_fusion on: a * b + c is one fma" : "fp_fusion off: rounded twice",
            dout.download(), std::vector<float>(256, fusion ? fused : separately), 0, 0);
  }
}

/// Kernels made one after another by a function, each with its own captured value, live at the
/// same address in turn: each must run its own code. (The launch cache keyed kernels by their
/// address, so the second kernel ran the first one's binary.)
auto make_fill(float value) {
  return tk::jit("fill", [value](tk::ptr<float> out) {
    tk::store(out + tk::arange(0, 128), tk::full<float>({128}, value));
  });
}

void kernels_at_one_address() {
  device_vector<float> dout(std::vector<float>(128));
  for (float value : {1.0f, 2.0f, 3.0f}) {
    poison(dout);
    const auto fill = make_fill(value);
    fill.launch(tk::grid(1), {.backend = tk::backend::gpu}, dout.traced());
    require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
    compare("a kernel made where an earlier one was runs its own code (fill " +
                std::to_string(int(value)) + ")",
            dout.download(), std::vector<float>(128, value), 0, 0);
  }
}

/// A disk-cache entry that holds a binary the driver rejects (as an older TileKit could store from
/// a broken ptxas): the launch deletes it, compiles again, runs correctly and stores a good one.
void poisoned_cache_entry() {
  namespace d = tk::detail;
  const auto body = [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n,
                       tk::constant<int> BLOCK) {
    auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
    tk::store(out + offs, tk::load(in + offs, offs < n) * 2.0f + 1.0f, offs < n);
  };
  // Two kernels of one IR (made at one source location, which the IR records): the second misses
  // the first's in-process cache, not its disk entry.
  const auto make = [&] { return tk::jit("poisoned_entry", body); };
  const auto first = make(), second = make();
  const int n = 5000, block = 256;
  auto x = random_vector<float>(std::size_t(n), -10, 10);
  std::vector<float> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    want[i] = x[i] * 2.0f + 1.0f;
  device_vector<float> dx(x), dout(want);
  const tk::grid g(tk::cdiv(n, block));
  first.launch(g, {.backend = tk::backend::gpu}, dout.traced(), (const float *)dx.traced(), n,
               tk::constant(block));
  require(cu.cuCtxSynchronize(), "cuCtxSynchronize");

  const d::cu::driver &driver = d::cu::get_driver();
  const d::backend_library &backend = d::get_backend();
  const std::string ir =
      first.ir(dout.traced(), (const float *)dx.traced(), n, tk::constant(block));
  // The entry of what the launch compiled: for the target TK_TARGET_ARCH asks for, when it does.
  const d::cu::device_info &device = driver.device_of(driver.launch_context());
  const std::string arch = d::resolve_target_arch(
      d::requested_target_arch({}), device, backend.targets(), std::source_location::current());
  tk_compile_options opts;
  backend.compile_options_init(&opts);
  opts.target = device.target.c_str();
  opts.lowering_target = arch.empty() ? nullptr : arch.c_str();
  opts.tensor_maps = driver.tensor_map_encode_tiled != nullptr;
  tk_compile_result *res = nullptr;
  backend.compile_cached(ir.data(), ir.size(), nullptr, &opts, TK_CACHE_USE, &res);
  const bool from_cache = backend.result_from_cache(res) != 0;
  const std::string entry = backend.result_cache_entry(res);
  backend.result_free(res);
  // The entry names its key (docs/runtime.md, "Disk cache": magic, version, then the key).
  const tk::cache::disk_cache cache(tk::cache::disk_cache::default_directory(), backend.version());
  std::string bytes;
  if (std::ifstream in(entry, std::ios::binary); in)
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  tk::cache::cache_key key{};
  if (bytes.size() >= 24) {
    std::memcpy(&key.hi, bytes.data() + 8, 8); // little-endian, as this host
    std::memcpy(&key.lo, bytes.data() + 16, 8);
  }
  std::optional<std::string> stored = cache.load(key, "cubin");
  std::optional<tk::cache::cached_kernel> good =
      stored ? tk::cache::deserialize(*stored) : std::nullopt;
  bool ok = from_cache && good &&
            good->binary.compare(0, 4,
                                 "\x7f"
                                 "ELF") == 0;
  std::printf("%s poisoned cache: the first launch stored its cubin\n", ok ? "ok  " : "FAIL");
  failures += !ok;
  if (!ok)
    return;
  tk::cache::cached_kernel bad = *good;
  bad.binary = std::string("\x7f"
                           "ELF",
                           4) +
               std::string(252, '\0');
  cache.store(key, "cubin", tk::cache::serialize(bad));

  ok = second.ir(dout.traced(), (const float *)dx.traced(), n, tk::constant(block)) == ir;
  std::printf("%s poisoned cache: both kernels have one IR\n", ok ? "ok  " : "FAIL");
  failures += !ok;
  poison(dout);
  setenv("TK_DEBUG", "1", 1); // the eviction is logged on stderr
  second.launch(g, {.backend = tk::backend::gpu}, dout.traced(), (const float *)dx.traced(), n,
                tk::constant(block));
  unsetenv("TK_DEBUG");
  require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
  compare("poisoned cache: the launch recompiled and ran", dout.download(), want, 0, 0);
  stored = cache.load(key, "cubin");
  std::optional<tk::cache::cached_kernel> now =
      stored ? tk::cache::deserialize(*stored) : std::nullopt;
  ok = now && now->binary != bad.binary &&
       tk::detail::cubin_problem(now->binary, now->target).empty();
  std::printf("%s poisoned cache: the entry now holds a cubin for %s\n", ok ? "ok  " : "FAIL",
              target.c_str());
  failures += !ok;
}

} // namespace

int main(int argc, char **argv) {
  const unsigned seed = argc > 1 ? unsigned(std::stoul(argv[1])) : std::random_device{}();
  gen.seed(seed);
  std::printf("seed %u (tk_e2e_gpu %u repeats this run)\n", seed, seed);
  // The disk cache this run uses (read once, at the first launch): TK_CACHE_DIR, else a fresh
  // directory, so that autotune_path can look for its entries.
  if (!std::getenv("TK_CACHE_DIR")) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("tk_e2e_gpu_cache_" + std::to_string(seed));
    setenv("TK_CACHE_DIR", dir.c_str(), 1);
  }
  std::printf("disk cache: %s\n", std::getenv("TK_CACHE_DIR"));
  target = tk_test::specific_target(tk_test::init_driver());
  try {
    vector_add(1 << 20);
    vector_add(1000003);
    softmax(37, 1000, 1024, 4);
    softmax(8, 3000, 4096, 8);
    softmax(64, 16, 16, 4);
    layernorm(64, 1000, 256);
    matmul(320, 200, 300);
    scan_and_argmax(3, 16, 64);
    scan_and_argmax(2, 64, 16);
    fp8_reductions<tk::f8e4m3>("f8e4m3", 37);
    fp8_reductions<tk::f8e5m2>("f8e5m2", 37);
    launch_path();
    autotune_path();
    fp_fusion();
    autotune_hooks();
    poisoned_cache_entry();
    kernels_at_one_address();
  } catch (const std::exception &e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  std::printf("%d failure(s) on %s\n", failures, target.c_str());
  return failures ? 1 : 0;
}

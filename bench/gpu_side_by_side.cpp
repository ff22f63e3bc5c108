/// @file gpu_side_by_side.cpp
/// TileKit's side of the side-by-side benchmarks (bench/README.md): the same workloads as
/// bench/peers.py (Triton, PyTorch), run through the public runtime, `kernel::launch` with
/// `.backend = tk::backend::gpu` on device pointers. One JSON object per line on stdout (impl
/// "tilekit", plus "cuMemcpyDtoD" for the copy and "raw cuLaunchKernel" for the launch loop), a
/// readable table on stderr. bench/compare.py puts both outputs side by side.
///
///   bench_gpu            all benchmarks but matmul (skips, exit 77, without a GPU)
///   bench_gpu --matmul   matmul only: fp16, bf16, tf32 (f32 inputs), int8 and fp8 (e4m3) at
///                        4096^3, 8192^3 and 8192x8192x512, TFLOP/s (TOP/s for int8), best of a
///                        sweep of Triton's tutorial configs, once for the GPU's own target and
///                        once lowered for sm_80 (launch_options::target_arch: the mma.sync path;
///                        fp8: for sm_90, its fp8 mma.sync path, on sm_90a); bounded by
///                        TK_BENCH_MATMUL_SECONDS (default 300), after which configs are skipped;
///                        from sm_90 fp16, bf16 and fp8 also through tensor descriptors
///                        (examples::matmul_descriptor, B given N x K: TMA rings), "tilekit
///                        descriptor"
///   bench_gpu --matmul-descriptor  fp16, bf16 and fp8 only: "tilekit", "tilekit descriptor" and
///                        "tilekit persistent" (examples::matmul_persistent, one program per SM)
///   bench_gpu --attention  flash attention forward (examples/kernels/attention.hpp), bf16,
///                        B4 H32 S4096 D128, non-causal and causal, TFLOP/s (4 B H S^2 D, half
///                        that when causal), best of a sweep of block sizes, warps and stages;
///                        through pointers ("tilekit") and tensor descriptors
///                        (examples::attention_descriptor, "tilekit descriptor")
///   bench_gpu --w4a16    the int4-weight matmul (examples/kernels/w4a16_matmul.hpp, group-wise
///                        f16 scales) beside the f16 matmul of the same weights dequantized, at
///                        N = K = 8192 and M = 16, 128, 4096; ms, TFLOP/s and GB/s, L2 cleared
///                        before each run
///   bench_gpu --sampling  top-k / top-p sampling (examples/kernels/sampling.hpp) over 64 and 512
///                        rows of a 128256-token vocabulary, L2 cleared before each run
///   bench_gpu --launch   only the launch overhead (kernel::launch against a raw
///                        cuLaunchKernel of the same cubin), three times
///   bench_gpu --cold-compile  only the cold compile: a fresh process's first launch of vector
///                        add, the matmuls and the attention kernels, with an empty disk cache and
///                        with a warm one, median of TK_BENCH_COLD_REPS (default 5) processes each
///                        (also the last part of a plain run)
///   bench_gpu --cold NAME  (internal) one first launch of the cold-compile kernel NAME
///
/// Timing: tk::do_bench on the default stream (CUDA events), median of 20 after 3 warm-up
/// launches; every buffer is 512 MiB or more, far beyond the L2 cache. Inputs are random, never
/// zeros.
#include "../tests/support/cuda_driver.hpp"
#include "kernels/attention.hpp"
#include "kernels/layernorm.hpp"
#include "kernels/matmul.hpp"
#include "kernels/sampling.hpp"
#include "kernels/softmax.hpp"
#include "kernels/vector_add.hpp"
#include "kernels/w4a16_matmul.hpp"

#include <tk/tk.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

using tk::half;
using tk_test::cu;
using tk_test::require;

/// A fused elementwise chain: out = (a * b + c) * sigmoid(a). One pass over three inputs and one
/// output; PyTorch's eager mode runs it as four kernels with temporaries.
inline auto fused_chain =
    tk::jit("fused_chain", [](tk::ptr<float> out, tk::ptr<const float> a, tk::ptr<const float> b,
                              tk::ptr<const float> c, tk::i32 n, tk::constant<int> BLOCK) {
      auto offsets = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offsets < n;
      auto x = tk::load(a + offsets, mask);
      auto y = tk::load(b + offsets, mask);
      auto z = tk::load(c + offsets, mask);
      tk::store(out + offsets, (x * y + z) * tk::sigmoid(x), mask);
    });

constexpr std::size_t gib = std::size_t(1) << 30;
constexpr int vector_block = 1024;

template <class T> T *ptr(CUdeviceptr p) {
  return reinterpret_cast<T *>(static_cast<std::uintptr_t>(p));
}

CUdeviceptr alloc(std::size_t bytes) {
  CUdeviceptr p;
  require(cu.cuMemAlloc(&p, bytes), "cuMemAlloc");
  return p;
}

/// A host chunk of random values in [lo, hi) (xorshift; fast enough for tens of MiB).
template <class T>
std::vector<T> random_chunk(std::size_t count, float lo, float hi, unsigned seed) {
  std::vector<T> v(count);
  std::uint32_t s = 2463534242u ^ (seed * 2654435761u);
  for (auto &x : v) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    x = T(lo + (hi - lo) * float(s >> 8) * (1.0f / 16777216.0f));
  }
  return v;
}

/// Fills `bytes` at `p` with copies of `chunk` (whose size in bytes divides `bytes`).
template <class T> void fill(CUdeviceptr p, std::size_t bytes, const std::vector<T> &chunk) {
  const std::size_t step = chunk.size() * sizeof(T);
  for (std::size_t off = 0; off < bytes; off += step)
    require(cu.cuMemcpyHtoD(p + off, chunk.data(), std::min(step, bytes - off)), "cuMemcpyHtoD");
}

template <class T> std::vector<T> download(CUdeviceptr p, std::size_t count) {
  std::vector<T> v(count);
  require(cu.cuMemcpyDtoH(v.data(), p, count * sizeof(T)), "cuMemcpyDtoH");
  return v;
}

/// Median milliseconds of `run` on the default stream (tk::do_bench with fixed counts: `warmup`
/// untimed runs, the first of them before a synchronize, then `reps` runs, each between its own
/// pair of events; no L2 clearing, the buffers being far larger). The median is the upper middle
/// run, as bench/peers.py takes it.
double median_ms(const std::function<void()> &run, int warmup = 3, int reps = 20) {
  const tk::bench_result r =
      tk::do_bench(run, {.clear_l2 = false, .warmup_runs = warmup - 1, .repeat_runs = reps});
  std::vector<double> times = r.times;
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

double copy_gbps = 0;

/// One bandwidth result: a JSON line on stdout, a table row on stderr.
void report(const char *bench, const std::string &shape, const char *impl, double ms, double bytes,
            const std::string &config, const char *check) {
  const double gbps = bytes / ms / 1e6;
  std::printf("{\"bench\": \"%s\", \"shape\": \"%s\", \"impl\": \"%s\", \"ms\": %.5f, \"gbps\": "
              "%.1f, \"bytes\": %.0f, \"config\": \"%s\", \"check\": \"%s\"}\n",
              bench, shape.c_str(), impl, ms, gbps, bytes, config.c_str(), check);
  std::fflush(stdout);
  std::fprintf(stderr, "| %-12s | %-24s | %-16s | %9.4f | %7.1f | %6.1f%% | %-22s | %s\n", bench,
               shape.c_str(), impl, ms, gbps, copy_gbps > 0 ? 100 * gbps / copy_gbps : 0.0,
               config.c_str(), check);
}

void report_time(const char *bench, const std::string &shape, const char *impl, const char *unit,
                 double value, const std::string &config) {
  std::printf("{\"bench\": \"%s\", \"shape\": \"%s\", \"impl\": \"%s\", \"%s\": %.4f, \"config\": "
              "\"%s\"}\n",
              bench, shape.c_str(), impl, unit, value, config.c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "| %-14s | %-34s | %-18s | %10.3f %s | %s\n", bench, shape.c_str(), impl,
               value, unit, config.c_str());
}

const char *verdict(bool ok) { return ok ? "ok" : "MISMATCH"; }

bool near(double got, double want, double atol, double rtol) {
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

// ---------------------------------------------------------------------------------------------

void bench_copy(CUdeviceptr src, CUdeviceptr dst) {
  const double ms = median_ms([&] { require(cu.cuMemcpyDtoD(dst, src, gib), "cuMemcpyDtoD"); });
  copy_gbps = 2.0 * double(gib) / ms / 1e6;
  report("copy", "1 GiB", "cuMemcpyDtoD", ms, 2.0 * double(gib), "", "-");
}

void bench_vector_add(CUdeviceptr out, CUdeviceptr a, CUdeviceptr b, const std::vector<float> &ca,
                      const std::vector<float> &cb) {
  const int n = 1 << 28;
  const double ms = median_ms([&] {
    examples::vector_add.launch(tk::grid(tk::cdiv(n, vector_block)), {.backend = tk::backend::gpu},
                                ptr<float>(out), ptr<const float>(a), ptr<const float>(b), n,
                                tk::constant(vector_block));
  });
  const auto got = download<float>(out, ca.size());
  bool ok = true;
  for (std::size_t i = 0; i < got.size(); ++i)
    ok = ok && got[i] == ca[i] + cb[i];
  report("vector_add", "2^28 f32", "tilekit", ms, 3.0 * 4 * n,
         "BLOCK=" + std::to_string(vector_block) + " warps=4", verdict(ok));
}

void bench_fused_chain(CUdeviceptr out, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c,
                       const std::vector<float> &ca, const std::vector<float> &cb,
                       const std::vector<float> &cc) {
  const int n = 1 << 28;
  const double ms = median_ms([&] {
    fused_chain.launch(tk::grid(tk::cdiv(n, vector_block)), {.backend = tk::backend::gpu},
                       ptr<float>(out), ptr<const float>(a), ptr<const float>(b),
                       ptr<const float>(c), n, tk::constant(vector_block));
  });
  const auto got = download<float>(out, ca.size());
  bool ok = true;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double x = ca[i], want = (x * cb[i] + cc[i]) / (1 + std::exp(-x));
    ok = ok && near(got[i], want, 1e-4, 1e-4);
  }
  report("fused_chain", "2^28 f32", "tilekit", ms, 4.0 * 4 * n,
         "BLOCK=" + std::to_string(vector_block) + " warps=4", verdict(ok));
}

void bench_softmax(CUdeviceptr out, CUdeviceptr in, std::size_t chunk_floats) {
  for (int cols : {1024, 4096, 16384}) {
    const int rows = int((gib / 4) / std::size_t(cols)), stride = cols;
    double best = 1e30;
    int best_warps = 0;
    for (int warps : {4, 8, 16}) {
      const double ms = median_ms([&] {
        examples::softmax.launch(tk::grid(rows), {.num_warps = warps, .backend = tk::backend::gpu},
                                 ptr<float>(out), ptr<const float>(in), stride, cols,
                                 tk::constant(cols));
      });
      std::fprintf(stderr, "  softmax %d cols, %2d warps: %.4f ms, %.0f GB/s\n", cols, warps, ms,
                   2.0 * double(gib) / ms / 1e6);
      if (ms < best)
        best = ms, best_warps = warps;
    }
    // Run the winner last so the check sees its output: each row of the first chunk sums to 1.
    examples::softmax.launch(tk::grid(rows), {.num_warps = best_warps, .backend = tk::backend::gpu},
                             ptr<float>(out), ptr<const float>(in), stride, cols,
                             tk::constant(cols));
    const auto got = download<float>(out, chunk_floats);
    bool ok = true;
    for (std::size_t r = 0; r + std::size_t(cols) <= got.size(); r += std::size_t(cols)) {
      double sum = 0;
      for (int i = 0; i < cols; ++i)
        sum += got[r + std::size_t(i)];
      ok = ok && near(sum, 1.0, 1e-4, 0);
    }
    report("softmax", std::to_string(rows) + "x" + std::to_string(cols) + " f32", "tilekit", best,
           2.0 * double(gib),
           "BLOCK=" + std::to_string(cols) + " warps=" + std::to_string(best_warps), verdict(ok));
  }
}

void bench_layernorm(CUdeviceptr y, CUdeviceptr x, const std::vector<half> &cx) {
  const std::size_t bytes_in = gib / 2; // 512 MiB of f16
  CUdeviceptr w = alloc(8192 * 2), b = alloc(8192 * 2), mean = alloc(1 << 20),
              rstd = alloc(1 << 20);
  const auto cw = random_chunk<half>(8192, 0.5f, 1.5f, 7), cb = random_chunk<half>(8192, -1, 1, 8);
  require(cu.cuMemcpyHtoD(w, cw.data(), 8192 * 2), "cuMemcpyHtoD");
  require(cu.cuMemcpyHtoD(b, cb.data(), 8192 * 2), "cuMemcpyHtoD");
  for (int cols : {1024, 4096, 8192}) {
    const int rows = int((bytes_in / 2) / std::size_t(cols)), stride = cols, n = cols;
    const float eps = 1e-5f;
    auto run = [&](int block, int warps) {
      examples::layernorm.launch(tk::grid(rows), {.num_warps = warps, .backend = tk::backend::gpu},
                                 ptr<half>(y), ptr<const half>(x), ptr<const half>(w),
                                 ptr<const half>(b), ptr<float>(mean), ptr<float>(rstd), stride, n,
                                 eps, tk::constant(block));
    };
    const double bytes = 2.0 * 2 * double(rows) * cols;
    double best = 1e30;
    int best_block = 0, best_warps = 0;
    for (int block : {1024, 2048, 4096, 8192}) {
      if (block > cols)
        continue;
      for (int warps : {4, 8, 16}) {
        const double ms = median_ms([&] { run(block, warps); });
        std::fprintf(stderr, "  layernorm %d cols, BLOCK %d, %2d warps: %.4f ms, %.0f GB/s\n", cols,
                     block, warps, ms, bytes / ms / 1e6);
        if (ms < best)
          best = ms, best_block = block, best_warps = warps;
      }
    }
    run(best_block, best_warps);
    // Check the first rows (within the random chunk) against a host computation in double.
    const std::size_t check_rows = std::min<std::size_t>(4, cx.size() / std::size_t(cols));
    const auto got = download<half>(y, check_rows * std::size_t(cols));
    bool ok = true;
    for (std::size_t r = 0; r < check_rows; ++r) {
      double s = 0, sq = 0;
      for (int i = 0; i < cols; ++i)
        s += float(cx[r * std::size_t(cols) + std::size_t(i)]);
      const double mu = s / cols;
      for (int i = 0; i < cols; ++i) {
        const double d = float(cx[r * std::size_t(cols) + std::size_t(i)]) - mu;
        sq += d * d;
      }
      const double rs = 1 / std::sqrt(sq / cols + double(eps));
      for (int i = 0; i < cols; ++i) {
        const std::size_t k = r * std::size_t(cols) + std::size_t(i);
        const double want =
            (float(cx[k]) - mu) * rs * float(cw[std::size_t(i)]) + float(cb[std::size_t(i)]);
        ok = ok && near(float(got[k]), want, 1e-2, 1e-2);
      }
    }
    report("layernorm", std::to_string(rows) + "x" + std::to_string(cols) + " f16", "tilekit", best,
           bytes, "BLOCK=" + std::to_string(best_block) + " warps=" + std::to_string(best_warps),
           verdict(ok));
  }
  for (CUdeviceptr p : {w, b, mean, rstd})
    cu.cuMemFree(p);
}

// ---------------------------------------------------------------------------------------------
// Matmul (bench_gpu --matmul)

/// One config of the sweep: Triton's tutorial configs (python/tutorials/03-matrix-multiplication,
/// get_cuda_autotune_config), the first ones, which win at these sizes.
struct matmul_config {
  int bm, bn, bk, group, stages, warps;
  std::string describe() const {
    return "BM=" + std::to_string(bm) + " BN=" + std::to_string(bn) + " BK=" + std::to_string(bk) +
           " G=" + std::to_string(group) + " stages=" + std::to_string(stages) +
           " warps=" + std::to_string(warps);
  }
};
constexpr matmul_config float_configs[] = {
    {128, 256, 64, 8, 3, 8}, {64, 256, 32, 8, 4, 4}, {128, 128, 32, 8, 4, 4},
    {128, 64, 32, 8, 4, 4},  {64, 128, 32, 8, 4, 4}, {128, 32, 32, 8, 4, 4},
};
// int8: the tutorial's 8-bit list (K steps of 64 and 128 bytes), and 128x128x64.
constexpr matmul_config int8_configs[] = {
    {128, 256, 128, 8, 3, 8}, {256, 128, 128, 8, 3, 8}, {256, 64, 128, 8, 4, 4},
    {64, 256, 128, 8, 4, 4},  {128, 128, 128, 8, 4, 4}, {128, 128, 64, 8, 4, 4},
    {128, 64, 64, 8, 4, 4},   {64, 128, 64, 8, 4, 4},
};

std::chrono::steady_clock::time_point matmul_deadline;

/// TK_BENCH_MATMUL_DTYPES (e.g. "tf32,int8") limits the sweep to those dtypes; unset or empty,
/// every dtype runs.
bool matmul_dtype_wanted(std::string_view dtype) {
  const char *list = std::getenv("TK_BENCH_MATMUL_DTYPES");
  if (!list || !*list)
    return true;
  std::string_view rest = list;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    if (rest.substr(0, comma) == dtype)
      return true;
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return false;
}

/// Element (i, j) of a matrix of `cols` columns filled by fill(): chunk[(i * cols + j) % size].
template <class T>
double element(const std::vector<T> &chunk, std::size_t i, std::size_t j, std::size_t cols) {
  return double(chunk[(i * cols + j) % chunk.size()]);
}

/// C = A B for M x K A and K x N B, row-major, inputs of type In (f32 means tf32, the default
/// precision), through examples::matmul (examples::matmul_i8 for int8); the best config, per
/// target, as a JSON line; a sampled check of C against the host in double. fp8: B is stored
/// N x K (K contiguous: B given transposed, as in Triton's fp8 tutorial, where the sm_90 tensor
/// cores need it). The target "descriptor" runs examples::matmul_descriptor instead (tensor
/// descriptors, TMA rings on sm_90), B stored N x K.
template <class In, class Out>
void bench_matmul_case(const char *dtype, int M, int N, int K,
                       const std::vector<std::string> &archs, CUdeviceptr a, CUdeviceptr b,
                       CUdeviceptr c) {
  if (!matmul_dtype_wanted(dtype))
    return;
  constexpr bool int8 = std::is_same_v<In, std::int8_t>;
  constexpr bool fp8 = std::is_same_v<In, tk::f8e4m3>;
  // B's strides along K and N, and element (k, j) of B as filled.
  const int stride_bk = fp8 ? 1 : N, stride_bn = fp8 ? K : 1;
  const std::size_t chunk_size = (std::size_t(1) << 20) + 7; // not a multiple of any row
  const auto ca = random_chunk<In>(chunk_size, int8 ? -128.f : -1.f, int8 ? 127.f : 1.f, 11);
  const auto cb = random_chunk<In>(chunk_size, int8 ? -128.f : -1.f, int8 ? 127.f : 1.f, 12);
  auto fill_exact = [&](CUdeviceptr p, std::size_t count, const std::vector<In> &chunk) {
    std::vector<In> host(std::min<std::size_t>(count, std::size_t(1) << 24));
    for (std::size_t off = 0; off < count; off += host.size()) {
      const std::size_t n = std::min(host.size(), count - off);
      for (std::size_t i = 0; i < n; ++i)
        host[i] = chunk[(off + i) % chunk.size()];
      require(cu.cuMemcpyHtoD(p + off * sizeof(In), host.data(), n * sizeof(In)), "cuMemcpyHtoD");
    }
  };
  fill_exact(a, std::size_t(M) * K, ca);
  fill_exact(b, std::size_t(K) * N, cb);
  const std::string shape =
      std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + " " + dtype;
  const double ops = 2.0 * M * N * K;
  for (const std::string &arch : archs) {
    const std::string impl = arch.empty() ? "tilekit" : "tilekit " + arch;
    const bool persistent = arch == "persistent";
    const bool descriptor = arch == "descriptor" || persistent;
    auto run = [&](const matmul_config &cfg) {
      const tk::launch_options o{.num_warps = cfg.warps,
                                 .num_stages = cfg.stages,
                                 .backend = tk::backend::gpu,
                                 .target_arch = descriptor ? std::string_view{} : arch};
      const int tiles = tk::cdiv(M, cfg.bm) * tk::cdiv(N, cfg.bn);
      const tk::grid g(tiles);
      if (descriptor) {
        if constexpr (!int8 && !std::is_same_v<In, float>) {
          if (persistent)
            examples::matmul_persistent.launch(
                tk::grid(std::min(tk::gpu_multiprocessor_count(), tiles)), o, ptr<Out>(c),
                ptr<const In>(a), ptr<const In>(b), M, N, K, tk::constant(cfg.bm),
                tk::constant(cfg.bn), tk::constant(cfg.bk), tk::constant(cfg.group));
          else
            examples::matmul_descriptor.launch(g, o, ptr<Out>(c), ptr<const In>(a),
                                               ptr<const In>(b), M, N, K, tk::constant(cfg.bm),
                                               tk::constant(cfg.bn), tk::constant(cfg.bk),
                                               tk::constant(cfg.group));
        }
        return;
      }
      if constexpr (int8)
        examples::matmul_i8.launch(g, o, ptr<std::int32_t>(c), ptr<const std::int8_t>(a),
                                   ptr<const std::int8_t>(b), M, N, K, K, 1, stride_bk, stride_bn,
                                   N, 1, tk::constant(cfg.bm), tk::constant(cfg.bn),
                                   tk::constant(cfg.bk), tk::constant(cfg.group));
      else
        examples::matmul.launch(g, o, ptr<Out>(c), ptr<const In>(a), ptr<const In>(b), M, N, K, K,
                                1, stride_bk, stride_bn, N, 1, tk::constant(cfg.bm),
                                tk::constant(cfg.bn), tk::constant(cfg.bk), tk::constant(cfg.group),
                                tk::constant(tk::input_precision::tf32));
    };
    double best = 1e30;
    const matmul_config *best_cfg = nullptr;
    std::string skipped;
    for (const matmul_config &cfg : int8 || fp8 ? std::span<const matmul_config>(int8_configs)
                                                : std::span<const matmul_config>(float_configs)) {
      if (std::chrono::steady_clock::now() > matmul_deadline) {
        skipped += " " + cfg.describe();
        continue;
      }
      try {
        // One timed launch first: slow configs (an FMA dot at 8192^3) get fewer repetitions.
        const double first = median_ms([&] { run(cfg); }, 1, 1);
        const int reps = int(std::clamp(2000.0 / std::max(first, 1e-3), 1.0, 10.0));
        const double ms = reps > 1 ? median_ms([&] { run(cfg); }, 1, reps) : first;
        std::fprintf(stderr, "  matmul %s %s, %s: %.3f ms, %.1f TFLOP/s\n", shape.c_str(),
                     impl.c_str(), cfg.describe().c_str(), ms, ops / ms / 1e9);
        if (ms < best)
          best = ms, best_cfg = &cfg;
      } catch (const std::exception &e) {
        std::fprintf(stderr, "  matmul %s %s, %s: failed: %s\n", shape.c_str(), impl.c_str(),
                     cfg.describe().c_str(), e.what());
      }
    }
    if (!best_cfg) {
      std::fprintf(stderr, "  matmul %s %s: no config ran\n", shape.c_str(), impl.c_str());
      continue;
    }
    // The winner again, then 64 sampled elements against the host in double.
    require(cu.cuMemsetD8(c, 0xff, std::size_t(M) * N * sizeof(Out)), "cuMemsetD8");
    run(*best_cfg);
    require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
    std::uint32_t s = 12345;
    int bad = 0;
    double worst = 0;
    for (int sample = 0; sample < 64; ++sample) {
      s = s * 1664525u + 1013904223u;
      const std::size_t i = s % std::uint32_t(M);
      s = s * 1664525u + 1013904223u;
      const std::size_t j = s % std::uint32_t(N);
      double want = 0, scale = 0;
      for (std::size_t k = 0; k < std::size_t(K); ++k) {
        const double x = element(ca, i, k, std::size_t(K)),
                     y = fp8 || descriptor ? element(cb, j, k, std::size_t(K))
                                           : element(cb, k, j, std::size_t(N));
        want += x * y;
        scale += std::fabs(x * y);
      }
      Out got;
      require(cu.cuMemcpyDtoH(&got, c + (i * std::size_t(N) + j) * sizeof(Out), sizeof(Out)),
              "cuMemcpyDtoH");
      // int8: exact. f16/bf16 out: f32 sums, then one rounding of the result; tf32: 2^-8 of
      // sum |a b| (inputs rounded or truncated to TF32: up to 2^-9; the FMA dot: 0); fp8: exact
      // products added with fewer bits than f32 by the tensor cores, then an f16 rounding.
      const double tol = int8  ? 0
                         : fp8 ? std::ldexp(std::fabs(want), -10) + std::ldexp(scale, -12)
                         : std::is_same_v<In, float> ? std::ldexp(scale, -8)
                         : std::is_same_v<Out, tk::bfloat16>
                             ? std::ldexp(std::fabs(want), -8) + std::ldexp(scale, -20)
                             : std::ldexp(std::fabs(want), -10) + std::ldexp(scale, -20);
      const double err = std::fabs(double(got) - want);
      worst = std::max(worst, err / (scale + 1e-30));
      bad += !(err <= tol);
    }
    const std::string check = bad ? "MISMATCH (" + std::to_string(bad) + " of 64 sampled)" : "ok";
    std::fprintf(stderr,
                 "  matmul %s %s: check of 64 sampled elements vs the host: %s (worst error %.2g "
                 "of sum |a b|)%s%s\n",
                 shape.c_str(), impl.c_str(), check.c_str(), worst,
                 skipped.empty() ? "" : "; out of time, skipped:", skipped.c_str());
    const double tflops = ops / best / 1e9;
    std::printf("{\"bench\": \"matmul\", \"shape\": \"%s\", \"impl\": \"%s\", \"ms\": %.4f, "
                "\"tflops\": %.2f, \"config\": \"%s\", \"check\": \"%s\"}\n",
                shape.c_str(), impl.c_str(), best, tflops, best_cfg->describe().c_str(),
                check.c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "| matmul | %-22s | %-16s | %9.3f ms | %7.1f %s | %s | %s\n",
                 shape.c_str(), impl.c_str(), best, tflops, int8 ? "TOP/s" : "TFLOP/s",
                 best_cfg->describe().c_str(), check.c_str());
  }
}

// ---------------------------------------------------------------------------------------------
// Matmul with padded leading dimensions (bench_gpu --matmul-padded)

/// C = relu(A B + bias), f16 in and out, every edge masked, as a Triton user writes the fused
/// linear layer; peers.py's matmul_bias_relu_kernel is the same kernel.
auto matmul_bias_relu =
    tk::jit("matmul_bias_relu", [](tk::ptr<half> c, tk::ptr<const half> a, tk::ptr<const half> b,
                                   tk::ptr<const half> bias, tk::i32 M, tk::i32 N, tk::i32 K,
                                   tk::i32 stride_am, tk::i32 stride_bk, tk::i32 stride_cm,
                                   tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N,
                                   tk::constant<int> BLOCK_K, tk::constant<int> GROUP_M) {
      auto pid = tk::program_id(0);
      auto num_pid_m = tk::cdiv(M, BLOCK_M);
      auto num_pid_n = tk::cdiv(N, BLOCK_N);
      auto num_pid_in_group = GROUP_M * num_pid_n;
      auto first_pid_m = pid / num_pid_in_group * GROUP_M;
      auto group_size_m = tk::minimum(num_pid_m - first_pid_m, GROUP_M);
      auto pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
      auto pid_n = (pid % num_pid_in_group) / group_size_m;
      auto offs_m = pid_m * BLOCK_M + tk::arange(0, BLOCK_M);
      auto offs_n = pid_n * BLOCK_N + tk::arange(0, BLOCK_N);
      auto offs_k = tk::arange(0, BLOCK_K);
      auto a_ptrs = a + offs_m(tk::_, tk::newaxis) * stride_am + offs_k(tk::newaxis, tk::_);
      auto b_ptrs = b + offs_k(tk::_, tk::newaxis) * stride_bk + offs_n(tk::newaxis, tk::_);
      auto acc = tk::zeros<float>({BLOCK_M, BLOCK_N});
      tk::for_range(0, tk::cdiv(K, BLOCK_K), [&](tk::i32 k) {
        auto k_left = K - k * BLOCK_K;
        auto a_tile = tk::load(
            a_ptrs, (offs_m(tk::_, tk::newaxis) < M) & (offs_k(tk::newaxis, tk::_) < k_left), 0.0f);
        auto b_tile = tk::load(
            b_ptrs, (offs_k(tk::_, tk::newaxis) < k_left) & (offs_n(tk::newaxis, tk::_) < N), 0.0f);
        acc = tk::dot(a_tile, b_tile, acc);
        a_ptrs += BLOCK_K;
        b_ptrs += BLOCK_K * stride_bk;
      });
      auto bias_row = tk::load(bias + offs_n, offs_n < N, 0.0f);
      acc = tk::maximum(acc + bias_row(tk::newaxis, tk::_), 0.0f);
      tk::store(c + offs_m(tk::_, tk::newaxis) * stride_cm + offs_n(tk::newaxis, tk::_), acc,
                (offs_m(tk::_, tk::newaxis) < M) & (offs_n(tk::newaxis, tk::_) < N));
    });

/// bench_gpu --matmul-padded: matmul_bias_relu at 4096^3 f16 with leading dimensions K + pad and
/// N + pad, pad 0, 1 (odd strides), 8 (rows 16-byte aligned, no stride divisible by 16) and 64, at
/// the tile configs Triton runs the same kernel with (peers.py --matmul-padded).
int matmul_padded_main() {
  const int M = 4096, N = 4096, K = 4096;
  const matmul_config configs[] = {
      {64, 64, 32, 8, 3, 4}, {128, 128, 64, 8, 3, 8}, {128, 256, 64, 8, 3, 8}};
  const std::size_t most = std::size_t(M + 64) * (K + 64);
  CUdeviceptr a = alloc(most * 2), b = alloc(most * 2), c = alloc(most * 2), bias = alloc(N * 2);
  const auto chunk = random_chunk<half>((std::size_t(1) << 20) + 7, -1, 1, 21);
  fill(a, most * 2, chunk), fill(b, most * 2, chunk), fill(bias, std::size_t(N) * 2, chunk);
  for (int pad : {0, 1, 8, 64}) {
    const int lda = K + pad, ldb = N + pad, ldc = N + pad;
    for (const matmul_config &cfg : configs) {
      const std::string shape = "4096^3 f16 pad " + std::to_string(pad) + ", " +
                                std::to_string(cfg.bm) + "x" + std::to_string(cfg.bn) + "x" +
                                std::to_string(cfg.bk) + " w" + std::to_string(cfg.warps) + " s" +
                                std::to_string(cfg.stages);
      auto run = [&] {
        matmul_bias_relu.launch(
            tk::grid(tk::cdiv(M, cfg.bm) * tk::cdiv(N, cfg.bn)),
            {.num_warps = cfg.warps, .num_stages = cfg.stages, .backend = tk::backend::gpu},
            ptr<half>(c), ptr<const half>(a), ptr<const half>(b), ptr<const half>(bias), M, N, K,
            lda, ldb, ldc, tk::constant(cfg.bm), tk::constant(cfg.bn), tk::constant(cfg.bk),
            tk::constant(cfg.group));
      };
      try {
        run();
        require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
        // Row 1, 64 sampled columns, against the host in double (element x of a buffer is
        // chunk[x % chunk.size()], as fill() wrote it).
        auto at = [&](std::size_t x) { return double(float(chunk[x % chunk.size()])); };
        const auto hc = download<half>(c + std::size_t(ldc) * 2, std::size_t(N));
        int bad = 0;
        for (int j = 0; j < N; j += N / 64) {
          double want = at(std::size_t(j));
          for (int k = 0; k < K; ++k)
            want +=
                at(std::size_t(lda) + std::size_t(k)) * at(std::size_t(k) * ldb + std::size_t(j));
          want = std::max(want, 0.0);
          bad += !(std::fabs(float(hc[std::size_t(j)]) - want) <= 0.02 + std::fabs(want) / 256);
        }
        const std::string check = bad ? "MISMATCH (" + std::to_string(bad) + " of 64)" : "ok";
        const double ms = median_ms(run);
        const double tflops = 2.0 * M * N * K / ms / 1e9;
        std::printf("{\"bench\": \"matmul_padded\", \"shape\": \"%s\", \"impl\": \"tilekit\", "
                    "\"ms\": %.4f, \"tflops\": %.2f, \"config\": \"%s\", \"check\": \"%s\"}\n",
                    shape.c_str(), ms, tflops, cfg.describe().c_str(), check.c_str());
        std::fflush(stdout);
        std::fprintf(stderr, "| matmul_padded | %-22s | %-40s | %8.3f ms | %6.1f TFLOP/s | %s\n",
                     shape.c_str(), cfg.describe().c_str(), ms, tflops, check.c_str());
      } catch (const std::exception &e) {
        std::fprintf(stderr, "  matmul_padded %s %s: failed: %s\n", shape.c_str(),
                     cfg.describe().c_str(), e.what());
      }
    }
  }
  for (CUdeviceptr p : {a, b, c, bias})
    cu.cuMemFree(p);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Attention (bench_gpu --attention)

struct attention_config {
  int bm, bn, warps, stages;
  std::string describe() const {
    return "BM=" + std::to_string(bm) + " BN=" + std::to_string(bn) +
           " warps=" + std::to_string(warps) + " stages=" + std::to_string(stages);
  }
};
constexpr attention_config attention_configs[] = {
    {128, 64, 8, 3}, {128, 64, 8, 2}, {128, 128, 8, 2}, {128, 128, 8, 3}, {128, 32, 8, 3},
    {128, 64, 4, 3}, {64, 64, 4, 3},  {128, 64, 4, 4},  {64, 128, 4, 3},
};

/// softmax(Q Kᵀ / sqrt(D)) V for [B, H, S, D] bf16 tensors, every config, through pointers
/// (examples::attention, "tilekit") or tensor descriptors (examples::attention_descriptor,
/// "tilekit descriptor"); the best as a JSON line, with 16 sampled rows checked against the host
/// in double.
void bench_attention_case(int B, int H, int S, int D, bool causal, bool descriptor) {
  using T = tk::bfloat16;
  const std::size_t n = std::size_t(B) * H * S * D;
  CUdeviceptr q = alloc(n * sizeof(T)), k = alloc(n * sizeof(T)), v = alloc(n * sizeof(T)),
              o = alloc(n * sizeof(T));
  const std::size_t chunk_size = (std::size_t(1) << 20) + 7;
  const auto cq = random_chunk<T>(chunk_size, -1.f, 1.f, 21),
             ck = random_chunk<T>(chunk_size, -1.f, 1.f, 22),
             cv = random_chunk<T>(chunk_size, -1.f, 1.f, 23);
  auto fill_exact = [&](CUdeviceptr p, const std::vector<T> &chunk) {
    std::vector<T> host(n);
    for (std::size_t i = 0; i < n; ++i)
      host[i] = chunk[i % chunk.size()];
    require(cu.cuMemcpyHtoD(p, host.data(), n * sizeof(T)), "cuMemcpyHtoD");
  };
  fill_exact(q, cq), fill_exact(k, ck), fill_exact(v, cv);
  const float sm_scale = 1.0f / std::sqrt(float(D));
  const std::string shape = "B" + std::to_string(B) + " H" + std::to_string(H) + " S" +
                            std::to_string(S) + " D" + std::to_string(D) + " bf16" +
                            (causal ? " causal" : "");
  const double flops = 4.0 * B * H * double(S) * S * D * (causal ? 0.5 : 1.0);
  const std::string impl = descriptor ? "tilekit descriptor" : "tilekit";
  auto run = [&](const attention_config &cfg) {
    const tk::launch_options options{
        .num_warps = cfg.warps, .num_stages = cfg.stages, .backend = tk::backend::gpu};
    const auto grid = tk::grid(tk::cdiv(S, cfg.bm), B * H);
    if (descriptor)
      examples::attention_descriptor.launch(
          grid, options, ptr<T>(o), ptr<const T>(q), ptr<const T>(k), ptr<const T>(v), sm_scale, S,
          B * H * S, tk::constant(D), tk::constant(cfg.bm), tk::constant(cfg.bn),
          tk::constant(causal), tk::constant(S % cfg.bn == 0));
    else
      examples::attention.launch(grid, options, ptr<T>(o), ptr<const T>(q), ptr<const T>(k),
                                 ptr<const T>(v), sm_scale, S, tk::constant(D),
                                 tk::constant(cfg.bm), tk::constant(cfg.bn), tk::constant(causal),
                                 tk::constant(S % cfg.bn == 0));
  };
  double best = 1e30;
  const attention_config *best_cfg = nullptr;
  for (const attention_config &cfg : attention_configs) {
    try {
      const double ms = median_ms([&] { run(cfg); });
      std::fprintf(stderr, "  attention %s %s, %s: %.3f ms, %.1f TFLOP/s\n", shape.c_str(),
                   impl.c_str(), cfg.describe().c_str(), ms, flops / ms / 1e9);
      if (ms < best)
        best = ms, best_cfg = &cfg;
    } catch (const std::exception &e) {
      std::fprintf(stderr, "  attention %s %s, %s: failed: %s\n", shape.c_str(), impl.c_str(),
                   cfg.describe().c_str(), e.what());
    }
  }
  if (!best_cfg) {
    std::fprintf(stderr, "  attention %s %s: no config ran\n", shape.c_str(), impl.c_str());
    return;
  }
  // The winner again, then 16 sampled rows against the host in double.
  require(cu.cuMemsetD8(o, 0xff, n * sizeof(T)), "cuMemsetD8");
  run(*best_cfg);
  require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
  std::uint32_t seed = 4242;
  int bad = 0;
  double worst = 0;
  std::vector<double> p(std::size_t(S), 0.0);
  std::vector<T> got(static_cast<std::size_t>(D));
  for (int sample = 0; sample < 16; ++sample) {
    seed = seed * 1664525u + 1013904223u;
    const std::size_t head = seed % std::uint32_t(B * H);
    seed = seed * 1664525u + 1013904223u;
    const std::size_t row = seed % std::uint32_t(S);
    const std::size_t base = head * std::size_t(S) * D;
    auto at = [&](const std::vector<T> &chunk, std::size_t r, std::size_t c) {
      return double(chunk[(base + r * D + c) % chunk.size()]);
    };
    const std::size_t keys = causal ? row + 1 : std::size_t(S);
    double mx = -1e300;
    for (std::size_t j = 0; j < keys; ++j) {
      double dot = 0;
      for (std::size_t d = 0; d < std::size_t(D); ++d)
        dot += at(cq, row, d) * at(ck, j, d);
      p[j] = dot * sm_scale;
      mx = std::max(mx, p[j]);
    }
    double sum = 0;
    for (std::size_t j = 0; j < keys; ++j)
      sum += (p[j] = std::exp(p[j] - mx));
    require(cu.cuMemcpyDtoH(got.data(), o + (base + row * D) * sizeof(T), D * sizeof(T)),
            "cuMemcpyDtoH");
    for (std::size_t d = 0; d < std::size_t(D); ++d) {
      double want = 0, scale = 0;
      for (std::size_t j = 0; j < keys; ++j) {
        want += p[j] / sum * at(cv, j, d);
        scale += p[j] / sum * std::fabs(at(cv, j, d));
      }
      const double err = std::fabs(double(got[d]) - want) / scale;
      worst = std::max(worst, err);
      bad += !(err <= std::ldexp(1.0, -6)); // four bf16 roundings (06-fused-attention.cpp)
    }
  }
  const std::string check =
      bad ? "MISMATCH (" + std::to_string(bad) + " of " + std::to_string(16 * D) + ")" : "ok";
  std::fprintf(stderr, "  attention %s %s: check of 16 sampled rows vs the host: %s (worst %.2g)\n",
               shape.c_str(), impl.c_str(), check.c_str(), worst);
  const double tflops = flops / best / 1e9;
  std::printf("{\"bench\": \"attention\", \"shape\": \"%s\", \"impl\": \"%s\", "
              "\"ms\": %.4f, \"tflops\": %.2f, \"config\": \"%s\", \"check\": \"%s\"}\n",
              shape.c_str(), impl.c_str(), best, tflops, best_cfg->describe().c_str(),
              check.c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "| attention | %-28s | %s | %9.3f ms | %7.1f TFLOP/s | %s | %s\n",
               shape.c_str(), impl.c_str(), best, tflops, best_cfg->describe().c_str(),
               check.c_str());
  for (CUdeviceptr x : {q, k, v, o})
    cu.cuMemFree(x);
}

int attention_main(const std::string &target) {
  std::fprintf(stderr, "attention on %s\n", target.c_str());
  // Tensor descriptors lower to TMA from sm_90 on; before, they are ordinary masked loads.
  for (bool causal : {false, true})
    for (bool descriptor : {false, true})
      bench_attention_case(4, 32, 4096, 128, causal, descriptor);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Decoder kernels (bench_gpu --w4a16, bench_gpu --sampling)

/// Median milliseconds of `run` with the L2 cache overwritten before each timed run: a decoder's
/// weights and logits come from memory, and a product at small M would otherwise find its 32 MiB
/// of int4 weights in the 50 MiB L2. peers.py times its side the same way.
double median_ms_cold_l2(const std::function<void()> &run) {
  const tk::bench_result r =
      tk::do_bench(run, {.clear_l2 = true, .warmup_runs = 2, .repeat_runs = 20});
  std::vector<double> times = r.times;
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// One config of the W4A16 and f16 sweeps (GROUP_M is 8): small tiles for decode-sized M, the
/// tutorial's for large M; BLOCK_K divides the group of 128.
struct w4a16_config {
  int bm, bn, bk, stages, warps;
  std::string describe() const {
    return "BM=" + std::to_string(bm) + " BN=" + std::to_string(bn) + " BK=" + std::to_string(bk) +
           " stages=" + std::to_string(stages) + " warps=" + std::to_string(warps);
  }
};
constexpr w4a16_config w4a16_configs[] = {
    {16, 32, 128, 4, 4}, {16, 64, 128, 4, 4},  {16, 128, 128, 4, 4}, {32, 64, 128, 4, 4},
    {64, 128, 64, 4, 4}, {128, 128, 64, 3, 8}, {128, 256, 64, 3, 8}, {128, 128, 128, 3, 8},
};

/// Reports a product's best time as a JSON line and a table row.
void report_product(const char *bench, const std::string &shape, const char *impl, double ms,
                    double ops, double bytes, const std::string &config, const std::string &check) {
  std::printf("{\"bench\": \"%s\", \"shape\": \"%s\", \"impl\": \"%s\", \"ms\": %.5f, "
              "\"tflops\": %.2f, \"gbps\": %.1f, \"config\": \"%s\", \"check\": \"%s\"}\n",
              bench, shape.c_str(), impl, ms, ops / ms / 1e9, bytes / ms / 1e6, config.c_str(),
              check.c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "| %-8s | %-30s | %-14s | %9.4f ms | %7.1f TFLOP/s | %7.1f GB/s | %s | %s\n",
               bench, shape.c_str(), impl, ms, ops / ms / 1e9, bytes / ms / 1e6, config.c_str(),
               check.c_str());
}

/// bench_gpu --w4a16: examples::w4a16_matmul (int4 weights N x K/2, f16 scales per 128 k) against
/// the f16 matmul of the same, dequantized weights (examples::matmul, B given N x K), at N = K =
/// 8192 and M = 16, 128 and 4096; the best of w4a16_configs each; 64 sampled elements of each
/// result against the host in double.
int w4a16_main() {
  const int N = 8192, K = 8192, G = 128, max_m = 4096;
  std::fprintf(stderr, "| bench | shape | impl | ms | TFLOP/s | GB/s | config | check\n");
  std::vector<std::int8_t> w(std::size_t(N) * K / 2);
  std::uint32_t s = 2463534242u;
  for (auto &byte : w) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    byte = std::int8_t(s >> 24);
  }
  const auto scales = random_chunk<half>(std::size_t(K / G) * N, 0.005f, 0.02f, 21);
  // The same weights dequantized, N x K f16: what the f16 product multiplies by.
  std::vector<half> wf(std::size_t(N) * K);
  for (std::size_t n = 0; n < std::size_t(N); ++n)
    for (std::size_t k = 0; k < std::size_t(K); ++k) {
      const int v = std::uint8_t(w[n * (K / 2) + k / 2]) >> (k % 2 ? 4 : 0) & 0xF;
      wf[n * K + k] = half(float(v >= 8 ? v - 16 : v) * float(scales[k / G * N + n]));
    }
  const auto ca = random_chunk<half>(std::size_t(max_m) * K, -1, 1, 22);
  CUdeviceptr a = alloc(ca.size() * 2), dw = alloc(w.size()), ds = alloc(scales.size() * 2),
              dwf = alloc(wf.size() * 2), c = alloc(std::size_t(max_m) * N * 2);
  require(cu.cuMemcpyHtoD(a, ca.data(), ca.size() * 2), "cuMemcpyHtoD");
  require(cu.cuMemcpyHtoD(dw, w.data(), w.size()), "cuMemcpyHtoD");
  require(cu.cuMemcpyHtoD(ds, scales.data(), scales.size() * 2), "cuMemcpyHtoD");
  require(cu.cuMemcpyHtoD(dwf, wf.data(), wf.size() * 2), "cuMemcpyHtoD");

  for (const int M : {16, 128, 4096}) {
    const std::string shape = "M=" + std::to_string(M) + " N=8192 K=8192 G=128";
    const double ops = 2.0 * M * N * K;
    for (const bool int4 : {true, false}) {
      const char *impl = int4 ? "tilekit w4a16" : "tilekit f16";
      const double bytes = 2.0 * M * K + 2.0 * M * N +
                           (int4 ? double(w.size()) + 2.0 * double(scales.size()) : 2.0 * N * K);
      auto run = [&](const w4a16_config &cfg) {
        const tk::launch_options o{
            .num_warps = cfg.warps, .num_stages = cfg.stages, .backend = tk::backend::gpu};
        const tk::grid g(tk::cdiv(M, cfg.bm) * tk::cdiv(N, cfg.bn));
        if (int4)
          examples::w4a16_matmul.launch(g, o, ptr<half>(c), ptr<const half>(a),
                                        ptr<const std::int8_t>(dw), ptr<const half>(ds), M, N, K,
                                        tk::constant(cfg.bm), tk::constant(cfg.bn),
                                        tk::constant(cfg.bk), tk::constant(8), tk::constant(G));
        else
          examples::matmul.launch(g, o, ptr<half>(c), ptr<const half>(a), ptr<const half>(dwf), M,
                                  N, K, K, 1, 1, K, N, 1, tk::constant(cfg.bm),
                                  tk::constant(cfg.bn), tk::constant(cfg.bk), tk::constant(8),
                                  tk::constant(tk::input_precision::tf32));
      };
      double best = 1e30;
      const w4a16_config *best_cfg = nullptr;
      for (const w4a16_config &cfg : w4a16_configs) {
        if (cfg.bm > 2 * M && cfg.bm > 16)
          continue; // tiles mostly past the edge
        try {
          const double ms = median_ms_cold_l2([&] { run(cfg); });
          std::fprintf(stderr, "  %s %s, %s: %.4f ms\n", shape.c_str(), impl,
                       cfg.describe().c_str(), ms);
          if (ms < best)
            best = ms, best_cfg = &cfg;
        } catch (const std::exception &e) {
          std::fprintf(stderr, "  %s %s, %s: failed: %s\n", shape.c_str(), impl,
                       cfg.describe().c_str(), e.what());
        }
      }
      if (!best_cfg)
        continue;
      require(cu.cuMemsetD8(c, 0xff, std::size_t(M) * N * 2), "cuMemsetD8");
      run(*best_cfg);
      require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
      const auto got = download<half>(c, std::size_t(M) * N);
      int bad = 0;
      std::uint32_t r = 12345;
      for (int sample = 0; sample < 64; ++sample) {
        r = r * 1664525u + 1013904223u;
        const std::size_t i = r % std::uint32_t(M);
        r = r * 1664525u + 1013904223u;
        const std::size_t j = r % std::uint32_t(N);
        double want = 0, scale = 0;
        for (std::size_t k = 0; k < std::size_t(K); ++k) {
          const double x = double(float(ca[i * K + k])) * double(float(wf[j * K + k]));
          want += x, scale += std::fabs(x);
        }
        bad += !near(double(float(got[i * N + j])), want, std::ldexp(scale, -16), 1.0 / 512);
      }
      report_product("w4a16", shape, impl, best, ops, bytes, best_cfg->describe(),
                     bad ? "MISMATCH (" + std::to_string(bad) + " of 64 sampled)" : "ok");
    }
  }
  for (CUdeviceptr p : {a, dw, ds, dwf, c})
    cu.cuMemFree(p);
  return 0;
}

/// The host's draw for one row of sample_top_k_top_p, in double: the candidates by (logit
/// descending, index ascending), the kept prefix, the pick.
int host_draw(const float *logits, int V, int K, double temperature, double top_p, double u) {
  std::vector<int> order(static_cast<std::size_t>(V));
  for (int k = 0; k < V; ++k)
    order[std::size_t(k)] = k;
  std::partial_sort(order.begin(), order.begin() + K, order.end(), [&](int x, int y) {
    return logits[x] > logits[y] || (logits[x] == logits[y] && x < y);
  });
  std::vector<double> p(static_cast<std::size_t>(K));
  double total = 0;
  for (int j = 0; j < K; ++j)
    total += p[std::size_t(j)] =
        std::exp((logits[order[std::size_t(j)]] - logits[order[0]]) / temperature);
  double before = 0, kept = 0;
  int count = 0;
  for (int j = 0; j < K && before < top_p; ++j, ++count)
    kept += p[std::size_t(j)] / total, before += p[std::size_t(j)] / total;
  double running = 0;
  int pick = 0;
  for (int j = 0; j < count; ++j)
    running += p[std::size_t(j)] / total, pick += running <= u * kept ? 1 : 0;
  return order[std::size_t(std::min(pick, count - 1))];
}

/// bench_gpu --sampling: examples::sample_top_k_top_p over rows of a 128256-token vocabulary (f32
/// logits), top_k 64, top_p 0.9, temperature 0.7, for 64 and 512 rows; the best BLOCK_V and warps
/// of each; every row's token against the host's draw (a row may differ only where the f32 sums
/// round across a boundary: at most 1 in 100 rows).
int sampling_main() {
  const int V = 128256, K = 64, max_rows = 512;
  const float temperature = 0.7f, top_p = 0.9f;
  std::fprintf(stderr, "| bench | shape | impl | ms | GB/s | config | check\n");
  // Logits as a decoder's: a few large, most small (a scaled normal, by the sum of uniforms).
  std::vector<float> logits(std::size_t(max_rows) * V);
  std::uint32_t s = 88172645u;
  auto uniform = [&] {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    return float(s >> 8) * (1.0f / 16777216.0f);
  };
  for (auto &x : logits)
    x = 3.0f * (uniform() + uniform() + uniform() + uniform() - 2.0f);
  std::vector<float> u(max_rows);
  for (auto &x : u)
    x = uniform();
  CUdeviceptr dl = alloc(logits.size() * 4), du = alloc(u.size() * 4), dt = alloc(max_rows * 4);
  require(cu.cuMemcpyHtoD(dl, logits.data(), logits.size() * 4), "cuMemcpyHtoD");
  require(cu.cuMemcpyHtoD(du, u.data(), u.size() * 4), "cuMemcpyHtoD");
  for (const int rows : {64, 512}) {
    const std::string shape = std::to_string(rows) + "x" + std::to_string(V) + " k=64 p=0.9";
    auto run = [&](int block_v, int warps) {
      examples::sample_top_k_top_p.launch(
          tk::grid(rows), {.num_warps = warps, .backend = tk::backend::gpu}, ptr<std::int32_t>(dt),
          ptr<const float>(dl), ptr<const float>(du), V, temperature, top_p, tk::constant(block_v),
          tk::constant(K));
    };
    double best = 1e30;
    int best_block = 0, best_warps = 0;
    for (const int block_v : {1024, 2048, 4096})
      for (const int warps : {4, 8, 16}) {
        try {
          const double ms = median_ms_cold_l2([&] { run(block_v, warps); });
          std::fprintf(stderr, "  sampling %s BLOCK_V=%d warps=%d: %.4f ms\n", shape.c_str(),
                       block_v, warps, ms);
          if (ms < best)
            best = ms, best_block = block_v, best_warps = warps;
        } catch (const std::exception &e) {
          std::fprintf(stderr, "  sampling %s BLOCK_V=%d warps=%d: failed: %s\n", shape.c_str(),
                       block_v, warps, e.what());
        }
      }
    if (!best_block)
      continue;
    require(cu.cuMemsetD8(dt, 0xff, max_rows * 4), "cuMemsetD8");
    run(best_block, best_warps);
    require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
    const auto tokens = download<std::int32_t>(dt, std::size_t(rows));
    int differ = 0;
    for (int r = 0; r < rows; ++r)
      differ += tokens[std::size_t(r)] != host_draw(logits.data() + std::size_t(r) * V, V, K,
                                                    temperature, top_p, u[std::size_t(r)]);
    const std::string check = differ * 100 > rows ? "MISMATCH (" + std::to_string(differ) + " of " +
                                                        std::to_string(rows) + " rows)"
                              : differ ? "ok (" + std::to_string(differ) + " rows at a boundary)"
                                       : "ok";
    report("sampling", shape, "tilekit", best, double(rows) * V * 4,
           "BLOCK_V=" + std::to_string(best_block) + " warps=" + std::to_string(best_warps),
           check.c_str());
  }
  for (CUdeviceptr p : {dl, du, dt})
    cu.cuMemFree(p);
  return 0;
}

/// bench_gpu --matmul: every dtype and shape, at the GPU's own target and, on a GPU newer than
/// sm_80, lowered for sm_80; from sm_90 also through tensor descriptors. `descriptor_only`
/// (--matmul-descriptor): fp16, bf16 and fp8, the pointer kernel and the descriptor one.
int matmul_main(const std::string &target, bool descriptor_only) {
  const char *limit = std::getenv("TK_BENCH_MATMUL_SECONDS");
  const int seconds = limit && *limit ? std::atoi(limit) : 300;
  matmul_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  std::vector<std::string> archs{""}, fp8_archs{""};
  if (std::atoi(target.c_str() + 3) > 80 && !descriptor_only)
    archs.push_back("sm_80");
  if (target == "sm_90a" && !descriptor_only)
    fp8_archs.push_back("sm_90"); // fp8 mma.sync instead of wgmma
  // Tensor descriptors (TMA rings) for the 16-bit and fp8 inputs, where TMA exists.
  std::vector<std::string> descriptor_archs = archs;
  if (std::atoi(target.c_str() + 3) >= 90) {
    descriptor_archs.push_back("descriptor");
    fp8_archs.push_back("descriptor");
    if (descriptor_only) { // the persistent form of the descriptor kernel
      descriptor_archs.push_back("persistent");
      fp8_archs.push_back("persistent");
    }
  }
  std::fprintf(stderr, "matmul on %s, %d s at most\n", target.c_str(), seconds);
  // 8192 x 8192 of f32: 256 MiB per matrix.
  const std::size_t bytes = std::size_t(8192) * 8192 * 4;
  CUdeviceptr a = alloc(bytes), b = alloc(bytes), c = alloc(bytes);
  struct shape {
    int M, N, K;
  };
  for (const shape sh :
       {shape{4096, 4096, 4096}, shape{8192, 8192, 8192}, shape{8192, 8192, 512}}) {
    bench_matmul_case<half, half>("fp16", sh.M, sh.N, sh.K, descriptor_archs, a, b, c);
    bench_matmul_case<tk::bfloat16, tk::bfloat16>("bf16", sh.M, sh.N, sh.K, descriptor_archs, a, b,
                                                  c);
    if (!descriptor_only) {
      bench_matmul_case<float, float>("tf32", sh.M, sh.N, sh.K, archs, a, b, c);
      bench_matmul_case<std::int8_t, std::int32_t>("int8", sh.M, sh.N, sh.K, archs, a, b, c);
    }
    bench_matmul_case<tk::f8e4m3, half>("fp8", sh.M, sh.N, sh.K, fp8_archs, a, b, c);
  }
  for (CUdeviceptr p : {a, b, c})
    cu.cuMemFree(p);
  return 0;
}

// ---------------------------------------------------------------------------------------------

constexpr int cold_n = 1 << 20;

/// One kernel of the cold-compile benchmark (`bench_gpu --cold NAME` launches it once). Each
/// is at the config its own benchmark measures best on the H100 and on small inputs: the
/// compile is what counts, and the kernel's code does not depend on the sizes (their
/// divisibility by 16 is the same).
struct cold_kernel {
  const char *name;
  const char *config;
  /// Fills its inputs in `buf` (four 16 MiB buffers), launches the kernel once and sets `ms` to
  /// the time from the launch call to the synchronize after it; false when the result is wrong.
  bool (*launch)(const CUdeviceptr *buf, double &ms);
};

/// The milliseconds from calling `launch` to the synchronize after it.
template <class F> double clocked(F &&launch) {
  require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
  const auto start = std::chrono::steady_clock::now();
  launch();
  require(cu.cuCtxSynchronize(), "cuCtxSynchronize");
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

bool cold_vector_add(const CUdeviceptr *buf, double &ms) {
  const auto chunk = random_chunk<float>(cold_n, -1, 1, 3);
  fill(buf[0], cold_n * 4, chunk), fill(buf[1], cold_n * 4, chunk);
  ms = clocked([&] {
    examples::vector_add.launch(
        tk::grid(tk::cdiv(cold_n, vector_block)), {.backend = tk::backend::gpu}, ptr<float>(buf[2]),
        ptr<const float>(buf[0]), ptr<const float>(buf[1]), cold_n, tk::constant(vector_block));
  });
  const auto got = download<float>(buf[2], 16);
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != chunk[i] + chunk[i])
      return false;
  return true;
}

constexpr int cold_mm = 1024; // M = N = K
constexpr matmul_config cold_matmul_config{128, 256, 64, 8, 3, 8};
/// The mma.sync path's best f16 config, lowered for sm_80 (`launch_options::target_arch`).
constexpr matmul_config cold_mma_config{128, 128, 32, 8, 4, 4};

/// Checks element (0, 0) of C against the host's dot product of A's row 0 and B's column 0.
bool cold_matmul_check(const std::vector<half> &ca, const std::vector<half> &cb, CUdeviceptr c,
                       bool b_n_by_k) {
  double want = 0;
  for (int k = 0; k < cold_mm; ++k)
    want += double(float(ca[k])) * double(float(cb[b_n_by_k ? k : std::size_t(k) * cold_mm]));
  return near(float(download<half>(c, 1)[0]), want, 0.05, 0.01);
}

/// The f16 matmul at cold_matmul_config; B is K x N, or N x K through descriptors. With `sm80`,
/// the pointer kernel at cold_mma_config, lowered for sm_80 (mma.sync, cp.async).
template <bool descriptor, bool sm80 = false> bool cold_matmul(const CUdeviceptr *buf, double &ms) {
  const auto ca = random_chunk<half>(cold_mm * cold_mm, -1, 1, 5),
             cb = random_chunk<half>(cold_mm * cold_mm, -1, 1, 6);
  fill(buf[0], ca.size() * 2, ca), fill(buf[1], cb.size() * 2, cb);
  const auto &cfg = sm80 ? cold_mma_config : cold_matmul_config;
  const tk::grid grid(tk::cdiv(cold_mm, cfg.bm) * tk::cdiv(cold_mm, cfg.bn));
  const tk::launch_options options{.num_warps = cfg.warps,
                                   .num_stages = cfg.stages,
                                   .backend = tk::backend::gpu,
                                   .target_arch = sm80 ? "sm_80" : ""};
  auto c = ptr<half>(buf[2]);
  auto a = ptr<const half>(buf[0]), b = ptr<const half>(buf[1]);
  ms = clocked([&] {
    if constexpr (descriptor)
      examples::matmul_descriptor.launch(grid, options, c, a, b, cold_mm, cold_mm, cold_mm,
                                         tk::constant(cfg.bm), tk::constant(cfg.bn),
                                         tk::constant(cfg.bk), tk::constant(cfg.group));
    else
      examples::matmul.launch(grid, options, c, a, b, cold_mm, cold_mm, cold_mm, cold_mm, 1,
                              cold_mm, 1, cold_mm, 1, tk::constant(cfg.bm), tk::constant(cfg.bn),
                              tk::constant(cfg.bk), tk::constant(cfg.group),
                              tk::constant(tk::input_precision::tf32));
  });
  return cold_matmul_check(ca, cb, buf[2], descriptor);
}

constexpr int cold_heads = 2, cold_seq = 1024, cold_dim = 128;

/// One program instance's row 0 of head 0 against the host's softmax(q kᵀ / sqrt(D)) v.
template <bool descriptor, bool causal> bool cold_attention(const CUdeviceptr *buf, double &ms) {
  using T = tk::bfloat16;
  const std::size_t n = std::size_t(cold_heads) * cold_seq * cold_dim;
  const auto cq = random_chunk<T>(n, -1, 1, 7), ck = random_chunk<T>(n, -1, 1, 8),
             cv = random_chunk<T>(n, -1, 1, 9);
  fill(buf[0], n * 2, cq), fill(buf[1], n * 2, ck), fill(buf[2], n * 2, cv);
  const attention_config cfg =
      causal ? attention_config{64, 64, 4, 3} : attention_config{128, 128, 8, 3};
  const tk::launch_options options{
      .num_warps = cfg.warps, .num_stages = cfg.stages, .backend = tk::backend::gpu};
  const auto grid = tk::grid(tk::cdiv(cold_seq, cfg.bm), cold_heads);
  const float sm_scale = 1.0f / std::sqrt(float(cold_dim));
  ms = clocked([&] {
    if constexpr (descriptor)
      examples::attention_descriptor.launch(
          grid, options, ptr<T>(buf[3]), ptr<const T>(buf[0]), ptr<const T>(buf[1]),
          ptr<const T>(buf[2]), sm_scale, cold_seq, cold_heads * cold_seq, tk::constant(cold_dim),
          tk::constant(cfg.bm), tk::constant(cfg.bn), tk::constant(causal),
          tk::constant(cold_seq % cfg.bn == 0));
    else
      examples::attention.launch(grid, options, ptr<T>(buf[3]), ptr<const T>(buf[0]),
                                 ptr<const T>(buf[1]), ptr<const T>(buf[2]), sm_scale, cold_seq,
                                 tk::constant(cold_dim), tk::constant(cfg.bm), tk::constant(cfg.bn),
                                 tk::constant(causal), tk::constant(cold_seq % cfg.bn == 0));
  });
  // Row 0 sees key 0 alone when causal, every key otherwise.
  const int keys = causal ? 1 : cold_seq;
  std::vector<double> p(keys);
  double top = -1e300, sum = 0;
  for (int j = 0; j < keys; ++j) {
    double s = 0;
    for (int d = 0; d < cold_dim; ++d)
      s += double(float(cq[d])) * double(float(ck[std::size_t(j) * cold_dim + d]));
    p[j] = s * sm_scale, top = std::max(top, p[j]);
  }
  for (double &x : p)
    sum += x = std::exp(x - top);
  const auto got = download<T>(buf[3], cold_dim);
  for (int d = 0; d < cold_dim; ++d) {
    double want = 0;
    for (int j = 0; j < keys; ++j)
      want += p[j] * double(float(cv[std::size_t(j) * cold_dim + d]));
    if (!near(float(got[d]), want / sum, 0.02, 0.02))
      return false;
  }
  return true;
}

constexpr cold_kernel cold_kernels[] = {
    {"vector_add 2^20", "BLOCK 1024", cold_vector_add},
    {"matmul f16 1024^3", "BM=128 BN=256 BK=64 G=8 stages=3 warps=8", cold_matmul<false>},
    {"matmul_descriptor f16 1024^3", "BM=128 BN=256 BK=64 G=8 stages=3 warps=8", cold_matmul<true>},
    {"matmul f16 1024^3 lowered for sm_80", "BM=128 BN=128 BK=32 G=8 stages=4 warps=4",
     cold_matmul<false, true>},
    {"attention bf16 H2 S1024 D128", "BM=128 BN=128 warps=8 stages=3",
     cold_attention<false, false>},
    {"attention_descriptor bf16 H2 S1024 D128", "BM=128 BN=128 warps=8 stages=3",
     cold_attention<true, false>},
    {"attention_descriptor bf16 H2 S1024 D128 causal", "BM=64 BN=64 warps=4 stages=3",
     cold_attention<true, true>},
};

/// `bench_gpu --cold NAME`: what a fresh process pays for its first launch of one kernel. The
/// context and buffers come first (as in the Triton script, where torch has made them); the
/// clock runs from just before the first `kernel::launch` to after the synchronize. Prints the
/// milliseconds and "ok" or "MISMATCH".
int cold_main(std::string_view name) {
  (void)tk_test::init_driver();
  for (const cold_kernel &kernel : cold_kernels) {
    if (name != kernel.name)
      continue;
    CUdeviceptr buf[4];
    for (CUdeviceptr &b : buf)
      b = alloc(std::size_t(16) << 20);
    double ms = 0;
    const bool ok = kernel.launch(buf, ms);
    std::printf("first-launch %.4f %s\n", ms, ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
  }
  std::fprintf(stderr, "bench_gpu --cold: no kernel named '%s'\n", std::string(name).c_str());
  return 2;
}

/// What one `bench_gpu --cold` child measured: its wall time (spawn to exit), its in-process
/// first launch, and the compile's stage times it printed under TK_DEBUG (name, ms).
struct cold_run {
  double wall = -1, first = -1;
  std::vector<std::pair<std::string, double>> stages;
  std::string output; // its stdout and stderr
};

/// Runs `exe --cold name` with TK_CACHE_DIR=`cache_dir` and TK_DEBUG=1.
cold_run run_cold_child(const std::string &exe, const std::string &name,
                        const std::string &cache_dir) {
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "TK_CACHE_DIR=", 13) != 0 && std::strncmp(*e, "TK_DEBUG=", 9) != 0)
      env.emplace_back(*e);
  env.push_back("TK_CACHE_DIR=" + cache_dir);
  env.push_back("TK_DEBUG=1");
  std::vector<char *> envp;
  for (auto &s : env)
    envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string arg0 = exe, arg1 = "--cold", arg2 = name;
  char *argv[] = {arg0.data(), arg1.data(), arg2.data(), nullptr};

  int fds[2];
  if (pipe(fds) != 0)
    return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int spawned = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    return {};
  }
  std::string output;
  char buf[4096];
  for (ssize_t got; (got = read(fds[0], buf, sizeof buf)) > 0;)
    output.append(buf, std::size_t(got));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  cold_run run;
  run.output = output;
  const double wall =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const bool ok = output.find(" ok\n") != std::string::npos;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !ok) {
    std::fprintf(stderr, "bench_gpu --cold '%s' failed (status %d):\n%s\n", name.c_str(), status,
                 output.c_str());
    return run;
  }
  run.wall = wall;
  // "first-launch <ms> ok", and the backend's "tk:   <stage> <ms> ms" lines.
  std::size_t pos = 0;
  while (pos < output.size()) {
    std::size_t eol = output.find('\n', pos);
    if (eol == std::string::npos)
      eol = output.size();
    const std::string line = output.substr(pos, eol - pos);
    pos = eol + 1;
    char stage[64];
    double ms = 0;
    if (std::sscanf(line.c_str(), "first-launch %lf", &ms) == 1)
      run.first = ms;
    else if (std::sscanf(line.c_str(), "tk:   %63s %lf ms", stage, &ms) == 2 &&
             std::string_view(stage) != "pass")
      run.stages.emplace_back(stage, ms);
  }
  return run;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? -1 : v[v.size() / 2];
}

/// TK_BENCH_COLD_REPS: fresh processes per kernel and cache state (default 5). Each child's
/// output (TK_DEBUG's log) goes to a file in TK_BENCH_COLD_LOG_DIR when that is set.
int cold_reps() {
  const char *text = std::getenv("TK_BENCH_COLD_REPS");
  const int reps = text ? std::atoi(text) : 5;
  return std::clamp(reps, 1, 100);
}

/// Every cold kernel: `cold_reps()` fresh processes on an empty disk cache (a new directory each:
/// trace, compile, store, load, launch), then as many on the cache they filled (trace, disk
/// cache hit, load, launch). Medians; the empty-cache record also gives each compile stage's
/// median.
void bench_cold(const std::string &exe) {
  std::error_code ec;
  const std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  const int reps = cold_reps();
  for (const cold_kernel &kernel : cold_kernels) {
    std::string warm_dir;
    for (const char *what : {"empty cache", "warm disk cache"}) {
      const bool empty = std::string_view(what) == "empty cache";
      std::vector<double> walls, firsts;
      std::vector<std::pair<std::string, std::vector<double>>> stages;
      for (int rep = 0; rep < reps; ++rep) {
        std::string dir = warm_dir;
        if (empty) {
          dir = (tmp / "tk_bench_cold_XXXXXX").string();
          if (!mkdtemp(dir.data())) {
            std::fprintf(stderr, "cannot create a temporary directory for the cold compile\n");
            return;
          }
        }
        const cold_run run = run_cold_child(exe, kernel.name, dir);
        if (const char *logs = std::getenv("TK_BENCH_COLD_LOG_DIR")) {
          std::string file = std::string(kernel.name) + ", " + what + " " + std::to_string(rep);
          std::replace_if(file.begin(), file.end(), [](char c) { return !std::isalnum(c); }, '_');
          if (std::FILE *f = std::fopen((std::string(logs) + "/" + file + ".log").c_str(), "w")) {
            std::fputs(run.output.c_str(), f);
            std::fclose(f);
          }
        }
        if (empty && warm_dir.empty() && run.wall >= 0)
          warm_dir = dir; // the first filled cache serves the warm runs
        else if (empty)
          std::filesystem::remove_all(dir, ec);
        if (run.wall < 0)
          continue;
        walls.push_back(run.wall), firsts.push_back(run.first);
        for (const auto &[stage, ms] : run.stages) {
          auto it = std::find_if(stages.begin(), stages.end(),
                                 [&](const auto &s) { return s.first == stage; });
          if (it == stages.end())
            it = stages.insert(stages.end(), {stage, {}});
          it->second.push_back(ms);
        }
      }
      if (walls.empty() || (!empty && warm_dir.empty()))
        continue;
      std::string config =
          std::string(kernel.config) + "; median of " + std::to_string(walls.size()) + " processes";
      if (empty && !stages.empty()) {
        config += "; compile stages (ms):";
        for (const auto &[stage, times] : stages) {
          char text[64];
          std::snprintf(text, sizeof text, " %s %.1f", stage.c_str(), median_of(times));
          config += text;
        }
      }
      const std::string shape = std::string(kernel.name) + ", " + what;
      report_time("cold_compile", shape + ": first launch", "tilekit", "ms", median_of(firsts),
                  config + "; in process, launch to sync");
      report_time("cold_compile", shape + ": whole process", "tilekit", "ms", median_of(walls),
                  std::string(kernel.config) + "; spawn to exit");
    }
    if (!warm_dir.empty())
      std::filesystem::remove_all(warm_dir, ec);
  }
}

/// Host time per launch of a one-block vector add, `kernel::launch` against a raw cuLaunchKernel
/// loop on a cubin compiled from the same IR by tk_compile, in the same process.
void bench_launch_overhead(const std::string &target, CUdeviceptr out, CUdeviceptr a,
                           CUdeviceptr b) {
  int small = vector_block;
  const std::string ir = examples::vector_add.ir(
      ptr<float>(out), ptr<const float>(a), ptr<const float>(b), small, tk::constant(vector_block));
  tk_compile_options opts;
  tk_compile_options_init(&opts);
  opts.target = target.c_str();
  opts.num_warps = 4;
  opts.output = TK_OUTPUT_CUBIN;
  tk_compile_result *result = nullptr;
  if (tk_compile(ir.data(), ir.size(), &opts, &result) != TK_OK) {
    std::fprintf(stderr, "tk_compile failed: %s\n", tk_compile_result_error(result));
    tk_compile_result_free(result);
    return;
  }
  CUmodule module;
  CUfunction function;
  require(cu.cuModuleLoadData(&module, tk_compile_result_binary(result, nullptr)),
          "cuModuleLoadData");
  require(cu.cuModuleGetFunction(&function, module, tk_compile_result_kernel_name(result)),
          "cuModuleGetFunction");
  const auto threads = unsigned(tk_compile_result_threads_per_block(result));
  const auto shared = unsigned(tk_compile_result_dynamic_shared_bytes(result));
  tk_compile_result_free(result);

  const int launches = 20000;
  auto host_us = [&](auto &&launch_once) {
    return tk_test::host_us_per_launch(launch_once, launches, 500);
  };
  auto raw = [&] {
    void *params[] = {&out, &a, &b, &small};
    require(cu.cuLaunchKernel(function, 1, 1, 1, threads, 1, 1, shared, nullptr, params, nullptr),
            "cuLaunchKernel");
  };
  auto ours = [&] {
    examples::vector_add.launch(tk::grid(1), {.backend = tk::backend::gpu}, ptr<float>(out),
                                ptr<const float>(a), ptr<const float>(b), small,
                                tk::constant(vector_block));
  };
  // Alternate, twice each, and keep each one's best: the loops share the machine's noise.
  double raw_us = 1e30, ours_us = 1e30;
  for (int round = 0; round < 2; ++round) {
    raw_us = std::min(raw_us, host_us(raw));
    ours_us = std::min(ours_us, host_us(ours));
  }
  const std::string config = std::to_string(launches) + " launches, no sync, best of 2";
  report_time("launch_overhead", "vector_add 1 block (1024 f32)", "tilekit", "us", ours_us, config);
  report_time("launch_overhead", "vector_add 1 block (1024 f32)", "raw cuLaunchKernel", "us",
              raw_us, config);
  cu.cuModuleUnload(module);
}

std::string self_exe(const char *argv0) {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(argv0) : p.string();
}

} // namespace

int main(int argc, char **argv) {
  try {
    if (argc > 2 && std::string(argv[1]) == "--cold")
      return cold_main(argv[2]);

    const std::string target = tk_test::specific_target(tk_test::init_driver());
    if (const std::string why = tk::gpu_unavailable_reason(); !why.empty())
      tk_test::skip(why);
    if (argc > 1 && std::string(argv[1]) == "--matmul")
      return matmul_main(target, false);
    if (argc > 1 && std::string(argv[1]) == "--matmul-descriptor")
      return matmul_main(target, true);
    if (argc > 1 && std::string(argv[1]) == "--matmul-padded")
      return matmul_padded_main();
    if (argc > 1 && std::string(argv[1]) == "--attention")
      return attention_main(target);
    if (argc > 1 && std::string(argv[1]) == "--w4a16")
      return w4a16_main();
    if (argc > 1 && std::string(argv[1]) == "--sampling")
      return sampling_main();
    if (argc > 1 && std::string(argv[1]) == "--launch") {
      // The launch overhead alone, three times.
      const std::size_t bytes = 4096 * sizeof(float);
      CUdeviceptr a = alloc(bytes), b = alloc(bytes), out = alloc(bytes);
      for (int run = 0; run < 3; ++run)
        bench_launch_overhead(target, out, a, b);
      for (CUdeviceptr p : {a, b, out})
        cu.cuMemFree(p);
      return 0;
    }
    if (argc > 1 && std::string(argv[1]) == "--cold-compile") {
      bench_cold(self_exe(argv[0]));
      return 0;
    }
    std::fprintf(stderr, "target %s\n", target.c_str());
    std::fprintf(stderr, "| bench | shape | impl | ms | GB/s | of copy | config | check\n");

    // Four 1 GiB f32 buffers; the first 8 MiB chunk of each input is random and repeated.
    const std::size_t chunk_floats = std::size_t(1) << 21;
    const auto ca = random_chunk<float>(chunk_floats, -4, 4, 1),
               cb = random_chunk<float>(chunk_floats, -4, 4, 2),
               cc = random_chunk<float>(chunk_floats, -4, 4, 3);
    CUdeviceptr a = alloc(gib), b = alloc(gib), c = alloc(gib), out = alloc(gib);
    fill(a, gib, ca), fill(b, gib, cb), fill(c, gib, cc);
    require(cu.cuMemsetD8(out, 0xff, gib), "cuMemsetD8");

    bench_copy(a, out);
    bench_vector_add(out, a, b, ca, cb);
    bench_fused_chain(out, a, b, c, ca, cb, cc);
    bench_softmax(out, a, chunk_floats);
    {
      const auto cx = random_chunk<half>(std::size_t(1) << 22, -4, 6, 4); // 8 MiB of f16
      fill(c, gib / 2, cx);
      bench_layernorm(out, c, cx);
    }
    bench_launch_overhead(target, out, a, b);
    for (CUdeviceptr p : {a, b, c, out})
      cu.cuMemFree(p);
    bench_cold(self_exe(argv[0]));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_gpu failed: %s\n", e.what());
    return 1;
  }
  return 0;
}

/// @file tutorials.cpp
/// Triton's tutorials, TileKit's side of the benchmark: each tutorial's kernels from
/// examples/kernels/ on the cases bench/tutorials.py times Triton's own tutorial kernels on,
/// printed as one JSON line per case in the same schema, so that bench/compare.py --tutorials
/// puts them side by side:
///   {"tutorial": "01-vector-add", "case": "n=1048576", "impl": "tilekit", "ms": ...,
///    "metric": "GB/s", "value": ..., "config": "...", "check": "-"}
/// Timing as Triton's do_bench: tk::do_bench (L2 cleared before each run), the median; tutorial
/// 11 through tk::do_bench_cudagraph, as the tutorial times it. Where a tutorial autotunes, the
/// TileKit kernel is autotuned too (tk::autotune) or the best of a few configs is reported.
///
/// Usage: bench_tutorials [--only 03,06]   (on a GPU machine; bench/README.md)
#include "kernels/attention.hpp"
#include "kernels/attention_backward.hpp"
#include "kernels/block_scaled_matmul.hpp"
#include "kernels/dropout.hpp"
#include "kernels/extern_functions.hpp"
#include "kernels/grouped_matmul.hpp"
#include "kernels/layernorm.hpp"
#include "kernels/layernorm_backward.hpp"
#include "kernels/matmul.hpp"
#include "kernels/softmax.hpp"
#include "kernels/vector_add.hpp"

#include <tk/tk.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

using tk::half;

std::string only; ///< --only: the tutorials to run ("03,06"), empty for all

bool selected(const char *tutorial) {
  return only.empty() || only.find(std::string(tutorial, 2)) != std::string::npos;
}

/// One result line. `work` is bytes (GB/s) or floating-point operations (TFLOP/s).
void emit(const char *tutorial, const std::string &what, double ms, const char *metric, double work,
          const std::string &config = "") {
  const double value = std::strcmp(metric, "GB/s") == 0 ? work / ms / 1e6 : work / ms / 1e9;
  std::printf("{\"tutorial\": \"%s\", \"case\": \"%s\", \"impl\": \"tilekit\", \"ms\": %.5f, "
              "\"metric\": \"%s\", \"value\": %.2f, \"config\": \"%s\", \"check\": \"-\"}\n",
              tutorial, what.c_str(), ms, metric, value, config.c_str());
  std::fflush(stdout);
}

void emit_failure(const char *tutorial, const std::string &what, const std::string &why) {
  std::string note;
  for (char c : why)
    note += c == '"' || c == '\\' ? '\'' : c == '\n' ? ' ' : c;
  std::printf("{\"tutorial\": \"%s\", \"case\": \"%s\", \"impl\": \"tilekit\", \"ms\": null, "
              "\"note\": \"%s\"}\n",
              tutorial, what.c_str(), note.c_str());
  std::fflush(stdout);
}

/// The median of tk::do_bench's runs of `run`, as Triton's do_bench with quantiles [0.5].
double median_ms(const std::function<void()> &run) {
  run(); // compiles (and autotunes) outside the timing
  tk::synchronize();
  return tk::do_bench(run, {}).median;
}

/// Runs one case, reporting a failure instead of stopping the others.
void guarded(const char *tutorial, const std::string &what, const std::function<void()> &body) {
  try {
    body();
  } catch (const std::exception &e) {
    emit_failure(tutorial, what, e.what());
  }
}

template <class T> tk::device_buffer<T> random_buffer(std::size_t n, float lo, float hi) {
  std::vector<T> host(n);
  std::uint64_t state = 0x9E3779B97F4A7C15ull ^ n;
  for (T &v : host) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    v = T(lo + (hi - lo) * float(state >> 40) * 0x1p-24f);
  }
  return tk::device_buffer<T>(host);
}

void vector_add() {
  for (const int n : {1 << 20, 1 << 24, 1 << 27}) {
    const std::string what = "n=" + std::to_string(n);
    guarded("01-vector-add", what, [&] {
      auto x = random_buffer<float>(std::size_t(n), 0, 1),
           y = random_buffer<float>(std::size_t(n), 0, 1);
      tk::device_buffer<float> out(static_cast<std::size_t>(n));
      const double ms = median_ms([&] {
        examples::vector_add.launch(tk::grid(tk::cdiv(n, 1024)), out.data(), x.data(), y.data(), n,
                                    tk::constant(1024));
      });
      emit("01-vector-add", what, ms, "GB/s", 12.0 * n, "BLOCK=1024");
    });
  }
}

void fused_softmax() {
  const int M = 4096;
  for (const int N : {1024, 4096, 8192}) {
    const std::string what = "4096x" + std::to_string(N);
    guarded("02-fused-softmax", what, [&] {
      auto x = random_buffer<float>(std::size_t(M) * N, -2, 2);
      tk::device_buffer<float> out(std::size_t(M) * N);
      const double ms = median_ms([&] {
        examples::softmax_tuned.launch(tk::grid(M), out.data(), x.data(), N, N,
                                       tk::constant(int(tk::next_pow2(N))));
      });
      emit("02-fused-softmax", what, ms, "GB/s", 2.0 * M * N * 4, "autotuned warps");
    });
  }
}

void matrix_multiplication() {
  struct mm_case {
    int n;
    examples::activation act;
  };
  for (const mm_case c :
       {mm_case{1024, examples::activation::none}, mm_case{4096, examples::activation::none},
        mm_case{4096, examples::activation::leaky_relu}}) {
    const int n = c.n;
    const std::string what = std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n) +
                             (c.act == examples::activation::leaky_relu ? " leaky_relu" : "");
    guarded("03-matrix-multiplication", what, [&] {
      auto a = random_buffer<half>(std::size_t(n) * n, -1, 1),
           b = random_buffer<half>(std::size_t(n) * n, -1, 1);
      tk::device_buffer<half> out(std::size_t(n) * n);
      const double ms = median_ms([&] {
        examples::matmul_activation_tuned.launch(
            [&](int bm, int bn, auto...) { return tk::grid(tk::cdiv(n, bm) * tk::cdiv(n, bn)); },
            out.data(), a.data(), b.data(), n, n, n, n, 1, n, 1, n, 1, tk::tuned<int>("BLOCK_M"),
            tk::tuned<int>("BLOCK_N"), tk::tuned<int>("BLOCK_K"), tk::tuned<int>("GROUP_M"),
            tk::constant(c.act));
      });
      emit("03-matrix-multiplication", what, ms, "TFLOP/s", 2.0 * n * n * double(n),
           "autotuned (the tutorial's 8 configs)");
    });
  }
}

void low_memory_dropout() {
  const int n = 1 << 24;
  guarded("04-low-memory-dropout", "n=16777216 seeded", [&] {
    auto x = random_buffer<float>(std::size_t(n), -1, 1);
    tk::device_buffer<float> out(static_cast<std::size_t>(n));
    const double ms = median_ms([&] {
      examples::dropout_forward.launch(tk::grid(tk::cdiv(n, 1024)), out.data(), x.data(), n, 0.5f,
                                       std::int64_t(123), tk::constant(1024));
    });
    emit("04-low-memory-dropout", "n=16777216 seeded", ms, "GB/s", 8.0 * n, "BLOCK=1024");
  });
}

void layer_norm() {
  const int M = 4096;
  for (const int N : {1024, 4096, 8192}) {
    const std::string size = "4096x" + std::to_string(N);
    auto x = random_buffer<half>(std::size_t(M) * N, -2, 2),
         dy = random_buffer<half>(std::size_t(M) * N, -1, 1);
    auto w = random_buffer<half>(std::size_t(N), 0.5, 1.5),
         b = random_buffer<half>(std::size_t(N), -0.5, 0.5);
    tk::device_buffer<half> y(std::size_t(M) * N), dx(std::size_t(M) * N),
        dw(static_cast<std::size_t>(N)), db(static_cast<std::size_t>(N));
    tk::device_buffer<float> mean(static_cast<std::size_t>(M)), rstd(static_cast<std::size_t>(M));
    const auto forward = [&] {
      examples::layernorm_tuned.launch(tk::grid(M), y.data(), x.data(), w.data(), b.data(),
                                       mean.data(), rstd.data(), N, N, 1e-5f,
                                       tk::tuned<int>("BLOCK"));
    };
    guarded("05-layer-norm", size + " forward", [&] {
      emit("05-layer-norm", size + " forward", median_ms(forward), "GB/s", 2.0 * M * N * 2,
           "autotuned BLOCK");
    });
    guarded("05-layer-norm", size + " backward", [&] {
      // The tutorial's groups of rows, and its zeroed locks and partial sums in every run.
      const int group = N <= 1024 ? 256 : N <= 4096 ? 128 : 96;
      tk::device_buffer<std::int32_t> locks(2 * std::size_t(group));
      tk::device_buffer<half> partial_dw(std::size_t(group) * N),
          partial_db(std::size_t(group) * N);
      forward();
      const int block = int(tk::next_pow2(N));
      const tk::launch_options options{.num_warps = std::min(std::max(block * 2 / 256, 1), 8)};
      const double ms = median_ms([&] {
        locks.fill_bytes(0);
        partial_dw.fill_bytes(0);
        partial_db.fill_bytes(0);
        examples::layernorm_backward_dx.launch(
            tk::grid(M), options, dx.data(), dy.data(), partial_dw.data(), partial_db.data(),
            x.data(), w.data(), std::as_const(mean).data(), std::as_const(rstd).data(),
            locks.data(), N, N, tk::constant(group), tk::constant(block));
        examples::layernorm_backward_dwdb.launch(tk::grid(tk::cdiv(N, 128)), partial_dw.data(),
                                                 partial_db.data(), dw.data(), db.data(), group, N,
                                                 tk::constant(32), tk::constant(128));
      });
      emit("05-layer-norm", size + " backward", ms, "GB/s", 3.0 * M * N * 2,
           "GROUP=" + std::to_string(group));
    });
  }
}

void fused_attention() {
  const int B = 4, H = 32, S = 4096;
  for (const int D : {64, 128})
    for (const bool causal : {false, true}) {
      const std::string base = "D=" + std::to_string(D) + (causal ? " causal" : " full");
      const std::size_t n = std::size_t(B) * H * S * D;
      auto q = random_buffer<half>(n, -1, 1), k = random_buffer<half>(n, -1, 1),
           v = random_buffer<half>(n, -1, 1), d_o = random_buffer<half>(n, -1, 1);
      tk::device_buffer<half> o(n), dq(n), dk(n), dv(n);
      tk::device_buffer<float> lse(std::size_t(B) * H * S), delta(std::size_t(B) * H * S);
      const float sm_scale = 1.0f / std::sqrt(float(D));
      const double flops = 2.0 * 2.0 * B * H * double(S) * S * D * (causal ? 0.5 : 1.0);
      guarded("06-fused-attention", base + " fwd", [&] {
        // Autotuned over the tutorial's configurations (TK_PRINT_AUTOTUNING=1 shows the table).
        const double ms = median_ms([&] {
          examples::attention_descriptor_tuned.launch(
              [&](const tk::launch_view &meta) {
                return tk::grid(tk::cdiv(S, meta.constant<int>("BLOCK_M")), B * H);
              },
              {}, o.data(), q.data(), k.data(), v.data(), sm_scale, S, B * H * S, tk::constant(D),
              tk::tuned<int>("BLOCK_M"), tk::tuned<int>("BLOCK_N"), tk::constant(causal),
              tk::heuristic<bool>("EVEN_N"));
        });
        emit("06-fused-attention", base + " fwd", ms, "TFLOP/s", flops, "descriptors, autotuned");
      });
      guarded("06-fused-attention", base + " bwd", [&] {
        examples::attention_forward_lse.launch(
            tk::grid(tk::cdiv(S, 128), B * H), {.num_warps = 8}, o.data(), lse.data(), q.data(),
            k.data(), v.data(), sm_scale, S, tk::constant(D), tk::constant(128), tk::constant(64),
            tk::constant(causal), tk::constant(true));
        const int m1 = D == 64 ? 32 : 64, n1 = 128;
        const tk::launch_options options{.num_warps = D == 64 ? 4 : 8};
        const double ms = median_ms([&] {
          examples::attention_backward_preprocess.launch(tk::grid(tk::cdiv(S, 128), B * H),
                                                         delta.data(), o.data(), d_o.data(), S,
                                                         tk::constant(D), tk::constant(128));
          examples::attention_backward.launch(
              tk::grid(S / n1, B * H), options, dq.data(), dk.data(), dv.data(), q.data(), k.data(),
              v.data(), d_o.data(), std::as_const(lse).data(), std::as_const(delta).data(),
              sm_scale, S, tk::constant(D), tk::constant(m1), tk::constant(n1), tk::constant(n1),
              tk::constant(m1), tk::constant(causal));
        });
        emit("06-fused-attention", base + " bwd", ms, "TFLOP/s", 2.5 * flops,
             std::to_string(m1) + "/" + std::to_string(n1) + " w" +
                 std::to_string(options.num_warps));
      });
    }
}

void extern_functions() {
  const int n = 1 << 24;
  guarded("07-extern-functions", "n=16777216 asin", [&] {
    auto x = random_buffer<float>(std::size_t(n), -1, 1);
    tk::device_buffer<float> y(static_cast<std::size_t>(n));
    const double ms = median_ms([&] {
      examples::asin_kernel.launch(tk::grid(tk::cdiv(n, 1024)), y.data(), x.data(), n,
                                   tk::constant(1024));
    });
    emit("07-extern-functions", "n=16777216 asin", ms, "GB/s", 8.0 * n, "BLOCK=1024");
  });
}

void grouped_gemm() {
  struct gg_config {
    int bm, bn, bk, warps;
  };
  for (const int N : {512, 1024, 2048}) {
    const std::string what =
        "4x" + std::to_string(N) + "x" + std::to_string(N) + "x" + std::to_string(N);
    guarded("08-grouped-gemm", what, [&] {
      const std::size_t count = std::size_t(N) * N;
      std::vector<tk::device_buffer<half>> a, b, c;
      std::vector<std::int64_t> pa, pb, pc;
      std::vector<std::int32_t> sizes, lds;
      for (int g = 0; g < 4; ++g) {
        a.push_back(random_buffer<half>(count, -1, 1));
        b.push_back(random_buffer<half>(count, -1, 1));
        c.emplace_back(count);
        pa.push_back(std::int64_t(reinterpret_cast<std::uintptr_t>(a.back().data())));
        pb.push_back(std::int64_t(reinterpret_cast<std::uintptr_t>(b.back().data())));
        pc.push_back(std::int64_t(reinterpret_cast<std::uintptr_t>(c.back().data())));
        sizes.insert(sizes.end(), {N, N, N});
        lds.insert(lds.end(), {N, N, N});
      }
      tk::device_buffer<std::int64_t> da(pa), db(pb), dc(pc);
      tk::device_buffer<std::int32_t> dsizes(sizes), dlds(lds);
      const int programs = tk::gpu_multiprocessor_count();
      double best = 1e30;
      std::string best_config;
      for (const gg_config g :
           {gg_config{128, 128, 32, 4}, gg_config{128, 128, 64, 8}, gg_config{64, 128, 32, 4}}) {
        const double ms = median_ms([&] {
          examples::grouped_matmul.launch(tk::grid(programs), {.num_warps = g.warps},
                                          std::as_const(da).data(), std::as_const(db).data(),
                                          std::as_const(dc).data(), std::as_const(dsizes).data(),
                                          std::as_const(dlds).data(), 4, tk::constant(g.bm),
                                          tk::constant(g.bn), tk::constant(g.bk));
        });
        if (ms < best) {
          best = ms;
          best_config = std::to_string(g.bm) + "x" + std::to_string(g.bn) + "x" +
                        std::to_string(g.bk) + " w" + std::to_string(g.warps);
        }
      }
      emit("08-grouped-gemm", what, best, "TFLOP/s", 4 * 2.0 * N * double(N) * N,
           best_config + ", " + std::to_string(programs) + " programs");
    });
  }
}

void persistent_matmul() {
  const int M = 8192, N = 8192, K = 4096;
  struct pm_config {
    int bm, bn, bk, warps, stages;
  };
  auto a = random_buffer<half>(std::size_t(M) * K, -1, 1);
  auto b = random_buffer<half>(std::size_t(K) * N, -1, 1); // K x N, or N x K for descriptors
  tk::device_buffer<half> c(std::size_t(M) * N);
  const int programs = tk::gpu_multiprocessor_count();
  for (const bool descriptor : {false, true}) {
    const std::string what =
        std::string("8192x8192x4096 ") + (descriptor ? "descriptor persistent" : "persistent");
    guarded("09-persistent-matmul", what, [&] {
      double best = 1e30;
      std::string best_config;
      for (const pm_config p : {pm_config{128, 256, 64, 8, 3}, pm_config{128, 128, 64, 8, 4},
                                pm_config{128, 128, 64, 4, 4}}) {
        const tk::launch_options options{.num_warps = p.warps, .num_stages = p.stages};
        const double ms = median_ms([&] {
          if (descriptor)
            examples::matmul_persistent.launch(
                tk::grid(programs), options, c.data(), a.data(), b.data(), M, N, K,
                tk::constant(p.bm), tk::constant(p.bn), tk::constant(p.bk), tk::constant(8));
          else
            examples::matmul_persistent_pointers.launch(
                tk::grid(programs), options, c.data(), a.data(), b.data(), M, N, K, K, 1, 1, K, N,
                1, tk::constant(p.bm), tk::constant(p.bn), tk::constant(p.bk), tk::constant(8),
                tk::constant(tk::input_precision::tf32));
        });
        if (ms < best) {
          best = ms;
          best_config = std::to_string(p.bm) + "x" + std::to_string(p.bn) + "x" +
                        std::to_string(p.bk) + " w" + std::to_string(p.warps) + " s" +
                        std::to_string(p.stages);
        }
      }
      emit("09-persistent-matmul", what, best, "TFLOP/s", 2.0 * M * double(N) * K,
           best_config + ", " + std::to_string(programs) + " programs");
    });
  }
}

void block_scaled_matmul() {
  const int n = 8192;
  // One size per format: MXFP8 (e4m3 with e8m0 scales per 32), NVFP4 (e2m1 with e4m3 per 16).
  const auto run = [&]<class S>(const char *format, tk::mx_format elements, std::size_t row_bytes,
                                std::size_t scales_per_row, float scale_lo, float scale_hi) {
    const std::string what = "8192x8192x8192 " + std::string(format);
    guarded("10-block-scaled-matmul", what, [&] {
      auto a = random_buffer<std::uint8_t>(std::size_t(n) * row_bytes, 0, 120);
      auto b = random_buffer<std::uint8_t>(std::size_t(n) * row_bytes, 0, 120);
      auto sa = random_buffer<S>(std::size_t(n) * scales_per_row, scale_lo, scale_hi);
      auto sb = random_buffer<S>(std::size_t(n) * scales_per_row, scale_lo, scale_hi);
      tk::device_buffer<float> c(std::size_t(n) * n);
      const double ms = median_ms([&] {
        examples::block_scaled_matmul.launch(
            tk::grid(tk::cdiv(n, 128) * tk::cdiv(n, 128)), {.num_warps = 8}, c.data(), a.data(),
            sa.data(), b.data(), sb.data(), n, n, n, tk::constant(elements), tk::constant(elements),
            tk::constant(128), tk::constant(128), tk::constant(128));
      });
      emit("10-block-scaled-matmul", what, ms, "TFLOP/s", 2.0 * n * double(n) * n,
           "128x128x128 w8");
    });
  };
  run.operator()<std::uint8_t>("mxfp8", tk::mx_format::e4m3, n, n / 32, 124, 130);
  run.operator()<tk::f8e4m3>("nvfp4", tk::mx_format::e2m1, n / 2, n / 16, 0.25f, 4);
}

void programmatic_dependent_launch() {
  for (const int n : {1 << 23, 1 << 25, 1 << 27})
    for (const bool pdl : {true, false}) {
      const std::string what = "n=" + std::to_string(n) + (pdl ? " pdl" : " plain");
      guarded("11-programmatic-dependent-launch", what, [&] {
        auto x = random_buffer<float>(std::size_t(n), 0, 1),
             y = random_buffer<float>(std::size_t(n), 0, 1);
        tk::device_buffer<float> out(static_cast<std::size_t>(n));
        auto add = [&](void *stream) {
          examples::vector_add_gdc.launch(
              tk::grid(tk::cdiv(n, 1024)), {.stream = stream, .launch_pdl = pdl}, out.data(),
              x.data(), y.data(), n, tk::constant(1024), tk::constant(pdl));
        };
        add(nullptr);
        tk::synchronize();
        const tk::bench_result r = tk::do_bench_cudagraph(add, {.rep_ms = 100});
        emit("11-programmatic-dependent-launch", what, r.median, "GB/s", 12.0 * n,
             "BLOCK=1024, CUDA graph");
      });
    }
}

} // namespace

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--only" && i + 1 < argc)
      only = argv[++i];
  if (!tk::gpu_unavailable_reason().empty()) {
    std::printf("SKIPPED: %s\n", tk::gpu_unavailable_reason().c_str());
    return 77;
  }
  std::printf("{\"meta\": {\"gpu\": \"%s\", \"impl\": \"tilekit\"}}\n", tk::gpu_name().c_str());
  const struct {
    const char *name;
    void (*run)();
  } tutorials[] = {{"01", vector_add},
                   {"02", fused_softmax},
                   {"03", matrix_multiplication},
                   {"04", low_memory_dropout},
                   {"05", layer_norm},
                   {"06", fused_attention},
                   {"07", extern_functions},
                   {"08", grouped_gemm},
                   {"09", persistent_matmul},
                   {"10", block_scaled_matmul},
                   {"11", programmatic_dependent_launch}};
  for (const auto &t : tutorials)
    if (selected(t.name))
      t.run();
  return 0;
}

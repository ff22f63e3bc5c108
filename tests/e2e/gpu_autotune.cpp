/// @file gpu_autotune.cpp
/// tk::autotune's Triton options on the GPU against the interpreter and the host:
///  - tk::heuristics inside tk::autotune: an EVEN_K row sum whose masking each config's BLOCK_K
///    decides, for K that is and is not a multiple of it;
///  - reset_to_zero with tk::atomic_add (the launch after tuning finds the sum once, not once per
///    timed launch), timed through a CUDA graph (use_cuda_graph) and with events;
///  - restore_value (the launch after tuning starts from the caller's data), where graphs fall
///    back to events;
///  - a heuristic without autotuning, and pruning by a perf model.
///
///   tk_e2e_gpu_autotune [--interpreter]
///
/// --interpreter: the interpreter side only (no GPU needed). Otherwise, without a usable GPU,
/// prints `SKIPPED: <reason>` and exits 77. Prints a line per check; exits 1 on any failure.
#include <tk/tk.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0, checks = 0;

void check(bool ok, const std::string &what) {
  ++checks;
  if (!ok)
    ++failures;
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
}

bool close(const std::vector<float> &a, const std::vector<float> &b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::fabs(a[i] - b[i]) > 1e-3f * (1 + std::fabs(b[i])))
      return false;
  return true;
}

// out[row] = sum of a[row * K + k] for k < K; EVEN_K drops the mask.
auto rowsum = tk::jit("rowsum", [](tk::ptr<float> out, tk::ptr<const float> a, tk::i32 K,
                                   tk::constant<int> BLOCK_K, tk::constant<bool> EVEN_K) {
  auto row = tk::program_id(0);
  auto offs = tk::arange(0, BLOCK_K);
  auto ptrs = a + row * K + offs;
  auto acc = tk::zeros<float>({BLOCK_K});
  tk::for_range(0, K, BLOCK_K, [&](tk::i32 k) {
    if (EVEN_K)
      acc = acc + tk::load(ptrs);
    else
      acc = acc + tk::load(ptrs, offs + k < K, 0.f);
    ptrs += BLOCK_K;
  });
  tk::store(out + row, tk::sum(acc, 0));
});

// out[0] += the sum of in[0, n), one atomic per program instance.
auto accumulate = tk::jit("accumulate", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n,
                                           tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  tk::atomic_add(out, tk::sum(tk::load(in + offs, offs < n, 0.f), 0));
});

bool even_k(const tk::launch_view &a) { return a.arg<int>(2) % a.constant<int>("BLOCK_K") == 0; }

std::vector<tk::config> block_configs(const char *name) {
  return {{{{name, 16}}, 1}, {{{name, 32}}, 2}, {{{name, 64}}, 4}, {{{name, 128}}, 4}};
}

void run_all(bool gpu) {
  const tk::launch_options where{.backend = gpu ? tk::backend::gpu : tk::backend::interpreter};
  const char *on = gpu ? "GPU" : "interpreter";
  // The interpreter tunes only with a custom bench: one that launches twice, so that
  // reset_to_zero and restore_value matter there too.
  const auto with_bench = [&](tk::autotune_options o) {
    if (!gpu)
      o.bench = [](const tk::config &c, auto launch) {
        launch();
        launch();
        return double(c.num_warps);
      };
    return o;
  };
  // Host memory for the interpreter; device memory on the GPU.
  const auto buffer = [&](const std::vector<float> &host) {
    return tk::device_buffer<float>(host);
  };

  for (const bool graph : {false, true}) {
    const std::string how = std::string(on) + (graph ? ", CUDA graph" : ", events");
    // Heuristics in a tuned kernel.
    auto tuned = tk::autotune(tk::heuristics(rowsum, {{"EVEN_K", even_k}}),
                              with_bench({.configs = block_configs("BLOCK_K"),
                                          .key = {2},
                                          .warmup_ms = 2,
                                          .repeat_ms = 5,
                                          .use_cuda_graph = graph}));
    for (const int K : {256, 1000}) {
      const int rows = 64;
      std::vector<float> a(std::size_t(rows * K)), want(std::size_t(rows), 0.f);
      for (int r = 0; r < rows; ++r)
        for (int k = 0; k < K; ++k) {
          a[std::size_t(r * K + k)] = float((r + k) % 5) - 2.f;
          want[std::size_t(r)] += a[std::size_t(r * K + k)];
        }
      tk::device_buffer<float> da = buffer(a), dout = buffer(std::vector<float>(rows, -1.f));
      tuned.launch(tk::grid(rows), where, dout, da, K, tk::tuned<int>("BLOCK_K"),
                   tk::heuristic<bool>("EVEN_K"));
      check(close(dout.to_host(), want),
            "heuristics EVEN_K in a tuned row sum, K = " + std::to_string(K) + " (" + how + ")");
    }

    // reset_to_zero around an accumulating kernel.
    const int n = 100000;
    std::vector<float> in(static_cast<std::size_t>(n));
    double total = 0;
    for (int i = 0; i < n; ++i)
      total += in[std::size_t(i)] = float(i % 3);
    tk::device_buffer<float> din = buffer(in);
    const auto grid = [&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); };
    {
      auto zeroing = tk::autotune(accumulate, with_bench({.configs = block_configs("BLOCK"),
                                                          .key = {2},
                                                          .warmup_ms = 2,
                                                          .repeat_ms = 5,
                                                          .reset_to_zero = {0},
                                                          .use_cuda_graph = graph}));
      tk::device_buffer<float> out = buffer({123.f});
      zeroing.launch(grid, where, out, din, n, tk::tuned<int>("BLOCK"));
      check(close(out.to_host(), {float(total)}),
            "reset_to_zero: the launch after tuning adds once (" + how + ")");
      zeroing.launch(grid, where, out, din, n, tk::tuned<int>("BLOCK"));
      check(close(out.to_host(), {float(2 * total)}), "reset_to_zero: tuned once (" + how + ")");
    }
    {
      auto restoring = tk::autotune(accumulate, with_bench({.configs = block_configs("BLOCK"),
                                                            .key = {2},
                                                            .warmup_ms = 2,
                                                            .repeat_ms = 5,
                                                            .restore_value = {0},
                                                            .use_cuda_graph = graph}));
      tk::device_buffer<float> out = buffer({123.f});
      restoring.launch(grid, where, out, din, n, tk::tuned<int>("BLOCK"));
      check(close(out.to_host(), {float(123 + total)}),
            "restore_value: the launch after tuning starts from the caller's data (" + how + ")");
    }
  }

  // A heuristic without autotuning, and a perf model keeping one config.
  {
    const int rows = 8, K = 300;
    std::vector<float> a(std::size_t(rows * K), 1.f);
    tk::device_buffer<float> da = buffer(a), dout = buffer(std::vector<float>(rows, 0.f));
    auto plain = tk::heuristics(
        rowsum,
        {{"BLOCK_K", [](const tk::launch_view &v) { return v.arg<int>(2) > 256 ? 64 : 32; }},
         {"EVEN_K", even_k}});
    plain.launch(tk::grid(rows), where, dout, da, K, tk::heuristic<int>("BLOCK_K"),
                 tk::heuristic<bool>("EVEN_K"));
    check(close(dout.to_host(), std::vector<float>(rows, float(K))),
          std::string("heuristics alone (") + on + ")");
    auto modelled = tk::autotune(
        accumulate, {.configs = block_configs("BLOCK"),
                     .prune_configs_by = {
                         .perf_model = [](const tk::config &c,
                                          const tk::launch_view &) { return double(c.num_warps); },
                         .top_k = 1}});
    tk::device_buffer<float> out = buffer({0.f}), ones = buffer(std::vector<float>(1000, 1.f));
    modelled.launch([](int BLOCK) { return tk::grid(tk::cdiv(1000, BLOCK)); }, where, out, ones,
                    1000, tk::tuned<int>("BLOCK"));
    check(close(out.to_host(), {1000.f}), std::string("perf model, top_k 1 (") + on + ")");
  }
}

} // namespace

int main(int argc, char **argv) {
  const bool interpreter_only = argc > 1 && std::strcmp(argv[1], "--interpreter") == 0;
  if (interpreter_only) {
    run_all(false);
    std::printf("%d failure(s) in %d checks on the interpreter\n", failures, checks);
    return failures ? 1 : 0;
  }
  if (const std::string why = tk::gpu_unavailable_reason(); !why.empty()) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return 77;
  }
  const std::string gpu = tk::gpu_name();
  std::printf("running on %s\n", gpu.c_str());
  run_all(true);
  std::printf("%d failure(s) in %d checks on %s\n", failures, checks, gpu.c_str());
  return failures ? 1 : 0;
}

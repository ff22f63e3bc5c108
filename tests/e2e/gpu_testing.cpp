/// @file gpu_testing.cpp
/// tk::event, tk::synchronize, tk::do_bench and tk::do_bench_cudagraph (tk/testing.hpp) on a GPU:
/// events measure a vector add, synchronize waits for it, do_bench gives sane statistics for a
/// memory-bound kernel, do_bench_cudagraph runs, and a short kernel is timed both ways (printed,
/// for docs/benchmarking.md). The bounds are loose sanity checks, not performance targets.
///
///   tk_e2e_gpu_testing
///
/// Without a usable GPU, prints `SKIPPED: <reason>` and exits 77 (CTest's skip). Prints a line
/// per check, `ok  ` or `FAIL`; exits 1 on any failure.
#include "kernels/vector_add.hpp"

#include <tk/tk.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

int failures = 0, checks = 0;

void check(bool ok, const std::string &what) {
  ++checks;
  failures += !ok;
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
}

constexpr int block = 1024;

/// out = x + y over n floats on `stream`.
void add(tk::device_buffer<float> &out, const tk::device_buffer<float> &x,
         const tk::device_buffer<float> &y, int n, void *stream = nullptr) {
  examples::vector_add.launch(tk::grid(tk::cdiv(n, block)), {.stream = stream}, out.data(),
                              x.data(), y.data(), n, tk::constant(block));
}

void run() {
  const int n = 1 << 26; // 256 MiB per buffer: far beyond any L2
  std::vector<float> hx(std::size_t(n), 1.5f), hy(std::size_t(n), 2.0f);
  tk::device_buffer<float> x(hx), y(hy), out{std::size_t(n)};
  out.fill_bytes(0);
  add(out, x, y, n); // compiles

  // Events measure a kernel; synchronize waits for it.
  tk::event start, end;
  start.record();
  add(out, x, y, n);
  end.record();
  tk::event after;
  add(out, x, y, n);
  after.record();
  tk::synchronize();
  check(after.query(), "tk::synchronize waited for the launch before it");
  const double ms = tk::elapsed_ms(start, end);
  const double gbps = 12.0 * n / ms * 1e-6;
  std::printf("     event pair: vector add of 2^26 floats in %.4f ms (%.0f GB/s)\n", ms, gbps);
  check(ms > 0 && gbps > 10 && gbps < 20000, "events measure a vector add at a plausible speed");
  const std::vector<float> got = out.to_host();
  check(got.front() == 3.5f && got.back() == 3.5f, "the timed kernel computed x + y");

  // An event used only for ordering: the default stream waits for it.
  {
    tk::event untimed({.timing = false});
    untimed.record();
    untimed.wait(nullptr);
    untimed.synchronize();
    check(untimed.query(), "an event without timing orders and completes");
  }

  // do_bench on a memory-bound kernel.
  const tk::bench_result r =
      tk::do_bench([&] { add(out, x, y, n); }, {.quantiles = {0.2, 0.5, 0.8}});
  std::printf("     do_bench: mean %.4f ms, median %.4f, min %.4f, max %.4f, stddev %.4f; %d "
              "warm-up and %d timed runs (estimate %.4f ms)\n",
              r.mean, r.median, r.min, r.max, r.stddev, r.warmup_runs, r.runs, r.estimate_ms);
  check(r.clock == tk::bench_clock::gpu_events, "do_bench timed with GPU events");
  check(r.runs >= 1 && int(r.times.size()) == r.runs, "do_bench reports every run");
  check(r.min > 0 && r.min <= r.median && r.median <= r.max && r.quantiles.size() == 3,
        "do_bench's statistics are ordered");
  check(r.quantiles[0] <= r.quantiles[1] && r.quantiles[1] <= r.quantiles[2],
        "do_bench's quantiles are ordered");
  const double bench_gbps = 12.0 * n / r.median * 1e-6;
  check(bench_gbps > 10 && bench_gbps < 20000, "do_bench's median is a plausible bandwidth (" +
                                                   std::to_string(int(bench_gbps)) + " GB/s)");

  // do_bench_cudagraph on the same kernel: the same time within a loose factor.
  const tk::bench_result g = tk::do_bench_cudagraph([&](void *s) { add(out, x, y, n, s); });
  std::printf("     do_bench_cudagraph: mean %.4f ms over %d launches of %d calls each\n", g.mean,
              g.runs, g.calls_per_run);
  check(g.clock == tk::bench_clock::gpu_events && g.runs == 10 && g.calls_per_run >= 1,
        "do_bench_cudagraph captured and launched a graph");
  check(g.mean > r.median / 3 && g.mean < r.median * 3,
        "do_bench_cudagraph agrees with do_bench on a long kernel (within 3x)");
  tk::synchronize();
  check(out.to_host().back() == 3.5f, "the captured kernels computed x + y");

  // A short kernel: 4096 floats, 4 programs. Here the host's launch overhead shows in do_bench
  // and not in do_bench_cudagraph (docs/benchmarking.md quotes these lines).
  const int small = 4096;
  for (bool clear : {true, false}) {
    const tk::bench_result s = tk::do_bench([&] { add(out, x, y, small); }, {.clear_l2 = clear});
    const tk::bench_result sg =
        tk::do_bench_cudagraph([&](void *st) { add(out, x, y, small, st); });
    std::printf("     short kernel (4096 floats), clear_l2 %-5s: do_bench mean %.2f us (median "
                "%.2f, min %.2f), do_bench_cudagraph mean %.2f us (%d calls a graph); ratio "
                "%.2f\n",
                clear ? "true" : "false", s.mean * 1e3, s.median * 1e3, s.min * 1e3, sg.mean * 1e3,
                sg.calls_per_run, s.mean / sg.mean);
    check(s.min > 0 && sg.mean > 0, "a short kernel is timed both ways");
  }

  // A sweep as a README shows it.
  tk::perf_report{
      .title = "vector add",
      .x_name = "n",
      .x_values = {1 << 12, 1 << 16, 1 << 20, 1 << 24},
      .providers = {{"do_bench",
                     [&](double v) { return tk::do_bench([&] { add(out, x, y, int(v)); }); }},
                    {"do_bench_cudagraph",
                     [&](double v) {
                       return tk::do_bench_cudagraph([&](void *s) { add(out, x, y, int(v), s); });
                     }}},
      .metric_name = "GB/s",
      .metric = [](double t, double v) { return 12 * v / t * 1e-6; }}
      .run();
  ++checks;
}

} // namespace

int main() {
  if (const std::string why = tk::gpu_unavailable_reason(); !why.empty()) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return 77;
  }
  const std::string gpu = tk::gpu_name();
  std::printf("running on %s\n", gpu.c_str());
  try {
    run();
  } catch (const std::exception &e) {
    ++failures;
    std::printf("FAIL %s\n", e.what());
  }
  std::printf("%d failure(s) in %d checks on %s\n", failures, checks, gpu.c_str());
  return failures ? 1 : 0;
}

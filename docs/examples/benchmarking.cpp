/// @file benchmarking.cpp
/// docs/benchmarking.md, docs/runtime.md and the README: tk::do_bench, tk::event,
/// tk::synchronize and tk::perf_report. Without a GPU they run on the interpreter (TK_INTERPRET=1
/// for the example's duration), timed with the host's clock.
#include "doc_examples.hpp"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace {

// [snippet:kernel]
// out = x + y, BLOCK elements per program instance.
auto add = tk::jit("add", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> y,
                             tk::i32 n, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offs < n;
  tk::store(out + offs, tk::load(x + offs, mask) + tk::load(y + offs, mask), mask);
});
// [/snippet]

} // namespace

DOC_EXAMPLE("benchmarking.do_bench") {
  doc::interpret_without_gpu scope;
  const int n = 1 << 16;
  // [snippet:do_bench]
  std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
  tk::device_buffer<float> x(hx), y(hy), out(hx.size());
  auto launch = [&] { add.launch(tk::grid(tk::cdiv(n, 1024)), out, x, y, n, tk::constant(1024)); };

  tk::bench_result r = tk::do_bench(launch, {.quantiles = {0.2, 0.8}});
  std::printf("add: %.4f ms mean, %.4f median (%.4f-%.4f), %.1f GB/s, %d runs, %s\n", r.ms,
              r.median, r.quantiles[0], r.quantiles[1], 12.0 * n / r.median * 1e-6, r.runs,
              tk::to_string(r.clock));
  // [/snippet]
  doc::check(r.runs >= 1 && r.min <= r.median && r.median <= r.max, "ordered statistics");
  doc::check(out.to_host()[n - 1] == 3.0f, "1 + 2 == 3");
}

DOC_EXAMPLE("benchmarking.event") {
  doc::interpret_without_gpu scope;
  const int n = 1 << 14;
  std::vector<float> hx(n, 1.0f);
  tk::device_buffer<float> x(hx), out(hx.size());
  // [snippet:event]
  tk::event start, stop; // CUDA events (host events on the interpreter)
  start.record();        // on the default stream; record(stream) for another
  add.launch(tk::grid(tk::cdiv(n, 1024)), out, x, x, n, tk::constant(1024));
  stop.record();
  tk::synchronize(); // torch.cuda.synchronize(): wait for the GPU
  std::printf("one launch: %.4f ms\n", tk::elapsed_ms(start, stop));
  // [/snippet]
  doc::check(stop.query(), "the launch is done");
}

DOC_EXAMPLE("benchmarking.perf_report") {
  doc::interpret_without_gpu scope;
  const int most = 1 << 16;
  tk::device_buffer<float> x(std::vector<float>(most, 1.0f)), out{std::size_t(most)};
  // [snippet:perf_report]
  auto with_block = [&](int block) {
    return [&, block](double n) {
      return tk::do_bench([&] {
        add.launch(tk::grid(tk::cdiv(int(n), block)), out, x, x, int(n), tk::constant(block));
      });
    };
  };
  tk::perf_table table = tk::perf_report{
      .title = "add",
      .x_name = "n",
      .x_values = {1 << 12, 1 << 16},
      .providers = {{"BLOCK 256", with_block(256)}, {"BLOCK 1024", with_block(1024)}},
      .metric_name = "GB/s",
      .metric = [](double ms, double n) {
        return 12 * n / ms * 1e-6;
      }}.run(); // prints the table; .csv_path = "add.csv" writes it too
  // [/snippet]
  doc::check(table.values.size() == 2 && table.values[0].size() == 2, "2 sizes x 2 providers");
}

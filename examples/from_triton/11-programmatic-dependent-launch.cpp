/// @file 11-programmatic-dependent-launch.cpp
/// Programmatic dependent launch, Triton's tutorial 11 (kernels/vector_add.hpp, vector_add_gdc):
/// a chain of vector additions, each reading the sum the one before it wrote, launched with
/// `launch_options::launch_pdl` so that each kernel may start while the previous one finishes;
/// tk::gdc_wait keeps its loads after that kernel's stores. Runs the chain with and without PDL
/// and checks both against plain C++. On the GPU it also times both, as the tutorial's benchmark
/// does (through a CUDA graph, where launch gaps show); sm_90 or newer overlaps the launches.
#include "example_support.hpp"
#include "kernels/vector_add.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace {

constexpr int block = 1024, links = 8;

/// sums[k + 1] = sums[k] + y for k < links, each addition one launch; sums[0] = x.
void chain(std::vector<example::array<float>> &sums, example::array<float> &y, int n,
           const tk::launch_options &options) {
  for (int k = 0; k < links; ++k)
    examples::vector_add_gdc.launch(tk::grid(tk::cdiv(n, block)), options,
                                    sums[std::size_t(k + 1)].arg(), sums[std::size_t(k)].input(),
                                    y.input(), n, tk::constant(block),
                                    tk::constant(options.launch_pdl));
}

} // namespace

int main() {
  const example::target where = example::choose_target();
  const bool gpu = where.backend == tk::backend::gpu;
  const int n = gpu ? 1 << 24 : 98432;

  example::uniform random(0.f, 1.f, 42);
  std::vector<std::vector<float>> host(links + 1, std::vector<float>(std::size_t(n)));
  std::vector<float> y(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    host[0][std::size_t(i)] = random(), y[std::size_t(i)] = random();
  example::array<float> y_arg(where, y);

  int status = 0;
  for (bool pdl : {false, true}) {
    std::vector<example::array<float>> sums;
    sums.reserve(host.size());
    sums.emplace_back(where, host[0]);
    for (int k = 1; k <= links; ++k)
      sums.emplace_back(where, host[std::size_t(k)], example::output);
    const tk::launch_options options{.backend = where.backend, .launch_pdl = pdl};
    const double ms = example::time_ms([&] {
      chain(sums, y_arg, n, options);
      for (int k = 1; k <= links; ++k)
        sums[std::size_t(k)].fetch();
    });

    // Each link adds y once more, rounded in f32 as the reference does.
    double max_error = 0;
    for (int i = 0; i < n; ++i) {
      float want = host[0][std::size_t(i)];
      for (int k = 1; k <= links; ++k) {
        want += y[std::size_t(i)];
        const double err = std::fabs(double(host[std::size_t(k)][std::size_t(i)]) - want);
        if (std::isnan(err) || err > max_error)
          max_error = err;
      }
    }
    std::string what = std::to_string(links) + " dependent additions of " + std::to_string(n) +
                       " f32" + (pdl ? ", launch_pdl" : ", plain launches");
    if (gpu) {
      // The tutorial's measure: GB/s of the chain replayed from a CUDA graph.
      const double chain_ms = tk::do_bench_cudagraph([&](void *stream) {
                                tk::launch_options on_stream = options;
                                on_stream.stream = stream; // the capturing stream
                                chain(sums, y_arg, n, on_stream);
                              }).ms;
      what += ", " + std::to_string(int(3.0 * 4 * n * links / (chain_ms * 1e6))) + " GB/s";
    }
    status |= example::report(pdl ? "programmatic_dependent_launch" : "dependent_launch", what,
                              where, max_error, 0.0, ms);
  }
  return status;
}

/// @file trace.cpp
/// bench_trace: what the front end costs. For each example kernel: tracing it and printing its `tk`
/// IR (the first stage of every cold compile), and running one program instance on the
/// interpreter. Medians of repeated runs; a measurement, never a test.
#include "kernels/layernorm.hpp"
#include "kernels/matmul.hpp"
#include "kernels/softmax.hpp"
#include "kernels/vector_add.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

template <class F> double median_us(int runs, F &&f) {
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                    .count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void row(const char *kernel, const char *shape, double trace_us, std::size_t ir_bytes,
         double program_us) {
  std::printf("| %-10s | %-28s | %9.1f | %8zu | %12.1f |\n", kernel, shape, trace_us, ir_bytes,
              program_us);
}

} // namespace

int main() {
  std::printf("| kernel     | shape                        | trace+print (us) | IR bytes | "
              "interpreter per program (us) |\n|---|---|---:|---:|---:|\n");
  {
    const int n = 1 << 16, block = 1024;
    std::vector<float> x(n, 1.f), y(n, 2.f), out(n);
    auto args = [&](auto &&call) {
      return call(out.data(), std::as_const(x).data(), std::as_const(y).data(), n, block);
    };
    std::size_t bytes = 0;
    const double t = median_us(
        50, [&] { bytes = args([&](auto... a) { return examples::vector_add.ir(a...); }).size(); });
    const double p = median_us(5,
                               [&] {
                                 args([&](auto... a) {
                                   examples::vector_add.interpret(tk::grid(n / block), a...);
                                 });
                               }) /
                     (n / block);
    row("vector_add", "2^16 f32, BLOCK 1024", t, bytes, p);
  }
  {
    const int rows = 64, cols = 1000, block = 1024;
    std::vector<float> in(std::size_t(rows) * cols, 0.5f), out(in.size());
    auto args = [&](auto &&call) {
      return call(out.data(), std::as_const(in).data(), cols, cols, block);
    };
    std::size_t bytes = 0;
    const double t = median_us(
        50, [&] { bytes = args([&](auto... a) { return examples::softmax.ir(a...); }).size(); });
    const double p =
        median_us(
            5,
            [&] { args([&](auto... a) { examples::softmax.interpret(tk::grid(rows), a...); }); }) /
        rows;
    row("softmax", "64x1000 f32, BLOCK 1024", t, bytes, p);
  }
  {
    const int rows = 64, cols = 1000, block = 256;
    std::vector<tk::half> x(std::size_t(rows) * cols, tk::half(0.5f)), y(x.size()), w(cols),
        b(cols);
    std::vector<float> mean(rows), rstd(rows);
    auto args = [&](auto &&call) {
      return call(y.data(), std::as_const(x).data(), std::as_const(w).data(),
                  std::as_const(b).data(), mean.data(), rstd.data(), cols, cols, 1e-5f,
                  tk::constant(block));
    };
    std::size_t bytes = 0;
    const double t = median_us(
        50, [&] { bytes = args([&](auto... a) { return examples::layernorm.ir(a...); }).size(); });
    const double p =
        median_us(5,
                  [&] {
                    args([&](auto... a) { examples::layernorm.interpret(tk::grid(rows), a...); });
                  }) /
        rows;
    row("layernorm", "64x1000 f16, BLOCK 256", t, bytes, p);
  }
  {
    const int M = 128, N = 128, K = 256, bm = 64, bn = 64, bk = 32;
    std::vector<tk::half> a(std::size_t(M) * K, tk::half(0.5f)),
        b(std::size_t(K) * N, tk::half(0.25f));
    std::vector<tk::half> c(std::size_t(M) * N);
    auto args = [&](auto &&call) {
      return call(c.data(), std::as_const(a).data(), std::as_const(b).data(), M, N, K, K, 1, N, 1,
                  N, 1, tk::constant(bm), tk::constant(bn), tk::constant(bk), tk::constant(4),
                  tk::constant(tk::input_precision::tf32));
    };
    std::size_t bytes = 0;
    const double t = median_us(
        50, [&] { bytes = args([&](auto... a) { return examples::matmul.ir(a...); }).size(); });
    const int programs = (M / bm) * (N / bn);
    const double p =
        median_us(3,
                  [&] {
                    args([&](auto... a) { examples::matmul.interpret(tk::grid(programs), a...); });
                  }) /
        programs;
    row("matmul", "128x128x256 f16, 64x64x32", t, bytes, p);
  }
}

/// @file 09-persistent-matmul.cpp
/// Persistent matmul, Triton's tutorial 09 (kernels/matmul.hpp): the same f16 product C = A x B
/// four ways, as the tutorial compares them: one program per tile through pointers (`matmul`);
/// persistent programs, one per multiprocessor, walking the tiles through pointers
/// (`matmul_persistent_pointers`); one program per tile through tensor descriptors
/// (`matmul_descriptor`: TMA on sm_90); and persistent through tensor descriptors
/// (`matmul_persistent`). Checks each C against a double reference.
#include "example_support.hpp"
#include "kernels/matmul.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

int main() {
  const example::target where = example::choose_target();
  const bool gpu = where.backend == tk::backend::gpu;
  const int M = gpu ? 1024 : 160, N = gpu ? 1024 : 136, K = gpu ? 512 : 128;
  const int block_m = gpu ? 128 : 64, block_n = gpu ? 128 : 64, block_k = gpu ? 64 : 32;
  const int group_m = 8;
  const int tiles = tk::cdiv(M, block_m) * tk::cdiv(N, block_n);
  const int programs = std::min(gpu ? tk::gpu_multiprocessor_count() : 3, tiles);

  example::uniform random(-1.f, 1.f, 9);
  std::vector<tk::half> a(std::size_t(M) * K), b(std::size_t(K) * N), bt(b.size());
  for (auto &v : a)
    v = tk::half(random());
  for (auto &v : b)
    v = tk::half(random());
  for (int k = 0; k < K; ++k) // B as N x K for the descriptor kernels (K contiguous)
    for (int j = 0; j < N; ++j)
      bt[std::size_t(j) * K + std::size_t(k)] = b[std::size_t(k) * N + std::size_t(j)];
  std::vector<double> want(std::size_t(M) * N, 0), scale(want.size(), 0);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        const double p = double(float(a[std::size_t(i) * K + std::size_t(k)])) *
                         double(float(bt[std::size_t(j) * K + std::size_t(k)]));
        want[std::size_t(i) * N + std::size_t(j)] += p;
        scale[std::size_t(i) * N + std::size_t(j)] += std::fabs(p);
      }

  example::array<tk::half> a_arg(where, a), b_arg(where, b), bt_arg(where, bt);
  int status = 0;
  const auto bm = tk::constant(block_m), bn = tk::constant(block_n), bk = tk::constant(block_k),
             gm = tk::constant(group_m);
  const auto tf32 = tk::constant(tk::input_precision::tf32);
  for (const char *form : {"matmul", "persistent", "descriptor", "persistent descriptor"}) {
    std::vector<tk::half> c(std::size_t(M) * N);
    example::array<tk::half> c_arg(where, c, example::output);
    const tk::launch_options options{.num_warps = gpu ? 8 : 4, .backend = where.backend};
    const std::string name = form;
    const double ms = example::time_ms([&] {
      if (name == "matmul")
        examples::matmul.launch(tk::grid(tiles), options, c_arg.arg(), a_arg.input(), b_arg.input(),
                                M, N, K, K, 1, N, 1, N, 1, bm, bn, bk, gm, tf32);
      else if (name == "persistent")
        examples::matmul_persistent_pointers.launch(tk::grid(programs), options, c_arg.arg(),
                                                    a_arg.input(), b_arg.input(), M, N, K, K, 1, N,
                                                    1, N, 1, bm, bn, bk, gm, tf32);
      else if (name == "descriptor")
        examples::matmul_descriptor.launch(tk::grid(tiles), options, c_arg.arg(), a_arg.input(),
                                           bt_arg.input(), M, N, K, bm, bn, bk, gm);
      else
        examples::matmul_persistent.launch(tk::grid(programs), options, c_arg.arg(), a_arg.input(),
                                           bt_arg.input(), M, N, K, bm, bn, bk, gm);
      c_arg.fetch();
    });
    // Errors relative to sum_k |a_ik b_kj| (the f16 rounding of C, 2^-11, dominates).
    double max_error = 0;
    for (std::size_t e = 0; e < c.size(); ++e) {
      const double err = std::fabs(double(float(c[e])) - want[e]) / scale[e];
      if (std::isnan(err) || err > max_error)
        max_error = err;
    }
    const bool persistent = name.starts_with("persistent");
    status |=
        example::report(("matmul (" + name + ")").c_str(),
                        std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) +
                            " f16, " + std::to_string(persistent ? programs : tiles) +
                            " programs for " + std::to_string(tiles) + " tiles",
                        where, max_error, std::ldexp(1.0, -10), ms);
  }
  return status;
}

/// @file 08-grouped-gemm.cpp
/// Grouped GEMM, Triton's tutorial 08 (kernels/grouped_matmul.hpp): four f16 products of
/// different shapes in one launch of a fixed number of programs, which walk all the products'
/// tiles; the operands' addresses are loaded from device arrays. Checks every C_g against a
/// double reference.
#include "example_support.hpp"
#include "kernels/grouped_matmul.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

int main() {
  const example::target where = example::choose_target();
  const bool gpu = where.backend == tk::backend::gpu;
  // The tutorial's group on the GPU (squares of 1024, 512, 256, 128); a smaller, ragged one on
  // the interpreter (N and K multiples of 8, as the kernel requires).
  struct shape {
    int m, n, k;
  };
  const std::vector<shape> shapes =
      gpu ? std::vector<shape>{{1024, 1024, 1024},
                               {512, 512, 512},
                               {256, 256, 256},
                               {128, 128, 128}}
          : std::vector<shape>{{96, 80, 64}, {64, 64, 32}, {40, 72, 48}, {33, 24, 40}};
  const int block_m = gpu ? 128 : 64, block_n = gpu ? 128 : 64, block_k = 32;
  const int programs = gpu ? tk::gpu_multiprocessor_count() : 3;
  const int group = int(shapes.size());

  example::uniform random(-1.f, 1.f, 8);
  std::vector<std::vector<tk::half>> a(group), b(group), c(group);
  std::vector<std::int32_t> sizes, lds;
  for (int g = 0; g < group; ++g) {
    const shape s = shapes[std::size_t(g)];
    a[std::size_t(g)].resize(std::size_t(s.m) * std::size_t(s.k));
    b[std::size_t(g)].resize(std::size_t(s.k) * std::size_t(s.n));
    c[std::size_t(g)].resize(std::size_t(s.m) * std::size_t(s.n));
    for (auto &v : a[std::size_t(g)])
      v = tk::half(random());
    for (auto &v : b[std::size_t(g)])
      v = tk::half(random());
    sizes.insert(sizes.end(), {s.m, s.n, s.k});
    lds.insert(lds.end(), {s.k, s.n, s.n});
  }
  std::vector<example::array<tk::half>> a_args, b_args, c_args;
  for (int g = 0; g < group; ++g) {
    a_args.emplace_back(where, a[std::size_t(g)]);
    b_args.emplace_back(where, b[std::size_t(g)]);
    c_args.emplace_back(where, c[std::size_t(g)], example::output);
  }
  // The operands' addresses, as the kernel loads them: device addresses on the GPU, host ones on
  // the interpreter.
  std::vector<std::int64_t> a_ptrs, b_ptrs, c_ptrs;
  for (int g = 0; g < group; ++g) {
    a_ptrs.push_back(std::int64_t(reinterpret_cast<std::uintptr_t>(a_args[std::size_t(g)].arg())));
    b_ptrs.push_back(std::int64_t(reinterpret_cast<std::uintptr_t>(b_args[std::size_t(g)].arg())));
    c_ptrs.push_back(std::int64_t(reinterpret_cast<std::uintptr_t>(c_args[std::size_t(g)].arg())));
  }
  example::array<std::int64_t> a_ptrs_arg(where, a_ptrs), b_ptrs_arg(where, b_ptrs),
      c_ptrs_arg(where, c_ptrs);
  example::array<std::int32_t> sizes_arg(where, sizes), lds_arg(where, lds);

  const double ms = example::time_ms([&] {
    examples::grouped_matmul.launch(
        tk::grid(programs), {.backend = where.backend}, a_ptrs_arg.input(), b_ptrs_arg.input(),
        c_ptrs_arg.input(), sizes_arg.input(), lds_arg.input(), group, tk::constant(block_m),
        tk::constant(block_n), tk::constant(block_k));
    for (auto &out : c_args)
      out.fetch();
  });

  // Errors relative to sum_k |a_ik b_kj| (the f16 rounding of C, 2^-11, dominates).
  double max_error = 0;
  std::string what;
  for (int g = 0; g < group; ++g) {
    const shape s = shapes[std::size_t(g)];
    const auto &A = a[std::size_t(g)], &B = b[std::size_t(g)], &C = c[std::size_t(g)];
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.n; ++j) {
        double sum = 0, scale = 0;
        for (int k = 0; k < s.k; ++k) {
          const double p = double(float(A[std::size_t(i) * std::size_t(s.k) + std::size_t(k)])) *
                           double(float(B[std::size_t(k) * std::size_t(s.n) + std::size_t(j)]));
          sum += p;
          scale += std::fabs(p);
        }
        const double err =
            std::fabs(double(float(C[std::size_t(i) * std::size_t(s.n) + std::size_t(j)])) - sum) /
            scale;
        if (std::isnan(err) || err > max_error)
          max_error = err;
      }
    what += (g ? ", " : "") + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
            std::to_string(s.k);
  }
  return example::report("grouped_gemm", what + " f16 on " + std::to_string(programs) + " programs",
                         where, max_error, std::ldexp(1.0, -10), ms);
}

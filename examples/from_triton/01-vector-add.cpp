/// @file 01-vector-add.cpp
/// Vector addition, Triton's tutorial 01: runs kernels/vector_add.hpp, each program instance
/// adding one block of elements, the last block masked because the length is not a multiple of the
/// block size, and checks the sum against plain C++.
#include "example_support.hpp"
#include "kernels/vector_add.hpp"

#include <cmath>
#include <vector>

int main() {
  const example::target where = example::choose_target();
  const int n = 98432, block = 1024;

  example::uniform random(-1.f, 1.f, 42);
  std::vector<float> x(n), y(n), out(n);
  for (int k = 0; k < n; ++k)
    x[std::size_t(k)] = random(), y[std::size_t(k)] = random();

  example::array<float> x_arg(where, x), y_arg(where, y), out_arg(where, out, example::output);
  const double ms = example::time_ms([&] {
    examples::vector_add.launch(tk::grid(tk::cdiv(n, block)), {.backend = where.backend},
                                out_arg.arg(), x_arg.arg(), y_arg.arg(), n, block);
    out_arg.fetch();
  });

  double max_error = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const double err = std::fabs(double(out[k]) - (double(x[k]) + double(y[k])));
    if (std::isnan(err) || err > max_error)
      max_error = err;
  }
  // One f32 rounding of a sum of magnitude < 2.
  return example::report("vector_add", std::to_string(n) + " f32", where, max_error, 1.2e-7, ms);
}

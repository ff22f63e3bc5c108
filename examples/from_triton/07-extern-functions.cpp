/// @file 07-extern-functions.cpp
/// Extern and math functions, Triton's tutorial 07 (kernels/extern_functions.hpp): asin through
/// libdevice, called by name as `tk::libdevice::asin`, and the user's own device function
/// `smoothstepf` from an LLVM library file (07-smoothstep.ll, or the path given as the first
/// argument) through `tk::extern_elementwise`, which the interpreter replaces by the host
/// function the kernel gives. Checks both against plain C++.
#include "example_support.hpp"
#include "kernels/extern_functions.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#ifndef TK_EXAMPLES_DIR
#define TK_EXAMPLES_DIR "examples"
#endif

int main(int argc, char **argv) {
  const example::target where = example::choose_target();
  examples::smoothstep_library =
      argc > 1 ? argv[1] : TK_EXAMPLES_DIR "/from_triton/07-smoothstep.ll";
  const int n = 98432, block = 1024;

  example::uniform random(-0.5f, 1.5f, 7); // around smoothstep's [0, 1]
  std::vector<float> x(n), asin_out(n), step_out(n), unit(n);
  for (int i = 0; i < n; ++i) {
    x[std::size_t(i)] = random();
    unit[std::size_t(i)] = x[std::size_t(i)] / 1.5f; // asin's domain [-1, 1]
  }
  example::array<float> x_arg(where, x), unit_arg(where, unit);
  example::array<float> asin_arg(where, asin_out, example::output);
  example::array<float> step_arg(where, step_out, example::output);
  const tk::launch_options options{.backend = where.backend};
  const tk::grid grid(tk::cdiv(n, block));
  const double ms = example::time_ms([&] {
    examples::asin_kernel.launch(grid, options, asin_arg.arg(), unit_arg.input(), n,
                                 tk::constant(block));
    examples::smoothstep_kernel.launch(grid, options, step_arg.arg(), x_arg.input(), n,
                                       tk::constant(block));
    asin_arg.fetch();
    step_arg.fetch();
  });

  // Errors in units of f32's epsilon relative to the result (at least 1): libdevice's asinf is
  // within 2 ulps (its documentation), smoothstepf rounds three times in f32.
  double asin_error = 0, step_error = 0;
  auto track = [](double &max_error, double got, double want) {
    const double err = std::fabs(got - want) / std::max(1.0, std::fabs(want)) / 0x1p-23;
    if (std::isnan(err) || err > max_error)
      max_error = err;
  };
  for (int i = 0; i < n; ++i) {
    track(asin_error, asin_out[std::size_t(i)], std::asin(double(unit[std::size_t(i)])));
    const double t = std::fmin(1.0, std::fmax(0.0, double(x[std::size_t(i)])));
    track(step_error, step_out[std::size_t(i)], t * t * (3 - 2 * t));
  }
  const std::string size = std::to_string(n) + " f32";
  const int status =
      example::report("libdevice.asin", size + " (error in ulps)", where, asin_error, 2.0, ms);
  return status |
         example::report("extern smoothstepf",
                         size + ", from " + examples::smoothstep_library + " (error in ulps)",
                         where, step_error, 3.0, ms);
}

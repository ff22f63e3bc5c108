/// @file interpreter_kernels.cpp
/// Interpreter numerics of whole kernels (vector add, fused softmax, layernorm forward, argmax,
/// cumsum) against plain C++ references, on fresh random inputs every run.
#include "interpreter_support.hpp"
#include "kernels/attention.hpp"
#include "kernels/layernorm.hpp"
#include "kernels/softmax.hpp"
#include "kernels/vector_add.hpp"

#include <algorithm>
#include <limits>

namespace {

// ---------------------------------------------------------------------------------------------
// Vector add (examples/kernels/vector_add.hpp)

TEST_CASE("interpreter: vector add with a size that is not a multiple of the block",
          "[interpreter][numerics]") {
  TK_TEST_RANDOM(gen);
  const int block = GENERATE(16, 64, 256);
  const int n = 1000 + int(gen() % 23); // never a multiple of the block
  CAPTURE(block, n);
  const auto x = tk_test::uniform(gen, std::size_t(n), -100, 100);
  const auto y = tk_test::uniform(gen, std::size_t(n), -100, 100);
  // The output is over-allocated to the whole last block: lanes past n must stay untouched.
  const auto padded = std::size_t(tk::cdiv(n, block) * block);
  const float sentinel = 12345.f;
  std::vector<float> out(padded, sentinel);
  tk_test::run(examples::vector_add, tk::grid(tk::cdiv(n, block)), out, x, y, n, block);
  std::vector<float> want(padded, sentinel);
  for (int k = 0; k < n; ++k)
    want[std::size_t(k)] = x[std::size_t(k)] + y[std::size_t(k)]; // f32 add rounds once, exactly
  TK_CHECK_EQUAL(out, want);
}

// ---------------------------------------------------------------------------------------------
// Fused softmax (the Triton tutorial's kernel, examples/kernels/softmax.hpp)

TEST_CASE("interpreter: fused softmax over rows of several widths", "[interpreter][numerics]") {
  TK_TEST_RANDOM(gen);
  const int cols = GENERATE(1, 7, 64, 100, 257);
  const int rows = 16;
  const int stride = cols + 3; // padding between rows must not be read or written
  CAPTURE(cols, rows, stride);
  const float sentinel = -7.f;
  auto in = tk_test::uniform(gen, std::size_t(rows * stride), -8, 8);
  std::vector<float> out(in.size(), sentinel);
  tk_test::run(examples::softmax, tk::grid(rows), out, in, stride, cols, int(tk::next_pow2(cols)));

  std::vector<double> want(in.size(), sentinel);
  for (int r = 0; r < rows; ++r) {
    const float *x = in.data() + r * stride;
    const double m = *std::max_element(x, x + cols);
    double s = 0;
    for (int c = 0; c < cols; ++c)
      s += std::exp(double(x[c]) - m);
    for (int c = 0; c < cols; ++c)
      want[std::size_t(r * stride + c)] = std::exp(double(x[c]) - m) / s;
  }
  // f32 exp, a tree sum of <= 512 terms and one division: a few ulps.
  TK_CHECK_CLOSE(out, want, 1e-7, 2e-6);
  for (int r = 0; r < rows; ++r) {
    double s = 0;
    for (int c = 0; c < cols; ++c)
      s += out[std::size_t(r * stride + c)];
    CHECK(s == Approx(1.0).epsilon(1e-5));
  }
}

// ---------------------------------------------------------------------------------------------
// Layernorm forward (the Triton tutorial's kernel, examples/kernels/layernorm.hpp): f32 math
// whatever the storage type, with the per-row mean and 1/std stored for the backward pass.

template <class T> void check_layernorm(std::mt19937_64 &gen, int rows, int cols, int block) {
  const int stride = cols + 5;
  const float eps = 1e-5f;
  auto x = tk_test::uniform<T>(gen, std::size_t(rows * stride), -3, 5);
  const auto w = tk_test::uniform(gen, std::size_t(cols), 0.5, 1.5);
  const auto b = tk_test::uniform(gen, std::size_t(cols), -1, 1);
  std::vector<T> y(x.size(), T(-99.f));
  std::vector<float> mean(static_cast<std::size_t>(rows)), rstd(static_cast<std::size_t>(rows));
  tk_test::run(examples::layernorm, tk::grid(rows), y, std::as_const(x), w, b, mean, rstd, stride,
               cols, eps, tk::constant<int>(block));

  std::vector<double> want_y(x.size(), -99.0), want_mean(static_cast<std::size_t>(rows)),
      want_rstd(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    const T *xr = x.data() + r * stride;
    double m = 0, v = 0;
    for (int c = 0; c < cols; ++c)
      m += double(float(xr[c]));
    m /= cols;
    for (int c = 0; c < cols; ++c)
      v += (double(float(xr[c])) - m) * (double(float(xr[c])) - m);
    v /= cols;
    const double rs = 1 / std::sqrt(v + double(eps));
    want_mean[std::size_t(r)] = m;
    want_rstd[std::size_t(r)] = rs;
    for (int c = 0; c < cols; ++c)
      want_y[std::size_t(r * stride + c)] =
          (double(float(xr[c])) - m) * rs * w[std::size_t(c)] + b[std::size_t(c)];
  }
  TK_CHECK_CLOSE(mean, want_mean, 1e-6, 1e-5);
  TK_CHECK_CLOSE(rstd, want_rstd, 0.0, 1e-5);
  // f32 math: ~1e-6 relative; an f16 result adds its own rounding, 2^-11 relative.
  const double rtol = std::is_same_v<T, tk::half> ? std::ldexp(1.0, -10) : 1e-5;
  TK_CHECK_CLOSE(y, want_y, 1e-5, rtol);
}

TEST_CASE("interpreter: layernorm forward, f32 and f16 input with f32 math",
          "[interpreter][numerics]") {
  TK_TEST_RANDOM(gen);
  SECTION("f32, row wider than the block (three chunks, masked tail)") {
    check_layernorm<float>(gen, 8, 100, 32);
  }
  SECTION("f32, one chunk") { check_layernorm<float>(gen, 4, 64, 64); }
  SECTION("f16 storage, f32 math") { check_layernorm<tk::half>(gen, 8, 77, 64); }
}

// ---------------------------------------------------------------------------------------------
// argmax / argmin per row, first index on ties

auto arg_rows =
    tk::jit("arg_rows", [](tk::ptr<std::int32_t> imax, tk::ptr<std::int32_t> imin,
                           tk::ptr<const float> in, tk::i32 n_cols, tk::constant<int> BLOCK) {
      auto row = tk::program_id(0);
      auto cols = tk::arange(0, BLOCK);
      auto mask = cols < n_cols;
      auto ptrs = in + row * n_cols + cols;
      tk::store(imax + row, tk::argmax(tk::load(ptrs, mask, -tk::inf<float>()), 0));
      tk::store(imin + row, tk::argmin(tk::load(ptrs, mask, tk::inf<float>()), 0));
    });

// The same on a 2-D block of rows, reducing along axis 1, for integer data.
auto arg_rows_2d =
    tk::jit("arg_rows_2d", [](tk::ptr<std::int32_t> imax, tk::ptr<const int> in, tk::i32 n_rows,
                              tk::i32 n_cols, tk::constant<int> BR, tk::constant<int> BC) {
      auto rows = tk::program_id(0) * BR + tk::arange(0, BR);
      auto cols = tk::arange(0, BC);
      auto mask = (rows(tk::_, tk::newaxis) < n_rows) & (cols(tk::newaxis, tk::_) < n_cols);
      auto x = tk::load(in + rows(tk::_, tk::newaxis) * n_cols + cols(tk::newaxis, tk::_), mask,
                        std::numeric_limits<int>::min());
      auto idx = tk::argmax(x, 1);
      static_assert(std::is_same_v<decltype(idx), tk::block<std::int32_t, 1>>);
      tk::store(imax + rows, idx, rows < n_rows);
    });

TEST_CASE("interpreter: argmax and argmin per row return the first index on ties",
          "[interpreter][numerics]") {
  TK_TEST_RANDOM(gen);
  const int rows = 24, cols = GENERATE(5, 32, 100);
  CAPTURE(cols);
  // Few distinct values, so every row has ties for its maximum and minimum.
  auto in = tk_test::integers<float>(gen, std::size_t(rows * cols), -3, 3);
  for (int c = 0; c < cols; ++c) // a row of equal values: both answers are 0
    in[std::size_t(c)] = 2.f;
  std::vector<std::int32_t> imax(std::size_t(rows), -1), imin(std::size_t(rows), -1);
  tk_test::run(arg_rows, tk::grid(rows), imax, imin, in, cols, int(tk::next_pow2(cols)));
  std::vector<std::int32_t> want_max(static_cast<std::size_t>(rows)),
      want_min(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    const float *x = in.data() + r * cols;
    want_max[std::size_t(r)] = std::int32_t(std::max_element(x, x + cols) - x); // first maximum
    want_min[std::size_t(r)] = std::int32_t(std::min_element(x, x + cols) - x);
  }
  TK_CHECK_EQUAL(imax, want_max);
  TK_CHECK_EQUAL(imin, want_min);

  const int n_rows = 13;
  auto ints = tk_test::integers<int>(gen, std::size_t(n_rows * cols), -2, 2);
  std::vector<std::int32_t> imax2(std::size_t(n_rows), -1), want2(static_cast<std::size_t>(n_rows));
  tk_test::run(arg_rows_2d, tk::grid(tk::cdiv(n_rows, 8)), imax2, ints, n_rows, cols,
               tk::constant<int>(8), tk::constant<int>(int(tk::next_pow2(cols))));
  for (int r = 0; r < n_rows; ++r) {
    const int *x = ints.data() + r * cols;
    want2[std::size_t(r)] = std::int32_t(std::max_element(x, x + cols) - x);
  }
  TK_CHECK_EQUAL(imax2, want2);
}

// ---------------------------------------------------------------------------------------------
// cumsum

auto cumsum_1d =
    tk::jit("cumsum_1d", [](tk::ptr<float> out_f, tk::ptr<std::int32_t> out_i,
                            tk::ptr<std::int32_t> out_rev, tk::ptr<const float> xf,
                            tk::ptr<const std::int8_t> xi, tk::i32 n, tk::constant<int> BLOCK) {
      auto offs = tk::arange(0, BLOCK);
      auto mask = offs < n;
      tk::store(out_f + offs, tk::cumsum(tk::load(xf + offs, mask), 0), mask);
      auto s = tk::cumsum(tk::load(xi + offs, mask), 0);
      static_assert(std::is_same_v<decltype(s), tk::block<std::int32_t, 1>>,
                    "cumsum of i8 accumulates in i32");
      tk::store(out_i + offs, s, mask);
      tk::store(out_rev + offs, tk::cumsum(tk::load(xi + offs, mask), 0, true), mask);
    });

auto cumsum_rows = tk::jit("cumsum_rows", [](tk::ptr<float> out1, tk::ptr<float> out0,
                                             tk::ptr<const float> x, tk::i32 n_rows, tk::i32 n_cols,
                                             tk::constant<int> BR, tk::constant<int> BC) {
  auto r = tk::arange(0, BR);
  auto c = tk::arange(0, BC);
  auto offs = r(tk::_, tk::newaxis) * n_cols + c(tk::newaxis, tk::_);
  auto mask = (r(tk::_, tk::newaxis) < n_rows) & (c(tk::newaxis, tk::_) < n_cols);
  auto v = tk::load(x + offs, mask);
  tk::store(out1 + offs, tk::cumsum(v, 1), mask);
  tk::store(out0 + offs, tk::cumsum(v, 0), mask);
});

TEST_CASE("interpreter: cumsum along axis 0 of 1-D and along both axes of 2-D blocks",
          "[interpreter][numerics]") {
  TK_TEST_RANDOM(gen);
  SECTION("1-D, f32 and i8 (accumulated in i32), forward and reverse") {
    const int n = 200;
    const auto xf = tk_test::uniform(gen, std::size_t(n), -1, 1);
    const auto xi = tk_test::integers<std::int8_t>(gen, std::size_t(n), 60, 127); // sums > 127
    std::vector<float> out_f(static_cast<std::size_t>(n));
    std::vector<std::int32_t> out_i(static_cast<std::size_t>(n)),
        out_rev(static_cast<std::size_t>(n));
    tk_test::run(cumsum_1d, tk::grid(1), out_f, out_i, out_rev, xf, xi, n, 256);
    std::vector<double> want_f(static_cast<std::size_t>(n));
    std::vector<std::int32_t> want_i(static_cast<std::size_t>(n)),
        want_rev(static_cast<std::size_t>(n));
    double sf = 0;
    std::int32_t si = 0, sr = 0;
    for (int k = 0; k < n; ++k) {
      want_f[std::size_t(k)] = sf += xf[std::size_t(k)];
      want_i[std::size_t(k)] = si += xi[std::size_t(k)];
      want_rev[std::size_t(n - 1 - k)] = sr += xi[std::size_t(n - 1 - k)];
    }
    TK_CHECK_CLOSE(out_f, want_f, 1e-5, 1e-5);
    TK_CHECK_EQUAL(out_i, want_i);
    TK_CHECK_EQUAL(out_rev, want_rev);
  }
  SECTION("2-D, along rows (axis 1) and along columns (axis 0)") {
    const int rows = 12, cols = 50;
    const auto x = tk_test::uniform(gen, std::size_t(rows * cols), -1, 1);
    std::vector<float> out1(x.size()), out0(x.size());
    tk_test::run(cumsum_rows, tk::grid(1), out1, out0, x, rows, cols, tk::constant<int>(16),
                 tk::constant<int>(64));
    std::vector<double> want1(x.size()), want0(x.size());
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const auto k = std::size_t(r * cols + c);
        want1[k] = x[k] + (c ? want1[k - 1] : 0.0);
        want0[k] = x[k] + (r ? want0[k - std::size_t(cols)] : 0.0);
      }
    TK_CHECK_CLOSE(out1, want1, 1e-5, 1e-5);
    TK_CHECK_CLOSE(out0, want0, 1e-5, 1e-5);
  }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Flash attention (examples/kernels/attention.hpp): its numerics are checked by the example
// (example.06-fused-attention.*); here, its launch contract's error.

TEST_CASE("attention: BLOCK_M not a multiple of BLOCK_N is an error at the kernel's check",
          "[interpreter][errors]") {
  std::vector<tk::half> o(64 * 64);
  const std::vector<tk::half> qkv(o.size(), tk::half(0.5f));
  try {
    tk_test::run(examples::attention, tk::grid(1, 1), o, qkv, qkv, qkv, 0.125f, 64,
                 tk::constant(64), tk::constant(16), tk::constant(32), tk::constant(false),
                 tk::constant(true));
    FAIL("expected a tk::error");
  } catch (const tk::error &e) {
    CHECK(e.message() == "attention: BLOCK_M (16) must be a multiple of BLOCK_N (32)");
    CHECK(std::string_view(e.where().file_name()).ends_with("kernels/attention.hpp"));
  }
}

TEST_CASE("attention_descriptor: BLOCK_M not a multiple of BLOCK_N is an error at the kernel's "
          "check",
          "[interpreter][errors]") {
  std::vector<tk::half> o(64 * 64);
  const std::vector<tk::half> qkv(o.size(), tk::half(0.5f));
  try {
    tk_test::run(examples::attention_descriptor, tk::grid(1, 1), o, qkv, qkv, qkv, 0.125f, 64, 64,
                 tk::constant(64), tk::constant(16), tk::constant(32), tk::constant(false),
                 tk::constant(true));
    FAIL("expected a tk::error");
  } catch (const tk::error &e) {
    CHECK(e.message() == "attention_descriptor: BLOCK_M (16) must be a multiple of BLOCK_N (32)");
    CHECK(std::string_view(e.where().file_name()).ends_with("kernels/attention.hpp"));
  }
}

TEST_CASE("kernel parameters: tk::ptr<const T> takes a T * beside auto parameters",
          "[interpreter][kernel]") {
  // With an `auto` parameter the launch arguments' types are the parameters' (float * here);
  // the lambda's tk::ptr<const float> then receives pointers to float, which convert.
  std::vector<float> out(16, 0.f), in(16);
  for (int i = 0; i < 16; ++i)
    in[std::size_t(i)] = float(i);
  auto copy = tk::jit("copy_auto", [](auto o, tk::ptr<const float> x) {
    auto offs = tk::arange(0, 16);
    tk::store(o + offs, tk::load(x + offs) * 2.0f);
  });
  copy.interpret(tk::grid(1), out.data(), in.data());
  for (int i = 0; i < 16; ++i)
    CHECK(out[std::size_t(i)] == 2.0f * float(i));
}

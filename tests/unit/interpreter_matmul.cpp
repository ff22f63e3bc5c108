/// @file interpreter_matmul.cpp
/// Interpreter numerics of a tiled matmul through tk::dot with a K loop (the Triton tutorial's
/// kernel, examples/kernels/matmul.hpp: grouped program ordering, wrapped row/column offsets,
/// masked K tail), for f16 inputs with f32 accumulation and f32 inputs in TF32 and IEEE precision,
/// against a double reference.
#include "interpreter_support.hpp"
#include "kernels/matmul.hpp"

namespace {

struct tiles {
  int bm, bn, bk, group_m;
};

/// A is M x K row-major; B is K x N, row-major or (`b_col_major`) column-major; C is M x N.
template <class In, class Out>
void check_matmul(std::mt19937_64 &gen, int M, int N, int K, tiles t, tk::input_precision prec,
                  bool b_col_major, double rtol) {
  INFO("M=" << M << " N=" << N << " K=" << K << " tiles " << t.bm << "x" << t.bn << "x" << t.bk
            << " group " << t.group_m << (b_col_major ? ", B column-major" : ""));
  const auto a = tk_test::uniform<In>(gen, std::size_t(M * K), -1, 1);
  const auto b = tk_test::uniform<In>(gen, std::size_t(K * N), -1, 1);
  const int sbk = b_col_major ? 1 : N, sbn = b_col_major ? K : 1;
  std::vector<Out> c(std::size_t(M * N), Out(-1234.f));
  const auto grid = tk::cdiv(M, t.bm) * tk::cdiv(N, t.bn);
  tk_test::run(examples::matmul, tk::grid(grid), c, a, b, M, N, K, K, 1, sbk, sbn, N, 1,
               tk::constant(t.bm), tk::constant(t.bn), tk::constant(t.bk), tk::constant(t.group_m),
               tk::constant(prec));

  // Errors scale with sum |a||b|, not with the (cancelling) result.
  std::vector<double> want(c.size()), scale(c.size());
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0, m = 0;
      for (int p = 0; p < K; ++p) {
        const double x = float(a[std::size_t(i * K + p)]),
                     y = float(b[std::size_t(p * sbk + j * sbn)]);
        s += x * y;
        m += std::fabs(x * y);
      }
      want[std::size_t(i * N + j)] = s;
      scale[std::size_t(i * N + j)] = m;
    }
  std::size_t bad = 0;
  double worst = 0;
  for (std::size_t k = 0; k < c.size(); ++k) {
    const double err = std::fabs(double(float(c[k])) - want[k]);
    const double tol = rtol * scale[k] +
                       (std::is_same_v<Out, tk::half> ? std::ldexp(std::fabs(want[k]), -11) : 0.0);
    worst = std::max(worst, err / (scale[k] + 1e-30));
    bad += !(err <= tol);
  }
  INFO("largest error relative to sum |a||b|: " << worst);
  CHECK(bad == 0);
}

constexpr tiles tile_combos[] = {
    {16, 16, 16, 1},   {32, 16, 64, 2}, {16, 128, 32, 4}, {64, 32, 16, 2},
    {128, 64, 128, 8}, {32, 32, 32, 4}, {16, 64, 128, 1},
};

TEST_CASE("interpreter: tiled matmul, f16 inputs with f32 accumulation",
          "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  // f32 accumulation per K tile: a few f32 roundings of partial sums.
  for (const tiles &t : tile_combos)
    check_matmul<tk::half, float>(gen, 70, 90, 100, t, tk::input_precision::tf32, false, 1e-6);
  SECTION("f16 output, B column-major") {
    check_matmul<tk::half, tk::half>(gen, 33, 65, 47, {32, 32, 16, 2}, tk::input_precision::tf32,
                                     true, 1e-6);
  }
}

TEST_CASE("interpreter: tiled matmul, f32 inputs in IEEE and TF32 precision",
          "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  SECTION("ieee: only f32 rounding of the accumulator") {
    for (const tiles &t : tile_combos)
      check_matmul<float, float>(gen, 50, 40, 70, t, tk::input_precision::ieee, false, 1e-6);
  }
  SECTION("tf32: inputs rounded to 10 fraction bits, errors up to ~2^-10 of sum |a||b|") {
    for (const tiles &t : {tiles{16, 16, 16, 1}, tiles{64, 32, 32, 2}, tiles{128, 128, 64, 1}})
      check_matmul<float, float>(gen, 50, 40, 70, t, tk::input_precision::tf32, true,
                                 std::ldexp(1.0, -10));
  }
  SECTION("tf32 rounding is applied on the interpreter (results differ from ieee)") {
    const int n = 32;
    const auto a = tk_test::uniform(gen, std::size_t(n * n), -1, 1);
    const auto b = tk_test::uniform(gen, std::size_t(n * n), -1, 1);
    std::vector<float> c_tf32(a.size()), c_ieee(a.size());
    for (auto [c, prec] : {std::pair{&c_tf32, tk::input_precision::tf32},
                           std::pair{&c_ieee, tk::input_precision::ieee}})
      tk_test::run(examples::matmul, tk::grid(1), *c, a, b, n, n, n, n, 1, n, 1, n, 1,
                   tk::constant(32), tk::constant(32), tk::constant(32), tk::constant(1),
                   tk::constant(prec));
    std::size_t differ = 0;
    double max_rel = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      differ += c_tf32[k] != c_ieee[k];
      max_rel = std::max(max_rel, double(std::fabs(c_tf32[k] - c_ieee[k])));
    }
    INFO(differ << " of " << a.size() << " elements differ, max |tf32 - ieee| " << max_rel);
    // tf32 permits rounding the inputs; it does not require it. The interpreter rounds, as
    // tensor cores do; the GPU's FMA dot multiplies f32 exactly (none differ), its tensor-core
    // dot rounds (most differ, and not always as the interpreter does: the sums' order differs).
    if constexpr (!tk_test::on_gpu)
      CHECK(differ > a.size() / 2);
    CHECK(max_rel < 32 * std::ldexp(1.0, -10)); // K terms of magnitude <= 1
  }
}

TEST_CASE("interpreter: tiled matmul, i8 inputs with exact i32 accumulation",
          "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  for (const tiles &t : {tiles{32, 32, 32, 2}, tiles{16, 64, 64, 1}, tiles{64, 16, 32, 4}}) {
    const int M = 45, N = 38, K = 77;
    INFO("tiles " << t.bm << "x" << t.bn << "x" << t.bk << " group " << t.group_m);
    const auto a = tk_test::integers<std::int8_t>(gen, std::size_t(M * K), -128, 127);
    const auto b = tk_test::integers<std::int8_t>(gen, std::size_t(K * N), -128, 127);
    std::vector<std::int32_t> c(std::size_t(M * N), -1), want(c.size());
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        for (int p = 0; p < K; ++p)
          want[std::size_t(i * N + j)] +=
              std::int32_t(a[std::size_t(i * K + p)]) * std::int32_t(b[std::size_t(p * N + j)]);
    tk_test::run(examples::matmul_i8, tk::grid(tk::cdiv(M, t.bm) * tk::cdiv(N, t.bn)), c,
                 std::as_const(a), std::as_const(b), M, N, K, K, 1, N, 1, N, 1, tk::constant(t.bm),
                 tk::constant(t.bn), tk::constant(t.bk), tk::constant(t.group_m));
    TK_CHECK_EQUAL(c, want);
  }
}

} // namespace

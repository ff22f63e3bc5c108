/// @file interpreter_llm_kernels.cpp
/// The decoder kernels of bench/ (examples/kernels/w4a16_matmul.hpp and sampling.hpp) at small
/// sizes against host references: the int4-weight matmul with group-wise scales, and top-k / top-p
/// sampling over a vocabulary row. Built into tk_gpu_numerics too, so the same kernels run on the
/// GPU (tensor cores there).
#include "interpreter_support.hpp"
#include "kernels/sampling.hpp"
#include "kernels/w4a16_matmul.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace {

/// A signed nibble, -8 .. 7.
int nibble(std::int8_t byte, bool high) {
  const int v = high ? (std::uint8_t(byte) >> 4) : (std::uint8_t(byte) & 0xF);
  return v >= 8 ? v - 16 : v;
}

/// Runs w4a16_matmul at M x N x K with group size G on BM x BN x BK tiles and checks C against
/// the host: the kernel scales in f16 (one rounding per weight), then accumulates in f32.
void check_w4a16(std::mt19937_64 &gen, int M, int N, int K, int G, int BM, int BN, int BK,
                 tk::launch_options options) {
  auto a = tk_test::uniform<tk::half>(gen, std::size_t(M * K), -1, 1);
  auto w = tk_test::integers<std::int8_t>(gen, std::size_t(N * K / 2), -128, 127);
  auto scales = tk_test::uniform<tk::half>(gen, std::size_t(K / G * N), 0.01, 0.1);
  std::vector<tk::half> c(std::size_t(M * N), tk::half(-99.0f));
  tk_test::run_with(options, examples::w4a16_matmul, tk::grid(tk::cdiv(M, BM) * tk::cdiv(N, BN)), c,
                    std::as_const(a), std::as_const(w), std::as_const(scales), M, N, K,
                    tk::constant(BM), tk::constant(BN), tk::constant(BK), tk::constant(2),
                    tk::constant(G));
  std::vector<double> want(c.size());
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double s = 0;
      for (int k = 0; k < K; ++k) {
        const int q = nibble(w[std::size_t(n * K / 2 + k / 2)], k % 2 == 1);
        const float scale = float(scales[std::size_t(k / G * N + n)]);
        s += double(float(a[std::size_t(m * K + k)])) * double(float(tk::half(float(q) * scale)));
      }
      want[std::size_t(m * N + n)] = s;
    }
  TK_CHECK_CLOSE(c, want, 2e-3, 4e-3);
}

TEST_CASE("w4a16_matmul: int4 weights with group-wise f16 scales, against a host product",
          "[interpreter][numerics][w4a16]") {
  TK_TEST_RANDOM(gen);
  SECTION("small tiles, M and N not multiples of them, one or several groups per K step") {
    const int M = GENERATE(1, 40), G = GENERATE(32, 128);
    CAPTURE(M, G);
    check_w4a16(gen, M, 48, 256, G, 16, 32, 32, {});
  }
  SECTION("tiles for warpgroup products (wgmma on sm_90a), 16 K steps, 3 stages") {
    // The weights are unpacked and stored to shared memory in every K step, for a product that
    // reads them while the next step's copies are in flight.
    check_w4a16(gen, 128, 128, 1024, 128, 64, 64, 64, {.num_warps = 4, .num_stages = 3});
  }
}

/// The host's draw for one row: candidates by (logit descending, index ascending), then the same
/// arithmetic as the kernel in double. `ambiguous` is set when u or top_p falls so near a
/// boundary that f32 rounding could move the pick by one candidate.
int host_sample(const float *logits, int V, int K, double temperature, double top_p, double u,
                bool &ambiguous) {
  std::vector<int> order(static_cast<std::size_t>(V));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return logits[x] > logits[y]; });
  std::vector<double> p(static_cast<std::size_t>(K));
  for (int j = 0; j < K; ++j)
    p[std::size_t(j)] =
        std::exp((double(logits[order[std::size_t(j)]]) - double(logits[order[0]])) / temperature);
  const double total = std::accumulate(p.begin(), p.end(), 0.0);
  const double eps = 1e-4;
  ambiguous = false;
  double before = 0, kept_total = 0;
  int kept = 0;
  for (int j = 0; j < K; ++j) {
    const double q = p[std::size_t(j)] / total;
    ambiguous |= std::fabs(before - top_p) < eps;
    if (before < top_p) {
      kept_total += q;
      ++kept;
    }
    before += q;
  }
  const double target = u * kept_total;
  double running = 0;
  int pick = 0;
  for (int j = 0; j < kept; ++j) {
    running += p[std::size_t(j)] / total;
    ambiguous |= std::fabs(running - target) < eps;
    pick += running <= target ? 1 : 0;
  }
  return order[std::size_t(std::min(pick, kept - 1))];
}

TEST_CASE("sample_top_k_top_p: the drawn tokens match a host draw from the same uniforms",
          "[interpreter][numerics][sampling]") {
  TK_TEST_RANDOM(gen);
  const int rows = 12, V = 1000, K = 16, BLOCK_V = 256; // a masked last chunk
  const float temperature = GENERATE(0.7f, 1.5f), top_p = GENERATE(0.5f, 1.0f);
  CAPTURE(temperature, top_p);
  auto logits = tk_test::uniform(gen, std::size_t(rows * V), -4, 4);
  // Row 0: every logit equal, so the candidates are the K lowest indices; row 1: a tie across the
  // K-th place; row 2: negative logits only.
  std::fill(logits.begin(), logits.begin() + V, 1.5f);
  for (int k = 0; k < 2 * K; ++k)
    logits[std::size_t(V + 37 * k)] = 9.0f;
  for (int k = 0; k < V; ++k)
    logits[std::size_t(2 * V + k)] = -std::fabs(logits[std::size_t(2 * V + k)]) - 1;
  auto uniform = tk_test::uniform(gen, rows, 0, 1);
  std::vector<std::int32_t> tokens(rows, -1);
  tk_test::run(examples::sample_top_k_top_p, tk::grid(rows), tokens, std::as_const(logits),
               std::as_const(uniform), V, temperature, top_p, tk::constant(BLOCK_V),
               tk::constant(K));
  int exact = 0;
  for (int r = 0; r < rows; ++r) {
    bool ambiguous = false;
    const int want = host_sample(logits.data() + r * V, V, K, temperature, top_p,
                                 uniform[std::size_t(r)], ambiguous);
    INFO("row " << r << ": got " << tokens[std::size_t(r)] << ", want " << want);
    if (!ambiguous)
      CHECK(tokens[std::size_t(r)] == want);
    exact += tokens[std::size_t(r)] == want ? 1 : 0;
  }
  CHECK(exact >= rows - 2);
  // With every logit equal, each of the K lowest indices is as likely: the draw is one of them.
  CHECK((tokens[0] >= 0 && tokens[0] < K));
  // Row 1's tie at 9.0: all 2K tied, the K of them with the lowest indices are the candidates.
  CHECK(tokens[1] % 37 == 0);
  CHECK(tokens[1] / 37 < K);
}

} // namespace

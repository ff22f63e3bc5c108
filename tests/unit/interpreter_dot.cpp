/// @file interpreter_dot.cpp
/// tk::dot against a plain double-precision reference (tests/support/dot_cases.hpp, which states
/// the tolerances): odd shapes (M, N, K not multiples of the tile, K below 16 by masking, 1 x N and
/// N x 1), every input/accumulator pair, f32 in tf32, ieee and tf32x3, operands column-major or
/// transposed through strides, num_warps and num_stages, a dot inside tk::if_ and two chained dots
/// (softmax(q kᵀ) v). On the interpreter here; built as part of tk_gpu_numerics, the same cases
/// run on the GPU and are checked against the same reference (tests/e2e/gpu_dot.cpp compares the
/// GPU with the interpreter directly).
#include "../support/dot_cases.hpp"
#include "interpreter_support.hpp"

namespace {

using dot_cases::outcome;

/// Checks the interpreter's result and, on the GPU, the GPU's, against the exact reference.
void expect_close(const std::string &what, const std::pair<outcome, outcome> &r) {
  INFO(what);
  const dot_cases::verdict interp = dot_cases::check(r.first.got, r.first.want, r.first.tol);
  INFO("interpreter: worst error / tolerance " << interp.worst_ratio << "; " << interp.first);
  CHECK(interp.bad == 0);
  if constexpr (tk_test::on_gpu) {
    // Against the exact result, within the interpreter's tolerance plus the GPU's.
    const dot_cases::verdict gpu = dot_cases::check(r.second.got, r.first.want, r.second.tol);
    INFO("GPU: worst error / tolerance " << gpu.worst_ratio << "; " << gpu.first);
    CHECK(gpu.bad == 0);
  }
}

TEST_CASE("tk::dot: odd shapes, every type pair and precision, strided operands",
          "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  const auto cases = dot_cases::all_tiled_cases();
  CHECK(cases.size() == 103);
  for (const dot_cases::tiled_case &c : cases)
    expect_close(c.describe(), dot_cases::run_tiled(c, gen, tk_test::on_gpu));
}

TEST_CASE("tk::dot: a K loop at num_stages 1 to 4", "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  for (const dot_cases::tiled_case &c : dot_cases::stage_cases())
    expect_close(c.describe(), dot_cases::run_tiled(c, gen, tk_test::on_gpu));
}

TEST_CASE("tk::dot: inside tk::if_", "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  for (auto p : {tk::input_precision::ieee, tk::input_precision::tf32, tk::input_precision::tf32x3})
    expect_close(std::string("dot in a branch, f32 ") + dot_cases::name_of(p),
                 dot_cases::run_in_branch(p, gen, tk_test::on_gpu));
}

TEST_CASE("tk::dot: two chained dots, softmax(q kT) v on one tile",
          "[interpreter][numerics][dot]") {
  TK_TEST_RANDOM(gen);
  for (auto [L, D] : {std::pair{32, 64}, std::pair{16, 16}, std::pair{64, 32}})
    expect_close("attention L=" + std::to_string(L) + " D=" + std::to_string(D),
                 dot_cases::run_attention(L, D, gen, tk_test::on_gpu));
}

TEST_CASE("tk::dot: the tolerances are tight enough to fail", "[interpreter][dot]") {
  // A result off by one ulp of an f16 x f16 -> f32 product sum fails; exact i8 sums too.
  TK_TEST_RANDOM(gen);
  dot_cases::tiled_case c{16, 16, 16, 16, 16, 16, dot_cases::types::f16_f32};
  auto [interp, gpu] = dot_cases::run_tiled(c, gen, false);
  REQUIRE(dot_cases::check(interp.got, interp.want, interp.tol).bad == 0);
  for (std::size_t i = 0; i < interp.got.size(); ++i)
    interp.got[i] += std::max(4 * interp.tol[i], 1e-3);
  CHECK(dot_cases::check(interp.got, interp.want, interp.tol).bad == interp.got.size());
  dot_cases::tiled_case i8{16, 16, 32, 16, 16, 32, dot_cases::types::i8_i32};
  auto [ints, unused] = dot_cases::run_tiled(i8, gen, false);
  REQUIRE(dot_cases::check(ints.got, ints.want, ints.tol).bad == 0);
  ints.got[5] += 1;
  CHECK(dot_cases::check(ints.got, ints.want, ints.tol).bad == 1);
  (void)gpu, (void)unused;
}

} // namespace

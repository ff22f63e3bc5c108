/// @file loop_controls.cpp
/// The loop controls in the traced IR and on the host: tk::range_options as attributes of the
/// traced `scf.for` (none for the defaults), and the compile-time helpers tk::static_for,
/// tk::static_assert_ and tk::static_print. Their numerics (the options never change results)
/// are in interpreter_loop_controls.cpp, which also runs on the GPU.
#include "temp_files.hpp"

#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include <cstddef>
#include <string>
#include <tuple>
#include <vector>

namespace {

std::size_t count(const std::string &text, const std::string &what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

auto staged = tk::jit("staged", [](tk::ptr<float> out, tk::i32 n, tk::constant<int> STAGES,
                                   tk::constant<int> UNROLL, tk::constant<bool> FLATTEN) {
  auto acc = tk::zeros<float>({16});
  tk::for_range(0, n, 1, {.num_stages = STAGES, .loop_unroll_factor = UNROLL, .flatten = FLATTEN},
                [&](tk::i32) {
                  if (FLATTEN)
                    tk::for_range(0, n, [&] { acc += 1.0f; });
                  else
                    acc += 1.0f;
                });
  tk::store(out + tk::arange(0, 16), acc);
});

} // namespace

TEST_CASE("loop controls: range_options become attributes of the traced scf.for",
          "[loop_controls][ir]") {
  float out[16] = {};
  SECTION("the defaults add none") {
    const std::string ir =
        staged.ir(out, 8, tk::constant(-1), tk::constant(0), tk::constant(false));
    CHECK(count(ir, "scf.for") == 1);
    CHECK(count(ir, "tk.num_stages") == 0);
    CHECK(count(ir, "tk.loop_unroll_factor") == 0);
    CHECK(count(ir, "tk.flatten") == 0);
  }
  SECTION("num_stages and loop_unroll_factor") {
    const std::string ir = staged.ir(out, 8, tk::constant(2), tk::constant(4), tk::constant(false));
    INFO(ir);
    CHECK(count(ir, "} {tk.loop_unroll_factor = 4 : i32, tk.num_stages = 2 : i32} loc(") == 1);
  }
  SECTION("num_stages = 1 is recorded: it turns the loop's pipelining off") {
    const std::string ir = staged.ir(out, 8, tk::constant(1), tk::constant(0), tk::constant(false));
    INFO(ir);
    CHECK(count(ir, "} {tk.num_stages = 1 : i32} loc(") == 1);
  }
  SECTION("flatten marks the outer loop only") {
    const std::string ir = staged.ir(out, 8, tk::constant(-1), tk::constant(0), tk::constant(true));
    INFO(ir);
    CHECK(count(ir, "scf.for") == 2);
    CHECK(count(ir, "} {tk.flatten} loc(") == 1);
  }
}

TEST_CASE("loop controls: the options leave the interpreter's results as they are",
          "[loop_controls]") {
  float plain[16] = {}, with_options[16] = {};
  staged.interpret(tk::grid(1), plain, 5, tk::constant(-1), tk::constant(0), tk::constant(false));
  staged.interpret(tk::grid(1), with_options, 5, tk::constant(3), tk::constant(2),
                   tk::constant(false));
  CHECK(plain[0] == 5.0f);
  CHECK(with_options[15] == 5.0f);
  float flat[16] = {};
  staged.interpret(tk::grid(1), flat, 5, tk::constant(4), tk::constant(0), tk::constant(true));
  CHECK(flat[3] == 25.0f);
}

TEST_CASE("loop controls: tk::static_for calls its body with compile-time indices",
          "[loop_controls]") {
  std::vector<int> seen;
  tk::static_for<2, 11, 3>([&](auto i) {
    static_assert(decltype(i)::value % 3 == 2);
    seen.push_back(i);
  });
  CHECK(seen == std::vector<int>{2, 5, 8});
  tk::static_for<4, 4>([&](auto) { seen.push_back(-1); });
  CHECK(seen.size() == 3);

  // A tuple of blocks of different ranks, walked with std::get<i>: one store per element.
  auto k = tk::jit("tuple_walk", [](tk::ptr<float> out) {
    auto blocks = std::make_tuple(tk::full<float>({4}, 1.0f), tk::full<float>({2, 4}, 2.0f),
                                  tk::full<float>({2, 2, 4}, 3.0f));
    tk::static_for<0, 3>([&](auto i) {
      auto b = tk::sum(tk::ravel(std::get<i>(blocks)));
      tk::store(out + int(i), b);
    });
  });
  float sums[3] = {};
  const std::string ir = k.ir(sums);
  CHECK(count(ir, "\"tk.store\"") == 3);
  k.interpret(tk::grid(1), sums);
  CHECK(sums[0] == 4.0f);
  CHECK(sums[1] == 16.0f);
  CHECK(sums[2] == 48.0f);
}

TEST_CASE("loop controls: tk::static_assert_ passes silently on a fact that holds",
          "[loop_controls]") {
  auto k = tk::jit("asserted", [](tk::ptr<float> out, tk::constant<int> BLOCK) {
    auto offs = tk::arange(0, BLOCK);
    tk::static_assert_(offs.shape()[0] == BLOCK, "arange's length");
    tk::static_assert_(BLOCK % 16 == 0);
    tk::store(out + offs, tk::cast<float>(offs));
  });
  float out[32] = {};
  CHECK_NOTHROW(k.ir(out, tk::constant(32)));
  k.interpret(tk::grid(1), out, tk::constant(32));
  CHECK(out[31] == 31.0f);
}

#if !defined(_WIN32)
TEST_CASE("loop controls: tk::static_print prints trace-time facts once per trace",
          "[loop_controls]") {
  auto k = tk::jit("printed", [](tk::ptr<float> out, tk::i32 n, tk::constant<int> BLOCK) {
    auto tile = tk::zeros<float>({BLOCK, 2 * BLOCK});
    tk::static_print("tile", tile, "n", n, "BLOCK", BLOCK);
    tk::for_range(0, n, [&](tk::i32 i) {
      tk::static_print("in the loop", i, tk::cast<std::int64_t>(tile)); // the body runs twice
      tile += 1.0f;
    });
    tk::store(out + tk::arange(0, BLOCK), tk::sum(tile, 1));
  });
  std::vector<float> out(16);
  const std::string expected = "tile f32[8, 16] n i32 BLOCK 8\n"
                               "in the loop i32 i64[8, 16]\n";
  SECTION("tracing") {
    const std::string printed =
        tk_test::capture_stdout([&] { (void)k.ir(out.data(), 3, tk::constant(8)); });
    CHECK(printed == expected);
    // A new trace prints again.
    CHECK(tk_test::capture_stdout([&] { (void)k.ir(out.data(), 3, tk::constant(8)); }) == expected);
  }
  SECTION("the interpreter prints once per launch, not per program or iteration") {
    const std::string printed =
        tk_test::capture_stdout([&] { k.interpret(tk::grid(4), out.data(), 3, tk::constant(8)); });
    CHECK(printed == expected);
    CHECK(out[0] == 48.0f);
  }
}
#endif

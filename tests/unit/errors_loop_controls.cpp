/// @file errors_loop_controls.cpp
/// Errors of the loop controls: tk::range_options that no loop may have (num_stages outside 1..8,
/// a negative unroll factor), nests that `flatten` cannot flatten, and a failing
/// tk::static_assert_. Each is checked on both paths, `.ir()` and the interpreter, at the line
/// of this file that each kernel sets (`line = __LINE__ + 1;` before the offending statement).
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"

#include <string_view>

namespace {

constexpr std::string_view this_file = "errors_loop_controls.cpp";

} // namespace

TEST_CASE("errors: tk::for_range num_stages outside 1..8", "[errors][loop_controls]") {
  int line = 0;
  const int stages = GENERATE(0, -2, 9);
  CAPTURE(stages);
  auto k = tk::jit("k", [&](tk::i32 n) {
    auto acc = tk::zeros<float>({16});
    line = __LINE__ + 1;
    tk::for_range(0, n, {.num_stages = stages}, [&] { acc += 1.0f; });
    (void)acc;
  });
  tk_test::trace_and_interpret(this_file, k, line,
                               "tk::for_range: num_stages is " + std::to_string(stages) +
                                   "; it must be from 1 to 8, or -1 for the kernel's num_stages",
                               4);
}

TEST_CASE("errors: tk::for_range with a negative loop_unroll_factor", "[errors][loop_controls]") {
  int line = 0;
  auto k = tk::jit("k", [&](tk::i32 n) {
    auto acc = tk::zeros<float>({16});
    line = __LINE__ + 1;
    tk::for_range(0, n, 2, {.loop_unroll_factor = -4}, [&] { acc += 1.0f; });
    (void)acc;
  });
  tk_test::trace_and_interpret(this_file, k, line,
                               "tk::for_range: loop_unroll_factor is -4; it must be 0 or 1 (no "
                               "unrolling) or a factor from 2 up",
                               4);
}

TEST_CASE("errors: flatten needs exactly one inner loop", "[errors][loop_controls]") {
  int line = 0;
  SECTION("no inner loop") {
    auto k = tk::jit("k", [&](tk::i32 n) {
      auto acc = tk::zeros<float>({16});
      line = __LINE__ + 1;
      tk::for_range(0, n, {.flatten = true}, [&] { acc += 1.0f; });
      (void)acc;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::for_range: flatten needs a body holding exactly one "
                                 "tk::for_range (not inside a tk::if_ or tk::while_); this one "
                                 "holds 0",
                                 4);
  }
  SECTION("two inner loops") {
    auto k = tk::jit("k", [&](tk::i32 n) {
      auto acc = tk::zeros<float>({16});
      line = __LINE__ + 1;
      tk::for_range(0, n, {.flatten = true}, [&] {
        tk::for_range(0, n, [&] { acc += 1.0f; });
        tk::for_range(0, n, [&] { acc += 2.0f; });
      });
      (void)acc;
    });
    tk_test::trace_and_interpret(this_file, k, line, "this one holds 2", 4);
  }
  SECTION("the inner loop inside a branch") {
    auto k = tk::jit("k", [&](tk::i32 n) {
      auto acc = tk::zeros<float>({16});
      line = __LINE__ + 1;
      tk::for_range(0, n, {.flatten = true}, [&](tk::i32 i) {
        tk::if_(i > 0, [&] { tk::for_range(0, n, [&] { acc += 1.0f; }); });
      });
      (void)acc;
    });
    tk_test::trace_and_interpret(this_file, k, line, "this one holds 0", 4);
  }
}

TEST_CASE("errors: flatten needs inner bounds that do not change with the outer loop",
          "[errors][loop_controls]") {
  int line = 0;
  SECTION("the upper bound is the outer induction variable") {
    auto k = tk::jit("k", [&](tk::i32 n) {
      auto acc = tk::zeros<float>({16});
      tk::for_range(0, n, {.flatten = true}, [&](tk::i32 i) {
        line = __LINE__ + 1;
        tk::for_range(0, i + 1, [&] { acc += 1.0f; });
      });
      (void)acc;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::for_range: the upper bound of the loop in a flattened loop "
                                 "depends on the outer loop's induction variable or carried values",
                                 4);
  }
  SECTION("the lower bound is carried by the outer loop") {
    auto k = tk::jit("k", [&](tk::i32 n) {
      auto acc = tk::zeros<float>({16});
      tk::i32 start = 0;
      tk::for_range(0, n, {.flatten = true}, [&] {
        line = __LINE__ + 1;
        tk::for_range(start, n, [&] { acc += 1.0f; });
        start = start + 1;
      });
      (void)acc;
    });
    tk_test::trace_and_interpret(this_file, k, line, "the lower bound of the loop", 4);
  }
}

TEST_CASE("errors: tk::static_assert_ on a trace-time fact", "[errors][loop_controls]") {
  int line = 0;
  SECTION("with a message") {
    auto k = tk::jit("k", [&](tk::constant<int> BLOCK) {
      auto offs = tk::arange(0, BLOCK);
      line = __LINE__ + 1;
      tk::static_assert_(offs.shape()[0] % 16 == 0, "BLOCK must be a multiple of 16");
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::static_assert_ failed: BLOCK must be a multiple of 16",
                                 tk::constant(8));
  }
  SECTION("without one") {
    auto k = tk::jit("k", [&](tk::constant<int> BLOCK) {
      line = __LINE__ + 1;
      tk::static_assert_(BLOCK > 64);
    });
    tk_test::trace_and_interpret(this_file, k, line, "tk::static_assert_ failed", tk::constant(32));
  }
}

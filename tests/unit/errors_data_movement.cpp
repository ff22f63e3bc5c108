/// @file errors_data_movement.cpp
/// The errors of the data-movement, sorting and tuple-reduction ops: each names the line of this
/// file where the offending call is, on both paths (`.ir()` and the interpreter).
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"

#include <cstdint>
#include <string_view>
#include <tuple>

namespace {

constexpr std::string_view this_file = "errors_data_movement.cpp";

} // namespace

TEST_CASE("errors: data movement with shapes that do not fit", "[errors][shape]") {
  int line = 0;
  SECTION("split of a last dimension that is not 2") {
    auto k = tk::jit("k", [&] {
      auto x = tk::zeros<float>({8, 4});
      line = __LINE__ + 1;
      auto halves = tk::split(x);
      (void)halves;
    });
    tk_test::trace_and_interpret(
        this_file, k, line, "tk::split: the last dimension must be 2, got a block of shape [8, 4]");
  }
  SECTION("cat of two shapes") {
    auto k = tk::jit("k", [&] {
      auto a = tk::zeros<float>({8});
      auto b = tk::zeros<float>({16});
      line = __LINE__ + 1;
      auto c = tk::cat(a, b);
      (void)c;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::cat: the blocks must have one shape, got [8] and [16]");
  }
  SECTION("join of shapes that do not broadcast") {
    auto k = tk::jit("k", [&] {
      auto a = tk::zeros<float>({8});
      auto b = tk::zeros<float>({16});
      line = __LINE__ + 1;
      auto c = tk::join(a, b);
      (void)c;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::join: the first block of shape [8] and the second block");
  }
  SECTION("gather indices of another shape") {
    auto k = tk::jit("k", [&] {
      auto src = tk::zeros<float>({8, 16});
      auto index = tk::zeros<std::int32_t>({4, 4});
      line = __LINE__ + 1;
      auto g = tk::gather(src, index, 1);
      (void)g;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::gather: the indices must have the shape of the block gathered from "
        "except along axis 1; the block has shape [8, 16], the indices [4, 4]");
  }
  SECTION("expand_dims at one axis twice") {
    auto k = tk::jit("k", [&] {
      auto x = tk::arange(0, 8);
      line = __LINE__ + 1;
      auto y = tk::expand_dims(x, {0, -3});
      (void)y;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::expand_dims: the axes must differ, got [0, -3]");
  }
  SECTION("a tuple reduction of blocks of two shapes") {
    auto k = tk::jit("k", [&] {
      auto a = tk::zeros<float>({8});
      auto b = tk::zeros<float>({16});
      line = __LINE__ + 1;
      auto [x, y] = tk::reduce(std::tuple{a, b}, 0, [](auto l0, auto l1, auto r0, auto r1) {
        return std::tuple{l0 + r0, l1 + r1};
      });
      (void)x;
      (void)y;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::reduce: the blocks of the tuple must have one shape; block 0 has "
        "shape [8] and block 1 has shape [16]");
  }
  SECTION("topk of a k that is not a power of two") {
    auto k = tk::jit("k", [&] {
      auto x = tk::zeros<float>({64});
      line = __LINE__ + 1;
      auto t = tk::topk(x, 3);
      (void)t;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::topk: k must be a power of two from 1 to 64 (the size of dimension "
        "0), got 3");
  }
  SECTION("histogram of a bin count that is not a power of two") {
    auto k = tk::jit("k", [&] {
      auto x = tk::arange(0, 64);
      line = __LINE__ + 1;
      auto h = tk::histogram(x, 10);
      (void)h;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::histogram: num_bins must be a power of two, got 10");
  }
}

TEST_CASE("errors: a gather index outside its axis, on the interpreter", "[errors][shape]") {
  int line = 0;
  auto k = tk::jit("k", [&](tk::ptr<const std::int32_t> ids) {
    auto src = tk::zeros<float>({8});
    auto index = tk::load(ids + tk::arange(0, 8));
    line = __LINE__ + 1;
    auto g = tk::gather(src, index, 0);
    (void)g;
  });
  const std::int32_t ids[8] = {0, 1, 2, 3, 8, 5, 6, 7};
  tk_test::expect_error(this_file, line,
                        "tk::gather: the index 8 at lane 4 (index [4] of the [8] block) is "
                        "outside [0, 8), the size of axis 0 of the block gathered from",
                        [&] { k.interpret(tk::grid(1), ids); });
}

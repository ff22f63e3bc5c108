/// @file interpreter_block_pointer.cpp
/// Block pointers (tk::make_block_ptr, tk::advance, tk::load / tk::store on them): any strides,
/// blocks carried through loops, the boundary check per dimension with zero or NaN padding, and
/// the rules as errors at the user's line. Built with TK_TEST_ON_GPU (tk_gpu_numerics), the same
/// kernels run on the GPU and must agree.
#include "expect_error.hpp"
#include "interpreter_support.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

/// out[r] = sum of row r of an M x K tensor seen through (row_stride, col_stride): a BM x BK
/// block pointer advanced along K in a loop, boundary-checked in both dimensions (rows and the
/// K tail read zeros). With the strides swapped the kernel sums the columns of the transpose.
auto row_sums =
    tk::jit("block_ptr_row_sums",
            [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 M, tk::i32 K,
               tk::i64 row_stride, tk::i64 col_stride, tk::constant<int> BM, tk::constant<int> BK) {
              auto row = tk::program_id(0) * BM;
              auto a = tk::make_block_ptr(in, {M, K}, {row_stride, col_stride}, {row, 0}, {BM, BK});
              auto acc = tk::zeros<float>({BM, BK});
              tk::for_range(0, K, BK, [&](tk::i32) {
                acc = acc + tk::load(a, {0, 1});
                a = tk::advance(a, {0, BK});
              });
              auto o = tk::make_block_ptr(out, {M}, {1}, {row}, {BM});
              tk::store(o, tk::sum(acc, 1), {0});
            });

/// The 16 x 16 block at (i, j) of an R x C i32 tensor (row-major), boundary-checked along
/// `dims` (a run-time choice between the four checks), stored to a 16 x 16 scratch tile; the
/// tile's elements outside along a checked dimension are zero (or NaN for the f32 kernel).
auto tile_i32 =
    tk::jit("block_ptr_tile_i32", [](tk::ptr<std::int32_t> tile, tk::ptr<const std::int32_t> in,
                                     tk::i32 R, tk::i32 C, tk::i32 i, tk::i32 j) {
      auto src = tk::make_block_ptr(in, {R, C}, {C, 1}, {i, j}, {16, 16}, {1, 0});
      auto dst = tk::make_block_ptr(tile, {16, 16}, {16, 1}, {0, 0}, {16, 16});
      tk::store(dst, tk::load(src, {0, 1}));
    });

auto tile_nan = tk::jit("block_ptr_tile_nan", [](tk::ptr<float> tile, tk::ptr<const float> in,
                                                 tk::i32 R, tk::i32 C, tk::i32 i, tk::i32 j) {
  auto src = tk::make_block_ptr(in, {R, C}, {C, 1}, {i, j}, {16, 16});
  auto dst = tk::make_block_ptr(tile, {16, 16}, {16, 1}, {0, 0}, {16, 16});
  tk::store(dst, tk::load(src, {1, 0}, tk::padding::nan));
});

/// Writes 1 + the block's element index to the 16 x 16 block at (i, j) of an R x C tensor,
/// boundary-checked in both dimensions: nothing outside the tensor is written.
auto fill =
    tk::jit("block_ptr_fill", [](tk::ptr<float> out, tk::i32 R, tk::i32 C, tk::i32 i, tk::i32 j) {
      auto dst = tk::make_block_ptr(out, {R, C}, {C, 1}, {i, j}, {16, 16});
      auto r = tk::arange(0, 16)(tk::_, tk::newaxis), c = tk::arange(0, 16)(tk::newaxis, tk::_);
      tk::store(dst, r * 16 + c + 1, {0, 1});
    });

// The lines of the statements that fail below (set as the kernels are traced).
int unchecked_line = 0, bad_check_line = 0, nan_int_line = 0, order_line = 0;

auto unchecked =
    tk::jit("block_ptr_unchecked", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
      auto src = tk::make_block_ptr(in, {n}, {1}, {8}, {16});
      unchecked_line = __LINE__ + 1;
      auto x = tk::load(src);
      tk::store(out + tk::arange(0, 16), x);
    });

auto bad_check =
    tk::jit("block_ptr_bad_check", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
      auto src = tk::make_block_ptr(in, {n}, {1}, {0}, {16});
      bad_check_line = __LINE__ + 1;
      tk::store(out + tk::arange(0, 16), tk::load(src, {1}));
    });

auto nan_int = tk::jit("block_ptr_nan_int",
                       [](tk::ptr<std::int32_t> out, tk::ptr<const std::int32_t> in, tk::i32 n) {
                         auto src = tk::make_block_ptr(in, {n}, {1}, {0}, {16});
                         nan_int_line = __LINE__ + 1;
                         tk::store(out + tk::arange(0, 16), tk::load(src, {0}, tk::padding::nan));
                       });

auto bad_order =
    tk::jit("block_ptr_bad_order", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
      order_line = __LINE__ + 1;
      auto src = tk::make_block_ptr(in, {n, n}, {n, 1}, {0, 0}, {16, 16}, {0, 0});
      tk::store(out + tk::arange(0, 16), tk::sum(tk::load(src, {0, 1}), 1));
    });

} // namespace

TEST_CASE("block pointers: strided tensors, advanced through a loop, checked at the edges",
          "[interpreter][numerics][block_ptr]") {
  const int M = 37, K = 75; // neither a multiple of the blocks: rows and the K tail hang over
  std::vector<float> in(std::size_t(M) * K);
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k)
      in[std::size_t(r * K + k)] = float((r * 7 + k * 3) % 23) - 11.0f;
  // Rows of the row-major M x K tensor; then the same memory read as its K x M transpose
  // (strides 1, K): row sums of the transpose are column sums of the original.
  std::vector<float> sums(M, -1.0f), want(M, 0.0f);
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k)
      want[std::size_t(r)] += in[std::size_t(r * K + k)];
  tk_test::run(row_sums, tk::grid(tk::cdiv(M, 16)), sums, in, M, K, std::int64_t(K),
               std::int64_t(1), tk::constant(16), tk::constant(32));
  TK_CHECK_EQUAL(sums, want);

  std::vector<float> col_sums(K, -1.0f), col_want(K, 0.0f);
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k)
      col_want[std::size_t(k)] += in[std::size_t(r * K + k)];
  tk_test::run(row_sums, tk::grid(tk::cdiv(K, 32)), col_sums, in, K, M, std::int64_t(1),
               std::int64_t(K), tk::constant(32), tk::constant(16));
  TK_CHECK_EQUAL(col_sums, col_want);
}

TEST_CASE("block pointers: padding with zeros or NaN, and stores that skip the outside",
          "[interpreter][numerics][block_ptr]") {
  const int R = 20, C = 24;
  std::vector<std::int32_t> data(std::size_t(R) * C);
  std::vector<float> fdata(data.size());
  for (int k = 0; k < R * C; ++k) {
    data[std::size_t(k)] = k + 1;
    fdata[std::size_t(k)] = float(k + 1);
  }
  for (auto [i, j] : {std::pair{0, 0}, std::pair{-3, -5}, std::pair{10, 16}, std::pair{4, -12}}) {
    INFO("block at (" << i << ", " << j << ")");
    std::vector<std::int32_t> tile(256, -1), want(256, 0);
    std::vector<float> ftile(256, -1.0f);
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c)
        if (i + r >= 0 && i + r < R && j + c >= 0 && j + c < C)
          want[std::size_t(r * 16 + c)] = data[std::size_t((i + r) * C + j + c)];
    tk_test::run(tile_i32, tk::grid(1), tile, data, R, C, i, j);
    TK_CHECK_EQUAL(tile, want);

    tk_test::run(tile_nan, tk::grid(1), ftile, fdata, R, C, i, j);
    int mismatches = 0;
    for (std::size_t k = 0; k < 256; ++k) {
      const bool outside = want[k] == 0;
      if (outside ? !std::isnan(ftile[k]) : ftile[k] != float(want[k]))
        ++mismatches;
    }
    CHECK(mismatches == 0);

    std::vector<float> out(std::size_t(R) * C, -7.0f), expect(out.size(), -7.0f);
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c)
        if (i + r >= 0 && i + r < R && j + c >= 0 && j + c < C)
          expect[std::size_t((i + r) * C + j + c)] = float(r * 16 + c + 1);
    tk_test::run(fill, tk::grid(1), out, R, C, i, j);
    TK_CHECK_EQUAL(out, expect);
  }
}

TEST_CASE("block pointers: the rules are errors at the kernel's line",
          "[interpreter][errors][block_ptr]") {
  if constexpr (!tk_test::on_gpu) {
    std::vector<float> in(64, 1.0f), out(16);
    const char *file = "interpreter_block_pointer.cpp";
    // Elements 8 ... 23 of a 16-element tensor, no boundary check: element 8 of the block is
    // the first outside.
    tk_test::expect_error(file, unchecked_line,
                          "tk::load: lane 8 (index [8] of the [16] block) is outside the tensor "
                          "along dimension 0 (index 16, size 16), which is not in "
                          "boundary_check; add 0 to boundary_check or keep the block inside the "
                          "tensor",
                          [&] { unchecked.interpret(tk::grid(1), out, in, 16); });
    tk_test::expect_error(file, bad_check_line,
                          "tk::load: boundary_check must list distinct dimensions of the "
                          "1-dimensional block, got [1]",
                          [&] { bad_check.interpret(tk::grid(1), out, in, 16); });
    std::vector<std::int32_t> iin(64, 1), iout(16);
    tk_test::expect_error(file, nan_int_line,
                          "tk::load: padding::nan needs a block of floats, got i32",
                          [&] { nan_int.interpret(tk::grid(1), iout, iin, 16); });
    tk_test::expect_error(file, order_line,
                          "tk::make_block_ptr: order must list each of the 2 dimensions once, "
                          "got [0, 0]",
                          [&] { bad_order.interpret(tk::grid(1), out, in, 8); });
  } else {
    SUCCEED("errors are checked by the interpreter");
  }
}

/// @file interpreter_descriptor.cpp
/// Tensor descriptors (tk::make_tensor_descriptor, desc.load / desc.store): blocks that reach past
/// the tensor's edges read zeros there and write nothing there; the descriptor's rules (aligned
/// base, last stride 1, strides multiples of 16 bytes) are errors at the user's line. Built with
/// TK_TEST_ON_GPU (tk_gpu_numerics), the same kernels run on the GPU and must agree.
#include "expect_error.hpp"
#include "interpreter_support.hpp"

#include <cstdint>
#include <vector>

namespace {

/// out = 2 in + 1 over an M x N row-major tensor (row stride `ld` elements), one BM x BN block per
/// program instance; blocks at the edges hang over the tensor.
auto affine = tk::jit("descriptor_affine",
                      [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 M, tk::i32 N,
                         tk::i32 ld, tk::constant<int> BM, tk::constant<int> BN) {
                        auto src = tk::make_tensor_descriptor(in, {M, N}, {ld, 1}, {BM, BN});
                        auto dst = tk::make_tensor_descriptor(out, {M, N}, {ld, 1}, {BM, BN});
                        auto i = tk::program_id(0) * BM, j = tk::program_id(1) * BN;
                        dst.store({i, j}, src.load({i, j}) * 2.0f + 1.0f);
                      });

/// out[r] = sum of the BN elements of row r of the block at (i, j) (an M x N i32 tensor): what
/// a block reads past the edges, zeros, shows in the sums.
auto row_sums =
    tk::jit("descriptor_row_sums", [](tk::ptr<std::int32_t> out, tk::ptr<const std::int32_t> in,
                                      tk::i32 M, tk::i32 N, tk::i32 i, tk::i32 j) {
      auto src = tk::make_tensor_descriptor(in, {M, N}, {N, 1}, {16, 16});
      auto sums = tk::sum(src.load({i, j}), 1);
      tk::store(out + tk::arange(0, 16), sums);
    });

// The lines of the statements that fail below (set as the kernels are traced).
int misaligned_line = 0, strided_line = 0, runtime_block_line = 0;

auto misaligned =
    tk::jit("descriptor_misaligned", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
      misaligned_line = __LINE__ + 1;
      auto d = tk::make_tensor_descriptor(in + 1, {n}, {1}, {16});
      tk::store(out + tk::arange(0, 16), d.load({0}));
    });

auto strided =
    tk::jit("descriptor_strided", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
      strided_line = __LINE__ + 1;
      auto d = tk::make_tensor_descriptor(in, {n, n}, {n, 2}, {16, 16});
      tk::store(out + tk::arange(0, 16), tk::sum(d.load({0, 0}), 1));
    });

auto runtime_block =
    tk::jit("descriptor_runtime_block", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
      runtime_block_line = __LINE__ + 1;
      auto d = tk::make_tensor_descriptor(in, {n}, {1}, {n});
      tk::store(out + tk::arange(0, 16), d.load({0}));
    });

} // namespace

TEST_CASE("tensor descriptors: blocks over the edges read zeros and write nothing there",
          "[interpreter][numerics][descriptor]") {
  const int M = 37, N = 45, ld = 48; // rows padded to 48 floats: 192 bytes, a multiple of 16
  std::vector<float> in(std::size_t(M) * ld), want(in.size(), -7.0f);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < ld; ++c) {
      in[std::size_t(r * ld + c)] = float(r * 100 + c);
      if (c < N)
        want[std::size_t(r * ld + c)] = 2.0f * float(r * 100 + c) + 1.0f;
    }
  const tk::grid grid(tk::cdiv(M, 16), tk::cdiv(N, 32));
  std::vector<float> out(in.size(), -7.0f); // the padding columns must keep -7
  tk_test::run(affine, grid, out, in, M, N, ld, tk::constant(16), tk::constant(32));
  TK_CHECK_EQUAL(out, want);

  // Blocks starting before the tensor (negative indices) and hanging past its end: the rows
  // and columns outside add zeros.
  const int R = 20, C = 24;
  std::vector<std::int32_t> data(std::size_t(R) * C);
  for (int k = 0; k < R * C; ++k)
    data[std::size_t(k)] = k + 1;
  for (auto [i, j] : {std::pair{0, 0}, std::pair{-3, -5}, std::pair{10, 16}, std::pair{-20, 0}}) {
    std::vector<std::int32_t> sums(16, -1), expect(16, 0);
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c)
        if (i + r >= 0 && i + r < R && j + c >= 0 && j + c < C)
          expect[std::size_t(r)] += data[std::size_t((i + r) * C + j + c)];
    tk_test::run(row_sums, tk::grid(1), sums, data, R, C, i, j);
    INFO("block at (" << i << ", " << j << ")");
    TK_CHECK_EQUAL(sums, expect);
  }
}

TEST_CASE("tensor descriptors: the descriptor's rules are errors at the kernel's line",
          "[interpreter][errors][descriptor]") {
  if constexpr (!tk_test::on_gpu) {
    std::vector<float> in(64, 1.0f), out(16);
    const char *file = "interpreter_descriptor.cpp";
    tk_test::expect_error(file, misaligned_line,
                          "tk::make_tensor_descriptor: the base address must be 16-byte aligned",
                          [&] { misaligned.interpret(tk::grid(1), out, in, 16); });
    std::vector<float> square(256, 1.0f);
    tk_test::expect_error(file, strided_line,
                          "tk::make_tensor_descriptor: the last stride must be the constant 1 "
                          "(the last dimension contiguous), got 2",
                          [&] { strided.interpret(tk::grid(1), out, square, 16); });
    tk_test::expect_error(file, runtime_block_line,
                          "tk::make_tensor_descriptor: a block dimension must be a C++ integer or "
                          "a tk::constant, known when the kernel is traced",
                          [&] { runtime_block.interpret(tk::grid(1), out, in, 16); });
  } else {
    SUCCEED("errors are checked by the interpreter");
  }
}

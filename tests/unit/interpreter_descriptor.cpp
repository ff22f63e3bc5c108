/// @file interpreter_descriptor.cpp
/// Tensor descriptors (tk::make_tensor_descriptor, desc.load / desc.store, desc.atomic_*): blocks
/// that reach past the tensor's edges read zeros (or NaN, tk::padding::nan) there and write or
/// combine nothing there; the descriptor's rules (aligned base, last stride 1, strides multiples
/// of 16 bytes) are errors at the user's line. Built with TK_TEST_ON_GPU (tk_gpu_numerics), the
/// same kernels run on the GPU and must agree.
#include "expect_error.hpp"
#include "interpreter_support.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
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

/// The 16 x 16 block at (i, j) of an R x C f32 tensor through a NaN-padded descriptor, stored
/// whole: what lies outside the tensor reads as NaN.
auto tile_nan = tk::jit("descriptor_tile_nan", [](tk::ptr<float> tile, tk::ptr<const float> in,
                                                  tk::i32 R, tk::i32 C, tk::i32 i, tk::i32 j) {
  auto src = tk::make_tensor_descriptor(in, {R, C}, {C, 1}, {16, 16}, tk::padding::nan);
  auto r = tk::arange(0, 16)(tk::_, tk::newaxis), c = tk::arange(0, 16)(tk::newaxis, tk::_);
  tk::store(tile + r * 16 + c, src.load({i, j}));
});

/// Every program combines its own 16 x 16 block of `vals` into the block at (i, j) of six R x C
/// i32 tensors, one per descriptor atomic, and adds 1 to that block of `count` (a scalar
/// broadcast): on the GPU the programs race, so only atomic updates give the reference.
auto reduce_i32 =
    tk::jit("descriptor_reduce_i32",
            [](tk::ptr<std::int32_t> sum, tk::ptr<std::int32_t> hi, tk::ptr<std::int32_t> lo,
               tk::ptr<std::int32_t> all, tk::ptr<std::int32_t> any, tk::ptr<std::int32_t> parity,
               tk::ptr<std::int32_t> count, tk::ptr<const std::int32_t> vals, tk::i32 R, tk::i32 C,
               tk::i32 i, tk::i32 j) {
              auto r = tk::arange(0, 16)(tk::_, tk::newaxis),
                   c = tk::arange(0, 16)(tk::newaxis, tk::_);
              auto x = tk::load(vals + tk::program_id(0) * 256 + r * 16 + c);
              auto at = [&](tk::ptr<std::int32_t> p) {
                return tk::make_tensor_descriptor(p, {R, C}, {C, 1}, {16, 16});
              };
              at(sum).atomic_add({i, j}, x);
              at(hi).atomic_max({i, j}, x);
              at(lo).atomic_min({i, j}, x);
              at(all).atomic_and({i, j}, x);
              at(any).atomic_or({i, j}, x);
              at(parity).atomic_xor({i, j}, x);
              at(count).atomic_add({i, j}, 1);
            });

/// The float and unsigned kinds: f32 add and max, u32 max and min (unsigned order: 0x80000000
/// and above are the largest).
auto reduce_f32_u32 =
    tk::jit("descriptor_reduce_f32_u32",
            [](tk::ptr<float> fsum, tk::ptr<float> fmax, tk::ptr<std::uint32_t> umax,
               tk::ptr<std::uint32_t> umin, tk::ptr<const float> fvals,
               tk::ptr<const std::uint32_t> uvals, tk::i32 R, tk::i32 C, tk::i32 i, tk::i32 j) {
              auto k = tk::program_id(0) * 256 + tk::arange(0, 16)(tk::_, tk::newaxis) * 16 +
                       tk::arange(0, 16)(tk::newaxis, tk::_);
              auto f = tk::load(fvals + k);
              auto u = tk::load(uvals + k);
              tk::make_tensor_descriptor(fsum, {R, C}, {C, 1}, {16, 16}).atomic_add({i, j}, f);
              tk::make_tensor_descriptor(fmax, {R, C}, {C, 1}, {16, 16}).atomic_max({i, j}, f);
              tk::make_tensor_descriptor(umax, {R, C}, {C, 1}, {16, 16}).atomic_max({i, j}, u);
              tk::make_tensor_descriptor(umin, {R, C}, {C, 1}, {16, 16}).atomic_min({i, j}, u);
            });

/// Column sums of K stacked M x N matrices (each `step` elements after the one before), 16
/// columns per program: the descriptor is made again in the loop body for the next matrix and
/// carried through the loop. The sums go to `out`, or to `out + N` where K > 2: a descriptor
/// chosen in a branch.
auto stacked_sums =
    tk::jit("descriptor_stacked_sums", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 M,
                                          tk::i32 N, tk::i32 K, tk::i32 step) {
      auto j = tk::program_id(0) * 16;
      auto d = tk::make_tensor_descriptor(in, {M, N}, {N, 1}, {32, 16});
      auto acc = tk::zeros<float>({16});
      tk::for_range(0, K, [&](tk::i32 k) {
        acc += tk::sum(d.load({0, j}), 0);
        d = tk::make_tensor_descriptor(in + (k + 1) * step, {M, N}, {N, 1}, {32, 16});
      });
      auto o = tk::make_tensor_descriptor(out, {N}, {1}, {16});
      tk::if_(K > 2, [&] { o = tk::make_tensor_descriptor(out + N, {N}, {1}, {16}); });
      o.store({j}, acc);
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

TEST_CASE("tensor descriptors: padding::nan reads NaN outside the tensor",
          "[interpreter][numerics][descriptor]") {
  const int R = 20, C = 24;
  std::vector<float> data(std::size_t(R) * C);
  for (int k = 0; k < R * C; ++k)
    data[std::size_t(k)] = float(k + 1);
  for (auto [i, j] : {std::pair{0, 0}, std::pair{-3, -5}, std::pair{10, 16}, std::pair{-20, 0}}) {
    std::vector<float> tile(256, -7.0f);
    tk_test::run(tile_nan, tk::grid(1), tile, std::as_const(data), R, C, i, j);
    INFO("block at (" << i << ", " << j << ")");
    int mismatches = 0;
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) {
        const float got = tile[std::size_t(r * 16 + c)];
        const bool inside = i + r >= 0 && i + r < R && j + c >= 0 && j + c < C;
        if (inside ? got != data[std::size_t((i + r) * C + j + c)] : !std::isnan(got))
          ++mismatches;
      }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("tensor descriptors: atomics combine the block inside the tensor and skip the rest",
          "[interpreter][numerics][descriptor][atomics]") {
  const int R = 20, C = 24, programs = 6;
  std::mt19937_64 gen(tk_test::fresh_seed());
  std::uniform_int_distribution<std::int32_t> small(-1000, 1000);
  std::uniform_int_distribution<std::uint32_t> bits;
  std::vector<std::int32_t> vals(std::size_t(programs) * 256);
  std::vector<float> fvals(vals.size());
  std::vector<std::uint32_t> uvals(vals.size());
  for (std::size_t k = 0; k < vals.size(); ++k) {
    vals[k] = k % 3 == 0 ? std::int32_t(bits(gen)) : small(gen);
    fvals[k] = float(small(gen)) / 8.0f; // sums exact in any order
    uvals[k] = bits(gen);
  }
  for (auto [i, j] : {std::pair{0, 0}, std::pair{-3, -5}, std::pair{10, 16}, std::pair{4, 8}}) {
    INFO("block at (" << i << ", " << j << ")");
    const std::size_t n = std::size_t(R) * C;
    std::vector<std::int32_t> sum(n, 5), hi(n, 5), lo(n, 5), all(n, -1), any(n, 0), parity(n, 3),
        count(n, 0);
    std::vector<float> fsum(n, 0.5f), fmax(n, -100.0f);
    std::vector<std::uint32_t> umax(n, 7), umin(n, 0x80000000u);
    auto want_sum = sum, want_hi = hi, want_lo = lo, want_all = all, want_any = any,
         want_parity = parity, want_count = count;
    auto want_fsum = fsum, want_fmax = fmax;
    auto want_umax = umax, want_umin = umin;
    for (int p = 0; p < programs; ++p)
      for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
          if (i + r < 0 || i + r >= R || j + c < 0 || j + c >= C)
            continue;
          const std::size_t t = std::size_t((i + r) * C + j + c),
                            v = std::size_t(p * 256 + r * 16 + c);
          want_sum[t] = std::int32_t(std::uint32_t(want_sum[t]) + std::uint32_t(vals[v]));
          want_hi[t] = std::max(want_hi[t], vals[v]);
          want_lo[t] = std::min(want_lo[t], vals[v]);
          want_all[t] &= vals[v];
          want_any[t] |= vals[v];
          want_parity[t] ^= vals[v];
          want_count[t] += 1;
          want_fsum[t] += fvals[v];
          want_fmax[t] = std::max(want_fmax[t], fvals[v]);
          want_umax[t] = std::max(want_umax[t], uvals[v]);
          want_umin[t] = std::min(want_umin[t], uvals[v]);
        }
    tk_test::run(reduce_i32, tk::grid(programs), sum, hi, lo, all, any, parity, count,
                 std::as_const(vals), R, C, i, j);
    TK_CHECK_EQUAL(sum, want_sum);
    TK_CHECK_EQUAL(hi, want_hi);
    TK_CHECK_EQUAL(lo, want_lo);
    TK_CHECK_EQUAL(all, want_all);
    TK_CHECK_EQUAL(any, want_any);
    TK_CHECK_EQUAL(parity, want_parity);
    TK_CHECK_EQUAL(count, want_count);
    tk_test::run(reduce_f32_u32, tk::grid(programs), fsum, fmax, umax, umin, std::as_const(fvals),
                 std::as_const(uvals), R, C, i, j);
    TK_CHECK_EQUAL(fsum, want_fsum);
    TK_CHECK_EQUAL(fmax, want_fmax);
    TK_CHECK_EQUAL(umax, want_umax);
    TK_CHECK_EQUAL(umin, want_umin);
  }
}

TEST_CASE("tensor descriptors: carried through a loop and chosen by a branch",
          "[interpreter][numerics][descriptor]") {
  const int M = 29, N = 20, step = M * N + 4; // each matrix 16-byte aligned
  for (int K : {1, 3}) {
    INFO("K = " << K);
    std::vector<float> in(std::size_t(K) * step, 1e9f), out(2 * N, -7.0f), want(out.size(), -7.0f);
    for (int k = 0; k < K; ++k)
      for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c)
          in[std::size_t(k * step + r * N + c)] = float((k * 31 + r * 7 + c * 3) % 17);
    for (int c = 0; c < N; ++c) {
      float sum = 0;
      for (int k = 0; k < K; ++k)
        for (int r = 0; r < M; ++r)
          sum += in[std::size_t(k * step + r * N + c)];
      want[std::size_t((K > 2 ? N : 0) + c)] = sum;
    }
    tk_test::run(stacked_sums, tk::grid(tk::cdiv(N, 16)), out, std::as_const(in), M, N, K, step);
    TK_CHECK_EQUAL(out, want);
  }
  if constexpr (!tk_test::on_gpu) {
    // The IR carries the descriptor: an scf.for and an scf.if with !tk.tensordesc results.
    std::vector<float> in(64), out(64);
    const std::string ir = stacked_sums.ir(out, in, 29, 20, 3, 584);
    CHECK(ir.find("scf.for") != std::string::npos);
    CHECK(ir.find("-> (tensor<16xf32>, !tk.tensordesc<tensor<32x16xf32>>)") != std::string::npos);
    CHECK(ir.find("-> (!tk.tensordesc<tensor<16xf32>>) {") != std::string::npos);
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

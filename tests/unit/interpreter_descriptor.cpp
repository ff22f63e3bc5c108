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
#include <functional>
#include <random>
#include <string>
#include <tuple>
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

/// The affine kernel over descriptors made on the host (tk::host_tensor_descriptor): the block
/// shape is the descriptors', a constant the kernel is compiled for.
auto affine_host = tk::jit("descriptor_affine_host", [](tk::tensor_descriptor<float, 2> dst,
                                                        tk::tensor_descriptor<const float, 2> src) {
  const auto bm = int(src.block_shape()[0]), bn = int(src.block_shape()[1]);
  auto i = tk::program_id(0) * bm, j = tk::program_id(1) * bn;
  dst.store({i, j}, src.load({i, j}) * 2.0f + 1.0f);
});

/// The 16 x 16 block at (i, j) of a host descriptor (of any padding), stored whole.
auto tile_host = tk::jit(
    "descriptor_tile_host",
    [](tk::ptr<float> tile, tk::tensor_descriptor<const float, 2> src, tk::i32 i, tk::i32 j) {
      auto r = tk::arange(0, 16)(tk::_, tk::newaxis), c = tk::arange(0, 16)(tk::newaxis, tk::_);
      tk::store(tile + r * 16 + c, src.load({i, j}));
    });

/// C = A B with A (M x K), B (K x N) and C (M x N) all host descriptors, f16 products into f32:
/// the kernel Triton's host TensorDescriptor matmuls are, pipelined over K.
auto matmul_host =
    tk::jit("descriptor_matmul_host",
            [](tk::tensor_descriptor<float, 2> c, tk::tensor_descriptor<const tk::half, 2> a,
               tk::tensor_descriptor<const tk::half, 2> b, tk::i32 K) {
              const auto BM = int(a.block_shape()[0]), BK = int(a.block_shape()[1]),
                         BN = int(b.block_shape()[1]);
              auto m0 = tk::program_id(0) * BM, n0 = tk::program_id(1) * BN;
              auto acc = tk::zeros<float>({BM, BN});
              tk::for_range(0, tk::cdiv(K, BK), [&](tk::i32 k) {
                acc = tk::dot(a.load({m0, k * BK}), b.load({k * BK, n0}), acc);
              });
              c.store({m0, n0}, acc);
            });

/// Rows `ids` (N = 16 of them, any of them outside the M x D table) of a table, from column
/// `col`, in blocks of BD columns: an embedding lookup through desc.gather. Each gathered block
/// is also scattered, plus 1, into the same rows of `out` (ids without repeats).
auto gather_rows =
    tk::jit("descriptor_gather_rows",
            [](tk::ptr<float> rows_out, tk::ptr<float> out, tk::ptr<const float> table,
               tk::ptr<const std::int32_t> ids, tk::i32 M, tk::i32 D, tk::i32 col,
               tk::constant<int> BD, tk::constant<bool> NAN_PAD) {
              auto src = tk::make_tensor_descriptor(table, {M, D}, {D, 1}, {1, BD},
                                                    NAN_PAD ? tk::padding::nan : tk::padding::zero);
              auto dst = tk::make_tensor_descriptor(out, {M, D}, {D, 1}, {1, BD});
              auto rows = tk::load(ids + tk::arange(0, 16));
              auto c = col + tk::program_id(0) * BD;
              auto x = src.gather(rows, c);
              auto r = tk::arange(0, 16)(tk::_, tk::newaxis),
                   k = tk::arange(0, BD)(tk::newaxis, tk::_);
              tk::store(rows_out + r * (tk::num_programs(0) * BD) + tk::program_id(0) * BD + k, x);
              dst.scatter(x + 1.0f, rows, c);
            });

// The lines of the statements that fail below (set as the kernels are traced).
int misaligned_line = 0, strided_line = 0, runtime_block_line = 0, gather_block_line = 0,
    scatter_shape_line = 0;

auto gather_block =
    tk::jit("descriptor_gather_block", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
      auto d = tk::make_tensor_descriptor(in, {n, n}, {n, 1}, {2, 16});
      gather_block_line = __LINE__ + 1;
      auto x = d.gather(tk::arange(0, 16), 0);
      tk::store(out + tk::arange(0, 16), tk::sum(x, 1));
    });

auto scatter_shape = tk::jit("descriptor_scatter_shape", [](tk::ptr<float> out, tk::i32 n) {
  auto d = tk::make_tensor_descriptor(out, {n, n}, {n, 1}, {1, 16});
  scatter_shape_line = __LINE__ + 1;
  d.scatter(tk::zeros<float>({8, 16}), tk::arange(0, 16), 0);
});

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
    tk_test::expect_error(file, gather_block_line,
                          "tensor_descriptor::gather: the descriptor's block must be one row, "
                          "[1, BN], as in Triton; got [2, 16]",
                          [&] { gather_block.interpret(tk::grid(1), out, square, 16); });
    tk_test::expect_error(file, gather_block_line, "tensor_descriptor::gather: the descriptor's",
                          [&] { (void)gather_block.ir(out, square, 16); });
    tk_test::expect_error(file, scatter_shape_line,
                          "tensor_descriptor::scatter: the value of shape [8, 16] does not "
                          "broadcast to the gathered rows' block of shape [16, 16]",
                          [&] { scatter_shape.interpret(tk::grid(1), square, 16); });
  } else {
    SUCCEED("errors are checked by the interpreter");
  }
}

TEST_CASE("host tensor descriptors: launch arguments read and write as descriptors made in the "
          "kernel",
          "[interpreter][numerics][descriptor]") {
  const int M = 37, N = 45, ld = 48;
  std::vector<float> in(std::size_t(M) * ld), want(in.size(), -7.0f);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < ld; ++c) {
      in[std::size_t(r * ld + c)] = float(r * 100 + c);
      if (c < N)
        want[std::size_t(r * ld + c)] = 2.0f * float(r * 100 + c) + 1.0f;
    }
  // Two block shapes: two kernels, each compiled for its descriptors' blocks.
  for (auto [bm, bn] : {std::pair{16, 32}, std::pair{32, 16}}) {
    INFO("blocks of " << bm << " x " << bn);
    std::vector<float> out(in.size(), -7.0f);
    tk_test::run(affine_host, tk::grid(tk::cdiv(M, bm), tk::cdiv(N, bn)),
                 tk_test::described(out, {M, N}, {ld, 1}, {bm, bn}),
                 tk_test::described(std::as_const(in), {M, N}, {ld, 1}, {bm, bn}));
    TK_CHECK_EQUAL(out, want);
  }

  // Padding: zero by default, NaN where the descriptor says so.
  const int R = 20, C = 24;
  std::vector<float> data(std::size_t(R) * C);
  for (int k = 0; k < R * C; ++k)
    data[std::size_t(k)] = float(k + 1);
  for (tk::padding pad : {tk::padding::zero, tk::padding::nan})
    for (auto [i, j] : {std::pair{0, 0}, std::pair{-3, -5}, std::pair{10, 16}}) {
      INFO("block at (" << i << ", " << j << "), padding " << int(pad));
      std::vector<float> tile(256, -7.0f);
      tk_test::run(tile_host, tk::grid(1), tile,
                   tk_test::described(std::as_const(data), {R, C}, {C, 1}, {16, 16}, pad), i, j);
      int mismatches = 0;
      for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
          const float got = tile[std::size_t(r * 16 + c)];
          const bool inside = i + r >= 0 && i + r < R && j + c >= 0 && j + c < C;
          if (inside                    ? got != data[std::size_t((i + r) * C + j + c)]
              : pad == tk::padding::nan ? !std::isnan(got)
                                        : got != 0.0f)
            ++mismatches;
        }
      CHECK(mismatches == 0);
    }
}

/// A (M x K) and B (K x N) of small integers in f16 and their product, exact in f32 whatever the
/// order of the sums.
template <class Gen>
std::tuple<std::vector<tk::half>, std::vector<tk::half>, std::vector<float>>
small_integer_product(Gen &gen, int M, int N, int K) {
  std::vector<tk::half> a(std::size_t(M) * K), b(std::size_t(K) * N);
  std::uniform_int_distribution<int> small(-3, 3);
  for (auto &x : a)
    x = tk::half(float(small(gen)));
  for (auto &x : b)
    x = tk::half(float(small(gen)));
  std::vector<float> want(std::size_t(M) * N, 0.0f);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n)
        want[std::size_t(m * N + n)] +=
            float(a[std::size_t(m * K + k)]) * float(b[std::size_t(k * N + n)]);
  return {std::move(a), std::move(b), std::move(want)};
}

TEST_CASE("host tensor descriptors: a pipelined matmul over three descriptors",
          "[interpreter][numerics][descriptor][dot]") {
  TK_TEST_RANDOM(gen);
  const int M = 200, N = 136, K = 168;
  const auto [a, b, want] = small_integer_product(gen, M, N, K);
  std::vector<float> c(want.size(), -7.0f);
  tk_test::run_with({.num_warps = 4, .num_stages = 3}, matmul_host,
                    tk::grid(tk::cdiv(M, 64), tk::cdiv(N, 64)),
                    tk_test::described(c, {M, N}, {N, 1}, {64, 64}),
                    tk_test::described(std::as_const(a), {M, K}, {K, 1}, {64, 32}),
                    tk_test::described(std::as_const(b), {K, N}, {N, 1}, {32, 64}), K);
  TK_CHECK_EQUAL(c, want);
  if constexpr (tk_test::on_gpu) {
    // On sm_90 all three are tensor maps: rows of 136 elements (a size and a stride divisible by
    // 8) are 272 bytes of f16 and 544 of f32, multiples of 16.
    if (tk::gpu_name().find("(sm_90") != std::string::npos) {
      tk::device_buffer<tk::half> da(a), db(b);
      tk::device_buffer<float> dc(c.size());
      const tk::host_tensor_descriptor ha(std::as_const(da), {M, K}, {K, 1}, {64, 32});
      const tk::host_tensor_descriptor hb(std::as_const(db), {K, N}, {N, 1}, {32, 64});
      const tk::host_tensor_descriptor hc(dc, {M, N}, {N, 1}, {64, 64});
      CHECK(matmul_host.compiled({.num_warps = 4, .num_stages = 3}, hc, ha, hb, K).tensor_maps ==
            3);
    }
  }
}

TEST_CASE("host tensor descriptors: the launch passes base, sizes, strides and a block constant",
          "[interpreter][descriptor]") {
  if constexpr (!tk_test::on_gpu) {
    std::vector<float> in(64 * 48), out(64 * 48);
    const tk::host_tensor_descriptor src(in, {40, 36}, {48, 1}, {16, 32});
    const tk::host_tensor_descriptor dst(out, {40, 36}, {48, 1}, {16, 32});
    CHECK(src.base() == in.data());
    CHECK(src.shape() == std::array<std::int64_t, 2>{40, 36});
    CHECK(src.strides() == std::array<std::int64_t, 2>{48, 1});
    CHECK(src.block_shape() == std::array<std::int64_t, 2>{16, 32});
    CHECK(src.padding_option() == tk::padding::zero);
    const std::string ir = affine_host.ir(dst, src);
    INFO(ir);
    // Each descriptor is a pointer, two i32 sizes and one i32 stride (the last is 1), made into
    // a descriptor in parameter order; the block shape is in the type.
    CHECK(ir.find("@descriptor_affine_host(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, "
                  "%arg1: i32 {tk.divisibility = 8 : i32}, %arg2: i32 {tk.divisibility = 4 : i32}, "
                  "%arg3: i32 {tk.divisibility = 16 : i32}, %arg4: !tk.ptr<f32>") !=
          std::string::npos);
    const auto first = ir.find("\"tk.make_tensor_descriptor\"(%arg0, %arg1, %arg2,");
    const auto second = ir.find("\"tk.make_tensor_descriptor\"(%arg4, %arg5, %arg6,");
    CHECK(first != std::string::npos);
    CHECK(second != std::string::npos);
    CHECK(first < second);
    CHECK(ir.find("!tk.tensordesc<tensor<16x32xf32>>") != std::string::npos);
    // jit_options name the descriptor's parameter: none of its parts is specialized on.
    auto plain = tk::jit(
        "descriptor_affine_host_plain",
        [](tk::tensor_descriptor<float, 2> d, tk::tensor_descriptor<const float, 2> s) {
          d.store({0, 0}, s.load({0, 0}));
        },
        tk::jit_options{.do_not_specialize = {1}});
    const std::string unspecialized = plain.ir(dst, src);
    INFO(unspecialized);
    CHECK(unspecialized.find("%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}") !=
          std::string::npos);
    CHECK(unspecialized.find("%arg4: !tk.ptr<f32>, %arg5: i32, %arg6: i32, %arg7: i32)") !=
          std::string::npos);
  } else {
    SUCCEED("the IR is checked without a GPU");
  }
}

TEST_CASE("host tensor descriptors: the descriptor's rules are errors where it is made",
          "[interpreter][errors][descriptor]") {
  const char *file = "interpreter_descriptor.cpp";
  alignas(16) static float data[64 * 64];
  std::vector<std::int32_t> ints(256);
  const std::int64_t huge = std::int64_t(1) << 32;
  const tk::padding nan = tk::padding::nan;
  int line = 0;
  tk_test::expect_error(file, line, "tk::host_tensor_descriptor: the base pointer is null", [&] {
    float *null = nullptr;
    line = __LINE__ + 1;
    tk::host_tensor_descriptor d(null, {8}, {1}, {8});
    (void)d;
  });
  tk_test::expect_error(
      file, line, "tk::host_tensor_descriptor: the base address must be 16-byte aligned", [&] {
        line = __LINE__ + 1;
        tk::host_tensor_descriptor d(data + 1, {8}, {1}, {8});
        (void)d;
      });
  tk_test::expect_error(file, line,
                        "tk::host_tensor_descriptor: dimension 1 has size 0; sizes must be from 1 "
                        "to 2^31 - 1",
                        [&] {
                          line = __LINE__ + 1;
                          tk::host_tensor_descriptor d(data, {8, 0}, {16, 1}, {8, 8});
                          (void)d;
                        });
  tk_test::expect_error(file, line, "tk::host_tensor_descriptor: dimension 0 has size 4294967296",
                        [&] {
                          line = __LINE__ + 1;
                          tk::host_tensor_descriptor d(data, {huge, 8}, {16, 1}, {8, 8});
                          (void)d;
                        });
  tk_test::expect_error(file, line,
                        "tk::host_tensor_descriptor: the last stride must be 1 (the last "
                        "dimension contiguous), got 2",
                        [&] {
                          line = __LINE__ + 1;
                          tk::host_tensor_descriptor d(data, {8, 8}, {16, 2}, {8, 8});
                          (void)d;
                        });
  tk_test::expect_error(file, line,
                        "tk::host_tensor_descriptor: the stride of dimension 0 (6 elements) must "
                        "be a positive multiple of 16 bytes",
                        [&] {
                          line = __LINE__ + 1;
                          tk::host_tensor_descriptor d(data, {8, 6}, {6, 1}, {8, 8});
                          (void)d;
                        });
  tk_test::expect_error(
      file, line, "tk::host_tensor_descriptor: every dimension of a block must be a power of two",
      [&] {
        line = __LINE__ + 1;
        tk::host_tensor_descriptor d(data, {8, 8}, {16, 1}, {8, 12});
        (void)d;
      });
  tk_test::expect_error(file, line,
                        "tk::host_tensor_descriptor: padding::nan needs a tensor of floats, got "
                        "i32",
                        [&] {
                          line = __LINE__ + 1;
                          tk::host_tensor_descriptor d(ints, {16}, {1}, {16}, nan);
                          (void)d;
                        });
}

TEST_CASE("tensor descriptors: gather and scatter rows by index",
          "[interpreter][numerics][descriptor]") {
  const int M = 50, D = 40, BD = 16, programs = 3; // columns col .. col + 47 of 40
  std::vector<float> table(std::size_t(M) * D);
  for (int k = 0; k < M * D; ++k)
    table[std::size_t(k)] = float(k % 997) + 0.5f;
  // Rows inside, and outside (negative, M and past it): those read as the padding and are not
  // written.
  const std::vector<std::int32_t> ids{3, 0, 49, -1, 17, 50, 8, 31, 1000, 2, 44, 12, -7, 25, 9, 40};
  for (int col : {0, 5})
    for (bool nan_pad : {false, true}) {
      INFO("col " << col << ", NaN padding " << nan_pad);
      std::vector<float> rows(std::size_t(16) * programs * BD, -7.0f), out(table.size(), -3.0f);
      tk_test::run(gather_rows, tk::grid(programs), rows, out, std::as_const(table),
                   std::as_const(ids), M, D, col, tk::constant(BD), tk::constant(nan_pad));
      std::vector<float> want_out(out.size(), -3.0f);
      int mismatches = 0;
      for (int r = 0; r < 16; ++r)
        for (int k = 0; k < programs * BD; ++k) {
          const int row = ids[std::size_t(r)], c = col + k;
          const bool inside = row >= 0 && row < M && c < D;
          const float got = rows[std::size_t(r * programs * BD + k)];
          if (inside) {
            const float want = table[std::size_t(row * D + c)];
            mismatches += got != want;
            want_out[std::size_t(row * D + c)] = want + 1.0f;
          } else {
            mismatches += nan_pad ? !std::isnan(got) : got != 0.0f;
          }
        }
      CHECK(mismatches == 0);
      TK_CHECK_EQUAL(out, want_out);
    }
  if constexpr (!tk_test::on_gpu) {
    std::vector<float> rows(16 * 16), out(table.size());
    const std::string ir =
        gather_rows.ir(rows, out, table, ids, M, D, 0, tk::constant(16), tk::constant(true));
    CHECK(ir.find("\"tk.descriptor_gather\"") != std::string::npos);
    CHECK(ir.find("<{nan_padding}> : (!tk.tensordesc<tensor<1x16xf32>>, tensor<16xi32>, i32) -> "
                  "tensor<16x16xf32>") != std::string::npos);
    CHECK(ir.find("\"tk.descriptor_scatter\"") != std::string::npos);
  }
}

/// The matmul over host descriptors with its tile as constants, for tk::autotune: the grid and
/// the offsets use BM, BN and BK, the loads and stores the descriptors' block shapes, which the
/// config sets through tk::tuned block dimensions (what Triton's autotuned TensorDescriptor
/// kernels do in a pre_hook). Were the two to differ, the product would be wrong.
auto matmul_host_tiles =
    tk::jit("descriptor_matmul_host_tiles",
            [](tk::tensor_descriptor<float, 2> c, tk::tensor_descriptor<const tk::half, 2> a,
               tk::tensor_descriptor<const tk::half, 2> b, tk::i32 K, tk::constant<int> BM,
               tk::constant<int> BN, tk::constant<int> BK) {
              auto m0 = tk::program_id(0) * BM, n0 = tk::program_id(1) * BN;
              auto acc = tk::zeros<float>({int(a.block_shape()[0]), int(b.block_shape()[1])});
              tk::for_range(0, tk::cdiv(K, BK), [&](tk::i32 k) {
                acc = tk::dot(a.load({m0, k * BK}), b.load({k * BK, n0}), acc);
              });
              c.store({m0, n0}, acc);
            });

TEST_CASE("host tensor descriptors: tk::autotune sets tk::tuned block dimensions per config",
          "[interpreter][numerics][descriptor][autotune]") {
  TK_TEST_RANDOM(gen);
  const int M = 200, N = 136, K = 168;
  const auto [a, b, want] = small_integer_product(gen, M, N, K);

  tk::autotune_options options{.configs = {{{{"BM", 64}, {"BN", 64}, {"BK", 32}}, 4, 3},
                                           {{{"BM", 128}, {"BN", 64}, {"BK", 64}}, 4, 3},
                                           {{{"BM", 32}, {"BN", 32}, {"BK", 16}}, 4, 2}},
                               .key = {3}};
  // The interpreter tunes with a bench that makes the second config the fastest; the GPU times
  // every config with CUDA events.
  std::vector<int> benched;
  if constexpr (!tk_test::on_gpu)
    options.bench = [&](const tk::config &c, const std::function<void()> &launch) {
      launch();
      benched.push_back(int(c.constants[0].second));
      return c.constants[0].second == 128 ? 1.0 : 2.0;
    };
  const auto tuned = tk::autotune(matmul_host_tiles, options);
  int seen_bm = 0;
  const auto grid = [&](int BM, int BN, int) {
    seen_bm = BM;
    return tk::grid(tk::cdiv(M, BM), tk::cdiv(N, BN));
  };
  const tk::tuned<int> BM("BM"), BN("BN"), BK("BK");
  std::vector<float> c(want.size(), -7.0f);
  if constexpr (tk_test::on_gpu) {
    tk::device_buffer<tk::half> da(a), db(b);
    tk::device_buffer<float> dc(c);
    const tk::host_tensor_descriptor ha(std::as_const(da), {M, K}, {K, 1}, {BM, BK});
    const tk::host_tensor_descriptor hb(std::as_const(db), {K, N}, {N, 1}, {BK, BN});
    const tk::host_tensor_descriptor hc(dc, {M, N}, {N, 1}, {BM, BN});
    tuned.launch(grid, hc, ha, hb, K, BM, BN, BK);
    c = dc.to_host();
    INFO("the launch after tuning ran BM = " << seen_bm);
    TK_CHECK_EQUAL(c, want);
  } else {
    const tk::host_tensor_descriptor ha(std::as_const(a), {M, K}, {K, 1}, {BM, BK});
    const tk::host_tensor_descriptor hb(std::as_const(b), {K, N}, {N, 1}, {BK, BN});
    const tk::host_tensor_descriptor hc(c, {M, N}, {N, 1}, {BM, BN});
    CHECK(ha.tuned_dimension(0) == "BM");
    CHECK(ha.block_shape() == std::array<std::int64_t, 2>{0, 0});
    tuned.launch(grid, tk::launch_options{.backend = tk::backend::interpreter}, hc, ha, hb, K, BM,
                 BN, BK);
    // Every config ran (and the bench saw each), then the launch after tuning ran the fastest.
    CHECK(benched == std::vector<int>{64, 128, 32});
    CHECK(seen_bm == 128);
    TK_CHECK_EQUAL(c, want);
    // Each config's descriptors are made with its block shape.
    const std::string ir = tuned.ir(options.configs[1], hc, ha, hb, K, BM, BN, BK);
    INFO(ir);
    CHECK(ir.find("!tk.tensordesc<tensor<128x64xf16>>") != std::string::npos);
    CHECK(ir.find("!tk.tensordesc<tensor<64x64xf16>>") != std::string::npos);
    CHECK(ir.find("!tk.tensordesc<tensor<128x64xf32>>") != std::string::npos);
    // A second launch with the same key does not tune again.
    tuned.launch(grid, tk::launch_options{.backend = tk::backend::interpreter}, hc, ha, hb, K, BM,
                 BN, BK);
    CHECK(benched.size() == 3);
  }
}

TEST_CASE("errors: tk::tuned block dimensions of host tensor descriptors",
          "[errors][descriptor][autotune]") {
  if constexpr (!tk_test::on_gpu) {
    constexpr std::string_view this_file = "interpreter_descriptor.cpp";
    std::vector<float> in(64 * 48), out(64 * 48);
    const tk::tuned<int> BM("BM"), BN("BN");
    int line = 0;
    // Outside tk::autotune nothing gives the placeholder a value.
    tk_test::expect_error(
        this_file, line,
        "block dimension 1 is tk::tuned(\"BN\"), which only a tk::autotune config gives a value",
        [&] {
          line = __LINE__ + 1;
          const tk::host_tensor_descriptor src(in, {40, 36}, {48, 1}, {16, BN});
          const tk::host_tensor_descriptor dst(out, {40, 36}, {48, 1}, {16, 32});
          affine_host.launch(tk::grid(3, 2), {.backend = tk::backend::interpreter}, dst, src);
        });
    // Sizes and strides are the tensor's.
    tk_test::expect_error(
        this_file, line,
        "the size of dimension 0 is tk::tuned(\"BM\"); only block dimensions can be tuned", [&] {
          line = __LINE__ + 1;
          const tk::tuned<int> rows("BM");
          (void)tk::host_tensor_descriptor(in, {rows, 36}, {48, 1}, {16, 32});
        });
    // A config that gives no value for a dimension; one whose value is no block dimension.
    auto two_configs = [&](tk::config second) {
      return tk::autotune(affine_host, {.configs = {second, {{{"BM", 16}, {"BN", 32}}}}});
    };
    tk_test::expect_error(
        this_file, line,
        "tk::autotune config 0 of kernel 'descriptor_affine_host' (BM=16, num_warps=4, "
        "num_stages=3) gives no value for tk::tuned(\"BN\"), block dimension 1 of the "
        "tk::host_tensor_descriptor passed as launch argument 1",
        [&] {
          const auto t = tk::autotune(affine_host, {.configs = {{{{"BM", 16}}}}});
          line = __LINE__ + 1;
          const tk::tuned<int> bn("BN");
          const tk::host_tensor_descriptor src(in, {40, 36}, {48, 1}, {BM, bn});
          const tk::host_tensor_descriptor dst(out, {40, 36}, {48, 1}, {16, 32});
          t.launch(tk::grid(3, 2), {.backend = tk::backend::interpreter}, dst, src);
        });
    tk_test::expect_error(
        this_file, line, "every dimension of a block must be a power of two, got shape [24, 32]",
        [&] {
          const auto t = two_configs({{{"BM", 24}, {"BN", 32}}});
          line = __LINE__ + 1;
          const tk::host_tensor_descriptor src(in, {40, 36}, {48, 1}, {BM, BN});
          const tk::host_tensor_descriptor dst(out, {40, 36}, {48, 1}, {16, 32});
          t.launch(tk::grid(3, 2), {.backend = tk::backend::interpreter}, dst, src);
        });
    // tk::heuristics alone gives no tk::tuned value.
    tk_test::expect_error(this_file, line,
                          "is launched through tk::heuristics alone, and only a tk::autotune "
                          "config gives a tk::tuned value",
                          [&] {
                            const auto h = tk::heuristics(affine_host, {});
                            line = __LINE__ + 1;
                            const tk::tuned<int> bm("BM");
                            const tk::host_tensor_descriptor src(in, {40, 36}, {48, 1}, {bm, 32});
                            const tk::host_tensor_descriptor dst(out, {40, 36}, {48, 1}, {16, 32});
                            h.launch(tk::grid(3, 2), {.backend = tk::backend::interpreter}, dst,
                                     src);
                          });
  } else {
    SUCCEED("errors are checked by the interpreter");
  }
}

/// @file memory.cpp
/// docs/writing-kernels.md: loads, stores, masks, pointer arithmetic; shapes.
#include "doc_examples.hpp"

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

// [snippet:masked_load]
// Copies n values into a buffer of BLOCK values, padding with -1.
auto pad = tk::jit(
    "pad", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n, tk::constant<int> BLOCK) {
      auto offs = tk::arange(0, BLOCK);
      auto x = tk::load(in + offs, offs < n, -1.0f); // lanes >= n are not read: they take -1
      tk::store(out + offs, x);                      // every lane is written
    });
// [/snippet]

// [snippet:tile_2d]
// Copies an M x N row-major matrix (leading dimension ld) in BM x BN tiles; a 2-D grid.
auto copy_2d =
    tk::jit("copy_2d", [](tk::ptr<float> dst, tk::ptr<const float> src, tk::i32 M, tk::i32 N,
                          tk::i32 ld, tk::constant<int> BM, tk::constant<int> BN) {
      auto rows = tk::program_id(0) * BM + tk::arange(0, BM); // [BM]
      auto cols = tk::program_id(1) * BN + tk::arange(0, BN); // [BN]
      auto r = rows(tk::_, tk::newaxis);                      // [BM, 1]
      auto c = cols(tk::newaxis, tk::_);                      // [1, BN]
      auto offs = r * ld + c;                                 // [BM, BN]
      auto mask = (r < M) && (c < N);                         // [BM, BN]
      auto tile = tk::load(src + offs, mask);
      tk::store(dst + offs, tile, mask);
    });
// [/snippet]

// [snippet:descriptor]
// The same copy through tensor descriptors: no offsets, no masks. Blocks hanging over the edges
// read zeros there and write nothing there.
auto copy_desc =
    tk::jit("copy_desc", [](tk::ptr<float> dst, tk::ptr<const float> src, tk::i32 M, tk::i32 N,
                            tk::i32 ld, tk::constant<int> BM, tk::constant<int> BN) {
      auto in = tk::make_tensor_descriptor(src, {M, N}, {ld, 1}, {BM, BN});
      auto out = tk::make_tensor_descriptor(dst, {M, N}, {ld, 1}, {BM, BN});
      auto i = tk::program_id(0) * BM, j = tk::program_id(1) * BN;
      out.store({i, j}, in.load({i, j}));
    });
// [/snippet]

// [snippet:host_descriptor]
// The copy again, its descriptors made on the host and passed in: the kernel reads the block
// shape from them (a constant it is compiled for).
auto copy_host_desc = tk::jit("copy_host_desc", [](tk::tensor_descriptor<float, 2> out,
                                                   tk::tensor_descriptor<const float, 2> in) {
  const auto BM = int(in.block_shape()[0]), BN = int(in.block_shape()[1]);
  auto i = tk::program_id(0) * BM, j = tk::program_id(1) * BN;
  out.store({i, j}, in.load({i, j}));
});
// [/snippet]

// [snippet:descriptor_gather]
// An embedding lookup: the rows `ids` of an M x D table (ids outside it read zeros), BD columns
// per program, gathered through a descriptor of one-row blocks and scattered into `out`'s rows
// 0..15.
auto embed = tk::jit("embed", [](tk::ptr<float> out, tk::ptr<const float> table,
                                 tk::ptr<const std::int32_t> ids, tk::i32 M, tk::i32 D,
                                 tk::constant<int> BD) {
  auto src = tk::make_tensor_descriptor(table, {M, D}, {D, 1}, {1, BD});
  auto dst = tk::make_tensor_descriptor(out, {16, D}, {D, 1}, {1, BD});
  auto col = tk::program_id(0) * BD;
  auto x = src.gather(tk::load(ids + tk::arange(0, 16)), col); // [16, BD]
  dst.scatter(x, tk::arange(0, 16), col);
});
// [/snippet]

// [snippet:descriptor_nan]
// The 16 x 16 tile at (i, j) of an M x N matrix, NaN where it hangs over the edges: whoever reads
// the tile tells the padding from a stored zero.
auto tile_nan = tk::jit("tile_nan", [](tk::ptr<float> tile, tk::ptr<const float> x, tk::i32 M,
                                       tk::i32 N, tk::i32 ld, tk::i32 i, tk::i32 j) {
  auto in = tk::make_tensor_descriptor(x, {M, N}, {ld, 1}, {16, 16}, tk::padding::nan);
  auto out = tk::make_tensor_descriptor(tile, {16, 16}, {16, 1}, {16, 16});
  out.store({0, 0}, in.load({i, j}));
});
// [/snippet]

// [snippet:descriptor_atomic]
// Column sums of an M x N matrix, a BM x BN block per program: each program adds its block's
// column sums into `sums` (N values, zero before the launch) atomically. Rows past the matrix
// read zeros; columns past it are skipped.
auto col_sums_desc =
    tk::jit("col_sums_desc", [](tk::ptr<float> sums, tk::ptr<const float> x, tk::i32 M, tk::i32 N,
                                tk::i32 ld, tk::constant<int> BM, tk::constant<int> BN) {
      auto in = tk::make_tensor_descriptor(x, {M, N}, {ld, 1}, {BM, BN});
      auto out = tk::make_tensor_descriptor(sums, {N}, {1}, {BN});
      auto i = tk::program_id(0) * BM, j = tk::program_id(1) * BN;
      out.atomic_add({j}, tk::sum(in.load({i, j}), 0));
    });
// [/snippet]

// [snippet:descriptor_loop]
// The sum of K stacked M x N matrices, `step` elements apart, a BM x BN block per program: at the
// end of each step the descriptor is made again for the next matrix, and the loop carries it.
auto sum_stack =
    tk::jit("sum_stack", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 M, tk::i32 N,
                            tk::i32 K, tk::i32 step, tk::constant<int> BM, tk::constant<int> BN) {
      auto i = tk::program_id(0) * BM, j = tk::program_id(1) * BN;
      auto d = tk::make_tensor_descriptor(in, {M, N}, {N, 1}, {BM, BN});
      auto acc = tk::zeros<float>({BM, BN});
      tk::for_range(0, K, [&](tk::i32 k) {
        acc += d.load({i, j});
        d = tk::make_tensor_descriptor(in + (k + 1) * step, {M, N}, {N, 1}, {BM, BN});
      });
      tk::make_tensor_descriptor(out, {M, N}, {N, 1}, {BM, BN}).store({i, j}, acc);
    });
// [/snippet]

// [snippet:block_pointer]
// Column sums of an M x N matrix through a block pointer that walks down the rows: any strides
// (here the matrix is read transposed), the block carried through the loop, the edges checked.
auto col_sums =
    tk::jit("col_sums", [](tk::ptr<float> sums, tk::ptr<const float> x, tk::i32 M, tk::i32 N,
                           tk::i32 ld, tk::constant<int> BM, tk::constant<int> BN) {
      auto col = tk::program_id(0) * BN;
      // The N x M transpose: element (j, i) at x + i * ld + j.
      auto xt = tk::make_block_ptr(x, {N, M}, {1, ld}, {col, 0}, {BN, BM}, {0, 1});
      auto acc = tk::zeros<float>({BN, BM});
      tk::for_range(0, M, BM, [&](tk::i32) {
        acc = acc + tk::load(xt, {0, 1}); // outside the matrix: zeros
        xt = tk::advance(xt, {0, BM});
      });
      tk::store(tk::make_block_ptr(sums, {N}, {1}, {col}, {BN}), tk::sum(acc, 1), {0});
    });
// [/snippet]

// [snippet:scalar_memory]
// One program per row: writes the row's sum to sums[row] (a scalar store) after reading the
// scale factor from memory (a scalar load).
auto row_sums = tk::jit("row_sums", [](tk::ptr<float> sums, tk::ptr<const float> x,
                                       tk::ptr<const float> scale, tk::constant<int> N) {
  auto row = tk::program_id(0);
  auto v = tk::load(x + row * N + tk::arange(0, N)); // [N]
  auto s = tk::load(scale);                          // tk::f32
  tk::store(sums + row, tk::sum(v) * s);             // scalar pointer, scalar value
});
// [/snippet]

// [snippet:store_convert]
auto to_half = tk::jit("to_half", [](tk::ptr<tk::half> out, tk::ptr<const float> in) {
  auto offs = tk::arange(0, 8);
  tk::store(out + offs, tk::load(in + offs)); // f32 values, stored as f16 (rounded)
  tk::store(out + 8 + offs, 1);               // a literal becomes 1.0 in f16
});
// [/snippet]

// [snippet:transpose]
auto transpose = tk::jit("transpose", [](tk::ptr<float> out, tk::ptr<const float> in,
                                         tk::constant<int> M, tk::constant<int> N) {
  auto i = tk::arange(0, M);
  auto j = tk::arange(0, N);
  auto tile = tk::load(in + i(tk::_, tk::newaxis) * N + j(tk::newaxis, tk::_)); // [M, N]
  auto t = tk::trans(tile);                                                     // [N, M]
  tk::store(out + j(tk::_, tk::newaxis) * M + i(tk::newaxis, tk::_), t);
});
// [/snippet]

// [snippet:shapes]
auto shapes = tk::jit("shapes", [](tk::ptr<std::int32_t> out) {
  auto x = tk::arange(0, 8);                   // [8]
  auto col = tk::expand_dims(x, 1);            // [8, 1], same as x(tk::_, tk::newaxis)
  auto row = x(tk::newaxis, tk::_);            // [1, 8], same as tk::expand_dims(x, 0)
  auto grid = tk::broadcast_to(row, {4, 8});   // [4, 8]: four copies of x
  auto cube = tk::reshape(x, {2, 2, 2});       // [2, 2, 2], row-major order kept
  auto swapped = tk::permute(cube, {2, 1, 0}); // dimension d of the result is dimension
                                               // order[d] of cube: swapped[a][b][c] = cube[c][b][a]
  tk::store(out + x, tk::reshape(swapped, {8}));
  tk::store(out + 8 + tk::arange(0, 32), tk::reshape(grid, {32}));
  (void)col;
});
// [/snippet]

// [snippet:int4]
// Two signed 4-bit weights per byte, low nibble first, unpacked to i8 in order.
auto unpack_int4 =
    tk::jit("unpack_int4", [](tk::ptr<std::int8_t> out, tk::ptr<const std::uint8_t> packed,
                              tk::constant<int> N) {
      auto bytes = tk::cast<std::int32_t>(tk::load(packed + tk::arange(0, N)));
      auto lo = tk::cast<std::int8_t>((bytes << 28) >> 28); // arithmetic shifts sign-extend
      auto hi = tk::cast<std::int8_t>((bytes << 24) >> 28);
      tk::store(out + tk::arange(0, 2 * N), tk::interleave(lo, hi)); // lo0, hi0, lo1, hi1, ...
    });
// [/snippet]

// [snippet:rotary]
// Rotary embedding on interleaved pairs: (x0, x1) -> (x0 cos - x1 sin, x0 sin + x1 cos).
auto rotary =
    tk::jit("rotary", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> cos_t,
                         tk::ptr<const float> sin_t, tk::constant<int> D) {
      auto offs = tk::arange(0, D);
      auto [x0, x1] = tk::split(tk::reshape(tk::load(x + offs), {D / 2, 2}));
      auto c = tk::load(cos_t + tk::arange(0, D / 2)), s = tk::load(sin_t + tk::arange(0, D / 2));
      tk::store(out + offs, tk::interleave(x0 * c - x1 * s, x0 * s + x1 * c));
    });
// [/snippet]

// [snippet:gather]
// Each of 8 tokens picks a row of a 16 x 4 table held in registers.
auto pick_rows = tk::jit("pick_rows", [](tk::ptr<float> out, tk::ptr<const float> table,
                                         tk::ptr<const std::int32_t> ids) {
  auto r = tk::arange(0, 16)(tk::_, tk::newaxis), c = tk::arange(0, 4)(tk::newaxis, tk::_);
  auto tile = tk::load(table + r * 4 + c); // [16, 4]
  auto t = tk::arange(0, 8)(tk::_, tk::newaxis);
  auto rows = tk::gather(tile, tk::broadcast_to(tk::load(ids + t), {8, 4}), 0); // [8, 4]
  tk::store(out + t * 4 + c, tk::flip(rows, 1));                                // reversed too
});
// [/snippet]

} // namespace

DOC_EXAMPLE("memory.masked_load") {
  std::vector<float> in = {1, 2, 3}, out(8);
  pad.interpret(tk::grid(1), out.data(), in.data(), 3, 8);
  doc::check(out == std::vector<float>{1, 2, 3, -1, -1, -1, -1, -1}, "padding");
}

DOC_EXAMPLE("memory.tile_2d") {
  const int M = 37, N = 21, ld = 24;
  std::vector<float> src(std::size_t(M * ld)), dst(src.size(), -1.0f);
  for (std::size_t k = 0; k < src.size(); ++k)
    src[k] = float(k);
  // [snippet:tile_2d_launch]
  copy_2d.interpret(tk::grid(tk::cdiv(M, 16), tk::cdiv(N, 8)), dst.data(), src.data(), M, N, ld, 16,
                    8);
  // [/snippet]
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < ld; ++c) {
      const std::size_t k = std::size_t(r * ld + c);
      doc::check(dst[k] == (c < N ? src[k] : -1.0f), "copied inside, untouched outside");
    }
}

DOC_EXAMPLE("memory.descriptor") {
  const int M = 37, N = 45, ld = 48; // rows of 48 floats: 192 bytes, a multiple of 16
  std::vector<float> src(std::size_t(M) * ld), dst(src.size(), -1.0f);
  for (std::size_t k = 0; k < src.size(); ++k)
    src[k] = float(k);
  copy_desc.interpret(tk::grid(tk::cdiv(M, 16), tk::cdiv(N, 32)), dst, src, M, N, ld, 16, 32);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < ld; ++c) {
      const std::size_t k = std::size_t(r * ld + c);
      doc::check(dst[k] == (c < N ? src[k] : -1.0f), "copied inside, untouched outside");
    }
}

DOC_EXAMPLE("memory.host_descriptor") {
  const int M = 37, N = 45, ld = 48;
  std::vector<float> src(std::size_t(M) * ld), dst(src.size(), -1.0f);
  for (std::size_t k = 0; k < src.size(); ++k)
    src[k] = float(k);
  // [snippet:host_descriptor_launch]
  // Base (a pointer or a buffer), shape, strides, block shape; padding::zero by default.
  const tk::host_tensor_descriptor in(std::as_const(src), {M, N}, {ld, 1}, {16, 32});
  const tk::host_tensor_descriptor out(dst, {M, N}, {ld, 1}, {16, 32});
  copy_host_desc.interpret(tk::grid(tk::cdiv(M, 16), tk::cdiv(N, 32)), out, in);
  // [/snippet]
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < ld; ++c) {
      const std::size_t k = std::size_t(r * ld + c);
      doc::check(dst[k] == (c < N ? src[k] : -1.0f), "copied inside, untouched outside");
    }
}

DOC_EXAMPLE("memory.descriptor_gather") {
  const int M = 30, D = 20;
  std::vector<float> table(std::size_t(M) * D), out(std::size_t(16) * D, -1.0f);
  for (std::size_t k = 0; k < table.size(); ++k)
    table[k] = float(k);
  std::vector<std::int32_t> ids(16);
  for (int r = 0; r < 16; ++r)
    ids[std::size_t(r)] = (r * 7) % 32; // 30 and 31 are outside the table
  embed.interpret(tk::grid(tk::cdiv(D, 16)), out, table, ids, M, D, 16);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < D; ++c) {
      const int id = ids[std::size_t(r)];
      const float want = id < M ? table[std::size_t(id * D + c)] : 0.0f;
      doc::check(out[std::size_t(r * D + c)] == want, "row ids[r] of the table, zeros outside");
    }
}

DOC_EXAMPLE("memory.descriptor_nan") {
  const int M = 20, N = 13, ld = 16;
  std::vector<float> x(std::size_t(M) * ld, 0.0f), tile(256);
  tile_nan.interpret(tk::grid(1), tile.data(), x.data(), M, N, ld, 8, 4);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) {
      const bool inside = 8 + r < M && 4 + c < N;
      const float t = tile[std::size_t(r * 16 + c)];
      doc::check(inside ? t == 0.0f : std::isnan(t), "zeros inside, NaN outside");
    }
}

DOC_EXAMPLE("memory.descriptor_atomic") {
  const int M = 45, N = 70, ld = 72;
  std::vector<float> x(std::size_t(M) * ld), sums(N, 0.0f);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < ld; ++c)
      x[std::size_t(r * ld + c)] = c < N ? float(r + c) : 1e9f; // the padding must not count
  col_sums_desc.interpret(tk::grid(tk::cdiv(M, 16), tk::cdiv(N, 32)), sums.data(), x.data(), M, N,
                          ld, 16, 32);
  for (int c = 0; c < N; ++c)
    doc::check(sums[std::size_t(c)] == float(M * c + M * (M - 1) / 2), "column sums");
}

DOC_EXAMPLE("memory.descriptor_loop") {
  const int M = 20, N = 24, K = 3, step = M * N;
  std::vector<float> in(std::size_t(K) * step), out(std::size_t(step), -1.0f);
  for (std::size_t k = 0; k < in.size(); ++k)
    in[k] = float(k % 97);
  sum_stack.interpret(tk::grid(tk::cdiv(M, 16), tk::cdiv(N, 16)), out.data(), in.data(), M, N, K,
                      step, 16, 16);
  for (int e = 0; e < step; ++e)
    doc::check(out[std::size_t(e)] ==
                   in[std::size_t(e)] + in[std::size_t(step + e)] + in[std::size_t(2 * step + e)],
               "the sum of the matrices");
}

DOC_EXAMPLE("memory.block_pointer") {
  const int M = 45, N = 70, ld = 72;
  std::vector<float> x(std::size_t(M) * ld), sums(N, -1.0f);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < ld; ++c)
      x[std::size_t(r * ld + c)] = c < N ? float(r + c) : 1e9f; // the padding must not count
  col_sums.interpret(tk::grid(tk::cdiv(N, 32)), sums.data(), x.data(), M, N, ld, 16, 32);
  for (int c = 0; c < N; ++c)
    doc::check(sums[std::size_t(c)] == float(M * c + M * (M - 1) / 2), "column sums");
}

DOC_EXAMPLE("memory.scalar") {
  std::vector<float> x(4 * 16, 1.0f), sums(4);
  const float scale = 0.5f;
  row_sums.interpret(tk::grid(4), sums.data(), x.data(), &scale, 16);
  doc::check(sums == std::vector<float>{8, 8, 8, 8}, "row sums");
}

DOC_EXAMPLE("memory.store_convert") {
  std::vector<float> in = {0.1f, 1, 2, 3, 4, 5, 6, 65536};
  std::vector<tk::half> out(16);
  to_half.interpret(tk::grid(1), out.data(), in.data());
  doc::check(float(out[0]) == float(tk::half(0.1)), "rounded to f16");
  doc::check(float(out[7]) == tk::inf<float>(), "65536 overflows f16");
  doc::check(float(out[8]) == 1.0f, "literal");
}

DOC_EXAMPLE("memory.transpose") {
  std::vector<float> in(16 * 32), out(in.size());
  for (std::size_t k = 0; k < in.size(); ++k)
    in[k] = float(k);
  transpose.interpret(tk::grid(1), out.data(), in.data(), 16, 32);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 32; ++j)
      doc::check(out[std::size_t(j * 16 + i)] == in[std::size_t(i * 32 + j)], "transpose");
}

DOC_EXAMPLE("memory.int4") {
  const std::vector<std::uint8_t> packed = {0x21, 0xF8, 0x7F, 0x90};
  std::vector<std::int8_t> out(8);
  unpack_int4.interpret(tk::grid(1), out.data(), packed.data(), 4);
  doc::check(out == std::vector<std::int8_t>{1, 2, -8, -1, -1, 7, 0, -7}, "nibbles, low first");
}

DOC_EXAMPLE("memory.rotary") {
  std::vector<float> x(8), c(4, 0.0f), s(4, 1.0f), out(8); // a quarter turn
  for (std::size_t k = 0; k < x.size(); ++k)
    x[k] = float(k);
  rotary.interpret(tk::grid(1), out.data(), x.data(), c.data(), s.data(), 8);
  doc::check(out == std::vector<float>{-1, 0, -3, 2, -5, 4, -7, 6}, "(x0, x1) -> (-x1, x0)");
}

DOC_EXAMPLE("memory.gather") {
  std::vector<float> table(64), out(32);
  for (std::size_t k = 0; k < table.size(); ++k)
    table[k] = float(k);
  const std::vector<std::int32_t> ids = {3, 0, 15, 3, 7, 1, 2, 9};
  pick_rows.interpret(tk::grid(1), out.data(), table.data(), ids.data());
  for (int t = 0; t < 8; ++t)
    for (int c = 0; c < 4; ++c)
      doc::check(out[std::size_t(t * 4 + c)] == float(ids[std::size_t(t)] * 4 + 3 - c),
                 "row ids[t], columns reversed");
}

DOC_EXAMPLE("memory.shapes") {
  std::vector<std::int32_t> out(8 + 32);
  shapes.interpret(tk::grid(1), out.data());
  // cube[a][b][c] = 4a + 2b + c; swapped[a][b][c] = cube[c][b][a] = 4c + 2b + a
  doc::check(std::vector<std::int32_t>(out.begin(), out.begin() + 8) ==
                 std::vector<std::int32_t>{0, 4, 2, 6, 1, 5, 3, 7},
             "permute");
  for (int k = 0; k < 32; ++k)
    doc::check(out[std::size_t(8 + k)] == k % 8, "broadcast_to");
}

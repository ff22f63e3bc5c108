/// @file interpreter_data_movement.cpp
/// Shape and data-movement ops (join, split, interleave, cat, flip, gather, swizzle2d, broadcast,
/// expand_dims over several axes, ravel): each in a kernel someone would write (int4 unpacking, a
/// rotary embedding on interleaved pairs, a row gather), bit for bit against a host reference.
/// Built into tk_gpu_numerics too, so the same kernels run on the GPU.
#include "interpreter_support.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------------
// int4 unpacking: each byte holds two signed 4-bit values, low nibble first.

auto unpack_int4 =
    tk::jit("unpack_int4", [](tk::ptr<std::int8_t> out, tk::ptr<const std::uint8_t> packed,
                              tk::constant<int> N) {
      auto offs = tk::program_id(0) * N + tk::arange(0, N);
      auto bytes = tk::cast<std::int32_t>(tk::load(packed + offs));
      auto lo = ((bytes << 28) >> 28); // sign-extends the low nibble
      auto hi = ((bytes << 24) >> 28);
      auto values = tk::interleave(tk::cast<std::int8_t>(lo), tk::cast<std::int8_t>(hi)); // [2N]
      tk::store(out + tk::program_id(0) * 2 * N + tk::arange(0, 2 * N), values);
    });

TEST_CASE("interpreter: int4 unpacking interleaves the low and high nibbles",
          "[interpreter][numerics][shape]") {
  TK_TEST_RANDOM(gen);
  const int n = 128, programs = 3;
  auto packed = tk_test::integers<std::uint8_t>(gen, std::size_t(n * programs), 0, 255);
  std::vector<std::int8_t> out(std::size_t(2 * n * programs), 99), want(out.size());
  tk_test::run(unpack_int4, tk::grid(programs), out, std::as_const(packed), tk::constant<int>(n));
  for (std::size_t k = 0; k < packed.size(); ++k) {
    const int lo = packed[k] & 0xF, hi = packed[k] >> 4;
    want[2 * k] = std::int8_t(lo >= 8 ? lo - 16 : lo);
    want[2 * k + 1] = std::int8_t(hi >= 8 ? hi - 16 : hi);
  }
  TK_CHECK_EQUAL(out, want);
}

// ---------------------------------------------------------------------------------------------
// Rotary embedding on interleaved pairs (x0, x1) -> (x0 cos - x1 sin, x0 sin + x1 cos).

auto rotary =
    tk::jit("rotary", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> cos_t,
                         tk::ptr<const float> sin_t, tk::constant<int> S, tk::constant<int> D) {
      auto s = tk::arange(0, S)(tk::_, tk::newaxis);
      auto offs = s * D + tk::arange(0, D)(tk::newaxis, tk::_);                  // [S, D]
      auto half = s * (D / 2) + tk::arange(0, D / 2)(tk::newaxis, tk::_);        // [S, D/2]
      auto [x0, x1] = tk::split(tk::reshape(tk::load(x + offs), {S, D / 2, 2})); // [S, D/2] each
      auto c = tk::load(cos_t + half), sn = tk::load(sin_t + half);
      auto rotated = tk::join(x0 * c - x1 * sn, x0 * sn + x1 * c); // [S, D/2, 2]
      tk::store(out + offs, tk::reshape(rotated, {S, D}));
    });

TEST_CASE("interpreter: a rotary embedding splits and joins interleaved pairs",
          "[interpreter][numerics][shape]") {
  TK_TEST_RANDOM(gen);
  const int S = 16, D = 64;
  auto x = tk_test::uniform(gen, S * D, -2, 2);
  auto angle = tk_test::uniform(gen, S * D / 2, -3.14, 3.14);
  std::vector<float> c(angle.size()), sn(angle.size());
  for (std::size_t k = 0; k < angle.size(); ++k) {
    c[k] = std::cos(angle[k]);
    sn[k] = std::sin(angle[k]);
  }
  std::vector<float> out(x.size());
  tk_test::run_with({.fp_fusion = false}, rotary, tk::grid(1), out, std::as_const(x),
                    std::as_const(c), std::as_const(sn), tk::constant<int>(S),
                    tk::constant<int>(D));
  std::vector<float> want(x.size());
  for (std::size_t p = 0; p < angle.size(); ++p) {
    const float x0 = x[2 * p], x1 = x[2 * p + 1];
    want[2 * p] = x0 * c[p] - x1 * sn[p];
    want[2 * p + 1] = x0 * sn[p] + x1 * c[p];
  }
  TK_CHECK_EQUAL(out, want);
}

// ---------------------------------------------------------------------------------------------
// join/split keep every bit (signed zeros, NaN payloads); cat, flip.

auto shuffle_bits =
    tk::jit("shuffle_bits", [](tk::ptr<float> joined, tk::ptr<float> lo_out, tk::ptr<float> hi_out,
                               tk::ptr<float> catted, tk::ptr<float> flipped0,
                               tk::ptr<float> flipped1, tk::ptr<const float> a,
                               tk::ptr<const float> b, tk::constant<int> R, tk::constant<int> C) {
      auto r = tk::arange(0, R)(tk::_, tk::newaxis);
      auto c = tk::arange(0, C)(tk::newaxis, tk::_);
      auto offs = r * C + c;
      auto va = tk::load(a + offs), vb = tk::load(b + offs);
      auto j = tk::join(va, vb); // [R, C, 2]
      tk::store(joined + tk::expand_dims(offs, -1) * 2 +
                    tk::arange(0, 2)(tk::newaxis, tk::newaxis, tk::_),
                j);
      auto [lo, hi] = tk::split(j);
      tk::store(lo_out + offs, lo);
      tk::store(hi_out + offs, hi);
      tk::store(catted + tk::arange(0, 2 * R)(tk::_, tk::newaxis) * C + c, tk::cat(va, vb));
      tk::store(flipped0 + offs, tk::flip(va, 0));
      tk::store(flipped1 + offs, tk::flip(va)); // the last dimension
    });

TEST_CASE("interpreter: join, split, cat and flip move every bit",
          "[interpreter][numerics][shape]") {
  TK_TEST_RANDOM(gen);
  const int R = 8, C = 64;
  auto a = tk_test::uniform(gen, R * C, -1e3, 1e3), b = tk_test::uniform(gen, R * C, -1, 1);
  a[3] = -0.0f;
  b[5] = -0.0f;
  a[7] = std::bit_cast<float>(0x7fc12345u); // a NaN with a payload
  b[9] = std::bit_cast<float>(0xffc00001u); // quiet: loads may quiet a signaling NaN
  std::vector<float> joined(std::size_t(2 * R * C)), lo(std::size_t(R * C)), hi(lo.size()),
      catted(joined.size()), f0(lo.size()), f1(lo.size());
  tk_test::run(shuffle_bits, tk::grid(1), joined, lo, hi, catted, f0, f1, std::as_const(a),
               std::as_const(b), tk::constant<int>(R), tk::constant<int>(C));
  auto bits = [](const std::vector<float> &v) {
    std::vector<std::uint32_t> u(v.size());
    std::memcpy(u.data(), v.data(), v.size() * sizeof(float));
    return u;
  };
  std::vector<float> want_joined(joined.size()), want_cat(joined.size()), want_f0(lo.size()),
      want_f1(lo.size());
  for (int i = 0; i < R; ++i)
    for (int k = 0; k < C; ++k) {
      const auto at = std::size_t(i * C + k);
      want_joined[2 * at] = a[at];
      want_joined[2 * at + 1] = b[at];
      want_cat[at] = a[at];
      want_cat[std::size_t(R * C) + at] = b[at];
      want_f0[at] = a[std::size_t((R - 1 - i) * C + k)];
      want_f1[at] = a[std::size_t(i * C + (C - 1 - k))];
    }
  CHECK(bits(joined) == bits(want_joined));
  CHECK(bits(lo) == bits(a));
  CHECK(bits(hi) == bits(b));
  CHECK(bits(catted) == bits(want_cat));
  CHECK(bits(f0) == bits(want_f0));
  CHECK(bits(f1) == bits(want_f1));
}

// ---------------------------------------------------------------------------------------------
// gather: a row gather (embedding / MoE style) and a gather along the columns.

auto gathers = tk::jit(
    "gathers", [](tk::ptr<float> rows_out, tk::ptr<float> cols_out, tk::ptr<const float> table,
                  tk::ptr<const std::int32_t> row_ids, tk::ptr<const std::int64_t> col_ids,
                  tk::constant<int> V, tk::constant<int> D, tk::constant<int> T) {
      auto v = tk::arange(0, V)(tk::_, tk::newaxis);
      auto d = tk::arange(0, D)(tk::newaxis, tk::_);
      auto tile = tk::load(table + v * D + d); // [V, D]
      auto t = tk::arange(0, T)(tk::_, tk::newaxis);
      // Rows: each of T tokens picks a row of the tile; the ids broadcast over the columns.
      auto ids = tk::broadcast_to(tk::load(row_ids + t), {T, D});
      tk::store(rows_out + t * D + d, tk::gather(tile, ids, 0));
      // Columns: each row of the tile picks its own 8 columns.
      auto k = tk::arange(0, 8)(tk::newaxis, tk::_);
      auto picks = tk::load(col_ids + v * 8 + k); // [V, 8], i64
      tk::store(cols_out + v * 8 + k, tk::gather(tile, picks, 1));
    });

TEST_CASE("interpreter: tk::gather along rows and along columns",
          "[interpreter][numerics][shape]") {
  TK_TEST_RANDOM(gen);
  const int V = 32, D = 16, T = 64;
  auto table = tk_test::uniform(gen, V * D, -5, 5);
  auto row_ids = tk_test::integers<std::int32_t>(gen, T, 0, V - 1);
  auto col_ids = tk_test::integers<std::int64_t>(gen, V * 8, 0, D - 1);
  std::vector<float> rows(std::size_t(T * D)), cols(std::size_t(V * 8));
  tk_test::run(gathers, tk::grid(1), rows, cols, std::as_const(table), std::as_const(row_ids),
               std::as_const(col_ids), tk::constant<int>(V), tk::constant<int>(D),
               tk::constant<int>(T));
  std::vector<float> want_rows(rows.size()), want_cols(cols.size());
  for (int t = 0; t < T; ++t)
    for (int d = 0; d < D; ++d)
      want_rows[std::size_t(t * D + d)] = table[std::size_t(row_ids[std::size_t(t)] * D + d)];
  for (int v = 0; v < V; ++v)
    for (int k = 0; k < 8; ++k)
      want_cols[std::size_t(v * 8 + k)] =
          table[std::size_t(v * D + col_ids[std::size_t(v * 8 + k)])];
  TK_CHECK_EQUAL(rows, want_rows);
  TK_CHECK_EQUAL(cols, want_cols);
}

// ---------------------------------------------------------------------------------------------
// swizzle2d, broadcast, expand_dims over several axes, ravel.

auto index_helpers = tk::jit(
    "index_helpers", [](tk::ptr<std::int32_t> swizzled, tk::ptr<std::int32_t> sums,
                        tk::ptr<std::int32_t> flat, tk::constant<int> M, tk::constant<int> N) {
      auto i = tk::arange(0, M)(tk::_, tk::newaxis);
      auto j = tk::arange(0, N)(tk::newaxis, tk::_);
      auto [bi, bj] = tk::broadcast(i, j); // [M, N] each
      auto [si, sj] = tk::swizzle2d(bi, bj, M, N, 3);
      tk::store(swizzled + (bi * N + bj) * 2, si);
      tk::store(swizzled + (bi * N + bj) * 2 + 1, sj);
      auto cube = tk::expand_dims(tk::arange(0, N), {0, 2}); // [1, N, 1]
      static_assert(std::is_same_v<decltype(cube), tk::block<std::int32_t, 3>>);
      tk::store(sums + tk::arange(0, N), tk::reshape(cube * 10, {N}));
      tk::store(flat + tk::arange(0, M * N), tk::ravel(bi * 100 + bj));
    });

TEST_CASE("interpreter: swizzle2d, broadcast, expand_dims over two axes and ravel",
          "[interpreter][numerics][shape]") {
  const int M = 8, N = 4;
  std::vector<std::int32_t> swizzled(std::size_t(2 * M * N)), sums(N), flat(std::size_t(M * N));
  tk_test::run(index_helpers, tk::grid(1), swizzled, sums, flat, tk::constant<int>(M),
               tk::constant<int>(N));
  std::vector<std::int32_t> want(swizzled.size()), want_sums(N), want_flat(flat.size());
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const int g = 3, ij = i * N + j, group = ij / (g * N), first = group * g;
      const int rows = std::min(M - first, g), in_group = ij % (g * N);
      want[std::size_t(2 * ij)] = first + in_group % rows;
      want[std::size_t(2 * ij + 1)] = in_group / rows;
      want_flat[std::size_t(ij)] = i * 100 + j;
    }
  for (int j = 0; j < N; ++j)
    want_sums[std::size_t(j)] = 10 * j;
  TK_CHECK_EQUAL(swizzled, want);
  TK_CHECK_EQUAL(sums, want_sums);
  TK_CHECK_EQUAL(flat, want_flat);
  // The host form, on plain integers, is Triton's too.
  auto [i, j] = tk::swizzle2d(5, 2, M, N, 3);
  CHECK(std::pair{i, j} == std::pair{4, 3}); // 5 * 4 + 2 = 22: group 1 (rows 3..5), 10th in it
}

} // namespace

/// @file layernorm_backward.hpp
/// Layer normalization backward, the Triton tutorial's two kernels. For Y = xhat * W + B with
/// xhat = (X - mean) * rstd (examples/kernels/layernorm.hpp computes mean and rstd):
///   dX = (W dY - (xhat c1 + c2)) rstd, c1 = mean(xhat W dY), c2 = mean(W dY) over the row;
///   dW = sum over rows of dY xhat, dB = sum over rows of dY.
/// `layernorm_backward_dx` computes dX, one program per row, and adds the row's dY xhat and dY
/// into one of GROUP partial rows (row r into group r % GROUP) under that group's spin lock:
/// atomic_cas takes it, atomic_xchg releases it, and a counter beside the lock tells the first
/// program of the group to store rather than add. `layernorm_backward_dwdb` then sums the GROUP
/// partial rows into dW and dB, BLOCK_N columns per program.
///
/// Launch contract:
/// - `layernorm_backward_dx`: grid `tk::grid(rows)`; `DX`, `DY` and `X` row-major with `stride`
///   elements between rows, of one float type (the parameters are `auto`); `W` the `N` weights;
///   `Mean` and `Rstd` one f32 per row (from the forward pass); `Locks` 2 * GROUP i32 zeros (the
///   locks, then the counters); `DW` and `DB` GROUP x N partial sums of W's type; BLOCK_N a power
///   of two at least N (a row is one block); GROUP the number of partial rows.
/// - `layernorm_backward_dwdb`: grid `tk::grid(tk::cdiv(N, BLOCK_N))`; `DW` and `DB` the M x N
///   partial sums (M = GROUP), `FINAL_DW` and `FINAL_DB` N values each; BLOCK_M and BLOCK_N
///   powers of two.
#pragma once

#include <tk/tk.hpp>

namespace examples {

// [snippet:layernorm_backward_dx]
inline auto layernorm_backward_dx =
    tk::jit("layernorm_bwd_dx_fused", [](auto DX, auto DY, auto DW, auto DB, auto X, auto W,
                                         tk::ptr<const float> Mean, tk::ptr<const float> Rstd,
                                         tk::ptr<std::int32_t> Locks, tk::i32 stride, tk::i32 N,
                                         tk::constant<int> GROUP, tk::constant<int> BLOCK_N) {
      using WT = std::remove_const_t<std::remove_pointer_t<typename decltype(W)::element_type>>;
      auto row = tk::program_id(0);
      auto cols = tk::arange(0, BLOCK_N);
      auto mask = cols < N;
      // This row's group: its lock, its counter and its partial rows.
      auto group = row % GROUP;
      auto lock = Locks + group;
      auto count = lock + GROUP;
      auto dw_ptrs = DW + group * N + cols;
      auto db_ptrs = DB + group * N + cols;

      auto x = tk::cast<float>(tk::load(X + row * stride + cols, mask, 0));
      auto dy = tk::cast<float>(tk::load(DY + row * stride + cols, mask, 0));
      auto w = tk::cast<float>(tk::load(W + cols, mask));
      auto mean = tk::load(Mean + row);
      auto rstd = tk::load(Rstd + row);
      auto xhat = tk::where(mask, (x - mean) * rstd, 0.0f);
      auto wdy = tk::where(mask, w * dy, 0.0f);
      auto c1 = tk::sum(xhat * wdy, 0) / N;
      auto c2 = tk::sum(wdy, 0) / N;
      tk::store(DX + row * stride + cols, (wdy - (xhat * c1 + c2)) * rstd, mask);

      // Add this row's share of dW and dB into the group's partial rows, one program at a time.
      auto partial_dw = tk::cast<WT>(dy * xhat);
      auto partial_db = tk::cast<WT>(dy);
      tk::while_([&] { return tk::atomic_cas(lock, 0, 1) == 1; }, [] {}); // spin until taken
      tk::if_(
          tk::load(count) == 0,
          [&] { tk::atomic_xchg(count, 1); }, // the group's first row: store, do not add
          [&] {
            partial_dw += tk::load(dw_ptrs, mask);
            partial_db += tk::load(db_ptrs, mask);
          });
      tk::store(dw_ptrs, partial_dw, mask);
      tk::store(db_ptrs, partial_db, mask);
      tk::atomic_xchg(lock, 0); // release
    });
// [/snippet]

inline auto layernorm_backward_dwdb = tk::jit(
    "layernorm_bwd_dwdb", [](auto DW, auto DB, auto FINAL_DW, auto FINAL_DB, tk::i32 M, tk::i32 N,
                             tk::constant<int> BLOCK_M, tk::constant<int> BLOCK_N) {
      auto cols = tk::program_id(0) * BLOCK_N + tk::arange(0, BLOCK_N);
      auto dw = tk::zeros<float>({BLOCK_M, BLOCK_N});
      auto db = tk::zeros<float>({BLOCK_M, BLOCK_N});
      tk::for_range(0, M, BLOCK_M, [&](tk::i32 i) {
        auto rows = i + tk::arange(0, BLOCK_M);
        auto mask = (rows(tk::_, tk::newaxis) < M) & (cols(tk::newaxis, tk::_) < N);
        auto offs = rows(tk::_, tk::newaxis) * N + cols(tk::newaxis, tk::_);
        dw += tk::load(DW + offs, mask, 0);
        db += tk::load(DB + offs, mask, 0);
      });
      tk::store(FINAL_DW + cols, tk::sum(dw, 0), cols < N);
      tk::store(FINAL_DB + cols, tk::sum(db, 0), cols < N);
    });

} // namespace examples

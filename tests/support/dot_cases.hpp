/// @file dot_cases.hpp
/// Shared by the tests of tk::dot on the interpreter and the GPU (tests/unit/
/// interpreter_dot.cpp, tests/e2e/gpu_dot.cpp): kernels with tk::dot in a K loop, inside tk::if_
/// and chained (softmax(q kᵀ) v); the cases (odd shapes, every input/accumulator pair and
/// precision, operands given column-major or transposed through strides, num_warps and
/// num_stages); a double-precision reference; and the tolerances, derived from K and the types.
///
/// Tolerances, per element, against the exact product S = sum_k a_k b_k of the inputs as stored
/// (after rounding to f16/bf16), with A = sum_k |a_k b_k|, k the padded K (a multiple of BK),
/// and u = 2^-24 (f32's unit roundoff):
///   - i8 x i8 -> i32: exact;
///   - f16, bf16 -> f32, and f32 ieee: (k + 2) u A (products are exact in f32 for f16/bf16; each
///     f32 addition rounds once, in whatever order the hardware sums);
///   - f32 tf32: 2^-9 A + (k + 2) u A on the interpreter (each input rounded toward zero: under
///     2^-10 relative, so a product under 2^-9); the same on the GPU (the tensor cores truncate
///     alike; an FMA dot is exact), 2^-8 A + 2 (k + 2) u A between the two;
///   - f32 tf32x3: 4 * 2^-20 A + (k + 2) u A (big + small holds each input to 2^-20, and
///     small * small is left out);
///   - f16 -> f16: (ceil(k / 16) + 1) 2^-11 A (the interpreter rounds once per tk::dot; mma.sync
///     once per 16-deep step);
///   - fp8 (e4m3, e5m2, mixed) -> f32: (k + 2) u A on the interpreter (products are exact); the
///     GPU's tensor cores add fp8 products with fewer bits than f32 (about 13 fraction bits on
///     Hopper, each 32-deep instruction), so GPU against interpreter allows another
///     (ceil(k / 32) + 1) 2^-10 A;
///   - the chained kernel: 2^-9 sum_j p_j |v_j| + 10^-6 for the output (p is rounded to f16 before
///     the second dot, and computed in f32 with exp).
/// The GPU-vs-interpreter tolerance is the sum of the two sides' tolerances.
#pragma once

#include <tk/tk.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace dot_cases {

// ---------------------------------------------------------------------------------------------
// Kernels

/// C = A B (+ nothing), A M x K, B K x N, C M x N, any strides. One BM x BN tile per program
/// (program_id(0) along M, program_id(1) along N), K in BK steps; rows, columns and the K tail
/// past the edges are masked (loaded as zero, not stored). Acc: the accumulator's type.
template <class Acc>
inline auto tiled = tk::jit(
    "dot_tiled", [](auto c, auto a, auto b, tk::i32 M, tk::i32 N, tk::i32 K, tk::i32 stride_am,
                    tk::i32 stride_ak, tk::i32 stride_bk, tk::i32 stride_bn, tk::i32 stride_cm,
                    tk::i32 stride_cn, tk::constant<int> BM, tk::constant<int> BN,
                    tk::constant<int> BK, tk::constant<tk::input_precision> PRECISION) {
      auto rm = tk::program_id(0) * BM + tk::arange(0, BM);
      auto rn = tk::program_id(1) * BN + tk::arange(0, BN);
      auto rk = tk::arange(0, BK);
      auto m_in = rm(tk::_, tk::newaxis) < M;
      auto n_in = rn(tk::newaxis, tk::_) < N;
      auto acc = tk::zeros<Acc>({BM, BN});
      tk::for_range(0, tk::cdiv(K, BK), [&](tk::i32 step) {
        auto kk = step * BK + rk;
        auto a_ptrs = a + (rm(tk::_, tk::newaxis) * stride_am + kk(tk::newaxis, tk::_) * stride_ak);
        auto b_ptrs = b + (kk(tk::_, tk::newaxis) * stride_bk + rn(tk::newaxis, tk::_) * stride_bn);
        auto x = tk::load(a_ptrs, m_in & (kk(tk::newaxis, tk::_) < K));
        auto y = tk::load(b_ptrs, (kk(tk::_, tk::newaxis) < K) & n_in);
        acc = tk::dot(x, y, acc, PRECISION);
      });
      auto c_ptrs = c + (rm(tk::_, tk::newaxis) * stride_cm + rn(tk::newaxis, tk::_) * stride_cn);
      tk::store(c_ptrs, acc, m_in & n_in);
    });

/// One BM x BK by BK x BN tile (row-major, masked to M, N, K) per program; even programs store
/// A B, odd ones 2 A B + 1: the dot is inside the branches of a tk::if_.
inline auto in_branch = tk::jit(
    "dot_in_branch", [](tk::ptr<float> c, tk::ptr<const float> a, tk::ptr<const float> b, tk::i32 M,
                        tk::i32 N, tk::i32 K, tk::constant<int> BM, tk::constant<int> BN,
                        tk::constant<int> BK, tk::constant<tk::input_precision> PRECISION) {
      auto pid = tk::program_id(0);
      auto rm = tk::arange(0, BM), rn = tk::arange(0, BN), rk = tk::arange(0, BK);
      auto x = tk::load(a + pid * M * K + rm(tk::_, tk::newaxis) * K + rk(tk::newaxis, tk::_),
                        (rm(tk::_, tk::newaxis) < M) & (rk(tk::newaxis, tk::_) < K));
      auto y = tk::load(b + pid * K * N + rk(tk::_, tk::newaxis) * N + rn(tk::newaxis, tk::_),
                        (rk(tk::_, tk::newaxis) < K) & (rn(tk::newaxis, tk::_) < N));
      auto out = tk::if_(
          pid % 2 == 0, [&] { return tk::dot(x, y, PRECISION); },
          [&] {
            auto twice = tk::dot(x + x, y, PRECISION);
            return twice + 1.0f;
          });
      tk::store(c + pid * M * N + rm(tk::_, tk::newaxis) * N + rn(tk::newaxis, tk::_), out,
                (rm(tk::_, tk::newaxis) < M) & (rn(tk::newaxis, tk::_) < N));
    });

/// One attention tile per program: o = softmax(q kᵀ * scale) v for q L x D, k and v L x D (f16,
/// row-major, program p at offset p L D); the scores in f32, p rounded to f16 for the second dot.
inline auto attention =
    tk::jit("dot_attention",
            [](tk::ptr<float> o, tk::ptr<const tk::half> q, tk::ptr<const tk::half> k,
               tk::ptr<const tk::half> v, tk::f32 scale, tk::constant<int> L, tk::constant<int> D) {
              auto base = tk::program_id(0) * L * D;
              auto rl = tk::arange(0, L), rd = tk::arange(0, D);
              auto offs = base + rl(tk::_, tk::newaxis) * D + rd(tk::newaxis, tk::_);
              auto qt = tk::load(q + offs);
              auto kt = tk::load(k + offs);
              auto vt = tk::load(v + offs);
              auto s = tk::dot(qt, tk::trans(kt)) * scale; // L x L
              auto e = tk::exp(s - tk::max(s, 1)(tk::_, tk::newaxis));
              auto p = e / tk::sum(e, 1)(tk::_, tk::newaxis);
              tk::store(o + offs, tk::dot(tk::cast<tk::half>(p), vt));
            });

// ---------------------------------------------------------------------------------------------
// Running a kernel on the interpreter or the GPU

/// A launch argument: a std::vector becomes a pointer to its data (on the GPU, to a device copy
/// that is copied back after the launch unless the vector is const); anything else as it is.
template <class A> struct passed {
  A value;
  A arg() const { return value; }
  void finish() {}
};
template <class T, bool Writable> struct mirrored {
  using host_type = std::conditional_t<Writable, std::vector<T>, const std::vector<T>>;
  host_type &host;
  std::optional<tk::device_buffer<T>> device;
  mirrored(host_type &h, bool gpu) : host(h) {
    if (gpu)
      device.emplace(std::vector<T>(h.begin(), h.end()));
  }
  auto arg() const {
    T *p = device ? device->data() : const_cast<T *>(host.data());
    if constexpr (Writable)
      return p;
    else
      return static_cast<const T *>(p);
  }
  void finish() {
    if constexpr (Writable)
      if (device)
        host = device->to_host();
  }
};
template <class T> mirrored<T, true> map_argument(std::vector<T> &v, bool gpu) { return {v, gpu}; }
template <class T> mirrored<T, false> map_argument(const std::vector<T> &v, bool gpu) {
  return {v, gpu};
}
template <class A> passed<std::remove_cvref_t<A>> map_argument(const A &a, bool) { return {a}; }

/// launch_options::target_arch of the GPU launches below ("sm_80": the mma.sync path on a newer
/// GPU); empty: TK_TARGET_ARCH, else the GPU's own target.
inline std::string gpu_target_arch;

/// Launches `k` over `g` with `options` (its backend says where); vectors as described above.
template <class K, class... A>
void launch(const K &k, const tk::grid &g, tk::launch_options options, A &&...args) {
  const bool gpu = options.backend == tk::backend::gpu;
  if (gpu)
    options.target_arch = gpu_target_arch;
  std::tuple<decltype(map_argument(std::forward<A>(args), gpu))...> mapped{
      map_argument(std::forward<A>(args), gpu)...};
  std::apply([&](auto &...m) { k.launch(g, options, m.arg()...); }, mapped);
  std::apply([](auto &...m) { (m.finish(), ...); }, mapped);
}

// ---------------------------------------------------------------------------------------------
// Cases

enum class types { f16_f32, f16_f16, bf16_f32, f32_f32, i8_i32, e4m3_f32, e5m2_f32, e4m3_e5m2_f32 };

inline bool is_fp8(types t) {
  return t == types::e4m3_f32 || t == types::e5m2_f32 || t == types::e4m3_e5m2_f32;
}
enum class layout { row_major, column_major };

inline const char *name_of(types t) {
  switch (t) {
  case types::f16_f32:
    return "f16 x f16 -> f32";
  case types::f16_f16:
    return "f16 x f16 -> f16";
  case types::bf16_f32:
    return "bf16 x bf16 -> f32";
  case types::f32_f32:
    return "f32 x f32 -> f32";
  case types::i8_i32:
    return "i8 x i8 -> i32";
  case types::e4m3_f32:
    return "e4m3 x e4m3 -> f32";
  case types::e5m2_f32:
    return "e5m2 x e5m2 -> f32";
  case types::e4m3_e5m2_f32:
    return "e4m3 x e5m2 -> f32";
  }
  return "?";
}

inline const char *name_of(tk::input_precision p) {
  return p == tk::input_precision::tf32     ? "tf32"
         : p == tk::input_precision::tf32x3 ? "tf32x3"
                                            : "ieee";
}

/// One launch of `tiled`: the problem, its tile, its types and how A and B lie in memory (B
/// column-major is Bᵀ stored row-major: a transposed operand given through strides).
struct tiled_case {
  int M, N, K;
  int BM = 32, BN = 32, BK = 16;
  types t = types::f16_f32;
  tk::input_precision precision = tk::input_precision::ieee;
  layout a = layout::row_major, b = layout::row_major;
  int num_warps = 4;
  int num_stages = 3;

  std::string describe() const {
    std::ostringstream s;
    s << name_of(t);
    if (t == types::f32_f32)
      s << " " << name_of(precision);
    s << ", " << M << "x" << N << "x" << K << ", tile " << BM << "x" << BN << "x" << BK;
    if (a == layout::column_major)
      s << ", A column-major";
    if (b == layout::column_major)
      s << ", B transposed (column-major)";
    s << ", " << num_warps << " warps, " << num_stages << " stages";
    return s.str();
  }
};

/// Every input/accumulator pair (and each precision of f32) on odd shapes: M, N, K not multiples
/// of the tile, K below 16 (masked), 1 x N and N x 1 results, strides of every divisibility up
/// to 8, and A and B column-major.
inline std::vector<tiled_case> all_tiled_cases() {
  struct pair {
    types t;
    tk::input_precision p;
  };
  const pair pairs[] = {
      {types::f16_f32, tk::input_precision::ieee},
      {types::f16_f16, tk::input_precision::ieee},
      {types::bf16_f32, tk::input_precision::ieee},
      {types::f32_f32, tk::input_precision::ieee},
      {types::f32_f32, tk::input_precision::tf32},
      {types::f32_f32, tk::input_precision::tf32x3},
      {types::i8_i32, tk::input_precision::ieee},
      {types::e4m3_f32, tk::input_precision::ieee},
      {types::e5m2_f32, tk::input_precision::ieee},
      {types::e4m3_e5m2_f32, tk::input_precision::ieee},
  };
  struct shape {
    int M, N, K;
  };
  // 72 x 200: strides divisible by 8, not 16 (rows of f16 16-byte aligned: vectors and
  // pipelined copies under that specialization), with a K tail.
  const shape shapes[] = {{64, 64, 64}, {37, 45, 70},  {5, 19, 7},   {1, 100, 40},
                          {100, 1, 40}, {33, 17, 130}, {64, 72, 200}};
  std::vector<tiled_case> cases;
  for (const pair &p : pairs) {
    // i8 and fp8 tensor-core tiles are 32 deep.
    const int bk = p.t == types::i8_i32 || is_fp8(p.t) ? 32 : 16;
    for (const shape &s : shapes)
      cases.push_back({s.M, s.N, s.K, 32, 32, bk, p.t, p.p});
    tiled_case col{37, 45, 70, 32, 32, bk, p.t, p.p, layout::column_major, layout::row_major};
    cases.push_back(col);
    tiled_case tr{45, 37, 70, 16, 64, 2 * bk, p.t, p.p, layout::row_major, layout::column_major};
    tr.num_warps = 8;
    cases.push_back(tr);
    tiled_case both{29, 30, 31, 64, 16, bk, p.t, p.p, layout::column_major, layout::column_major};
    both.num_warps = 2;
    cases.push_back(both);
    if (is_fp8(p.t)) // 16 deep: too shallow for fp8 tensor cores, widened to f16 instead
      cases.push_back({37, 45, 70, 32, 32, 16, p.t, p.p});
  }
  return cases;
}

/// Tiles that take wgmma on sm_90a (M a multiple of 64 on 4 or 8 warps): two 64-row reps and
/// 256-byte rows of b in two panels (128 x 128 x 64), n = 256 on two warpgroups (128 x 256 x 64,
/// 8 warps), warpgroups side by side along N (64 x 128 x 32, 8 warps), the 32-byte swizzle
/// (K = 16), f16 accumulators, a transposed from M-major tiles (A column-major), b from K-major
/// tiles (B column-major: what tf32, i8 and fp8 need), num_stages 1 (tiles stored from registers)
/// to 4; shapes not multiples of the tile, K tails included.
inline std::vector<tiled_case> wgmma_cases() {
  using enum types;
  const auto ieee = tk::input_precision::ieee, tf32 = tk::input_precision::tf32;
  const auto row = layout::row_major, col = layout::column_major;
  std::vector<tiled_case> cases = {
      {150, 200, 300, 128, 128, 64, f16_f32, ieee, row, row},
      {130, 260, 200, 128, 256, 64, bf16_f32, ieee, row, row, 8},
      {100, 150, 90, 64, 128, 32, f16_f32, ieee, row, row, 8},
      {70, 80, 100, 64, 64, 64, f16_f16, ieee, row, row},
      {70, 80, 50, 64, 64, 16, bf16_f32, ieee, row, row},
      {130, 70, 100, 128, 64, 32, f16_f32, ieee, col, row},
      {70, 130, 100, 64, 128, 64, f16_f32, ieee, row, col},
      {90, 70, 100, 64, 64, 32, f32_f32, tf32, row, col},
      {90, 70, 200, 64, 64, 64, i8_i32, ieee, row, col},
      {65, 64, 64, 64, 64, 64, i8_i32, ieee, col, col}, // M-major i8: mma.sync instead
      {90, 70, 200, 64, 64, 64, e4m3_f32, ieee, row, col},
      {150, 200, 300, 128, 128, 64, e4m3_e5m2_f32, ieee, row, col, 8},
      {130, 70, 100, 128, 64, 128, e5m2_f32, ieee, row, col},
      {70, 80, 100, 64, 64, 64, e4m3_f32, ieee, row, row}, // N-major fp8 b: mma.sync instead
  };
  for (int stages : {1, 2, 4}) {
    tiled_case c{150, 200, 300, 128, 128, 64, f16_f32, ieee, row, row};
    c.num_stages = stages;
    cases.push_back(c);
  }
  return cases;
}

/// The K loop at each pipelining depth (a GPU launch option; the interpreter ignores it).
inline std::vector<tiled_case> stage_cases() {
  std::vector<tiled_case> cases;
  for (int stages : {1, 2, 3, 4})
    for (types t : {types::f16_f32, types::f32_f32}) {
      tiled_case c{70, 90, 200, 64, 32, 32, t, tk::input_precision::tf32};
      c.num_stages = stages;
      cases.push_back(c);
    }
  return cases;
}

/// The outcome of one case: the result, the exact reference and the tolerance, per element.
struct outcome {
  std::vector<double> got, want, tol;
};

/// Elements outside the tolerance (NaN is outside), and a description of the first and worst.
struct verdict {
  std::size_t bad = 0;
  std::string first;
  double worst_ratio = 0; ///< largest |got - want| / tol
};
inline verdict check(const std::vector<double> &got, const std::vector<double> &want,
                     const std::vector<double> &tol) {
  verdict v;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double err = std::fabs(got[i] - want[i]);
    v.worst_ratio = std::max(v.worst_ratio, tol[i] > 0 ? err / tol[i] : (err > 0 ? 1e300 : 0));
    if (!(err <= tol[i]) && v.bad++ == 0) {
      std::ostringstream s;
      s << "[" << i << "] got " << got[i] << ", want " << want[i] << " (tolerance " << tol[i]
        << ")";
      v.first = s.str();
    }
  }
  return v;
}

inline double unit_roundoff() { return std::ldexp(1.0, -24); }

/// The tolerance of one element of `c` against the exact product (the file comment), given
/// A = sum |a b| and the padded depth `k`; `gpu_vs_interpreter` for the two sides' difference.
inline double tolerance(const tiled_case &c, double A, int k, bool gpu_vs_interpreter) {
  const double u = unit_roundoff(), sums = (k + 2) * u;
  switch (c.t) {
  case types::i8_i32:
    return 0;
  case types::f16_f16: {
    const double once = ((k + 15) / 16 + 1) * std::ldexp(1.0, -11) * A;
    return gpu_vs_interpreter ? 2 * once : once;
  }
  case types::e4m3_f32:
  case types::e5m2_f32:
  case types::e4m3_e5m2_f32:
    return gpu_vs_interpreter ? 2 * sums * A + ((k + 31) / 32 + 1) * std::ldexp(1.0, -10) * A
                              : sums * A;
  case types::f32_f32:
    if (c.precision == tk::input_precision::tf32)
      return (gpu_vs_interpreter ? 2 : 1) * (std::ldexp(1.0, -9) + sums) * A;
    if (c.precision == tk::input_precision::tf32x3)
      return (gpu_vs_interpreter ? 2 : 1) * (4 * std::ldexp(1.0, -20) + sums) * A;
    [[fallthrough]];
  default:
    return (gpu_vs_interpreter ? 2 : 1) * sums * A;
  }
}

template <class In> std::vector<In> random_inputs(std::mt19937_64 &gen, std::size_t n) {
  std::vector<In> v(n);
  if constexpr (std::is_same_v<In, std::int8_t>) {
    std::uniform_int_distribution<int> d(-128, 127);
    for (auto &x : v)
      x = static_cast<std::int8_t>(d(gen));
  } else {
    std::uniform_real_distribution<double> d(-1, 1);
    for (auto &x : v)
      x = In(float(d(gen)));
  }
  return v;
}

/// Runs `c` with inputs from `gen` (the same for the same seed): on the interpreter, and also on
/// the GPU when `gpu`. Returns {interpreter, GPU (empty without)}, each with the exact reference
/// and the tolerance (the GPU's against the interpreter: the sum of both tolerances).
template <class In, class Acc, class InB = In>
std::pair<outcome, outcome> run_tiled(const tiled_case &c, std::mt19937_64 &gen, bool gpu) {
  const auto a = random_inputs<In>(gen, std::size_t(c.M) * c.K);
  const auto b = random_inputs<InB>(gen, std::size_t(c.K) * c.N);
  // Strides: row-major A is M x K with K per row; column-major A has M per column.
  const int sam = c.a == layout::row_major ? c.K : 1, sak = c.a == layout::row_major ? 1 : c.M;
  const int sbk = c.b == layout::row_major ? c.N : 1, sbn = c.b == layout::row_major ? 1 : c.K;
  const int scm = c.N, scn = 1;
  const auto at = [&](int i, int p) { return double(a[std::size_t(i * sam + p * sak)]); };
  const auto bt = [&](int p, int j) { return double(b[std::size_t(p * sbk + j * sbn)]); };
  const int k_padded = (c.K + c.BK - 1) / c.BK * c.BK;

  outcome interp, dev;
  for (int i = 0; i < c.M; ++i)
    for (int j = 0; j < c.N; ++j) {
      double s = 0, m = 0;
      for (int p = 0; p < c.K; ++p) {
        s += at(i, p) * bt(p, j);
        m += std::fabs(at(i, p) * bt(p, j));
      }
      interp.want.push_back(s);
      interp.tol.push_back(tolerance(c, m, k_padded, false));
      dev.tol.push_back(tolerance(c, m, k_padded, true));
    }

  const tk::grid g((c.M + c.BM - 1) / c.BM, (c.N + c.BN - 1) / c.BN);
  auto run_on = [&](tk::backend where) {
    std::vector<Acc> out(std::size_t(c.M) * c.N, Acc(-77.0f)); // never stored: shows
    launch(tiled<Acc>, g, {.num_warps = c.num_warps, .num_stages = c.num_stages, .backend = where},
           out, a, b, c.M, c.N, c.K, sam, sak, sbk, sbn, scm, scn, tk::constant(c.BM),
           tk::constant(c.BN), tk::constant(c.BK), tk::constant(c.precision));
    std::vector<double> r;
    for (Acc x : out)
      r.push_back(double(x));
    return r;
  };
  interp.got = run_on(tk::backend::interpreter);
  if (gpu) {
    dev.got = run_on(tk::backend::gpu);
    dev.want = interp.got;
  }
  return {interp, dev};
}

/// run_tiled for the case's types.
inline std::pair<outcome, outcome> run_tiled(const tiled_case &c, std::mt19937_64 &gen, bool gpu) {
  switch (c.t) {
  case types::f16_f32:
    return run_tiled<tk::half, float>(c, gen, gpu);
  case types::f16_f16:
    return run_tiled<tk::half, tk::half>(c, gen, gpu);
  case types::bf16_f32:
    return run_tiled<tk::bfloat16, float>(c, gen, gpu);
  case types::f32_f32:
    return run_tiled<float, float>(c, gen, gpu);
  case types::i8_i32:
    return run_tiled<std::int8_t, std::int32_t>(c, gen, gpu);
  case types::e4m3_f32:
    return run_tiled<tk::f8e4m3, float>(c, gen, gpu);
  case types::e5m2_f32:
    return run_tiled<tk::f8e5m2, float>(c, gen, gpu);
  case types::e4m3_e5m2_f32:
    return run_tiled<tk::f8e4m3, float, tk::f8e5m2>(c, gen, gpu);
  }
  return {};
}

/// `in_branch` over 4 programs of a 20 x 24 x 40 problem in 32 x 32 x 64 tiles (f32, the given
/// precision).
inline std::pair<outcome, outcome> run_in_branch(tk::input_precision precision,
                                                 std::mt19937_64 &gen, bool gpu) {
  const int programs = 4, M = 20, N = 24, K = 40;
  const auto a = random_inputs<float>(gen, std::size_t(programs * M * K));
  const auto b = random_inputs<float>(gen, std::size_t(programs * K * N));
  tiled_case like{M, N, K, 32, 32, 64, types::f32_f32, precision};
  outcome interp, dev;
  for (int p = 0; p < programs; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double s = 0, m = 0;
        for (int q = 0; q < K; ++q) {
          const double x = a[std::size_t(p * M * K + i * K + q)],
                       y = b[std::size_t(p * K * N + q * N + j)];
          s += x * y;
          m += std::fabs(x * y);
        }
        const double f = p % 2 ? 2 : 1;
        interp.want.push_back(f * s + (p % 2 ? 1 : 0));
        // 2 A B + 1: the scaled products' error, and one more f32 rounding of the sum.
        const double extra = p % 2 ? unit_roundoff() * (2 * std::fabs(s) + 1) : 0;
        interp.tol.push_back(f * tolerance(like, m, 64, false) + extra);
        dev.tol.push_back(f * tolerance(like, m, 64, true) + 2 * extra);
      }
  auto run_on = [&](tk::backend where) {
    std::vector<float> out(std::size_t(programs * M * N), -77.f);
    launch(in_branch, tk::grid(programs), {.backend = where}, out, a, b, M, N, K, tk::constant(32),
           tk::constant(32), tk::constant(64), tk::constant(precision));
    return std::vector<double>(out.begin(), out.end());
  };
  interp.got = run_on(tk::backend::interpreter);
  if (gpu) {
    dev.got = run_on(tk::backend::gpu);
    dev.want = interp.got;
  }
  return {interp, dev};
}

/// `attention` over 3 programs of L x D = 32 x 64 tiles (D = 16 and L = 16 too).
inline std::pair<outcome, outcome> run_attention(int L, int D, std::mt19937_64 &gen, bool gpu) {
  const int programs = 3;
  const std::size_t n = std::size_t(programs * L * D);
  const auto q = random_inputs<tk::half>(gen, n), k = random_inputs<tk::half>(gen, n),
             v = random_inputs<tk::half>(gen, n);
  const float scale = 1.0f / std::sqrt(float(D));
  outcome interp, dev;
  interp.want.assign(n, 0);
  interp.tol.assign(n, 0);
  for (int p = 0; p < programs; ++p) {
    const std::size_t base = std::size_t(p * L * D);
    for (int i = 0; i < L; ++i) {
      std::vector<double> s(static_cast<std::size_t>(L));
      for (int j = 0; j < L; ++j) {
        double d = 0;
        for (int e = 0; e < D; ++e)
          d += double(q[base + std::size_t(i * D + e)]) * double(k[base + std::size_t(j * D + e)]);
        s[std::size_t(j)] = d * double(scale);
      }
      const double mx = *std::max_element(s.begin(), s.end());
      double sum = 0;
      for (double &x : s)
        sum += (x = std::exp(x - mx));
      for (int e = 0; e < D; ++e) {
        double o = 0, mag = 0;
        for (int j = 0; j < L; ++j) {
          const double pj = s[std::size_t(j)] / sum, vj = double(v[base + std::size_t(j * D + e)]);
          o += pj * vj;
          mag += pj * std::fabs(vj);
        }
        interp.want[base + std::size_t(i * D + e)] = o;
        interp.tol[base + std::size_t(i * D + e)] = std::ldexp(mag, -9) + 1e-6;
      }
    }
  }
  dev.tol = interp.tol;
  for (double &t : dev.tol)
    t *= 2;
  auto run_on = [&](tk::backend where) {
    std::vector<float> out(n, -77.f);
    launch(attention, tk::grid(programs), {.backend = where}, out, q, k, v, scale, tk::constant(L),
           tk::constant(D));
    return std::vector<double>(out.begin(), out.end());
  };
  interp.got = run_on(tk::backend::interpreter);
  if (gpu) {
    dev.got = run_on(tk::backend::gpu);
    dev.want = interp.got;
  }
  return {interp, dev};
}

} // namespace dot_cases

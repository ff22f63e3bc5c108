/// @file generate.cpp
/// The random program generator (program.hpp): statements chosen at random among those whose
/// operands exist and whose result the comparison can judge, with each value's bound propagated
/// as it is made, and again through every trip of a loop.
#include "program.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace tk_random {

const char *cpp_name(ty t) {
  constexpr const char *names[] = {"bool",         "std::int8_t",  "std::int16_t",  "std::int32_t",
                                   "std::int64_t", "std::uint8_t", "std::uint32_t", "tk::half",
                                   "tk::bfloat16", "float",        "double",        "tk::f8e4m3",
                                   "tk::f8e5m2"};
  return names[int(t)];
}

const char *short_name(ty t) {
  constexpr const char *names[] = {"i1",  "i8",   "i16", "i32", "i64",    "u8",    "u32",
                                   "f16", "bf16", "f32", "f64", "f8e4m3", "f8e5m2"};
  return names[int(t)];
}

namespace {

constexpr double kIntScaleCap = 0x1p62;

/// The largest error, relative to its scale, an inexact value may carry and still be judged:
/// a quarter, or twice the scale for fp8, whose unit roundoff (1/16, 1/8) leaves a quarter no
/// room for a second operation. fp8 values are then judged loosely (a bound about the size of
/// the value itself), which still catches a missing or garbled result.
double max_relative_error(ty t) { return is_fp8(t) ? 2.0 : 0.25; }

/// The magnitude of an integer type's values once they may have wrapped.
double int_range(ty t) {
  return t == ty::i1 ? 1 : std::ldexp(1.0, bits_of(t) - (is_unsigned(t) ? 0 : 1));
}

struct generator {
  std::mt19937_64 rng;
  program &p;
  std::vector<vtype> types;  // by value id
  std::vector<bound> bounds; // by value id
  std::vector<std::vector<int>> scopes{{}};
  int loops = 0, branches = 0, depth = 0, dots = 0;
  int budget = 0;

  generator(program &prog) : rng(prog.seed * 0x9E3779B97F4A7C15ull + 1), p(prog) {}

  // -- randomness ------------------------------------------------------------------------------
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  bool chance(double q) { return std::uniform_real_distribution<double>(0, 1)(rng) < q; }
  template <class C> auto pick(const C &c) -> decltype(c[0]) {
    return c[std::size_t(uniform(0, int(c.size()) - 1))];
  }
  std::int64_t pow2(int lo, int hi) { return std::int64_t(1) << uniform(lo, hi); }

  ty any_type() { return ty(uniform(0, kTypes - 1)); }
  ty data_type() { return ty(uniform(1, kTypes - 1)); } // not i1

  // -- values ----------------------------------------------------------------------------------
  std::vector<int> visible() const {
    std::vector<int> ids;
    for (const auto &s : scopes)
      ids.insert(ids.end(), s.begin(), s.end());
    return ids;
  }
  template <class F> int find(F &&ok) {
    std::vector<int> candidates;
    for (int id : visible())
      if (ok(id))
        candidates.push_back(id);
    return candidates.empty() ? -1 : pick(candidates);
  }

  /// Adds `s` if its value is one the comparison can judge; returns its id or -1.
  int add(std::vector<stmt> &out, stmt s) {
    s.b = bound_of(s);
    if (is_float(s.type.t) && !s.b.exact &&
        !(s.b.scale < max_finite(s.type.t) / 16 &&
          s.b.err < s.b.scale * max_relative_error(s.type.t) + 1e-3))
      return -1; // could overflow on one side only, or the bound says nothing
    if (s.type.numel() > 4096)
      return -1;
    s.id = p.values++;
    types.push_back(s.type);
    bounds.push_back(s.b);
    scopes.back().push_back(s.id);
    out.push_back(std::move(s));
    return out.back().id;
  }

  // -- bounds ----------------------------------------------------------------------------------
  bound arg(const stmt &s, int k) const { return bounds[std::size_t(s.args[std::size_t(k)])]; }
  ty arg_type(const stmt &s, int k) const { return types[std::size_t(s.args[std::size_t(k)])].t; }

  bound bound_of(const stmt &s) const {
    const ty t = s.type.t;
    const double u = unit_roundoff(t);
    auto inexact = [&](double scale, double err) {
      return bound{false, scale, err + 4 * u * scale};
    };
    auto cap = [&](bound b) {
      if (!is_float(t))
        b = {true, std::min(b.scale, int_range(t)), 0};
      return b;
    };
    switch (s.kind) {
    case op::load:
    case op::desc_load:
      return cap({true, std::max(is_float(t) ? 4.0 : 16.0, std::abs(s.f)), 0});
    case op::full:
      return cap({true, std::abs(s.f), 0});
    case op::arange:
      return cap({true, double(s.type.shape[0]), 0});
    case op::pid:
      return {true, double(p.grid), 0};
    case op::param: // s0, s1, or a loop's induction variable (its trip count in f)
      return {true, s.a0 == 2 ? s.f : double(std::abs(s.a0 == 0 ? p.s0 : p.s1)), 0};
    case op::unary: {
      const bound x = arg(s, 0);
      switch (s.a0) {
      case u_neg:
      case u_abs:
      case u_floor:
      case u_ceil:
        return cap({x.exact, x.scale + (s.a0 >= u_floor ? 1 : 0), x.err});
      case u_not:
        return cap({true, int_range(t), 0});
      case u_exp:
        return inexact(std::exp(4.0), std::exp(4.0) * std::min(x.err, 8.0));
      case u_log:
        return inexact(std::log(x.scale + 1) + 1, x.err);
      case u_sqrt:
        return inexact(std::sqrt(x.scale + 1), x.err / 2);
      case u_sin:
      case u_cos:
        return inexact(1, x.err);
      case u_sigmoid:
        return inexact(1, x.err / 4);
      }
      break;
    }
    case op::literal:
    case op::binary: {
      const bool lit = s.kind == op::literal;
      const bound x = arg(s, 0), y = lit ? bound{true, std::abs(s.f), 0} : arg(s, 1);
      const bool exact = x.exact && y.exact;
      double scale = 0, err = 0;
      switch (s.a0) {
      case b_add:
      case b_sub:
        scale = x.scale + y.scale, err = x.err + y.err;
        break;
      case b_mul:
        scale = x.scale * y.scale, err = x.err * y.scale + y.err * x.scale + x.err * y.err;
        break;
      case b_div: // x / (|y| + 1), or x / literal (|literal| >= 1)
        scale = x.scale, err = x.err + x.scale * y.err;
        break;
      case b_rem:
        scale = std::min(x.scale, 8.0), err = 0;
        break;
      case b_max:
      case b_min:
        scale = std::max(x.scale, y.scale), err = std::max(x.err, y.err);
        break;
      default: // bitwise, shifts
        return cap({true, t == ty::i1 ? 1 : int_range(t), 0});
      }
      if (!is_float(t))
        return cap({true, std::min(scale, kIntScaleCap), 0});
      if (exact)
        return {true, scale, 0};
      return inexact(scale, err);
    }
    case op::compare:
      return {true, 1, 0};
    case op::where: {
      const bound a = arg(s, 1), b = arg(s, 2);
      return cap({a.exact && b.exact, std::max(a.scale, b.scale), std::max(a.err, b.err)});
    }
    case op::cast: {
      const bound x = arg(s, 0);
      const ty from = arg_type(s, 0);
      if (!is_float(t))
        return cap({true, is_float(from) ? std::min(x.scale, 100.0) : x.scale, 0});
      if (x.exact)
        return {true, x.scale, 0};
      return inexact(x.scale, x.err);
    }
    case op::expand:
    case op::broadcast:
    case op::reshape:
    case op::trans:
      return arg(s, 0);
    case op::reduce: {
      const bound x = arg(s, 0);
      const auto &in = types[std::size_t(s.args[0])];
      const double n = double(s.a1 < 0 ? in.numel() : in.shape[std::size_t(s.a1)]);
      if (s.a0 == r_argmax || s.a0 == r_argmin)
        return {true, n, 0};
      if (s.a0 != r_sum)
        return cap(x);
      if (!is_float(t))
        return cap({true, std::min(n * x.scale, kIntScaleCap), 0});
      if (x.exact && n == 1)
        return x;
      return inexact(n * x.scale, n * x.err + n * u * n * x.scale);
    }
    case op::scan: {
      const bound x = arg(s, 0);
      const auto &in = types[std::size_t(s.args[0])];
      const double n = double(in.shape[std::size_t(s.a1)]);
      if (!is_float(t))
        return cap({true, kIntScaleCap, 0});
      if (s.a0 == 0) {
        if (x.exact && n == 1)
          return x;
        return inexact(n * x.scale, n * x.err + n * u * n * x.scale);
      }
      const double base = std::max(x.scale, 1.0), scale = std::pow(base, n);
      if (x.exact && n == 1)
        return x;
      return inexact(scale, 2 * scale * n * (x.err / base + u));
    }
    case op::dot: {
      const bound a = arg(s, 0), b = arg(s, 1);
      const double k = double(types[std::size_t(s.args[0])].shape[1]);
      bound c = s.args.size() > 2 ? arg(s, 2) : bound{true, 0, 0};
      if (!is_float(t))
        return cap({true, std::min(k * a.scale * b.scale + c.scale, kIntScaleCap), 0});
      const double scale = k * a.scale * b.scale + c.scale;
      // fp8 products are exact, but Hopper's wgmma adds them with fewer bits than f32 (about
      // 13 fraction bits: docs/writing-kernels.md).
      const double add_u = is_fp8(arg_type(s, 0)) ? 0x1p-13 : u;
      return inexact(scale,
                     k * (a.err * b.scale + b.err * a.scale) + c.err + 4 * k * add_u * scale);
    }
    case op::loop:
    case op::branch:
    case op::assign:
      break;
    }
    return {true, 0, 0};
  }

  /// Recomputes the bounds of `body` for one more trip of a loop: they only grow (a branch's
  /// value is the join of both sides', conservatively).
  void propagate(const std::vector<stmt> &body) {
    for (const stmt &s : body) {
      if (s.kind == op::loop) {
        for (std::int64_t k = 0; k < trips_of(s); ++k)
          propagate(s.body);
      } else if (s.kind == op::branch) {
        propagate(s.body);
        propagate(s.else_body);
      } else if (s.kind == op::assign) {
        auto &c = bounds[std::size_t(s.args[0])];
        c = join(c, bounds[std::size_t(s.args[1])]);
      } else if (s.id >= 0) {
        bounds[std::size_t(s.id)] = join(bounds[std::size_t(s.id)], bound_of(s));
      }
    }
  }
  std::int64_t trips_of(const stmt &loop) const { return loop.i[0] < 0 ? p.s1 : loop.i[0]; }

  /// Whether every value of `body` is still one the comparison can judge once the bounds have
  /// grown: floats within range, and operands that must be exact (comparisons, floor, ceil,
  /// conversions to integers, argmax, argmin) still exact.
  bool judgeable(const std::vector<stmt> &body) const {
    for (const stmt &s : body) {
      if (!judgeable(s.body) || !judgeable(s.else_body))
        return false;
      if (s.id < 0)
        continue;
      const bound b = bounds[std::size_t(s.id)];
      if (is_float(s.type.t) && !b.exact &&
          !(b.scale < max_finite(s.type.t) / 16 &&
            b.err < b.scale * max_relative_error(s.type.t) + 1e-3))
        return false;
      const bool needs_exact =
          s.kind == op::compare || (s.kind == op::unary && s.a0 >= u_floor) ||
          (s.kind == op::cast && is_float(arg_type(s, 0)) && !is_float(s.type.t)) ||
          (s.kind == op::reduce && s.a0 >= r_argmax);
      if (needs_exact)
        for (int a : s.args)
          if (!bounds[std::size_t(a)].exact)
            return false;
    }
    return true;
  }
  static bound join(bound a, bound b) {
    return {a.exact && b.exact, std::max(a.scale, b.scale), std::max(a.err, b.err)};
  }

  // -- statements ------------------------------------------------------------------------------
  shape_t random_shape(int rank) {
    shape_t s;
    for (int d = 0; d < rank; ++d)
      s.push_back(pow2(0, rank == 1 ? 9 : 6));
    return s;
  }

  std::int64_t input_elems(int which) const { return p.input_bytes / bytes_of(p.input[which]); }

  /// A load of a `shape` block from input `which`, at a random offset and strides, masked or not.
  int load(std::vector<stmt> &out, int which, shape_t shape) {
    stmt s{op::load};
    s.a0 = which;
    s.to = p.input[which];
    s.type = {p.input[which], shape};
    const std::int64_t limit = input_elems(which);
    // i[0] base, i[1] per-program stride, i[2] stride of dim 0 (-1: s0), i[3] stride of dim 1,
    // i[4] mask kind (0 none, 1 offs < i[5], 2 rows/columns), i[5] mask limit.
    const std::int64_t n0 = shape.empty() ? 1 : shape[0];
    const std::int64_t n1 = shape.size() > 1 ? shape[1] : 1;
    auto stride = [&](std::int64_t inner) -> std::int64_t {
      switch (uniform(0, 6)) {
      case 0:
        return 0;
      case 1:
      case 2:
        return 1;
      case 3:
        return 2;
      case 4:
        return inner;
      case 5:
        return inner + 1;
      default:
        return -1; // s0 at run time
      }
    };
    s.i[2] = shape.size() == 2 ? stride(n1) : stride(1);
    s.i[3] = shape.size() == 2 ? stride(1) : 0;
    const auto value_of = [&](std::int64_t st) { return st < 0 ? std::int64_t(p.s0) : st; };
    const std::int64_t span = (n0 - 1) * value_of(s.i[2]) + (n1 - 1) * value_of(s.i[3]) + 1;
    s.i[1] = pick(std::vector<std::int64_t>{0, span, n0 * n1, 7});
    s.i[0] = uniform(0, 3) == 0 ? 0 : uniform(0, 64);
    const std::int64_t last = s.i[0] + s.i[1] * (p.grid - 1) + span - 1;
    s.i[4] = uniform(0, 2);
    if (shape.empty())
      s.i[4] = 0;
    if (s.i[4] == 0 && last >= limit)
      s.i[4] = 1;
    if (s.i[4] == 1)
      s.i[5] = std::min<std::int64_t>(limit, uniform(0, 1) ? last + 1 : s.i[0] + span / 2 + 1);
    if (s.i[4] == 2) {
      if (last >= limit)
        return -1;
      s.i[5] = uniform(0, int(shape.size() == 2 ? n0 : n0));   // rows (or lanes) kept
      s.a1 = int(shape.size() == 2 ? uniform(0, int(n1)) : 0); // columns kept
    }
    if (shape.empty() && last >= limit)
      return -1;
    s.f = is_float(s.type.t) ? uniform(-8, 8) / 2.0 : uniform(is_unsigned(s.type.t) ? 0 : -8, 8);
    return add(out, s);
  }

  /// A block loaded through a tensor descriptor of input `which`: a [rows, cols] tensor (rank 1:
  /// [cols]) at a 16-byte aligned element offset, row stride a multiple of 16 bytes, the block
  /// at any start, before, across or past the tensor's edges (zeros there), the column start
  /// sometimes s0 + a constant, known only at run time.
  int desc_load(std::vector<stmt> &out, int which, shape_t shape) {
    const ty t = p.input[which];
    if (t == ty::i1)
      return -1;
    stmt s{op::desc_load};
    s.a0 = which;
    s.to = t;
    s.type = {t, shape};
    const std::int64_t quantum = 16 / bytes_of(t), limit = input_elems(which);
    s.i[0] = quantum * uniform(0, 4);
    s.i[2] = uniform(1, 64);                                                       // columns
    s.i[3] = (s.i[2] + quantum - 1) / quantum * quantum + quantum * uniform(0, 2); // row stride
    const std::int64_t most_rows = (limit - s.i[0] - s.i[2]) / s.i[3] + 1;
    if (most_rows < 1)
      return -1;
    s.i[1] = shape.size() == 1 ? 1 : uniform(1, int(std::min<std::int64_t>(most_rows, 64)));
    const std::int64_t b0 = shape.size() == 2 ? shape[0] : 1, b1 = shape.back();
    s.i[4] = uniform(-int(b0) - 2, int(s.i[1]) + 2);
    s.a1 = uniform(0, 3) == 0;
    s.i[5] = uniform(-int(b1) - 2, int(s.i[2]) + 2) - (s.a1 ? p.s0 : 0);
    return add(out, s);
  }

  int full(std::vector<stmt> &out, vtype t) {
    stmt s{op::full};
    s.type = t;
    s.f = t.t == ty::i1   ? uniform(0, 1)
          : is_float(t.t) ? uniform(-16, 16) / 4.0
                          : uniform(is_unsigned(t.t) ? 0 : -9, 9);
    return add(out, s);
  }

  /// A value of type `t`: an existing one, a conversion of one of the same shape, or a full.
  int like(std::vector<stmt> &out, const vtype &t) {
    if (int id = find([&](int v) { return types[std::size_t(v)] == t; }); id >= 0 && chance(0.7))
      return id;
    if (int id =
            find([&](int v) { return types[std::size_t(v)].shape == t.shape && castable(v, t.t); });
        id >= 0 && chance(0.7)) {
      if (int c = cast(out, id, t.t); c >= 0)
        return c;
    }
    return full(out, t);
  }

  bool castable(int v, ty to) const {
    const ty from = types[std::size_t(v)].t;
    const bound b = bounds[std::size_t(v)];
    if (is_float(from) && !is_float(to))
      return b.exact && b.scale < max_finite(from) / 4; // finite, clamped, judged bit for bit
    if (is_float(to) && !b.exact)
      return b.scale < max_finite(to) / 16;
    return true;
  }

  int cast(std::vector<stmt> &out, int v, ty to) {
    if (!castable(v, to) || types[std::size_t(v)].t == to)
      return -1;
    stmt s{op::cast};
    s.args = {v};
    s.to = to;
    s.a0 = is_float(types[std::size_t(v)].t) && is_int(to);
    s.type = {to, types[std::size_t(v)].shape};
    return add(out, s);
  }

  int unary(std::vector<stmt> &out) {
    const int v = find([&](int x) { return types[std::size_t(x)].t != ty::i1; });
    if (v < 0)
      return -1;
    const vtype t = types[std::size_t(v)];
    const bound b = bounds[std::size_t(v)];
    std::vector<int> kinds{u_neg, u_abs};
    if (is_int(t.t))
      kinds.push_back(u_not);
    if (is_float(t.t) && !is_fp8(t.t)) { // fp8 takes no math functions, as in Triton
      kinds.insert(kinds.end(), {u_exp, u_log, u_sqrt, u_sin, u_cos, u_sigmoid});
      if (b.exact)
        kinds.insert(kinds.end(), {u_floor, u_ceil});
    }
    if (is_unsigned(t.t))
      kinds.erase(kinds.begin()); // -x of an unsigned block: not worth the noise
    stmt s{op::unary};
    s.a0 = pick(kinds);
    s.args = {v};
    s.type = t;
    return add(out, s);
  }

  static bool broadcastable(const shape_t &a, const shape_t &b) {
    if (b.empty())
      return true;
    if (a.size() != b.size())
      return false;
    for (std::size_t d = 0; d < a.size(); ++d)
      if (a[d] != b[d] && a[d] != 1 && b[d] != 1)
        return false;
    return true;
  }
  static shape_t broadcast_shape(const shape_t &a, const shape_t &b) {
    if (b.empty())
      return a;
    shape_t s = a;
    for (std::size_t d = 0; d < a.size(); ++d)
      s[d] = std::max(a[d], b[d]);
    return s;
  }

  std::vector<int> binary_kinds(ty t) const {
    if (t == ty::i1)
      return {b_and, b_or, b_xor};
    if (is_float(t))
      return {b_add, b_sub, b_mul, b_div, b_max, b_min};
    return {b_add, b_sub, b_mul, b_div, b_rem, b_max, b_min, b_and, b_or, b_xor, b_shl, b_shr};
  }

  int binary(std::vector<stmt> &out) {
    const int x = find([](int) { return true; });
    if (x < 0)
      return -1;
    const vtype tx = types[std::size_t(x)];
    const int y = find([&](int v) {
      const vtype &ty_ = types[std::size_t(v)];
      return ty_.t == tx.t && broadcastable(tx.shape, ty_.shape);
    });
    if (y < 0)
      return -1;
    stmt s{op::binary};
    s.a0 = pick(binary_kinds(tx.t));
    s.args = {x, y};
    s.type = {tx.t, broadcast_shape(tx.shape, types[std::size_t(y)].shape)};
    return add(out, s);
  }

  int literal(std::vector<stmt> &out) {
    const int x = find([&](int v) { return types[std::size_t(v)].t != ty::i1; });
    if (x < 0)
      return -1;
    const vtype t = types[std::size_t(x)];
    stmt s{op::literal};
    std::vector<int> kinds{b_add, b_sub, b_mul, b_div, b_max, b_min};
    s.a0 = pick(kinds);
    s.a1 = s.a0 == b_div ? 0 : uniform(0, 1);
    s.args = {x};
    s.type = t;
    if (s.a0 == b_div)
      s.f = pick(std::vector<double>{2, 3, -2, -3, 4});
    else if (is_float(t.t))
      s.f = uniform(-12, 12) / 4.0;
    else
      s.f = uniform(is_unsigned(t.t) ? 0 : -5, 5);
    if (is_unsigned(t.t) && s.f < 0)
      s.f = -s.f;
    return add(out, s);
  }

  int compare(std::vector<stmt> &out) {
    const int x = find(
        [&](int v) { return bounds[std::size_t(v)].exact && types[std::size_t(v)].t != ty::i1; });
    if (x < 0)
      return -1;
    const vtype tx = types[std::size_t(x)];
    const int y = find([&](int v) {
      return bounds[std::size_t(v)].exact && types[std::size_t(v)].t == tx.t &&
             broadcastable(tx.shape, types[std::size_t(v)].shape);
    });
    if (y < 0)
      return -1;
    stmt s{op::compare};
    s.a0 = uniform(0, c_count - 1);
    s.args = {x, y};
    s.type = {ty::i1, broadcast_shape(tx.shape, types[std::size_t(y)].shape)};
    return add(out, s);
  }

  int where(std::vector<stmt> &out) {
    const int c = find([&](int v) { return types[std::size_t(v)].t == ty::i1; });
    if (c < 0)
      return -1;
    const shape_t cs = types[std::size_t(c)].shape;
    const int a = find([&](int v) {
      const auto &t = types[std::size_t(v)];
      return t.t != ty::i1 && t.shape == cs;
    });
    if (a < 0)
      return -1;
    const vtype ta = types[std::size_t(a)];
    const int b = find([&](int v) { // b broadcasts to the condition's shape, never widens it
      const auto &t = types[std::size_t(v)];
      return t.t == ta.t && broadcastable(cs, t.shape) && broadcast_shape(cs, t.shape) == cs;
    });
    if (b < 0)
      return -1;
    stmt s{op::where};
    s.args = {c, a, b};
    s.type = ta;
    return add(out, s);
  }

  int shape_op(std::vector<stmt> &out) {
    const int x = find([](int) { return true; });
    if (x < 0)
      return -1;
    const vtype t = types[std::size_t(x)];
    stmt s{op::expand};
    s.args = {x};
    switch (t.rank()) {
    case 0:
      return -1;
    case 1:
      if (chance(0.6)) {
        s.kind = op::expand;
        s.a0 = uniform(0, 1);
        s.type = {t.t, s.a0 == 0 ? shape_t{1, t.shape[0]} : shape_t{t.shape[0], 1}};
      } else {
        if (t.shape[0] < 2)
          return -1;
        s.kind = op::reshape;
        const std::int64_t r = std::int64_t(1) << uniform(0, int(std::log2(double(t.shape[0]))));
        s.to_shape = {r, t.shape[0] / r};
        s.type = {t.t, s.to_shape};
      }
      break;
    default: {
      const int what = uniform(0, 2);
      if (what == 0) {
        s.kind = op::trans;
        s.type = {t.t, {t.shape[1], t.shape[0]}};
      } else if (what == 1 && (t.shape[0] == 1 || t.shape[1] == 1)) {
        s.kind = op::broadcast;
        s.to_shape = t.shape;
        for (auto &d : s.to_shape)
          if (d == 1)
            d = pow2(1, 5);
        s.type = {t.t, s.to_shape};
      } else {
        s.kind = op::reshape;
        if (chance(0.5)) {
          s.to_shape = {t.numel()};
        } else {
          const std::int64_t r = std::int64_t(1) << uniform(0, int(std::log2(double(t.numel()))));
          s.to_shape = {r, t.numel() / r};
        }
        s.type = {t.t, s.to_shape};
      }
    }
    }
    return add(out, s);
  }

  int reduce(std::vector<stmt> &out) {
    const int x = find([&](int v) { return types[std::size_t(v)].rank() > 0; });
    if (x < 0)
      return -1;
    const vtype t = types[std::size_t(x)];
    const bound b = bounds[std::size_t(x)];
    stmt s{op::reduce};
    s.args = {x};
    std::vector<int> kinds{r_max, r_min};
    if (t.t != ty::i1)
      kinds.push_back(r_sum);
    if (b.exact)
      kinds.insert(kinds.end(), {r_argmax, r_argmin});
    s.a0 = pick(kinds);
    s.a1 = (s.a0 >= r_argmax || chance(0.7)) ? uniform(0, t.rank() - 1) : -1;
    shape_t shape = t.shape;
    if (s.a1 < 0)
      shape.clear();
    else
      shape.erase(shape.begin() + s.a1);
    ty rt = t.t;
    if (s.a0 == r_sum && is_int(t.t) && bits_of(t.t) < 32)
      rt = is_unsigned(t.t) ? ty::u32 : ty::i32;
    if (s.a0 >= r_argmax)
      rt = ty::i32;
    s.type = {rt, shape};
    return add(out, s);
  }

  int scan(std::vector<stmt> &out) {
    const int x = find([&](int v) {
      return types[std::size_t(v)].rank() > 0 && types[std::size_t(v)].t != ty::i1;
    });
    if (x < 0)
      return -1;
    const vtype t = types[std::size_t(x)];
    stmt s{op::scan};
    s.args = {x};
    s.a0 = chance(0.7) ? 0 : 1;
    s.a1 = uniform(0, t.rank() - 1);
    s.a2 = uniform(0, 1);
    if (s.a0 == 1 && is_float(t.t) && t.shape[std::size_t(s.a1)] > 16)
      s.a0 = 0;
    ty rt = t.t;
    if (is_int(t.t) && bits_of(t.t) < 32)
      rt = is_unsigned(t.t) ? ty::u32 : ty::i32;
    s.type = {rt, t.shape};
    return add(out, s);
  }

  int dot(std::vector<stmt> &out) {
    if (dots >= 2)
      return -1;
    const ty in =
        pick(std::vector<ty>{ty::f16, ty::bf16, ty::f32, ty::i8, ty::f16, ty::f8e4m3, ty::f8e5m2});
    const std::int64_t m = pow2(4, 6), n = pow2(4, 6), k = pow2(4, 6);
    auto operand = [&](shape_t shape) {
      const int which = p.input[0] == in ? 0 : p.input[1] == in ? 1 : uniform(0, 1);
      int v = load(out, which, shape);
      if (v >= 0 && types[std::size_t(v)].t != in)
        v = cast(out, v, in);
      return v;
    };
    const int a = operand({m, k});
    const int b = a < 0 ? -1 : operand({k, n});
    if (b < 0)
      return -1;
    stmt s{op::dot};
    s.args = {a, b};
    ty acc = in == ty::i8 ? ty::i32 : ty::f32;
    if (in == ty::f16 && chance(0.25))
      acc = ty::f16;
    if (chance(0.5)) {
      const int c = find([&](int v) { return types[std::size_t(v)] == vtype{acc, {m, n}}; });
      if (c >= 0)
        s.args.push_back(c);
      else if (acc == ty::f16)
        s.args.push_back(full(out, {acc, {m, n}}));
    }
    if (acc == ty::f16 && s.args.size() == 2)
      acc = ty::f32;
    s.a0 = in == ty::f32 ? uniform(0, 2) : 0; // tf32, ieee, tf32x3
    s.type = {acc, {m, n}};
    const int id = add(out, s);
    if (id >= 0)
      ++dots;
    return id;
  }

  /// A loop over 0 .. trips (a constant, or s1) whose body updates one or two outer values.
  int loop(std::vector<stmt> &out) {
    if (loops >= 2 || depth >= 2)
      return -1;
    std::vector<int> outer = visible();
    std::vector<int> carried;
    for (int i = 0; i < 2 && !outer.empty(); ++i) {
      const int c = pick(outer);
      if (std::find(carried.begin(), carried.end(), c) == carried.end())
        carried.push_back(c);
      if (chance(0.5))
        break;
    }
    if (carried.empty())
      return -1;
    stmt s{op::loop};
    s.i[0] = chance(0.3) ? -1 : uniform(0, 3);
    const std::vector<bound> saved = bounds;
    ++loops;
    ++depth;
    scopes.emplace_back();
    stmt iv{op::param}; // the induction variable, i32
    iv.a0 = 2;
    iv.f = double(trips_of(s));
    iv.type = {ty::i32, {}};
    s.a1 = add(s.body, iv);
    statements(s.body, uniform(1, 5));
    for (int c : carried)
      update(s.body, c);
    scopes.pop_back();
    --depth;
    for (std::int64_t k = 1; k < trips_of(s); ++k) // the bounds after every trip
      propagate(s.body);
    if (!judgeable(s.body)) {
      std::copy(saved.begin(), saved.end(), bounds.begin());
      return -1;
    }
    out.push_back(std::move(s));
    return 0;
  }

  /// Assigns to outer value `c` a new value of its type computed from it.
  void update(std::vector<stmt> &body, int c) {
    const vtype t = types[std::size_t(c)];
    const bool exact = bounds[std::size_t(c)].exact;
    int next = -1;
    for (int attempt = 0; attempt < 4 && next < 0; ++attempt) {
      const int other = like(body, t);
      stmt s{op::binary};
      const auto kinds = binary_kinds(t.t);
      s.a0 = pick(kinds);
      if (is_float(t.t) && (s.a0 == b_mul || s.a0 == b_div) && chance(0.7))
        s.a0 = b_max; // keep loops from growing without bound
      s.args = {c, other};
      s.type = t;
      // An exact carried value stays exact, so that what the body judged exact on the first
      // trip stays so on the next.
      if (exact && !bound_of(s).exact)
        continue;
      next = add(body, s);
    }
    if (next < 0)
      next = full(body, t);
    stmt a{op::assign};
    a.args = {c, next};
    body.push_back(a);
    bounds[std::size_t(c)] = join(bounds[std::size_t(c)], bounds[std::size_t(next)]);
  }

  int branch(std::vector<stmt> &out) {
    if (branches >= 2 || depth >= 2)
      return -1;
    std::vector<int> outer = visible();
    if (outer.empty())
      return -1;
    stmt s{op::branch};
    // The condition: a comparison of a scalar with a constant.
    const int x = find([&](int v) {
      return types[std::size_t(v)].rank() == 0 && bounds[std::size_t(v)].exact &&
             types[std::size_t(v)].t != ty::i1;
    });
    int cond = -1;
    if (x >= 0) {
      stmt lit{op::full};
      lit.type = {types[std::size_t(x)].t, {}};
      lit.f = uniform(0, 3);
      const int y = add(out, lit);
      stmt c{op::compare};
      c.a0 = uniform(0, c_count - 1);
      c.args = {x, y};
      c.type = {ty::i1, {}};
      cond = add(out, c);
    }
    if (cond < 0)
      return -1;
    s.args = {cond};
    const int carried = pick(outer);
    ++branches;
    ++depth;
    scopes.emplace_back();
    statements(s.body, uniform(0, 3));
    update(s.body, carried);
    scopes.pop_back();
    scopes.emplace_back();
    if (chance(0.7)) {
      statements(s.else_body, uniform(0, 3));
      update(s.else_body, carried);
    }
    scopes.pop_back();
    --depth;
    out.push_back(std::move(s));
    return 0;
  }

  void statements(std::vector<stmt> &out, int count) {
    for (int made = 0, attempts = 0; made < count && attempts < 20 * count; ++attempts) {
      int r = -1;
      switch (uniform(0, 15)) {
      case 0:
      case 1: {
        const int rank = uniform(0, 2);
        if (rank > 0 && chance(0.25)) {
          shape_t shape = random_shape(rank);
          if (rank == 2)
            shape = {pow2(0, 5), pow2(0, 6)};
          r = desc_load(out, uniform(0, 1), shape);
        } else {
          r = load(out, uniform(0, 1), random_shape(rank));
        }
        break;
      }
      case 2:
        r = unary(out);
        break;
      case 3:
      case 4:
        r = binary(out);
        break;
      case 5:
        r = literal(out);
        break;
      case 6:
        r = compare(out);
        break;
      case 7:
        r = where(out);
        break;
      case 8: {
        const int v = find([](int) { return true; });
        r = v < 0 ? -1 : cast(out, v, any_type());
        break;
      }
      case 9:
        r = shape_op(out);
        break;
      case 10:
        r = reduce(out);
        break;
      case 11:
        r = scan(out);
        break;
      case 12:
        r = chance(0.5) ? dot(out) : -1;
        break;
      case 13:
        r = loop(out);
        break;
      case 14:
        r = branch(out);
        break;
      default: {
        stmt s{op::arange};
        s.type = {ty::i32, {pow2(0, 8)}};
        r = add(out, s);
        if (r >= 0 && chance(0.5)) {
          stmt q{op::pid};
          q.type = {ty::i32, {}};
          add(out, q);
        }
        break;
      }
      }
      if (r >= 0)
        ++made;
    }
  }

  void results() {
    std::vector<int> top = scopes.front();
    std::int64_t offset = 0;
    const int count = uniform(1, 3);
    for (int k = 0; k < count && !top.empty(); ++k) {
      // Later values depend on more statements: prefer them.
      const int pos =
          std::max(0, int(top.size()) - 1 - uniform(0, std::min<int>(4, int(top.size()) - 1)));
      const int id = top[std::size_t(pos)];
      top.erase(top.begin() + pos);
      result r{};
      r.id = id;
      r.type = types[std::size_t(id)];
      r.from_i1 = r.type.t == ty::i1;
      if (r.from_i1)
        r.type.t = ty::i8;
      r.b = bounds[std::size_t(id)];
      r.offset = offset;
      r.bytes = (r.type.numel() * bytes_of(r.type.t) + 15) / 16 * 16;
      const std::int64_t n1 = r.type.rank() > 0 ? r.type.shape.back() : 0;
      const std::int64_t n0 = r.type.rank() > 1 ? r.type.shape[0] : 1;
      if (r.type.rank() > 0 && (r.type.rank() == 1 || n1 * bytes_of(r.type.t) % 16 == 0) &&
          chance(0.25)) { // through a descriptor, clipped and shifted
        r.desc = true;
        r.rows = r.type.rank() > 1 ? uniform(1, int(n0)) : 1;
        r.cols = uniform(1, int(n1));
        r.start_row = r.type.rank() > 1 ? uniform(-int(n0) / 2, int(n0) / 2) : 0;
        r.start_col = uniform(-int(n1) / 2, int(n1) / 2);
      } else if (r.type.rank() > 0 && chance(0.25)) {
        r.masked_tail = uniform(1, int(std::min<std::int64_t>(r.type.numel(), 64)));
      }
      offset += r.bytes * p.grid;
      p.results.push_back(r);
    }
    p.out_bytes = offset;
  }
};

} // namespace

program generate(std::uint64_t seed) {
  program p;
  p.seed = seed;
  generator g(p);
  p.grid = g.uniform(1, 3);
  p.input[0] = g.data_type();
  p.input[1] = g.chance(0.5) ? p.input[0] : g.data_type();
  p.s0 = g.uniform(1, 5);
  p.s1 = g.uniform(0, 3);
  p.num_warps = int(g.pick(std::vector<int>{1, 2, 4, 4, 8}));
  g.statements(p.body, g.uniform(3, 14));
  g.results();
  if (p.results.empty()) { // nothing made: a load at least
    g.load(p.body, 0, {16});
    g.results();
  }
  return p;
}

} // namespace tk_random

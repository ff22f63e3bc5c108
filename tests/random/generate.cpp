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
                                   "tk::f8e5m2",   "tk::f8e4b8",   "tk::f8e5b16"};
  return names[int(t)];
}

const char *short_name(ty t) {
  constexpr const char *names[] = {"i1",  "i8",     "i16",    "i32",    "i64",
                                   "u8",  "u32",    "f16",    "bf16",   "f32",
                                   "f64", "f8e4m3", "f8e5m2", "f8e4b8", "f8e5b16"};
  return names[int(t)];
}

const math_def &math_of(int fn) {
  // The forms inside the domain keep the argument where the function is finite and its
  // derivative small, so that an inexact operand's error stays bounded.
  static const math_def defs[m_count] = {
      {"tanh", 1, {}},
      {"tan", 1, {{wrap::clamp, -1, 1}}},
      {"asin", 1, {{wrap::clamp, -0.75, 0.75}}},
      {"acos", 1, {{wrap::clamp, -0.75, 0.75}}},
      {"atan", 1, {}},
      {"sinh", 1, {{wrap::clamp, -4, 4}}},
      {"cosh", 1, {{wrap::clamp, -4, 4}}},
      {"asinh", 1, {}},
      {"acosh", 1, {{wrap::abs_plus, 2, 0}}},
      {"atanh", 1, {{wrap::clamp, -0.75, 0.75}}},
      {"erf", 1, {}},
      {"erfc", 1, {}},
      {"cbrt", 1, {{wrap::abs_plus, 1, 0}}},
      {"log10", 1, {{wrap::abs_plus, 1, 0}}},
      {"log1p", 1, {{wrap::abs, 0, 0}}},
      {"expm1", 1, {{wrap::clamp, -4, 4}}},
      {"exp2", 1, {{wrap::clamp, -4, 4}}},
      {"exp10", 1, {{wrap::clamp, -2, 2}}},
      {"sqrt", 1, {{wrap::abs_plus, 1, 0}}},
      {"sqrt_rn", 1, {{wrap::abs_plus, 1, 0}}},
      {"rsqrt", 1, {{wrap::abs_plus, 1, 0}}},
      {"trunc", 1, {}},
      {"round", 1, {}},
      {"rint", 1, {}},
      {"pow", 2, {{wrap::abs_clamp, 0.5, 4}, {wrap::clamp, -3, 3}}},
      {"atan2", 2, {{}, {wrap::abs_plus, 1, 0}}},
      {"hypot", 2, {}},
      {"fdiv", 2, {{}, {wrap::abs_plus, 1, 0}}},
      {"div_rn", 2, {{}, {wrap::abs_plus, 1, 0}}},
      {"isnan", 1, {}},
      {"isinf", 1, {}},
      {"signbit", 1, {}},
      {"maximum", 2, {}},
      {"minimum", 2, {}},
      {"clamp", 1, {}},
      {"finite", 1, {}},
      {"softmax", 1, {}},
      {"libdevice::exp", 1, {{wrap::clamp, -4, 4}}},
      {"libdevice::log2", 1, {{wrap::abs_plus, 1, 0}}},
      {"libdevice::fmod", 2, {{}, {wrap::abs_plus, 1, 0}}},
      {"libdevice::copysign", 2, {}},
  };
  return defs[fn];
}

namespace {

constexpr double kIntScaleCap = 0x1p62;
constexpr double kPi = 3.14159265358979323846;

/// The GPU's error bound of a math function on f32 and f64, in ulps of the result (-1: none
/// given; 0: correctly rounded): docs/writing-kernels.md's table, as tests/unit/
/// interpreter_math.cpp checks them (gpu.numerics). f16 and bf16 are computed in f32 and
/// rounded back: 1 ulp of their own type.
struct ulps {
  int f32, f64;
};
ulps ulps_of(int fn, int form2) {
  switch (fn) {
  case m_tanh:
    return {2, 1};
  case m_tan:
    return {4, 2};
  case m_asin:
    return {4, 2};
  case m_acos:
    return {3, 1};
  case m_atan:
    return {2, 2};
  case m_sinh:
    return {3, 1};
  case m_cosh:
    return {2, 1};
  case m_asinh:
    return {3, 2};
  case m_acosh:
    return {4, 2};
  case m_atanh:
    return {3, 2};
  case m_erf:
    return {2, 2};
  case m_erfc:
    return {4, 4};
  case m_cbrt:
    return {1, 1};
  case m_log10:
    return {2, 1};
  case m_log1p:
  case m_expm1:
    return {1, 1};
  case m_exp2:
  case m_exp10:
    return {2, 1};
  case m_sqrt:
    return {1, 0};
  case m_rsqrt:
    return {2, 1};
  case m_pow:
    return {8, 2};
  case m_atan2:
  case m_hypot:
    return {3, 2};
  case m_fdiv:
    return form2 == 2 ? ulps{0, 0} : ulps{2, 0};
  case m_ld_exp: // libdevice's expf, exp
    return {2, 1};
  case m_ld_log2:
    return {1, 1};
  default: // fmod and copysign too // sqrt_rn, div_rn, trunc, round, rint, and what only selects or
           // compares
    return {0, 0};
  }
}
/// The bound in `t` (f16 and bf16: 1 ulp, computed in f32 and rounded).
int ulps_in(ulps b, ty t) {
  if (t == ty::f32)
    return b.f32;
  if (t == ty::f64)
    return b.f64;
  return b.f32 == 0 ? 0 : 1;
}

/// The magnitude of the natural logarithm of `t`'s smallest positive value (a subnormal).
double log_tiny(ty t) {
  switch (t) {
  case ty::f16:
    return 24 * std::log(2.0);
  case ty::bf16:
    return 133 * std::log(2.0);
  case ty::f32:
    return 149 * std::log(2.0);
  default:
    return 1074 * std::log(2.0);
  }
}

/// randn on the GPU against the interpreter: its log is lg2.approx, whose absolute error near
/// 1 (2^-21.4, as CUDA's __logf) the square root of Box-Muller turns into up to 2^-10.2 where
/// the uniform u1 is close to 1 (r = sqrt(-2 log u1) near 0); elsewhere the ulps of log, sqrt
/// and cos (a few, relative).
constexpr double kRandnAbsolute = 0x1p-10;
constexpr double kRandnRelative = 16 * 0x1p-24;
/// |randn| is at most sqrt(-2 log(1e-7)) (u1 is at least 1e-7).
constexpr double kRandnScale = 5.7;

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
  int loops = 0, branches = 0, depth = 0, dots = 0, atomics = 0;
  bool host_used = false;          // a desc_load reads through the host-made descriptor
  std::vector<std::int64_t> trips; // of the loops around the statement being made
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
    if (!judgeable(s.type.t, s.b) || !operands_ok(s))
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
  /// Operand k's bound, its relative part made absolute.
  bound arg(const stmt &s, int k) const {
    return absolute(bounds[std::size_t(s.args[std::size_t(k)])]);
  }
  ty arg_type(const stmt &s, int k) const { return types[std::size_t(s.args[std::size_t(k)])].t; }
  static bound absolute(bound b) {
    b.err += b.rel * b.scale;
    b.rel = 0;
    return b;
  }
  /// Whether value `id` may be NaN or infinite: flagged so, or an exact float that may have
  /// overflowed.
  bool may_be_special(int id) const {
    const bound &b = bounds[std::size_t(id)];
    const ty t = types[std::size_t(id)].t;
    return is_float(t) && (b.special || b.scale >= max_finite(t));
  }

  /// A statement's bound, with what NaNs, infinities and signed zeros it may hold.
  bound bound_of(const stmt &s) const {
    if (s.kind == op::math)
      return math_bound(s);
    if (s.kind == op::random)
      return random_bound(s);
    if (s.kind == op::atomic)
      return atomic_old_bound(s);
    bound b = core_bound(s);
    if (!is_float(s.type.t))
      return b;
    const bool kills = (s.kind == op::unary && s.a0 == u_exp); // exp(clamp(x, -4, 4))
    for (std::size_t k = s.kind == op::where ? 1 : 0; k < s.args.size(); ++k) {
      const int a = s.args[k];
      if (!is_float(types[std::size_t(a)].t))
        continue;
      b.special |= may_be_special(a) && !kills;
      b.loose_zero |= bounds[std::size_t(a)].loose_zero;
    }
    // maxnum, minnum and reductions may give either zero.
    const bool makes_loose =
        ((s.kind == op::binary || s.kind == op::literal) && (s.a0 == b_max || s.a0 == b_min)) ||
        (s.kind == op::reduce && s.a0 != r_argmax && s.a0 != r_argmin) || s.kind == op::scan ||
        s.kind == op::dot;
    b.loose_zero |= makes_loose;
    return b;
  }

  bound core_bound(const stmt &s) const {
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
      return cap({true, std::max(is_float(t) ? 4.0 : 16.0, std::abs(s.f)), 0});
    case op::desc_load: {
      bound b = cap({true, std::max(is_float(t) ? 4.0 : 16.0, std::abs(s.f)), 0});
      if (s.j[3]) { // NaN padding: judged as any NaN is, never bit for bit
        b.exact = false;
        b.special = true;
      }
      return b;
    }
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
    case op::flip:
    case op::unzip:
    case op::gather:
    case op::sort:
      return arg(s, 0);
    case op::zip:
    case op::cat: {
      const bound a = arg(s, 0), b = arg(s, 1);
      return cap({a.exact && b.exact, std::max(a.scale, b.scale), std::max(a.err, b.err)});
    }
    case op::reduce: {
      const bound x = arg(s, 0);
      const auto &in = types[std::size_t(s.args[0])];
      const double n = double(s.a1 < 0 ? in.numel() : in.shape[std::size_t(s.a1)]);
      if (s.a0 == r_argmax || s.a0 == r_argmin)
        return {true, n, 0};
      if (s.a0 == r_xor || s.a0 == r_or) // within the next power of two of the operands
        return cap({true, 2 * x.scale + 1, 0});
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
      if (s.i[2]) { // dot_scaled: exact elements (the generator's rules), f32 sums
        const double k = double(s.i[1]);
        const bound c = s.args.size() > 2 ? arg(s, 2) : bound{true, 0, 0};
        auto side = [&](const bound &x, int format, bool scaled) {
          return std::pair{(format == mx_e2m1 ? 6.0 : x.scale) * (scaled ? 4.0 : 1.0),
                           (format == mx_e2m1 ? 0.0 : x.err) * (scaled ? 4.0 : 1.0)};
        };
        const auto [va, ea] = side(a, int(s.i[3]), s.i[5] & 1);
        const auto [vb, eb] = side(b, int(s.i[4]), s.i[5] & 2);
        const double scale = k * va * vb + c.scale;
        return inexact(scale, k * (ea * vb + eb * va) + c.err + 4 * k * u * scale);
      }
      const double k = double(types[std::size_t(s.args[0])].shape[1]);
      bound c = s.args.size() > 2 ? arg(s, 2) : bound{true, 0, 0};
      if (!is_float(t))
        return cap({true, std::min(k * a.scale * b.scale + c.scale, kIntScaleCap), 0});
      const double scale = k * a.scale * b.scale + c.scale;
      // fp8 products are exact, but Hopper's wgmma adds them with fewer bits than f32 (about
      // 13 fraction bits: docs/writing-kernels.md).
      const double add_u = is_fp8(arg_type(s, 0)) ? std::max(0x1p-13, u) : u;
      return inexact(scale,
                     k * (a.err * b.scale + b.err * a.scale) + c.err + 4 * k * add_u * scale);
    }
    case op::loop:
    case op::branch:
    case op::assign:
    case op::math: // bound_of's own
    case op::random:
    case op::atomic:
    case op::gdc:
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
      if (!judgeable(s.body) || !judgeable(s.else_body) || !operands_ok(s))
        return false;
      if (s.kind == op::atomic && !judgeable(s.to, region_bound(s)))
        return false;
      if (s.id >= 0 && !judgeable(s.type.t, bounds[std::size_t(s.id)]))
        return false;
    }
    return true;
  }
  /// Whether a value of type `t` with bound `b` can be judged: an inexact float far from
  /// overflow, its error a fraction of its scale.
  static bool judgeable(ty t, bound b) {
    b = absolute(b);
    return !is_float(t) || b.exact ||
           (b.scale < max_finite(t) / 16 && b.err < b.scale * max_relative_error(t) + 1e-3);
  }
  /// Whether the operands of `s` are as it needs them: exact where a discontinuity would make
  /// an inexact one meaningless (comparisons, floor, ceil, conversions to integers, argmax,
  /// argmin, rounding, math functions on their whole domain), free of NaNs where their bits
  /// matter, with the sign of a zero known where it decides the result.
  bool operands_ok(const stmt &s) const {
    auto exact = [&](int k) { return bounds[std::size_t(s.args[std::size_t(k)])].exact; };
    auto all_exact = [&] {
      for (std::size_t k = 0; k < s.args.size(); ++k)
        if (!exact(int(k)))
          return false;
      return true;
    };
    auto clean = [&](int k) { // no NaN, and a zero's sign the same on both sides
      const int a = s.args[std::size_t(k)];
      return !may_be_special(a) && !bounds[std::size_t(a)].loose_zero;
    };
    switch (s.kind) {
    case op::compare:
      return all_exact();
    case op::unary:
      return s.a0 < u_floor || all_exact();
    case op::cast:
      return !(is_float(arg_type(s, 0)) && !is_float(s.type.t)) || all_exact();
    case op::reduce:
      return s.a0 < r_argmax || all_exact();
    case op::math: {
      const math_def &d = math_of(s.a0);
      const bool whole_domain = s.a1 == 0 && (d.domain[0].w != wrap::none ||
                                              (d.arity == 2 && d.domain[1].w != wrap::none));
      if ((whole_domain || s.a0 == m_trunc || s.a0 == m_round || s.a0 == m_rint) && !all_exact())
        return false;
      if (s.a0 == m_signbit)
        return exact(0) && clean(0);
      if (s.a0 == m_atan2 && s.a1 == 0)
        return clean(0) && clean(1);
      if (s.a0 == m_softmax)
        return !may_be_special(s.args[0]);
      return true;
    }
    case op::atomic: {
      std::size_t k = 0;
      const bool float_bits = is_float(s.to) && s.a0 != at_add;
      if (!s.j[0] && float_bits && may_be_special(s.args[k]))
        return false; // NaNs' bits differ
      if (!s.j[0])
        ++k;
      if (s.j[1] == 1)
        ++k;
      if (s.i[5] == 1 && !bounds[std::size_t(s.args[k++])].exact)
        return false;
      if (s.a0 == at_cas && s.j[1] != 0) // the other value compared, bit for bit
        return exact(int(s.args.size()) - 1) && (!is_float(s.to) || clean(int(s.args.size()) - 1));
      return true;
    }
    default:
      return true;
    }
  }
  static bound join(bound a, bound b) {
    return {a.exact && b.exact,     std::max(a.scale, b.scale), std::max(a.err, b.err),
            std::max(a.rel, b.rel), a.special || b.special,     a.loose_zero || b.loose_zero};
  }

  /// Operand k of a math function after its wrap (math_domain): its magnitude and error.
  struct wrapped {
    double scale, err;
    bool exact, special;
  };
  wrapped wrapped_operand(const stmt &s, int k) const {
    const bound b = arg(s, k);
    const ty t = arg_type(s, k);
    wrapped o{std::min(b.scale, max_finite(t)), b.err, b.exact,
              may_be_special(s.args[std::size_t(k)])};
    const math_domain d = s.a1 == 1 ? math_of(s.a0).domain[k] : math_domain{};
    switch (d.w) {
    case wrap::none:
    case wrap::abs:
      break;
    case wrap::clamp: // a NaN becomes lo, an infinity lo or hi
      o.scale = std::min(o.scale, std::max(std::abs(d.lo), std::abs(d.hi)));
      o.special = false;
      break;
    case wrap::abs_plus: // rounded: two inexact operands may round apart
      o.scale += d.lo;
      if (!o.exact)
        o.err += 2 * unit_roundoff(t) * o.scale;
      break;
    case wrap::abs_clamp:
      o.scale = d.hi;
      o.special = false;
      break;
    }
    return o;
  }

  /// The bound of a math function's result: its finite magnitude, the operands' errors through
  /// the function's derivative on the domain it sees, and its own documented ulps (relative).
  bound math_bound(const stmt &s) const {
    const ty t = s.type.t;
    const int fn = s.a0;
    const bool whole = s.a1 == 0; // on the whole domain: exact operands only
    const wrapped x = wrapped_operand(s, 0);
    const bool two = s.args.size() > 1 && fn != m_softmax; // a second operand
    const wrapped y = two ? wrapped_operand(s, 1) : x;
    const double S = x.scale;
    double R = 0, Lx = 0, Ly = 0; // result magnitude, derivatives
    bool special = x.special || y.special;
    switch (fn) {
    case m_isnan:
    case m_isinf:
    case m_signbit:
      return {true, 1, 0};
    case m_maximum:
    case m_minimum: {
      const bound a = arg(s, 0), b = arg(s, 1);
      bound r{a.exact && b.exact, std::max(a.scale, b.scale), std::max(a.err, b.err)};
      if (!is_float(t))
        return {true, std::min(r.scale, int_range(t)), 0};
      r.special = special;
      r.loose_zero = s.a2 != 2 || bounds[std::size_t(s.args[0])].loose_zero ||
                     bounds[std::size_t(s.args[1])].loose_zero;
      return r;
    }
    case m_clamp: {
      const bound a = arg(s, 0);
      if (!is_float(t))
        return {true, std::min(a.scale, int_range(t)), 0};
      bound r{a.exact, std::min(a.scale, std::max(std::abs(s.f), std::abs(s.g))), a.err};
      r.special = s.a2 == 2 && special; // maxnum drops a NaN; with propagate_nan::all it stays
      r.loose_zero = bounds[std::size_t(s.args[0])].loose_zero;
      return r;
    }
    case m_finite: {
      const bound a = arg(s, 0);
      bound r{a.exact, std::max(std::min(a.scale, max_finite(t)), std::abs(s.f)), a.err};
      r.loose_zero = bounds[std::size_t(s.args[0])].loose_zero;
      return r;
    }
    case m_softmax: {
      // exp(x - max) in (0, 1] (the maximum's own term exactly 1, so the sum is at least 1),
      // a sum of n of them in any order, and a division by it.
      const bound a = arg(s, 0);
      const double u = unit_roundoff(t);
      const double n = double(types[std::size_t(s.args[0])].shape[std::size_t(s.i[0])]);
      const double e_exp = (ulps_in({2, 1}, t) + 1) * 2 * u + 2 * u;
      const double e_num = 2 * a.err + e_exp;
      const double e_sum = n * e_num + 2 * n * n * u;
      const int div_ulps = s.i[2] ? 0 : ulps_in({2, 0}, t);
      return {false, 1, e_num + e_sum + (div_ulps + 1) * 2 * u};
    }
    case m_tanh:
      R = std::min(S, 1.0), Lx = 1;
      break;
    case m_tan:
      R = std::tan(std::min(S, 1.0)), Lx = 1 / std::pow(std::cos(std::min(S, 1.0)), 2);
      break;
    case m_asin:
    case m_acos: {
      const double m = std::min(S, 0.75);
      R = fn == m_asin ? (whole ? kPi / 2 : std::asin(m)) : kPi;
      Lx = 1 / std::sqrt(1 - m * m);
      special |= whole && S > 1;
      break;
    }
    case m_atan:
      R = std::min(S, kPi / 2), Lx = 1;
      break;
    case m_sinh:
    case m_cosh:
      R = std::cosh(std::min(S, 4.0)), Lx = std::cosh(std::min(S, 4.0));
      break;
    case m_asinh:
      R = std::asinh(S), Lx = 1;
      break;
    case m_acosh:
      R = std::acosh(std::max(S, 1.0)), Lx = 1 / std::sqrt(3.0);
      special |= whole;
      break;
    case m_atanh: {
      const double m = std::min(S, 0.75);
      R = std::atanh(m), Lx = 1 / (1 - m * m);
      if (whole && S < 1)
        R = std::atanh(S);
      else if (whole) // atanh(+-1) = +-inf, NaN beyond
        R = 0.5 * std::log(2 / unit_roundoff(t)) + 1, special = true;
      break;
    }
    case m_erf:
      R = 1, Lx = 1.1284;
      break;
    case m_erfc:
      R = 2, Lx = 1.1284;
      break;
    case m_cbrt:
      R = std::cbrt(S), Lx = 1.0 / 3;
      break;
    case m_log10:
    case m_ld_log2:
    case m_log1p: {
      const double base = fn == m_log10 ? 10 : 2;
      const double l = fn == m_log1p ? std::log1p(S) : std::log(S) / std::log(base);
      R = l, Lx = fn == m_log1p ? 1 : 1 / std::log(base);
      if (whole) { // log10(0) = log2(0) = -inf, log1p(-1) = -inf, NaN below
        R = std::max(l,
                     (fn == m_log1p ? -std::log(unit_roundoff(t)) : log_tiny(t) / std::log(base))) +
            1;
        special = true;
      }
      break;
    }
    case m_expm1:
    case m_exp2:
    case m_exp10:
    case m_ld_exp: {
      const double base = fn == m_exp10 ? 10 : fn == m_exp2 ? 2 : std::exp(1.0);
      R = std::pow(base, S), Lx = R * std::log(base);
      break;
    }
    case m_sqrt:
    case m_sqrt_rn:
      R = std::sqrt(S), Lx = 0.5;
      special |= whole;
      break;
    case m_rsqrt:
      R = whole ? std::exp(log_tiny(t) / 2) : 1, Lx = 0.5;
      special |= whole;
      break;
    case m_trunc:
    case m_round:
    case m_rint:
      R = S + 1;
      break;
    case m_pow: {
      if (s.a2 == 1) { // a literal exponent c
        const double c = s.f;
        R = whole ? std::pow(S, c) : std::max(std::pow(4.0, c), std::pow(0.5, c));
        Lx = std::abs(c) * std::max(std::pow(4.0, c - 1), std::pow(0.5, c - 1));
        special |= whole && c != std::floor(c); // a negative base
        break;
      }
      const double e = y.scale; // base in [0.5, 4], exponent in [-e, e]
      R = std::pow(4.0, e);
      Lx = e * std::max(std::pow(4.0, e - 1), std::pow(2.0, e + 1));
      Ly = R * std::log(4.0);
      break;
    }
    case m_atan2:
      R = whole ? kPi : std::min(S, kPi / 2), Lx = 1, Ly = 0.5;
      break;
    case m_hypot:
      R = S + y.scale, Lx = 1, Ly = 1;
      break;
    case m_fdiv:
    case m_div_rn:
      R = S, Lx = 1, Ly = S;
      break;
    case m_ld_fmod: // |fmod(x, y)| <= |x|; NaN where x is infinite or y zero
      R = S;
      special |= whole;
      break;
    case m_ld_copysign:
      R = S, Lx = 1;
      break;
    }
    const int k = ulps_in(ulps_of(fn, s.a2), t);
    bound r;
    r.scale = R;
    r.special = special;
    r.loose_zero = bounds[std::size_t(s.args[0])].loose_zero ||
                   (two && bounds[std::size_t(s.args[1])].loose_zero);
    if (k == 0 && x.exact && y.exact) // correctly rounded, as the interpreter rounds
      return r;
    r.exact = false;
    r.err = (x.exact ? 0 : Lx * x.err) + (two && !y.exact ? Ly * y.err : 0);
    // The documented ulps, and the interpreter's own half ulp; they hold for normal results,
    // and an f16 subnormal may round to the next one (those of the other types are below the
    // comparison's absolute 1e-30).
    r.rel = (k + 1) * 2 * unit_roundoff(t);
    if (t == ty::f16)
      r.err += 0x1p-24;
    return r;
  }

  bound random_bound(const stmt &s) const {
    switch (s.a0) {
    case rnd_rand:
      return {true, 1, 0};
    case rnd_randn:
      return {false, kRandnScale, kRandnAbsolute, kRandnRelative};
    default:
      return {true, int_range(ty::u32), 0};
    }
  }

  /// The old values an atomic returns where no two updates share an address: the region's
  /// initial values (make_output), or 0 where the mask is off.
  bound atomic_old_bound(const stmt &s) const {
    return {true, is_float(s.to) ? kAtomicInitFloat : int_range(s.to), 0};
  }

  /// The final values of an atomic's region: exact for integers (every order gives the same);
  /// for floats, max and min are the same in any order (within the values' own error), and a
  /// sum of H updates of an address, rounded after each in any order, is within H units of
  /// roundoff of its largest partial sum.
  bound region_bound(const stmt &s) const {
    const ty t = s.to;
    if (!is_float(t))
      return {true, int_range(t), 0};
    const bound v = s.j[0] ? bound{true, std::abs(s.f), 0} : arg(s, 0);
    const double init = kAtomicInitFloat, hits = double(s.j[5]);
    if (s.a0 != at_add)
      return {v.exact, std::max(init, v.scale), v.err};
    if (hits <= 1 && v.exact)
      return {true, init + v.scale, 0}; // one correctly rounded addition
    const double scale = init + hits * v.scale;
    return {false, scale, hits * v.err + hits * unit_roundoff(t) * scale};
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
  /// sometimes s0 + a constant, known only at run time; or (rank 2) a gather of rows by index
  /// from a descriptor of one-row blocks. Floats are sometimes padded with NaN.
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
    if (shape.size() == 2 && chance(0.3)) {
      // desc.gather: rows from -2 to rows + 1, some repeated, some outside the tensor.
      s.a2 = 1;
      s.j[0] = 2 * uniform(0, 3) + 1;
      s.j[1] = uniform(0, 10);
      s.j[2] = s.i[1] + 4;
    }
    s.j[3] = is_float(t) && chance(0.2);
    if (shape.size() == 2 && !host_used && chance(0.4))
      through_host_descriptor(s, shape);
    return add(out, s);
  }

  /// Makes desc_load `s` (rank 2) load through the kernel's host-made descriptor parameter
  /// instead of one it makes: of unsigned integers of its type's width, or for NaN padding of
  /// its type, if a float the parameter can have.
  void through_host_descriptor(stmt &s, const shape_t &shape) {
    host_descriptor h;
    if (s.j[3]) {
      switch (s.to) {
      case ty::f16:
        h.elem = host_elem::f16;
        break;
      case ty::bf16:
        h.elem = host_elem::bf16;
        break;
      case ty::f32:
        h.elem = host_elem::f32;
        break;
      case ty::f64:
        h.elem = host_elem::f64;
        break;
      default:
        return; // fp8 NaN padding: in-kernel descriptors only
      }
    } else {
      const host_elem by_width[] = {host_elem::u8, host_elem::u16, host_elem::u32, host_elem::u32,
                                    host_elem::u64};
      h.elem = by_width[std::size_t(bytes_of(s.to) / 2)];
    }
    h.which = s.a0;
    h.offset = s.i[0] * bytes_of(s.to);
    h.rows = s.i[1];
    h.cols = s.i[2];
    h.stride = s.i[3];
    h.block0 = s.a2 == 1 ? 1 : shape[0];
    h.block1 = shape[1];
    h.nan = s.j[3] != 0;
    p.host = h;
    s.j[4] = 1;
    host_used = true;
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

  /// flip, one half of a split, interleave, cat and gather: data movement, exact.
  int data_movement(std::vector<stmt> &out) {
    const int x = find([&](int v) { return types[std::size_t(v)].rank() > 0; });
    if (x < 0)
      return -1;
    const vtype t = types[std::size_t(x)];
    const auto last = std::size_t(t.rank() - 1);
    stmt s{op::flip};
    s.args = {x};
    s.type = t;
    switch (uniform(0, 5)) {
    case 0:
      s.a0 = uniform(0, int(last));
      break;
    case 5:
      s.kind = op::sort;
      s.a0 = uniform(0, int(last));
      s.a1 = uniform(0, 1);
      break;
    case 1:
      if (t.shape[last] < 2)
        return -1;
      s.kind = op::unzip;
      s.a0 = uniform(0, 1);
      s.type.shape[last] /= 2;
      break;
    case 2:
    case 3: {
      s.kind = chance(0.5) ? op::zip : op::cat;
      s.args.push_back(find([&](int v) { return types[std::size_t(v)] == t; }));
      s.type.shape[s.kind == op::zip ? last : 0] *= 2;
      break;
    }
    default:
      s.kind = op::gather;
      s.a0 = uniform(0, int(last));
      s.a1 = 2 * uniform(0, 3) + 1; // odd: a permutation of 0 .. n-1 (n a power of two)
      s.a2 = int(uniform(0, int(t.shape[std::size_t(s.a0)]) - 1));
      break;
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
    std::vector<int> kinds{r_max, r_min, r_custom};
    if (t.t != ty::i1)
      kinds.push_back(r_sum);
    if (!is_float(t.t))
      kinds.insert(kinds.end(), {r_xor, r_or});
    if (b.exact)
      kinds.insert(kinds.end(), {r_argmax, r_argmin});
    s.a0 = pick(kinds);
    s.a1 = (s.a0 >= r_custom || chance(0.7)) ? uniform(0, t.rank() - 1) : -1;
    s.a2 = s.a1 >= 0 && chance(0.3) ? 1 : 0; // tk::keep_dims
    shape_t shape = t.shape;
    if (s.a1 < 0)
      shape.clear();
    else if (s.a2)
      shape[std::size_t(s.a1)] = 1;
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

  /// A loaded block of type `in` and shape `shape`, for a dot.
  int operand_of(std::vector<stmt> &out, ty in, shape_t shape) {
    const int which = p.input[0] == in ? 0 : p.input[1] == in ? 1 : uniform(0, 1);
    int v = load(out, which, shape);
    if (v >= 0 && types[std::size_t(v)].t != in)
      v = cast(out, v, in);
    return v;
  }

  /// tk::dot_scaled of two random formats. Scales go with e2m1 and fp8 operands only, and an
  /// f16 operand (which makes the products f16) meets only formats whose scaled values f16
  /// holds: every element is then exact in the compute type, as in MX practice.
  int dot_scaled(std::vector<stmt> &out) {
    const int lf = uniform(0, 4);
    int rf = uniform(0, 4);
    const auto fits_f16 = [](int f) { return f == mx_e2m1 || f == mx_e4m3 || f == mx_fp16; };
    if (lf == mx_fp16 && !fits_f16(rf))
      rf = mx_e4m3;
    if (rf == mx_fp16 && !fits_f16(lf))
      rf = mx_bf16;
    const std::int64_t m = pow2(4, 6), n = pow2(4, 6), k = pow2(5, 6);
    const int a = operand_of(out, mx_element[lf], {m, lf == mx_e2m1 ? k / 2 : k});
    const int b = a < 0 ? -1 : operand_of(out, mx_element[rf], {rf == mx_e2m1 ? k / 2 : k, n});
    if (b < 0)
      return -1;
    stmt s{op::dot};
    s.args = {a, b};
    if (chance(0.5)) {
      const int c = find([&](int v) { return types[std::size_t(v)] == vtype{ty::f32, {m, n}}; });
      if (c >= 0)
        s.args.push_back(c);
    }
    s.a2 = 1;
    s.i[0] = m;
    s.i[1] = k;
    s.i[2] = 1;
    s.i[3] = lf;
    s.i[4] = rf;
    const auto scalable = [](int f) { return f == mx_e2m1 || f == mx_e4m3 || f == mx_e5m2; };
    s.i[5] = (scalable(lf) && chance(0.7) ? 1 : 0) | (scalable(rf) && chance(0.7) ? 2 : 0);
    if (s.i[5] != 0 && chance(0.4))
      s.i[5] |= 4; // e4m3 scales, one per 16 (at most 2.25: the bound's factor 4 holds)
    s.type = {ty::f32, {m, n}};
    const int id = add(out, s);
    if (id >= 0)
      ++dots;
    return id;
  }

  int dot(std::vector<stmt> &out) {
    if (dots >= 2)
      return -1;
    if (chance(0.2))
      return dot_scaled(out);
    const ty in =
        pick(std::vector<ty>{ty::f16, ty::bf16, ty::f32, ty::i8, ty::f16, ty::f8e4m3, ty::f8e5m2});
    // A batched (3-D) product is B products of [B m, k] and [B k, n] operands reshaped.
    const std::int64_t batch = chance(0.25) ? pow2(1, 2) : 1;
    const int most = batch > 1 ? 5 : 6;
    const std::int64_t m = pow2(4, most), n = pow2(4, most), k = pow2(4, most);
    const int a = operand_of(out, in, {batch * m, k});
    const int b = a < 0 ? -1 : operand_of(out, in, {batch * k, n});
    if (b < 0)
      return -1;
    stmt s{op::dot};
    s.args = {a, b};
    const bool fp8 = in == ty::f8e4m3 || in == ty::f8e5m2;
    ty acc = in == ty::i8 ? ty::i32 : ty::f32;
    if ((in == ty::f16 || fp8) && chance(0.25))
      acc = ty::f16; // an f16 accumulator, or tk::dot<tk::half> without one
    const shape_t result{batch * m, n};
    if (chance(0.5)) {
      const int c = find([&](int v) { return types[std::size_t(v)] == vtype{acc, result}; });
      if (c >= 0)
        s.args.push_back(c);
      else if (acc == ty::f16)
        s.args.push_back(full(out, {acc, result}));
    }
    s.a0 = in == ty::f32 ? uniform(0, 2) : 0; // tf32, ieee, tf32x3
    // max_num_imprecise_acc (0: none) for fp8 into f32: one instruction's K, or the tile's.
    s.a1 = fp8 && acc == ty::f32 && chance(0.3)
               ? int(chance(0.5) ? std::min<std::int64_t>(32, k) : k)
               : 0;
    s.a2 = int(batch);
    s.i[0] = m;
    s.i[1] = k;
    s.type = {acc, result};
    const int id = add(out, s);
    if (id >= 0)
      ++dots;
    return id;
  }

  /// A math library function (math_fn) of one or two operands, on the operands as they are
  /// where they are exact (NaNs and infinities where the function gives them) or brought inside
  /// its domain (math_domain).
  int math(std::vector<stmt> &out) {
    const int fn = uniform(0, m_count - 1);
    const math_def &d = math_of(fn);
    const bool numeric = fn == m_maximum || fn == m_minimum || fn == m_clamp; // integers too
    const int x = find([&](int v) {
      const ty t = types[std::size_t(v)].t;
      if (numeric)
        return t != ty::i1 && !(fn == m_clamp && is_fp8(t));
      if (fn == m_softmax && types[std::size_t(v)].rank() == 0)
        return false;
      if (fn == m_ld_fmod && !bounds[std::size_t(v)].exact)
        return false;
      return is_float(t) && !is_fp8(t);
    });
    if (x < 0)
      return -1;
    const vtype tx = types[std::size_t(x)];
    stmt s{op::math};
    s.a0 = fn;
    s.args = {x};
    s.type = tx;
    const bool pow_literal = fn == m_pow && chance(0.4);
    if (d.arity == 2 && !pow_literal) {
      const int y = find([&](int v) {
        const vtype &t = types[std::size_t(v)];
        const bound &b = bounds[std::size_t(v)];
        if ((fn == m_ld_fmod && !b.exact) ||
            (fn == m_ld_copysign && (!b.exact || b.loose_zero || may_be_special(v))))
          return false;
        return t.t == tx.t && broadcastable(tx.shape, t.shape);
      });
      if (y < 0)
        return -1;
      s.args.push_back(y);
      s.type.shape = broadcast_shape(tx.shape, types[std::size_t(y)].shape);
    }
    const bool wraps = d.domain[0].w != wrap::none || (d.arity == 2 && d.domain[1].w != wrap::none);
    bool exact = true;
    for (int a : s.args)
      exact = exact && bounds[std::size_t(a)].exact;
    // On the whole domain (exact operands), or inside it; tan's poles, rsqrt's, raw fdiv and
    // pow's negative exponents would overflow near a threshold, so they stay inside.
    const bool whole_ok = exact && fn != m_tan && fn != m_fdiv && fn != m_div_rn &&
                          !(fn == m_pow && !pow_literal) && fn != m_sinh && fn != m_cosh &&
                          fn != m_expm1 && fn != m_exp2 && fn != m_exp10 && fn != m_ld_exp;
    s.a1 = wraps && !(whole_ok && chance(0.5)) ? 1 : 0;
    switch (fn) {
    case m_pow:
      if (pow_literal) {
        s.a2 = 1;
        s.f = s.a1 ? pick(std::vector<double>{2, 3, -1, -2, 0.5, 1.5})
                   : pick(std::vector<double>{2, 3, 0.5, 1.5});
      }
      break;
    case m_fdiv:
      s.a2 = uniform(0, 2);
      break;
    case m_maximum:
    case m_minimum:
      s.a2 = uniform(1, 2);
      break;
    case m_clamp:
      s.a2 = uniform(0, 2);
      if (is_float(tx.t)) {
        s.f = -uniform(1, 16) / 4.0;
        s.g = uniform(1, 16) / 4.0;
      } else {
        s.f = uniform(is_unsigned(tx.t) ? 0 : -9, 4);
        s.g = s.f + uniform(0, 9);
      }
      break;
    case m_finite:
      s.f = uniform(-8, 8) / 2.0;
      break;
    case m_softmax:
      s.i[0] = uniform(0, tx.rank() - 1);
      s.i[1] = s.i[0] > 0 || chance(0.5); // along axis 1, the reductions must keep it
      s.i[2] = uniform(0, 1);
      break;
    case m_isnan:
    case m_isinf:
    case m_signbit:
      s.type.t = ty::i1;
      break;
    }
    return add(out, s);
  }

  /// tk::rand, randn, randint or one of randint4x's four, from an i32 or u32 block of offsets
  /// and a seed: s0, s1, a C++ integer or an integer scalar of the kernel.
  int random_op(std::vector<stmt> &out) {
    const int offsets = find([&](int v) {
      const ty t = types[std::size_t(v)].t;
      return t == ty::i32 || t == ty::u32;
    });
    if (offsets < 0)
      return -1;
    stmt s{op::random};
    s.a0 = uniform(0, rnd_count - 1);
    s.a1 = uniform(0, 3);
    s.a2 = uniform(0, 3);
    s.args = {offsets};
    if (s.a2 == 2)
      s.i[0] = pick(std::vector<std::int64_t>{0, 1, 42, -1, 2147483647, 81985529216486895});
    if (s.a2 == 3) {
      const int seed = find([&](int v) {
        return types[std::size_t(v)].rank() == 0 && is_int(types[std::size_t(v)].t);
      });
      if (seed < 0)
        s.a2 = 0;
      else
        s.args.push_back(seed);
    }
    s.i[1] = chance(0.2) ? pick(std::vector<std::int64_t>{3, 7}) : 0;
    s.type = {s.a0 == rnd_rand || s.a0 == rnd_randn ? ty::f32 : ty::u32,
              types[std::size_t(offsets)].shape};
    return add(out, s);
  }

  /// An atomic read-modify-write (or compare-and-swap) on a region of out of its own, through
  /// a block of pointers whose addresses may collide (lanes modulo a small size, or data:
  /// a histogram), with a random mask, memory ordering and scope. Only operations whose final
  /// memory does not depend on the order of the updates collide; exchange and compare-and-swap
  /// get distinct addresses, outside loops, and then their old values are values too.
  int atomic(std::vector<stmt> &out) {
    if (atomics >= 3)
      return -1;
    stmt s{op::atomic};
    s.a0 = uniform(0, at_count - 1);
    const bool floats =
        s.a0 == at_add || s.a0 == at_max || s.a0 == at_min || s.a0 == at_xchg || s.a0 == at_cas;
    std::vector<ty> pointees{ty::i32, ty::u32, ty::i64, ty::i64}; // the second i64: u64
    if (floats)
      pointees.insert(pointees.end(), {ty::f32, ty::f64});
    if (s.a0 == at_add)
      pointees.insert(pointees.end(), {ty::f16, ty::bf16, ty::f32});
    const int which = uniform(0, int(pointees.size()) - 1);
    s.to = pointees[std::size_t(which)];
    s.j[4] = which == 3; // u64
    const ty vt = s.to;  // the values' type (u64: i64, bitcast)
    const bool in_loop = !trips.empty();
    const bool unique = s.a0 == at_xchg || s.a0 == at_cas || (!in_loop && chance(0.3));
    if (unique && in_loop)
      return -1;
    // The shape: an existing value's of this type, or a new one.
    shape_t shape = random_shape(uniform(0, 2));
    if (const int like_v = find([&](int v) { return types[std::size_t(v)].t == vt; });
        like_v >= 0 && chance(0.6))
      shape = types[std::size_t(like_v)].shape;
    const vtype block{vt, shape};
    s.type = block;
    const std::int64_t n = block.numel();
    if (n > 1024)
      return -1;
    // The value: a literal, a scalar or a block of this type.
    if (s.a0 != at_cas && chance(0.25)) {
      s.j[0] = 1;
      s.f = is_float(vt) ? uniform(-16, 16) / 4.0 : uniform(s.j[4] || is_unsigned(vt) ? 0 : -3, 5);
    } else {
      int v = find([&](int w) {
        return types[std::size_t(w)].t == vt &&
               (types[std::size_t(w)].shape == shape || types[std::size_t(w)].rank() == 0);
      });
      if (v < 0 || chance(0.3))
        v = like(out, block);
      if (v < 0)
        return -1;
      s.args.push_back(v);
    }
    // Through a descriptor: the block at any start, elements outside the tensor skipped, each
    // element of the region hit once per program (and trip).
    if (!unique && s.a0 <= at_xor && !shape.empty() && chance(0.3))
      return desc_atomic(out, std::move(s), shape);
    // The mask (for atomic_cas: where the compared value is the one in memory).
    s.j[1] = uniform(0, 2);
    if (s.j[1] == 1) {
      const int m = find([&](int w) {
        return types[std::size_t(w)].t == ty::i1 &&
               (types[std::size_t(w)].shape == shape || types[std::size_t(w)].rank() == 0);
      });
      if (m >= 0)
        s.args.push_back(m);
      else
        s.j[1] = 2;
    }
    if (s.j[1] == 2 && shape.empty())
      s.j[1] = 0;
    s.j[2] = uniform(0, int(n));
    // The addresses.
    if (unique) {
      s.i[1] = n;
      s.i[2] = 2 * uniform(0, 8) + 1; // odd: k -> k * a mod n is one to one (n a power of two)
      s.i[3] = uniform(0, int(n) - 1);
      s.i[4] = n;
    } else {
      const int index = shape.empty() ? -1 : find([&](int w) {
        return is_int(types[std::size_t(w)].t) && types[std::size_t(w)].shape == shape;
      });
      if (index >= 0 && chance(0.4)) {
        s.i[5] = 1;
        s.i[1] = pow2(0, 5);
        s.args.push_back(index);
      } else {
        s.i[1] = uniform(1, int(std::min<std::int64_t>(2 * n, 64)));
        s.i[2] = uniform(0, 5);
        s.i[3] = uniform(0, 16);
      }
      s.i[4] = chance(0.5) ? 0 : s.i[1];
    }
    if (s.a0 == at_cas && s.j[1] != 0) {
      const int alt = like(out, block);
      if (alt < 0)
        return -1;
      s.args.push_back(alt);
    }
    // How many updates an address sees at most: lanes, programs, trips.
    std::int64_t hits = 1;
    if (s.i[5] == 1) {
      hits = n;
    } else {
      std::vector<std::int64_t> count(std::size_t(s.i[1]));
      for (std::int64_t k = 0; k < n; ++k)
        hits = std::max(hits, ++count[std::size_t((k * s.i[2] + s.i[3]) % s.i[1])]);
    }
    // Programs that share addresses need an atomic of the whole GPU (cta's atomicity holds
    // within one program only).
    s.a1 = uniform(0, 4);
    s.a2 = s.i[4] == 0 && p.grid > 1 ? pick(std::vector<int>{0, 2, 3}) : uniform(0, 3);
    return finish_atomic(out, std::move(s), hits, unique);
  }

  /// An atomic statement `s` (its kind, type and value chosen) through a tensor descriptor of
  /// a block of `shape` (relaxed, GPU scope, no mask: as descriptors take them): its region of
  /// out a tensor of a row stride that is a multiple of 16 bytes, per program or shared.
  int desc_atomic(std::vector<stmt> &out, stmt s, const shape_t &shape) {
    const std::int64_t quantum = 16 / bytes_of(s.to);
    const std::int64_t n1 = shape.back(), n0 = shape.size() == 2 ? shape[0] : 1;
    s.d[0] = 1;
    s.d[1] = shape.size() == 2 ? uniform(1, int(2 * n0)) : 1;
    s.d[2] = uniform(1, int(2 * n1));
    s.d[5] = (s.d[2] + quantum - 1) / quantum * quantum;
    s.d[3] = shape.size() == 2 ? uniform(-int(n0) / 2, int(s.d[1])) : 0;
    s.d[4] = uniform(-int(n1) / 2, int(s.d[2]));
    s.i[1] = s.d[1] * s.d[5];
    if (s.i[1] > 4096)
      return -1;
    s.i[4] = chance(0.5) ? 0 : s.i[1];
    s.a1 = 4; // relaxed, GPU scope: neither is named
    s.a2 = 3;
    return finish_atomic(out, std::move(s), 1, false);
  }

  /// Adds atomic statement `s`, whose addresses each see at most `hits` updates from one
  /// program in one trip: it gets its region and, when its addresses are `unique`, a value.
  int finish_atomic(std::vector<stmt> &out, stmt s, std::int64_t hits, bool unique) {
    if (s.i[4] == 0)
      hits *= p.grid;
    for (std::int64_t t : trips)
      hits *= t;
    s.j[5] = hits;
    s.j[3] = p.values++; // the region's result
    types.push_back(vtype{s.to, s.type.shape});
    bounds.push_back({});
    if (!operands_ok(s) || !judgeable(s.to, region_bound(s)))
      return -1;
    ++atomics;
    if (unique)
      return add(out, s);
    out.push_back(std::move(s));
    return 0;
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
    trips.push_back(trips_of(s));
    statements(s.body, uniform(1, 5));
    trips.pop_back();
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
    if (chance(0.3)) { // tk::range_options: stages (-1: the kernel's), unroll factor, flatten
      s.a2 = 1;
      s.j[0] = uniform(0, 3) == 0 ? -1 : uniform(1, 4);
      s.j[1] = uniform(0, 4);
      s.j[2] = flattenable(s.body) && chance(0.5);
    }
    out.push_back(std::move(s));
    return 0;
  }

  /// Whether a loop of this body may be flattened: it holds exactly one loop, directly, and
  /// none inside its branches (the inner loops' bounds never depend on the outer loop).
  static bool flattenable(const std::vector<stmt> &body) {
    int direct = 0;
    for (const stmt &s : body) {
      direct += s.kind == op::loop;
      if (s.kind == op::branch && (holds_loop(s.body) || holds_loop(s.else_body)))
        return false;
    }
    return direct == 1;
  }

  static bool holds_loop(const std::vector<stmt> &body) {
    for (const stmt &s : body)
      if (s.kind == op::loop ||
          (s.kind == op::branch && (holds_loop(s.body) || holds_loop(s.else_body))))
        return true;
    return false;
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
      switch (uniform(0, 19)) {
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
        r = chance(0.6) ? shape_op(out) : data_movement(out);
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
      case 16:
      case 17:
        r = math(out);
        break;
      case 18:
        r = random_op(out);
        break;
      case 19:
        r = atomic(out);
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
        if (r.type.rank() > 1 && chance(0.3)) { // rows permuted by desc.scatter
          r.scatter = true;
          r.row_step = 2 * uniform(0, 3) + 1;
        }
      } else if (r.type.rank() > 0 && chance(0.25)) {
        r.masked_tail = uniform(1, int(std::min<std::int64_t>(r.type.numel(), 64)));
      }
      offset += r.bytes * p.grid;
      p.results.push_back(r);
    }
    regions(p.body, offset);
    p.out_bytes = offset;
  }

  /// Places the region of every atomic statement after the results, and adds it as a result.
  void regions(std::vector<stmt> &body, std::int64_t &offset) {
    for (stmt &s : body) {
      regions(s.body, offset);
      regions(s.else_body, offset);
      if (s.kind != op::atomic)
        continue;
      result r{};
      r.id = int(s.j[3]);
      r.atomic = true;
      const std::int64_t elements = s.i[1] * (s.i[4] ? p.grid : 1);
      r.type = {s.to, {elements}};
      r.b = region_bound(s);
      r.offset = offset;
      r.bytes = (elements * bytes_of(s.to) + 15) / 16 * 16;
      s.i[0] = offset;
      offset += r.bytes;
      p.results.push_back(r);
    }
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
  // Programmatic dependent launch: the wait first, launch_dependents anywhere after it; drawn
  // last, so that the rest of each seed's program stays what it was.
  if (g.chance(0.1)) {
    p.body.insert(p.body.begin(), stmt{op::gdc});
    stmt launch{op::gdc};
    launch.a0 = 1;
    const auto at = std::ptrdiff_t(g.uniform(1, int(p.body.size())));
    p.body.insert(p.body.begin() + at, launch);
  }
  p.launch_pdl = g.chance(0.2);
  return p;
}

} // namespace tk_random

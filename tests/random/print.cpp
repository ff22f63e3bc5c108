/// @file print.cpp
/// A random program as C++ (the reproducer's source), its inputs, and the comparison of two
/// outputs (program.hpp).
#include "program.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

namespace tk_random {
namespace {

std::string literal_of(ty t, double f) {
  std::ostringstream os;
  if (is_float(t)) {
    os << f;
    if (os.str().find_first_of(".e") == std::string::npos)
      os << ".0";
  } else {
    os << std::int64_t(f);
  }
  return os.str();
}

std::string shape_list(const shape_t &s) {
  std::string r = "{";
  for (std::size_t d = 0; d < s.size(); ++d)
    r += (d ? ", " : "") + std::to_string(s[d]);
  return r + "}";
}

std::string v(int id) { return "v" + std::to_string(id); }

std::string arange(std::int64_t n, int rank, int axis) {
  std::string a = "tk::arange(0, " + std::to_string(n) + ")";
  if (rank < 2)
    return a;
  return a + (axis == 0 ? "(tk::_, tk::newaxis)" : "(tk::newaxis, tk::_)");
}

std::string scaled(const std::string &index, std::int64_t stride) {
  return index + " * " + (stride < 0 ? std::string("s0") : std::to_string(stride));
}

/// A float literal as C++ (2 -> "2.0").
std::string real(double f) { return literal_of(ty::f64, f); }

std::string wrapped(const math_domain &d, const std::string &x) {
  switch (d.w) {
  case wrap::none:
    return x;
  case wrap::clamp:
    return "tk::clamp(" + x + ", " + real(d.lo) + ", " + real(d.hi) + ")";
  case wrap::abs_plus:
    return "tk::abs(" + x + ") + " + real(d.lo);
  case wrap::abs:
    return "tk::abs(" + x + ")";
  case wrap::abs_clamp:
    return "tk::clamp(tk::abs(" + x + "), " + real(d.lo) + ", " + real(d.hi) + ")";
  }
  return x;
}

std::string nan_mode(int a2) {
  return a2 == 0 ? "" : a2 == 1 ? ", tk::propagate_nan::none" : ", tk::propagate_nan::all";
}

std::string math_expr(const stmt &s) {
  const math_def &d = math_of(s.a0);
  auto operand = [&](int k) {
    return wrapped(s.a1 ? d.domain[k] : math_domain{}, v(s.args[std::size_t(k)]));
  };
  const std::string x = operand(0);
  const std::string name = std::string("tk::") + d.name;
  const bool is_real = is_float(s.type.t);
  switch (s.a0) {
  case m_pow:
    return name + "(" + x + ", " + (s.a2 == 1 ? real(s.f) : operand(1)) + ")";
  case m_fdiv:
    return name + "(" + x + ", " + operand(1) +
           (s.a2 == 0   ? ""
            : s.a2 == 1 ? ", false"
                        : ", true") +
           ")";
  case m_maximum:
  case m_minimum:
    return name + "(" + x + ", " + operand(1) + nan_mode(s.a2) + ")";
  case m_clamp:
    return name + "(" + x + ", " + (is_real ? real(s.f) : literal_of(ty::i32, s.f)) + ", " +
           (is_real ? real(s.g) : literal_of(ty::i32, s.g)) + nan_mode(s.a2) + ")";
  case m_finite:
    return "tk::where(tk::isnan(" + x + ") | tk::isinf(" + x + "), " + real(s.f) + ", " + x + ")";
  case m_softmax:
    if (s.i[1])
      return name + "(" + x + ", " + std::to_string(s.i[0]) + ", tk::keep_dims" +
             (s.i[2] ? ", true" : "") + ")";
    return name + "(" + x + (s.i[2] ? ", 0, false, true" : "") + ")";
  default:
    return name + "(" + x + (d.arity == 2 ? ", " + operand(1) : "") + ")";
  }
}

std::string random_expr(const stmt &s) {
  constexpr const char *names[] = {"rand", "randn", "randint", "randint4x"};
  const std::string seed = s.a2 == 0   ? "s0"
                           : s.a2 == 1 ? "s1"
                           : s.a2 == 2 ? "std::int64_t(" + std::to_string(s.i[0]) + ")"
                                       : v(s.args[1]);
  return std::string("tk::") + names[s.a0] + "(" + seed + ", " + v(s.args[0]) +
         (s.i[1] ? ", " + std::to_string(s.i[1]) : "") + ")" +
         (s.a0 == rnd_randint4x ? "[" + std::to_string(s.a1) + "]" : "");
}

/// The lane index k (row-major) of a block of `shape`.
std::string lane_index(const shape_t &shape) {
  if (shape.size() == 1)
    return arange(shape[0], 1, 0);
  return arange(shape[0], 2, 0) + " * " + std::to_string(shape[1]) + " + " + arange(shape[1], 2, 1);
}

struct printer {
  const program &p;
  std::ostringstream os;
  std::vector<int> ivs;

  void line(int depth, const std::string &text) {
    os << std::string(2 * depth + 4, ' ') << text << "\n";
  }

  std::string expr(const stmt &s) {
    const std::string a = s.args.empty() ? "" : v(s.args[0]);
    const std::string b = s.args.size() > 1 ? v(s.args[1]) : "";
    const ty t = s.type.t;
    switch (s.kind) {
    case op::full:
      return "tk::full<" + std::string(cpp_name(t)) + ">(" +
             (s.type.rank() ? shape_list(s.type.shape) + ", " : "") + cpp_name(t) + "(" +
             literal_of(t, s.f) + "))";
    case op::arange:
      return arange(s.type.shape[0], 1, 0);
    case op::pid:
      return "tk::program_id(0)";
    case op::param:
      return s.a0 == 0 ? "s0" : s.a0 == 1 ? "s1" : "k" + std::to_string(ivs.back());
    case op::unary:
      switch (s.a0) {
      case u_neg:
        return "-" + a;
      case u_abs:
        return "tk::abs(" + a + ")";
      case u_not:
        return "~" + a;
      case u_exp:
        return "tk::exp(tk::clamp(" + a + ", -4, 4))";
      case u_log:
        return "tk::log(tk::abs(" + a + ") + 1)";
      case u_sqrt:
        return "tk::sqrt(tk::abs(" + a + ") + 1)";
      case u_sin:
        return "tk::sin(" + a + ")";
      case u_cos:
        return "tk::cos(" + a + ")";
      case u_sigmoid:
        return "tk::sigmoid(" + a + ")";
      case u_floor:
        return "tk::floor(" + a + ")";
      default:
        return "tk::ceil(" + a + ")";
      }
    case op::binary: {
      const std::string mask = std::to_string(bits_of(t) - 1);
      switch (s.a0) {
      case b_add:
        return a + " + " + b;
      case b_sub:
        return a + " - " + b;
      case b_mul:
        return a + " * " + b;
      case b_div:
        return is_float(t) ? a + " / (tk::abs(" + b + ") + 1)" : a + " / ((" + b + " & 7) + 1)";
      case b_rem:
        return a + " % ((" + b + " & 7) + 1)";
      case b_max:
        return "tk::maximum(" + a + ", " + b + ")";
      case b_min:
        return "tk::minimum(" + a + ", " + b + ")";
      case b_and:
        return a + " & " + b;
      case b_or:
        return a + " | " + b;
      case b_xor:
        return a + " ^ " + b;
      case b_shl:
        return a + " << (" + b + " & " + mask + ")";
      default:
        return a + " >> (" + b + " & " + mask + ")";
      }
    }
    case op::literal: {
      const std::string lit = is_float(t) ? literal_of(ty::f64, s.f) : literal_of(ty::i32, s.f);
      const std::string x = s.a1 ? lit : a, y = s.a1 ? a : lit;
      constexpr const char *ops[] = {" + ", " - ", " * ", " / "};
      if (s.a0 <= b_div)
        return x + ops[s.a0] + y;
      return std::string(s.a0 == b_max ? "tk::maximum(" : "tk::minimum(") + x + ", " + y + ")";
    }
    case op::compare: {
      constexpr const char *ops[] = {" < ", " <= ", " > ", " >= ", " == ", " != "};
      return a + ops[s.a0] + b;
    }
    case op::where:
      return "tk::where(" + a + ", " + b + ", " + v(s.args[2]) + ")";
    case op::cast: {
      const std::string to = cpp_name(s.to);
      if (!s.a0)
        return "tk::cast<" + to + ">(" + a + ")";
      const bool narrow = bytes_of(s.to) == 1;
      const std::string lo = is_unsigned(s.to) ? "0.0" : narrow ? "-100.0" : "-10000.0";
      return "tk::cast<" + to + ">(tk::clamp(" + a + ", " + lo + ", " +
             (narrow ? "100.0" : "10000.0") + "))";
    }
    case op::expand:
      return "tk::expand_dims(" + a + ", " + std::to_string(s.a0) + ")";
    case op::broadcast:
      return "tk::broadcast_to(" + a + ", " + shape_list(s.to_shape) + ")";
    case op::reshape:
      return "tk::reshape(" + a + ", " + shape_list(s.to_shape) + ")";
    case op::trans:
      return "tk::trans(" + a + ")";
    case op::flip:
      return "tk::flip(" + a + ", " + std::to_string(s.a0) + ")";
    case op::unzip: {
      shape_t pairs = s.type.shape; // the halves' shape, then the pairs
      pairs.push_back(2);
      return "std::get<" + std::to_string(s.a0) + ">(tk::split(tk::reshape(" + a + ", " +
             shape_list(pairs) + ")))";
    }
    case op::sort:
      return "tk::sort(" + a + ", " + std::to_string(s.a0) + (s.a1 ? ", true" : "") + ")";
    case op::zip:
      return "tk::interleave(" + a + ", " + b + ")";
    case op::cat:
      return "tk::cat(" + a + ", " + b + ")";
    case op::gather: {
      const shape_t &shape = s.type.shape; // the operand's too
      const std::string n = std::to_string(shape[std::size_t(s.a0)]);
      std::string index = "(tk::arange(0, " + n + ") * " + std::to_string(s.a1) + " + " +
                          std::to_string(s.a2) + ") % " + n;
      if (shape.size() == 2)
        index = "tk::broadcast_to(tk::expand_dims(" + index + ", " + std::to_string(1 - s.a0) +
                "), " + shape_list(shape) + ")";
      return "tk::gather(" + a + ", " + index + ", " + std::to_string(s.a0) + ")";
    }
    case op::reduce: {
      constexpr const char *names[] = {"sum",       "max",    "min",    "xor_sum",
                                       "reduce_or", "reduce", "argmax", "argmin"};
      const std::string combine =
          s.a0 == r_custom ? ", [](auto l, auto r) { return tk::maximum(l, r); }" : "";
      return std::string("tk::") + names[s.a0] + "(" + a +
             (s.a1 < 0 ? "" : ", " + std::to_string(s.a1)) + combine +
             (s.a2 ? ", tk::keep_dims" : "") + ")";
    }
    case op::scan:
      return std::string(s.a0 == 0 ? "tk::cumsum(" : "tk::cumprod(") + a + ", " +
             std::to_string(s.a1) + ", " + (s.a2 ? "true" : "false") + ")";
    case op::math:
      return math_expr(s);
    case op::random:
      return random_expr(s);
    case op::dot: {
      if (s.i[2]) {
        constexpr const char *formats[] = {"e2m1", "e4m3", "e5m2", "bf16", "fp16"};
        const bool e4m3 = s.i[5] & 4;
        const std::string per_block = std::to_string(s.i[1] / (e4m3 ? 16 : 32));
        auto scale = [&](bool scaled, std::int64_t rows) -> std::string {
          if (!scaled)
            return "std::nullopt";
          const std::string pattern = "(tk::arange(0, " + std::to_string(rows) +
                                      ")(tk::_, tk::newaxis) * 3 + tk::arange(0, " + per_block +
                                      ")(tk::newaxis, tk::_)) % 5";
          if (e4m3)
            return "tk::cast<tk::f8e4m3>(tk::cast<float>(" + pattern + ") * 0.5f + 0.25f)";
          return "tk::cast<std::uint8_t>(" + pattern + " + 125)";
        };
        return "tk::dot_scaled(" + a + ", " + scale(s.i[5] & 1, s.i[0]) +
               ", tk::mx_format::" + formats[s.i[3]] + ", " + b + ", " +
               scale(s.i[5] & 2, s.type.shape[1]) + ", tk::mx_format::" + formats[s.i[4]] +
               (s.args.size() > 2 ? ", " + v(s.args[2]) : "") + ")";
      }
      constexpr const char *precisions[] = {"tf32", "ieee", "tf32x3"};
      const std::int64_t batch = s.a2, m = s.i[0], k = s.i[1], n = s.type.shape[1];
      // A batched product: its 2-D operands reshaped to 3-D, the result back to 2-D.
      auto in3 = [&](const std::string &x, std::int64_t rows, std::int64_t cols) {
        return batch > 1 ? "tk::reshape(" + x + ", " + shape_list({batch, rows, cols}) + ")" : x;
      };
      std::string options = std::string("tk::input_precision::") + precisions[s.a0];
      if (s.a1)
        options = "{.input_precision = " + options +
                  ", .max_num_imprecise_acc = " + std::to_string(s.a1) + "}";
      const bool out_f16 = s.args.size() == 2 && s.type.t == ty::f16;
      const std::string product = std::string(out_f16 ? "tk::dot<tk::half>(" : "tk::dot(") +
                                  in3(a, m, k) + ", " + in3(b, k, n) +
                                  (s.args.size() > 2 ? ", " + in3(v(s.args[2]), m, n) : "") + ", " +
                                  options + ")";
      return batch > 1 ? "tk::reshape(" + product + ", " + shape_list(s.type.shape) + ")" : product;
    }
    default:
      return "?";
    }
  }

  void load(int depth, const stmt &s) {
    const int rank = s.type.rank();
    const std::int64_t n0 = rank > 0 ? s.type.shape[0] : 1, n1 = rank > 1 ? s.type.shape[1] : 1;
    std::string offs = std::to_string(s.i[0]) + " + pid * " + std::to_string(s.i[1]);
    if (rank >= 1)
      offs += " + " + scaled(arange(n0, rank, 0), s.i[2]);
    if (rank == 2)
      offs += " + " + scaled(arange(n1, rank, 1), s.i[3]);
    const std::string o = "o" + std::to_string(s.id);
    line(depth, "auto " + o + " = " + offs + ";");
    std::string call = "tk::load(tk::bitcast<" + std::string(cpp_name(s.to)) + " *>(in" +
                       std::to_string(s.a0) + ") + " + o;
    const std::string other = literal_of(s.to, s.f);
    if (s.i[4] == 1)
      call += ", " + o + " < " + std::to_string(s.i[5]) + ", " + cpp_name(s.to) + "(" + other + ")";
    else if (s.i[4] == 2 && rank == 1)
      call += ", " + arange(n0, 1, 0) + " < " + std::to_string(s.i[5]) + ", " + cpp_name(s.to) +
              "(" + other + ")";
    else if (s.i[4] == 2)
      call += ", (" + arange(n0, 2, 0) + " < " + std::to_string(s.i[5]) + ") & (" +
              arange(n1, 2, 1) + " < " + std::to_string(s.a1) + "), " + cpp_name(s.to) + "(" +
              other + ")";
    line(depth, "auto " + v(s.id) + " = " + call + ");");
  }

  void desc_load(int depth, const stmt &s) {
    const std::string d = "d" + std::to_string(s.id);
    const std::string base = "tk::bitcast<" + std::string(cpp_name(s.to)) + " *>(in" +
                             std::to_string(s.a0) + ") + " + std::to_string(s.i[0]);
    const std::string col =
        (s.a1 ? "s0 + " : "") + std::string("std::int32_t(") + std::to_string(s.i[5]) + ")";
    const std::string pad = s.j[3] ? ", tk::padding::nan" : "";
    if (s.j[4]) { // through the host-made descriptor hd
      const bool same = is_float(s.to) && s.j[3];
      std::string load =
          s.a2 == 1 ? "hd.gather((tk::arange(0, " + std::to_string(s.type.shape[0]) + ") * " +
                          std::to_string(s.j[0]) + " + " + std::to_string(s.j[1]) + ") % " +
                          std::to_string(s.j[2]) + " - 2, " + col + ")"
                    : "hd.load({std::int32_t(" + std::to_string(s.i[4]) + "), " + col + "})";
      if (!same)
        load = "tk::bitcast<" + std::string(cpp_name(s.to)) + ">(" + load + ")";
      line(depth, "auto " + v(s.id) + " = " + load + ";");
      return;
    }
    if (s.type.rank() == 1) {
      line(depth, "auto " + d + " = tk::make_tensor_descriptor(" + base + ", {" +
                      std::to_string(s.i[2]) + "}, {1}, {" + std::to_string(s.type.shape[0]) + "}" +
                      pad + ");");
      line(depth, "auto " + v(s.id) + " = " + d + ".load({" + col + "});");
      return;
    }
    if (s.a2 == 1) {
      line(depth, "auto " + d + " = tk::make_tensor_descriptor(" + base + ", {" +
                      std::to_string(s.i[1]) + ", " + std::to_string(s.i[2]) + "}, {" +
                      std::to_string(s.i[3]) + ", 1}, {1, " + std::to_string(s.type.shape[1]) +
                      "}" + pad + ");");
      line(depth, "auto " + v(s.id) + " = " + d + ".gather((tk::arange(0, " +
                      std::to_string(s.type.shape[0]) + ") * " + std::to_string(s.j[0]) + " + " +
                      std::to_string(s.j[1]) + ") % " + std::to_string(s.j[2]) + " - 2, " + col +
                      ");");
      return;
    }
    line(depth, "auto " + d + " = tk::make_tensor_descriptor(" + base + ", {" +
                    std::to_string(s.i[1]) + ", " + std::to_string(s.i[2]) + "}, {" +
                    std::to_string(s.i[3]) + ", 1}, " + shape_list(s.type.shape) + pad + ");");
    line(depth, "auto " + v(s.id) + " = " + d + ".load({std::int32_t(" + std::to_string(s.i[4]) +
                    "), " + col + "});");
  }

  void atomic(int depth, const stmt &s) {
    const std::string tag = std::to_string(s.j[3]);
    const std::string q = "q" + tag, ptr = "p" + tag;
    const std::string t = s.j[4] ? "std::uint64_t" : cpp_name(s.to);
    const shape_t &shape = s.type.shape;
    std::size_t next = 0;
    auto as_value = [&](int id) {
      return s.j[4] ? "tk::bitcast<std::uint64_t>(" + v(id) + ")" : v(id);
    };
    std::string value;
    if (s.j[0])
      value = is_float(s.to) ? real(s.f) : literal_of(ty::i32, s.f);
    else
      value = as_value(s.args[next++]);
    constexpr const char *names[] = {"atomic_add", "atomic_max", "atomic_min",  "atomic_and",
                                     "atomic_or",  "atomic_xor", "atomic_xchg", "atomic_cas"};
    if (s.d[0]) {
      const std::string d = "d" + tag;
      std::string base = "tk::bitcast<" + t + " *>(out + " + std::to_string(s.i[0]) + ")";
      if (s.i[4])
        base += " + pid * " + std::to_string(s.i[4]);
      if (shape.size() == 1) {
        line(depth, "auto " + d + " = tk::make_tensor_descriptor(" + base + ", {" +
                        std::to_string(s.d[2]) + "}, {1}, " + shape_list(shape) + ");");
        line(depth, d + "." + names[s.a0] + "({std::int32_t(" + std::to_string(s.d[4]) + ")}, " +
                        value + ");");
      } else {
        line(depth, "auto " + d + " = tk::make_tensor_descriptor(" + base + ", {" +
                        std::to_string(s.d[1]) + ", " + std::to_string(s.d[2]) + "}, {" +
                        std::to_string(s.d[5]) + ", 1}, " + shape_list(shape) + ");");
        line(depth, d + "." + names[s.a0] + "({std::int32_t(" + std::to_string(s.d[3]) +
                        "), std::int32_t(" + std::to_string(s.d[4]) + ")}, " + value + ");");
      }
      return;
    }
    std::string mask;
    if (s.j[1] == 1)
      mask = v(s.args[next++]);
    else if (s.j[1] == 2)
      mask = q + " < " + std::to_string(s.j[2]);
    if (!shape.empty() && (s.i[5] == 0 || s.j[1] == 2))
      line(depth, "auto " + q + " = " + lane_index(shape) + ";");
    std::string index;
    if (s.i[5] == 1) {
      const int src = s.args[next++];
      index = "(tk::cast<std::int32_t>(" + v(src) + ") & " + std::to_string(s.i[1] - 1) + ")";
    } else if (shape.empty()) {
      index = std::to_string(s.i[3] % s.i[1]);
    } else {
      index = "(" + q + " * " + std::to_string(s.i[2]) + " + " + std::to_string(s.i[3]) + ") % " +
              std::to_string(s.i[1]);
    }
    if (s.i[4])
      index = "(" + index + " + pid * " + std::to_string(s.i[4]) + ")";
    else if (index.front() != '(')
      index = "(" + index + ")";
    line(depth, "auto " + ptr + " = tk::bitcast<" + t + " *>(out + " + std::to_string(s.i[0]) +
                    ") + " + index + ";");
    constexpr const char *sems[] = {"relaxed", "acquire", "release", "acq_rel"};
    constexpr const char *scopes[] = {"gpu", "cta", "sys"};
    std::string call = std::string("tk::") + names[s.a0] + "(" + ptr + ", ";
    if (s.a0 == at_cas) {
      const std::string loaded = "tk::load(" + ptr + ")";
      call += s.j[1] == 0
                  ? loaded
                  : "tk::where(" + mask + ", " + loaded + ", " + as_value(s.args.back()) + ")";
      call += ", " + value;
    } else {
      call += value + (mask.empty() ? "" : ", " + mask);
    }
    if (s.a1 < 4)
      call += std::string(", tk::sem::") + sems[s.a1];
    if (s.a2 < 3)
      call += std::string(", tk::scope::") + scopes[s.a2];
    call += ")";
    if (s.id < 0) {
      line(depth, call + ";");
      return;
    }
    if (s.j[4])
      call = "tk::bitcast<std::int64_t>(" + call + ")";
    line(depth, "auto " + v(s.id) + " = " + call + "; // old values");
  }

  void body(int depth, const std::vector<stmt> &stmts) {
    for (const stmt &s : stmts) {
      switch (s.kind) {
      case op::load:
        load(depth, s);
        break;
      case op::atomic:
        atomic(depth, s);
        break;
      case op::desc_load:
        desc_load(depth, s);
        break;
      case op::loop: {
        const int iv = s.a1;
        const std::string options = s.a2 ? "{.num_stages = " + std::to_string(s.j[0]) +
                                               ", .loop_unroll_factor = " + std::to_string(s.j[1]) +
                                               ", .flatten = " + (s.j[2] ? "true" : "false") + "}, "
                                         : "";
        line(depth, "tk::for_range(0, " +
                        (s.i[0] < 0 ? std::string("s1") : std::to_string(s.i[0])) + ", " + options +
                        "[&](tk::i32 k" + std::to_string(iv) + ") {");
        ivs.push_back(iv);
        body(depth + 1, s.body);
        ivs.pop_back();
        line(depth, "});");
        break;
      }
      case op::branch:
        line(depth, "tk::if_(" + v(s.args[0]) + ", [&] {");
        body(depth + 1, s.body);
        line(depth, "}, [&] {");
        body(depth + 1, s.else_body);
        line(depth, "});");
        break;
      case op::assign:
        line(depth, v(s.args[0]) + " = " + v(s.args[1]) + ";");
        break;
      case op::gdc:
        line(depth, s.a0 ? "tk::gdc_launch_dependents();" : "tk::gdc_wait();");
        break;
      default:
        line(depth, "auto " + v(s.id) + " = " + expr(s) + "; // " + short_name(s.type.t) + " " +
                        shape_list(s.type.shape) +
                        (is_float(s.type.t)
                             ? (s.b.exact ? " exact"
                                          : " within " + literal_of(ty::f64, s.b.err) +
                                                (s.b.rel > 0
                                                     ? " + " + literal_of(ty::f64, s.b.rel) + " |x|"
                                                     : ""))
                             : ""));
      }
    }
  }

  void store(const result &r) {
    if (r.atomic) // updated in place by its atomic statement
      return;
    const std::string t = cpp_name(r.type.t);
    const std::string value = r.from_i1 ? "tk::cast<std::int8_t>(" + v(r.id) + ")" : v(r.id);
    std::string ptr = "tk::bitcast<" + t + " *>(out + (" + std::to_string(r.offset) + " + pid * " +
                      std::to_string(r.bytes) + "))";
    const int rank = r.type.rank();
    if (rank == 0) {
      line(0, "tk::store(" + ptr + ", " + value + ");");
      return;
    }
    const std::int64_t n0 = r.type.shape[0], n1 = rank > 1 ? r.type.shape[1] : 1;
    if (r.desc) {
      const std::string d = "r" + std::to_string(r.id);
      if (rank == 1) {
        line(0, "auto " + d + " = tk::make_tensor_descriptor(" + ptr + ", {" +
                    std::to_string(r.cols) + "}, {1}, {" + std::to_string(n0) + "});");
        line(0, d + ".store({std::int32_t(" + std::to_string(r.start_col) + ")}, " + value + ");");
      } else if (r.scatter) {
        line(0, "auto " + d + " = tk::make_tensor_descriptor(" + ptr + ", {" +
                    std::to_string(r.rows) + ", " + std::to_string(r.cols) + "}, {" +
                    std::to_string(n1) + ", 1}, {1, " + std::to_string(n1) + "});");
        line(0, d + ".scatter(" + value + ", (tk::arange(0, " + std::to_string(n0) + ") * " +
                    std::to_string(r.row_step) + ") % " + std::to_string(n0) + " + " +
                    std::to_string(r.start_row) + ", std::int32_t(" + std::to_string(r.start_col) +
                    "));");
      } else {
        line(0, "auto " + d + " = tk::make_tensor_descriptor(" + ptr + ", {" +
                    std::to_string(r.rows) + ", " + std::to_string(r.cols) + "}, {" +
                    std::to_string(n1) + ", 1}, {" + std::to_string(n0) + ", " +
                    std::to_string(n1) + "});");
        line(0, d + ".store({std::int32_t(" + std::to_string(r.start_row) + "), std::int32_t(" +
                    std::to_string(r.start_col) + ")}, " + value + ");");
      }
      return;
    }
    const std::string index =
        rank == 1 ? arange(n0, 1, 0)
                  : arange(n0, 2, 0) + " * " + std::to_string(n1) + " + " + arange(n1, 2, 1);
    line(0, "auto i" + std::to_string(r.id) + " = " + index + ";");
    const std::string i = "i" + std::to_string(r.id);
    if (r.masked_tail > 0)
      line(0, "tk::store(" + ptr + " + " + i + ", " + value + ", " + i + " < " +
                  std::to_string(r.type.numel() - r.masked_tail) + ");");
    else
      line(0, "tk::store(" + ptr + " + " + i + ", " + value + ");");
  }
};

/// Reads element `k` of type `t` at `bytes` as a double (integers exactly up to 2^53) and its
/// raw bits.
double element(const std::uint8_t *bytes, ty t, std::uint64_t &bits) {
  bits = 0;
  std::memcpy(&bits, bytes, std::size_t(bytes_of(t)));
  switch (t) {
  case ty::i1:
  case ty::u8:
    return double(std::uint8_t(bits));
  case ty::i8:
    return double(std::int8_t(bits));
  case ty::i16:
    return double(std::int16_t(bits));
  case ty::i32:
    return double(std::int32_t(bits));
  case ty::i64:
    return double(std::int64_t(bits));
  case ty::u32:
    return double(std::uint32_t(bits));
  case ty::f16: {
    tk::half h;
    std::memcpy(&h, bytes, 2);
    return double(float(h));
  }
  case ty::bf16: {
    tk::bfloat16 h;
    std::memcpy(&h, bytes, 2);
    return double(float(h));
  }
  case ty::f32: {
    float f;
    std::memcpy(&f, bytes, 4);
    return double(f);
  }
  case ty::f64: {
    double d;
    std::memcpy(&d, bytes, 8);
    return d;
  }
  case ty::f8e4m3: {
    tk::f8e4m3 x;
    std::memcpy(&x, bytes, 1);
    return double(x);
  }
  case ty::f8e5m2: {
    tk::f8e5m2 x;
    std::memcpy(&x, bytes, 1);
    return double(x);
  }
  case ty::f8e4b8: {
    tk::f8e4b8 x;
    std::memcpy(&x, bytes, 1);
    return double(x);
  }
  case ty::f8e5b16: {
    tk::f8e5b16 x;
    std::memcpy(&x, bytes, 1);
    return double(x);
  }
  }
  return 0;
}

void put(std::uint8_t *bytes, ty t, double value) {
  switch (t) {
  case ty::f16: {
    const tk::half h(value);
    std::memcpy(bytes, &h, 2);
    return;
  }
  case ty::bf16: {
    const tk::bfloat16 h(value);
    std::memcpy(bytes, &h, 2);
    return;
  }
  case ty::f32: {
    const float f = float(value);
    std::memcpy(bytes, &f, 4);
    return;
  }
  case ty::f64:
    std::memcpy(bytes, &value, 8);
    return;
  case ty::f8e4m3: {
    const tk::f8e4m3 x(value);
    std::memcpy(bytes, &x, 1);
    return;
  }
  case ty::f8e5m2: {
    const tk::f8e5m2 x(value);
    std::memcpy(bytes, &x, 1);
    return;
  }
  case ty::f8e4b8: {
    const tk::f8e4b8 x(value);
    std::memcpy(bytes, &x, 1);
    return;
  }
  case ty::f8e5b16: {
    const tk::f8e5b16 x(value);
    std::memcpy(bytes, &x, 1);
    return;
  }
  default: {
    const std::int64_t i = std::int64_t(value);
    std::memcpy(bytes, &i, std::size_t(bytes_of(t))); // little-endian: the low bytes
  }
  }
}

} // namespace

std::string print_cpp(const program &p) {
  printer pr{p, {}, {}};
  pr.os << "// random kernel, seed " << p.seed << ": grid " << p.grid << ", num_warps "
        << p.num_warps << (p.launch_pdl ? ", launch_pdl" : "") << ", s0 = " << p.s0
        << ", s1 = " << p.s1 << ", in0 as " << short_name(p.input[0]) << ", in1 as "
        << short_name(p.input[1]) << ", " << p.input_bytes << " bytes each; out " << p.out_bytes
        << " bytes\n";
  const host_descriptor &h = p.host;
  const std::string elem = with_host_elem(h.elem, []<class E>(std::type_identity<E>) {
    return std::string(std::is_same_v<E, tk::half>       ? "tk::half"
                       : std::is_same_v<E, tk::bfloat16> ? "tk::bfloat16"
                       : std::is_same_v<E, float>        ? "float"
                       : std::is_same_v<E, double>
                           ? "double"
                           : "std::uint" + std::to_string(8 * sizeof(E)) + "_t");
  });
  pr.os << "// hd: tk::host_tensor_descriptor((const " << elem << " *)(in" << h.which << " + "
        << h.offset << "), {" << h.rows << ", " << h.cols << "}, {" << h.stride << ", 1}, {"
        << h.block0 << ", " << h.block1 << "}" << (h.nan ? ", tk::padding::nan" : "") << ")\n";
  pr.os << "auto random_" << p.seed << " = tk::jit(\"random_" << p.seed
        << "\", [](tk::ptr<std::uint8_t> in0, tk::ptr<std::uint8_t> in1,\n"
        << "                                   tk::ptr<std::uint8_t> out, tk::i32 s0, tk::i32 s1,\n"
        << "                                   tk::tensor_descriptor<const " << elem
        << ", 2> hd) {\n";
  pr.line(0, "auto pid = tk::program_id(0);");
  pr.body(0, p.body);
  for (const result &r : p.results)
    pr.store(r);
  pr.os << "});\n";
  return pr.os.str();
}

std::vector<std::uint8_t> make_input(const program &p, int which) {
  std::mt19937_64 rng(p.seed * 31 + std::uint64_t(which) + 7);
  const ty t = p.input[which];
  std::vector<std::uint8_t> bytes(std::size_t(p.input_bytes));
  const std::int64_t n = p.input_bytes / bytes_of(t);
  for (std::int64_t k = 0; k < n; ++k) {
    double value;
    if (is_float(t))
      value = double(std::int64_t(rng() % 65) - 32) / 8; // [-4, 4] in steps of 1/8: exact
    else if (is_unsigned(t))
      value = double(rng() % 17);
    else
      value = double(std::int64_t(rng() % 17) - 8);
    put(bytes.data() + k * bytes_of(t), t, value);
  }
  return bytes;
}

std::vector<std::uint8_t> make_output(const program &p) {
  std::vector<std::uint8_t> out(std::size_t(p.out_bytes), kOutFill);
  for (const result &r : p.results) {
    if (!r.atomic)
      continue;
    std::mt19937_64 rng(p.seed * 131 + std::uint64_t(r.offset) + 3);
    const ty t = r.type.t;
    for (std::int64_t k = 0; k < r.type.numel(); ++k) {
      double value;
      if (is_float(t))
        value = double(std::int64_t(rng() % 65) - 32) / 8; // [-4, 4], kAtomicInitFloat
      else if (is_unsigned(t))
        value = double(rng() % 17);
      else
        value = double(std::int64_t(rng() % 17) - 8);
      put(out.data() + r.offset + k * bytes_of(t), t, value);
    }
  }
  return out;
}

std::string compare(const program &p, const std::vector<std::uint8_t> &expected,
                    const std::vector<std::uint8_t> &actual) {
  if (expected.size() != actual.size())
    return "output sizes differ";
  std::ostringstream os;
  int shown = 0;
  for (const result &r : p.results) {
    const ty t = r.type.t;
    const std::int64_t n = r.type.numel();
    for (int g = 0; g < (r.atomic ? 1 : p.grid); ++g) {
      for (std::int64_t k = 0; k < n; ++k) {
        const std::size_t at = std::size_t(r.offset + g * r.bytes + k * bytes_of(t));
        std::uint64_t eb = 0, ab = 0;
        const double e = element(expected.data() + at, t, eb);
        const double a = element(actual.data() + at, t, ab);
        bool ok;
        const bool stored = r.stored(k);
        if (!stored || !is_float(t))
          ok = eb == ab;
        else if (std::isnan(e) || std::isnan(a))
          ok = std::isnan(e) && std::isnan(a);
        else if (r.b.exact || std::isinf(e) || std::isinf(a))
          ok = e == a; // +0 and -0 alike
        else
          ok = std::abs(e - a) <= 2 * (r.b.err + r.b.rel * std::abs(e)) + 1e-30;
        if (!ok && shown++ < 8) {
          os << (r.atomic ? "the atomics' region at p" : "v") << r.id << " (" << short_name(t)
             << " " << shape_list(r.type.shape);
          if (!r.atomic)
            os << ", program " << g;
          os << ") element " << k << ": interpreter " << e << ", GPU " << a;
          if (is_float(t) && !r.b.exact)
            os << " (bound " << r.b.err << (r.b.rel > 0 ? " + " : "")
               << (r.b.rel > 0 ? std::to_string(r.b.rel) + " |x|" : "") << ")";
          if (!stored)
            os << " (not stored)";
          os << "\n";
        }
      }
    }
  }
  if (shown > 8)
    os << "... " << shown - 8 << " more\n";
  return os.str();
}

} // namespace tk_random

/// @file printer.ipp
/// The bodies of the functions printer.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/ir/printer.hpp>

namespace tk::detail {

TK_DECL std::string mlir_element(dtype d) {
  switch (d) {
  case dtype::i1:
    return "i1";
  case dtype::i8:
  case dtype::u8:
    return "i8";
  case dtype::i16:
  case dtype::u16:
    return "i16";
  case dtype::i32:
  case dtype::u32:
    return "i32";
  case dtype::i64:
  case dtype::u64:
    return "i64";
  case dtype::f8e4m3:
    return "f8E4M3FN";
  case dtype::f8e5m2:
    return "f8E5M2";
  case dtype::f8e4b8:
    return "f8E4M3FNUZ";
  case dtype::f8e5b16:
    return "f8E5M2FNUZ";
  case dtype::f16:
    return "f16";
  case dtype::bf16:
    return "bf16";
  case dtype::f32:
    return "f32";
  case dtype::f64:
    return "f64";
  default:
    return "?";
  }
}

TK_DECL std::string mlir_type(const value &v) {
  if (v.kind != value_kind::block) {
    std::string s =
        v.kind == value_kind::tensor_descriptor ? "!tk.tensordesc<tensor<" : "!tk.blockptr<tensor<";
    for (auto d : v.shape)
      s += std::to_string(d) + "x";
    return s + mlir_element(v.type.pointee) + ">>";
  }
  if (v.shape.empty())
    return mlir_element(v.type);
  std::string s = "tensor<";
  for (auto d : v.shape)
    s += std::to_string(d) + "x";
  return s + mlir_element(v.type) + ">";
}

TK_DECL std::string mlir_float(double x, dtype d) {
  if (!std::isfinite(x)) {
    unsigned char bytes[8] = {};
    store_element(bytes, d, x, 0);
    std::uint64_t bits = 0;
    std::memcpy(&bits, bytes, std::size_t(bit_width(d) / 8));
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%0*llX", bit_width(d) / 4, (unsigned long long)bits);
    return buf;
  }
  char buf[64];
  // f32: the shortest text that reads back as the same float (`0.1`, not `0.10000000149011612`).
  auto end = d == dtype::f32 ? std::to_chars(buf, buf + sizeof buf, float(x)).ptr
                             : std::to_chars(buf, buf + sizeof buf, x).ptr;
  std::string s(buf, end);
  const auto e = s.find('e');
  if (s.find('.') == std::string::npos)
    s.insert(e == std::string::npos ? s.size() : e, ".0");
  return s;
}

TK_DECL std::string mlir_int(std::int64_t x, dtype d) {
  if (d == dtype::i1)
    return x ? "true" : "false";
  // Signless in IR: print unsigned values by their two's-complement bit pattern.
  const int w = bit_width(d);
  if (w < 64 && is_unsigned(d) && (x >> (w - 1)) & 1)
    x -= std::int64_t(1) << w;
  return std::to_string(x);
}

TK_DECL std::string mlir_string(std::string_view s) {
  // MLIR's escapes: \" and \\, and \XX (two hex digits) for bytes outside printable ASCII.
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      out += '\\';
      out += digits[u >> 4];
      out += digits[u & 15];
    }
  }
  return out + "\"";
}

TK_DECL const std::string *value_names::find(const value *v) const {
  if (slots_.empty())
    return nullptr;
  for (std::size_t k = hash(v);; k = (k + 1) & (slots_.size() - 1)) {
    const slot &s = slots_[k];
    if (s.key == v)
      return &s.name;
    if (!s.key)
      return nullptr;
  }
}

TK_DECL void value_names::define(const value *v, std::string name) {
  if (2 * (size_ + 1) > slots_.size())
    grow();
  for (std::size_t k = hash(v);; k = (k + 1) & (slots_.size() - 1)) {
    slot &s = slots_[k];
    if (!s.key || s.key == v) {
      size_ += !s.key;
      s.key = v;
      s.name = std::move(name);
      return;
    }
  }
}

TK_DECL std::size_t value_names::hash(const value *v) const {
  // Fibonacci hashing of the address (its low bits are alignment, always the same).
  const auto bits = std::uint64_t(reinterpret_cast<std::uintptr_t>(v)) * 0x9E3779B97F4A7C15u;
  return std::size_t(bits >> 32) & (slots_.size() - 1);
}

TK_DECL void value_names::grow() {
  std::vector<slot> old(slots_.empty() ? 64 : 2 * slots_.size());
  old.swap(slots_);
  size_ = 0;
  for (slot &s : old)
    if (s.key)
      define(s.key, std::move(s.name));
}

TK_DECL std::string printer::print(const function &fn) {
  out_ = "module {\n  func.func @" + fn.name + "(";
  for (std::size_t k = 0; k < fn.args.size(); ++k) {
    const std::string n = "%arg" + std::to_string(k);
    names_.define(fn.args[k].get(), n);
    out_ += (k ? ", " : "") + n + ": " + mlir_type(*fn.args[k]);
    if (k < fn.arg_attrs.size() && !fn.arg_attrs[k].empty())
      out_ += " {" + fn.arg_attrs[k] + "}";
  }
  out_ += ") {\n";
  for (auto &o : fn.body.ops)
    print_op(*o, 4);
  out_ += "  } " + mlir_loc(fn.loc) + "\n}\n";
  return out_;
}

TK_DECL const std::string &printer::name(const value_ref &v) {
  const std::string *n = names_.find(v.get());
  if (!n)
    internal_error("value used before it is defined");
  return *n;
}

TK_DECL void printer::define_results(const op &o) {
  if (o.results.empty())
    return;
  const std::string base = "%" + std::to_string(next_++);
  if (o.results.size() == 1) {
    names_.define(o.results[0].get(), base);
    out_ += base + " = ";
    return;
  }
  for (std::size_t k = 0; k < o.results.size(); ++k)
    names_.define(o.results[k].get(), base + "#" + std::to_string(k));
  out_ += base + ":" + std::to_string(o.results.size()) + " = ";
}

TK_DECL void printer::define_args(const region &r) {
  for (auto &a : r.args)
    names_.define(a.get(), "%" + std::to_string(next_++));
}

TK_DECL std::string printer::list(const std::vector<value_ref> &vs, std::size_t from) {
  std::string s;
  for (std::size_t k = from; k < vs.size(); ++k)
    s += (k > from ? ", " : "") + name(vs[k]);
  return s;
}

TK_DECL std::string printer::types(const std::vector<value_ref> &vs, std::size_t from) {
  std::string s;
  for (std::size_t k = from; k < vs.size(); ++k)
    s += (k > from ? ", " : "") + mlir_type(*vs[k]);
  return s;
}

TK_DECL void printer::print_block(const region &r, int ind, bool with_header) {
  if (with_header) {
    out_ += indent(ind - 2) + "^bb0(";
    for (std::size_t k = 0; k < r.args.size(); ++k)
      out_ += (k ? ", " : "") + name(r.args[k]) + ": " + mlir_type(*r.args[k]);
    out_ += "):\n";
  }
  for (auto &o : r.ops)
    print_op(*o, ind);
}

TK_DECL void printer::print_op(const op &o, int ind) {
  out_ += indent(ind);
  const std::string loc = " " + mlir_loc(o.loc) + "\n";
  switch (o.form) {
  case syntax::generic: {
    define_results(o);
    out_ += mlir_string(o.name) + "(" + list(o.operands) + ")";
    if (!o.attrs.empty())
      out_ += " <{" + o.attrs + "}>";
    if (!o.regions.empty()) {
      out_ += " (";
      for (std::size_t k = 0; k < o.regions.size(); ++k) {
        define_args(o.regions[k]);
        out_ += std::string(k ? ", " : "") + "{\n";
        print_block(o.regions[k], ind + 4, !o.regions[k].args.empty());
        out_ += indent(ind) + "}";
      }
      out_ += ")";
    }
    out_ += " : (" + types(o.operands) + ") -> ";
    out_ += o.results.size() == 1 ? mlir_type(*o.results[0]) : "(" + types(o.results) + ")";
    break;
  }
  case syntax::arith: // fast-math flags, if any, between the operands and the type
    define_results(o);
    out_ += o.name + " " + list(o.operands) + (o.attrs.empty() ? "" : " " + o.attrs) + " : " +
            mlir_type(*o.results[0]);
    break;
  case syntax::compare:
    define_results(o);
    out_ += o.name + " " + o.attrs + ", " + list(o.operands) + " : " + mlir_type(*o.operands[0]);
    break;
  case syntax::convert:
    define_results(o);
    out_ += o.name + " " + name(o.operands[0]) + (o.attrs.empty() ? "" : " " + o.attrs) + " : " +
            mlir_type(*o.operands[0]) + " to " + mlir_type(*o.results[0]);
    break;
  case syntax::select:
    define_results(o);
    out_ += o.name + " " + list(o.operands) + " : " + mlir_type(*o.operands[0]) + ", " +
            mlir_type(*o.results[0]);
    break;
  case syntax::constant: {
    define_results(o);
    const value &r = *o.results[0];
    const std::string lit =
        r.type.is_float() ? mlir_float(o.number, r.type.code) : mlir_int(o.integer, r.type.code);
    // A scalar i1 is a BoolAttr, which takes no type: `arith.constant true`.
    const bool bare = r.shape.empty() && r.type.code == dtype::i1;
    out_ += o.name + " " + (r.shape.empty() ? lit : "dense<" + lit + ">") +
            (bare ? "" : " : " + mlir_type(r));
    break;
  }
  case syntax::scf_for: {
    // operands: lower, upper, step, inits...; region args: iv, iter args...
    define_results(o);
    const region &body = o.regions[0];
    define_args(body);
    out_ += "scf.for " + name(body.args[0]) + " = " + name(o.operands[0]) + " to " +
            name(o.operands[1]) + " step " + name(o.operands[2]);
    if (o.operands.size() > 3) {
      out_ += " iter_args(";
      for (std::size_t k = 3; k < o.operands.size(); ++k)
        out_ += (k > 3 ? ", " : "") + name(body.args[k - 2]) + " = " + name(o.operands[k]);
      out_ += ") -> (" + types(o.results) + ")";
    }
    out_ += " : " + mlir_type(*o.operands[0]) + " {\n";
    print_block(body, ind + 2, false);
    out_ += indent(ind) + "}";
    if (!o.attrs.empty()) // tk::range_options
      out_ += " {" + o.attrs + "}";
    break;
  }
  case syntax::scf_if: {
    define_results(o);
    out_ += "scf.if " + name(o.operands[0]);
    if (!o.results.empty())
      out_ += " -> (" + types(o.results) + ")";
    out_ += " {\n";
    print_block(o.regions[0], ind + 2, false);
    out_ += indent(ind) + "} else {\n";
    print_block(o.regions[1], ind + 2, false);
    out_ += indent(ind) + "}";
    break;
  }
  case syntax::scf_while: {
    define_results(o);
    const region &before = o.regions[0], &after = o.regions[1];
    define_args(before);
    out_ += "scf.while (";
    for (std::size_t k = 0; k < o.operands.size(); ++k)
      out_ += (k ? ", " : "") + name(before.args[k]) + " = " + name(o.operands[k]);
    out_ += ") : (" + types(o.operands) + ") -> (" + types(o.results) + ") {\n";
    print_block(before, ind + 2, false);
    define_args(after);
    out_ += indent(ind) + "} do {\n";
    print_block(after, ind + 2, true);
    out_ += indent(ind) + "}";
    break;
  }
  case syntax::terminator:
    if (o.name == "scf.condition")
      out_ +=
          "scf.condition(" + name(o.operands[0]) + ")" +
          (o.operands.size() > 1 ? " " + list(o.operands, 1) + " : " + types(o.operands, 1) : "");
    else
      out_ +=
          o.name + (o.operands.empty() ? "" : " " + list(o.operands) + " : " + types(o.operands));
    break;
  }
  out_ += loc;
}

} // namespace tk::detail

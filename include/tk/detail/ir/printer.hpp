/// @file printer.hpp
/// Prints a traced kernel as MLIR text: `func.func` holding `tk` ops (generic syntax), and
/// `arith`, `math` and `scf` ops in their usual syntax, every op with the user's source location.
/// Values are numbered in definition order, so the same kernel always prints the same bytes.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/interp/elements.hpp>
#include <tk/detail/trace/graph.hpp>
#include <tk/error.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace tk::detail {

TK_DECL std::string mlir_element(dtype d);

inline std::string mlir_element(const elem_type &t) {
  return t.is_pointer() ? "!tk.ptr<" + mlir_element(t.pointee) + ">" : mlir_element(t.code);
}

TK_DECL std::string mlir_type(const value &v);

/// A float literal MLIR parses back to the same value: shortest round-trip decimal, or the bit
/// pattern in hex for infinities and NaNs.
TK_DECL std::string mlir_float(double x, dtype d);

TK_DECL std::string mlir_int(std::int64_t x, dtype d);

TK_DECL std::string mlir_string(std::string_view s);

inline std::string mlir_loc(const std::source_location &loc) {
  return "loc(" + mlir_string(loc.file_name()) + ":" + std::to_string(loc.line()) + ":" +
         std::to_string(loc.column()) + ")";
}

/// The printed names of values, by address: an open-addressing hash table that only grows (a
/// printer lives for one function).
class value_names {
public:
  /// The name of `v`, or null before it is defined.
  const std::string *find(const value *v) const;

  void define(const value *v, std::string name);

private:
  struct slot {
    const value *key = nullptr;
    std::string name;
  };
  std::vector<slot> slots_;
  std::size_t size_ = 0;

  std::size_t hash(const value *v) const;

  void grow();
};

class printer {
public:
  std::string print(const function &fn);

private:
  std::string out_;
  value_names names_;
  int next_ = 0;

  const std::string &name(const value_ref &v);

  void define_results(const op &o);

  void define_args(const region &r);

  std::string list(const std::vector<value_ref> &vs, std::size_t from = 0);

  static std::string types(const std::vector<value_ref> &vs, std::size_t from = 0);

  static std::string indent(int n) { return std::string(std::size_t(n), ' '); }

  void print_block(const region &r, int ind, bool with_header);

  void print_op(const op &o, int ind);
};

inline std::string print(const function &fn) { return printer{}.print(fn); }

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/ir/printer.ipp>
#endif

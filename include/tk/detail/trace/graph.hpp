/// @file graph.hpp
/// The captured kernel: operations in nested regions, as MLIR will see them. Each op already knows
/// how it prints (its MLIR name and syntax family), so the printer is a plain walk.
#pragma once

#include <tk/detail/trace/value.hpp>

#include <source_location>
#include <string>
#include <vector>

namespace tk::detail {

/// The syntax family an op prints with.
enum class syntax {
  generic,   ///< `"tk.load"(%a, %b) <{props}> : (T, U) -> V` — every `tk` op
  arith,     ///< `arith.addf %a, %b : T`, unary `math.exp %a : T`, `math.sqrt %a fastmath<afn> : T`
  compare,   ///< `arith.cmpf olt, %a, %b : T`
  convert,   ///< `arith.extf %a : T to U`
  select,    ///< `arith.select %c, %a, %b : C, T`
  constant,  ///< `arith.constant 1.0 : f32`, `arith.constant dense<0> : tensor<4xi32>`
  scf_for,   ///< `scf.for %iv = %lb to %ub step %s iter_args(...) -> (...) : i32 { ... }`
  scf_if,    ///< `scf.if %c -> (...) { ... } else { ... }`
  scf_while, ///< `scf.while (%a = %x) : (T) -> (T) { ... } do { ... }`
  terminator ///< `scf.yield %a : T`, `scf.condition(%c) %a : T`, `tk.reduce.return ...`, `return`
};

struct op;

struct region {
  std::vector<value_ref> args;
  std::vector<owned<op>> ops;
};

struct op {
  std::string name;
  syntax form = syntax::generic;
  std::vector<value_ref> operands;
  std::vector<value_ref> results;
  std::string attrs; ///< properties (generic), predicate (compare), rounding (convert) or
                     ///< fast-math flags (arith)
  std::vector<region> regions;
  std::source_location loc;
  double number = 0;        ///< a float constant's value
  std::int64_t integer = 0; ///< an integer constant's value
};

/// A traced kernel: the function's arguments and its body.
struct function {
  std::string name;
  std::vector<value_ref> args;
  std::vector<std::string> arg_attrs; ///< printed after each argument's type, may be empty
  region body;
  std::source_location loc;
};

} // namespace tk::detail

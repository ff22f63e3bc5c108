/// @file value.hpp
/// The run-time representation behind every block handle. A `value` is either a symbolic SSA value
/// of the kernel being traced or, in the interpreter, the concrete elements of one program
/// instance. Concrete data is kept wide (`double` for floats, `int64_t` for integers and
/// addresses), already rounded to the block's dtype, so a debugger shows it as plain numbers.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/trace/ownership.hpp>
#include <tk/dtype.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tk::detail {

/// Element type at run time: a dtype, plus what a pointer points to.
struct elem_type {
  dtype code = dtype::i32;
  dtype pointee = dtype::i32; ///< meaningful when `code == dtype::ptr`

  friend bool operator==(const elem_type &, const elem_type &) = default;
  bool is_pointer() const { return code == dtype::ptr; }
  bool is_float() const { return tk::is_float(code); }
  bool is_int() const { return tk::is_int(code); }
  int bytes() const { return code == dtype::ptr ? 8 : (bit_width(code) + 7) / 8; }
};

template <element T> constexpr elem_type elem_of() {
  if constexpr (std::is_pointer_v<T>)
    return {dtype::ptr, dtype_of<std::remove_cv_t<std::remove_pointer_t<T>>>};
  else
    return {dtype_of<T>, dtype::i32};
}

using shape_t = std::vector<std::int64_t>;

struct kernel_origin;

TK_DECL std::int64_t numel(const shape_t &shape);

TK_DECL std::string to_string(const shape_t &shape);

TK_DECL std::string to_string(const elem_type &t);

enum class value_kind : std::uint8_t { block, tensor_descriptor, block_pointer };

struct value : refcounted {
  elem_type type;
  shape_t shape;               ///< empty for a scalar
  std::vector<double> f;       ///< interpreter: floating-point elements, row-major
  std::vector<std::int64_t> i; ///< interpreter: integer, boolean and pointer elements
  /// The trace or program instance that made the value (`context::generation`) and its kernel:
  /// a value is valid only there.
  std::uint64_t generation = 0;
  const kernel_origin *origin = nullptr;
  /// Interpreter, pointers: the launch argument whose buffer the addresses point into, as an
  /// index into `context::extents`, or -1 when unknown.
  int extent = -1;
  /// What the value is: a block of elements, or a tensor descriptor (`tk::tensor_descriptor`) or
  /// a block pointer (`tk::block_ptr`), whose `type` is their base pointer's and `shape` their
  /// block shape. Interpreter: `i` holds the base, the sizes and the strides, then a block
  /// pointer's offsets.
  value_kind kind = value_kind::block;

  value(elem_type t, shape_t s) : type(t), shape(std::move(s)) {}
  int rank() const { return int(shape.size()); }
  std::int64_t size() const { return numel(shape); }
  bool concrete() const { return !f.empty() || !i.empty(); }
};

using value_ref = counted<value>;

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/trace/value.ipp>
#endif

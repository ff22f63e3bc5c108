/// @file descriptor.hpp
/// Tensor descriptors, Triton's `tl.make_tensor_descriptor`: a tensor in global memory (base,
/// shape, strides) read and written a block at a time, `desc.load({i, j})` and
/// `desc.store({i, j}, x)`, and combined into atomically, `desc.atomic_add({i, j}, x)`. Blocks
/// may reach past the tensor's edges: those elements read as zero (or NaN, `tk::padding::nan`)
/// and are neither written nor combined into, so no masks are needed.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/atomic.hpp>
#include <tk/block.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace tk {

/// What a load reads outside the tensor (Triton's `padding_option`): zero, or NaN (floats only).
/// A tensor descriptor's (tk::make_tensor_descriptor), or a block-pointer load's along its
/// boundary-checked dimensions (tk::load).
enum class padding { zero, nan };

/// A scalar index or size for the descriptor API: a C++ integer, a `tk::constant` of one, or a
/// scalar integer block (`tk::i32`, ...).
class index {
public:
  template <class X>
    requires(detail::rank_of<X> == 0 && std::is_integral_v<detail::element_of<X>> &&
             !std::is_same_v<detail::element_of<X>, bool>)
  index(const X &x, std::source_location loc = std::source_location::current()) // NOLINT
      : term_(detail::to_operand(x, loc)), loc_(loc) {}

  /// The index as a scalar of type `t` (a run-time value, or a constant for a literal).
  detail::value_ref as(detail::elem_type t) const {
    return detail::materialize(term_, t, {}, loc_);
  }

  /// The index's value where it must be known when the kernel is traced (a block dimension).
  std::int64_t constant(const char *what) const;

  /// Whether the index is `value`, known when the kernel is traced (a literal or a
  /// `tk::constant`; a scalar block never is, whatever it holds).
  bool is_constant(std::int64_t value) const { return !term_.v && term_.i == value; }

  /// How errors show the index: its value, or "a run-time value".
  std::string describe() const;

private:
  detail::term term_;
  std::source_location loc_;
};

namespace detail {

/// The block shape of a descriptor or block pointer (made by `what`): the block rules, and
/// powers of two.
TK_DECL void check_access_block(const shape_t &block, const char *what, loc_t loc);

/// A descriptor's last stride must be the constant 1, as in Triton: checked while the kernel is
/// traced and when it is interpreted alike, since the compiled kernel reads the last dimension
/// as contiguous whatever the stride.
TK_DECL void check_last_stride(const tk::index &stride, loc_t loc);

/// A descriptor's run-time value: interpreter, `i` = {base, shape..., strides...} and the base's
/// buffer; tracing, the `!tk.tensordesc` SSA value. Its shape is the block shape.
TK_DECL value_ref make_tensor_descriptor(const value_ref &base, const std::vector<value_ref> &shape,
                                         const std::vector<value_ref> &strides, shape_t block,
                                         padding pad, loc_t loc);

/// The element index in the tensor of block element `k` of a block at `start` (or -1: outside).
TK_DECL std::int64_t descriptor_element(const value &desc, const std::vector<std::int64_t> &start,
                                        std::int64_t k);

/// The scalar address of element `offset` of the tensor `desc`, as a pointer value (for the
/// buffer checks).
TK_DECL value_ref descriptor_pointer(const value &desc, std::int64_t offset);

/// The block at `start`; elements outside the tensor read as `pad`.
TK_DECL value_ref descriptor_load(const value_ref &desc, const std::vector<value_ref> &start,
                                  padding pad, loc_t loc);

TK_DECL void descriptor_store(const value_ref &desc, const std::vector<value_ref> &start,
                              const value_ref &x, loc_t loc);

/// One atomic read-modify-write (`kind`, relaxed, GPU scope) per element of the block at
/// `start` inside the tensor, combining it with `x`'s element (the descriptor's block shape and
/// element type); elements outside the tensor are skipped.
TK_DECL void descriptor_reduce(atomic_kind kind, const value_ref &desc,
                               const std::vector<value_ref> &start, const value_ref &x,
                               const char *what, loc_t loc);

/// A gather's or scatter's rows: the descriptor's block must be one row, [1, BN] (`what` names
/// the operation).
TK_DECL void check_row_block(const shape_t &block, const char *what, loc_t loc);

/// The [N, BN] block of the rows `rows` (N i32 indices) from column `col`; elements outside the
/// tensor read as `pad`.
TK_DECL value_ref descriptor_gather(const value_ref &desc, const value_ref &rows,
                                    const value_ref &col, padding pad, loc_t loc);

/// Writes `x` ([N, BN]) to the rows `rows` from column `col`, skipping elements outside.
TK_DECL void descriptor_scatter(const value_ref &desc, const value_ref &rows, const value_ref &col,
                                const value_ref &x, loc_t loc);

/// Fails where descriptors of two paddings are assigned one to the other: a loop or branch
/// carrying the variable would read with either.
TK_DECL void check_same_padding(padding to, padding from, loc_t made);

} // namespace detail

/// A tensor of T in global memory, accessed in blocks of a fixed shape (rank R). A handle like a
/// block's: assigning it in a loop body or a branch carries it through the loop or out of the
/// branch (a descriptor keeps its padding: assigning one of the other padding is an error).
template <class T, std::size_t R> class tensor_descriptor : public detail::handle_base {
public:
  explicit tensor_descriptor(detail::value_ref v, padding pad = padding::zero,
                             std::source_location made = std::source_location::current())
      : handle_base(std::move(v)), pad_(pad), made_(made) {}
  tensor_descriptor(const tensor_descriptor &) = default;
  tensor_descriptor(tensor_descriptor &&) noexcept = default;
  tensor_descriptor &operator=(const tensor_descriptor &o) {
    detail::check_same_padding(pad_, o.pad_, o.made_);
    handle_base::operator=(o);
    made_ = o.made_;
    return *this;
  }
  tensor_descriptor &operator=(tensor_descriptor &&o) {
    detail::check_same_padding(pad_, o.pad_, o.made_);
    made_ = o.made_;
    handle_base::operator=(std::move(o));
    return *this;
  }

  /// The descriptor a kernel parameter of this type receives from a tk::host_tensor_descriptor
  /// launch argument (host_descriptor.hpp): made in the kernel from the values bound for its
  /// parts, `v[0]` the base, `v[1..R]` the sizes and `v[R+1..2R-1]` the strides before the last,
  /// which is 1; `a[2R]`, a constant, holds the block shape and padding.
  template <class Arg> static tensor_descriptor from_arguments(detail::value_ref *v, const Arg *a) {
    const Arg &packed = a[2 * R];
    const std::source_location loc = packed.made;
    detail::shape_t box;
    for (std::size_t d = 0; d < R; ++d)
      box.push_back(std::int64_t(1) << ((packed.bits >> (8 * d)) & 0xff));
    const padding pad = (packed.bits >> 40) & 1 ? padding::nan : padding::zero;
    std::vector<detail::value_ref> sizes, steps;
    for (std::size_t d = 0; d < R; ++d) {
      sizes.push_back(v[1 + d]);
      steps.push_back(
          d + 1 < R
              ? index(block<std::int32_t, 0>(v[1 + R + d]), loc).as(detail::elem_of<std::int64_t>())
              : index(1, loc).as(detail::elem_of<std::int64_t>()));
    }
    return tensor_descriptor(
        detail::make_tensor_descriptor(v[0], sizes, steps, std::move(box), pad, loc), pad, loc);
  }

  /// The block shape.
  const std::vector<std::int64_t> &block_shape() const { return v_->shape; }

  /// What loads read outside the tensor.
  padding padding_option() const { return pad_; }

  /// The block whose first element is the tensor's element `start`; elements outside the tensor
  /// read as the descriptor's padding (zero unless made with `tk::padding::nan`).
  block<std::remove_const_t<T>, int(R)>
  load(const std::array<index, R> &start,
       std::source_location loc = std::source_location::current()) const {
    return block<std::remove_const_t<T>, int(R)>(
        detail::descriptor_load(detail::operand_of(v_, loc).v, indices(start), pad_, loc));
  }

  /// Writes `value` (converted to T, broadcast to the block shape) at `start`; elements outside
  /// the tensor are not written.
  template <operand V>
  void store(const std::array<index, R> &start, const V &value,
             std::source_location loc = std::source_location::current()) const {
    static_assert(!std::is_const_v<T>, "tensor_descriptor::store: the descriptor's pointer points "
                                       "to const; declare the parameter tk::ptr<T>");
    const auto d = detail::operand_of(v_, loc).v;
    const detail::term t = detail::to_operand(value, loc);
    detail::check_broadcasts_to(t.shape(), "the value", d->shape, "the descriptor's block",
                                "tensor_descriptor::store", loc);
    const auto x = detail::materialize(t, detail::elem_of<std::remove_const_t<T>>(), d->shape, loc);
    detail::descriptor_store(d, indices(start), x, loc);
  }

  /// Triton's `desc.gather`: the rows `rows` (a 1-D block of N integer row indices) from column
  /// `col`, as an [N, BN] block whose element (r, c) is the tensor's element (rows[r], col + c).
  /// The descriptor is 2-D with blocks of one row, [1, BN]. Elements outside the tensor (a row
  /// index below 0 or past the last row, columns past the end) read as the padding.
  template <class I>
  block<std::remove_const_t<T>, 2>
  gather(const block<I, 1> &rows, const index &col,
         std::source_location loc = std::source_location::current()) const {
    static_assert(R == 2, "tensor_descriptor::gather: the descriptor must be 2-D");
    static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>,
                  "tensor_descriptor::gather: the row indices must be integers");
    const auto d = detail::operand_of(v_, loc).v;
    return block<std::remove_const_t<T>, 2>(
        detail::descriptor_gather(d, row_indices(rows, "tensor_descriptor::gather", loc),
                                  col.as(detail::elem_of<std::int32_t>()), pad_, loc));
  }

  /// Triton's `desc.scatter`, the converse of gather: writes `value` (converted to T, broadcast
  /// to [N, BN]) to the rows `rows` from column `col`; elements outside the tensor are not
  /// written. Where `rows` repeats a row, which of the writes lands is unspecified on the GPU
  /// (the interpreter writes the rows in order).
  template <class I, operand V>
  void scatter(const V &value, const block<I, 1> &rows, const index &col,
               std::source_location loc = std::source_location::current()) const {
    static_assert(R == 2, "tensor_descriptor::scatter: the descriptor must be 2-D");
    static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>,
                  "tensor_descriptor::scatter: the row indices must be integers");
    static_assert(!std::is_const_v<T>, "tensor_descriptor::scatter: the descriptor's pointer "
                                       "points to const; declare the parameter tk::ptr<T>");
    const auto d = detail::operand_of(v_, loc).v;
    const auto r = row_indices(rows, "tensor_descriptor::scatter", loc);
    const detail::shape_t shape{r->shape[0], d->shape[1]};
    const detail::term t = detail::to_operand(value, loc);
    detail::check_broadcasts_to(t.shape(), "the value", shape, "the gathered rows' block",
                                "tensor_descriptor::scatter", loc);
    const auto x = detail::materialize(t, detail::elem_of<std::remove_const_t<T>>(), shape, loc);
    detail::descriptor_scatter(d, r, col.as(detail::elem_of<std::int32_t>()), x, loc);
  }

// Each atomic checks its types (static_asserts naming it; where one fails nothing else is
// instantiated) and records one descriptor reduction.
#define TK_DESCRIPTOR_ATOMIC(NAME, OP, TYPES)                                                      \
  template <class V>                                                                               \
  void NAME(const std::array<index, R> &start, const V &value,                                     \
            std::source_location loc = std::source_location::current()) const {                    \
    static_assert(!std::is_const_v<T>, "tensor_descriptor::" #NAME ": the descriptor's pointer "   \
                                       "points to const; declare the parameter tk::ptr<T>");       \
    constexpr bool type_ok =                                                                       \
        detail::atomic_type_ok<detail::atomic_op::OP, block<std::remove_const_t<T> *, 0>>();       \
    static_assert(type_ok, "tensor_descriptor::" #NAME ": the element type must be " TYPES);       \
    static_assert(tk::operand<V>, "tensor_descriptor::" #NAME ": the value must be a block or a "  \
                                  "number");                                                       \
    if constexpr (!std::is_const_v<T> && type_ok && tk::operand<V>)                                \
      reduce(detail::atomic_kind_for<detail::atomic_op::OP, std::remove_const_t<T>>(), start,      \
             value, "tensor_descriptor::" #NAME, loc);                                             \
  }

  /// Atomically adds `value` (converted to T, broadcast to the block shape) to the block at
  /// `start`, element by element, as tk::atomic_add does through pointers (relaxed ordering);
  /// elements outside the tensor are skipped. Triton's `desc.atomic_add`.
  TK_DESCRIPTOR_ATOMIC(atomic_add, add, "i32, u32, i64, u64, f16, bf16, f32 or f64")
  /// `max(old, value)` per element, ordered as tk::atomic_max orders them.
  TK_DESCRIPTOR_ATOMIC(atomic_max, max, "i32, u32, i64, u64, f32 or f64")
  /// `min(old, value)` per element.
  TK_DESCRIPTOR_ATOMIC(atomic_min, min, "i32, u32, i64, u64, f32 or f64")
  /// `old & value` per element.
  TK_DESCRIPTOR_ATOMIC(atomic_and, bit_and,
                       "i32, u32, i64 or u64 (an integer type of 32 or 64 bits)")
  /// `old | value` per element.
  TK_DESCRIPTOR_ATOMIC(atomic_or, bit_or, "i32, u32, i64 or u64 (an integer type of 32 or 64 bits)")
  /// `old ^ value` per element.
  TK_DESCRIPTOR_ATOMIC(atomic_xor, bit_xor,
                       "i32, u32, i64 or u64 (an integer type of 32 or 64 bits)")

#undef TK_DESCRIPTOR_ATOMIC

private:
  template <class V>
  void reduce(detail::atomic_kind kind, const std::array<index, R> &start, const V &value,
              const char *what, std::source_location loc) const {
    const auto d = detail::operand_of(v_, loc).v;
    const detail::term t = detail::to_operand(value, loc);
    detail::check_broadcasts_to(t.shape(), "the value", d->shape, "the descriptor's block", what,
                                loc);
    const auto x = detail::materialize(t, detail::elem_of<std::remove_const_t<T>>(), d->shape, loc);
    detail::descriptor_reduce(kind, d, indices(start), x, what, loc);
  }

  /// A gather's or scatter's row indices as i32, once the descriptor is known to have blocks of
  /// one row.
  template <class I>
  detail::value_ref row_indices(const block<I, 1> &rows, const char *what,
                                std::source_location loc) const {
    detail::check_row_block(detail::operand_of(v_, loc).v->shape, what, loc);
    const detail::term t = detail::to_operand(rows, loc);
    return detail::materialize(t, detail::elem_of<std::int32_t>(), t.shape(), loc);
  }

  static std::vector<detail::value_ref> indices(const std::array<index, R> &start) {
    std::vector<detail::value_ref> out;
    for (const index &i : start)
      out.push_back(i.as(detail::elem_of<std::int32_t>()));
    return out;
  }

  padding pad_ = padding::zero;
  std::source_location made_; ///< where the descriptor was made, for padding errors
};

/// A descriptor of the tensor at `base` with `shape` and `strides` (in elements), read and
/// written in blocks of `block_shape` (powers of two). As in Triton, the last stride must be the
/// constant 1 (checked on every path), `base` 16-byte aligned and the other strides multiples of
/// 16 bytes (the interpreter checks these; TMA on Hopper needs them). Loads read the elements
/// outside the tensor as `pad`: zero, or NaN (`tk::padding::nan`, tensors of floats only;
/// Triton's `padding_option="nan"`).
template <class T, std::size_t R>
tensor_descriptor<T, R>
make_tensor_descriptor(const block<T *, 0> &base, const index (&shape)[R],
                       const index (&strides)[R], const index (&block_shape)[R],
                       padding pad = padding::zero,
                       std::source_location loc = std::source_location::current()) {
  static_assert(R >= 1 && R <= 5, "tk::make_tensor_descriptor: tensors of 1 to 5 dimensions");
  detail::check_last_stride(strides[R - 1], loc);
  std::vector<detail::value_ref> sizes, steps;
  detail::shape_t block;
  for (std::size_t d = 0; d < R; ++d) {
    block.push_back(block_shape[d].constant("tk::make_tensor_descriptor: a block dimension"));
    sizes.push_back(shape[d].as(detail::elem_of<std::int32_t>()));
    steps.push_back(strides[d].as(detail::elem_of<std::int64_t>()));
  }
  return tensor_descriptor<T, R>(detail::make_tensor_descriptor(detail::operand_of(base.v_, loc).v,
                                                                sizes, steps, std::move(block), pad,
                                                                loc),
                                 pad, loc);
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/descriptor.ipp>
#endif

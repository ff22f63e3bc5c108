/// @file host_descriptor.hpp
/// Tensor descriptors made on the host (Triton's
/// `triton.tools.tensor_descriptor.TensorDescriptor`): a tensor's base, shape and strides with the
/// block shape a kernel reads and writes it in, passed as a launch argument for a
/// `tk::tensor_descriptor<T, R>` parameter.
///
///   auto k = tk::jit("copy", [](tk::tensor_descriptor<const float, 2> in,
///                               tk::tensor_descriptor<float, 2> out) { ... });
///   k.launch(grid, tk::host_tensor_descriptor(x, {M, N}, {N, 1}, {64, 64}),
///                  tk::host_tensor_descriptor(y, {M, N}, {N, 1}, {64, 64}));
///
/// The launch passes the descriptor as its parts: the base pointer, the sizes and the strides
/// (32-bit integers, specialized on like any) and one constant, the block shape and padding,
/// which the kernel is compiled for. The kernel makes its descriptor from them, as
/// tk::make_tensor_descriptor would; on Hopper the runtime encodes its tensor map at the launch.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/descriptor.hpp>
#include <tk/detail/kernel/arguments.hpp>
#include <tk/detail/kernel/parameters.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string_view>
#include <type_traits>

namespace tk {

template <class T> struct tuned;

namespace detail {

/// A size, stride or block dimension of a host descriptor: any C++ integer (so that `{M, K}`
/// takes `std::size_t` and `int` alike), checked when the descriptor is made; or, for a block
/// dimension, a `tk::tuned` placeholder that each tk::autotune config gives a value.
struct host_extent {
  std::int64_t value = 0;
  bool fits = true;          ///< false for an unsigned value above INT64_MAX
  std::string_view tuned{};  ///< a tk::tuned placeholder's name, else empty
  std::source_location at{}; ///< where that placeholder was written

  host_extent() = default;
  template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, bool>)
  host_extent(I i) // NOLINT(google-explicit-constructor)
      : value(std::int64_t(i)), fits(!(std::is_unsigned_v<I> && i > I(INT64_MAX))) {}

  template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, bool>)
  host_extent(const tk::tuned<I> &t) // NOLINT(google-explicit-constructor)
      : tuned(t.name), at(t.loc) {}
};

/// Checks a host descriptor's parts against the rules tk::make_tensor_descriptor's (and TMA's):
/// a non-null base aligned to 16 bytes, sizes from 1 to 2^31 - 1, strides positive multiples of
/// 16 bytes below 2^31 elements with the last 1, block dimensions powers of two (those that are
/// tk::tuned placeholders once a config gives them values), `nan` padding on floats only.
/// Errors name `loc`, where the descriptor was made.
TK_DECL void check_host_descriptor(std::uint64_t base, elem_type element, std::size_t rank,
                                   const host_extent *shape, const host_extent *strides,
                                   const host_extent *block, padding pad, loc_t loc);

/// Checks a host descriptor's block shape (no tk::tuned placeholder left in it): powers of two
/// a block may have. Errors name `loc`, where the descriptor was made.
TK_DECL void check_descriptor_block(std::size_t rank, const host_extent *block, loc_t loc);

/// The error for a host descriptor launched with block dimension `d` still the tk::tuned
/// placeholder `name` (outside tk::autotune).
[[noreturn]] TK_DECL void untuned_descriptor_block(std::size_t d, std::string_view name, loc_t loc);

/// The constant part of a host descriptor: log2 of each block dimension, a byte each from the
/// lowest, then the padding at bit 40 (a tk::tuned dimension counts as 0).
TK_DECL std::uint64_t pack_descriptor_block(std::size_t rank, const host_extent *block,
                                            padding pad);

} // namespace detail

/// A tensor of `T` in memory the kernel can reach, described on the host for a
/// `tk::tensor_descriptor<T, R>` kernel parameter (Triton's `TensorDescriptor`): its base (a
/// pointer, or a buffer a `tk::ptr<T>` parameter would take: `std::vector`, `std::span`,
/// `tk::device_buffer`, whose extent the interpreter checks accesses against), its shape and
/// strides in elements, the shape of the blocks the kernel accesses (powers of two, a constant
/// the kernel is compiled for) and what loads read outside the tensor.
///
/// As in Triton, the last stride is 1, the base is 16-byte aligned and the other strides are
/// multiples of 16 bytes; sizes and strides fit in 32 bits. Each is checked where the
/// descriptor is made. The descriptor holds the base as a pointer: the memory must outlive the
/// launches it is passed to.
///
/// A block dimension may be a `tk::tuned<int>("BLOCK_M")` placeholder: a tk::autotune launch
/// gives it each config's value, as Triton's autotuned kernels set `block_shape` in a pre_hook.
/// Such a descriptor can only be passed to tk::autotune.
template <class T, std::size_t R> class host_tensor_descriptor {
  static_assert(R >= 1 && R <= 5, "tk::host_tensor_descriptor: tensors of 1 to 5 dimensions");

public:
  using element_type = T;
  static constexpr std::size_t rank = R;

  /// A descriptor of the tensor at `base`.
  host_tensor_descriptor(T *base, const detail::host_extent (&shape)[R],
                         const detail::host_extent (&strides)[R],
                         const detail::host_extent (&block_shape)[R], padding pad = padding::zero,
                         std::source_location loc = std::source_location::current())
      : host_tensor_descriptor(0, base, shape, strides, block_shape, pad, loc) {}

  /// A descriptor of the tensor in `buffer` (a `std::vector`, `std::span` or `tk::device_buffer`
  /// of T), passed as a `tk::ptr<T>` parameter would take it.
  template <class B>
    requires(detail::buffer_kind<std::remove_cv_t<B>> != 0 &&
             std::is_convertible_v<decltype(std::declval<B &>().data()), T *>)
  host_tensor_descriptor(B &buffer, const detail::host_extent (&shape)[R],
                         const detail::host_extent (&strides)[R],
                         const detail::host_extent (&block_shape)[R], padding pad = padding::zero,
                         std::source_location loc = std::source_location::current())
      : host_tensor_descriptor(0, buffer, shape, strides, block_shape, pad, loc) {}

  /// The tensor's base address.
  T *base() const { return reinterpret_cast<T *>(std::uintptr_t(base_.i)); }
  const std::array<std::int64_t, R> &shape() const { return shape_; }
  const std::array<std::int64_t, R> &strides() const { return strides_; }
  /// The block shape; 0 for a dimension that is a tk::tuned placeholder.
  const std::array<std::int64_t, R> &block_shape() const { return block_; }
  padding padding_option() const { return pad_; }

  /// The name of the tk::tuned placeholder block dimension `d` is, or "".
  std::string_view tuned_dimension(std::size_t d) const { return tuned_[d].tuned; }
  /// Where that placeholder was written.
  std::source_location tuned_location(std::size_t d) const { return tuned_[d].at; }
  /// Whether any block dimension is a tk::tuned placeholder.
  bool has_tuned_block() const {
    for (const detail::host_extent &e : tuned_)
      if (!e.tuned.empty())
        return true;
    return false;
  }

  /// This descriptor with its tk::tuned block dimensions set to `values[d]` (the others keep
  /// theirs), checked as where it was made.
  host_tensor_descriptor with_tuned_block(const std::array<std::int64_t, R> &values) const {
    host_tensor_descriptor out = *this;
    detail::host_extent block[R] = {};
    for (std::size_t d = 0; d < R; ++d) {
      block[d] =
          tuned_[d].tuned.empty() ? detail::host_extent(block_[d]) : detail::host_extent(values[d]);
      out.block_[d] = block[d].value;
      out.tuned_[d] = {};
    }
    detail::check_descriptor_block(R, block, made_);
    out.block_bits_ = detail::pack_descriptor_block(R, block, pad_);
    return out;
  }

  /// The descriptor as the launch arguments of parameter `parameter` (detail::param_arity): the
  /// base, the sizes, the strides before the last and the block constant.
  void describe(detail::launch_argument *out, std::size_t parameter) const {
    for (std::size_t d = 0; d < R; ++d)
      if (!tuned_[d].tuned.empty())
        detail::untuned_descriptor_block(d, tuned_[d].tuned, made_);
    describe_parts(out, parameter);
  }

  /// The launch arguments as describe() makes them, a tk::tuned block dimension as 0 in the
  /// block constant (for a tuning key, before a config gives it a value).
  void describe_parts(detail::launch_argument *out, std::size_t parameter) const {
    out[0] = base_;
    for (std::size_t d = 0; d < R; ++d) {
      out[1 + d] =
          detail::describe<block<std::int32_t, 0>>(std::int32_t(shape_[d]), parameter, made_);
      if (d + 1 < R)
        out[1 + R + d] =
            detail::describe<block<std::int32_t, 0>>(std::int32_t(strides_[d]), parameter, made_);
    }
    out[2 * R].kind = detail::launch_argument::role::constant;
    out[2 * R].bits = block_bits_;
    out[2 * R].made = made_;
    for (std::size_t k = 0; k < 2 * R + 1; ++k) {
      out[k].parameter = std::uint32_t(parameter);
      out[k].descriptor_part = true;
    }
  }

private:
  using base_param = block<std::remove_const_t<T> *, 0>;

  template <class Base>
  host_tensor_descriptor(int, Base &base, const detail::host_extent (&shape)[R],
                         const detail::host_extent (&strides)[R],
                         const detail::host_extent (&block_shape)[R], padding pad,
                         std::source_location loc)
      : base_(detail::describe_launch_argument<base_param>(base, 0, loc)), pad_(pad), made_(loc) {
    detail::check_host_descriptor(std::uint64_t(base_.i), detail::elem_of<std::remove_const_t<T>>(),
                                  R, shape, strides, block_shape, pad, loc);
    for (std::size_t d = 0; d < R; ++d) {
      shape_[d] = shape[d].value;
      strides_[d] = strides[d].value;
      block_[d] = block_shape[d].value;
      if (!block_shape[d].tuned.empty())
        tuned_[d] = block_shape[d];
    }
    block_bits_ = detail::pack_descriptor_block(R, block_shape, pad);
  }

  detail::launch_argument base_;
  std::array<std::int64_t, R> shape_{}, strides_{}, block_{};
  std::array<detail::host_extent, R> tuned_{}; ///< the tk::tuned block dimensions
  std::uint64_t block_bits_ = 0;
  padding pad_ = padding::zero;
  std::source_location made_;
};

template <class T, std::size_t R>
host_tensor_descriptor(T *, const detail::host_extent (&)[R], const detail::host_extent (&)[R],
                       const detail::host_extent (&)[R], padding = padding::zero,
                       std::source_location = std::source_location::current())
    -> host_tensor_descriptor<T, R>;

template <class B, std::size_t R>
  requires(detail::buffer_kind<std::remove_cv_t<B>> != 0)
host_tensor_descriptor(B &, const detail::host_extent (&)[R], const detail::host_extent (&)[R],
                       const detail::host_extent (&)[R], padding = padding::zero,
                       std::source_location = std::source_location::current())
    -> host_tensor_descriptor<std::remove_pointer_t<decltype(std::declval<B &>().data())>, R>;

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/host_descriptor.ipp>
#endif

/// @file arguments.hpp
/// Launch arguments as the signature-independent half of a launch sees them. `kernel::launch`
/// describes each argument for its parameter (`describe`: a pointer, a scalar converted to the
/// parameter's type, or a constant's value bits) and hands the descriptions with a `kernel_ref`
/// to run.hpp, which traces, interprets or launches on the GPU without knowing the signature.
/// The one typed step left, calling the kernel's callable with its parameters, is `call_body`,
/// reached through a function pointer.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/block.hpp>
#include <tk/detail/kernel/parameters.hpp>
#include <tk/detail/trace/context.hpp>
#include <tk/detail/trace/value.hpp>
#include <tk/device_buffer.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <string>
#include <type_traits>
#include <utility>

namespace tk::detail {

/// One launch argument, described for its parameter.
struct launch_argument {
  enum class role : std::uint8_t { pointer, scalar, constant };
  /// What a pointer argument was passed as, for errors that say what to pass instead.
  enum class container : std::uint8_t { none, vector, span, device_buffer };
  role kind = role::scalar;
  container passed_as = container::none;
  elem_type type; ///< the parameter's element type (a pointer's: ptr and the pointee)
  /// A pointer's address, or an integer or bool scalar as passed (it fits the parameter).
  std::int64_t i = 0;
  double f = 0; ///< a floating-point scalar as passed; the interpreter rounds it
  /// What the kernel's parameter holds on the device, in its first bytes: the address, or the
  /// scalar converted to the parameter's type. A constant: its value's bits (see parameter).
  std::uint64_t bits = 0;
  buffer_extent extent; ///< interpreter: the buffer a pointer argument points into, if known
  /// A tk::device_buffer passed as the argument: the interpreter runs on a host copy of its
  /// memory, and copies it back after the launch through `write_back` (null when the buffer was
  /// passed as const).
  const device_memory *device = nullptr;
  device_memory *write_back = nullptr;
  /// Whether the compiled code may depend on an integer's being 1 (`specialize_value`) and on
  /// the divisibility of an integer or a pointer's address (`specialize_alignment`): off for the
  /// parameters a kernel's tk::jit_options names (apply_specialization_options).
  bool specialize_value = true;
  bool specialize_alignment = true;
  /// The kernel parameter the argument is for: its index, and whether it is one of the parts of
  /// a tk::host_tensor_descriptor (a parameter that takes several launch arguments).
  std::uint32_t parameter = 0;
  bool descriptor_part = false;
  /// A host descriptor's constant part: where the descriptor was made (host_descriptor.hpp).
  std::source_location made{};
};

/// The error for integer launch argument `index`, whose value is `value`, that does not fit its
/// parameter's type `type`.
[[noreturn]] TK_DECL void argument_does_not_fit(std::source_location where, std::size_t index,
                                                const std::string &value, dtype type);

/// Checks that an integer argument fits the parameter's type `T`.
template <class T, class A> void check_range(const A &a, std::size_t index, loc_t loc) {
  // canonical<>: std::in_range takes no bool or character types (`char`, `long long` are fine).
  if constexpr (std::is_integral_v<T> && std::is_integral_v<A> && !std::is_same_v<T, bool> &&
                !std::is_same_v<A, bool>) {
    if (!std::in_range<canonical<T>>(canonical<A>(a)))
      argument_does_not_fit(loc, index, std::to_string(canonical<A>(a)), dtype_of<canonical<T>>);
  }
}

/// Argument `a` (a pointer, a number or a tk::constant) described for parameter `P`; `index` and
/// `loc` name it in errors. An integer that does not fit the parameter is an error.
template <class P, class A>
launch_argument describe(const A &a, std::size_t index, loc_t loc, buffer_extent extent = {}) {
  launch_argument d;
  d.extent = extent;
  d.parameter = std::uint32_t(index);
  const auto arg = unwrap_constant(a);
  if constexpr (param_traits<P>::is_constant) {
    using V = std::remove_cvref_t<decltype(P::value)>;
    static_assert(sizeof(V) <= sizeof(d.bits) && std::is_trivially_copyable_v<V>,
                  "tk: a tk::constant<T> must be a number, a bool or an enum");
    check_range<V>(arg, index, loc);
    const V value = static_cast<V>(arg);
    d.kind = launch_argument::role::constant;
    std::memcpy(&d.bits, &value, sizeof(V));
  } else {
    using T = typename P::element_type;
    d.type = elem_of<T>();
    if constexpr (std::is_pointer_v<T>) {
      std::uintptr_t address = 0;
      if constexpr (!std::is_null_pointer_v<decltype(arg)>)
        address = reinterpret_cast<std::uintptr_t>(arg);
      d.kind = launch_argument::role::pointer;
      d.i = std::int64_t(address);
      d.bits = address;
    } else {
      check_range<T>(arg, index, loc);
      d.kind = launch_argument::role::scalar;
      const T value = static_cast<T>(arg);
      std::memcpy(&d.bits, &value, sizeof(T));
      if constexpr (std::is_integral_v<T>)
        d.i = std::int64_t(arg);
      else
        d.f = static_cast<double>(arg);
    }
  }
  return d;
}

/// Argument `a`, as passed to a launch (a buffer, a pointer, a number or a tk::constant),
/// described for parameter `P`: a buffer as its elements' pointer with its extent.
template <class P, class A>
launch_argument describe_launch_argument(A &a, std::size_t index, loc_t loc) {
  using B = std::remove_cv_t<A>;
  if constexpr (buffer_kind<B> == 1) {
    const auto begin = std::uint64_t(reinterpret_cast<std::uintptr_t>(a.data()));
    launch_argument d =
        describe<P>(a.data(), index, loc, {begin, begin + a.size() * sizeof(*a.data()), true});
    d.passed_as = requires { B::extent; } ? launch_argument::container::span
                                          : launch_argument::container::vector;
    return d;
  } else if constexpr (buffer_kind<B> == 2) {
    launch_argument d = describe<P>(a.data(), index, loc);
    d.passed_as = launch_argument::container::device_buffer;
    d.device = &a.memory();
    if constexpr (!std::is_const_v<A>)
      d.write_back = &a.memory();
    return d;
  } else {
    return describe<P>(a, index, loc);
  }
}

/// Parameter `P` for the kernel's callable: the bound value `*v`, or a constant's value; a
/// tensor descriptor made from its param_arity<P> values and arguments.
template <class P> P parameter(value_ref *v, const launch_argument *a) {
  if constexpr (descriptor_param<P>::rank != 0) {
    return P::from_arguments(v, a);
  } else if constexpr (param_traits<P>::is_constant) {
    std::remove_cvref_t<decltype(P::value)> value;
    std::memcpy(&value, &a->bits, sizeof(value));
    return P(value);
  } else {
    return P(std::move(*v));
  }
}

/// Where parameter `I` of `Params` starts among the launch arguments.
template <class Params, std::size_t I> constexpr std::size_t first_argument() {
  return []<std::size_t... J>(std::index_sequence<J...>) {
    return (std::size_t(0) + ... + param_arity<std::tuple_element_t<J, Params>>);
  }(std::make_index_sequence<I>{});
}

/// How many launch arguments the parameters `Params` take.
template <class Params>
inline constexpr std::size_t argument_count = first_argument<Params, std::tuple_size_v<Params>>();

/// Calls a copy of the callable `fn` (an `F`) with its parameters `Params`, made from the values
/// that run.hpp bound for the arguments (null for constants) and the arguments' descriptions.
template <class F, class Params>
void call_body(const void *fn, value_ref *values, const launch_argument *args) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    F body = *static_cast<const F *>(fn);
    if constexpr (argument_count<Params> == sizeof...(I)) {
      body(parameter<std::tuple_element_t<I, Params>>(values + I, args + I)...);
    } else {
      // A descriptor parameter records the descriptor it makes: in parameter order, as a
      // braced list evaluates.
      Params made{parameter<std::tuple_element_t<I, Params>>(
          values + first_argument<Params, I>(), args + first_argument<Params, I>())...};
      body(std::get<I>(std::move(made))...);
    }
  }(std::make_index_sequence<std::tuple_size_v<Params>>{});
}

/// What the signature-independent launch code needs of a kernel object.
struct kernel_ref {
  const std::string &name;
  std::source_location loc; ///< where the kernel was made: the location of the IR function
  const kernel_origin *origin;
  std::uint64_t identity; ///< what the launch cache keys the kernel on (new_identity)
  const void *fn;         ///< the callable, for `call`
  void (*call)(const void *fn, value_ref *values, const launch_argument *args);
  /// Bit i: parameter i is not specialized on at all (do_not_specialize), or not on its
  /// divisibility (do_not_specialize_on_alignment).
  std::uint64_t unspecialized = 0;
  std::uint64_t unaligned = 0;
};

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/kernel/arguments.ipp>
#endif

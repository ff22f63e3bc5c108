/// @file parameters.hpp
/// How a kernel's parameters follow from its callable and its launch arguments, at compile time:
/// the parameter types of a callable (or, for `auto` parameters, the types the arguments select),
/// whether each argument suits its parameter (one static_assert for the first mistake), buffers as
/// launch arguments, and the constants a grid callable is called with.
#pragma once

#include <tk/block.hpp>
#include <tk/detail/trace/context.hpp>
#include <tk/device_buffer.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tk {
template <class T, std::size_t R> class tensor_descriptor;
template <class T, std::size_t R> class host_tensor_descriptor;
} // namespace tk

namespace tk::detail {

/// The parameter types of a non-generic callable.
template <class F> struct signature : signature<decltype(&F::operator())> {};
template <class R, class... A> struct signature<R (*)(A...)> {
  using args = std::tuple<std::remove_cvref_t<A>...>;
};
template <class R, class... A> struct signature<R(A...)> : signature<R (*)(A...)> {};
template <class R, class C, class... A>
struct signature<R (C::*)(A...)> : signature<R (*)(A...)> {};
template <class R, class C, class... A>
struct signature<R (C::*)(A...) const> : signature<R (*)(A...)> {};
template <class R, class C, class... A>
struct signature<R (C::*)(A...) noexcept> : signature<R (*)(A...)> {};
template <class R, class C, class... A>
struct signature<R (C::*)(A...) const noexcept> : signature<R (*)(A...)> {};

template <class F>
concept fixed_signature =
    std::is_function_v<std::remove_pointer_t<F>> || requires { &F::operator(); };

/// What a buffer launch argument holds: 1 for host memory (`std::vector`, `std::span`), 2 for a
/// `tk::device_buffer`; 0 for anything else.
template <class B> inline constexpr int buffer_kind = 0;
template <class T, class Alloc>
  requires(!std::is_same_v<std::remove_cv_t<T>, bool>) // std::vector<bool> has no data()
inline constexpr int buffer_kind<std::vector<T, Alloc>> = 1;
template <class T, std::size_t E> inline constexpr int buffer_kind<std::span<T, E>> = 1;
template <class T> inline constexpr int buffer_kind<device_buffer<T>> = 2;

/// The argument the kernel's machinery sees for launch argument `A` (possibly a reference): a
/// buffer's element pointer, else `A` decayed.
template <class A, bool = buffer_kind<std::remove_cvref_t<A>> != 0> struct launch_arg_of {
  using type = std::decay_t<A>;
};
template <class A> struct launch_arg_of<A, true> {
  using type = decltype(std::declval<std::remove_reference_t<A> &>().data());
};
template <class A> using launch_arg_t = typename launch_arg_of<A>::type;

template <class A> launch_arg_t<A &> launch_arg(A &a) {
  if constexpr (buffer_kind<std::remove_cv_t<A>> != 0)
    return a.data();
  else
    return a;
}

/// The kernel parameter type a launch argument of type `A` selects for a generic (`auto`)
/// parameter: `float*` → `tk::ptr<float>`, `int` → `tk::i32`, `tk::constant<int>` stays.
template <class A> struct param_for {
  using type = void;
};
template <class A>
  requires std::is_pointer_v<A>
struct param_for<A> {
  using pointee = std::remove_volatile_t<std::remove_pointer_t<A>>;
  using base = std::remove_const_t<pointee>;
  using canon = std::conditional_t<std::is_integral_v<base> && !std::is_same_v<base, bool>,
                                   canonical<base>, base>;
  using type = ptr<std::conditional_t<std::is_const_v<pointee>, const canon, canon>>;
};
template <class A>
  requires(std::is_arithmetic_v<A> || std::is_same_v<A, half> || std::is_same_v<A, bfloat16>)
struct param_for<A> {
  using type = scalar<
      std::conditional_t<std::is_integral_v<A> && !std::is_same_v<A, bool>, canonical<A>, A>>;
};
template <class T> struct param_for<constant<T>> {
  using type = constant<T>;
};
template <class T, std::size_t R> struct param_for<host_tensor_descriptor<T, R>> {
  using type = tensor_descriptor<T, R>;
};

template <class F, class... A> struct kernel_params {
  using type = std::tuple<typename param_for<std::remove_cvref_t<A>>::type...>;
};
template <fixed_signature F, class... A> struct kernel_params<F, A...> {
  using type = typename signature<F>::args;
};

template <class P> struct param_traits {
  static constexpr bool valid = false;
  static constexpr bool is_constant = false;
};
template <class T> struct param_traits<block<T, 0>> {
  static constexpr bool valid = true;
  static constexpr bool is_constant = false;
};
template <class T> struct param_traits<constant<T>> {
  static constexpr bool valid = true;
  static constexpr bool is_constant = true;
};
template <class T, std::size_t R> struct param_traits<tensor_descriptor<T, R>> {
  static constexpr bool valid = true;
  static constexpr bool is_constant = false;
};

/// A tk::tensor_descriptor parameter's element type and rank (`rank` 0: not one).
template <class P> struct descriptor_param {
  static constexpr std::size_t rank = 0;
};
template <class T, std::size_t R> struct descriptor_param<tensor_descriptor<T, R>> {
  using element = T;
  static constexpr std::size_t rank = R;
};

/// A tk::host_tensor_descriptor argument's element type and rank (`rank` 0: not one).
template <class A> struct host_descriptor_arg {
  static constexpr std::size_t rank = 0;
};
template <class T, std::size_t R> struct host_descriptor_arg<host_tensor_descriptor<T, R>> {
  using element = T;
  static constexpr std::size_t rank = R;
};

/// How many launch arguments (arguments.hpp) a parameter of type `P` takes: one, or for a tensor
/// descriptor of rank R, 2R + 1: the base, R sizes, the R - 1 strides before the last (which is
/// 1) and one constant holding the block shape and the padding.
template <class P>
inline constexpr std::size_t param_arity =
    descriptor_param<P>::rank == 0 ? 1 : 2 * descriptor_param<P>::rank + 1;

/// Whether a pointer to `Got` may be passed where a pointer to `Want` is expected: the same
/// type, or integers of one size and signedness (`long` for `long long`).
template <class Got, class Want> constexpr bool same_element() {
  return sizeof(Got) == sizeof(Want) &&
         (std::is_same_v<Got, Want> || (std::is_integral_v<Got> && std::is_integral_v<Want> &&
                                        std::is_signed_v<Got> == std::is_signed_v<Want>));
}

/// Whether argument `A` can be passed for parameter `P`. With `Assert`, a static_assert says why
/// not: the first reason only, so that one mistake gives one error.
template <class P, class A, bool Assert> constexpr bool check_argument() {
  using Arg = std::remove_cvref_t<A>;
  if constexpr (std::is_void_v<P>) {
    static_assert(!Assert,
                  "tk: a launch argument of this type cannot be passed to a generic (auto) kernel "
                  "parameter; pass a pointer, a number or a tk::constant");
    return false;
  } else if constexpr (!param_traits<P>::valid) {
    static_assert(!Assert, "tk: kernel parameters must be tk::ptr<T>, a scalar (tk::i32, tk::f32, "
                           "...), tk::constant<T> or tk::tensor_descriptor<T, R>");
    return false;
  } else if constexpr (descriptor_param<P>::rank != 0) {
    using D = descriptor_param<P>;
    using H = host_descriptor_arg<Arg>;
    if constexpr (H::rank == 0) {
      static_assert(!Assert, "tk: a tk::tensor_descriptor<T, R> parameter needs a "
                             "tk::host_tensor_descriptor argument (the tensor's base, shape, "
                             "strides and block shape, made on the host)");
      return false;
    } else if constexpr (H::rank != D::rank) {
      static_assert(!Assert, "tk: the tk::host_tensor_descriptor argument's rank differs from "
                             "the tk::tensor_descriptor<T, R> parameter's");
      return false;
    } else if constexpr (!same_element<std::remove_cv_t<typename H::element>,
                                       std::remove_cv_t<typename D::element>>()) {
      static_assert(!Assert, "tk: the tk::host_tensor_descriptor argument's element type differs "
                             "from the tk::tensor_descriptor<T, R> parameter's");
      return false;
    } else {
      constexpr bool writable =
          std::is_const_v<typename D::element> || !std::is_const_v<typename H::element>;
      static_assert(!Assert || writable,
                    "tk: a tk::host_tensor_descriptor of const elements was passed for a writable "
                    "tk::tensor_descriptor<T, R> parameter; declare the parameter "
                    "tk::tensor_descriptor<const T, R>");
      return writable;
    }
  } else if constexpr (host_descriptor_arg<Arg>::rank != 0) {
    static_assert(!Assert, "tk: a tk::host_tensor_descriptor argument needs a "
                           "tk::tensor_descriptor<T, R> parameter");
    return false;
  } else if constexpr (param_traits<P>::is_constant) {
    using V = std::remove_cvref_t<decltype(P::value)>;
    using Raw = std::remove_cvref_t<decltype(unwrap_constant(std::declval<const Arg &>()))>;
    if constexpr (std::is_integral_v<V> && std::is_floating_point_v<Raw>) {
      static_assert(!Assert,
                    "tk: a floating-point value was passed for an integer tk::constant parameter");
      return false;
    } else {
      constexpr bool ok = requires { static_cast<V>(std::declval<const Raw &>()); };
      static_assert(!Assert || ok, "tk: this launch argument cannot become the value of the "
                                   "tk::constant<T> parameter; pass a T or a tk::constant<T>");
      return ok;
    }
  } else if constexpr (std::is_pointer_v<typename P::element_type>) {
    using want = std::remove_cv_t<std::remove_pointer_t<typename P::element_type>>;
    if constexpr (std::is_null_pointer_v<Arg>) {
      return true;
    } else if constexpr (!std::is_pointer_v<Arg>) {
      static_assert(!Assert, "tk: a tk::ptr<T> parameter needs a pointer argument");
      return false;
    } else {
      using got = std::remove_cv_t<std::remove_pointer_t<Arg>>;
      constexpr bool writable = std::is_const_v<std::remove_pointer_t<typename P::element_type>> ||
                                !std::is_const_v<std::remove_pointer_t<Arg>>;
      if constexpr (!same_element<got, want>()) {
        static_assert(!Assert, "tk: the pointer argument's element type differs from the "
                               "tk::ptr<T> parameter's");
        return false;
      } else {
        static_assert(!Assert || writable,
                      "tk: a pointer to const was passed for a writable tk::ptr<T> parameter; "
                      "declare the parameter tk::ptr<const T>");
        return writable;
      }
    }
  } else {
    using T = typename P::element_type;
    if constexpr (std::is_pointer_v<Arg>) {
      static_assert(!Assert, "tk: a pointer was passed for a scalar parameter");
      return false;
    } else if constexpr (!(std::is_arithmetic_v<Arg> || std::is_same_v<Arg, half> ||
                           std::is_same_v<Arg, bfloat16> || constant_info<Arg>::is_constant)) {
      static_assert(!Assert, "tk: a scalar parameter needs a number");
      return false;
    } else {
      constexpr bool ok = !(std::is_integral_v<T> && std::is_floating_point_v<Arg>);
      static_assert(!Assert || ok,
                    "tk: a floating-point value was passed for an integer parameter");
      return ok;
    }
  }
}

/// Whether `A` is a `tk::tuned` placeholder (kernel.hpp), which only tk::autotune launches take.
template <class A> inline constexpr bool is_tuned = false;

template <class F, class Params, class... A, std::size_t... I>
constexpr bool each_argument_fits(std::index_sequence<I...>) {
  constexpr std::array<bool, sizeof...(A)> ok{
      check_argument<std::tuple_element_t<I, Params>, A, false>()...};
  constexpr std::size_t first_bad = [&] {
    for (std::size_t k = 0; k < ok.size(); ++k)
      if (!ok[k])
        return k;
    return ok.size();
  }();
  if constexpr (first_bad < sizeof...(A)) {
    return check_argument<std::tuple_element_t<first_bad, Params>,
                          std::tuple_element_t<first_bad, std::tuple<A...>>, true>();
  } else if constexpr (!fixed_signature<F>) {
    constexpr bool callable = std::is_invocable_v<F &, std::tuple_element_t<I, Params>...>;
    static_assert(callable,
                  "tk: the generic kernel cannot be called with the parameter types its "
                  "launch arguments select (a pointer becomes tk::ptr<T>, a number a scalar "
                  "such as tk::i32); pass trace-time constants as tk::constant<T>(value)");
    return callable;
  } else {
    return true;
  }
}

/// Whether launch arguments of types `A` suit the parameters `Params`. If not, one
/// static_assert says why (the first problem only) and callers instantiate nothing that
/// depends on the arguments, so that one mistake gives one error.
template <class F, class Params, class... A> constexpr bool arguments_fit() {
  if constexpr (!(... && !is_tuned<A>)) {
    static_assert((... && !is_tuned<A>),
                  "tk: a tk::tuned placeholder takes its value from an autotuning config; "
                  "launch through tk::autotune(kernel, ...), or pass a tk::constant");
    return false;
  } else if constexpr (std::tuple_size_v<Params> != sizeof...(A)) {
    static_assert(std::tuple_size_v<Params> == sizeof...(A),
                  "tk: wrong number of launch arguments: pass exactly one argument per kernel "
                  "parameter");
    return false;
  } else {
    return each_argument_fits<F, Params, A...>(std::index_sequence_for<A...>{});
  }
}

/// The values of the constant arguments among `args`, in parameter order, each as its
/// parameter's type: what a grid callable is called with.
template <class Params, class... A, std::size_t... I>
auto constant_values(std::index_sequence<I...>, const A &...args) {
  return std::tuple_cat([&]<std::size_t J>(std::integral_constant<std::size_t, J>, const auto &a) {
    using P = std::tuple_element_t<J, Params>;
    if constexpr (param_traits<P>::is_constant)
      return std::tuple<std::remove_cvref_t<decltype(P::value)>>(
          static_cast<std::remove_cvref_t<decltype(P::value)>>(unwrap_constant(a)));
    else
      return std::tuple<>();
  }(std::integral_constant<std::size_t, I>{}, args)...);
}

} // namespace tk::detail

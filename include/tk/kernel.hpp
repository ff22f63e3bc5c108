/// @file kernel.hpp
/// `tk::jit`: turns a C++ lambda over blocks into a kernel that can be printed as `tk` MLIR
/// (`.ir(args...)`) and launched over a grid of program instances (`.launch(grid, options,
/// args...)`), on the CPU interpreter or, where TileKit has a GPU runtime, on the GPU.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/block.hpp>
#include <tk/detail/env.hpp>
#include <tk/detail/ir/printer.hpp>
#include <tk/detail/runtime/launch.hpp>
#include <tk/device_buffer.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace tk {

/// The number of program instances along each grid axis. Errors about a launch name the place
/// the grid was made.
struct grid {
  std::array<std::int64_t, 3> dims;
  std::source_location loc;

  grid(std::int64_t x, std::int64_t y = 1, std::int64_t z = 1,
       std::source_location where = std::source_location::current())
      : dims{x, y, z}, loc(where) {}
};

/// A placeholder for a `tk::constant` argument whose value an autotuning config supplies
/// (`tk::autotune`): `tk::tuned<int>("BLOCK")` takes each config's `"BLOCK"`. Errors about it
/// name the place it was written.
template <class T> struct tuned {
  static_assert(std::is_integral_v<T> || std::is_enum_v<T>,
                "tk: a tk::tuned<T> constant must be an integer, a bool or an enum (autotuning "
                "configs hold integers)");
  std::string_view name;
  std::source_location loc;
  constexpr tuned(std::string_view constant_name,
                  std::source_location where = std::source_location::current())
      : name(constant_name), loc(where) {}
};

namespace detail {
template <class A> inline constexpr bool is_tuned = false;
template <class T> inline constexpr bool is_tuned<tuned<T>> = true;
} // namespace detail

/// Where a launch runs.
enum class backend {
  automatic,   ///< the interpreter when TK_INTERPRET=1, else the GPU
  gpu,         ///< the GPU
  interpreter, ///< the CPU interpreter, whatever the environment says
};

struct launch_options {
  int num_warps = 4;
  int num_stages = 3;
  /// A float multiply feeding an add may become one fma, rounded once (Triton's
  /// enable_fp_fusion). Off, each operation is rounded on its own, as the interpreter does.
  bool fp_fusion = true;
  void *stream = nullptr; ///< a CUstream / cudaStream_t
  tk::backend backend = tk::backend::automatic;
  /// Interpreter: also report signed integer overflow, misaligned addresses and, for buffer
  /// arguments, accesses outside them; as TK_INTERPRET_CHECK=1 does (docs/interpreter.md).
  bool checked = false;
  /// GPU: generate code as for this older target, "sm_80" say (mma.sync rather than wgmma on an
  /// sm_90a GPU), to measure an older GPU's code path on this one; the binary is still made for
  /// and runs on this GPU. Empty: TK_TARGET_ARCH when set, else the GPU's own target. A target
  /// newer than the GPU is an error (docs/environment.md).
  std::string_view target_arch = {};
};

/// True when the TK_INTERPRET environment variable asks for the interpreter (1, true, yes, on in
/// any case; docs/environment.md).
inline bool interpret_requested() { return detail::env::flag("TK_INTERPRET"); }

namespace detail {

/// True when TK_INTERPRET_CHECK asks for the interpreter's checked mode.
inline bool interpret_check_requested() { return env::flag("TK_INTERPRET_CHECK"); }

} // namespace detail

/// Why launches cannot run on a GPU here (no driver, no GPU, no backend library, a GPU older
/// than sm_75), or "" when they can.
TK_DECL std::string gpu_unavailable_reason();

/// Whether launches can run on a GPU: a driver, a GPU of sm_75 or newer and the backend library.
inline bool gpu_available() { return gpu_unavailable_reason().empty(); }

/// The GPU launches run on, with the target TileKit compiles for: "NVIDIA H100 80GB HBM3
/// (sm_90a)"; "" when there is none (see gpu_unavailable_reason).
TK_DECL std::string gpu_name();

/// The number of streaming multiprocessors of the GPU launches run on (132 on an H100 SXM), for
/// sizing persistent grids; 0 when there is none (see gpu_unavailable_reason).
TK_DECL int gpu_multiprocessor_count();

namespace detail {

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

/// A launch argument as the interpreter passes it: a buffer as a pointer to its elements, with
/// their extent (a device_buffer's are copied to the host for the launch and back after it).
template <class A, int Kind = buffer_kind<std::remove_cv_t<A>>> struct interpreter_arg {
  static constexpr bool is_buffer = Kind != 0;
  A &a;
  explicit interpreter_arg(A &arg) : a(arg) {}
  launch_arg_t<A &> arg() const { return launch_arg(a); }
  buffer_extent extent() const {
    if constexpr (is_buffer) {
      const auto begin = std::uint64_t(reinterpret_cast<std::uintptr_t>(a.data()));
      return {begin, begin + a.size() * sizeof(*a.data()), true};
    } else {
      return {};
    }
  }
  void finish() {}
};
template <class A> struct interpreter_arg<A, 2> {
  static constexpr bool is_buffer = true;
  using T = std::remove_pointer_t<launch_arg_t<A &>>;
  A &a;
  std::vector<std::remove_cv_t<T>> host;
  explicit interpreter_arg(A &arg) : a(arg), host(arg.to_host()) {}
  T *arg() { return host.data(); }
  buffer_extent extent() const {
    const auto begin = std::uint64_t(reinterpret_cast<std::uintptr_t>(host.data()));
    return {begin, begin + host.size() * sizeof(T), true};
  }
  void finish() {
    if constexpr (!std::is_const_v<A> && !std::is_const_v<T>)
      a.upload(host);
  }
};

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

/// The key word of one argument `a` for parameter `P` (see launch_key).
template <class P, class A> std::uint64_t specialization_word(const A &a) {
  if constexpr (param_traits<P>::is_constant) {
    using V = std::remove_cvref_t<decltype(P::value)>;
    const V value = static_cast<V>(unwrap_constant(a));
    if constexpr (std::is_enum_v<V>) {
      return static_cast<std::uint64_t>(static_cast<std::underlying_type_t<V>>(value));
    } else {
      static_assert(sizeof(V) <= 8 && std::is_trivially_copyable_v<V>,
                    "tk: a tk::constant<T> for a GPU launch must be a number, a bool or an enum");
      std::uint64_t bits = 0;
      std::memcpy(&bits, &value, sizeof(V));
      return bits;
    }
  } else {
    using T = typename P::element_type;
    const auto arg = unwrap_constant(a);
    if constexpr (std::is_pointer_v<T>)
      return arg && reinterpret_cast<std::uintptr_t>(arg) % 16 == 0;
    else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
      return arg == 1 ? 2 : arg % 16 == 0;
    else
      return 0;
  }
}

/// One argument as the kernel's parameter holds it on the device: pointers as addresses,
/// scalars converted to the parameter's type (check_range has checked that they fit); nothing
/// for constants, which the trace folded in.
template <class P, class A> struct device_arg {
  struct none {};
  static constexpr auto pick() {
    if constexpr (param_traits<P>::is_constant)
      return none{};
    else if constexpr (std::is_pointer_v<typename P::element_type>)
      return cu::deviceptr{};
    else
      return typename P::element_type{};
  }
  using type = decltype(pick());
  static type convert(const A &a) {
    if constexpr (param_traits<P>::is_constant) {
      return none{};
    } else {
      const auto arg = unwrap_constant(a);
      if constexpr (std::is_pointer_v<typename P::element_type>)
        return cu::deviceptr(reinterpret_cast<std::uintptr_t>(arg));
      else
        return static_cast<typename P::element_type>(arg);
    }
  }
};

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
                           "...) or tk::constant<T>");
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
      constexpr bool same_element =
          sizeof(got) == sizeof(want) &&
          (std::is_same_v<got, want> || (std::is_integral_v<got> && std::is_integral_v<want> &&
                                         std::is_signed_v<got> == std::is_signed_v<want>));
      constexpr bool writable = std::is_const_v<std::remove_pointer_t<typename P::element_type>> ||
                                !std::is_const_v<std::remove_pointer_t<Arg>>;
      if constexpr (!same_element) {
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

/// Checks that an integer argument fits the parameter's type.
template <class T, class A> void check_range(const A &a, std::size_t index, loc_t loc) {
  // canonical<>: std::in_range takes no bool or character types (`char`, `long long` are fine).
  if constexpr (std::is_integral_v<T> && std::is_integral_v<A> && !std::is_same_v<T, bool> &&
                !std::is_same_v<A, bool>) {
    if (!std::in_range<canonical<T>>(canonical<A>(a)))
      fail(loc, "launch argument ", index, ": ", +canonical<A>(a),
           " does not fit in the parameter's type ", name(dtype_of<canonical<T>>));
  }
}

/// Binds one launch argument to its parameter: a function argument of the traced IR, or a
/// concrete value for the interpreter.
template <class P, class A>
P bind(context &ctx, function *fn, const A &a, std::size_t index, loc_t loc) {
  if constexpr (param_traits<P>::is_constant) {
    check_range<decltype(P::value)>(unwrap_constant(a), index, loc);
    return P(static_cast<decltype(P::value)>(unwrap_constant(a)));
  } else {
    using T = typename P::element_type;
    const auto arg = unwrap_constant(a);
    check_range<T>(arg, index, loc);
    // `fn` is null when interpreting; testing it also spares GCC 12's -O2 -Warray-bounds a path
    // through `fn->args` that it cannot prove dead.
    if (ctx.tracing() && fn) {
      auto v = make_value(elem_of<T>(), {});
      fn->args.push_back(v);
      std::string attr;
      if constexpr (std::is_pointer_v<T>) {
        if (arg && reinterpret_cast<std::uintptr_t>(arg) % 16 == 0)
          attr = "tk.divisibility = 16 : i32";
      } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (arg % 16 == 0)
          attr = "tk.divisibility = 16 : i32";
      }
      fn->arg_attrs.push_back(attr);
      // An integer equal to 1 is specialized on, as in Triton (a unit stride makes addresses
      // contiguous): the kernel computes with the constant 1, and the argument stays unused.
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
        if (arg == 1)
          return P(const_value(elem_of<T>(), {}, 1.0, 1, loc));
      return P(v);
    }
    auto v = make_concrete(elem_of<T>(), {});
    if constexpr (std::is_pointer_v<T>) {
      v->i[0] = std::int64_t(reinterpret_cast<std::uintptr_t>(arg));
      if (index < ctx.extents.size() && ctx.extents[index].known)
        v->extent = int(index);
    } else if constexpr (std::is_integral_v<T>)
      v->i[0] = wrap_int(std::int64_t(arg), dtype_of<T>);
    else
      v->f[0] = round_float(double(arg), dtype_of<T>);
    return P(v);
  }
}

template <class Params, class F, class... A, std::size_t... I>
void invoke(F &fn, [[maybe_unused]] context &ctx, [[maybe_unused]] function *traced,
            [[maybe_unused]] loc_t loc, std::index_sequence<I...>, const A &...args) {
  // Arguments are bound left to right so that IR arguments keep the parameters' order.
  std::tuple<std::tuple_element_t<I, Params>...> bound{
      bind<std::tuple_element_t<I, Params>>(ctx, traced, args, I, loc)...};
  std::apply(fn, std::move(bound));
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

/// The driver and the backend library, or an error at the launch naming kernel `name` and what
/// is missing (no driver, no GPU, no backend library) and how to run it anyway.
TK_DECL const cu::driver &gpu_driver(const std::string &name, std::source_location loc);

TK_DECL void check_name(const std::string &name, loc_t loc);

} // namespace detail

/// A callable that computes a launch's grid (see kernel::launch): anything but a grid or a
/// number, which make a tk::grid directly.
template <class G>
concept grid_callable = !std::is_convertible_v<std::remove_cvref_t<G>, grid> &&
                        !std::is_arithmetic_v<std::remove_cvref_t<G>> &&
                        (std::is_class_v<std::remove_cvref_t<G>> ||
                         std::is_function_v<std::remove_pointer_t<std::remove_cvref_t<G>>>);

template <class F> class kernel {
public:
  kernel(std::string name, F fn, std::source_location loc = std::source_location::current())
      : name_(std::move(name)), fn_(std::move(fn)), loc_(loc) {
    detail::check_name(name_, loc);
    origin_ = detail::intern_origin(name_, loc_);
  }

  const std::string &name() const { return name_; }

  /// The kernel traced for these arguments, printed as `tk` dialect MLIR. Constants are folded
  /// in; pointer and integer arguments only contribute their type, divisibility by 16 and, for
  /// integers, whether they equal 1 (then the kernel uses the constant 1).
  template <class... A> std::string ir(A &&...args) const {
    return trace<detail::launch_arg_t<A>...>(detail::launch_arg(args)...);
  }

  /// Runs the kernel over `g` on the backend the options and environment choose. A `tk::ptr<T>`
  /// parameter takes a pointer, or a buffer: a `std::vector<T>`, a `std::span<T>` or a
  /// `tk::device_buffer<T>` (by reference), whose extent the interpreter checks accesses against.
  template <class... A>
  void launch(const grid &g, const launch_options &options, A &&...args) const {
    using Params = typename detail::kernel_params<F, detail::launch_arg_t<A>...>::type;
    if constexpr (check_arguments<Params, detail::launch_arg_t<A>...>()) {
      check_launch(g, options);
      const bool interpret = options.backend == backend::interpreter ||
                             (options.backend == backend::automatic && interpret_requested());
      if (interpret) {
        std::tuple<detail::interpreter_arg<std::remove_reference_t<A>>...> staged{args...};
        std::apply([&](auto &...a) { run_interpreter<Params>(g, options, a...); }, staged);
        std::apply([](auto &...a) { (a.finish(), ...); }, staged);
      } else {
        launch_gpu<Params>(g, options, std::index_sequence_for<A...>{},
                           detail::launch_arg(args)...);
      }
    }
  }

  template <class... A>
    requires(sizeof...(A) == 0 ||
             !std::is_same_v<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A..., int>>>,
                             launch_options>)
  void launch(const grid &g, A &&...args) const {
    launch(g, launch_options{}, std::forward<A>(args)...);
  }

  /// Runs the kernel over the grid that `make_grid` returns for this launch's constants, like
  /// Triton's grid lambda: it is called with the value of every `tk::constant` argument, in
  /// parameter order, and returns a `tk::grid`. For example, for a kernel whose one constant is
  /// BLOCK: `[&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); }`.
  template <grid_callable G, class... A>
  void launch(G &&make_grid, const launch_options &options, A &&...args) const {
    launch(resolve_grid(make_grid, detail::launch_arg(args)...), options, std::forward<A>(args)...);
  }

  template <grid_callable G, class... A>
    requires(sizeof...(A) == 0 ||
             !std::is_same_v<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A..., int>>>,
                             launch_options>)
  void launch(G &&make_grid, A &&...args) const {
    launch(resolve_grid(make_grid, detail::launch_arg(args)...), launch_options{},
           std::forward<A>(args)...);
  }

  /// Runs the kernel on the CPU interpreter, whatever the environment says.
  template <class... A> void interpret(const grid &g, A &&...args) const {
    launch(g, launch_options{.backend = backend::interpreter}, std::forward<A>(args)...);
  }
  template <grid_callable G, class... A> void interpret(G &&make_grid, A &&...args) const {
    launch(resolve_grid(make_grid, detail::launch_arg(args)...),
           launch_options{.backend = backend::interpreter}, std::forward<A>(args)...);
  }

  /// The grid `make_grid` gives for these launch arguments (see launch).
  template <class G, class... A> static grid resolve_grid(G &make_grid, const A &...args) {
    using Params = typename detail::kernel_params<F, A...>::type;
    if constexpr (check_arguments<Params, A...>()) {
      auto constants = detail::constant_values<Params>(std::index_sequence_for<A...>{}, args...);
      using Values = decltype(constants);
      constexpr bool callable = []<std::size_t... J>(std::index_sequence<J...>) {
        if constexpr (std::is_invocable_v<G &, std::tuple_element_t<J, Values>...>)
          return std::is_same_v<
              std::remove_cvref_t<std::invoke_result_t<G &, std::tuple_element_t<J, Values>...>>,
              grid>;
        else
          return false;
      }(std::make_index_sequence<std::tuple_size_v<Values>>{});
      static_assert(callable, "tk: a grid callable is called with the value of each tk::constant "
                              "argument, in parameter order, and must return a tk::grid");
      if constexpr (callable)
        return std::apply(make_grid, constants);
      else
        return grid(1);
    } else {
      return grid(1);
    }
  }

private:
  std::string name_;
  F fn_;
  std::source_location loc_; ///< where the kernel was made: the location of the IR function
  const detail::kernel_origin *origin_ = nullptr;
  std::uint64_t identity_ = detail::new_identity(); ///< what the launch cache keys it on

  template <class... A> std::string trace(const A &...args) const {
    using Params = typename detail::kernel_params<F, A...>::type;
    if constexpr (check_arguments<Params, A...>()) {
      detail::context ctx;
      ctx.generation = detail::new_generations(1);
      ctx.origin = origin_;
      detail::function fn;
      fn.name = name_;
      ctx.frames.push_back({&fn.body, {}});
      detail::context_scope scope(ctx);
      F body = fn_;
      fn.loc = loc_;
      detail::invoke<Params>(body, ctx, &fn, loc_, std::index_sequence_for<A...>{}, args...);
      detail::record("func.return", detail::syntax::terminator, {}, {}, "", loc_);
      return detail::print(fn);
    } else {
      return {};
    }
  }

  /// Whether launch arguments of types `A` suit the parameters `Params`. If not, one
  /// static_assert says why (the first problem only) and callers instantiate nothing that
  /// depends on the arguments, so that one mistake gives one error.
  template <class Params, class... A> static constexpr bool check_arguments() {
    if constexpr (!(... && !detail::is_tuned<A>)) {
      static_assert((... && !detail::is_tuned<A>),
                    "tk: a tk::tuned placeholder takes its value from an autotuning config; "
                    "launch through tk::autotune(kernel, ...), or pass a tk::constant");
      return false;
    } else if constexpr (std::tuple_size_v<Params> != sizeof...(A)) {
      static_assert(std::tuple_size_v<Params> == sizeof...(A),
                    "tk: wrong number of launch arguments: pass exactly one argument per kernel "
                    "parameter");
      return false;
    } else {
      return check_each<Params, A...>(std::index_sequence_for<A...>{});
    }
  }

  template <class Params, class... A, std::size_t... I>
  static constexpr bool check_each(std::index_sequence<I...>) {
    constexpr std::array<bool, sizeof...(A)> ok{
        detail::check_argument<std::tuple_element_t<I, Params>, A, false>()...};
    constexpr std::size_t first_bad = [&] {
      for (std::size_t k = 0; k < ok.size(); ++k)
        if (!ok[k])
          return k;
      return ok.size();
    }();
    if constexpr (first_bad < sizeof...(A)) {
      return detail::check_argument<std::tuple_element_t<first_bad, Params>,
                                    std::tuple_element_t<first_bad, std::tuple<A...>>, true>();
    } else if constexpr (!detail::fixed_signature<F>) {
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

  static void check_launch(const grid &g, const launch_options &o) {
    static constexpr std::int64_t limits[3] = {2147483647, 65535, 65535};
    for (int d = 0; d < 3; ++d)
      if (g.dims[std::size_t(d)] < 1 || g.dims[std::size_t(d)] > limits[d])
        detail::fail(g.loc, "grid dimension ", "xyz"[d], " is ", g.dims[std::size_t(d)],
                     "; it must be between 1 and ", limits[d]);
    if (o.num_warps < 1 || o.num_warps > 32 || (o.num_warps & (o.num_warps - 1)))
      detail::fail(g.loc, "num_warps is ", o.num_warps, "; it must be 1, 2, 4, 8, 16 or 32");
    if (o.num_stages < 1)
      detail::fail(g.loc, "num_stages is ", o.num_stages, "; it must be at least 1");
  }

  /// The GPU path (detail/runtime/launch.hpp): the compiled kernel for this specialization from the
  /// in-process cache, compiled on a miss, then cuLaunchKernel on the options' stream.
  template <class Params, class... A, std::size_t... I>
  void launch_gpu(const grid &g, const launch_options &o, std::index_sequence<I...>,
                  const A &...args) const {
    using Key = detail::launch_key<sizeof...(A)>;
    static detail::launch_cache<Key> cache;
    (check_pointer<std::tuple_element_t<I, Params>>(args, I, g.loc), ...);
    const detail::cu::driver &driver = detail::gpu_driver(name_, g.loc);
    detail::cu::context ctx = driver.launch_context(g.loc);
    const detail::requested_arch arch = detail::requested_target_arch(o.target_arch);
    const Key key{identity_,
                  ctx,
                  o.num_warps,
                  o.num_stages,
                  o.fp_fusion,
                  detail::arch_word(arch.name),
                  {detail::specialization_word<std::tuple_element_t<I, Params>>(args)...}};
    (check_device_memory<std::tuple_element_t<I, Params>>(driver, args, I, g.loc), ...);
    const detail::loaded_kernel &k = cache.get(key, [&] {
      return detail::compile_and_load(name_, trace(args...), ctx, o.num_warps, o.num_stages,
                                      o.fp_fusion, arch, g.loc);
    });
    // The argument block: each non-constant argument as the kernel's parameter holds it.
    std::tuple<typename detail::device_arg<std::tuple_element_t<I, Params>, A>::type...> values{
        detail::device_arg<std::tuple_element_t<I, Params>, A>::convert(args)...};
    std::array<void *, sizeof...(A) + 1> params{};
    std::size_t count = 0;
    ((detail::param_traits<std::tuple_element_t<I, Params>>::is_constant
          ? void()
          : void(params[count++] = &std::get<I>(values))),
     ...);
    auto launch = [&](const detail::loaded_kernel &kernel, void **block) {
      detail::cu::check(
          driver.launch_kernel(kernel.function, unsigned(g.dims[0]), unsigned(g.dims[1]),
                               unsigned(g.dims[2]), kernel.threads, 1, 1, kernel.shared_bytes,
                               static_cast<detail::cu::stream>(o.stream), block, nullptr),
          "cuLaunchKernel", g.loc);
    };
    if (k.tensor_maps.empty())
      return launch(k, params.data());
    // Tensor maps for TMA, encoded from this launch's arguments and passed after them. Where the
    // values do not fit TMA (sizes and strides must be positive; the driver has limits of its
    // own), the same kernel compiled without tensor maps runs instead (pointer blocks).
    std::vector<detail::tensor_map_bytes> maps(k.tensor_maps.size());
    std::vector<void *> block(params.begin(), params.begin() + std::ptrdiff_t(count));
    bool encoded = true;
    for (std::size_t m = 0; m < maps.size() && encoded; ++m) {
      encoded = detail::encode_tensor_map(driver, k.tensor_maps[m], params.data(), maps[m]) ==
                detail::cu::success;
      block.push_back(&maps[m]);
    }
    if (encoded)
      return launch(k, block.data());
    static detail::launch_cache<Key> pointer_path;
    const detail::loaded_kernel &plain = pointer_path.get(key, [&] {
      return detail::compile_and_load(name_, trace(args...), ctx, o.num_warps, o.num_stages,
                                      o.fp_fusion, arch, g.loc, /*tensor_maps=*/false);
    });
    launch(plain, params.data());
  }

  /// A pointer argument must not be null and must be aligned to its element type.
  template <class P, class A>
  static void check_pointer(const A &a, std::size_t index, std::source_location loc) {
    if constexpr (!detail::param_traits<P>::is_constant) {
      using T = typename P::element_type;
      if constexpr (std::is_pointer_v<T>) {
        const auto address = reinterpret_cast<std::uintptr_t>(detail::unwrap_constant(a));
        if (address == 0)
          detail::fail(loc, "launch argument ", index, " is a null pointer; a GPU kernel needs ",
                       "device memory for every tk::ptr parameter");
        if (address % alignof(std::remove_cv_t<std::remove_pointer_t<T>>) != 0)
          detail::fail(loc, "launch argument ", index, " (address ", address,
                       ") is not aligned to its element type (",
                       alignof(std::remove_cv_t<std::remove_pointer_t<T>>), " bytes)");
      }
    }
  }

  /// A pointer argument must be memory the GPU can reach (device, managed or registered host
  /// memory), as far as the driver can tell (detail::reachable_on_device).
  template <class P, class A>
  static void check_device_memory(const detail::cu::driver &driver, const A &a, std::size_t index,
                                  std::source_location loc) {
    if constexpr (!detail::param_traits<P>::is_constant) {
      if constexpr (std::is_pointer_v<typename P::element_type>) {
        const auto address = reinterpret_cast<std::uintptr_t>(detail::unwrap_constant(a));
        if (!detail::reachable_on_device(driver, address, loc))
          detail::fail(loc, "launch argument ", index,
                       " is host memory the GPU cannot reach; pass device memory (cudaMalloc, "
                       "cuMemAlloc), managed memory or registered host memory");
      }
    }
  }

  template <class Params, class... S>
  void run_interpreter(const grid &g, const launch_options &o, S &...staged) const {
    detail::context ctx;
    ctx.kind = detail::mode::interpret;
    ctx.num_programs = g.dims;
    ctx.origin = origin_;
    ctx.checked = o.checked || detail::interpret_check_requested();
    if constexpr ((... || S::is_buffer))
      ctx.extents = {staged.extent()...};
    // One generation per program instance, x fastest (detail::instance_name).
    ctx.first_generation =
        detail::new_generations(std::uint64_t(g.dims[0] * g.dims[1] * g.dims[2]));
    ctx.generation = ctx.first_generation;
    detail::context_scope scope(ctx);
    for (std::int64_t z = 0; z < g.dims[2]; ++z)
      for (std::int64_t y = 0; y < g.dims[1]; ++y)
        for (std::int64_t x = 0; x < g.dims[0]; ++x, ++ctx.generation) {
          ctx.program_id = {x, y, z};
          F body = fn_;
          detail::invoke<Params>(body, ctx, nullptr, g.loc, std::index_sequence_for<S...>{},
                                 staged.arg()...);
        }
  }
};

/// Makes a kernel from a callable over TileKit parameters (`tk::ptr<T>`, scalars such as
/// `tk::i32`, `tk::constant<T>`), or over `auto` parameters typed by the launch arguments.
template <class F>
kernel<F> jit(std::string name, F fn, std::source_location loc = std::source_location::current()) {
  return kernel<F>(std::move(name), std::move(fn), loc);
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/kernel.ipp>
#endif

/// @file kernel.hpp
/// `tk::jit`: turns a C++ lambda over blocks into a kernel that can be printed as `tk` MLIR
/// (`.ir(args...)`) and launched over a grid of program instances (`.launch(grid, options,
/// args...)`), on the CPU interpreter or, where TileKit has a GPU runtime, on the GPU.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/block.hpp>
#include <tk/compiled_kernel.hpp>
#include <tk/detail/kernel/arguments.hpp>
#include <tk/detail/kernel/parameters.hpp>
#include <tk/detail/kernel/run.hpp>
#include <tk/host_descriptor.hpp>
#include <tk/launch_options.hpp>

#include <array>
#include <cstddef>
#include <source_location>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tk {

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
template <class T> inline constexpr bool is_tuned<tuned<T>> = true;
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

/// A callable that computes a launch's grid (see kernel::launch): anything but a grid or a
/// number, which make a tk::grid directly.
template <class G>
concept grid_callable = !std::is_convertible_v<std::remove_cvref_t<G>, grid> &&
                        !std::is_arithmetic_v<std::remove_cvref_t<G>> &&
                        (std::is_class_v<std::remove_cvref_t<G>> ||
                         std::is_function_v<std::remove_pointer_t<std::remove_cvref_t<G>>>);

/// How a kernel is specialized on its arguments (Triton's `@triton.jit(do_not_specialize=...)`).
/// By default a kernel is compiled anew for each pointer alignment and integer divisibility (1,
/// 2, 4, 8 or 16) it is launched with, and for integers equal to 1, so that it can use vector
/// loads and fold unit strides; parameters named here (by index, from 0) are compiled once for
/// all values instead (docs/runtime.md, "Specialization").
struct jit_options {
  /// Integers: neither divisibility nor "equals 1"; pointers: no alignment.
  std::vector<int> do_not_specialize{};
  /// Divisibility and alignment only; an integer equal to 1 is still specialized on.
  std::vector<int> do_not_specialize_on_alignment{};
};

namespace detail {
/// The parameter mask of one jit_options list; errors name `loc`, the tk::jit call.
TK_DECL std::uint64_t parameter_mask(const std::vector<int> &indices, const char *option,
                                     const std::string &kernel, std::source_location loc);
} // namespace detail

template <class F> class kernel {
public:
  kernel(std::string name, F fn, std::source_location loc = std::source_location::current())
      : name_(std::move(name)), fn_(std::move(fn)), loc_(loc) {
    detail::check_name(name_, loc);
    origin_ = detail::intern_origin(name_, loc_);
  }
  kernel(std::string name, F fn, const jit_options &options,
         std::source_location loc = std::source_location::current())
      : kernel(std::move(name), std::move(fn), loc) {
    unspecialized_ =
        detail::parameter_mask(options.do_not_specialize, "do_not_specialize", name_, loc);
    unaligned_ = detail::parameter_mask(options.do_not_specialize_on_alignment,
                                        "do_not_specialize_on_alignment", name_, loc);
  }

  const std::string &name() const { return name_; }

  /// The kernel traced for these arguments, printed as `tk` dialect MLIR. Constants are folded
  /// in; pointer and integer arguments only contribute their type, divisibility by 16 and, for
  /// integers, whether they equal 1 (then the kernel uses the constant 1).
  template <class... A> std::string ir(A &&...args) const {
    using Params = typename detail::kernel_params<F, detail::launch_arg_t<A>...>::type;
    if constexpr (detail::arguments_fit<F, Params, detail::launch_arg_t<A>...>())
      return detail::trace_kernel_for<Params>(ref<Params>(), loc_, args...);
    else
      return {};
  }

  /// Runs the kernel over `g` on the backend the options and environment choose. A `tk::ptr<T>`
  /// parameter takes a pointer, or a buffer: a `std::vector<T>`, a `std::span<T>` or a
  /// `tk::device_buffer<T>` (by reference), whose extent the interpreter checks accesses against.
  template <class... A>
  void launch(const grid &g, const launch_options &options, A &&...args) const {
    using Params = typename detail::kernel_params<F, detail::launch_arg_t<A>...>::type;
    if constexpr (detail::arguments_fit<F, Params, detail::launch_arg_t<A>...>())
      detail::launch_kernel<Params>(ref<Params>(), detail::compiled_kernels_of<F, Params>, g,
                                    options, args...);
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

  /// Compiles the kernel for these arguments and options, and loads it, as its first launch with
  /// them would, without launching it (Triton's `kernel.warmup`): the launch after it finds the
  /// kernel in the caches. The arguments are those of a launch; only what the kernel is
  /// specialized on matters (types, constants, pointer alignment and integer divisibility), and
  /// pointers are not dereferenced. On the interpreter it traces the kernel, so that errors show.
  /// Errors about the arguments name the line that made the kernel (it has no grid to name).
  template <class... A> void warmup(const launch_options &options, A &&...args) const {
    using Params = typename detail::kernel_params<F, detail::launch_arg_t<A>...>::type;
    if constexpr (detail::arguments_fit<F, Params, detail::launch_arg_t<A>...>())
      detail::warmup_kernel<Params>(ref<Params>(), detail::compiled_kernels_of<F, Params>, options,
                                    loc_, args...);
  }

  template <class... A>
    requires(sizeof...(A) == 0 ||
             !std::is_same_v<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A..., int>>>,
                             launch_options>)
  void warmup(A &&...args) const {
    warmup(launch_options{}, std::forward<A>(args)...);
  }

  /// What the kernel compiles to for these arguments and options (Triton's CompiledKernel:
  /// `.asm`, `n_regs`, `n_spills`, `metadata`): the IR after each backend stage, the PTX, the
  /// binary, registers, spills, shared memory and threads (tk::compiled_kernel). For the
  /// launch's device, or without a GPU for the target launch_options::target_arch names; the
  /// arguments are those of a launch (pointers are not dereferenced). Nothing is loaded.
  template <class... A> compiled_kernel compiled(const launch_options &options, A &&...args) const {
    using Params = typename detail::kernel_params<F, detail::launch_arg_t<A>...>::type;
    if constexpr (detail::arguments_fit<F, Params, detail::launch_arg_t<A>...>())
      return detail::compiled_kernel_for<Params>(ref<Params>(), options, loc_, args...);
    else
      return {};
  }

  template <class... A>
    requires(sizeof...(A) == 0 ||
             !std::is_same_v<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A..., int>>>,
                             launch_options>)
  compiled_kernel compiled(A &&...args) const {
    return compiled(launch_options{}, std::forward<A>(args)...);
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
    if constexpr (detail::arguments_fit<F, Params, A...>()) {
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

  /// What the signature-independent launch code (detail/kernel/run.hpp) needs of this kernel,
  /// for parameters `Params`.
  std::uint64_t unspecialized_ = 0; ///< jit_options::do_not_specialize, as a mask
  std::uint64_t unaligned_ = 0;     ///< jit_options::do_not_specialize_on_alignment

  template <class Params> detail::kernel_ref ref() const {
    return {name_,          loc_,      origin_, identity_, &fn_, &detail::call_body<F, Params>,
            unspecialized_, unaligned_};
  }
};

/// Makes a kernel from a callable over TileKit parameters (`tk::ptr<T>`, scalars such as
/// `tk::i32`, `tk::constant<T>`), or over `auto` parameters typed by the launch arguments.
template <class F>
kernel<F> jit(std::string name, F fn, std::source_location loc = std::source_location::current()) {
  return kernel<F>(std::move(name), std::move(fn), loc);
}

/// A kernel specialized on its arguments as `options` say (see jit_options).
template <class F>
kernel<F> jit(std::string name, F fn, const jit_options &options,
              std::source_location loc = std::source_location::current()) {
  return kernel<F>(std::move(name), std::move(fn), options, loc);
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/kernel.ipp>
#endif

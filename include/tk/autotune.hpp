/// @file autotune.hpp
/// `tk::autotune`: Triton's `@triton.autotune`. A kernel is given a list of configs (values for
/// its `tk::tuned` constants, `num_warps`, `num_stages`) and the launch arguments whose values
/// select the best one (the key). The first launch for a key value runs every config, timed
/// with CUDA events after a warm-up (or replayed from a CUDA graph, `use_cuda_graph`), and
/// remembers the fastest, in memory and in the disk cache; later launches with that key go
/// straight to it. `TK_PRINT_AUTOTUNING=1` prints each tuning's table on stderr.
///
///     inline auto softmax_tuned = tk::autotune(softmax, {
///         .configs = {{.num_warps = 4}, {.num_warps = 8}, {.num_warps = 16}},
///         .key = {3},  // n_cols
///     });
///     softmax_tuned.launch(tk::grid(rows), out, in, stride, n_cols, tk::constant(1024));
///
/// `tk::heuristics` (Triton's `@triton.heuristics`) computes constants from the launch's
/// arguments and the chosen config: `tk::heuristic<bool>("EVEN_K")` at the launch takes the value
/// the function named "EVEN_K" returns, with or without autotuning. The options also prune
/// configs before timing (`prune_configs_by`), zero or restore arguments around each timed
/// launch (`reset_to_zero`, `restore_value`), and a config may carry a `pre_hook`.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/env.hpp>
#include <tk/detail/trace/ownership.hpp>
#include <tk/kernel.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tk {

class launch_view;

/// One autotuning candidate: values for the launch's `tk::tuned` constants, by name, and the
/// launch options it sets.
struct config {
  std::vector<std::pair<std::string, std::int64_t>> constants{};
  int num_warps = 4;
  int num_stages = 3;
  /// Called before every launch of this config, while tuning and after (Triton's
  /// `Config(pre_hook=...)`), with a view of the launch: its arguments and this config.
  detail::callback<void(const launch_view &)> pre_hook{};

  /// "BLOCK=1024, num_warps=4, num_stages=3".
  std::string describe() const;
};

namespace detail {

/// A launch argument's or a constant's value, as tk::launch_view shows it.
struct launch_value {
  enum class kind : unsigned char { none, boolean, integer, floating, pointer };
  kind what = kind::none;
  bool is_signed = true;      ///< integer: signed, else `i` holds the bits of a std::uint64_t
  bool is_enum = false;       ///< integer: of the enum `type`
  bool pointee_const = false; ///< pointer: to const
  std::int64_t i = 0;         ///< boolean (0 or 1), integer, enum
  double d = 0;               ///< floating
  const void *p = nullptr;    ///< pointer
  const void *type = nullptr; ///< &type_tag<T> of the value's type (the pointee's, for pointers)
  const char *label = "";     ///< "int", "float" (the pointee's, for pointers), "an enum"
  std::string_view name;      ///< a placeholder's name
  const char *placeholder = nullptr; ///< "tk::tuned", "tk::heuristic", else null
};

/// One address per type, for launch_value::type.
template <class T> inline constexpr char type_tag = 0;

/// The name errors give type `T`.
template <class T> constexpr const char *type_label() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>)
    return "bool";
  else if constexpr (std::is_enum_v<U>)
    return "an enum";
  else if constexpr (std::is_integral_v<U>) {
    constexpr const char *s[] = {"std::int8_t", "std::int16_t", "std::int32_t", "std::int64_t"};
    constexpr const char *u[] = {"std::uint8_t", "std::uint16_t", "std::uint32_t", "std::uint64_t"};
    constexpr int log = sizeof(U) == 1 ? 0 : sizeof(U) == 2 ? 1 : sizeof(U) == 4 ? 2 : 3;
    return std::is_signed_v<U> ? s[log] : u[log];
  } else if constexpr (std::is_same_v<U, float>)
    return "float";
  else if constexpr (std::is_same_v<U, double>)
    return "double";
  else if constexpr (std::is_same_v<U, half>)
    return "tk::half";
  else if constexpr (std::is_same_v<U, bfloat16>)
    return "tk::bfloat16";
  else if constexpr (std::is_void_v<U>)
    return "void";
  else
    return "a value";
}

/// The name errors give type `T`, pointers included: "const float*".
template <class T> std::string type_name() {
  if constexpr (std::is_pointer_v<T>) {
    using E = std::remove_pointer_t<T>;
    return std::string(std::is_const_v<E> ? "const " : "") + type_label<std::remove_cv_t<E>>() +
           "*";
  } else {
    return std::is_enum_v<T> ? "enum" : type_label<T>();
  }
}

/// `v` as a launch_value: a number, a bool, an enum or a pointer.
template <class V> launch_value value_of(const V &v) {
  launch_value r;
  if constexpr (std::is_null_pointer_v<V>) {
    r.what = launch_value::kind::pointer;
    r.label = "std::nullptr_t";
  } else if constexpr (std::is_pointer_v<V>) {
    using E = std::remove_volatile_t<std::remove_pointer_t<V>>;
    r.what = launch_value::kind::pointer;
    r.p = static_cast<const void *>(const_cast<const E *>(v));
    r.type = &type_tag<std::remove_cv_t<E>>;
    r.label = type_label<E>();
    r.pointee_const = std::is_const_v<E>;
  } else if constexpr (std::is_same_v<V, bool>) {
    r.what = launch_value::kind::boolean;
    r.i = v ? 1 : 0;
    r.label = "bool";
  } else if constexpr (std::is_enum_v<V>) {
    r.what = launch_value::kind::integer;
    r.is_enum = true;
    r.i = static_cast<std::int64_t>(v);
    r.type = &type_tag<V>;
    r.label = "an enum";
  } else if constexpr (std::is_integral_v<V>) {
    r.what = launch_value::kind::integer;
    r.is_signed = std::is_signed_v<V>;
    r.i = static_cast<std::int64_t>(v);
    r.type = &type_tag<V>;
    r.label = type_label<V>();
  } else if constexpr (std::is_floating_point_v<V>) {
    r.what = launch_value::kind::floating;
    r.d = static_cast<double>(v);
    r.label = type_label<V>();
  } else {
    static_assert(std::is_convertible_v<V, float>, "tk: a launch value is a number or a pointer");
    r.what = launch_value::kind::floating;
    r.d = static_cast<double>(static_cast<float>(v));
    r.label = type_label<V>();
  }
  return r;
}

enum class conversion { ok, wrong_type, out_of_range };

/// `v` as a `T` in `out`: a bool from a bool, an integer from an integer that fits, an enum from
/// the same enum, a floating-point number from a number, a pointer from a pointer to the same
/// element type (adding const, or to void).
template <class T> conversion convert_value(const launch_value &v, T &out) {
  using K = launch_value::kind;
  if constexpr (std::is_same_v<T, bool>) {
    if (v.what != K::boolean)
      return conversion::wrong_type;
    out = v.i != 0;
  } else if constexpr (std::is_pointer_v<T>) {
    using E = std::remove_pointer_t<T>;
    if (v.what != K::pointer || (v.pointee_const && !std::is_const_v<E>))
      return conversion::wrong_type;
    if (!std::is_void_v<E> && v.type && v.type != &type_tag<std::remove_cv_t<E>>)
      return conversion::wrong_type;
    out = static_cast<T>(const_cast<void *>(v.p));
  } else if constexpr (std::is_enum_v<T>) {
    if (v.what != K::integer || v.type != &type_tag<T>)
      return conversion::wrong_type;
    out = static_cast<T>(v.i);
  } else if constexpr (std::is_integral_v<T>) {
    if (v.what != K::integer || v.is_enum)
      return conversion::wrong_type;
    const bool fits = v.is_signed ? std::in_range<T>(v.i) : std::in_range<T>(std::uint64_t(v.i));
    if (!fits)
      return conversion::out_of_range;
    out = static_cast<T>(v.i);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (v.what == K::floating)
      out = static_cast<T>(v.d);
    else if (v.what == K::integer && !v.is_enum)
      out = v.is_signed ? static_cast<T>(v.i) : static_cast<T>(std::uint64_t(v.i));
    else
      return conversion::wrong_type;
  } else {
    static_assert(std::is_pointer_v<T>, "tk::launch_view: read a value as a bool, an integer, an "
                                        "enum, a floating-point type or a pointer");
  }
  return conversion::ok;
}

/// "a float*", "the std::int32_t 300", "tk::tuned(\"BLOCK\"), which has no value here".
TK_DECL std::string describe_launch_value(const launch_value &v);

/// The error for launch_view::arg<T>(index) or constant<T>(name) (`what`: "arg<float>(2)")
/// when the value does not convert.
[[noreturn]] TK_DECL void bad_view_read(const std::string &kernel, const std::string &what,
                                        const launch_value &v, conversion why,
                                        const std::string &want, std::source_location where);

/// Whether `Fn` is a std::function-like wrapper that can be empty.
template <class Fn>
concept nullable_function = std::is_pointer_v<Fn> || requires(const Fn &f) {
  typename Fn::result_type;
  static_cast<bool>(f);
};

} // namespace detail

/// What a heuristic, a perf model, an early_config_prune function or a config's pre_hook sees of
/// a launch (Triton's `args` dict): the launch arguments by index, and the constants of the
/// config and of the heuristics computed so far by name. Valid only during the call it is
/// passed to. Reads are typed; a value of another type, or one that does not fit, is an error
/// naming the line of the read.
class launch_view {
public:
  launch_view(std::span<const detail::launch_value> args, const config *c, std::string_view kernel)
      : args_(args), config_(c), kernel_(kernel) {}

  /// The number of launch arguments.
  std::size_t size() const { return args_.size(); }

  /// Launch argument `index` as a `T`: `arg<int>(2)`, `arg<float *>(0)` (a buffer argument is
  /// its `data()` pointer), `arg<bool>(4)`. A `tk::constant` argument reads as its value, a
  /// `tk::tuned` or `tk::heuristic` placeholder as its value in this launch (once known).
  template <class T>
  T arg(std::size_t index, std::source_location where = std::source_location::current()) const {
    T out{};
    const detail::launch_value &v = index < args_.size() ? args_[index] : no_argument(index, where);
    if (const detail::conversion c = detail::convert_value(v, out); c != detail::conversion::ok)
      detail::bad_view_read(std::string(kernel_),
                            "arg<" + detail::type_name<T>() + ">(" + std::to_string(index) + ")", v,
                            c, detail::type_name<T>(), where);
    return out;
  }

  /// The constant `name` as a `T` (an integer by default): the config's value, or the value of
  /// a heuristic computed before this one.
  template <class T = std::int64_t>
  T constant(std::string_view name,
             std::source_location where = std::source_location::current()) const {
    T out{};
    const detail::launch_value v = find_constant(name, where);
    if (const detail::conversion c = detail::convert_value(v, out); c != detail::conversion::ok)
      detail::bad_view_read(std::string(kernel_),
                            "constant<" + detail::type_name<T>() + ">(\"" + std::string(name) +
                                "\")",
                            v, c, detail::type_name<T>(), where);
    return out;
  }

  /// Whether `constant(name)` has a value here.
  TK_DECL bool has_constant(std::string_view name) const;

  /// The config this launch runs, or null (a launch through tk::heuristics alone, or
  /// early_config_prune, which sees every config).
  const config *current_config() const { return config_; }

  std::string_view kernel_name() const { return kernel_; }

private:
  std::span<const detail::launch_value> args_;
  const config *config_ = nullptr;
  std::string_view kernel_;

  [[noreturn]] TK_DECL const detail::launch_value &no_argument(std::size_t index,
                                                               std::source_location where) const;
  TK_DECL detail::launch_value find_constant(std::string_view name,
                                             std::source_location where) const;
};

/// A grid callable of an autotuned launch that reads the launch's constants by name, as
/// Triton's `grid = lambda META: (triton.cdiv(n, META['BLOCK']),)`: a callable (not a generic
/// lambda) of a `const tk::launch_view &` that returns a tk::grid, called for each config with
/// that config's view: `[&](const tk::launch_view &meta) { return tk::grid(tk::cdiv(n,
/// meta.constant<int>("BLOCK"))); }`.
template <class G>
concept launch_view_grid = requires { &std::remove_cvref_t<G>::operator(); } &&
                           std::is_invocable_r_v<grid, const G &, const launch_view &>;

/// A placeholder for a `tk::constant` argument whose value a heuristic computes (`tk::heuristics`,
/// `autotune_options::heuristics`): `tk::heuristic<bool>("EVEN_K")` takes the value of the
/// function named "EVEN_K". Errors about it name the place it was written.
template <class T> struct heuristic {
  static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>,
                "tk: a tk::heuristic<T> constant must be a bool, an integer, an enum or a "
                "floating-point type");
  std::string_view name;
  std::source_location loc;
  constexpr heuristic(std::string_view constant_name,
                      std::source_location where = std::source_location::current())
      : name(constant_name), loc(where) {}
};

/// One heuristic: the constant `name` and the function computing it from a `tk::launch_view`
/// (Triton's `'EVEN_K': lambda args: ...`). The function returns a bool, an integer, an enum or
/// a floating-point number, of the type its `tk::heuristic<T>` placeholder takes (an integer of
/// any type for an integer placeholder, if the value fits; a number for a floating-point one).
struct heuristic_rule {
  template <class Fn>
  heuristic_rule(std::string constant_name, Fn fn) // NOLINT: {"NAME", function} in a list
      : name(std::move(constant_name)) {
    if constexpr (!std::is_null_pointer_v<Fn>) {
      constexpr bool invocable = std::is_invocable_v<Fn &, const launch_view &>;
      static_assert(invocable, "tk::heuristics: a heuristic is a function of a const "
                               "tk::launch_view & (the launch's arguments and constants)");
      if constexpr (invocable) {
        using R = std::remove_cvref_t<std::invoke_result_t<Fn &, const launch_view &>>;
        constexpr bool value = std::is_arithmetic_v<R> || std::is_enum_v<R>;
        static_assert(value, "tk::heuristics: a heuristic returns a bool, an integer, an enum or "
                             "a floating-point number");
        if constexpr (value) {
          if constexpr (detail::nullable_function<Fn>)
            if (!static_cast<bool>(fn))
              return; // no function: an error where the heuristics are given
          function = [f = std::move(fn)](const launch_view &v) mutable {
            return detail::value_of(static_cast<R>(f(v)));
          };
        }
      }
    }
  }

  std::string name;
  detail::callback<detail::launch_value(const launch_view &)> function{};
};

/// How many configs the perf model keeps (Triton's `top_k`): a count (`3`) or a fraction of the
/// configs (`0.25`, at least one config). The default, `1.0`, keeps them all.
struct configs_top_k {
  configs_top_k(int count) : count_(count), fraction_(0), is_fraction_(false) {}         // NOLINT
  configs_top_k(double fraction) : count_(0), fraction_(fraction), is_fraction_(true) {} // NOLINT
  bool is_fraction() const { return is_fraction_; }
  int count() const { return count_; }
  double fraction() const { return fraction_; }
  /// How many of `n` configs are kept.
  std::size_t of(std::size_t n) const {
    if (!is_fraction_)
      return std::size_t(count_);
    const auto k = std::size_t(double(n) * fraction_);
    return k < 1 ? 1 : k;
  }

private:
  int count_;
  double fraction_;
  bool is_fraction_;
};

/// Pruning before timing (Triton's `prune_configs_by`): `early_config_prune` first, then the
/// `top_k` configs the perf model estimates fastest, when there are more.
struct prune_options {
  /// The estimated time of a config (any unit, lower is faster); the view reads the config's
  /// constants and the launch arguments.
  detail::callback<double(const config &, const launch_view &)> perf_model{};
  configs_top_k top_k = 1.0;
  /// The configs worth timing, from all of them: at least one.
  detail::callback<std::vector<config>(const std::vector<config> &, const launch_view &)>
      early_config_prune{};
};

/// What `tk::autotune` tunes over and how.
struct autotune_options {
  /// The candidates, tried in order; the first wins ties, and is the one the interpreter uses.
  std::vector<config> configs{};
  /// The indices of the launch arguments whose values select the best config (Triton's `key`).
  /// Launches that differ elsewhere only in what the kernel specializes on (a pointer's
  /// alignment, an integer's divisibility by 16) are tuned separately too.
  std::vector<int> key{};
  /// Milliseconds of warm-up and of timed launches per config.
  double warmup_ms = 10;
  double repeat_ms = 40;
  /// Replaces the CUDA-event timing: called once per config with the config and a function
  /// that launches it, it returns that launch's time in any unit (lower is better). With it,
  /// tuning also runs on the interpreter.
  detail::callback<double(const config &, detail::function_ref<void()> launch)> bench{};
  /// Called before and after each launch that tuning makes (not the launch that follows it), with
  /// the config launched, as Triton's pre_hook and post_hook. Work a hook queues on the launch's
  /// stream is timed with the launch, for every config alike. For the usual cases, zeroing or
  /// restoring an argument, see reset_to_zero and restore_value.
  detail::callback<void(const config &)> pre_hook{};
  detail::callback<void(const config &)> post_hook{};
  /// Configs dropped before timing (Triton's `prune_configs_by`).
  prune_options prune_configs_by{};
  /// Launch arguments (by index) set to zero before each launch that tuning makes and once
  /// before the launch after it (Triton's `reset_to_zero`): buffers (std::vector, std::span,
  /// tk::device_buffer), whose size says how many bytes.
  std::vector<int> reset_to_zero{};
  /// Launch arguments (by index, buffers) saved before tuning and put back after each launch it
  /// makes (Triton's `restore_value`), so the launch after tuning starts from the caller's data.
  std::vector<int> restore_value{};
  /// Time each config by replaying a CUDA graph of its launches, which leaves out the launch
  /// overhead of short kernels (Triton's `use_cuda_graph`); CUDA events where graphs cannot be
  /// used (TK_PRINT_AUTOTUNING says why).
  bool use_cuda_graph = false;
  /// Constants computed for each launch from its arguments and the chosen config's constants
  /// (Triton's `@triton.heuristics`), taken by `tk::heuristic<T>("NAME")` placeholders.
  std::vector<heuristic_rule> heuristics{};
};

namespace detail {

template <class A> inline constexpr bool is_heuristic = false;
template <class T> inline constexpr bool is_heuristic<heuristic<T>> = true;
/// Whether `A` is a placeholder a tuned launch fills: tk::tuned or tk::heuristic.
template <class A> inline constexpr bool is_placeholder = is_tuned<A> || is_heuristic<A>;

/// The launch argument type a kernel receives in place of `A`: a placeholder (`tk::tuned<T>`,
/// `tk::heuristic<T>`) becomes `tk::constant<T>`, a buffer its element pointer.
template <class A> struct tuned_substitute {
  using type = A;
};
template <class T> struct tuned_substitute<tuned<T>> {
  using type = constant<T>;
};
template <class T> struct tuned_substitute<heuristic<T>> {
  using type = constant<T>;
};
template <class A>
using substituted =
    std::conditional_t<is_placeholder<std::remove_cvref_t<A>>,
                       typename tuned_substitute<std::remove_cvref_t<A>>::type, launch_arg_t<A>>;

/// A placeholder's value type.
template <class A> using placeholder_value_t = std::remove_cvref_t<decltype(substituted<A>::value)>;

/// `a` itself (a buffer stays a buffer, by reference), or for a placeholder the constant whose
/// value `bits` holds (a floating-point heuristic's as the bits of a double).
template <class A> decltype(auto) substitute(A &a, std::int64_t bits) {
  using B = std::remove_cv_t<A>;
  if constexpr (is_placeholder<B>) {
    using T = placeholder_value_t<B>;
    if constexpr (std::is_floating_point_v<T>)
      return constant<T>(static_cast<T>(std::bit_cast<double>(bits)));
    else
      return constant<T>(static_cast<T>(bits));
  } else {
    (void)bits;
    return (a);
  }
}

/// What a launch argument contributes to the tuning key: its value (a buffer's pointer), a
/// placeholder's constant of value 0.
template <class A> auto key_argument(const A &a) {
  if constexpr (is_placeholder<A>)
    return constant<placeholder_value_t<A>>(placeholder_value_t<A>{});
  else if constexpr (buffer_kind<A> != 0)
    return a.data();
  else
    return a;
}

/// Whether `A` is a tk::host_tensor_descriptor.
template <class A> inline constexpr bool is_host_descriptor = host_descriptor_arg<A>::rank != 0;

/// A host descriptor's word in a tuning key: its launch arguments' specialization words (`value`
/// false) or values (a key argument), a tk::tuned block dimension counting as 0, mixed.
template <class D> std::uint64_t descriptor_word(const D &d, std::size_t index, bool value) {
  std::array<launch_argument, 2 * D::rank + 1> parts;
  d.describe_parts(parts.data(), index);
  std::uint64_t word = 0xcbf29ce484222325; // FNV-1a over the words
  for (const launch_argument &a : parts) {
    word ^= value ? std::uint64_t(a.i) ^ a.bits : specialization_word(a);
    word *= 0x100000001b3;
  }
  return word;
}

/// Launch argument `a` as a tk::launch_view shows it; a placeholder without its value yet.
template <class A> launch_value view_value(const A &a) {
  if constexpr (is_host_descriptor<A>) {
    launch_value r;
    r.label = "tk::host_tensor_descriptor";
    return r;
  } else if constexpr (is_placeholder<A>) {
    launch_value r;
    r.name = a.name;
    r.placeholder = is_tuned<A> ? "tk::tuned" : "tk::heuristic";
    r.label = type_label<placeholder_value_t<A>>();
    return r;
  } else if constexpr (buffer_kind<A> != 0) {
    return value_of(a.data());
  } else {
    return value_of(unwrap_constant(a));
  }
}

/// A placeholder's launch_value once its value, `bits` (see substitute), is known.
template <class A> launch_value placeholder_value(const A &a, std::int64_t bits) {
  using T = placeholder_value_t<A>;
  launch_value r;
  if constexpr (std::is_floating_point_v<T>)
    r = value_of(static_cast<T>(std::bit_cast<double>(bits)));
  else
    r = value_of(static_cast<T>(bits));
  r.name = a.name;
  r.placeholder = is_tuned<A> ? "tk::tuned" : "tk::heuristic";
  return r;
}

/// The bits substitute takes for a heuristic's `value`, converted to the placeholder's type `T`;
/// an error at the placeholder when the value is of another kind or does not fit.
template <class T>
std::int64_t heuristic_bits(const launch_value &value, const std::string &kernel,
                            std::string_view name, std::size_t index, std::source_location loc) {
  T out{};
  const conversion c = convert_value(value, out);
  if (c != conversion::ok)
    fail(loc, "tk::heuristic<", type_label<T>(), ">(\"", name, "\"), launch argument ", index,
         " of kernel '", kernel, "', takes ",
         std::is_enum_v<T> ? std::string("that enum") : std::string("a ") + type_label<T>(),
         ", but its function returned ", describe_launch_value(value),
         c == conversion::out_of_range ? ", which does not fit" : "");
  if constexpr (std::is_floating_point_v<T>)
    return std::bit_cast<std::int64_t>(static_cast<double>(out));
  else
    return static_cast<std::int64_t>(out);
}

/// The bytes of a buffer argument that reset_to_zero or restore_value names.
struct memory_target {
  std::uintptr_t address = 0;
  std::size_t bytes = 0;
  bool device = false; ///< GPU memory, else host memory (the interpreter's)
  bool span = false;   ///< a std::span or std::vector: its size is the caller's word
  std::size_t index = 0;
};

/// Sets the target's bytes to zero: on the host, or on the GPU queued on `s` where it can be
/// (whole 4-byte words), else synchronously.
TK_DECL void zero_memory(const memory_target &t, cu::stream s, std::source_location where);
/// A copy of the target's bytes, after the work queued on `s`.
TK_DECL std::vector<unsigned char> save_memory(const memory_target &t, cu::stream s,
                                               std::source_location where);
/// Writes `saved` back to the target, after the work queued on `s`.
TK_DECL void restore_memory(const memory_target &t, const std::vector<unsigned char> &saved,
                            cu::stream s, std::source_location where);
/// Checks that a std::span's or std::vector's bytes on the GPU lie within one allocation, where
/// the driver can tell (`what`: "reset_to_zero").
TK_DECL void check_span_extent(const memory_target &t, const char *what, const std::string &kernel,
                               std::source_location where);

/// Why tuning cannot time with a CUDA graph (""when it can): the driver lacks graphs, hooks run
/// on the host, restore_value copies through the host, reset_to_zero is not in whole words.
TK_DECL std::string cuda_graph_unavailable(const cu::driver &driver, bool host_hooks, bool restores,
                                           const std::vector<memory_target> &resets);

/// Median time per launch of `run` (which launches on the stream it is given), in ms: a CUDA
/// graph of `repeat_ms` worth of launches, captured on a stream of its own, replayed 10 times.
TK_DECL double time_with_graph(const cu::driver &driver, cu::stream s, double repeat_ms,
                               function_ref<void(cu::stream)> run, std::source_location where);

/// The tuning choice for one key: the config and the value of each argument's placeholder.
template <std::size_t N> struct tuning_choice {
  config chosen{};
  std::array<std::int64_t, N> values{};
};

/// What tunings are remembered by: the tuner, the context and per argument one word (a key
/// argument's value bits, else its specialization_word, kernel/run.hpp).
template <std::size_t N> struct tuning_key {
  std::uint64_t tuner = 0; ///< the tuner object's new_identity()
  cu::context context = nullptr;
  std::array<std::uint64_t, N> words{};
  std::uint64_t target_arch = 0; ///< arch_word of the target the launches ask for (launch.hpp)
  bool operator==(const tuning_key &) const = default;
};

/// The bits of a key argument's value.
template <class A> std::uint64_t value_word(const A &a) {
  const auto v = unwrap_constant(a);
  using V = std::remove_cvref_t<decltype(v)>;
  if constexpr (std::is_pointer_v<V>) {
    return reinterpret_cast<std::uintptr_t>(v);
  } else if constexpr (std::is_enum_v<V>) {
    return static_cast<std::uint64_t>(v);
  } else {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(V) < 8 ? sizeof(V) : 8);
    return bits;
  }
}

/// describe_value of a number, a bool, an enum or a pointer.
template <class V> std::string describe_number(const V &v) {
  if constexpr (std::is_pointer_v<V>) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", static_cast<const void *>(v));
    return text;
  } else if constexpr (std::is_same_v<V, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_integral_v<V> || std::is_enum_v<V>) {
    return std::to_string(static_cast<long long>(v));
  } else {
    char text[32];
    std::snprintf(text, sizeof text, "%g", double(v));
    return text;
  }
}

/// "1000", "0.5", "0x7f00...", "a descriptor of [4096, 4096]" for the tuning table.
template <class A> std::string describe_value(const A &a) {
  if constexpr (is_host_descriptor<A>) {
    std::string shape;
    for (std::int64_t n : a.shape())
      shape += (shape.empty() ? "" : ", ") + std::to_string(n);
    return "a descriptor of [" + shape + "]";
  } else {
    return describe_number(unwrap_constant(a));
  }
}

/// The result of timing every config: the time of each (NaN where it failed, with the error)
/// and the best.
struct tuning_table {
  std::vector<double> times;
  std::vector<std::string> errors;
  std::size_t best = 0;
};

/// The index of the fastest config (the first among equals); `times.size()` when all failed.
TK_DECL std::size_t fastest(const std::vector<double> &times);

/// The disk-cache payload of a tuning: "tk-autotune 1", the best index, then one time a line.
TK_DECL std::string serialize(const tuning_table &t);

/// The tuning a payload holds, if it is well formed and has `configs` times.
TK_DECL std::optional<tuning_table> deserialize_tuning(std::string_view s, std::size_t configs);

/// The pointers and sizes of `key`'s parts, as tk_cache_load and tk_cache_store take them.
struct tuning_key_parts {
  std::vector<const char *> parts;
  std::vector<std::size_t> sizes;
  TK_DECL explicit tuning_key_parts(const std::vector<std::string> &key);
};

/// The tuning the backend's disk cache holds for `key`, if any.
TK_DECL std::optional<std::string> load_tuning(const backend_library &backend,
                                               const std::vector<std::string> &key);

/// Stores a tuning in the backend's disk cache (nothing happens when it cannot be written).
TK_DECL void store_tuning(const backend_library &backend, const std::vector<std::string> &key,
                          const std::string &payload);

/// The table TK_PRINT_AUTOTUNING prints.
TK_DECL std::string format_tuning(const std::string &kernel, const std::string &where,
                                  const std::string &key, const std::vector<config> &configs,
                                  const tuning_table &t, const char *source);

TK_DECL bool print_autotuning();

/// Median time per launch of `run`, in milliseconds, with CUDA events on `s`: an estimate from
/// 5 launches, `warmup_ms` of warm-up, then 10 batches filling `repeat_ms`.
TK_DECL double time_with_events(const cu::driver &driver, cu::stream s, double warmup_ms,
                                double repeat_ms, function_ref<void()> run,
                                std::source_location where);

} // namespace detail

template <class F> class with_heuristics;

/// A kernel launched through autotuning (see tk::autotune).
template <class F> class autotuned {
public:
  autotuned(kernel<F> k, autotune_options options,
            std::source_location loc = std::source_location::current())
      : kernel_(std::move(k)), options_(std::move(options)), loc_(loc) {
    if (options_.configs.empty())
      detail::fail(loc, "tk::autotune of kernel '", kernel_.name(), "' has no configs");
    check_heuristics(loc);
    for (std::size_t i = 0; i < options_.key.size(); ++i) {
      const int k = options_.key[i];
      if (k < 0 || k >= 64)
        detail::fail(loc, "tk::autotune of kernel '", kernel_.name(), "': key argument index ", k,
                     " is not a launch argument's index");
      if (key_mask_ & (std::uint64_t{1} << k))
        detail::fail(loc, "tk::autotune of kernel '", kernel_.name(), "': key argument ", k,
                     " is listed twice");
      key_mask_ |= std::uint64_t{1} << k;
    }
    const configs_top_k &top = options_.prune_configs_by.top_k;
    if (top.is_fraction() ? !(top.fraction() > 0 && top.fraction() <= 1) : top.count() < 1)
      detail::fail(loc, "tk::autotune of kernel '", kernel_.name(), "': prune_configs_by.top_k is ",
                   top.is_fraction() ? std::to_string(top.fraction()) : std::to_string(top.count()),
                   "; it must be a number of configs (an int, at least 1) or a fraction in (0, 1]");
    std::uint64_t resets = 0;
    for (const auto &[list, list_name] : {std::pair{&options_.reset_to_zero, "reset_to_zero"},
                                          std::pair{&options_.restore_value, "restore_value"}}) {
      std::uint64_t seen = 0;
      for (const int k : *list) {
        if (k < 0 || k >= 64)
          detail::fail(loc, "tk::autotune of kernel '", kernel_.name(), "': ", list_name,
                       " argument index ", k, " is not a launch argument's index");
        const std::uint64_t bit = std::uint64_t{1} << k;
        if (seen & bit)
          detail::fail(loc, "tk::autotune of kernel '", kernel_.name(), "': ", list_name,
                       " argument ", k, " is listed twice");
        if (list == &options_.restore_value && (resets & bit))
          detail::fail(loc, "tk::autotune of kernel '", kernel_.name(), "': argument ", k,
                       " is in both reset_to_zero and restore_value");
        seen |= bit;
      }
      resets = seen;
    }
  }

  const kernel<F> &base() const { return kernel_; }
  const autotune_options &options() const { return options_; }

  /// Launches the kernel over `g` (a tk::grid; a grid callable as for kernel::launch, called
  /// with the constants of the config it runs; or a launch_view_grid, called with the view of
  /// the launch, whose constants it reads by name) with the best config for these arguments,
  /// tuning first if this key has not been tuned. `options`' stream and backend are honoured;
  /// the config sets num_warps and num_stages. Buffers (std::vector, std::span,
  /// tk::device_buffer) are taken by reference, as kernel::launch takes them.
  template <class G, class... A>
  void launch(const G &g, const launch_options &options, A &&...args) const {
    static_assert(sizeof...(A) <= 64, "tk::autotune: at most 64 launch arguments");
    using Params = typename detail::kernel_params<F, detail::substituted<A>...>::type;
    if constexpr (std::tuple_size_v<Params> != sizeof...(A))
      // kernel::launch reports the wrong argument count.
      kernel_.launch(grid_without_view(g), options, detail::substitute(args, 0)...);
    else
      launch_tuned<Params>(g, options, std::index_sequence_for<A...>{}, args...);
  }

  template <class G, class... A>
    requires(sizeof...(A) == 0 ||
             !std::is_same_v<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A..., int>>>,
                             launch_options>)
  void launch(const G &g, A &&...args) const {
    launch(g, launch_options{}, std::forward<A>(args)...);
  }

  /// The kernel traced for config `c` (its constants and heuristics filled in), as `tk` MLIR.
  template <class... A> std::string ir(const config &c, A &&...args) const {
    return ir_of(c, std::index_sequence_for<A...>{}, args...);
  }

private:
  template <class> friend class with_heuristics;
  struct heuristics_only {};

  /// A launcher of `rules` alone (tk::heuristics without autotuning): one config, which sets
  /// nothing, and no tuning.
  autotuned(kernel<F> k, std::vector<heuristic_rule> rules, std::source_location loc,
            heuristics_only)
      : kernel_(std::move(k)), loc_(loc), heuristics_only_(true) {
    options_.configs = {config{}};
    options_.heuristics = std::move(rules);
    check_heuristics(loc);
  }

  kernel<F> kernel_;
  std::uint64_t identity_ = detail::new_identity(); ///< what the tuning cache keys it on
  autotune_options options_;
  std::source_location loc_;
  std::uint64_t key_mask_ = 0; ///< bit i: launch argument i is part of the key
  bool heuristics_only_ = false;

  bool is_key(std::size_t i) const { return (key_mask_ >> i) & 1; }
  const char *what() const { return heuristics_only_ ? "tk::heuristics" : "tk::autotune"; }

  /// Errors in config `c` (`from`: "" or " returned by early_config_prune") at `loc`.
  void check_config(const config &c, std::size_t i, const char *from,
                    std::source_location loc) const {
    if (const std::string why = detail::invalid_code_options(c.num_warps, c.num_stages);
        !why.empty())
      detail::fail(loc, "tk::autotune config ", i, from, " of kernel '", kernel_.name(),
                   "': ", why);
    for (std::size_t j = 0; j < c.constants.size(); ++j) {
      for (std::size_t k = 0; k < j; ++k)
        if (c.constants[j].first == c.constants[k].first)
          detail::fail(loc, "tk::autotune config ", i, from, " of kernel '", kernel_.name(),
                       "' sets \"", c.constants[j].first, "\" twice");
      for (const heuristic_rule &h : options_.heuristics)
        if (h.name == c.constants[j].first)
          detail::fail(loc, "tk::autotune config ", i, from, " of kernel '", kernel_.name(),
                       "' sets \"", h.name, "\", which a heuristic computes");
    }
  }

  void check_heuristics(std::source_location loc) const {
    for (std::size_t i = 0; i < options_.heuristics.size(); ++i) {
      const heuristic_rule &h = options_.heuristics[i];
      if (!h.function)
        detail::fail(loc, what(), " of kernel '", kernel_.name(), "': heuristic \"", h.name,
                     "\" has no function");
      for (std::size_t j = 0; j < i; ++j)
        if (options_.heuristics[j].name == h.name)
          detail::fail(loc, what(), " of kernel '", kernel_.name(), "': heuristic \"", h.name,
                       "\" is given twice");
    }
    if (heuristics_only_)
      return;
    for (std::size_t i = 0; i < options_.configs.size(); ++i)
      check_config(options_.configs[i], i, "", loc);
  }

  /// The tunings of launches with these argument types (whatever the grid's type).
  template <class... A>
  static detail::launch_cache<detail::tuning_key<sizeof...(A)>,
                              detail::tuning_choice<sizeof...(A)>> &
  tunings() {
    static detail::launch_cache<detail::tuning_key<sizeof...(A)>,
                                detail::tuning_choice<sizeof...(A)>>
        cache;
    return cache;
  }

  template <class Params, class G, class... A, std::size_t... I>
  void launch_tuned(const G &g, const launch_options &options, std::index_sequence<I...> seq,
                    A &...args) const {
    constexpr std::size_t N = sizeof...(A);
    const std::source_location where = location(args...);
    check_key<std::remove_cv_t<A>...>(seq, where);
    if (heuristics_only_) {
      run(options_.configs[0], values_of(options_.configs[0], 0, seq, args...), g, options, nullptr,
          seq, args...);
      return;
    }
    const bool interpret = detail::interprets(options);
    auto &cache = tunings<std::remove_cv_t<A>...>();
    detail::tuning_key<N> key{identity_, nullptr, {}};
    // launch_options::device: tuned (events, streams, hooks' copies) and launched in that
    // device's context, which is current until the launch returns; tunings are per device.
    std::optional<detail::cu::scoped_context> on_device;
    if (!interpret) {
      const detail::cu::driver &driver = detail::gpu_driver(kernel_.name(), where);
      key.context = options.device < 0 ? driver.launch_context(where)
                                       : driver.device_context(options.device, where);
      if (options.device >= 0)
        on_device.emplace(driver, key.context, where);
      key.target_arch = detail::arch_word(detail::requested_target_arch(options.target_arch).name);
    }
    key.words = {key_word<std::tuple_element_t<I, Params>>(args, I, where)...};
    const detail::tuning_choice<N> &choice = cache.get(
        key, [&] { return tune<Params>(g, options, interpret, key, where, seq, args...); });
    run(choice.chosen, choice.values, g, options, nullptr, seq, args...);
  }

  /// Launch argument `a`'s word in the tuning key (of parameter type `P`): a key argument's
  /// value bits, else what the kernel specializes on; 0 for a placeholder.
  template <class P, class A>
  std::uint64_t key_word(const A &a, std::size_t index, std::source_location where) const {
    if constexpr (detail::is_host_descriptor<A>)
      return detail::descriptor_word(a, index, is_key(index));
    else if constexpr (detail::is_placeholder<A>)
      return 0;
    else if (is_key(index))
      return detail::value_word(detail::key_argument(a));
    else
      return detail::specialization_word(
          detail::describe<P>(detail::key_argument(a), index, where));
  }

  /// Launch argument `a` as config `c` passes it to the kernel: a placeholder as the constant
  /// `bits` holds, a host descriptor with its tk::tuned block dimensions set, else `a` itself.
  template <class A> decltype(auto) argument(const config &c, A &a, std::int64_t bits) const {
    if constexpr (detail::is_host_descriptor<std::remove_cv_t<A>>) {
      if (!a.has_tuned_block())
        return std::remove_cv_t<A>(a);
      std::array<std::int64_t, A::rank> block{};
      for (std::size_t d = 0; d < A::rank; ++d)
        for (const auto &[name, value] : c.constants)
          if (!a.tuned_dimension(d).empty() && name == a.tuned_dimension(d))
            block[d] = value;
      return a.with_tuned_block(block);
    } else {
      return detail::substitute(a, bits);
    }
  }

  /// What a launch around which tuning zeroes and restores memory needs.
  struct tuning_memory {
    std::vector<detail::memory_target> resets, restores;
    std::vector<std::vector<unsigned char>> saved;
  };

  /// Every placeholder's value for config `c`: the config's for tk::tuned, the heuristics' for
  /// tk::heuristic (computed in order, each seeing those before it). `view` receives the
  /// arguments as a launch_view shows them.
  template <class... A, std::size_t... I>
  std::array<std::int64_t, sizeof...(A)>
  resolve(const config &c, const std::array<std::int64_t, sizeof...(A)> &tuned,
          std::array<detail::launch_value, sizeof...(A)> &view, std::index_sequence<I...>,
          A &...args) const {
    std::array<std::int64_t, sizeof...(A)> values = tuned;
    view = {detail::view_value(std::as_const(args))...};
    (
        [&](std::size_t i, const auto &a) {
          if constexpr (detail::is_tuned<std::remove_cvref_t<decltype(a)>>)
            view[i] = detail::placeholder_value(a, tuned[i]);
        }(I, args),
        ...);
    if (options_.heuristics.empty() && !(... || detail::is_heuristic<std::remove_cv_t<A>>))
      return values;
    // A placeholder without a heuristic, then each heuristic in order.
    std::string names;
    for (const heuristic_rule &h : options_.heuristics)
      names += (names.empty() ? "\"" : ", \"") + h.name + "\"";
    (
        [&](std::size_t i, const auto &a) {
          if constexpr (detail::is_heuristic<std::remove_cvref_t<decltype(a)>>) {
            for (const heuristic_rule &h : options_.heuristics)
              if (h.name == a.name)
                return;
            detail::fail(a.loc, "tk::heuristic(\"", a.name, "\"), launch argument ", i,
                         ", has no function: ", what(), " of kernel '", kernel_.name(), "' ",
                         names.empty() ? std::string("gives no heuristics") : "computes " + names);
          }
        }(I, args),
        ...);
    const config *shown = heuristics_only_ ? nullptr : &c;
    for (const heuristic_rule &h : options_.heuristics) {
      const detail::launch_value result = h.function(launch_view(view, shown, kernel_.name()));
      bool named = false;
      (
          [&](std::size_t i, const auto &a) {
            using P = std::remove_cvref_t<decltype(a)>;
            if constexpr (detail::is_heuristic<P>)
              if (a.name == h.name) {
                values[i] = detail::heuristic_bits<detail::placeholder_value_t<P>>(
                    result, kernel_.name(), a.name, i, a.loc);
                view[i] = detail::placeholder_value(a, values[i]);
                named = true;
              }
          }(I, args),
          ...);
      if (!named) {
        std::string taken;
        (
            [&](const auto &a) {
              if constexpr (detail::is_heuristic<std::remove_cvref_t<decltype(a)>>)
                taken += (taken.empty() ? "\"" : ", \"") + std::string(a.name) + "\"";
            }(args),
            ...);
        detail::fail(location(args...), what(), " of kernel '", kernel_.name(),
                     "' computes heuristic \"", h.name,
                     "\", which no tk::heuristic argument of this launch names (",
                     taken.empty() ? std::string("it has none") : "they are " + taken, ")");
      }
    }
    return values;
  }

  /// One launch with config `c`, whose tk::tuned values are `tuned`: the config's pre_hook,
  /// then the kernel. `memory` (while tuning) adds reset_to_zero, the tuner's hooks and
  /// restore_value around it.
  template <class G, class... A, std::size_t... I>
  void run(const config &c, const std::array<std::int64_t, sizeof...(A)> &tuned, const G &g,
           const launch_options &options, const tuning_memory *memory,
           std::index_sequence<I...> seq, A &...args) const {
    std::array<detail::launch_value, sizeof...(A)> view;
    const std::array<std::int64_t, sizeof...(A)> values = resolve(c, tuned, view, seq, args...);
    launch_options o = options;
    if (!heuristics_only_) {
      o.num_warps = c.num_warps;
      o.num_stages = c.num_stages;
    }
    if (c.pre_hook)
      c.pre_hook(launch_view(view, &c, kernel_.name()));
    const auto &launch_grid = grid_of(g, launch_view(view, &c, kernel_.name()));
    if (!memory) {
      kernel_.launch(launch_grid, o, argument(c, args, values[I])...);
      return;
    }
    const auto s = static_cast<detail::cu::stream>(options.stream);
    const std::source_location where = location(args...);
    for (const detail::memory_target &t : memory->resets)
      detail::zero_memory(t, s, where);
    if (options_.pre_hook)
      options_.pre_hook(c);
    try {
      kernel_.launch(launch_grid, o, argument(c, args, values[I])...);
    } catch (...) {
      for (std::size_t r = 0; r < memory->restores.size(); ++r)
        detail::restore_memory(memory->restores[r], memory->saved[r], s, where);
      throw;
    }
    if (options_.post_hook)
      options_.post_hook(c);
    for (std::size_t r = 0; r < memory->restores.size(); ++r)
      detail::restore_memory(memory->restores[r], memory->saved[r], s, where);
  }

  /// The grid of a launch of config `view.current_config()`: a launch_view_grid's, computed from
  /// the view; any other `g` as it is, for kernel::launch to resolve.
  template <class G> static decltype(auto) grid_of(const G &g, const launch_view &view) {
    if constexpr (launch_view_grid<G>)
      return grid(g(view));
    else
      return (g);
  }
  /// `g` where no view is at hand (a launch kernel::launch rejects anyway).
  template <class G> static decltype(auto) grid_without_view(const G &g) {
    if constexpr (launch_view_grid<G>)
      return grid(1);
    else
      return (g);
  }

  template <class... A, std::size_t... I>
  std::string ir_of(const config &c, std::index_sequence<I...> seq, A &...args) const {
    std::array<detail::launch_value, sizeof...(A)> view;
    const auto values = resolve(c, values_of(c, 0, seq, args...), view, seq, args...);
    return kernel_.ir(argument(c, args, values[I])...);
  }

  /// Each tk::tuned placeholder's value in config `c` (number `index`); errors name a
  /// placeholder that the config does not set and a constant the config sets that no
  /// placeholder names.
  template <class... A, std::size_t... I>
  std::array<std::int64_t, sizeof...(A)>
  values_of(const config &cfg, std::size_t c, std::index_sequence<I...>, const A &...args) const {
    std::array<std::int64_t, sizeof...(A)> values{};
    std::vector<bool> used(cfg.constants.size());
    std::string names;
    (
        [&](std::size_t i, const auto &a) {
          if constexpr (detail::is_tuned<std::remove_cvref_t<decltype(a)>>) {
            if (heuristics_only_)
              detail::fail(a.loc, "tk::tuned(\"", a.name, "\"), launch argument ", i, ": kernel '",
                           kernel_.name(),
                           "' is launched through tk::heuristics alone, and only a tk::autotune "
                           "config gives a tk::tuned value");
            names += (names.empty() ? "\"" : ", \"") + std::string(a.name) + "\"";
            for (std::size_t j = 0; j < cfg.constants.size(); ++j)
              if (cfg.constants[j].first == a.name) {
                values[i] = cfg.constants[j].second;
                used[j] = true;
                return;
              }
            detail::fail(a.loc, "tk::autotune config ", c, " of kernel '", kernel_.name(), "' (",
                         cfg.describe(), ") gives no value for tk::tuned(\"", a.name,
                         "\"), launch argument ", i);
          } else if constexpr (detail::is_host_descriptor<std::remove_cvref_t<decltype(a)>>) {
            for (std::size_t d = 0; d < a.rank; ++d)
              if (const std::string_view name = a.tuned_dimension(d); !name.empty())
                tuned_block(cfg, c, name, d, a.tuned_location(d), i, names, used);
          }
        }(I, args),
        ...);
    for (std::size_t j = 0; j < cfg.constants.size(); ++j)
      if (!used[j])
        detail::fail(location(args...), "tk::autotune config ", c, " of kernel '", kernel_.name(),
                     "' sets \"", cfg.constants[j].first,
                     "\", which no tk::tuned argument of this launch names (",
                     names.empty() ? std::string("it has none") : "they are " + names, ")");
    return values;
  }

  /// Checks that config `cfg` (number `c`) gives tk::tuned(`name`), block dimension `d` of the
  /// host descriptor passed as launch argument `i`, a value, and marks that constant used.
  void tuned_block(const config &cfg, std::size_t c, std::string_view name, std::size_t d,
                   std::source_location at, std::size_t i, std::string &names,
                   std::vector<bool> &used) const {
    if (heuristics_only_)
      detail::fail(at, "tk::tuned(\"", name, "\"), block dimension ", d,
                   " of the tk::host_tensor_descriptor passed as launch argument ", i, ": kernel '",
                   kernel_.name(),
                   "' is launched through tk::heuristics alone, and only a tk::autotune config "
                   "gives a tk::tuned value");
    names += (names.empty() ? "\"" : ", \"") + std::string(name) + "\"";
    for (std::size_t j = 0; j < cfg.constants.size(); ++j)
      if (cfg.constants[j].first == name) {
        used[j] = true;
        return;
      }
    detail::fail(at, "tk::autotune config ", c, " of kernel '", kernel_.name(), "' (",
                 cfg.describe(), ") gives no value for tk::tuned(\"", name, "\"), block dimension ",
                 d, " of the tk::host_tensor_descriptor passed as launch argument ", i);
  }

  /// The configs worth timing: early_config_prune's, then the perf model's top_k.
  template <class... A>
  std::vector<config> prune(std::source_location where, const A &...args) const {
    const prune_options &p = options_.prune_configs_by;
    std::vector<config> configs = options_.configs;
    const std::array<detail::launch_value, sizeof...(A)> view{detail::view_value(args)...};
    if (p.early_config_prune) {
      configs = p.early_config_prune(options_.configs, launch_view(view, nullptr, kernel_.name()));
      if (configs.empty())
        detail::fail(where, "tk::autotune of kernel '", kernel_.name(),
                     "': early_config_prune returned no configs; it must keep at least one");
      for (std::size_t i = 0; i < configs.size(); ++i)
        check_config(configs[i], i, " returned by early_config_prune", where);
    }
    const std::size_t k = p.top_k.of(configs.size());
    if (p.perf_model && configs.size() > k) {
      std::vector<std::pair<double, std::size_t>> estimates;
      for (std::size_t i = 0; i < configs.size(); ++i)
        estimates.emplace_back(
            p.perf_model(configs[i], launch_view(view, &configs[i], kernel_.name())), i);
      // Stable: equal estimates keep the configs' order.
      for (std::size_t i = 1; i < estimates.size(); ++i)
        for (std::size_t j = i; j > 0 && estimates[j].first < estimates[j - 1].first; --j)
          std::swap(estimates[j], estimates[j - 1]);
      std::vector<config> kept;
      for (std::size_t i = 0; i < k; ++i)
        kept.push_back(configs[estimates[i].second]);
      configs = std::move(kept);
    }
    return configs;
  }

  /// The buffers that reset_to_zero (`reset`) or restore_value names, with their bytes.
  template <class... A, std::size_t... I>
  std::vector<detail::memory_target> targets(bool reset, bool interpret, std::source_location where,
                                             std::index_sequence<I...>, const A &...args) const {
    const char *list_name = reset ? "reset_to_zero" : "restore_value";
    std::vector<detail::memory_target> out;
    for (const int k : reset ? options_.reset_to_zero : options_.restore_value) {
      if (std::size_t(k) >= sizeof...(A))
        detail::fail(where, "tk::autotune of kernel '", kernel_.name(), "': ", list_name,
                     " names launch argument ", k, ", past the launch's ", sizeof...(A),
                     " arguments");
      (
          [&](std::size_t i, const auto &a) {
            if (i != std::size_t(k))
              return;
            using B = std::remove_cvref_t<decltype(a)>;
            if constexpr (detail::buffer_kind<B> != 0) {
              detail::memory_target t;
              t.address = reinterpret_cast<std::uintptr_t>(a.data());
              t.bytes = a.size() * sizeof(*a.data());
              t.index = i;
              if constexpr (detail::buffer_kind<B> == 2)
                t.device = !a.on_host();
              else
                t.device = !interpret, t.span = true;
              out.push_back(t);
            } else {
              detail::fail(where, "tk::autotune of kernel '", kernel_.name(), "': ", list_name,
                           " names launch argument ", i, ", ",
                           detail::describe_launch_value(detail::view_value(a)),
                           "; pass the buffer itself (a std::vector, a std::span or a "
                           "tk::device_buffer), whose size says how many bytes to ",
                           reset ? "zero" : "save and restore");
            }
          }(I, args),
          ...);
    }
    return out;
  }

  /// Tunes for one key: from the disk cache when it has this tuning, else by timing each
  /// config; the interpreter without a custom bench takes the first config (after pruning).
  template <class Params, class G, class... A, std::size_t... I>
  detail::tuning_choice<sizeof...(A)>
  tune(const G &g, const launch_options &options, bool interpret,
       const detail::tuning_key<sizeof...(A)> &key, std::source_location where,
       std::index_sequence<I...> seq, A &...args) const {
    const std::vector<config> configs = prune(where, std::as_const(args)...);
    const std::size_t n = configs.size();
    std::vector<std::array<std::int64_t, sizeof...(A)>> values;
    for (std::size_t c = 0; c < n; ++c)
      values.push_back(values_of(configs[c], c, seq, args...));
    tuning_memory memory;
    memory.resets = targets(true, interpret, where, seq, std::as_const(args)...);
    memory.restores = targets(false, interpret, where, seq, std::as_const(args)...);
    if ((interpret && !options_.bench) || (n == 1 && options_.configs.size() > 1))
      return {configs[0], values[0]}; // nothing to choose from: Triton times no single config

    std::string key_text;
    ((is_key(I) ? void(key_text += (key_text.empty() ? "" : ", ") + std::string("arg ") +
                                   std::to_string(I) + " = " +
                                   detail::describe_value(detail::key_argument(args)))
                : void()),
     ...);

    // The disk cache knows a GPU's tunings by the kernel's code, the configs, the key and the
    // device; a custom bench's are not stored.
    const detail::backend_library *disk = nullptr;
    std::vector<std::string> disk_key;
    std::string device_name = interpret ? "the interpreter" : "";
    if (!interpret) {
      const detail::cu::device_info &device = detail::cu::device_of(key.context, where);
      device_name = device.name;
      for (const detail::memory_target &t : memory.resets)
        if (t.span)
          detail::check_span_extent(t, "reset_to_zero", kernel_.name(), where);
      for (const detail::memory_target &t : memory.restores)
        if (t.span)
          detail::check_span_extent(t, "restore_value", kernel_.name(), where);
      if (!options_.bench) {
        const detail::backend_library &backend = detail::get_backend(where);
        disk = &backend;
        std::string configs_text, words;
        for (const config &c : configs)
          configs_text += c.describe() + ";";
        for (std::uint64_t w : key.words)
          words += std::to_string(w) + ",";
        const std::string ir = ir_of(configs[0], seq, args...);
        const std::string arch = detail::resolve_target_arch(
            detail::requested_target_arch(options.target_arch), device, backend.targets(), where);
        disk_key = {"tk-autotune 1",
                    kernel_.name(),
                    ir,
                    configs_text,
                    words,
                    device.target + (arch.empty() ? "" : " lowered for " + arch),
                    device.name,
                    options_.use_cuda_graph ? "cuda graph" : "events"};
      }
    }
    if (disk)
      if (std::optional<std::string> bytes = detail::load_tuning(*disk, disk_key))
        if (std::optional<detail::tuning_table> t = detail::deserialize_tuning(*bytes, n)) {
          if (detail::print_autotuning())
            std::fputs(detail::format_tuning(kernel_.name(), device_name, key_text, configs, *t,
                                             "from the disk cache")
                           .c_str(),
                       stderr);
          for (const detail::memory_target &r : memory.resets) // as after a timed tuning
            detail::zero_memory(r, static_cast<detail::cu::stream>(options.stream), where);
          return {configs[t->best], values[t->best]};
        }

    // Graphs replay what was captured: no host work may be part of a launch.
    std::string graph_reason;
    const detail::cu::driver *driver = nullptr;
    if (!interpret && !options_.bench) {
      driver = &detail::cu::get_driver(where);
      if (options_.use_cuda_graph) {
        bool host_hooks = options_.pre_hook || options_.post_hook;
        for (const config &c : configs)
          host_hooks = host_hooks || c.pre_hook;
        graph_reason = detail::cuda_graph_unavailable(*driver, host_hooks, !memory.restores.empty(),
                                                      memory.resets);
      }
    }
    const bool use_graph = driver && options_.use_cuda_graph && graph_reason.empty();
    const auto s = static_cast<detail::cu::stream>(options.stream);
    for (const detail::memory_target &t : memory.restores)
      memory.saved.push_back(detail::save_memory(t, s, where));

    detail::tuning_table table;
    table.times.assign(n, std::numeric_limits<double>::quiet_NaN());
    table.errors.assign(n, "");
    std::optional<error> first_error;
    for (std::size_t c = 0; c < n; ++c) {
      const auto launch_once = [&] {
        run(configs[c], values[c], g, options, &memory, seq, args...);
      };
      try {
        if (options_.bench) {
          table.times[c] = options_.bench(configs[c], launch_once);
        } else {
          launch_once(); // compiles (or fails) outside the timing
          driver->check(driver->stream_synchronize(s), "cuStreamSynchronize", where);
          if (use_graph)
            table.times[c] = detail::time_with_graph(
                *driver, s, options_.repeat_ms,
                [&](detail::cu::stream on) {
                  launch_options o = options;
                  o.stream = on;
                  run(configs[c], values[c], g, o, &memory, seq, args...);
                },
                where);
          else
            table.times[c] = detail::time_with_events(*driver, s, options_.warmup_ms,
                                                      options_.repeat_ms, launch_once, where);
        }
      } catch (const error &e) {
        // A config that cannot compile or run (too much shared memory, say) is skipped, as in
        // Triton; when every config fails, the first error is the launch's.
        table.errors[c] = e.message();
        if (!first_error)
          first_error = e;
      }
    }
    table.best = detail::fastest(table.times);
    if (table.best == n)
      throw *first_error;
    // As in Triton, the launch after tuning finds reset_to_zero's buffers zeroed.
    for (const detail::memory_target &t : memory.resets)
      detail::zero_memory(t, s, where);
    if (disk)
      detail::store_tuning(*disk, disk_key, detail::serialize(table));
    if (detail::print_autotuning()) {
      std::string source = std::to_string(n) + " configs";
      if (n != options_.configs.size())
        source += " (of " + std::to_string(options_.configs.size()) + ", pruned)";
      source += ", time per launch";
      if (options_.bench)
        source += " (custom bench)";
      else if (use_graph)
        source += " in ms (CUDA graph)";
      else if (options_.use_cuda_graph)
        source += " in ms (CUDA events: no CUDA graph, " + graph_reason + ")";
      else
        source += " in ms";
      std::fputs(detail::format_tuning(kernel_.name(), device_name, key_text, configs, table,
                                       source.c_str())
                     .c_str(),
                 stderr);
    }
    return {configs[table.best], values[table.best]};
  }

  /// Where errors about a launch point: the first placeholder's place, else where the tuner was
  /// made.
  template <class... A> std::source_location location(const A &...args) const {
    std::source_location where = loc_;
    bool found = false;
    (
        [&](const auto &a) {
          if constexpr (detail::is_placeholder<std::remove_cvref_t<decltype(a)>>)
            if (!found)
              where = a.loc, found = true;
        }(args),
        ...);
    return where;
  }

  template <class... A, std::size_t... I>
  void check_key(std::index_sequence<I...>, std::source_location where) const {
    constexpr std::size_t n = sizeof...(A);
    if (n < 64 && (key_mask_ >> n) != 0)
      detail::fail(where, "tk::autotune of kernel '", kernel_.name(), "': key argument ",
                   63 - std::countl_zero(key_mask_), " is past the launch's ", n, " arguments");
    (
        [&] {
          if constexpr (detail::is_placeholder<A>)
            if (is_key(I))
              detail::fail(where, "tk::autotune of kernel '", kernel_.name(), "': key argument ", I,
                           " is a ", detail::is_tuned<A> ? "tk::tuned" : "tk::heuristic",
                           " placeholder; a key is a value the caller passes");
        }(),
        ...);
  }
};

/// A kernel whose `tk::heuristic` constants functions compute at each launch (Triton's
/// `@triton.heuristics` without `@triton.autotune`); see tk::heuristics.
template <class F> class with_heuristics {
public:
  with_heuristics(kernel<F> k, std::vector<heuristic_rule> rules,
                  std::source_location loc = std::source_location::current())
      : impl_(std::move(k), std::move(rules), loc, typename autotuned<F>::heuristics_only{}) {}

  const kernel<F> &base() const { return impl_.base(); }
  const std::vector<heuristic_rule> &rules() const { return impl_.options().heuristics; }

  /// As kernel::launch, with each tk::heuristic placeholder replaced by its function's value.
  template <class G, class... A>
  void launch(const G &g, const launch_options &options, A &&...args) const {
    impl_.launch(g, options, std::forward<A>(args)...);
  }
  template <class G, class... A>
    requires(sizeof...(A) == 0 ||
             !std::is_same_v<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A..., int>>>,
                             launch_options>)
  void launch(const G &g, A &&...args) const {
    impl_.launch(g, launch_options{}, std::forward<A>(args)...);
  }
  template <class G, class... A> void interpret(const G &g, A &&...args) const {
    impl_.launch(g, launch_options{.backend = backend::interpreter}, std::forward<A>(args)...);
  }

  /// The kernel traced for these arguments, heuristics computed, as `tk` MLIR.
  template <class... A> std::string ir(A &&...args) const {
    return impl_.ir(impl_.options().configs[0], std::forward<A>(args)...);
  }

private:
  autotuned<F> impl_;
};

/// Makes an autotuned kernel: see autotune_options and the file comment.
template <class F>
autotuned<F> autotune(const kernel<F> &k, autotune_options options,
                      std::source_location loc = std::source_location::current()) {
  return autotuned<F>(k, std::move(options), loc);
}

/// Autotunes a kernel with heuristics (Triton's `@autotune` over `@heuristics`): its heuristics
/// run first, then `options.heuristics`, after the config is chosen.
template <class F>
autotuned<F> autotune(const with_heuristics<F> &k, autotune_options options,
                      std::source_location loc = std::source_location::current()) {
  options.heuristics.insert(options.heuristics.begin(), k.rules().begin(), k.rules().end());
  return autotuned<F>(k.base(), std::move(options), loc);
}

/// Triton's `@triton.heuristics`: constants computed at each launch from its arguments (and,
/// when tuned, the config's constants), taken by `tk::heuristic<T>("NAME")` placeholders.
///
///     auto mm = tk::heuristics(matmul, {{"EVEN_K", [](const tk::launch_view &a) {
///                                          return a.arg<int>(5) % a.constant("BLOCK_K") == 0;
///                                        }}});
template <class F>
with_heuristics<F> heuristics(const kernel<F> &k, std::vector<heuristic_rule> rules,
                              std::source_location loc = std::source_location::current()) {
  return with_heuristics<F>(k, std::move(rules), loc);
}

/// Adds heuristics to an autotuned kernel (computed after its own, once the config is chosen).
template <class F>
autotuned<F> heuristics(const autotuned<F> &k, std::vector<heuristic_rule> rules,
                        std::source_location loc = std::source_location::current()) {
  autotune_options options = k.options();
  options.heuristics.insert(options.heuristics.end(), rules.begin(), rules.end());
  return autotuned<F>(k.base(), std::move(options), loc);
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/autotune.ipp>
#endif

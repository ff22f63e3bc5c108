/// @file autotune.hpp
/// `tk::autotune`: Triton's `@triton.autotune`. A kernel is given a list of configs (values for
/// its `tk::tuned` constants, `num_warps`, `num_stages`) and the launch arguments whose values
/// select the best one (the key). The first launch for a key value runs every config, timed
/// with CUDA events after a warm-up, and remembers the fastest, in memory and in the disk cache;
/// later launches with that key go straight to it. `TK_PRINT_AUTOTUNING=1` prints each tuning's
/// table on stderr.
///
///     inline auto softmax_tuned = tk::autotune(softmax, {
///         .configs = {{.num_warps = 4}, {.num_warps = 8}, {.num_warps = 16}},
///         .key = {3},  // n_cols
///     });
///     softmax_tuned.launch(tk::grid(rows), out, in, stride, n_cols, tk::constant(1024));
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
#include <string>
#include <utility>
#include <vector>

namespace tk {

/// One autotuning candidate: values for the launch's `tk::tuned` constants, by name, and the
/// launch options it sets.
struct config {
  std::vector<std::pair<std::string, std::int64_t>> constants{};
  int num_warps = 4;
  int num_stages = 3;

  /// "BLOCK=1024, num_warps=4, num_stages=3".
  std::string describe() const;
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
  /// the config launched, as Triton's pre_hook and post_hook. For a kernel that reads what it
  /// writes, put its buffers back in post_hook (zero an accumulator, copy saved inputs back),
  /// so every config times the same work and the launch after tuning starts from the caller's
  /// data. Work a hook queues on the launch's stream is timed with the launch, for every config
  /// alike.
  detail::callback<void(const config &)> pre_hook{};
  detail::callback<void(const config &)> post_hook{};
};

namespace detail {

/// The launch argument type a kernel receives in place of `A`: `tk::tuned<T>` becomes
/// `tk::constant<T>`.
template <class A> struct tuned_substitute {
  using type = A;
};
template <class T> struct tuned_substitute<tuned<T>> {
  using type = constant<T>;
};
template <class A> using substituted = typename tuned_substitute<A>::type;

/// `a`, or for a placeholder the constant `value`.
template <class A> substituted<A> substitute(const A &a, std::int64_t value) {
  if constexpr (is_tuned<A>) {
    using T = std::remove_cvref_t<decltype(substituted<A>::value)>;
    return constant<T>(static_cast<T>(value));
  } else {
    (void)value;
    return a;
  }
}

/// The tuning choice for one key: the config and the value of each argument's placeholder.
template <std::size_t N> struct tuning_choice {
  std::size_t config = 0;
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

/// "1000", "0.5", "0x7f00..." for the tuning table.
template <class A> std::string describe_value(const A &a) {
  const auto v = unwrap_constant(a);
  using V = std::remove_cvref_t<decltype(v)>;
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

/// A kernel launched through autotuning (see tk::autotune).
template <class F> class autotuned {
public:
  autotuned(kernel<F> k, autotune_options options,
            std::source_location loc = std::source_location::current())
      : kernel_(std::move(k)), options_(std::move(options)), loc_(loc) {
    if (options_.configs.empty())
      detail::fail(loc, "tk::autotune of kernel '", kernel_.name(), "' has no configs");
    for (std::size_t i = 0; i < options_.configs.size(); ++i) {
      const config &c = options_.configs[i];
      if (const std::string why = detail::invalid_code_options(c.num_warps, c.num_stages);
          !why.empty())
        detail::fail(loc, "tk::autotune config ", i, " of kernel '", kernel_.name(), "': ", why);
      for (std::size_t j = 0; j < c.constants.size(); ++j)
        for (std::size_t k = 0; k < j; ++k)
          if (c.constants[j].first == c.constants[k].first)
            detail::fail(loc, "tk::autotune config ", i, " of kernel '", kernel_.name(),
                         "' sets \"", c.constants[j].first, "\" twice");
    }
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
  }

  const kernel<F> &base() const { return kernel_; }
  const autotune_options &options() const { return options_; }

  /// Launches the kernel over `g` (a tk::grid, or a grid callable as for kernel::launch, called
  /// with the constants of the config it runs) with the best config for these arguments,
  /// tuning first if this key has not been tuned. `options`' stream and backend are honoured;
  /// the config sets num_warps and num_stages.
  template <class G, class... A>
  void launch(const G &g, const launch_options &options, A... args) const {
    static_assert(sizeof...(A) <= 64, "tk::autotune: at most 64 launch arguments");
    // Arguments are taken by value: a buffer would be copied, and the kernel would write the copy.
    constexpr bool no_buffers = (... && (detail::buffer_kind<A> == 0));
    static_assert(no_buffers, "tk::autotune: pass a buffer (std::vector, std::span, "
                              "tk::device_buffer) to a tuned launch as its .data() pointer");
    using Params = typename detail::kernel_params<F, detail::substituted<A>...>::type;
    if constexpr (!no_buffers)
      return;
    else if constexpr (std::tuple_size_v<Params> != sizeof...(A))
      // kernel::launch reports the wrong argument count.
      kernel_.launch(g, options, detail::substitute(args, 0)...);
    else
      launch_tuned<Params>(g, options, std::index_sequence_for<A...>{}, args...);
  }

  template <class G, class... A>
    requires(sizeof...(A) == 0 ||
             !std::is_same_v<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A..., int>>>,
                             launch_options>)
  void launch(const G &g, A... args) const {
    launch(g, launch_options{}, args...);
  }

private:
  kernel<F> kernel_;
  std::uint64_t identity_ = detail::new_identity(); ///< what the tuning cache keys it on
  autotune_options options_;
  std::source_location loc_;
  std::uint64_t key_mask_ = 0; ///< bit i: launch argument i is part of the key

  bool is_key(std::size_t i) const { return (key_mask_ >> i) & 1; }

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
                    const A &...args) const {
    constexpr std::size_t N = sizeof...(A);
    const std::source_location where = location(args...);
    check_key<A...>(seq, where);
    const bool interpret = detail::interprets(options);
    auto &cache = tunings<A...>();
    detail::tuning_key<N> key{identity_, nullptr, {}};
    if (!interpret) {
      key.context = detail::gpu_driver(kernel_.name(), where).launch_context(where);
      key.target_arch = detail::arch_word(detail::requested_target_arch(options.target_arch).name);
    }
    key.words = {(is_key(I)             ? detail::value_word(detail::substitute(args, 0))
                  : detail::is_tuned<A> ? 0
                                        : detail::specialization_word(
                                              detail::describe<std::tuple_element_t<I, Params>>(
                                                  detail::substitute(args, 0), I, where)))...};
    const detail::tuning_choice<N> &choice = cache.get(
        key, [&] { return tune<Params>(g, options, interpret, key, where, seq, args...); });
    run(choice.config, choice.values, g, options, seq, args...);
  }

  /// One launch with config `c`, whose placeholder values are `values`.
  template <class G, class... A, std::size_t... I>
  void run(std::size_t c, const std::array<std::int64_t, sizeof...(A)> &values, const G &g,
           const launch_options &options, std::index_sequence<I...>, const A &...args) const {
    launch_options o = options;
    o.num_warps = options_.configs[c].num_warps;
    o.num_stages = options_.configs[c].num_stages;
    kernel_.launch(g, o, detail::substitute(args, values[I])...);
  }

  /// Each placeholder's value in config `c`; errors name a placeholder that the config does not
  /// set and a constant the config sets that no placeholder names.
  template <class... A, std::size_t... I>
  std::array<std::int64_t, sizeof...(A)> values_of(std::size_t c, std::index_sequence<I...>,
                                                   const A &...args) const {
    const config &cfg = options_.configs[c];
    std::array<std::int64_t, sizeof...(A)> values{};
    std::vector<bool> used(cfg.constants.size());
    std::string names;
    (
        [&](std::size_t i, const auto &a) {
          if constexpr (detail::is_tuned<std::remove_cvref_t<decltype(a)>>) {
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

  /// Tunes for one key: from the disk cache when it has this tuning, else by timing each
  /// config; the interpreter without a custom bench takes the first config.
  template <class Params, class G, class... A, std::size_t... I>
  detail::tuning_choice<sizeof...(A)>
  tune(const G &g, const launch_options &options, bool interpret,
       const detail::tuning_key<sizeof...(A)> &key, std::source_location where,
       std::index_sequence<I...> seq, const A &...args) const {
    const std::size_t n = options_.configs.size();
    std::vector<std::array<std::int64_t, sizeof...(A)>> values;
    for (std::size_t c = 0; c < n; ++c)
      values.push_back(values_of(c, seq, args...));
    if (interpret && !options_.bench)
      return {0, values[0]};

    std::string key_text;
    ((is_key(I) ? void(key_text += (key_text.empty() ? "" : ", ") + std::string("arg ") +
                                   std::to_string(I) + " = " +
                                   detail::describe_value(detail::substitute(args, 0)))
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
      if (!options_.bench) {
        const detail::backend_library &backend = detail::get_backend(where);
        disk = &backend;
        std::string configs, words;
        for (const config &c : options_.configs)
          configs += c.describe() + ";";
        for (std::uint64_t w : key.words)
          words += std::to_string(w) + ",";
        const std::string ir = kernel_.ir(detail::substitute(args, values[0][I])...);
        const std::string arch = detail::resolve_target_arch(
            detail::requested_target_arch(options.target_arch), device, backend.targets(), where);
        disk_key = {"tk-autotune 1",
                    kernel_.name(),
                    ir,
                    configs,
                    words,
                    device.target + (arch.empty() ? "" : " lowered for " + arch),
                    device.name};
      }
    }
    if (disk)
      if (std::optional<std::string> bytes = detail::load_tuning(*disk, disk_key))
        if (std::optional<detail::tuning_table> t = detail::deserialize_tuning(*bytes, n)) {
          if (detail::print_autotuning())
            std::fputs(detail::format_tuning(kernel_.name(), device_name, key_text,
                                             options_.configs, *t, "from the disk cache")
                           .c_str(),
                       stderr);
          return {t->best, values[t->best]};
        }

    detail::tuning_table table;
    table.times.assign(n, std::numeric_limits<double>::quiet_NaN());
    table.errors.assign(n, "");
    std::optional<error> first_error;
    for (std::size_t c = 0; c < n; ++c) {
      const auto launch_once = [&] {
        if (options_.pre_hook)
          options_.pre_hook(options_.configs[c]);
        run(c, values[c], g, options, seq, args...);
        if (options_.post_hook)
          options_.post_hook(options_.configs[c]);
      };
      try {
        if (options_.bench) {
          table.times[c] = options_.bench(options_.configs[c], launch_once);
        } else {
          const detail::cu::driver &driver = detail::cu::get_driver(where);
          const auto s = static_cast<detail::cu::stream>(options.stream);
          launch_once(); // compiles (or fails) outside the timing
          driver.check(driver.stream_synchronize(s), "cuStreamSynchronize", where);
          table.times[c] = detail::time_with_events(driver, s, options_.warmup_ms,
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
    if (disk)
      detail::store_tuning(*disk, disk_key, detail::serialize(table));
    if (detail::print_autotuning()) {
      const std::string source = std::to_string(n) + " configs, time per launch" +
                                 (options_.bench ? " (custom bench)" : " in ms");
      std::fputs(detail::format_tuning(kernel_.name(), device_name, key_text, options_.configs,
                                       table, source.c_str())
                     .c_str(),
                 stderr);
    }
    return {table.best, values[table.best]};
  }

  /// Where errors about a launch point: the first tk::tuned placeholder's place, else where the
  /// tuner was made.
  template <class... A> std::source_location location(const A &...args) const {
    std::source_location where = loc_;
    bool found = false;
    (
        [&](const auto &a) {
          if constexpr (detail::is_tuned<std::remove_cvref_t<decltype(a)>>)
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
          if constexpr (detail::is_tuned<A>)
            if (is_key(I))
              detail::fail(where, "tk::autotune of kernel '", kernel_.name(), "': key argument ", I,
                           " is a tk::tuned placeholder; a key is a value the caller passes");
        }(),
        ...);
  }
};

/// Makes an autotuned kernel: see autotune_options and the file comment.
template <class F>
autotuned<F> autotune(const kernel<F> &k, autotune_options options,
                      std::source_location loc = std::source_location::current()) {
  return autotuned<F>(k, std::move(options), loc);
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/autotune.ipp>
#endif

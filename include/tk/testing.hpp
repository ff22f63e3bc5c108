/// @file testing.hpp
/// Timing and synchronization, as a Triton user has them from `torch.cuda` and `triton.testing`:
///
/// - `tk::synchronize()` / `tk::synchronize(stream)`: wait for the GPU (torch.cuda.synchronize);
/// - `tk::event`: a CUDA event, recorded on a stream, waited for, timed (torch.cuda.Event);
/// - `tk::do_bench(fn, options)`: Triton's do_bench, the time of `fn` in milliseconds with its
///   statistics, L2 cleared before each timed run;
/// - `tk::do_bench_cudagraph(fn, options)`: Triton's do_bench_cudagraph, `fn` captured into a
///   CUDA graph and the graph's launches timed, without the host's launch overhead;
/// - `tk::perf_report`: a sweep of sizes over several providers, printed as a table (Triton's
///   Benchmark and perf_report).
///
/// On the CPU interpreter (TK_INTERPRET=1) launches are synchronous: synchronize returns at once,
/// events read the host's steady clock and do_bench times `fn` with it, so that a benchmark
/// program runs (and says which clock it used) without a GPU. docs/benchmarking.md has the
/// details; errors name the caller's line.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/runtime/driver.hpp>
#include <tk/detail/trace/ownership.hpp>
#include <tk/error.hpp>
#include <tk/launch_options.hpp>

#include <cstddef>
#include <cstdio>
#include <optional>
#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

namespace tk {

// ---------------------------------------------------------------------------------------------
// Synchronization and events

/// Waits until the GPU has finished all work of the current context (cuCtxSynchronize), the
/// context launches use. Returns at once when TK_INTERPRET selects the interpreter, whose
/// launches are synchronous. Without a usable driver or GPU, throws tk::error saying why.
TK_DECL void synchronize(std::source_location where = std::source_location::current());

/// Waits until the GPU has finished all work queued on `stream` (a CUstream / cudaStream_t;
/// nullptr: the default stream), with cuStreamSynchronize. Returns at once on the interpreter.
TK_DECL void synchronize(void *stream,
                         std::source_location where = std::source_location::current());

struct event_options {
  /// Whether the event records a time (elapsed_ms). Off (CU_EVENT_DISABLE_TIMING), recording
  /// and waiting cost less: events used only to order streams.
  bool timing = true;
};

/// A CUDA event (torch.cuda.Event), owned: created with cuEventCreate, destroyed with the object.
/// Made while TK_INTERPRET selects the interpreter, it is a host event: `record` reads the host's
/// steady clock, and waiting returns at once (the interpreter's launches are done when they
/// return). Move-only.
class event {
public:
  /// Creates the event in the context launches use. Without a usable driver or GPU (and without
  /// TK_INTERPRET), throws tk::error saying why.
  TK_DECL explicit event(event_options options = {},
                         std::source_location where = std::source_location::current());
  /// An event of `driver`, the one given (a stand-in driver in tests); not a host event.
  TK_DECL event(const detail::cu::driver &driver, event_options options,
                std::source_location where);
  event(event &&other) noexcept { take(other); }
  event &operator=(event &&other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  event(const event &) = delete;
  event &operator=(const event &) = delete;
  ~event() { release(); }

  /// Records the event on `stream` (nullptr: the default stream): it completes when the work
  /// queued there before it has.
  TK_DECL void record(void *stream = nullptr,
                      std::source_location where = std::source_location::current());
  /// Waits until the event has completed (cuEventSynchronize).
  TK_DECL void synchronize(std::source_location where = std::source_location::current()) const;
  /// Whether the event has completed, without waiting (cuEventQuery); true for an event never
  /// recorded, as CUDA says.
  TK_DECL bool query(std::source_location where = std::source_location::current()) const;
  /// Makes `stream` wait for the event: work queued there later starts after the event completes
  /// (cuStreamWaitEvent); the host does not wait.
  TK_DECL void wait(void *stream,
                    std::source_location where = std::source_location::current()) const;
  /// Milliseconds from this event to `end`, both recorded and with timing on; waits for `end`.
  TK_DECL double elapsed_ms(const event &end,
                            std::source_location where = std::source_location::current()) const;

  /// Whether the event records times (event_options::timing).
  bool timing() const { return timing_; }
  /// Whether it is a host event (made while TK_INTERPRET selected the interpreter).
  bool on_host() const { return valid_ && !driver_; }
  /// The CUevent (cudaEvent_t), for the CUDA runtime or driver; null for a host event.
  void *native() const { return handle_; }

private:
  const detail::cu::driver *driver_ = nullptr; // null: a host event
  detail::cu::event handle_ = nullptr;
  double host_ms_ = 0; // host event: the steady clock at the last record, in ms
  bool timing_ = true;
  bool recorded_ = false;
  bool valid_ = false; // false once moved from

  TK_DECL void release() noexcept;
  void take(event &other) noexcept {
    driver_ = other.driver_;
    handle_ = other.handle_;
    host_ms_ = other.host_ms_;
    timing_ = other.timing_;
    recorded_ = other.recorded_;
    valid_ = other.valid_;
    other.handle_ = nullptr;
    other.valid_ = false;
  }
  TK_DECL void check_usable(const char *what, std::source_location where) const;
  TK_DECL void make(const detail::cu::driver *driver, std::source_location where);
};

/// Milliseconds from `start` to `end` (start.elapsed_ms(end)).
inline double elapsed_ms(const event &start, const event &end,
                         std::source_location where = std::source_location::current()) {
  return start.elapsed_ms(end, where);
}

// ---------------------------------------------------------------------------------------------
// do_bench

/// Which statistic `bench_result::ms` holds (Triton's return_mode).
enum class return_mode {
  mean,   ///< the arithmetic mean (Triton's default)
  median, ///< the middle time, or the mean of the two middle ones (Python's statistics.median)
  min,    ///< the fastest run
  max,    ///< the slowest run
  all,    ///< every time: read bench_result::times (ms holds the mean)
};

/// What a benchmark's times were measured with.
enum class bench_clock {
  gpu_events, ///< CUDA events on the stream: the GPU's time between them
  host,       ///< the host's steady clock around each run (the interpreter's synchronous launches)
};

/// Returns "gpu events" or "host steady clock".
TK_DECL const char *to_string(bench_clock clock);

struct bench_options {
  /// Time spent warming up before the timed runs, in ms (Triton's warmup).
  double warmup_ms = 25;
  /// Time the timed runs should take together, in ms (Triton's rep). do_bench_cudagraph puts
  /// this many ms of calls into one graph (Triton's default there is 20).
  double rep_ms = 100;
  /// Quantiles (each in [0, 1]) to compute into bench_result::quantiles: Triton's quantiles.
  std::vector<double> quantiles = {};
  /// The statistic bench_result::ms holds.
  tk::return_mode return_mode = tk::return_mode::mean;
  /// Overwrite a buffer larger than the L2 cache before each timed run (outside the timing), so
  /// that no run finds its inputs in L2 (GPU only; do_bench_cudagraph does not clear).
  bool clear_l2 = true;
  /// The stream runs are queued on and timed on (nullptr: the default stream); passed to `fn`
  /// when it takes a `void *`. do_bench_cudagraph captures on it when set, else on a stream of
  /// its own.
  void *stream = nullptr;
  /// Exactly this many warm-up runs instead of warmup_ms's worth (0: none).
  std::optional<int> warmup_runs = {};
  /// Exactly this many timed runs instead of rep_ms's worth. With both counts set, no estimate
  /// is made (no 5 extra runs).
  std::optional<int> repeat_runs = {};
};

/// The times of a benchmark, in milliseconds.
struct bench_result {
  /// The statistic bench_options::return_mode names (the mean by default): what Triton's
  /// do_bench returns without quantiles.
  double ms = 0;
  double mean = 0;
  double median = 0; ///< the middle time, or the mean of the two middle ones
  double min = 0;
  double max = 0;
  double stddev = 0; ///< the sample standard deviation (0 for one run)
  /// The time at each of bench_options::quantiles, in their order: what Triton's do_bench returns
  /// with quantiles (a list, or one number for one quantile).
  std::vector<double> quantiles = {};
  /// Every timed run, in the order run (Triton's return_mode="all"). For do_bench_cudagraph, the
  /// time of one graph launch divided by calls_per_run.
  std::vector<double> times = {};
  int warmup_runs = 0;    ///< warm-up runs made (n_warmup)
  int runs = 0;           ///< timed runs (n_repeat): times.size()
  int calls_per_run = 1;  ///< calls of fn per timed run (do_bench_cudagraph: calls in the graph)
  double estimate_ms = 0; ///< the first estimate of one call, from 5 calls (0: none made)
  bench_clock clock = bench_clock::gpu_events;

  /// The q-quantile of the times (q in [0, 1]), interpolated linearly between the two nearest
  /// runs as Triton and NumPy do: quantile(0.5) is the median, quantile(0) the min.
  TK_DECL double quantile(double q,
                          std::source_location where = std::source_location::current()) const;
};

namespace detail {

/// What a benchmark measures with: interval `i` runs from begin(i) to end(i). The GPU's events,
/// the host's clock, or a test's scripted clock.
class bench_timer {
public:
  virtual ~bench_timer() = default;
  /// Makes room for intervals 0 .. n - 1 (earlier ones may be dropped).
  virtual void reserve(std::size_t n, std::source_location where) = 0;
  virtual void begin(std::size_t i, std::source_location where) = 0;
  virtual void end(std::size_t i, std::source_location where) = 0;
  /// Evicts the cache before a run (outside any interval).
  virtual void clear_cache(std::source_location where) = 0;
  /// Waits for everything queued.
  virtual void wait(std::source_location where) = 0;
  /// Milliseconds of interval `i`, after wait().
  virtual double elapsed_ms(std::size_t i, std::source_location where) = 0;
  virtual bench_clock clock() const = 0;
};

/// do_bench's method on `timer`: one first call, an estimate from 5 calls, warm-up and timed
/// runs from the budgets (or the counts given), and the statistics.
TK_DECL bench_result run_bench(bench_timer &timer, function_ref<void()> fn,
                               const bench_options &options, std::source_location where);

/// The statistics of `times` (each field of bench_result but the counts and the clock).
TK_DECL bench_result summarize(std::vector<double> times, const bench_options &options,
                               std::source_location where);

/// Checks the options every benchmark takes; throws naming `where` (`what`: "tk::do_bench").
TK_DECL void check_bench_options(const bench_options &options, const char *what,
                                 std::source_location where);

/// do_bench on the GPU of `driver` with its events, or with the host clock on the interpreter.
TK_DECL bench_result do_bench(function_ref<void()> fn, const bench_options &options,
                              std::source_location where);
TK_DECL bench_result do_bench_on(const cu::driver &driver, function_ref<void()> fn,
                                 const bench_options &options, std::source_location where);

/// do_bench_cudagraph; `fn` is given the stream to queue its work on. `takes_stream`: whether
/// the user's callable does (else it must launch on options.stream itself).
TK_DECL bench_result do_bench_cudagraph(function_ref<void(void *)> fn, bool takes_stream,
                                        const bench_options &options, std::source_location where);
TK_DECL bench_result do_bench_cudagraph_on(const cu::driver &driver, function_ref<void(void *)> fn,
                                           bool takes_stream, const bench_options &options,
                                           std::source_location where);

/// The buffer do_bench overwrites to clear the L2 cache of `context`'s GPU: four times its L2
/// (256 MB where the driver does not say), allocated on first use and kept for the process.
struct l2_flush_buffer {
  cu::deviceptr address = 0;
  std::size_t bytes = 0;
};
TK_DECL l2_flush_buffer flush_buffer(const cu::driver &driver, cu::context context,
                                     std::source_location where);

template <class F>
inline constexpr bool bench_callable = std::is_invocable_v<F &> || std::is_invocable_v<F &, void *>;

} // namespace detail

/// Benchmarks `fn` as triton.testing.do_bench does: calls it once (compiling what it launches),
/// estimates its time from 5 calls, warms up for `warmup_ms` and times `rep_ms` worth of runs,
/// each between a pair of CUDA events on `options.stream`, the L2 cache cleared before each.
/// `fn` is called with no arguments, or with the stream (`void *`) when it takes one. On the
/// interpreter (TK_INTERPRET=1) each run is timed with the host's steady clock instead
/// (result.clock says which). Without a usable driver or GPU, throws tk::error saying why.
template <class F>
bench_result do_bench(F &&fn, const bench_options &options = {},
                      std::source_location where = std::source_location::current()) {
  static_assert(detail::bench_callable<F>,
                "tk::do_bench takes a callable with no arguments or with the stream (void *)");
  if constexpr (std::is_invocable_v<F &, void *>) {
    auto run = [&] { fn(options.stream); };
    return detail::do_bench(run, options, where);
  } else {
    auto run = [&] { fn(); };
    return detail::do_bench(run, options, where);
  }
}

/// Benchmarks `fn` as triton.testing.do_bench_cudagraph does: estimates its time from 5 calls,
/// captures `rep_ms` worth of calls into one CUDA graph and times 10 launches of it, each divided
/// by the calls in the graph (result.calls_per_run); the host's launch overhead is not timed.
/// `fn` must queue its work on the capturing stream: take it as a `void *` argument, or set
/// options.stream to a stream of your own (not the default stream) and launch there. Needs a
/// driver with CUDA graphs. On the interpreter, times the same calls with the host's clock.
template <class F>
bench_result do_bench_cudagraph(F &&fn, const bench_options &options = {},
                                std::source_location where = std::source_location::current()) {
  static_assert(detail::bench_callable<F>, "tk::do_bench_cudagraph takes a callable with no "
                                           "arguments or with the stream (void *)");
  if constexpr (std::is_invocable_v<F &, void *>) {
    auto run = [&](void *stream) { fn(stream); };
    return detail::do_bench_cudagraph(run, true, options, where);
  } else {
    auto run = [&](void *) { fn(); };
    return detail::do_bench_cudagraph(run, false, options, where);
  }
}

// ---------------------------------------------------------------------------------------------
// perf_report

/// What a provider returns for one x: a benchmark's result (its `ms` is used) or a number of ms.
struct bench_value {
  double ms = 0;
  bench_value(double value) : ms(value) {}         // NOLINT: converts implicitly
  bench_value(const bench_result &r) : ms(r.ms) {} // NOLINT: converts implicitly
};

/// One line of a perf_report (Triton's line_vals / line_names): a name and what it measures.
struct bench_provider {
  std::string name = {};
  /// Called with each x value; returns a do_bench result or milliseconds.
  detail::callback<bench_value(double x)> run = {};
};

/// The numbers of a perf_report: values[i][j] is provider j's metric at x_values[i].
struct perf_table {
  std::string title = {};
  std::string x_name = {};
  std::string metric_name = {};
  std::vector<double> x_values = {};
  std::vector<std::string> providers = {};
  std::vector<std::vector<double>> values = {};

  /// An aligned text table: a title line, a header, one row per x.
  TK_DECL std::string text() const;
  /// CSV: a header (x_name, then the providers) and one row per x.
  TK_DECL std::string csv() const;
};

/// A benchmark over sizes and providers, printed as a table (Triton's triton.testing.Benchmark
/// with perf_report's run(print_data=True)):
///
///     tk::perf_report{.title = "vector add", .x_name = "n", .x_values = {1 << 20, 1 << 24},
///                     .providers = {{"tilekit", [&](double n) { return tk::do_bench(...); }}},
///                     .metric_name = "GB/s",
///                     .metric = [](double ms, double n) { return 12 * n / ms * 1e-6; }}
///         .run();
struct perf_report {
  std::string title = {};
  std::string x_name = "x";
  std::vector<double> x_values = {};
  std::vector<bench_provider> providers = {};
  /// The column unit; "ms" when there is no metric.
  std::string metric_name = "ms";
  /// Turns a provider's ms at x into the number shown (GB/s, TFLOP/s); none: the ms.
  detail::callback<double(double ms, double x)> metric = {};
  /// Where run() prints the table (nullptr: nowhere).
  std::FILE *print_to = stdout;
  /// A file run() writes the CSV to, when not empty.
  std::string csv_path = {};

  /// Calls every provider at every x (x in the outer loop, as Triton does), prints the table and
  /// writes the CSV; returns the numbers. A provider's exception propagates.
  TK_DECL perf_table run(std::source_location where = std::source_location::current()) const;
};

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/testing.ipp>
#endif

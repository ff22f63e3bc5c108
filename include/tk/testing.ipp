/// @file testing.ipp
/// The bodies of the functions testing.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/launch_options.hpp>
#include <tk/testing.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <utility>

// The host's monotonic clock: clock_gettime on POSIX (<chrono> brings <sstream> with it in
// libstdc++ 12, which every file including TileKit would pay for; docs/build-cost.md).
#ifdef _WIN32
#include <chrono>
#else
#include <time.h>
#endif

namespace tk {

namespace detail {

/// The host's steady (monotonic) clock, in milliseconds.
inline double host_clock_ms() {
#ifdef _WIN32
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
#else
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return double(now.tv_sec) * 1e3 + double(now.tv_nsec) * 1e-6;
#endif
}

/// Sorts `v` ascending (heapsort: <algorithm> costs every file that includes TileKit; see
/// docs/build-cost.md).
TK_DECL void sort_times(std::vector<double> &v) {
  const std::size_t n = v.size();
  auto sift = [&](std::size_t root, std::size_t end) {
    while (2 * root + 1 < end) {
      std::size_t child = 2 * root + 1;
      if (child + 1 < end && v[child] < v[child + 1])
        ++child;
      if (!(v[root] < v[child]))
        return;
      std::swap(v[root], v[child]);
      root = child;
    }
  };
  for (std::size_t i = n / 2; i-- > 0;)
    sift(i, n);
  for (std::size_t end = n; end > 1; --end) {
    std::swap(v[0], v[end - 1]);
    sift(0, end - 1);
  }
}

/// The q-quantile of `sorted` (ascending, not empty), interpolated linearly.
inline double quantile_of_sorted(const std::vector<double> &sorted, double q) {
  const double point = q * double(sorted.size() - 1);
  const auto lower = std::size_t(std::floor(point)), upper = std::size_t(std::ceil(point));
  const double t = point - double(lower);
  return (1 - t) * sorted[lower] + t * sorted[upper];
}

inline bool in_unit_interval(double q) { return q >= 0 && q <= 1; } // false for NaN

} // namespace detail

// ---------------------------------------------------------------------------------------------
// Synchronization and events

TK_DECL void synchronize(std::source_location where) {
  if (interpret_requested())
    return;
  const detail::cu::driver &driver = detail::cu::get_driver(where);
  (void)driver.launch_context(where);
  driver.check(driver.ctx_synchronize(), "cuCtxSynchronize", where);
}

TK_DECL void synchronize(void *stream, std::source_location where) {
  if (interpret_requested())
    return;
  const detail::cu::driver &driver = detail::cu::get_driver(where);
  (void)driver.launch_context(where);
  driver.check(driver.stream_synchronize(static_cast<detail::cu::stream>(stream)),
               "cuStreamSynchronize", where);
}

TK_DECL event::event(event_options options, std::source_location where) : timing_(options.timing) {
  make(interpret_requested() ? nullptr : &detail::cu::get_driver(where), where);
}

TK_DECL event::event(const detail::cu::driver &driver, event_options options,
                     std::source_location where)
    : timing_(options.timing) {
  make(&driver, where);
}

TK_DECL void event::make(const detail::cu::driver *driver, std::source_location where) {
  driver_ = driver;
  if (driver_) {
    (void)driver_->launch_context(where);
    driver_->check(driver_->event_create(&handle_, timing_ ? detail::cu::event_default
                                                           : detail::cu::event_disable_timing),
                   "cuEventCreate", where);
  }
  valid_ = true;
}

TK_DECL void event::release() noexcept {
  if (driver_ && handle_)
    driver_->event_destroy(handle_);
  handle_ = nullptr;
}

TK_DECL void event::check_usable(const char *what, std::source_location where) const {
  if (!valid_)
    detail::fail(where, "tk::event::", what, ": the event was moved from");
}

TK_DECL void event::record(void *stream, std::source_location where) {
  check_usable("record", where);
  if (driver_)
    driver_->check(driver_->event_record(handle_, static_cast<detail::cu::stream>(stream)),
                   "cuEventRecord", where);
  else
    host_ms_ = detail::host_clock_ms();
  recorded_ = true;
}

TK_DECL void event::synchronize(std::source_location where) const {
  check_usable("synchronize", where);
  if (driver_)
    driver_->check(driver_->event_synchronize(handle_), "cuEventSynchronize", where);
}

TK_DECL bool event::query(std::source_location where) const {
  check_usable("query", where);
  if (!driver_)
    return true;
  const detail::cu::result r = driver_->event_query(handle_);
  if (r == detail::cu::error_not_ready)
    return false;
  driver_->check(r, "cuEventQuery", where);
  return true;
}

TK_DECL void event::wait(void *stream, std::source_location where) const {
  check_usable("wait", where);
  if (driver_)
    driver_->check(driver_->stream_wait_event(static_cast<detail::cu::stream>(stream), handle_, 0),
                   "cuStreamWaitEvent", where);
}

TK_DECL double event::elapsed_ms(const event &end, std::source_location where) const {
  check_usable("elapsed_ms", where);
  if (!end.valid_)
    detail::fail(where, "tk::event::elapsed_ms: the end event was moved from");
  if (bool(driver_) != bool(end.driver_))
    detail::fail(where, "tk::event::elapsed_ms: the ", driver_ ? "end" : "start",
                 " event is a host event (made while TK_INTERPRET selected the interpreter) and "
                 "the other a GPU event; time both on the same side");
  for (const event *e : {this, &end}) {
    const char *which = e == this ? "start" : "end";
    if (!e->timing_)
      detail::fail(where, "tk::event::elapsed_ms: the ", which,
                   " event was made with timing off (event_options::timing)");
    if (!e->recorded_)
      detail::fail(where, "tk::event::elapsed_ms: the ", which, " event was never recorded");
  }
  if (!driver_)
    return end.host_ms_ - host_ms_;
  end.synchronize(where);
  float ms = 0;
  driver_->check(driver_->event_elapsed_time(&ms, handle_, end.handle_), "cuEventElapsedTime",
                 where);
  return double(ms);
}

// ---------------------------------------------------------------------------------------------
// Statistics

TK_DECL const char *to_string(bench_clock clock) {
  return clock == bench_clock::host ? "host steady clock" : "gpu events";
}

TK_DECL double bench_result::quantile(double q, std::source_location where) const {
  if (!detail::in_unit_interval(q))
    detail::fail(where, "tk::bench_result::quantile(", q, "): q must be in [0, 1]");
  if (times.empty())
    detail::fail(where, "tk::bench_result::quantile: the result holds no times");
  std::vector<double> sorted = times;
  detail::sort_times(sorted);
  return detail::quantile_of_sorted(sorted, q);
}

namespace detail {

TK_DECL void check_bench_options(const bench_options &options, const char *what,
                                 std::source_location where) {
  auto budget = [&](const char *name, double v) {
    if (!(v >= 0) || !std::isfinite(v))
      fail(where, what, ": bench_options::", name, " is ", v,
           "; it must be a finite number of ms "
           ">= 0");
  };
  budget("warmup_ms", options.warmup_ms);
  budget("rep_ms", options.rep_ms);
  for (double q : options.quantiles)
    if (!in_unit_interval(q))
      fail(where, what, ": quantile ", q, " is not in [0, 1]");
  if (options.warmup_runs && *options.warmup_runs < 0)
    fail(where, what, ": bench_options::warmup_runs is ", *options.warmup_runs,
         "; it must be 0 or more");
  if (options.repeat_runs && *options.repeat_runs < 1)
    fail(where, what, ": bench_options::repeat_runs is ", *options.repeat_runs,
         "; it must be 1 or more");
}

TK_DECL bench_result summarize(std::vector<double> times, const bench_options &options,
                               std::source_location where) {
  if (times.empty())
    internal_error("a benchmark without times", where);
  bench_result r;
  const std::size_t n = times.size();
  double sum = 0;
  for (double t : times)
    sum += t;
  r.mean = sum / double(n);
  double squares = 0;
  for (double t : times)
    squares += (t - r.mean) * (t - r.mean);
  r.stddev = n > 1 ? std::sqrt(squares / double(n - 1)) : 0;
  std::vector<double> sorted = times;
  sort_times(sorted);
  r.min = sorted.front();
  r.max = sorted.back();
  r.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  for (double q : options.quantiles)
    r.quantiles.push_back(quantile_of_sorted(sorted, q));
  switch (options.return_mode) {
  case return_mode::median:
    r.ms = r.median;
    break;
  case return_mode::min:
    r.ms = r.min;
    break;
  case return_mode::max:
    r.ms = r.max;
    break;
  default:
    r.ms = r.mean;
  }
  r.runs = int(n);
  r.times = std::move(times);
  return r;
}

/// The shortest time an estimate is taken to be, so that a call too short to measure (an event
/// pair's resolution is about 0.5 us) still gives finite counts: 1 us.
inline constexpr double shortest_estimate_ms = 1e-3;

/// How many calls fit in `budget_ms` at `estimate_ms` each: at least 1, as Triton's
/// max(1, int(budget / estimate)).
inline int calls_in(double budget_ms, double estimate_ms) {
  const double n =
      budget_ms / (estimate_ms > shortest_estimate_ms ? estimate_ms : shortest_estimate_ms);
  return n < 1                                         ? 1
         : n > double(std::numeric_limits<int>::max()) ? std::numeric_limits<int>::max()
                                                       : int(n);
}

TK_DECL bench_result run_bench(bench_timer &timer, function_ref<void()> fn,
                               const bench_options &options, std::source_location where) {
  fn(); // compiles what fn launches, outside the timing
  timer.wait(where);
  double estimate = 0;
  if (!options.warmup_runs || !options.repeat_runs) {
    timer.reserve(1, where);
    timer.begin(0, where);
    for (int i = 0; i < 5; ++i) {
      if (options.clear_l2)
        timer.clear_cache(where);
      fn();
    }
    timer.end(0, where);
    timer.wait(where);
    estimate = timer.elapsed_ms(0, where) / 5;
  }
  const int warmup =
      options.warmup_runs ? *options.warmup_runs : calls_in(options.warmup_ms, estimate);
  const int repeat =
      options.repeat_runs ? *options.repeat_runs : calls_in(options.rep_ms, estimate);
  for (int i = 0; i < warmup; ++i)
    fn();
  timer.reserve(std::size_t(repeat), where);
  for (std::size_t i = 0; i < std::size_t(repeat); ++i) {
    if (options.clear_l2)
      timer.clear_cache(where);
    timer.begin(i, where);
    fn();
    timer.end(i, where);
  }
  timer.wait(where);
  std::vector<double> times(std::size_t(repeat), 0.0);
  for (std::size_t i = 0; i < times.size(); ++i)
    times[i] = timer.elapsed_ms(i, where);
  bench_result r = summarize(std::move(times), options, where);
  r.warmup_runs = warmup;
  r.estimate_ms = estimate;
  r.clock = timer.clock();
  return r;
}

/// Times with the host's steady clock: the interpreter's launches are done when they return.
class host_timer final : public bench_timer {
public:
  void reserve(std::size_t n, std::source_location) override {
    if (marks_.size() < 2 * n)
      marks_.resize(2 * n);
  }
  void begin(std::size_t i, std::source_location) override { marks_[2 * i] = host_clock_ms(); }
  void end(std::size_t i, std::source_location) override { marks_[2 * i + 1] = host_clock_ms(); }
  void clear_cache(std::source_location) override {}
  void wait(std::source_location) override {}
  double elapsed_ms(std::size_t i, std::source_location) override {
    return marks_[2 * i + 1] - marks_[2 * i];
  }
  bench_clock clock() const override { return bench_clock::host; }

private:
  std::vector<double> marks_;
};

/// Times with a pair of CUDA events per interval on one stream; clears L2 by overwriting
/// `flush` with cuMemsetD32Async on the same stream.
class event_timer final : public bench_timer {
public:
  event_timer(const cu::driver &driver, cu::stream stream, l2_flush_buffer flush)
      : driver_(driver), stream_(stream), flush_(flush) {}
  void reserve(std::size_t n, std::source_location where) override {
    events_.reserve(2 * n);
    while (events_.size() < 2 * n)
      events_.emplace_back(driver_, event_options{}, where);
  }
  void begin(std::size_t i, std::source_location where) override {
    events_[2 * i].record(stream_, where);
  }
  void end(std::size_t i, std::source_location where) override {
    events_[2 * i + 1].record(stream_, where);
  }
  void clear_cache(std::source_location where) override {
    if (flush_.bytes)
      driver_.check(driver_.memset_d32_async(flush_.address, 0, flush_.bytes / 4, stream_),
                    "cuMemsetD32Async", where);
  }
  void wait(std::source_location where) override {
    driver_.check(driver_.stream_synchronize(stream_), "cuStreamSynchronize", where);
  }
  double elapsed_ms(std::size_t i, std::source_location where) override {
    return events_[2 * i].elapsed_ms(events_[2 * i + 1], where);
  }
  bench_clock clock() const override { return bench_clock::gpu_events; }

private:
  const cu::driver &driver_;
  cu::stream stream_;
  l2_flush_buffer flush_;
  std::vector<event> events_;
};

TK_DECL l2_flush_buffer flush_buffer(const cu::driver &driver, cu::context context,
                                     std::source_location where) {
  struct entry {
    const cu::driver *driver;
    cu::context context;
    l2_flush_buffer buffer;
  };
  static std::mutex mutex;
  static auto *const buffers = new std::vector<entry>; // kept for the process, like its modules
  const std::lock_guard<std::mutex> lock(mutex);
  for (const entry &e : *buffers)
    if (e.driver == &driver && e.context == context)
      return e.buffer;
  int l2 = 0;
  const cu::device_info &device = driver.device_of(context, where);
  if (driver.device_get_attribute(&l2, cu::attribute_l2_cache_size, device.handle) != cu::success ||
      l2 <= 0)
    l2 = 64 << 20; // 4 x 64 MiB: Triton's 256 MB
  const std::size_t mib = std::size_t(1) << 20;
  l2_flush_buffer b;
  b.bytes = (4 * std::size_t(l2) + mib - 1) / mib * mib;
  driver.check(driver.mem_alloc(&b.address, b.bytes), "cuMemAlloc (the buffer that clears L2)",
               where);
  buffers->push_back({&driver, context, b});
  return b;
}

TK_DECL bench_result do_bench(function_ref<void()> fn, const bench_options &options,
                              std::source_location where) {
  check_bench_options(options, "tk::do_bench", where);
  if (interpret_requested()) {
    host_timer timer;
    return run_bench(timer, fn, options, where);
  }
  return do_bench_on(cu::get_driver(where), fn, options, where);
}

TK_DECL bench_result do_bench_on(const cu::driver &driver, function_ref<void()> fn,
                                 const bench_options &options, std::source_location where) {
  check_bench_options(options, "tk::do_bench", where);
  const cu::context context = driver.launch_context(where);
  event_timer timer(driver, static_cast<cu::stream>(options.stream),
                    options.clear_l2 ? flush_buffer(driver, context, where) : l2_flush_buffer{});
  return run_bench(timer, fn, options, where);
}

// ---------------------------------------------------------------------------------------------
// do_bench_cudagraph

/// The retries of do_bench_cudagraph: graph launches timed (Triton's n_retries).
inline constexpr int graph_retries = 10;

/// do_bench_cudagraph's statistics from the time of each retry of `calls` calls.
inline bench_result graph_result(std::vector<double> run_ms, int calls, double estimate,
                                 bench_clock clock, const bench_options &options,
                                 std::source_location where) {
  for (double &t : run_ms)
    t /= calls;
  bench_result r = summarize(std::move(run_ms), options, where);
  r.warmup_runs = 1;
  r.calls_per_run = calls;
  r.estimate_ms = estimate;
  r.clock = clock;
  return r;
}

TK_DECL bench_result do_bench_cudagraph(function_ref<void(void *)> fn, bool takes_stream,
                                        const bench_options &options, std::source_location where) {
  check_bench_options(options, "tk::do_bench_cudagraph", where);
  if (!takes_stream && !options.stream)
    fail(where, "tk::do_bench_cudagraph cannot capture the default stream, where fn queues its "
                "work: give fn a void * parameter, the stream to launch on "
                "(launch_options::stream), or set bench_options::stream to a stream of your own "
                "and launch there");
  if (!interpret_requested())
    return do_bench_cudagraph_on(cu::get_driver(where), fn, takes_stream, options, where);
  // The interpreter: the same calls, on the host's clock.
  host_timer timer;
  fn(options.stream);
  timer.reserve(graph_retries, where);
  timer.begin(0, where);
  for (int i = 0; i < 5; ++i)
    fn(options.stream);
  timer.end(0, where);
  const double estimate = timer.elapsed_ms(0, where) / 5;
  const int calls = calls_in(options.rep_ms, estimate);
  std::vector<double> run_ms;
  for (std::size_t r = 0; r < graph_retries; ++r) {
    timer.begin(r, where);
    for (int i = 0; i < calls; ++i)
      fn(options.stream);
    timer.end(r, where);
    run_ms.push_back(timer.elapsed_ms(r, where));
  }
  return graph_result(std::move(run_ms), calls, estimate, bench_clock::host, options, where);
}

TK_DECL bench_result do_bench_cudagraph_on(const cu::driver &driver, function_ref<void(void *)> fn,
                                           bool takes_stream, const bench_options &options,
                                           std::source_location where) {
  (void)takes_stream; // do_bench_cudagraph checked that fn has a stream to capture on
  check_bench_options(options, "tk::do_bench_cudagraph", where);
  if (!driver.stream_begin_capture || !driver.stream_end_capture || !driver.graph_instantiate ||
      !driver.graph_launch || !driver.graph_exec_destroy || !driver.graph_destroy)
    fail(where,
         "tk::do_bench_cudagraph needs CUDA graphs (cuStreamBeginCapture, "
         "cuGraphInstantiateWithFlags, cuGraphLaunch ...), which the CUDA driver ",
         driver.library, " (CUDA ", cu::driver::version_text(driver.version),
         ") does not offer; update the NVIDIA driver, or time with tk::do_bench");
  (void)driver.launch_context(where);

  // The stream to capture on: the caller's, or one of our own.
  struct owned_stream {
    const cu::driver &d;
    cu::stream s = nullptr;
    ~owned_stream() {
      if (s)
        d.stream_destroy(s);
    }
  } own{driver};
  cu::stream stream = static_cast<cu::stream>(options.stream);
  if (!stream) {
    driver.check(driver.stream_create(&own.s, cu::stream_non_blocking), "cuStreamCreate", where);
    stream = own.s;
  }
  void *const s = stream;
  auto sync = [&] {
    driver.check(driver.stream_synchronize(stream), "cuStreamSynchronize", where);
  };

  fn(s); // compiles what fn launches, outside the capture
  sync();
  event start(driver, {}, where), stop(driver, {}, where);
  start.record(s, where);
  for (int i = 0; i < 5; ++i)
    fn(s);
  stop.record(s, where);
  const double estimate = start.elapsed_ms(stop, where) / 5;
  const int calls = calls_in(options.rep_ms, estimate);

  struct graph_handles {
    const cu::driver &d;
    cu::graph g = nullptr;
    cu::graph_exec exec = nullptr;
    ~graph_handles() {
      if (exec)
        d.graph_exec_destroy(exec);
      if (g)
        d.graph_destroy(g);
    }
  } graph{driver};
  driver.check(driver.stream_begin_capture(stream, cu::stream_capture_mode_thread_local),
               "cuStreamBeginCapture", where);
  try {
    for (int i = 0; i < calls; ++i)
      fn(s);
  } catch (...) {
    driver.stream_end_capture(stream, &graph.g); // leaves the stream usable
    throw;
  }
  if (const cu::result r = driver.stream_end_capture(stream, &graph.g); r != cu::success)
    fail(where,
         "tk::do_bench_cudagraph: capturing fn into a CUDA graph failed "
         "(cuStreamEndCapture: ",
         driver.describe(r),
         "); fn must queue all its work on the stream it is given, and "
         "nothing in it may synchronize");
  driver.check(driver.graph_instantiate(&graph.exec, graph.g, 0), "cuGraphInstantiateWithFlags",
               where);
  driver.check(driver.graph_launch(graph.exec, stream), "cuGraphLaunch", where); // uploads it
  sync();
  std::vector<double> run_ms;
  for (int r = 0; r < graph_retries; ++r) {
    start.record(s, where);
    driver.check(driver.graph_launch(graph.exec, stream), "cuGraphLaunch", where);
    stop.record(s, where);
    run_ms.push_back(start.elapsed_ms(stop, where));
  }
  return graph_result(std::move(run_ms), calls, estimate, bench_clock::gpu_events, options, where);
}

// ---------------------------------------------------------------------------------------------
// perf_report

/// A number as a table shows it: integers whole, large numbers without a fraction, others with
/// 5 significant digits.
inline std::string format_number(double v) {
  char text[64];
  if (std::isfinite(v) && (std::fabs(v) >= 1e5 || (v == std::floor(v) && std::fabs(v) < 1e15)))
    std::snprintf(text, sizeof text, "%.0f", v);
  else
    std::snprintf(text, sizeof text, "%.5g", v);
  return text;
}

} // namespace detail

TK_DECL std::string perf_table::text() const {
  const std::size_t columns = providers.size() + 1;
  std::vector<std::vector<std::string>> cells(x_values.size() + 1);
  cells[0].push_back(x_name);
  for (const std::string &p : providers)
    cells[0].push_back(p);
  for (std::size_t i = 0; i < x_values.size(); ++i) {
    cells[i + 1].push_back(detail::format_number(x_values[i]));
    for (double v : values[i])
      cells[i + 1].push_back(detail::format_number(v));
  }
  std::vector<std::size_t> width(columns, 0);
  for (const auto &row : cells)
    for (std::size_t c = 0; c < row.size(); ++c)
      width[c] = width[c] < row[c].size() ? row[c].size() : width[c];
  std::string out = title.empty() ? "" : title + " (" + metric_name + "):\n";
  for (const auto &row : cells) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      out += c ? "  " : "";
      out += std::string(width[c] - row[c].size(), ' ') + row[c];
    }
    out += '\n';
  }
  return out;
}

TK_DECL std::string perf_table::csv() const {
  auto field = [](const std::string &s) {
    if (s.find_first_of(",\"\n") == std::string::npos)
      return s;
    std::string quoted = "\"";
    for (char c : s)
      quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  };
  std::string out = field(x_name);
  for (const std::string &p : providers)
    out += "," + field(p);
  out += '\n';
  for (std::size_t i = 0; i < x_values.size(); ++i) {
    char text[64];
    std::snprintf(text, sizeof text, "%.10g", x_values[i]);
    out += text;
    for (double v : values[i]) {
      std::snprintf(text, sizeof text, ",%.10g", v);
      out += text;
    }
    out += '\n';
  }
  return out;
}

TK_DECL perf_table perf_report::run(std::source_location where) const {
  const std::string name = title.empty() ? "" : " \"" + title + "\"";
  if (x_values.empty())
    detail::fail(where, "tk::perf_report", name, " has no x_values");
  if (providers.empty())
    detail::fail(where, "tk::perf_report", name, " has no providers");
  for (const bench_provider &p : providers)
    if (!p.run)
      detail::fail(where, "tk::perf_report", name, ": provider \"", p.name,
                   "\" has no run callable");
  perf_table table{title, x_name, metric ? metric_name : std::string("ms"), x_values, {}, {}};
  for (const bench_provider &p : providers)
    table.providers.push_back(p.name);
  for (double x : x_values) {
    std::vector<double> row;
    for (const bench_provider &p : providers) {
      const double ms = p.run(x).ms;
      row.push_back(metric ? metric(ms, x) : ms);
    }
    table.values.push_back(std::move(row));
  }
  if (print_to) {
    std::fputs(table.text().c_str(), print_to);
    std::fflush(print_to);
  }
  if (!csv_path.empty()) {
    std::FILE *f = std::fopen(csv_path.c_str(), "w");
    if (!f)
      detail::fail(where, "tk::perf_report", name, ": cannot write ", csv_path, ": ",
                   std::strerror(errno));
    const std::string text = table.csv();
    const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !written)
      detail::fail(where, "tk::perf_report", name, ": cannot write ", csv_path);
  }
  return table;
}

} // namespace tk

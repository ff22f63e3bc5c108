/// @file testing.cpp
/// tk::synchronize, tk::event, tk::do_bench, tk::do_bench_cudagraph and tk::perf_report
/// (tk/testing.hpp) without a GPU: the statistics and run counts on a scripted clock, the
/// interpreter's host clock, the GPU path on the stand-in driver (tests/support/fake_cuda.cpp,
/// whose events record a clock that each record moves on by 1 ms), and every error's message and
/// line. No assertion depends on how long anything takes.
#include "expect_error.hpp"
#include "scoped_env.hpp"

#include <catch2/catch.hpp>
#include <tk/testing.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace cu = tk::detail::cu;
using tk_test::expect_error;
using tk_test::scoped_env;

namespace {

/// A clock that only `fn` moves: each call takes `ms_per_call`; cache clears are counted.
class scripted_timer final : public tk::detail::bench_timer {
public:
  double now = 0;
  int clears = 0;
  void reserve(std::size_t n, std::source_location) override {
    if (marks_.size() < 2 * n)
      marks_.resize(2 * n);
  }
  void begin(std::size_t i, std::source_location) override { marks_[2 * i] = now; }
  void end(std::size_t i, std::source_location) override { marks_[2 * i + 1] = now; }
  void clear_cache(std::source_location) override { ++clears; }
  void wait(std::source_location) override {}
  double elapsed_ms(std::size_t i, std::source_location) override {
    return marks_[2 * i + 1] - marks_[2 * i];
  }
  tk::bench_clock clock() const override { return tk::bench_clock::host; }

private:
  std::vector<double> marks_;
};

} // namespace

TEST_CASE("do_bench's statistics are Triton's", "[testing]") {
  const auto r = tk::detail::summarize({4, 1, 3, 2}, {.quantiles = {0.25, 0.5, 1}}, {});
  CHECK(r.mean == 2.5);
  CHECK(r.median == 2.5); // the mean of the two middle times, as statistics.median
  CHECK(r.min == 1);
  CHECK(r.max == 4);
  CHECK(r.stddev == Approx(std::sqrt(5.0 / 3)));
  CHECK(r.quantiles == std::vector<double>{1.75, 2.5, 4}); // linear between the nearest runs
  CHECK(r.times == std::vector<double>{4, 1, 3, 2});       // in the order run
  CHECK(r.runs == 4);
  CHECK(r.ms == r.mean);
  CHECK(r.quantile(0) == 1);
  CHECK(r.quantile(1.0 / 3) == 2);
  CHECK(r.quantile(0.9) == Approx(3.7));
  const auto odd = tk::detail::summarize({5, 1, 3}, {.return_mode = tk::return_mode::median}, {});
  CHECK(odd.median == 3);
  CHECK(odd.ms == 3);
  CHECK(tk::detail::summarize({5, 1, 3}, {.return_mode = tk::return_mode::min}, {}).ms == 1);
  CHECK(tk::detail::summarize({5, 1, 3}, {.return_mode = tk::return_mode::max}, {}).ms == 5);
  CHECK(tk::detail::summarize({5, 1, 3}, {.return_mode = tk::return_mode::all}, {}).ms == 3);
  const auto one = tk::detail::summarize({7}, {}, {});
  CHECK(one.stddev == 0);
  CHECK(one.median == 7);
  CHECK(one.quantile(0.3) == 7);
}

TEST_CASE("do_bench's run counts come from the budgets and a 5-call estimate", "[testing]") {
  scripted_timer timer;
  int calls = 0;
  auto fn = [&] {
    ++calls;
    timer.now += 2; // 2 ms a call
  };
  const auto r = tk::detail::run_bench(timer, fn, {}, {});
  CHECK(r.estimate_ms == 2);
  CHECK(r.warmup_runs == 12); // int(25 / 2)
  CHECK(r.runs == 50);        // int(100 / 2)
  CHECK(calls == 1 + 5 + 12 + 50);
  CHECK(timer.clears == 5 + 50); // before each estimate call and each timed run
  CHECK(r.mean == 2);
  CHECK(r.times.size() == 50);
  CHECK(r.calls_per_run == 1);

  // At least one of each, as Triton's max(1, int(budget / estimate)).
  scripted_timer slow;
  int slow_calls = 0;
  auto slow_fn = [&] {
    ++slow_calls;
    slow.now += 500;
  };
  const auto s = tk::detail::run_bench(slow, slow_fn, {.clear_l2 = false}, {});
  CHECK(s.warmup_runs == 1);
  CHECK(s.runs == 1);
  CHECK(slow.clears == 0);
  CHECK(slow_calls == 1 + 5 + 1 + 1);

  // A call too short to measure counts as 1 us.
  scripted_timer instant;
  const auto i = tk::detail::run_bench(instant, [] {}, {.warmup_ms = 0.005, .rep_ms = 0.01}, {});
  CHECK(i.estimate_ms == 0);
  CHECK(i.warmup_runs == 5);
  CHECK(i.runs == 10);
}

TEST_CASE("do_bench with run counts makes no estimate", "[testing]") {
  scripted_timer timer;
  int calls = 0;
  auto fn = [&] {
    ++calls;
    timer.now += 1;
  };
  const auto r =
      tk::detail::run_bench(timer, fn, {.clear_l2 = false, .warmup_runs = 3, .repeat_runs = 7}, {});
  CHECK(calls == 1 + 3 + 7);
  CHECK(r.estimate_ms == 0);
  CHECK(r.warmup_runs == 3);
  CHECK(r.runs == 7);
  // One count alone still needs the estimate for the other.
  calls = 0;
  const auto w = tk::detail::run_bench(timer, fn, {.clear_l2 = false, .warmup_runs = 0}, {});
  CHECK(calls == 1 + 5 + 0 + 100);
  CHECK(w.runs == 100);
}

TEST_CASE("do_bench on the interpreter times with the host clock", "[testing]") {
  scoped_env interpret("TK_INTERPRET", "1");
  int calls = 0;
  const auto r =
      tk::do_bench([&] { ++calls; }, {.quantiles = {0.5}, .warmup_runs = 2, .repeat_runs = 9});
  CHECK(r.clock == tk::bench_clock::host);
  CHECK(std::string(tk::to_string(r.clock)) == "host steady clock");
  CHECK(calls == 1 + 2 + 9);
  CHECK(r.runs == 9);
  CHECK(r.times.size() == 9);
  CHECK(r.quantiles.size() == 1);
  CHECK(r.min <= r.median);
  CHECK(r.median <= r.max);
  // A callable taking the stream gets bench_options::stream.
  int stream_object = 0;
  void *seen = nullptr;
  tk::do_bench([&](void *stream) { seen = stream; },
               {.stream = &stream_object, .warmup_runs = 0, .repeat_runs = 1});
  CHECK(seen == &stream_object);
  // From the budgets: at least one warm-up and one timed run.
  const auto b = tk::do_bench([] {}, {.warmup_ms = 0, .rep_ms = 0});
  CHECK(b.warmup_runs == 1);
  CHECK(b.runs >= 1);
}

TEST_CASE("do_bench_cudagraph on the interpreter times the same calls", "[testing]") {
  scoped_env interpret("TK_INTERPRET", "1");
  int calls = 0;
  const auto r = tk::do_bench_cudagraph([&](void *) { ++calls; }, {.rep_ms = 0});
  CHECK(r.clock == tk::bench_clock::host);
  CHECK(r.runs == 10);
  CHECK(r.calls_per_run == 1);
  CHECK(calls == 1 + 5 + 10);
}

TEST_CASE("do_bench's options are checked at the caller's line", "[testing]") {
  scoped_env interpret("TK_INTERPRET", "1");
  int line = 0;
  auto nothing = [] {};
  expect_error("testing.cpp", line, "tk::do_bench: quantile 1.5 is not in [0, 1]", [&] {
    line = __LINE__ + 1;
    tk::do_bench(nothing, {.quantiles = {0.2, 1.5}});
  });
  expect_error(
      "testing.cpp", line,
      "tk::do_bench: bench_options::warmup_ms is -1; it must be a finite number of ms >= 0", [&] {
        line = __LINE__ + 1;
        tk::do_bench(nothing, {.warmup_ms = -1});
      });
  expect_error("testing.cpp", line, "tk::do_bench: bench_options::rep_ms is nan; it must be", [&] {
    line = __LINE__ + 1;
    tk::do_bench(nothing, {.rep_ms = std::nan("")});
  });
  expect_error("testing.cpp", line,
               "tk::do_bench: bench_options::repeat_runs is 0; it must be 1 or more", [&] {
                 line = __LINE__ + 1;
                 tk::do_bench(nothing, {.repeat_runs = 0});
               });
  expect_error("testing.cpp", line,
               "tk::do_bench: bench_options::warmup_runs is -2; it must be 0 or more", [&] {
                 line = __LINE__ + 1;
                 tk::do_bench(nothing, {.warmup_runs = -2});
               });
  expect_error("testing.cpp", line, "tk::do_bench_cudagraph: quantile -0.1 is not in [0, 1]", [&] {
    line = __LINE__ + 1;
    tk::do_bench_cudagraph([](void *) {}, {.quantiles = {-0.1}});
  });
  expect_error("testing.cpp", line,
               "tk::do_bench_cudagraph cannot capture the default stream, where fn queues its "
               "work: give fn a void * parameter, the stream to launch on "
               "(launch_options::stream), or set bench_options::stream to a stream of your own",
               [&] {
                 line = __LINE__ + 1;
                 tk::do_bench_cudagraph(nothing);
               });
  const auto r = tk::detail::summarize({1, 2}, {}, {});
  expect_error("testing.cpp", line, "tk::bench_result::quantile(2): q must be in [0, 1]", [&] {
    line = __LINE__ + 1;
    (void)r.quantile(2);
  });
  expect_error("testing.cpp", line, "tk::bench_result::quantile: the result holds no times", [&] {
    line = __LINE__ + 1;
    (void)tk::bench_result{}.quantile(0.5);
  });
}

TEST_CASE("synchronize returns at once on the interpreter", "[testing]") {
  scoped_env interpret("TK_INTERPRET", "1");
  CHECK_NOTHROW(tk::synchronize());
  CHECK_NOTHROW(tk::synchronize(nullptr));
}

TEST_CASE("without a GPU, synchronize, events and do_bench say why at the caller's line",
          "[testing]") {
  std::string why;
  void *handle = tk::detail::os::open_library(cu::default_library, why);
  tk::detail::os::close_library(handle);
  if (handle) {
    // (or an earlier test left a stand-in loaded under the driver's name)
    SUCCEED("a CUDA driver loads here; the no-driver errors cannot be checked");
    return;
  }
  scoped_env interpret("TK_INTERPRET", nullptr);
  int line = 0;
  expect_error("testing.cpp", line, "no CUDA driver: cannot load libcuda.so.1", [&] {
    line = __LINE__ + 1;
    tk::synchronize();
  });
  expect_error("testing.cpp", line, "no CUDA driver", [&] {
    line = __LINE__ + 1;
    tk::synchronize(nullptr);
  });
  expect_error("testing.cpp", line, "or run on the CPU interpreter with TK_INTERPRET=1", [&] {
    line = __LINE__ + 1;
    tk::event e;
  });
  expect_error("testing.cpp", line, "no CUDA driver", [&] {
    line = __LINE__ + 1;
    tk::do_bench([] {});
  });
  expect_error("testing.cpp", line, "no CUDA driver", [&] {
    line = __LINE__ + 1;
    tk::do_bench_cudagraph([](void *) {});
  });
}

TEST_CASE("host events time the interpreter with the steady clock", "[testing]") {
  scoped_env interpret("TK_INTERPRET", "1");
  tk::event start, end;
  CHECK(start.on_host());
  CHECK(start.native() == nullptr);
  CHECK(start.query()); // never recorded: done, as CUDA says
  start.record();
  end.record(nullptr);
  end.synchronize();
  end.wait(nullptr);
  CHECK(end.query());
  CHECK(tk::elapsed_ms(start, end) >= 0);
  tk::event moved = std::move(start);
  CHECK(moved.on_host());
  CHECK(!start.on_host()); // NOLINT: moved from on purpose
  CHECK(moved.elapsed_ms(end) >= 0);

  int line = 0;
  expect_error("testing.cpp", line, "tk::event::record: the event was moved from", [&] {
    line = __LINE__ + 1;
    start.record(); // NOLINT: moved from on purpose
  });
  expect_error("testing.cpp", line, "tk::event::elapsed_ms: the end event was moved from", [&] {
    line = __LINE__ + 1;
    (void)end.elapsed_ms(start); // NOLINT: moved from on purpose
  });
  tk::event fresh;
  expect_error("testing.cpp", line, "tk::event::elapsed_ms: the end event was never recorded", [&] {
    line = __LINE__ + 1;
    (void)tk::elapsed_ms(end, fresh);
  });
  expect_error("testing.cpp", line, "tk::event::elapsed_ms: the start event was never recorded",
               [&] {
                 line = __LINE__ + 1;
                 (void)fresh.elapsed_ms(end);
               });
  tk::event untimed({.timing = false});
  untimed.record();
  CHECK(!untimed.timing());
  expect_error("testing.cpp", line,
               "tk::event::elapsed_ms: the start event was made with timing off "
               "(event_options::timing)",
               [&] {
                 line = __LINE__ + 1;
                 (void)untimed.elapsed_ms(end);
               });
}

TEST_CASE("perf_report sweeps sizes over providers and prints a table", "[testing]") {
  scoped_env interpret("TK_INTERPRET", "1");
  const tk::perf_table t =
      tk::perf_report{.title = "copy",
                      .x_name = "n",
                      .x_values = {1024, 1048576},
                      .providers = {{"fixed", [](double) { return 2.0; }},
                                    {"bench result",
                                     [](double n) {
                                       tk::bench_result r;
                                       r.ms = n / 1024;
                                       return r;
                                     }}},
                      .metric_name = "GB/s",
                      .metric = [](double ms, double n) { return 8 * n / ms * 1e-6; },
                      .print_to = nullptr}
          .run();
  REQUIRE(t.values.size() == 2);
  CHECK(t.values[0][0] == Approx(8 * 1024 / 2.0 * 1e-6));
  CHECK(t.values[1][1] == Approx(8 * 1024 * 1e-6));
  CHECK(t.metric_name == "GB/s");
  CHECK(t.text() == "copy (GB/s):\n"
                    "      n     fixed  bench result\n"
                    "   1024  0.004096      0.008192\n"
                    "1048576    4.1943      0.008192\n");
  CHECK(t.csv() == "n,fixed,bench result\n"
                   "1024,0.004096,0.008192\n"
                   "1048576,4.194304,0.008192\n");
  // Without a metric, the providers' ms; a do_bench result straight from a provider.
  int runs = 0;
  const auto plain =
      tk::perf_report{.x_values = {3},
                      .providers = {{"interpreted",
                                     [&](double) {
                                       return tk::do_bench([&] { ++runs; },
                                                           {.warmup_runs = 0, .repeat_runs = 2});
                                     }}},
                      .print_to = nullptr}
          .run();
  CHECK(plain.metric_name == "ms");
  CHECK(runs == 3);
  CHECK(plain.values[0][0] >= 0);
}

TEST_CASE("perf_report's mistakes are named at the caller's line", "[testing]") {
  int line = 0;
  expect_error("testing.cpp", line, "tk::perf_report \"sweep\" has no x_values", [&] {
    line = __LINE__ + 1;
    tk::perf_report{.title = "sweep", .providers = {{"a", [](double) { return 1.0; }}}}.run();
  });
  expect_error("testing.cpp", line, "tk::perf_report has no providers", [&] {
    line = __LINE__ + 1;
    tk::perf_report{.x_values = {1}}.run();
  });
  expect_error("testing.cpp", line, "tk::perf_report: provider \"b\" has no run callable", [&] {
    line = __LINE__ + 1;
    tk::perf_report{.x_values = {1}, .providers = {{"b", {}}}}.run();
  });
  const tk::perf_report unwritable{.x_values = {1},
                                   .providers = {{"a", [](double) { return 1.0; }}},
                                   .print_to = nullptr,
                                   .csv_path = "/nonexistent/dir/out.csv"};
  expect_error("testing.cpp", line,
               "tk::perf_report: cannot write /nonexistent/dir/out.csv: No such file or directory",
               [&] {
                 line = __LINE__ + 1;
                 unwritable.run();
               });
}

#ifdef TK_TEST_FAKE_CUDA

namespace {

const char *fake_targets(std::source_location) { return "sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a"; }

tk::detail::owned<cu::driver> load_fake() {
  auto d = cu::driver::load(TK_TEST_FAKE_CUDA);
  d->backend_targets = fake_targets;
  return d;
}

/// What the stand-in driver was asked for (fake_cuda_stat).
long long fake_stat(const char *name) {
  std::string why;
  void *handle = tk::detail::os::open_library(TK_TEST_FAKE_CUDA, why);
  REQUIRE(handle);
  auto stat = reinterpret_cast<long long (*)(const char *)>(
      tk::detail::os::find_symbol(handle, "fake_cuda_stat"));
  REQUIRE(stat);
  return stat(name);
}

} // namespace

TEST_CASE("do_bench on the GPU times each run with a pair of events and clears L2", "[testing]") {
  auto d = load_fake();
  const long long events = fake_stat("events_live"), memsets = fake_stat("memsets");
  int calls = 0;
  // Each record moves the fake GPU clock on by 1 ms: every interval is 1 ms, the estimate 0.2.
  const auto r = tk::detail::do_bench_on(*d, [&] { ++calls; }, {.quantiles = {0.5}}, {});
  CHECK(r.clock == tk::bench_clock::gpu_events);
  CHECK(r.estimate_ms == Approx(0.2));
  CHECK(r.warmup_runs == 125);
  CHECK(r.runs == 500);
  CHECK(calls == 1 + 5 + 125 + 500);
  CHECK(r.mean == Approx(1));
  CHECK(r.quantiles[0] == Approx(1));
  CHECK(fake_stat("memsets") - memsets == 5 + 500);
  CHECK(fake_stat("events_live") == events); // every event destroyed

  // The buffer is four times the L2 (256 MB where the driver does not say), in whole MiB, and
  // the same buffer every time; each clear overwrites all of it.
  const cu::context ctx = d->launch_context();
  const auto buffer = tk::detail::flush_buffer(*d, ctx, {});
  int l2 = 0;
  const bool known = d->device_get_attribute(&l2, cu::attribute_l2_cache_size,
                                             d->device_of(ctx).handle) == cu::success;
  const std::size_t mib = std::size_t(1) << 20;
  CHECK(buffer.bytes == (known ? (4 * std::size_t(l2) + mib - 1) / mib * mib : 256 * mib));
  CHECK(fake_stat("memset_words") == static_cast<long long>(buffer.bytes / 4));
  CHECK(tk::detail::flush_buffer(*d, ctx, {}).address == buffer.address);

  const long long after = fake_stat("memsets");
  tk::detail::do_bench_on(*d, [] {}, {.clear_l2 = false, .warmup_runs = 0, .repeat_runs = 3}, {});
  CHECK(fake_stat("memsets") == after);
}

TEST_CASE("do_bench_cudagraph captures rep_ms of calls in one graph and times its launches",
          "[testing]") {
  auto d = load_fake();
  const long long launches = fake_stat("graph_launches"), streams = fake_stat("streams_live");
  int calls = 0;
  void *stream = nullptr;
  const auto r = tk::detail::do_bench_cudagraph_on(*d,
                                                   [&](void *s) {
                                                     ++calls;
                                                     stream = s;
                                                   },
                                                   true, {}, {});
  CHECK(stream != nullptr); // a stream of its own, not the default stream
  CHECK(r.estimate_ms == Approx(0.2));
  CHECK(r.calls_per_run == 500); // int(100 / 0.2) calls in the graph
  CHECK(calls == 1 + 5 + 500);
  CHECK(r.runs == 10);
  CHECK(r.warmup_runs == 1);
  CHECK(r.mean == Approx(1.0 / 500));
  CHECK(fake_stat("graph_launches") - launches == 1 + 10);
  CHECK(fake_stat("streams_live") == streams);
  CHECK(fake_stat("graphs_live") == 0);
  CHECK(fake_stat("execs_live") == 0);
}

TEST_CASE("do_bench_cudagraph's failures name the caller's line", "[testing]") {
  int line = 0;
  {
    scoped_env capture("FAKE_CUDA_CAPTURE_RESULT", "999");
    auto d = load_fake();
    expect_error("testing.cpp", line,
                 "tk::do_bench_cudagraph: capturing fn into a CUDA graph failed "
                 "(cuStreamEndCapture: CUDA_ERROR_UNKNOWN (unknown error)); fn must queue all its "
                 "work on the stream it is given, and nothing in it may synchronize",
                 [&] {
                   line = __LINE__ + 1;
                   const auto at = std::source_location::current();
                   tk::detail::do_bench_cudagraph_on(*d, [](void *) {}, true, {}, at);
                 });
  }
  scoped_env missing("FAKE_CUDA_MISSING", "cuStreamBeginCapture");
  auto old = load_fake();
  expect_error(
      "testing.cpp", line,
      "tk::do_bench_cudagraph needs CUDA graphs (cuStreamBeginCapture, "
      "cuGraphInstantiateWithFlags, cuGraphLaunch ...), which the CUDA driver " TK_TEST_FAKE_CUDA
      " (CUDA 12.8) does not offer; update the NVIDIA driver, or time with tk::do_bench",
      [&] {
        line = __LINE__ + 1;
        const auto at = std::source_location::current();
        tk::detail::do_bench_cudagraph_on(*old, [](void *) {}, true, {}, at);
      });
}

TEST_CASE("GPU events record, wait and time through the driver", "[testing]") {
  auto d = load_fake();
  const long long live = fake_stat("events_live");
  {
    tk::event a(*d, {}, {}), b(*d, {}, {});
    CHECK(!a.on_host());
    CHECK(a.native() != nullptr);
    a.record();
    b.record();
    b.wait(nullptr);
    CHECK(b.query());
    CHECK(a.elapsed_ms(b) == Approx(1));
    CHECK(fake_stat("events_live") == live + 2);
    {
      scoped_env busy("FAKE_CUDA_QUERY_RESULT", "600"); // CUDA_ERROR_NOT_READY
      CHECK(!b.query());
    }
    scoped_env interpret("TK_INTERPRET", "1");
    tk::event host;
    host.record();
    int line = 0;
    expect_error("testing.cpp", line,
                 "tk::event::elapsed_ms: the end event is a host event (made while TK_INTERPRET "
                 "selected the interpreter) and the other a GPU event",
                 [&] {
                   line = __LINE__ + 1;
                   (void)a.elapsed_ms(host);
                 });
    scoped_env fails("FAKE_CUDA_RECORD_RESULT", "1");
    expect_error("testing.cpp", line,
                 "cuEventRecord failed: CUDA_ERROR_INVALID_VALUE (invalid argument)", [&] {
                   line = __LINE__ + 1;
                   a.record();
                 });
  }
  CHECK(fake_stat("events_live") == live);
}

#endif

/// @file autotune.ipp
/// The bodies of the functions autotune.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/autotune.hpp>

namespace tk {

TK_DECL std::string config::describe() const {
  std::string s;
  for (const auto &[name, value] : constants)
    s += name + "=" + std::to_string(value) + ", ";
  return s + "num_warps=" + std::to_string(num_warps) +
         ", num_stages=" + std::to_string(num_stages);
}

TK_DECL bool launch_view::has_constant(std::string_view name) const {
  if (config_)
    for (const auto &[n, v] : config_->constants)
      if (n == name)
        return true;
  for (const detail::launch_value &a : args_)
    if (a.placeholder && a.what != detail::launch_value::kind::none && a.name == name)
      return true;
  return false;
}

TK_DECL const detail::launch_value &launch_view::no_argument(std::size_t index,
                                                             std::source_location where) const {
  detail::fail(where, "tk::launch_view::arg(", index, "): kernel '", kernel_, "' has ",
               args_.size(), " launch arguments");
}

TK_DECL detail::launch_value launch_view::find_constant(std::string_view name,
                                                        std::source_location where) const {
  std::string known;
  const auto add = [&](std::string_view n) {
    known += (known.empty() ? "\"" : ", \"") + std::string(n) + "\"";
  };
  if (config_)
    for (const auto &[n, v] : config_->constants) {
      if (n == name) {
        detail::launch_value r = detail::value_of(v);
        r.name = n;
        return r;
      }
      add(n);
    }
  for (const detail::launch_value &a : args_)
    if (a.placeholder && a.what != detail::launch_value::kind::none) {
      if (a.name == name)
        return a;
      add(a.name);
    }
  detail::fail(where, "tk::launch_view::constant(\"", name, "\"): kernel '", kernel_,
               "' has no constant of that name here (",
               known.empty() ? std::string("none is known") : "known: " + known,
               config_ ? ")" : "; without a config, only heuristics computed so far)");
}

} // namespace tk

namespace tk::detail {

TK_DECL std::string describe_launch_value(const launch_value &v) {
  using K = launch_value::kind;
  std::string what;
  if (v.placeholder)
    what = std::string(v.placeholder) + "(\"" + std::string(v.name) + "\")";
  switch (v.what) {
  case K::none:
    return what + ", which has no value here";
  case K::pointer:
    return (what.empty() ? "" : what + ", ") + "a " + (v.pointee_const ? "const " : "") + v.label +
           "*";
  case K::boolean:
    return (what.empty() ? "" : what + ", ") + "the bool " + (v.i ? "true" : "false");
  case K::integer: {
    const std::string number =
        v.is_signed ? std::to_string(v.i) : std::to_string(std::uint64_t(v.i));
    return (what.empty() ? "" : what + ", ") + (v.is_enum
                                                    ? "an enum of value " + number
                                                    : "the " + std::string(v.label) + " " + number);
  }
  case K::floating: {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v.d);
    return (what.empty() ? "" : what + ", ") + "the " + v.label + " " + text;
  }
  }
  return what;
}

TK_DECL void bad_view_read(const std::string &kernel, const std::string &what,
                           const launch_value &v, conversion why, const std::string &want,
                           std::source_location where) {
  fail(where, "tk::launch_view::", what, " of kernel '", kernel, "': the value is ",
       describe_launch_value(v),
       why == conversion::out_of_range ? std::string(", which does not fit a ") + want
       : v.what == launch_value::kind::none
           ? std::string()
           : (want == "enum" ? ", not that enum" : ", not a " + want));
}

TK_DECL void zero_memory(const memory_target &t, cu::stream s, std::source_location where) {
  if (t.bytes == 0)
    return;
  if (!t.device) {
    std::memset(reinterpret_cast<void *>(t.address), 0, t.bytes);
    return;
  }
  const cu::driver &d = cu::get_driver(where);
  const auto p = static_cast<cu::deviceptr>(t.address);
  if (d.memset_d32_async && t.bytes % 4 == 0 && t.address % 4 == 0) {
    d.check(d.memset_d32_async(p, 0, t.bytes / 4, s), "cuMemsetD32Async", where);
    return;
  }
  d.check(d.stream_synchronize(s), "cuStreamSynchronize", where);
  d.check(d.memset_d8(p, 0, t.bytes), "cuMemsetD8", where);
  d.check(d.stream_synchronize(nullptr), "cuStreamSynchronize", where);
}

TK_DECL std::vector<unsigned char> save_memory(const memory_target &t, cu::stream s,
                                               std::source_location where) {
  std::vector<unsigned char> saved(t.bytes);
  if (t.bytes == 0)
    return saved;
  if (!t.device) {
    std::memcpy(saved.data(), reinterpret_cast<const void *>(t.address), t.bytes);
    return saved;
  }
  const cu::driver &d = cu::get_driver(where);
  d.check(d.stream_synchronize(s), "cuStreamSynchronize", where);
  d.check(d.memcpy_dtoh(saved.data(), static_cast<cu::deviceptr>(t.address), t.bytes),
          "cuMemcpyDtoH", where);
  return saved;
}

TK_DECL void restore_memory(const memory_target &t, const std::vector<unsigned char> &saved,
                            cu::stream s, std::source_location where) {
  if (t.bytes == 0)
    return;
  if (!t.device) {
    std::memcpy(reinterpret_cast<void *>(t.address), saved.data(), t.bytes);
    return;
  }
  const cu::driver &d = cu::get_driver(where);
  // After the launch on `s`; the copy from pageable memory completes on the legacy stream.
  d.check(d.stream_synchronize(s), "cuStreamSynchronize", where);
  d.check(d.memcpy_htod(static_cast<cu::deviceptr>(t.address), saved.data(), t.bytes),
          "cuMemcpyHtoD", where);
  d.check(d.stream_synchronize(nullptr), "cuStreamSynchronize", where);
}

TK_DECL void check_span_extent(const memory_target &t, const char *what, const std::string &kernel,
                               std::source_location where) {
  const cu::driver &d = cu::get_driver(where);
  if (!d.pointer_get_attribute || t.bytes == 0)
    return;
  constexpr int range_start = 11, range_size = 12; // CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, _SIZE
  cu::deviceptr start = 0;
  std::size_t size = 0;
  const auto p = static_cast<cu::deviceptr>(t.address);
  if (d.pointer_get_attribute(&start, range_start, p) != 0 ||
      d.pointer_get_attribute(&size, range_size, p) != 0)
    return; // not device memory: the launch refuses it
  if (t.address < start || t.address + t.bytes > start + size)
    fail(where, "tk::autotune of kernel '", kernel, "': ", what, " names launch argument ", t.index,
         ", a buffer of ", t.bytes, " bytes, but its GPU allocation holds ",
         start + size > t.address ? start + size - t.address : 0,
         " bytes from that address; give the std::span the size of the memory it covers");
}

TK_DECL std::string cuda_graph_unavailable(const cu::driver &driver, bool host_hooks, bool restores,
                                           const std::vector<memory_target> &resets) {
  if (!driver.stream_begin_capture || !driver.stream_end_capture || !driver.graph_instantiate ||
      !driver.graph_launch || !driver.graph_exec_destroy || !driver.graph_destroy ||
      !driver.stream_create || !driver.stream_destroy)
    return "the driver has no CUDA graphs";
  if (host_hooks)
    return "pre_hook and post_hook run on the host, and a graph would run them once, not before "
           "each launch";
  if (restores)
    return "restore_value copies through host memory, which a graph cannot capture";
  for (const memory_target &t : resets)
    if (!t.device || !driver.memset_d32_async || t.bytes % 4 || t.address % 4)
      return "reset_to_zero of launch argument " + std::to_string(t.index) +
             " is not whole 4-byte words of GPU memory";
  return "";
}

TK_DECL double time_with_graph(const cu::driver &driver, cu::stream s, double repeat_ms,
                               function_ref<void(cu::stream)> run, std::source_location where) {
  constexpr int replays = 10;
  struct resources {
    const cu::driver &d;
    cu::stream capture = nullptr;
    cu::graph graph = nullptr;
    cu::graph_exec exec = nullptr;
    std::array<cu::event, replays + 1> events{};
    void drop_graph() {
      if (exec)
        d.graph_exec_destroy(exec);
      if (graph)
        d.graph_destroy(graph);
      exec = nullptr;
      graph = nullptr;
    }
    ~resources() {
      drop_graph();
      for (cu::event e : events)
        if (e)
          d.event_destroy(e);
      if (capture)
        d.stream_destroy(capture);
    }
  } r{driver};
  driver.check(driver.stream_create(&r.capture, cu::stream_non_blocking), "cuStreamCreate", where);
  for (cu::event &e : r.events)
    driver.check(driver.event_create(&e, cu::event_default), "cuEventCreate", where);
  // A graph of `count` launches, instantiated in r.exec.
  const auto capture = [&](int count) {
    r.drop_graph();
    driver.check(driver.stream_begin_capture(r.capture, cu::stream_capture_mode_thread_local),
                 "cuStreamBeginCapture", where);
    try {
      for (int i = 0; i < count; ++i)
        run(r.capture);
    } catch (...) {
      cu::graph broken = nullptr;
      driver.stream_end_capture(r.capture, &broken);
      if (broken)
        driver.graph_destroy(broken);
      throw;
    }
    driver.check(driver.stream_end_capture(r.capture, &r.graph), "cuStreamEndCapture", where);
    driver.check(driver.graph_instantiate(&r.exec, r.graph, 0), "cuGraphInstantiate", where);
  };
  const auto elapsed = [&](cu::event a, cu::event b) {
    float ms = 0;
    driver.check(driver.event_elapsed_time(&ms, a, b), "cuEventElapsedTime", where);
    return double(ms);
  };
  // The capture stream starts after the caller's work on `s`.
  driver.check(driver.event_record(r.events[0], s), "cuEventRecord", where);
  driver.check(driver.stream_wait_event(r.capture, r.events[0], 0), "cuStreamWaitEvent", where);
  // An estimate from a graph of one launch, replayed 5 times.
  capture(1);
  driver.check(driver.graph_launch(r.exec, r.capture), "cuGraphLaunch", where);
  driver.check(driver.event_record(r.events[0], r.capture), "cuEventRecord", where);
  for (int i = 0; i < 5; ++i)
    driver.check(driver.graph_launch(r.exec, r.capture), "cuGraphLaunch", where);
  driver.check(driver.event_record(r.events[1], r.capture), "cuEventRecord", where);
  driver.check(driver.event_synchronize(r.events[1]), "cuEventSynchronize", where);
  const double first = elapsed(r.events[0], r.events[1]) / 5;
  const double estimate = first > 1e-4 ? first : 1e-4;
  const double wanted = repeat_ms / estimate / replays;
  const int per_graph = wanted < 1 ? 1 : wanted > 1000 ? 1000 : int(wanted);
  capture(per_graph);
  driver.check(driver.graph_launch(r.exec, r.capture), "cuGraphLaunch", where); // warm-up
  driver.check(driver.event_record(r.events[0], r.capture), "cuEventRecord", where);
  for (std::size_t i = 0; i < replays; ++i) {
    driver.check(driver.graph_launch(r.exec, r.capture), "cuGraphLaunch", where);
    driver.check(driver.event_record(r.events[i + 1], r.capture), "cuEventRecord", where);
  }
  driver.check(driver.event_synchronize(r.events[replays]), "cuEventSynchronize", where);
  std::array<double, replays> times{};
  for (std::size_t i = 0; i < replays; ++i)
    times[i] = elapsed(r.events[i], r.events[i + 1]) / per_graph;
  for (std::size_t i = 1; i < replays; ++i)
    for (std::size_t j = i; j > 0 && times[j] < times[j - 1]; --j)
      std::swap(times[j], times[j - 1]);
  return (times[replays / 2 - 1] + times[replays / 2]) / 2;
}

TK_DECL tuning_key_parts::tuning_key_parts(const std::vector<std::string> &key) {
  for (const std::string &part : key) {
    parts.push_back(part.data());
    sizes.push_back(part.size());
  }
}

TK_DECL void store_tuning(const backend_library &backend, const std::vector<std::string> &key,
                          const std::string &payload) {
  const tuning_key_parts k(key);
  backend.cache_store("tune", k.parts.data(), k.sizes.data(), k.parts.size(), payload.data(),
                      payload.size());
}

TK_DECL bool print_autotuning() { return env::flag("TK_PRINT_AUTOTUNING"); }

TK_DECL std::size_t fastest(const std::vector<double> &times) {
  std::size_t best = times.size();
  for (std::size_t i = 0; i < times.size(); ++i)
    if (!std::isnan(times[i]) && (best == times.size() || times[i] < times[best]))
      best = i;
  return best;
}

TK_DECL std::string serialize(const tuning_table &t) {
  std::string s = "tk-autotune 1\n" + std::to_string(t.best) + "\n";
  for (double time : t.times) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g\n", time);
    s += text;
  }
  return s;
}

TK_DECL std::optional<tuning_table> deserialize_tuning(std::string_view s, std::size_t configs) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < s.size()) {
    const std::size_t end = s.find('\n', start);
    if (end == std::string_view::npos)
      return std::nullopt; // every line ends with a newline
    lines.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  if (lines.size() != configs + 2 || lines[0] != "tk-autotune 1")
    return std::nullopt;
  tuning_table t;
  char *end = nullptr;
  const unsigned long long best = std::strtoull(lines[1].c_str(), &end, 10);
  if (lines[1].empty() || *end || best >= configs)
    return std::nullopt;
  t.best = std::size_t(best);
  for (std::size_t i = 0; i < configs; ++i) {
    const std::string &line = lines[i + 2];
    const double time = std::strtod(line.c_str(), &end);
    if (line.empty() || *end)
      return std::nullopt;
    t.times.push_back(time);
    t.errors.emplace_back(std::isnan(time) ? "failed" : "");
  }
  if (std::isnan(t.times[t.best]))
    return std::nullopt;
  return t;
}

TK_DECL std::optional<std::string> load_tuning(const backend_library &backend,
                                               const std::vector<std::string> &key) {
  if (env::flag(always_compile_variable)) // TK_ALWAYS_COMPILE: tuned again, and stored again
    return std::nullopt;
  const tuning_key_parts k(key);
  std::size_t size = 0;
  void *payload = backend.cache_load("tune", k.parts.data(), k.sizes.data(), k.parts.size(), &size);
  if (!payload)
    return std::nullopt;
  std::string bytes(static_cast<const char *>(payload), size);
  backend.cache_free(payload);
  return bytes;
}

TK_DECL std::string format_tuning(const std::string &kernel, const std::string &where,
                                  const std::string &key, const std::vector<config> &configs,
                                  const tuning_table &t, const char *source) {
  std::string s = "tk autotune: kernel '" + kernel + "' on " + where + ", key " +
                  (key.empty() ? std::string("(none)") : key) + ": " + source + "\n";
  for (std::size_t i = 0; i < configs.size(); ++i) {
    char time[48];
    if (std::isnan(t.times[i]))
      std::snprintf(time, sizeof time, "%12s", "failed");
    else
      std::snprintf(time, sizeof time, "%12.4g", t.times[i]);
    s += (i == t.best ? "  * " : "    ") + std::string(time) + "  " + configs[i].describe();
    if (std::isnan(t.times[i]) && !t.errors[i].empty())
      s += "  (" + t.errors[i].substr(0, t.errors[i].find('\n')) + ")";
    s += "\n";
  }
  return s;
}

TK_DECL double time_with_events(const cu::driver &driver, cu::stream s, double warmup_ms,
                                double repeat_ms, function_ref<void()> run,
                                std::source_location where) {
  constexpr int batches = 10;
  std::array<cu::event, batches + 1> events{};
  for (cu::event &e : events)
    driver.check(driver.event_create(&e, cu::event_default), "cuEventCreate", where);
  struct destroy {
    const cu::driver &d;
    std::array<cu::event, batches + 1> &e;
    ~destroy() {
      for (cu::event x : e)
        if (x)
          d.event_destroy(x);
    }
  } guard{driver, events};
  auto elapsed = [&](cu::event a, cu::event b) {
    float ms = 0;
    driver.check(driver.event_elapsed_time(&ms, a, b), "cuEventElapsedTime", where);
    return double(ms);
  };
  driver.check(driver.event_record(events[0], s), "cuEventRecord", where);
  for (int i = 0; i < 5; ++i)
    run();
  driver.check(driver.event_record(events[1], s), "cuEventRecord", where);
  driver.check(driver.event_synchronize(events[1]), "cuEventSynchronize", where);
  const double first = elapsed(events[0], events[1]) / 5;
  const double estimate = first > 1e-4 ? first : 1e-4;
  const auto clamp = [](double n, double lo, double hi) { return n < lo ? lo : n > hi ? hi : n; };
  const int warmup = int(clamp(warmup_ms / estimate, 1, 10000));
  const int per_batch = int(clamp(repeat_ms / estimate / batches, 1, 1000));
  for (int i = 0; i < warmup; ++i)
    run();
  driver.check(driver.event_record(events[0], s), "cuEventRecord", where);
  for (int b = 0; b < batches; ++b) {
    for (int i = 0; i < per_batch; ++i)
      run();
    driver.check(driver.event_record(events[std::size_t(b) + 1], s), "cuEventRecord", where);
  }
  driver.check(driver.event_synchronize(events[batches]), "cuEventSynchronize", where);
  std::array<double, batches> times{};
  for (std::size_t b = 0; b < batches; ++b)
    times[b] = elapsed(events[b], events[b + 1]) / per_batch;
  for (std::size_t i = 1; i < batches; ++i) // insertion sort: ten numbers
    for (std::size_t j = i; j > 0 && times[j] < times[j - 1]; --j)
      std::swap(times[j], times[j - 1]);
  return (times[batches / 2 - 1] + times[batches / 2]) / 2;
}

} // namespace tk::detail

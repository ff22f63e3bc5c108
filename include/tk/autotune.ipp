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

} // namespace tk

namespace tk::detail {

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

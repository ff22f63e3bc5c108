/// @file example_support.hpp
/// What every example shares: choosing where to run (GPU or CPU interpreter, honouring
/// TK_REQUIRE_GPU and TK_INTERPRET), timing a launch, and printing the one summary line.
#pragma once

#include <tk/tk.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace example {

/// Where the example's kernel runs, and how the summary line names that place.
struct target {
  tk::backend backend;
  std::string description;
};

/// The GPU when one can be used, else the interpreter. With TK_REQUIRE_GPU=1 and no usable GPU,
/// prints `SKIPPED: <reason>` and exits with 77, which CTest reports as a skipped test.
inline target choose_target() {
  const char *require = std::getenv("TK_REQUIRE_GPU");
  const bool gpu_required = require && std::string_view(require) == "1";
  std::string why_not;
  if (!tk::gpu_available())
    why_not = tk::gpu_unavailable_reason();
  else
    // A GPU launch takes device buffers: allocating them, copying the inputs in and the result
    // back belongs here once TileKit's runtime offers device memory. Until then the examples,
    // whose buffers live on the host, run on the interpreter.
    why_not = "the examples' device-buffer path is not wired yet";
  if (gpu_required) {
    std::printf("SKIPPED: %s\n", why_not.c_str());
    std::exit(77);
  }
  if (tk::interpret_requested())
    return {tk::backend::interpreter, "CPU interpreter (TK_INTERPRET=1)"};
  return {tk::backend::interpreter, "CPU interpreter (no GPU: " + why_not + ")"};
}

/// Milliseconds of wall-clock time `run` takes.
template <class F> double time_ms(F &&run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Prints `<name>: <what> on <where>: max error <e> vs reference, <t> ms — OK` (or `— WRONG`)
/// and returns the exit status: 0 when `max_error <= tolerance`, 1 otherwise.
inline int report(const char *name, const std::string &what, const target &where, double max_error,
                  double tolerance, double ms) {
  const bool ok = max_error <= tolerance; // false for NaN
  std::printf("%s: %s on %s: max error %.2g vs reference, %.1f ms \u2014 ", name, what.c_str(),
              where.description.c_str(), max_error, ms);
  if (ok)
    std::printf("OK\n");
  else
    std::printf("WRONG (tolerance %.2g)\n", tolerance);
  return ok ? 0 : 1;
}

} // namespace example

/// @file example_support.hpp
/// What every example shares: choosing where to run (GPU or CPU interpreter, honouring
/// TK_REQUIRE_GPU and TK_INTERPRET), the data on the GPU, timing a launch, and printing the one
/// summary line.
#pragma once

#include <tk/tk.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

namespace example {

/// Where the example's kernel runs, and how the summary line names that place.
struct target {
  tk::backend backend;
  std::string description;
};

/// The interpreter when TK_INTERPRET=1 asks for it, else the GPU when one can be used, else the
/// interpreter. With TK_REQUIRE_GPU=1 and no usable GPU, prints `SKIPPED: <reason>` and exits
/// with 77, which CTest reports as a skipped test.
inline target choose_target() {
  if (tk::interpret_requested())
    return {tk::backend::interpreter, "CPU interpreter (TK_INTERPRET=1)"};
  const std::string why_not = tk::gpu_unavailable_reason();
  if (why_not.empty())
    return {tk::backend::gpu, "GPU (" + tk::gpu_name() + ")"};
  if (tk::detail::env::flag("TK_REQUIRE_GPU")) {
    std::printf("SKIPPED: %s\n", why_not.c_str());
    std::exit(77);
  }
  return {tk::backend::interpreter, "CPU interpreter (no GPU: " + why_not + ")"};
}

/// An example's data: values on the host, mirrored in GPU memory when the example runs there.
/// A launch takes `arg()` (or `input()` for a read-only parameter); `fetch()` copies the
/// results back into the host values. Outputs start poisoned on the GPU (every byte 0xFF, a NaN
/// in floats), so that an element the kernel fails to write cannot pass for a right one.
enum class role { input, output };
inline constexpr role output = role::output;

template <class T> class array {
public:
  array(const target &where, std::vector<T> &host, role r = role::input)
      : host_(host), on_gpu_(where.backend == tk::backend::gpu) {
    if (on_gpu_) {
      device_ = tk::device_buffer<T>(host);
      if (r == role::output)
        device_.fill_bytes(0xFF);
    }
  }

  T *arg() { return on_gpu_ ? device_.data() : host_.data(); }
  const T *input() const { return on_gpu_ ? device_.data() : host_.data(); }
  void fetch() {
    if (on_gpu_)
      device_.download(host_);
  }

private:
  std::vector<T> &host_;
  bool on_gpu_;
  tk::device_buffer<T> device_; ///< empty on the interpreter
};

/// Reproducible pseudo-random floats, uniform in [lo, hi): a 64-bit linear congruential generator
/// (Knuth's MMIX constants) whose top 24 bits make each value. Good enough for test data, and
/// cheaper to compile than <random>, whose header costs an example file about 0.1 s.
class uniform {
public:
  uniform(float lo, float hi, std::uint64_t seed) : lo_(lo), width_(hi - lo), state_(seed) {}
  float operator()() {
    state_ = state_ * 6364136223846793005u + 1442695040888963407u;
    return lo_ + width_ * (float(state_ >> 40) * 0x1p-24f);
  }

private:
  float lo_, width_;
  std::uint64_t state_;
};

/// Milliseconds of wall-clock time `run` takes. (std::timespec_get rather than <chrono>, whose
/// header costs an example file more to compile than the timing is worth.)
template <class F> double time_ms(F &&run) {
  const auto now = [] {
    std::timespec t{};
    std::timespec_get(&t, TIME_UTC);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
  };
  const double start = now();
  run();
  return now() - start;
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

/// @file interpreter_support.hpp
/// Helpers shared by the interpreter numerics tests (tests/unit/interpreter_*.cpp): a fresh random
/// seed per test case (reported through Catch2 so a failure can be rerun with TK_TEST_SEED) and
/// element-wise comparison against a reference that reports the worst element.
#pragma once

#include <tk/tk.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace tk_test {

inline constexpr tk::launch_options interpreter{.backend = tk::backend::interpreter};

/// TK_TEST_SEED when set (to reproduce a failure), else a fresh seed from std::random_device.
inline std::uint64_t fresh_seed() {
  if (const char *s = std::getenv("TK_TEST_SEED"); s && *s)
    return std::strtoull(s, nullptr, 0);
  std::random_device rd;
  return (std::uint64_t(rd()) << 32) ^ rd();
}

inline std::string seed_note(std::uint64_t seed) {
  return "random seed " + std::to_string(seed) +
         " (rerun with TK_TEST_SEED=" + std::to_string(seed) + ")";
}

/// Declares `gen`, a std::mt19937_64 seeded freshly, and INFOs the seed for every later assertion
/// of the enclosing scope.
#define TK_TEST_RANDOM(gen)                                                                        \
  const std::uint64_t gen##_seed = tk_test::fresh_seed();                                          \
  INFO(tk_test::seed_note(gen##_seed));                                                            \
  std::mt19937_64 gen(gen##_seed)

template <class T = float>
std::vector<T> uniform(std::mt19937_64 &gen, std::size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (auto &x : v)
    x = T(float(d(gen)));
  return v;
}

template <class T>
std::vector<T> integers(std::mt19937_64 &gen, std::size_t n, long long lo, long long hi) {
  std::uniform_int_distribution<long long> d(lo, hi);
  std::vector<T> v(n);
  for (auto &x : v)
    x = T(d(gen));
  return v;
}

/// The outcome of comparing `got` with `want` element by element.
struct comparison {
  std::size_t bad = 0;       ///< elements outside the tolerance (NaN counts as outside)
  std::size_t worst = 0;     ///< index of the largest error
  double max_error = 0;      ///< largest |got - want|
  std::string first_failure; ///< description of the first element outside the tolerance

  friend std::ostream &operator<<(std::ostream &out, const comparison &c) {
    out << c.bad << " element(s) out of tolerance, max error " << c.max_error << " at " << c.worst;
    if (c.bad)
      out << "; first: " << c.first_failure;
    return out;
  }
};

/// |got[k] - want[k]| <= atol + rtol * |want[k]| for every k.
template <class G, class W>
comparison compare(const std::vector<G> &got, const std::vector<W> &want, double atol,
                   double rtol) {
  comparison c;
  REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    const double g = double(got[k]), w = double(want[k]);
    const double err = std::fabs(g - w);
    if (err > c.max_error || std::isnan(err)) {
      c.max_error = err;
      c.worst = k;
    }
    if (!(err <= atol + rtol * std::fabs(w))) {
      if (c.bad++ == 0) {
        std::ostringstream s;
        s << "[" << k << "] got " << g << ", want " << w;
        c.first_failure = s.str();
      }
    }
  }
  return c;
}

/// Requires `got` to match `want` within the tolerance, reporting the first failing element.
#define TK_CHECK_CLOSE(got, want, atol, rtol)                                                      \
  do {                                                                                             \
    const auto tk_cmp = tk_test::compare(got, want, atol, rtol);                                   \
    INFO(#got " vs " #want ": " << tk_cmp);                                                        \
    CHECK(tk_cmp.bad == 0);                                                                        \
  } while (false)

/// Requires exact equality (integers, or floats that must match bit for bit as values).
#define TK_CHECK_EQUAL(got, want) TK_CHECK_CLOSE(got, want, 0.0, 0.0)

} // namespace tk_test

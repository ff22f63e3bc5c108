/// @file interpreter_support.hpp
/// Helpers shared by the interpreter numerics tests (tests/unit/interpreter_*.cpp): launching on
/// the interpreter or the GPU (run), a fresh random seed per test case (reported through Catch2
/// so a failure can be rerun with TK_TEST_SEED) and element-wise comparison against a reference
/// that reports the worst element.
#pragma once

#include <tk/tk.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tk_test {

inline constexpr tk::launch_options interpreter{.backend = tk::backend::interpreter};

/// These tests run their kernels on the interpreter (tk_unit_tests) or, built with
/// TK_TEST_ON_GPU, on the GPU (tk_gpu_numerics): the same kernels, inputs and references.
#ifdef TK_TEST_ON_GPU
inline constexpr bool on_gpu = true;
#else
inline constexpr bool on_gpu = false;
#endif

/// A vector of `V` that a kernel takes as a `T` buffer (a bool buffer held as bytes).
template <class T, class V> struct reinterpreted_vector {
  std::vector<V> &host;
};
template <class T, class V> reinterpreted_vector<T, V> reinterpreted(std::vector<V> &host) {
  return {host};
}

namespace detail {

/// A launch argument as run() passes it: a vector becomes a pointer to its data (on the GPU, to
/// a device copy, whose contents come back after the launch unless the vector is const); any
/// other argument is passed as it is.
template <class A> struct passed {
  A value;
  A arg() const { return value; }
  void finish() {}
};
template <class T, class V = T, bool Writable = true> struct mirrored {
  using host_type = std::conditional_t<Writable, std::vector<V>, const std::vector<V>>;
  host_type &host;
  std::optional<tk::device_buffer<V>> device;
  explicit mirrored(host_type &h) : host(h) {
    if constexpr (on_gpu) {
      // An empty vector still gets memory: a GPU launch takes no null pointer.
      device.emplace(h.empty() ? 1 : h.size());
      device->upload(h);
    }
  }
  auto arg() {
    V *p = device ? device->data() : const_cast<V *>(host.data());
    if constexpr (Writable)
      return reinterpret_cast<T *>(p);
    else
      return static_cast<const T *>(p);
  }
  void finish() {
    if constexpr (Writable)
      if (device)
        device->download(std::span<V>(host));
  }
};

template <class T> mirrored<T> map_argument(std::vector<T> &v) { return mirrored<T>(v); }
template <class T> mirrored<T, T, false> map_argument(const std::vector<T> &v) {
  return mirrored<T, T, false>(v);
}
template <class T, class V> mirrored<T, V> map_argument(reinterpreted_vector<T, V> r) {
  return mirrored<T, V>(r.host);
}
template <class A> passed<std::remove_cvref_t<A>> map_argument(const A &a) { return {a}; }

/// A tk::host_tensor_descriptor over a vector, made when run() launches: over the vector itself
/// on the interpreter, over its device copy on the GPU (see tk_test::described).
template <class T, std::size_t R, bool Writable> struct described_vector {
  mirrored<T, T, Writable> buffer;
  std::array<std::int64_t, R> shape, strides, block;
  tk::padding pad;
  auto arg() {
    auto d = [&]<std::size_t... D>(std::index_sequence<D...>) {
      return tk::host_tensor_descriptor(buffer.arg(), {shape[D]...}, {strides[D]...}, {block[D]...},
                                        pad);
    };
    return d(std::make_index_sequence<R>{});
  }
  void finish() { buffer.finish(); }
};
template <class T, std::size_t R, bool Writable>
described_vector<T, R, Writable> map_argument(described_vector<T, R, Writable> &&d) {
  return std::move(d);
}

} // namespace detail

/// A launch argument for run(): a tk::host_tensor_descriptor of `v` (const for one the kernel
/// only reads) with this shape, strides and block shape, over `v`'s device copy on the GPU.
template <class V, std::size_t R>
auto described(V &v, const std::int64_t (&shape)[R], const std::int64_t (&strides)[R],
               const std::int64_t (&block)[R], tk::padding pad = tk::padding::zero) {
  using T = typename std::remove_cvref_t<V>::value_type;
  detail::described_vector<T, R, !std::is_const_v<V>> d{
      detail::mirrored<T, T, !std::is_const_v<V>>(v), {}, {}, {}, pad};
  for (std::size_t k = 0; k < R; ++k) {
    d.shape[k] = shape[k];
    d.strides[k] = strides[k];
    d.block[k] = block[k];
  }
  return d;
}

/// Launches `k` over `g` on the interpreter, or on the GPU in a TK_TEST_ON_GPU build. Buffers are
/// passed as vectors (`std::as_const(v)` for one the kernel only reads) and are copied to the GPU
/// and back there, so that a test checks its results the same way on both.
/// run() with launch options (warps, stages); their backend is the test build's.
template <class K, class... A>
void run_with(tk::launch_options options, const K &k, const tk::grid &g, A &&...args) {
  std::tuple<decltype(detail::map_argument(std::forward<A>(args)))...> mapped{
      detail::map_argument(std::forward<A>(args))...};
  options.backend = on_gpu ? tk::backend::gpu : tk::backend::interpreter;
  std::apply([&](auto &...m) { k.launch(g, options, m.arg()...); }, mapped);
  std::apply([](auto &...m) { (m.finish(), ...); }, mapped);
}

template <class K, class... A> void run(const K &k, const tk::grid &g, A &&...args) {
  run_with({}, k, g, std::forward<A>(args)...);
}

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

/// @file gpu_atomics.cpp
/// The atomics (tk::atomic_add, _max, _min, _and, _or, _xor, _xchg, _cas) on the GPU against the
/// interpreter, and the interpreter against values computed on the host:
///  - every operation on every type it takes, once per lane through distinct addresses, so that
///    the memory and the old values are deterministic: bit for bit;
///  - f32 and f64 max and min on negative values, signed zeros, infinities and NaNs (bit for bit),
///    also with many programs on a few addresses (the result does not depend on their order);
///  - masked lanes (untouched, 0 returned) and scalar pointers (tickets: every old value once);
///  - a histogram with heavy contention (thousands of programs, a few bins): i32 counts exact,
///    f32 sums within the bound of any summation order;
///  - a split-K matmul: tk::dot partial products added into C with atomic_add;
///  - a spin lock per group (atomic_cas to take it, atomic_xchg to release it) protecting plain
///    loads and stores of a counter and a row of sums: exact.
///
///   tk_e2e_gpu_atomics [--interpreter] [FILTER]
///
/// --interpreter: the interpreter side only (no GPU needed; CI runs it). FILTER: only the cases
/// whose description contains it. Otherwise, without a usable GPU, prints `SKIPPED: <reason>` and
/// exits 77. Prints a line per check; exits 1 on any failure.
#include <tk/tk.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------------
// Running a kernel on the interpreter (vectors passed as buffers, so that every access is
// checked) or on the GPU (vectors copied to device memory and back).

template <class A> struct passed {
  A value;
  A host() const { return value; }
  A device() const { return value; }
  void finish() {}
};
template <class T> struct mirrored {
  std::vector<T> &data;
  std::optional<tk::device_buffer<T>> copy;
  mirrored(std::vector<T> &h, bool gpu) : data(h) {
    if (gpu)
      copy.emplace(h);
  }
  std::span<T> host() const { return std::span<T>(data); }
  T *device() const { return copy->data(); }
  void finish() {
    if (copy)
      data = copy->to_host();
  }
};
template <class T> mirrored<T> map_argument(std::vector<T> &v, bool gpu) { return {v, gpu}; }
template <class A> passed<std::remove_cvref_t<A>> map_argument(const A &a, bool) { return {a}; }

template <class K, class... A>
void launch(const K &k, const tk::grid &g, tk::backend where, A &&...args) {
  const bool gpu = where == tk::backend::gpu;
  std::tuple<decltype(map_argument(std::forward<A>(args), gpu))...> mapped{
      map_argument(std::forward<A>(args), gpu)...};
  if (gpu)
    std::apply([&](auto &...m) { k.launch(g, {.backend = where}, m.device()...); }, mapped);
  else
    std::apply([&](auto &...m) { k.launch(g, {.backend = where}, m.host()...); }, mapped);
  std::apply([](auto &...m) { (m.finish(), ...); }, mapped);
}

// ---------------------------------------------------------------------------------------------
// Reporting

int failures = 0, checks = 0;
std::string filter;

template <class T> std::uint64_t bits_of(T x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof x);
  return b;
}

template <class T> std::string show(T x) {
  char s[96];
  if constexpr (std::is_integral_v<T>)
    std::snprintf(s, sizeof s, "%lld (0x%llx)", static_cast<long long>(x),
                  static_cast<unsigned long long>(bits_of(x)));
  else
    std::snprintf(s, sizeof s, "%.9g (bits 0x%llx)", double(float(x)),
                  static_cast<unsigned long long>(bits_of(x)));
  return s;
}
template <> std::string show(double x) {
  char s[96];
  std::snprintf(s, sizeof s, "%.17g (bits 0x%llx)", x, static_cast<unsigned long long>(bits_of(x)));
  return s;
}

void result(bool ok, const std::string &what, const std::string &why) {
  ++checks;
  if (ok) {
    std::printf("ok   %s\n", what.c_str());
  } else {
    ++failures;
    std::printf("FAIL %s: %s\n", what.c_str(), why.c_str());
  }
}

/// Bit for bit.
template <class T>
void same_bits(const std::string &what, const std::vector<T> &got, const std::vector<T> &want) {
  if (got.size() != want.size()) {
    result(false, what,
           std::to_string(got.size()) + " elements, want " + std::to_string(want.size()));
    return;
  }
  std::size_t bad = 0, first = 0;
  for (std::size_t k = 0; k < want.size(); ++k)
    if (bits_of(got[k]) != bits_of(want[k]) && bad++ == 0)
      first = k;
  result(bad == 0, what,
         bad ? std::to_string(bad) + " element(s) differ, first [" + std::to_string(first) +
                   "]: got " + show(got[first]) + ", want " + show(want[first])
             : std::string());
}

/// |got - want| <= tolerance, element by element.
void close(const std::string &what, const std::vector<float> &got, const std::vector<double> &want,
           const std::vector<double> &tolerance) {
  std::size_t bad = 0, first = 0;
  double worst = 0;
  for (std::size_t k = 0; k < want.size(); ++k) {
    const double err = std::fabs(double(got[k]) - want[k]);
    worst = std::isnan(err) ? err : std::max(worst, err);
    if (!(err <= tolerance[k]) && bad++ == 0)
      first = k;
  }
  char why[256];
  std::snprintf(why, sizeof why,
                "%zu element(s) out of tolerance, first [%zu]: got %.9g, want %.9g (tolerance "
                "%.3g)",
                bad, first, double(got[first]), want[first], tolerance[first]);
  result(bad == 0, what + " (max error " + std::to_string(worst) + ")", why);
}

/// Runs a case: `body(backend)` on the interpreter, checked by `check_interpreter`, then on the
/// GPU, checked by `check_gpu` against the interpreter's results. An exception fails the case.
template <class F, class CI, class CG>
void run_case(const std::string &what, bool gpu, F &&body, CI &&check_interpreter, CG &&check_gpu) {
  if (what.find(filter) == std::string::npos)
    return;
  try {
    const auto interp = body(tk::backend::interpreter);
    check_interpreter("interpreter vs host: " + what, interp);
    if (gpu)
      check_gpu("GPU vs interpreter: " + what, body(tk::backend::gpu), interp);
  } catch (const std::exception &e) {
    result(false, what, e.what());
  }
}

// ---------------------------------------------------------------------------------------------
// Every operation on every type, one lane per address: old[i] = op(target + i, val[i]).

template <class Op> auto per_lane(const char *name, Op op) {
  return tk::jit(name, [op](auto target, auto old, auto val, tk::i32 n, tk::constant<int> B) {
    auto offs = tk::program_id(0) * B + tk::arange(0, B);
    auto mask = offs < n;
    auto v = tk::load(val + offs, mask);
    tk::store(old + offs, op(target + offs, v, mask), mask);
  });
}

auto add_each =
    per_lane("add_each", [](auto p, auto v, auto m) { return tk::atomic_add(p, v, m); });
auto max_each =
    per_lane("max_each", [](auto p, auto v, auto m) { return tk::atomic_max(p, v, m); });
auto min_each =
    per_lane("min_each", [](auto p, auto v, auto m) { return tk::atomic_min(p, v, m); });
auto and_each =
    per_lane("and_each", [](auto p, auto v, auto m) { return tk::atomic_and(p, v, m); });
auto or_each = per_lane("or_each", [](auto p, auto v, auto m) {
  return tk::atomic_or(p, v, m, tk::sem::relaxed, tk::scope::gpu);
});
auto xor_each = per_lane("xor_each", [](auto p, auto v, auto m) {
  return tk::atomic_xor(p, v, m, tk::sem::acquire, tk::scope::sys);
});
auto xchg_each = per_lane("xchg_each", [](auto p, auto v, auto m) {
  return tk::atomic_xchg(p, v, m, tk::sem::release, tk::scope::cta);
});

template <class T> T zero() {
  if constexpr (std::is_integral_v<T>)
    return T(0);
  else
    return T(0.0f);
}

/// The memory after the operation, then the old values.
template <class T> using memory_and_old = std::pair<std::vector<T>, std::vector<T>>;

template <class T, class K, class Ref>
void per_lane_case(bool gpu, const std::string &what, const K &k, const std::vector<T> &target,
                   const std::vector<T> &val, Ref ref) {
  const int n = int(target.size()), block = 128;
  memory_and_old<T> want{target, target};
  for (std::size_t i = 0; i < target.size(); ++i)
    want.first[i] = ref(target[i], val[i]);
  run_case(
      what, gpu,
      [&](tk::backend where) {
        memory_and_old<T> r{target, std::vector<T>(target.size(), zero<T>())};
        std::vector<T> v = val;
        launch(k, tk::grid(tk::cdiv(n, block)), where, r.first, r.second, v, n,
               tk::constant(block));
        return r;
      },
      [&](const std::string &w, const memory_and_old<T> &got) {
        same_bits(w + ", memory", got.first, want.first);
        same_bits(w + ", old values", got.second, want.second);
      },
      [&](const std::string &w, const memory_and_old<T> &got, const memory_and_old<T> &interp) {
        same_bits(w + ", memory", got.first, interp.first);
        same_bits(w + ", old values", got.second, interp.second);
      });
}

template <class T> std::vector<T> integers(std::mt19937_64 &gen, std::size_t n) {
  std::vector<T> v(n);
  for (auto &x : v)
    x = gen() % 3 ? T(gen()) : T(int(gen() % 9) - 4); // wide values (sums wrap) and small ones
  const T special[] = {T(0), T(-1), std::numeric_limits<T>::max(), std::numeric_limits<T>::min()};
  for (std::size_t k = 0; k < 4; ++k)
    v[k] = special[k];
  return v;
}

template <class T> void integer_kinds(bool gpu, std::mt19937_64 &gen, const std::string &type) {
  using U = std::make_unsigned_t<T>;
  const std::size_t n = 1000;
  const auto target = integers<T>(gen, n), val = integers<T>(gen, n);
  per_lane_case(gpu, type + " atomic_add", add_each, target, val,
                [](T a, T b) { return T(U(a) + U(b)); });
  per_lane_case(gpu, type + " atomic_max", max_each, target, val,
                [](T a, T b) { return std::max(a, b); });
  per_lane_case(gpu, type + " atomic_min", min_each, target, val,
                [](T a, T b) { return std::min(a, b); });
  per_lane_case(gpu, type + " atomic_and", and_each, target, val,
                [](T a, T b) { return T(a & b); });
  per_lane_case(gpu, type + " atomic_or", or_each, target, val, [](T a, T b) { return T(a | b); });
  per_lane_case(gpu, type + " atomic_xor", xor_each, target, val,
                [](T a, T b) { return T(a ^ b); });
  per_lane_case(gpu, type + " atomic_xchg", xchg_each, target, val, [](T, T b) { return b; });
}

/// IEEE 754 totalOrder as an unsigned key: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN, the
/// order the bit-pattern max and min follow.
template <class T> std::uint64_t total_order_key(T x) {
  const std::uint64_t b = bits_of(x);
  const std::uint64_t sign = std::uint64_t(1) << (8 * sizeof(T) - 1);
  const std::uint64_t all = sizeof(T) == 8 ? ~std::uint64_t(0) : (sign << 1) - 1;
  return b & sign ? ~b & all : b | sign;
}

template <class T> void float_kinds(bool gpu, std::mt19937_64 &gen, const std::string &type) {
  std::uniform_real_distribution<double> big(-100, 100), small(-3, 3);
  std::vector<T> target(700), val(700);
  for (std::size_t k = 0; k < target.size(); ++k)
    target[k] = T(float(big(gen))), val[k] = T(float(small(gen)));
  per_lane_case(gpu, type + " atomic_add", add_each, target, val, [](T a, T b) {
    if constexpr (std::is_same_v<T, double>)
      return a + b;
    else
      return T(double(a) + double(b)); // the exact sum rounded once to T
  });
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    per_lane_case(gpu, type + " atomic_xchg", xchg_each, target, val, [](T, T b) { return b; });
    // max and min on every pair of special values: negative values, signed zeros, infinities,
    // subnormals and NaNs of both signs.
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    const T tiny = std::numeric_limits<T>::denorm_min(), huge = std::numeric_limits<T>::max();
    const T values[] = {-inf, T(-3.5), T(-1), -tiny, T(-0.0), T(0.0), tiny,
                        T(1), T(2.5),  inf,   huge,  -huge,   nan,    -nan};
    std::vector<T> a, b;
    for (T x : values)
      for (T y : values)
        a.push_back(x), b.push_back(y);
    per_lane_case(gpu, type + " atomic_max, special values", max_each, a, b,
                  [](T x, T y) { return total_order_key(x) >= total_order_key(y) ? x : y; });
    per_lane_case(gpu, type + " atomic_min, special values", min_each, a, b,
                  [](T x, T y) { return total_order_key(x) <= total_order_key(y) ? x : y; });
  }
}

/// Compare-and-swap, one lane per address, four per program: even lanes compare with what is
/// there, odd ones with something else; floats compare bits (-0 is not +0, a NaN its own bits).
auto cas_each = tk::jit("cas_each", [](auto target, auto old, auto cmp, auto val) {
  auto offs = tk::program_id(0) * 4 + tk::arange(0, 4);
  auto c = tk::load(cmp + offs);
  auto v = tk::load(val + offs);
  tk::store(old + offs, tk::atomic_cas(target + offs, c, v));
});

template <class T> void cas_kind(bool gpu, std::mt19937_64 &gen, const std::string &type) {
  const std::size_t n = 300;
  std::vector<T> target(n), cmp(n), val(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_integral_v<T>) {
      target[i] = T(gen());
      val[i] = T(gen());
    } else {
      target[i] = T(double(std::int64_t(gen() % 2001) - 1000) / 8);
      val[i] = T(double(std::int64_t(gen() % 2001) - 1000) / 8);
    }
    cmp[i] = i % 2 ? T(target[i] + T(1)) : target[i];
  }
  if constexpr (!std::is_integral_v<T>) {
    target[2] = T(-0.0), cmp[2] = T(0.0); // equal values, other bits: no swap
    target[4] = std::numeric_limits<T>::quiet_NaN(), cmp[4] = target[4]; // same bits: swapped
  }
  memory_and_old<T> want{target, target};
  for (std::size_t i = 0; i < n; ++i)
    if (bits_of(target[i]) == bits_of(cmp[i]))
      want.first[i] = val[i];
  run_case(
      type + " atomic_cas", gpu,
      [&](tk::backend where) {
        memory_and_old<T> r{target, std::vector<T>(n, T(0))};
        std::vector<T> c = cmp, v = val;
        launch(cas_each, tk::grid(int(n / 4)), where, r.first, r.second, c, v);
        return r;
      },
      [&](const std::string &w, const memory_and_old<T> &got) {
        same_bits(w + ", memory", got.first, want.first);
        same_bits(w + ", old values", got.second, want.second);
      },
      [&](const std::string &w, const memory_and_old<T> &got, const memory_and_old<T> &interp) {
        same_bits(w + ", memory", got.first, interp.first);
        same_bits(w + ", old values", got.second, interp.second);
      });
}

void every_kind(bool gpu) {
  std::mt19937_64 gen(20240601);
  integer_kinds<std::int32_t>(gpu, gen, "i32");
  integer_kinds<std::uint32_t>(gpu, gen, "u32");
  integer_kinds<std::int64_t>(gpu, gen, "i64");
  integer_kinds<std::uint64_t>(gpu, gen, "u64");
  float_kinds<tk::half>(gpu, gen, "f16");
  float_kinds<tk::bfloat16>(gpu, gen, "bf16");
  float_kinds<float>(gpu, gen, "f32");
  float_kinds<double>(gpu, gen, "f64");
  cas_kind<std::int32_t>(gpu, gen, "i32");
  cas_kind<std::uint32_t>(gpu, gen, "u32");
  cas_kind<std::int64_t>(gpu, gen, "i64");
  cas_kind<std::uint64_t>(gpu, gen, "u64");
  cas_kind<float>(gpu, gen, "f32");
  cas_kind<double>(gpu, gen, "f64");
}

// ---------------------------------------------------------------------------------------------
// Contention

/// Every program folds its BLOCK values into SLOTS maxima and minima: lane i into slot i % SLOTS.
/// Whatever the order, the result is the largest (smallest) pattern in the bit order.
auto fold_extremes =
    tk::jit("fold_extremes", [](tk::ptr<float> hi, tk::ptr<float> lo, tk::ptr<const float> x,
                                tk::constant<int> BLOCK, tk::constant<int> SLOTS) {
      auto offs = tk::arange(0, BLOCK);
      auto v = tk::load(x + tk::program_id(0) * BLOCK + offs);
      tk::atomic_max(hi + offs % SLOTS, v);
      tk::atomic_min(lo + offs % SLOTS, v);
    });

void extremes(bool gpu) {
  const int programs = 256, block = 256, slots = 4;
  std::mt19937_64 gen(7);
  std::vector<float> x(std::size_t(programs) * block);
  for (auto &v : x)
    v = float(int(gen() % 2001) - 1000) / 4; // negative mostly, or positive
  // Signed zeros in every slot; in slot 0 nothing else, so its max is +0 and its min -0.
  for (std::size_t k = 0; k < x.size(); k += slots)
    x[k] = k % 8 ? 0.0f : -0.0f;
  for (std::size_t k = 1; k < x.size(); k += 97)
    x[k] = -0.0f;
  std::vector<float> want_hi(slots, -std::numeric_limits<float>::infinity()),
      want_lo(slots, std::numeric_limits<float>::infinity());
  for (std::size_t k = 0; k < x.size(); ++k) {
    float &h = want_hi[k % block % slots], &l = want_lo[k % block % slots];
    if (total_order_key(x[k]) > total_order_key(h))
      h = x[k];
    if (total_order_key(x[k]) < total_order_key(l))
      l = x[k];
  }
  using result_t = std::pair<std::vector<float>, std::vector<float>>;
  run_case(
      "f32 atomic_max and atomic_min, " + std::to_string(programs) + " programs on " +
          std::to_string(slots) + " addresses, signed zeros",
      gpu,
      [&](tk::backend where) {
        result_t r{std::vector<float>(slots, -std::numeric_limits<float>::infinity()),
                   std::vector<float>(slots, std::numeric_limits<float>::infinity())};
        launch(fold_extremes, tk::grid(programs), where, r.first, r.second, x, tk::constant(block),
               tk::constant(slots));
        return r;
      },
      [&](const std::string &w, const result_t &got) {
        same_bits(w + ", max", got.first, want_hi);
        same_bits(w + ", min", got.second, want_lo);
      },
      [&](const std::string &w, const result_t &got, const result_t &interp) {
        same_bits(w + ", max", got.first, interp.first);
        same_bits(w + ", min", got.second, interp.second);
      });
}

/// A histogram: BLOCK keys per program, counted in i32 bins and their weights summed in f32 bins.
auto histogram =
    tk::jit("histogram",
            [](tk::ptr<std::int32_t> counts, tk::ptr<float> sums, tk::ptr<const std::int32_t> keys,
               tk::ptr<const float> weights, tk::i32 n, tk::constant<int> BLOCK) {
              auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
              auto mask = offs < n;
              auto key = tk::load(keys + offs, mask);
              auto w = tk::load(weights + offs, mask);
              tk::atomic_add(counts + key, 1, mask, tk::sem::relaxed);
              tk::atomic_add(sums + key, w, mask);
            });

void histograms(bool gpu) {
  for (int bins : {1, 8}) {
    const int n = 1000000 - 37, block = 256;
    const auto count = static_cast<std::size_t>(n), nbins = static_cast<std::size_t>(bins);
    std::mt19937_64 gen(nbins);
    std::vector<std::int32_t> keys(count);
    std::vector<float> weights(count);
    for (int k = 0; k < n; ++k)
      keys[std::size_t(k)] = int(gen() % std::uint64_t(bins)),
      weights[std::size_t(k)] = float(gen() % 1000) / 1000.0f;
    std::vector<std::int32_t> want_counts(nbins, 0);
    std::vector<double> want_sums(nbins, 0.0), tolerance(nbins);
    for (int k = 0; k < n; ++k) {
      ++want_counts[std::size_t(keys[std::size_t(k)])];
      want_sums[std::size_t(keys[std::size_t(k)])] += weights[std::size_t(k)];
    }
    // Any order of f32 additions of non-negative terms: at most (count - 1) u sum off.
    for (int b = 0; b < bins; ++b)
      tolerance[std::size_t(b)] =
          double(want_counts[std::size_t(b)]) * std::ldexp(1.0, -24) * want_sums[std::size_t(b)];
    using result_t = std::pair<std::vector<std::int32_t>, std::vector<float>>;
    const std::string what = "histogram, " + std::to_string(tk::cdiv(n, block)) + " programs, " +
                             std::to_string(bins) + (bins == 1 ? " bin" : " bins");
    run_case(
        what, gpu,
        [&](tk::backend where) {
          result_t r{std::vector<std::int32_t>(nbins, 0), std::vector<float>(nbins, 0.0f)};
          launch(histogram, tk::grid(tk::cdiv(n, block)), where, r.first, r.second, keys, weights,
                 n, tk::constant(block));
          return r;
        },
        [&](const std::string &w, const result_t &got) {
          same_bits(w + ", i32 counts", got.first, want_counts);
          close(w + ", f32 sums", got.second, want_sums, tolerance);
        },
        [&](const std::string &w, const result_t &got, const result_t &) {
          same_bits(w + ", i32 counts (vs host)", got.first, want_counts);
          close(w + ", f32 sums (vs host)", got.second, want_sums, tolerance);
        });
  }
}

// ---------------------------------------------------------------------------------------------
// Masks and scalar pointers

auto masked = tk::jit("masked", [](tk::ptr<std::int32_t> target, tk::ptr<std::int32_t> old,
                                   tk::ptr<float> f, tk::ptr<float> f_old, tk::i32 n) {
  auto offs = tk::arange(0, 64);
  auto values = 100 + offs;
  auto mask = offs < n;
  tk::store(old + offs, tk::atomic_xchg(target + offs, values, mask));
  auto rows = tk::arange(0, 16)(tk::_, tk::newaxis), cols = tk::arange(0, 16)(tk::newaxis, tk::_);
  auto tile = rows * 16 + cols;
  auto row_mask = cols < 5; // [1, 16], broadcast to the [16, 16] pointers
  tk::store(f_old + tile, tk::atomic_add(f + tile, 0.5f, row_mask, tk::scope::cta));
});

void masks(bool gpu) {
  const int n = 23;
  std::vector<std::int32_t> want_target(64, 7), want_old(64, 0);
  std::vector<float> want_f(256, 1.0f), want_f_old(256, 0.0f);
  for (int i = 0; i < n; ++i)
    want_target[std::size_t(i)] = 100 + i, want_old[std::size_t(i)] = 7;
  for (int i = 0; i < 256; ++i)
    if (i % 16 < 5)
      want_f[std::size_t(i)] = 1.5f, want_f_old[std::size_t(i)] = 1.0f;
  using result_t = std::tuple<std::vector<std::int32_t>, std::vector<std::int32_t>,
                              std::vector<float>, std::vector<float>>;
  auto check = [](const std::string &w, const result_t &got, const result_t &want) {
    same_bits(w + ", i32 memory", std::get<0>(got), std::get<0>(want));
    same_bits(w + ", i32 old values (0 where masked off)", std::get<1>(got), std::get<1>(want));
    same_bits(w + ", f32 memory", std::get<2>(got), std::get<2>(want));
    same_bits(w + ", f32 old values (0 where masked off)", std::get<3>(got), std::get<3>(want));
  };
  const result_t want{want_target, want_old, want_f, want_f_old};
  run_case(
      "masked atomic_xchg and atomic_add", gpu,
      [&](tk::backend where) {
        result_t r{std::vector<std::int32_t>(64, 7), std::vector<std::int32_t>(64, -1),
                   std::vector<float>(256, 1.0f), std::vector<float>(256, -1.0f)};
        launch(masked, tk::grid(1), where, std::get<0>(r), std::get<1>(r), std::get<2>(r),
               std::get<3>(r), n);
        return r;
      },
      [&](const std::string &w, const result_t &got) { check(w, got, want); }, check);
}

/// Each program takes a ticket from one i64 counter and folds the maximum of its block into one
/// f64 with atomic_max: scalar pointers, one atomic per program.
auto tickets =
    tk::jit("tickets", [](tk::ptr<std::int64_t> counter, tk::ptr<std::int64_t> taken,
                          tk::ptr<double> best, tk::ptr<const double> x, tk::constant<int> BLOCK) {
      auto pid = tk::program_id(0);
      auto ticket = tk::atomic_add(counter, 1);
      tk::store(taken + pid, ticket);
      auto m = tk::max(tk::load(x + pid * BLOCK + tk::arange(0, BLOCK)));
      tk::atomic_max(best, m, tk::sem::relaxed);
    });

void scalar_pointers(bool gpu) {
  const int programs = 3000, block = 32;
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> d(-1e6, -1);
  std::vector<double> x(std::size_t(programs) * block);
  for (auto &v : x)
    v = d(gen);
  using result_t =
      std::tuple<std::vector<std::int64_t>, std::vector<std::int64_t>, std::vector<double>>;
  std::vector<std::int64_t> all(programs);
  std::iota(all.begin(), all.end(), 1000);
  const result_t want{{1000 + programs}, all, {*std::max_element(x.begin(), x.end())}};
  auto check = [](const std::string &w, result_t got, const result_t &want) {
    same_bits(w + ", counter", std::get<0>(got), std::get<0>(want));
    std::sort(std::get<1>(got).begin(), std::get<1>(got).end());
    same_bits(w + ", every ticket taken once", std::get<1>(got), std::get<1>(want));
    same_bits(w + ", f64 max", std::get<2>(got), std::get<2>(want));
  };
  run_case(
      "scalar pointers: i64 tickets, f64 max of negative values", gpu,
      [&](tk::backend where) {
        result_t r{{1000}, std::vector<std::int64_t>(programs, -1), {-1e300}};
        launch(tickets, tk::grid(programs), where, std::get<0>(r), std::get<1>(r), std::get<2>(r),
               x, tk::constant(block));
        return r;
      },
      [&](const std::string &w, const result_t &got) {
        // The interpreter runs the programs in order: program p takes ticket 1000 + p.
        same_bits(w + ", tickets in program order", std::get<1>(got), std::get<1>(want));
        check(w, got, want);
      },
      [&](const std::string &w, const result_t &got, const result_t &) { check(w, got, want); });
}

// ---------------------------------------------------------------------------------------------
// Split-K matmul: program (m, n, s) multiplies the K blocks s, s + SPLIT_K, ... of its tile and
// adds its partial product into C (zeroed first) with atomic_add.

auto matmul_split_k = tk::jit(
    "matmul_split_k", [](tk::ptr<float> c, tk::ptr<const tk::half> a, tk::ptr<const tk::half> b,
                         tk::i32 M, tk::i32 N, tk::i32 K, tk::constant<int> BM,
                         tk::constant<int> BN, tk::constant<int> BK, tk::constant<int> SPLIT_K) {
      auto rm = tk::program_id(0) * BM + tk::arange(0, BM);
      auto rn = tk::program_id(1) * BN + tk::arange(0, BN);
      auto rk = tk::arange(0, BK);
      auto row = rm(tk::_, tk::newaxis), col = rn(tk::newaxis, tk::_);
      auto acc = tk::zeros<float>({BM, BN});
      tk::for_range(tk::program_id(2) * BK, K, BK * SPLIT_K, [&](tk::i32 k0) {
        auto kk = k0 + rk;
        auto x = tk::load(a + row * K + kk(tk::newaxis, tk::_),
                          (row < M) & (kk(tk::newaxis, tk::_) < K), 0.0f);
        auto y = tk::load(b + kk(tk::_, tk::newaxis) * N + col,
                          (kk(tk::_, tk::newaxis) < K) & (col < N), 0.0f);
        acc = tk::dot(x, y, acc);
      });
      tk::atomic_add(c + row * N + col, acc, (row < M) & (col < N));
    });

void split_k(bool gpu) {
  struct shape {
    int M, N, K, split;
  };
  for (shape s : {shape{128, 128, 1024, 4}, shape{100, 72, 999, 8}, shape{64, 64, 4096, 16}}) {
    const int BM = 64, BN = 64, BK = 32;
    std::mt19937_64 gen(static_cast<std::uint64_t>(s.K));
    std::uniform_real_distribution<float> d(-1, 1);
    std::vector<tk::half> a(std::size_t(s.M) * s.K), b(std::size_t(s.K) * s.N);
    for (auto &v : a)
      v = tk::half(d(gen));
    for (auto &v : b)
      v = tk::half(d(gen));
    std::vector<double> want(std::size_t(s.M) * s.N), tolerance(want.size());
    // f16 products are exact in f32; the sums round at most K + SPLIT_K times, in any order.
    const double u = std::ldexp(1.0, -24);
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        double sum = 0, abs = 0;
        for (int k = 0; k < s.K; ++k) {
          const double p = double(float(a[std::size_t(i) * s.K + k])) *
                           double(float(b[std::size_t(k) * s.N + j]));
          sum += p, abs += std::fabs(p);
        }
        want[std::size_t(i) * s.N + j] = sum;
        tolerance[std::size_t(i) * s.N + j] = 2 * (s.K + s.split + 2) * u * abs;
      }
    const std::string what = "split-K matmul f16 -> f32, " + std::to_string(s.M) + "x" +
                             std::to_string(s.N) + "x" + std::to_string(s.K) + ", SPLIT_K " +
                             std::to_string(s.split);
    run_case(
        what, gpu,
        [&](tk::backend where) {
          std::vector<float> c(want.size(), 0.0f);
          launch(matmul_split_k, tk::grid(tk::cdiv(s.M, BM), tk::cdiv(s.N, BN), s.split), where, c,
                 a, b, s.M, s.N, s.K, tk::constant(BM), tk::constant(BN), tk::constant(BK),
                 tk::constant(s.split));
          return c;
        },
        [&](const std::string &w, const std::vector<float> &got) {
          close(w, got, want, tolerance);
        },
        [&](const std::string &w, const std::vector<float> &got, const std::vector<float> &) {
          close(w + " (vs host)", got, want, tolerance);
        });
  }
}

// ---------------------------------------------------------------------------------------------
// Spin locks: program p belongs to group p % groups; it takes the group's lock (atomic_cas in a
// tk::while_ loop), increments the group's counter and adds its row into the group's row of sums
// with plain loads and stores, then releases the lock (atomic_xchg). The rows hold small
// integers, exact in f32 in any order: the results are exact only if the lock excludes the
// group's other programs.

auto locked_sums =
    tk::jit("locked_sums",
            [](tk::ptr<std::int32_t> locks, tk::ptr<std::int32_t> counts, tk::ptr<float> sums,
               tk::ptr<const float> x, tk::i32 groups, tk::constant<int> BLOCK) {
              auto pid = tk::program_id(0);
              auto group = pid % groups;
              auto lock = locks + group;
              auto offs = tk::arange(0, BLOCK);
              auto mine = tk::load(x + pid * BLOCK + offs);
              tk::while_([&] { return tk::atomic_cas(lock, 0, 1) == 1; }, [] {});
              auto count = tk::load(counts + group);
              tk::store(counts + group, count + 1);
              auto row = sums + group * BLOCK + offs;
              tk::store(row, tk::load(row) + mine);
              tk::atomic_xchg(lock, 0);
            });

void spin_locks(bool gpu) {
  for (int groups : {1, 7}) {
    const int programs = 2000, block = 64;
    std::mt19937_64 gen(static_cast<std::uint64_t>(groups) + 100);
    std::vector<float> x(std::size_t(programs) * block);
    for (auto &v : x)
      v = float(int(gen() % 9) - 4);
    std::vector<std::int32_t> want_counts(std::size_t(groups), 0);
    std::vector<float> want_sums(std::size_t(groups) * block, 0.0f);
    for (int p = 0; p < programs; ++p) {
      ++want_counts[std::size_t(p % groups)];
      for (int k = 0; k < block; ++k)
        want_sums[std::size_t(p % groups) * block + k] += x[std::size_t(p) * block + k];
    }
    using result_t =
        std::tuple<std::vector<std::int32_t>, std::vector<std::int32_t>, std::vector<float>>;
    const result_t want{std::vector<std::int32_t>(std::size_t(groups), 0), want_counts, want_sums};
    auto check = [](const std::string &w, const result_t &got, const result_t &want) {
      same_bits(w + ", locks released", std::get<0>(got), std::get<0>(want));
      same_bits(w + ", counts", std::get<1>(got), std::get<1>(want));
      same_bits(w + ", sums", std::get<2>(got), std::get<2>(want));
    };
    run_case(
        "spin lock: " + std::to_string(programs) + " programs, " + std::to_string(groups) +
            (groups == 1 ? " lock" : " locks"),
        gpu,
        [&](tk::backend where) {
          result_t r{std::vector<std::int32_t>(std::size_t(groups), 0),
                     std::vector<std::int32_t>(std::size_t(groups), 0),
                     std::vector<float>(std::size_t(groups) * block, 0.0f)};
          launch(locked_sums, tk::grid(programs), where, std::get<0>(r), std::get<1>(r),
                 std::get<2>(r), x, groups, tk::constant(block));
          return r;
        },
        [&](const std::string &w, const result_t &got) { check(w, got, want); },
        [&](const std::string &w, const result_t &got, const result_t &) { check(w, got, want); });
  }
}

void run_all(bool gpu) {
  every_kind(gpu);
  extremes(gpu);
  histograms(gpu);
  masks(gpu);
  scalar_pointers(gpu);
  split_k(gpu);
  spin_locks(gpu);
}

} // namespace

int main(int argc, char **argv) {
  bool interpreter_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--interpreter") == 0)
      interpreter_only = true;
    else
      filter = argv[i];
  }
  if (interpreter_only) {
    run_all(false);
    std::printf("%d failure(s) in %d checks on the interpreter\n", failures, checks);
    return failures ? 1 : 0;
  }
  if (const std::string why = tk::gpu_unavailable_reason(); !why.empty()) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return 77;
  }
  const std::string gpu = tk::gpu_name();
  std::printf("running on %s\n", gpu.c_str());
  run_all(true);
  std::printf("%d failure(s) in %d checks on %s\n", failures, checks, gpu.c_str());
  return failures ? 1 : 0;
}

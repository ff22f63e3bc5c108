/// @file interpreter_control.cpp
/// Interpreter numerics of control flow: tk::for_range with several loop-carried values of
/// different types (and nested loops), tk::while_, and tk::if_ yielding values and assigning
/// handles, against plain C++ references on fresh random inputs.
#include "interpreter_support.hpp"

#include <algorithm>

namespace {

// One program folds a vector into BLOCK partial sums. Three values of different types are carried
// through the loop: an f32 block accumulator, an i32 scalar counter and a block of pointers.
auto chunk_sum = tk::jit("chunk_sum", [](tk::ptr<float> partial, tk::ptr<std::int32_t> counts,
                                         tk::ptr<const float> in, tk::i32 n, tk::i32 count0,
                                         tk::constant<int> BLOCK) {
  auto offs = tk::arange(0, BLOCK);
  auto acc = tk::zeros<float>({BLOCK});
  auto count = count0;
  auto iterations = count0 - count0;
  auto ptrs = in + offs;
  tk::for_range(0, n, BLOCK, [&](tk::i32 start) {
    auto mask = start + offs < n;
    acc += tk::load(ptrs, mask, 0.0f);
    count = count + tk::sum(tk::cast<int>(mask), 0);
    iterations += 1;
    ptrs += BLOCK;
  });
  tk::store(partial + offs, acc);
  tk::store(counts, count);
  tk::store(counts + 1, iterations);
});

TEST_CASE("interpreter: for_range carries an f32 block, an i32 scalar and a pointer block",
          "[interpreter][numerics][control]") {
  TK_TEST_RANDOM(gen);
  const int block = 32;
  const int n = GENERATE(0, 1, 32, 100, 333);
  const int count0 = int(gen() % 1000) - 500;
  CAPTURE(n, count0);
  const auto in = tk_test::uniform(gen, std::size_t(n), -1, 1);
  std::vector<float> partial(block, -1.f);
  std::vector<std::int32_t> counts(2, -1);
  tk_test::run(chunk_sum, tk::grid(1), partial, counts, in, n, count0, tk::constant<int>(block));
  std::vector<double> want(block, 0.0);
  for (int k = 0; k < n; ++k)
    want[std::size_t(k % block)] += in[std::size_t(k)];
  TK_CHECK_CLOSE(partial, want, 1e-5, 1e-5);
  CHECK(counts[0] == count0 + n);
  CHECK(counts[1] == tk::cdiv(n, block));
}

// Loop bounds computed at run time, negative starts, steps > 1, and a nested loop whose bound is
// the outer induction variable: out[i] = sum of x[0..i], plus the trip sequence of the outer loop.
auto nested =
    tk::jit("nested", [](tk::ptr<float> prefix, tk::ptr<std::int32_t> ivs, tk::ptr<const float> x,
                         tk::i32 lo, tk::i32 hi, tk::i32 step, tk::i32 n) {
      auto slot = lo - lo;
      tk::for_range(lo, hi, step, [&](tk::i32 i) {
        tk::store(ivs + slot, i);
        slot += 1;
      });
      tk::store(ivs + slot, -12345);
      tk::for_range(0, n, [&](tk::i32 i) {
        auto total = tk::load(x + i) * 0.0f;
        tk::for_range(0, i + 1, [&](tk::i32 j) { total += tk::load(x + j); });
        tk::store(prefix + i, total);
      });
    });

TEST_CASE("interpreter: for_range with run-time bounds, negative starts, steps and nesting",
          "[interpreter][numerics][control]") {
  TK_TEST_RANDOM(gen);
  const int lo = int(gen() % 41) - 20, step = 1 + int(gen() % 5), hi = lo + int(gen() % 30);
  CAPTURE(lo, hi, step);
  const int n = 40;
  const auto x = tk_test::uniform(gen, std::size_t(n), -1, 1);
  std::vector<float> prefix(std::size_t(n), -1.f);
  std::vector<std::int32_t> ivs(64, 777);
  tk_test::run(nested, tk::grid(1), prefix, ivs, x, lo, hi, step, n);
  std::vector<std::int32_t> want_ivs(64, 777);
  std::size_t slot = 0;
  for (int i = lo; i < hi; i += step)
    want_ivs[slot++] = i;
  want_ivs[slot] = -12345;
  TK_CHECK_EQUAL(ivs, want_ivs);
  std::vector<double> want(static_cast<std::size_t>(n));
  double s = 0;
  for (int i = 0; i < n; ++i)
    want[std::size_t(i)] = s += x[std::size_t(i)];
  TK_CHECK_CLOSE(prefix, want, 1e-5, 1e-5);
}

// A while loop whose body holds an if that yields a value: Collatz step counts per program.
auto collatz =
    tk::jit("collatz", [](tk::ptr<std::int32_t> steps_out, tk::ptr<const std::int32_t> start) {
      auto pid = tk::program_id(0);
      auto x = tk::load(start + pid);
      auto steps = x - x;
      tk::while_([&] { return x != 1; },
                 [&] {
                   x = tk::if_(x % 2 == 0, [&] { return x / 2; }, [&] { return 3 * x + 1; });
                   steps += 1;
                 });
      tk::store(steps_out + pid, steps);
    });

// A while loop carrying a block and a scalar: halve a block until every |element| < 1.
auto halve = tk::jit("halve", [](tk::ptr<float> out, tk::ptr<std::int32_t> iters,
                                 tk::ptr<const float> in, tk::constant<int> BLOCK) {
  auto pid = tk::program_id(0);
  auto offs = pid * BLOCK + tk::arange(0, BLOCK);
  auto v = tk::load(in + offs);
  auto count = pid * 0;
  tk::while_([&] { return tk::max(tk::abs(v), 0) >= 1.0f; },
             [&] {
               v = v * 0.5f;
               count += 1;
             });
  tk::store(out + offs, v);
  tk::store(iters + pid, count);
});

TEST_CASE("interpreter: while_ loops with carried scalars and blocks",
          "[interpreter][numerics][control]") {
  TK_TEST_RANDOM(gen);
  SECTION("Collatz steps, an if_ yielding the next value inside the loop") {
    const int programs = 64;
    auto start = tk_test::integers<std::int32_t>(gen, programs, 1, 5000);
    start[0] = 1; // the loop body never runs
    std::vector<std::int32_t> steps(programs, -1), want(programs);
    tk_test::run(collatz, tk::grid(programs), steps, start);
    for (int p = 0; p < programs; ++p) {
      std::int64_t x = start[std::size_t(p)];
      int s = 0;
      for (; x != 1; ++s)
        x = x % 2 == 0 ? x / 2 : 3 * x + 1;
      want[std::size_t(p)] = s;
    }
    TK_CHECK_EQUAL(steps, want);
  }
  SECTION("halving a block until it is below 1") {
    const int block = 16, programs = 8;
    auto in = tk_test::uniform(gen, std::size_t(block * programs), -1, 1);
    for (int p = 1; p < programs; ++p) // program 0 stays below 1: zero iterations
      in[std::size_t(p * block + int(gen() % block))] = float(std::ldexp(1.0, p * 3)) * 1.5f;
    std::vector<float> out(in.size());
    std::vector<std::int32_t> iters(programs, -1), want_iters(programs);
    tk_test::run(halve, tk::grid(programs), out, iters, in, tk::constant<int>(block));
    std::vector<float> want(in.size());
    for (int p = 0; p < programs; ++p) {
      const auto first = in.begin() + p * block;
      float m = 0;
      for (auto it = first; it != first + block; ++it)
        m = std::max(m, std::fabs(*it));
      int k = 0;
      for (; m >= 1; m *= 0.5f)
        ++k;
      want_iters[std::size_t(p)] = k;
      for (int e = 0; e < block; ++e)
        want[std::size_t(p * block + e)] = std::ldexp(in[std::size_t(p * block + e)], -k);
    }
    TK_CHECK_EQUAL(iters, want_iters);
    TK_CHECK_EQUAL(out, want); // halving is exact
  }
}

// if_ yielding a block, assigning an outer handle in one branch only, and an if_ without else.
auto branchy = tk::jit("branchy", [](tk::ptr<float> out, tk::ptr<std::int32_t> flags,
                                     tk::ptr<const float> in, tk::constant<int> BLOCK) {
  auto pid = tk::program_id(0);
  auto offs = pid * BLOCK + tk::arange(0, BLOCK);
  auto x = tk::load(in + offs);
  auto flag = pid * 0;
  auto y = tk::if_(
      tk::sum(x, 0) > 0,
      [&] {
        flag = flag + 1;
        return x * 2.0f;
      },
      [&] { return x - tk::max(x, 0); });
  tk::if_(pid % 3 == 0, [&] {
    y = -y;
    flag += 10;
  });
  tk::store(out + offs, y);
  tk::store(flags + pid, flag);
});

TEST_CASE("interpreter: if_ yields a value and assigns handles",
          "[interpreter][numerics][control]") {
  TK_TEST_RANDOM(gen);
  const int block = 8, programs = 30;
  auto in = tk_test::uniform(gen, std::size_t(block * programs), -1, 1);
  // Keep every row sum clear of 0, so that its sign does not depend on the order of summation.
  for (int p = 0; p < programs; ++p) {
    double s = 0;
    for (int e = 0; e < block; ++e)
      s += in[std::size_t(p * block + e)];
    if (std::fabs(s) < 0.05)
      in[std::size_t(p * block)] += s < 0 ? -0.1f : 0.1f;
  }
  std::vector<float> out(in.size());
  std::vector<std::int32_t> flags(programs, -1), want_flags(programs);
  tk_test::run(branchy, tk::grid(programs), out, flags, in, tk::constant<int>(block));
  std::vector<float> want(in.size());
  for (int p = 0; p < programs; ++p) {
    const float *x = in.data() + p * block;
    double s = 0;
    for (int e = 0; e < block; ++e)
      s += x[e];
    const bool positive = s > 0;
    const float m = *std::max_element(x, x + block);
    int flag = positive ? 1 : 0;
    for (int e = 0; e < block; ++e) {
      float y = positive ? x[e] * 2.f : x[e] - m;
      want[std::size_t(p * block + e)] = p % 3 == 0 ? -y : y;
    }
    want_flags[std::size_t(p)] = flag + (p % 3 == 0 ? 10 : 0);
  }
  TK_CHECK_EQUAL(out, want);
  TK_CHECK_EQUAL(flags, want_flags);
}

TEST_CASE("interpreter: the control-flow kernels also trace", "[interpreter][control]") {
  // The interpreter runs loop and branch bodies directly; tracing records them as scf regions
  // with carried values. Both paths must accept the same kernels.
  std::vector<float> f(64);
  std::vector<std::int32_t> i(64);
  CHECK_NOTHROW(
      chunk_sum.ir(f.data(), i.data(), std::as_const(f).data(), 64, 0, tk::constant<int>(32)));
  CHECK_NOTHROW(nested.ir(f.data(), i.data(), std::as_const(f).data(), 0, 8, 1, 8));
  CHECK_NOTHROW(collatz.ir(i.data(), std::as_const(i).data()));
  CHECK_NOTHROW(halve.ir(f.data(), i.data(), std::as_const(f).data(), tk::constant<int>(16)));
  CHECK_NOTHROW(branchy.ir(f.data(), i.data(), std::as_const(f).data(), tk::constant<int>(8)));
}

} // namespace

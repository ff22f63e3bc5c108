/// @file autotune.cpp
/// Grid callables and tk::autotune on the interpreter: which constants a grid callable sees,
/// which config a tuned launch runs and when it tunes again (a custom bench stands in for the
/// CUDA-event timing, which the GPU tests cover), failing configs, the tuning table and its
/// disk-cache payload, and every error tk::autotune raises, with its message and line.
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view this_file = "autotune.cpp";

// out[i] = in[i] * SCALE for i < n, BLOCK elements per program instance.
auto scale_kernel() {
  return tk::jit("scale", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n,
                             tk::constant<int> BLOCK, tk::constant<int> SCALE) {
    auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
    auto mask = offs < n;
    tk::store(out + offs, tk::load(in + offs, mask) * SCALE, mask);
  });
}

const tk::launch_options on_interpreter{.backend = tk::backend::interpreter};

std::vector<float> iota(int n) {
  std::vector<float> v(std::size_t(n), 0.f);
  for (int i = 0; i < n; ++i)
    v[std::size_t(i)] = float(i);
  return v;
}

/// A bench that launches once and reports the time `times` gives the config's num_warps, and
/// counts its calls.
struct fake_bench {
  std::map<int, double> times;
  int calls = 0;
  std::function<double(const tk::config &, const std::function<void()> &)> get() {
    return [this](const tk::config &c, const std::function<void()> &run) {
      ++calls;
      run();
      return times.at(c.num_warps);
    };
  }
};

} // namespace

TEST_CASE("grid callable: called with the constants in parameter order", "[autotune]") {
  auto k = scale_kernel();
  const int n = 1000;
  std::vector<float> in = iota(n), out(std::size_t(n), -1.f);
  int seen_block = 0, seen_scale = 0;
  k.launch(
      [&](int BLOCK, int SCALE) {
        seen_block = BLOCK;
        seen_scale = SCALE;
        return tk::grid(tk::cdiv(n, BLOCK));
      },
      on_interpreter, out.data(), in.data(), n, tk::constant(128), tk::constant(3));
  CHECK(seen_block == 128);
  CHECK(seen_scale == 3);
  for (int i = 0; i < n; ++i)
    REQUIRE(out[std::size_t(i)] == 3.f * float(i));

  // interpret() and a launch without options take one too.
  std::vector<float> out2(std::size_t(n), -1.f);
  k.interpret([&](int BLOCK, int) { return tk::grid(tk::cdiv(n, BLOCK)); }, out2.data(), in.data(),
              n, tk::constant(256), tk::constant(2));
  CHECK(out2[std::size_t(n - 1)] == 2.f * float(n - 1));
}

TEST_CASE("grid callable: the grid it returns is checked at its line", "[autotune]") {
  auto k = scale_kernel();
  std::vector<float> in(16), out(16);
  int line = 0;
  tk_test::expect_error(this_file, line, "grid dimension x is 0", [&] {
    k.launch(
        [&](int, int) {
          line = __LINE__ + 1;
          return tk::grid(0);
        },
        on_interpreter, out.data(), in.data(), 16, tk::constant(16), tk::constant(1));
  });
}

TEST_CASE("autotune: the interpreter runs the first config without timing", "[autotune]") {
  auto tuned = tk::autotune(scale_kernel(),
                            {.configs = {{{{"BLOCK", 64}}, 2}, {{{"BLOCK", 256}}, 8}}, .key = {2}});
  const int n = 700;
  std::vector<float> in = iota(n), out(std::size_t(n), -1.f);
  int seen = 0;
  tuned.launch(
      [&](int BLOCK, int) {
        seen = BLOCK;
        return tk::grid(tk::cdiv(n, BLOCK));
      },
      on_interpreter, out.data(), in.data(), n, tk::tuned<int>("BLOCK"), tk::constant(5));
  CHECK(seen == 64);
  for (int i = 0; i < n; ++i)
    REQUIRE(out[std::size_t(i)] == 5.f * float(i));
}

TEST_CASE("autotune: tunes once per key value and launches the fastest config", "[autotune]") {
  fake_bench bench{{{2, 3.0}, {4, 1.0}, {8, 2.0}}};
  auto tuned =
      tk::autotune(scale_kernel(),
                   {.configs = {{{{"BLOCK", 64}}, 2}, {{{"BLOCK", 128}}, 4}, {{{"BLOCK", 256}}, 8}},
                    .key = {2},
                    .bench = bench.get()});
  std::vector<float> in = iota(4096), out(4096, -1.f);
  int seen = 0;
  auto launch = [&](int n, int scale) {
    tuned.launch(
        [&](int BLOCK, int) {
          seen = BLOCK;
          return tk::grid(tk::cdiv(n, BLOCK));
        },
        on_interpreter, out.data(), in.data(), n, tk::tuned<int>("BLOCK"), tk::constant(scale));
  };

  launch(1000, 2);
  CHECK(bench.calls == 3); // each config timed once
  CHECK(seen == 128);      // the launch after tuning runs the fastest: num_warps 4, BLOCK 128
  CHECK(out[999] == 1998.f);
  CHECK(out[1000] == -1.f);

  launch(1000, 2); // same key: no tuning
  CHECK(bench.calls == 3);
  CHECK(seen == 128);

  launch(2000, 2); // another key value: tuned again
  CHECK(bench.calls == 6);
  CHECK(out[1999] == 3998.f);

  launch(2000, 3); // a constant outside the key changes the code: tuned again
  CHECK(bench.calls == 9);
  CHECK(out[1999] == 5997.f);

  launch(2000, 3);
  CHECK(bench.calls == 9);
}

TEST_CASE("autotune: a grid callable of the launch's view reads the constants by name",
          "[autotune]") {
  fake_bench bench{{{2, 3.0}, {4, 1.0}, {8, 2.0}}};
  auto tuned =
      tk::autotune(scale_kernel(),
                   {.configs = {{{{"BLOCK", 64}}, 2}, {{{"BLOCK", 128}}, 4}, {{{"BLOCK", 256}}, 8}},
                    .key = {2},
                    .bench = bench.get()});
  std::vector<float> in = iota(1000), out(1000, -1.f);
  std::vector<int> blocks; // the BLOCK of each launch, as the grid saw it
  // Triton's grid = lambda META: (triton.cdiv(n, META['BLOCK']),).
  const auto grid = [&](const tk::launch_view &meta) {
    blocks.push_back(meta.constant<int>("BLOCK"));
    CHECK(meta.arg<int>(4) == 3); // the other constants by position
    return tk::grid(tk::cdiv(1000, meta.constant<int>("BLOCK")));
  };
  tuned.launch(grid, on_interpreter, out.data(), in.data(), 1000, tk::tuned<int>("BLOCK"),
               tk::constant(3));
  CHECK(blocks == std::vector<int>{64, 128, 256, 128}); // each config tuned, then the fastest
  CHECK(out[0] == 0.f);
  CHECK(out[999] == 2997.f);
  // A constant no config or heuristic names is an error at the grid's read.
  int line = 0;
  const auto wrong = [&](const tk::launch_view &meta) {
    line = __LINE__ + 1;
    return tk::grid(tk::cdiv(1000, meta.constant<int>("BLOCK_SIZE")));
  };
  auto other = tk::autotune(scale_kernel(), {.configs = {{{{"BLOCK", 64}}, 2}}, .key = {2}});
  tk_test::expect_error(this_file, line, "BLOCK_SIZE", [&] {
    other.launch(wrong, on_interpreter, out.data(), in.data(), 1000, tk::tuned<int>("BLOCK"),
                 tk::constant(3));
  });
}

TEST_CASE("autotune: a config that fails is skipped, and when all fail the first error is thrown",
          "[autotune]") {
  // BLOCK 100 is not a power of two: tk::arange rejects it while tracing.
  fake_bench bench{{{2, 1.0}, {4, 2.0}}};
  auto tuned =
      tk::autotune(scale_kernel(), {.configs = {{{{"BLOCK", 100}}, 2}, {{{"BLOCK", 128}}, 4}},
                                    .key = {2},
                                    .bench = bench.get()});
  std::vector<float> in = iota(300), out(300, -1.f);
  tuned.launch([&](int BLOCK, int) { return tk::grid(tk::cdiv(300, BLOCK)); }, on_interpreter,
               out.data(), in.data(), 300, tk::tuned<int>("BLOCK"), tk::constant(1));
  CHECK(out[299] == 299.f);

  auto broken = tk::autotune(
      scale_kernel(),
      {.configs = {{{{"BLOCK", 100}}, 2}, {{{"BLOCK", 48}}, 4}}, .key = {2}, .bench = bench.get()});
  CHECK_THROWS_WITH(broken.launch(tk::grid(1), on_interpreter, out.data(), in.data(), 300,
                                  tk::tuned<int>("BLOCK"), tk::constant(1)),
                    Catch::Contains("power of two") && Catch::Contains("100"));
}

TEST_CASE("autotune: pre_hook and post_hook run around every tuning launch, not after",
          "[autotune]") {
  // out[i] += in[i]: a kernel that reads what it writes. post_hook zeroes out after each tuning
  // launch, so each config sees the same data and the launch after tuning adds once.
  auto accumulate = tk::jit("accumulate", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n,
                                             tk::constant<int> BLOCK) {
    auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
    auto mask = offs < n;
    tk::store(out + offs, tk::load(out + offs, mask) + tk::load(in + offs, mask), mask);
  });
  const int n = 200;
  std::vector<float> in = iota(n), out(std::size_t(n), 0.f);
  std::vector<std::string> events;
  auto bench = [&](const tk::config &c, auto launch) {
    events.push_back("bench " + c.describe());
    for (int i = 0; i < 3; ++i) {
      launch();
      CHECK(out == std::vector<float>(std::size_t(n), 0.f)); // post_hook has put it back
    }
    return double(c.num_warps);
  };
  auto tuned = tk::autotune(
      accumulate,
      {.configs = {{{{"BLOCK", 64}}, 4}, {{{"BLOCK", 128}}, 2}},
       .key = {2},
       .bench = bench,
       .pre_hook = [&](const tk::config &c) { events.push_back("pre " + c.describe()); },
       .post_hook =
           [&](const tk::config &c) {
             CHECK(out[1] == 1.f); // the launch ran: out held zeros
             out.assign(out.size(), 0.f);
             events.push_back("post " + c.describe());
           }});
  tuned.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); }, on_interpreter, out.data(),
               in.data(), n, tk::tuned<int>("BLOCK"));
  CHECK(out == in); // the launch after tuning added once, with no hook around it
  const std::string a = "BLOCK=64, num_warps=4, num_stages=3",
                    b = "BLOCK=128, num_warps=2, num_stages=3";
  std::vector<std::string> want{"bench " + a};
  for (int i = 0; i < 3; ++i)
    want.insert(want.end(), {"pre " + a, "post " + a});
  want.push_back("bench " + b);
  for (int i = 0; i < 3; ++i)
    want.insert(want.end(), {"pre " + b, "post " + b});
  CHECK(events == want);

  events.clear(); // tuned already for this key: no tuning launch, no hook
  tuned.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); }, on_interpreter, out.data(),
               in.data(), n, tk::tuned<int>("BLOCK"));
  CHECK(events.empty());
  CHECK(out[3] == 6.f);
}

TEST_CASE("autotune: the tuning table", "[autotune]") {
  const std::vector<tk::config> configs{{{{"BLOCK", 64}}, 4}, {{{"BLOCK", 128}}, 8}, {{}, 16, 2}};
  tk::detail::tuning_table t;
  t.times = {0.25, std::numeric_limits<double>::quiet_NaN(), 0.125};
  t.errors = {"", "x.cpp:3:1: error: too much shared memory\nmore", ""};
  t.best = tk::detail::fastest(t.times);
  CHECK(t.best == 2);
  CHECK(tk::detail::format_tuning("softmax", "NVIDIA H100", "arg 3 = 1000", configs, t,
                                  "3 configs") ==
        "tk autotune: kernel 'softmax' on NVIDIA H100, key arg 3 = 1000: 3 configs\n"
        "            0.25  BLOCK=64, num_warps=4, num_stages=3\n"
        "          failed  BLOCK=128, num_warps=8, num_stages=3  (x.cpp:3:1: error: too much "
        "shared memory)\n"
        "  *        0.125  num_warps=16, num_stages=2\n");
  CHECK(tk::detail::fastest({std::numeric_limits<double>::quiet_NaN()}) == 1);
  CHECK(tk::detail::fastest({2.0, 1.0, 1.0}) == 1); // the first among equals
}

TEST_CASE("autotune: the disk-cache payload round-trips and bad payloads are rejected",
          "[autotune]") {
  tk::detail::tuning_table t;
  t.times = {0.5, std::numeric_limits<double>::quiet_NaN(), 0.0625};
  t.best = 2;
  const std::string bytes = tk::detail::serialize(t);
  const auto back = tk::detail::deserialize_tuning(bytes, 3);
  REQUIRE(back);
  CHECK(back->best == 2);
  CHECK(back->times[0] == 0.5);
  CHECK(std::isnan(back->times[1]));
  CHECK(back->times[2] == 0.0625);

  CHECK_FALSE(tk::detail::deserialize_tuning(bytes, 2)); // another number of configs
  CHECK_FALSE(tk::detail::deserialize_tuning(bytes, 4));
  CHECK_FALSE(tk::detail::deserialize_tuning("", 3));
  CHECK_FALSE(tk::detail::deserialize_tuning(bytes.substr(0, bytes.size() - 1), 3)); // truncated
  CHECK_FALSE(tk::detail::deserialize_tuning("tk-autotune 2\n0\n1\n", 1));           // format
  CHECK_FALSE(tk::detail::deserialize_tuning("tk-autotune 1\n1\n1\n", 1));           // best >= n
  CHECK_FALSE(tk::detail::deserialize_tuning("tk-autotune 1\nx\n1\n", 1));
  CHECK_FALSE(tk::detail::deserialize_tuning("tk-autotune 1\n0\n1.5ms\n", 1));
  CHECK_FALSE(tk::detail::deserialize_tuning("tk-autotune 1\n0\nnan\n", 1)); // best failed
}

TEST_CASE("errors: tk::autotune", "[errors][autotune]") {
  int line = 0;
  std::vector<float> in(64), out(64);
  SECTION("no configs") {
    tk_test::expect_error(this_file, line, "tk::autotune of kernel 'scale' has no configs", [&] {
      line = __LINE__ + 1;
      (void)tk::autotune(scale_kernel(), {});
    });
  }
  SECTION("bad num_warps") {
    tk_test::expect_error(
        this_file, line,
        "tk::autotune config 1 of kernel 'scale': num_warps is 3; it must be 1, 2, 4, 8, 16 or 32",
        [&] {
          line = __LINE__ + 1;
          (void)tk::autotune(scale_kernel(), {.configs = {{{}, 4}, {{}, 3}}});
        });
  }
  SECTION("bad num_stages") {
    tk_test::expect_error(this_file, line,
                          "tk::autotune config 0 of kernel 'scale': num_stages is 0; it must be "
                          "from 1 to 8",
                          [&] {
                            line = __LINE__ + 1;
                            (void)tk::autotune(scale_kernel(), {.configs = {{{}, 4, 0}}});
                          });
    tk_test::expect_error(this_file, line,
                          "tk::autotune config 1 of kernel 'scale': num_stages is 9; it must be "
                          "from 1 to 8",
                          [&] {
                            line = __LINE__ + 1;
                            (void)tk::autotune(scale_kernel(),
                                               {.configs = {{{}, 4, 8}, {{}, 4, 9}}});
                          });
  }
  SECTION("a constant set twice") {
    tk_test::expect_error(
        this_file, line, "tk::autotune config 0 of kernel 'scale' sets \"BLOCK\" twice", [&] {
          line = __LINE__ + 1;
          (void)tk::autotune(scale_kernel(), {.configs = {{{{"BLOCK", 64}, {"BLOCK", 32}}}}});
        });
  }
  SECTION("a negative key index") {
    tk_test::expect_error(
        this_file, line,
        "tk::autotune of kernel 'scale': key argument index -1 is not a launch argument's index",
        [&] {
          line = __LINE__ + 1;
          (void)tk::autotune(scale_kernel(), {.configs = {{}}, .key = {-1}});
        });
  }
  SECTION("a key listed twice") {
    tk_test::expect_error(this_file, line, "key argument 2 is listed twice", [&] {
      line = __LINE__ + 1;
      (void)tk::autotune(scale_kernel(), {.configs = {{}}, .key = {2, 2}});
    });
  }
  SECTION("a key past the arguments") {
    auto tuned = tk::autotune(scale_kernel(), {.configs = {{{{"BLOCK", 64}}}}, .key = {5}});
    tk_test::expect_error(this_file, line, "key argument 5 is past the launch's 5 arguments", [&] {
      line = __LINE__ + 1;
      tuned.launch(tk::grid(1), on_interpreter, out.data(), in.data(), 64, tk::tuned<int>("BLOCK"),
                   tk::constant(1));
    });
  }
  SECTION("a key that is a placeholder") {
    auto tuned = tk::autotune(scale_kernel(), {.configs = {{{{"BLOCK", 64}}}}, .key = {3}});
    tk_test::expect_error(this_file, line, "key argument 3 is a tk::tuned placeholder", [&] {
      line = __LINE__ + 1;
      tuned.launch(tk::grid(1), on_interpreter, out.data(), in.data(), 64, tk::tuned<int>("BLOCK"),
                   tk::constant(1));
    });
  }
  SECTION("a config without a value for a placeholder") {
    auto tuned = tk::autotune(scale_kernel(), {.configs = {{{{"BLOCK", 64}}}, {{}, 8}}});
    tk_test::expect_error(this_file, line,
                          "tk::autotune config 1 of kernel 'scale' (num_warps=8, num_stages=3) "
                          "gives no value for tk::tuned(\"BLOCK\"), launch argument 3",
                          [&] {
                            line = __LINE__ + 2;
                            tuned.launch(tk::grid(1), on_interpreter, out.data(), in.data(), 64,
                                         tk::tuned<int>("BLOCK"), tk::constant(1));
                          });
  }
  SECTION("a config setting a constant no placeholder names") {
    auto tuned = tk::autotune(scale_kernel(), {.configs = {{{{"BLOCK", 64}, {"SCALE", 2}}}}});
    tk_test::expect_error(this_file, line,
                          "tk::autotune config 0 of kernel 'scale' sets \"SCALE\", which no "
                          "tk::tuned argument of this launch names (they are \"BLOCK\")",
                          [&] {
                            line = __LINE__ + 2;
                            tuned.launch(tk::grid(1), on_interpreter, out.data(), in.data(), 64,
                                         tk::tuned<int>("BLOCK"), tk::constant(1));
                          });
  }
}

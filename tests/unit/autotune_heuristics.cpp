/// @file autotune_heuristics.cpp
/// tk::heuristics and the Triton autotuner options beyond timing, on the interpreter with a
/// custom bench (no timing is asserted): heuristic constants with and without autotuning (an
/// EVEN_K kernel whose IR and result follow the heuristic), launch_view reads, pruning
/// (early_config_prune, perf_model, top_k), reset_to_zero and restore_value around an
/// accumulating kernel, per-config pre_hook calls, buffers in tuned launches, why CUDA-graph
/// timing falls back to events, and every error these raise, with its message and line.
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view this_file = "autotune_heuristics.cpp";

const tk::launch_options on_interpreter{.backend = tk::backend::interpreter};

// out[row] = sum of a[row * K + k] for k < K, BLOCK_K columns a step. EVEN_K (K a multiple of
// BLOCK_K) drops the mask, as Triton's matmul tutorial does.
auto rowsum_kernel() {
  return tk::jit("rowsum", [](tk::ptr<float> out, tk::ptr<const float> a, tk::i32 K,
                              tk::constant<int> BLOCK_K, tk::constant<bool> EVEN_K) {
    auto row = tk::program_id(0);
    auto offs = tk::arange(0, BLOCK_K);
    auto ptrs = a + row * K + offs;
    auto acc = tk::zeros<float>({BLOCK_K});
    tk::for_range(0, K, BLOCK_K, [&](tk::i32 k) {
      if (EVEN_K)
        acc = acc + tk::load(ptrs);
      else
        acc = acc + tk::load(ptrs, offs + k < K, 0.f);
      ptrs += BLOCK_K;
    });
    tk::store(out + row, tk::sum(acc, 0));
  });
}

// out[0] += the sum of in[0, n), one tk::atomic_add per program instance: a kernel whose result
// depends on out's contents before the launch.
auto accumulate_kernel() {
  return tk::jit("accumulate", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n,
                                  tk::constant<int> BLOCK) {
    auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
    tk::atomic_add(out, tk::sum(tk::load(in + offs, offs < n, 0.f), 0));
  });
}

std::vector<float> matrix(int rows, int cols) {
  std::vector<float> m(std::size_t(rows * cols));
  for (std::size_t i = 0; i < m.size(); ++i)
    m[i] = float(i % 7);
  return m;
}

std::vector<float> row_sums(const std::vector<float> &m, int rows, int cols) {
  std::vector<float> s(std::size_t(rows), 0.f);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      s[std::size_t(r)] += m[std::size_t(r * cols + c)];
  return s;
}

bool even_k(const tk::launch_view &a) { return a.arg<int>(2) % a.constant<int>("BLOCK_K") == 0; }

/// The constants of a config, "BLOCK=64" for the events lists.
std::string constants_of(const tk::config &c) {
  std::string s;
  for (const auto &[name, value] : c.constants)
    s += (s.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return s;
}

} // namespace

TEST_CASE("heuristics: without autotune, the constant follows the launch arguments",
          "[autotune][heuristics]") {
  auto rowsum =
      tk::heuristics(rowsum_kernel(),
                     {{"BLOCK_K", [](const tk::launch_view &) { return 16; }}, {"EVEN_K", even_k}});
  const int rows = 3;
  for (const int K : {48, 50}) {
    const std::vector<float> a = matrix(rows, K);
    std::vector<float> out(rows, -1.f);
    rowsum.launch(tk::grid(rows), on_interpreter, out, a, K, tk::heuristic<int>("BLOCK_K"),
                  tk::heuristic<bool>("EVEN_K"));
    CHECK(out == row_sums(a, rows, K));
  }
  // The traced IR is the one a plain launch with the heuristic's values traces.
  const std::vector<float> a = matrix(rows, 50);
  std::vector<float> out(rows);
  const std::string even = rowsum.ir(out.data(), a.data(), 48, tk::heuristic<int>("BLOCK_K"),
                                     tk::heuristic<bool>("EVEN_K"));
  const std::string odd = rowsum.ir(out.data(), a.data(), 50, tk::heuristic<int>("BLOCK_K"),
                                    tk::heuristic<bool>("EVEN_K"));
  CHECK(even == rowsum.base().ir(out.data(), a.data(), 48, tk::constant(16), tk::constant(true)));
  CHECK(odd == rowsum.base().ir(out.data(), a.data(), 50, tk::constant(16), tk::constant(false)));
  CHECK(even != odd);
}

TEST_CASE("heuristics: with autotune, each config's constants reach the heuristic",
          "[autotune][heuristics]") {
  std::vector<std::string> seen;
  auto kernel =
      tk::heuristics(rowsum_kernel(), {{"EVEN_K", [&](const tk::launch_view &a) {
                                          const bool even = even_k(a);
                                          seen.push_back(constants_of(*a.current_config()) +
                                                         (even ? " even" : " odd"));
                                          return even;
                                        }}});
  auto tuned = tk::autotune(kernel, {.configs = {{{{"BLOCK_K", 16}}, 4}, {{{"BLOCK_K", 32}}, 8}},
                                     .key = {2},
                                     .bench = [](const tk::config &c, auto launch) {
                                       launch();
                                       return c.num_warps == 8 ? 1.0 : 2.0; // BLOCK_K 32 wins
                                     }});
  const int rows = 2, K = 48;
  const std::vector<float> a = matrix(rows, K);
  std::vector<float> out(rows, -1.f);
  tuned.launch(tk::grid(rows), on_interpreter, out, a, K, tk::tuned<int>("BLOCK_K"),
               tk::heuristic<bool>("EVEN_K"));
  CHECK(out == row_sums(a, rows, K));
  // One call per tuning launch, then one for the launch after it: 48 % 32 != 0.
  CHECK(seen == std::vector<std::string>{"BLOCK_K=16 even", "BLOCK_K=32 odd", "BLOCK_K=32 odd"});

  // The traced IR differs between the configs only by what EVEN_K changes.
  const tk::config c16{{{"BLOCK_K", 16}}}, c32{{{"BLOCK_K", 32}}};
  CHECK(tuned.ir(c16, out.data(), a.data(), K, tk::tuned<int>("BLOCK_K"),
                 tk::heuristic<bool>("EVEN_K")) ==
        rowsum_kernel().ir(out.data(), a.data(), K, tk::constant(16), tk::constant(true)));
  CHECK(tuned.ir(c32, out.data(), a.data(), K, tk::tuned<int>("BLOCK_K"),
                 tk::heuristic<bool>("EVEN_K")) ==
        rowsum_kernel().ir(out.data(), a.data(), K, tk::constant(32), tk::constant(false)));

  // Heuristics run at every launch, not once per tuning: K is not in the key... but here it is,
  // so a new K tunes again; the same K reuses the tuning and computes EVEN_K again.
  seen.clear();
  tuned.launch(tk::grid(rows), on_interpreter, out, a, K, tk::tuned<int>("BLOCK_K"),
               tk::heuristic<bool>("EVEN_K"));
  CHECK(seen == std::vector<std::string>{"BLOCK_K=32 odd"});

  // tk::heuristics over an autotuned kernel, the other order, and a heuristic seeing an earlier
  // one's value.
  auto again = tk::heuristics(tk::autotune(rowsum_kernel(), {.configs = {{{{"BLOCK_K", 16}}}}}),
                              {{"EVEN_K", even_k}});
  std::vector<float> out2(rows, -1.f);
  again.launch(tk::grid(rows), on_interpreter, out2, a, K, tk::tuned<int>("BLOCK_K"),
               tk::heuristic<bool>("EVEN_K"));
  CHECK(out2 == row_sums(a, rows, K));
}

TEST_CASE("heuristics: a grid callable and later heuristics see the values",
          "[autotune][heuristics]") {
  auto rowsum = tk::heuristics(
      rowsum_kernel(),
      {{"BLOCK_K", [](const tk::launch_view &a) { return a.arg<int>(2) >= 64 ? 32 : 16; }},
       {"EVEN_K", [](const tk::launch_view &a) {
          CHECK(a.has_constant("BLOCK_K"));
          CHECK_FALSE(a.has_constant("EVEN_K"));
          CHECK(a.current_config() == nullptr);
          CHECK(a.kernel_name() == "rowsum");
          CHECK(a.size() == 5);
          CHECK(a.arg<const float *>(1) != nullptr);
          CHECK(a.arg<double>(2) == 100.0);
          return a.arg<int>(2) % a.constant<int>("BLOCK_K") == 0;
        }}});
  const int rows = 2, K = 100;
  const std::vector<float> a = matrix(rows, K);
  std::vector<float> out(rows, -1.f);
  int block = 0;
  bool even = true;
  rowsum.interpret(
      [&](int BLOCK_K, bool EVEN_K) {
        block = BLOCK_K;
        even = EVEN_K;
        return tk::grid(rows);
      },
      out, a, K, tk::heuristic<int>("BLOCK_K"), tk::heuristic<bool>("EVEN_K"));
  CHECK(block == 32);
  CHECK_FALSE(even);
  CHECK(out == row_sums(a, rows, K));
}

TEST_CASE("prune_configs_by: early_config_prune, then the perf model's top_k, in its order",
          "[autotune][prune]") {
  auto accumulate = accumulate_kernel();
  const std::vector<tk::config> configs{{{{"BLOCK", 16}}},
                                        {{{"BLOCK", 32}}},
                                        {{{"BLOCK", 64}}},
                                        {{{"BLOCK", 128}}},
                                        {{{"BLOCK", 256}}}};
  std::vector<std::string> timed, modelled;
  const auto bench = [&](const tk::config &c, auto launch) {
    timed.push_back(constants_of(c));
    launch();
    return double(c.constants[0].second); // the smallest BLOCK is fastest
  };
  const auto model = [&](const tk::config &c, const tk::launch_view &a) {
    modelled.push_back(constants_of(c));
    CHECK(a.current_config() == &c);
    return double(std::abs(a.constant<int>("BLOCK") - 64)); // 64 first, then 32, 16, 128
  };
  const int n = 100;
  std::vector<float> in(n, 1.f), out(1, 0.f);
  const auto run = [&](const auto &tuned) {
    timed.clear();
    modelled.clear();
    tuned.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); }, on_interpreter, out, in,
                 n, tk::tuned<int>("BLOCK"));
  };

  SECTION("early_config_prune sees every config and the arguments") {
    auto tuned = tk::autotune(
        accumulate,
        {.configs = configs,
         .bench = bench,
         .prune_configs_by = {.early_config_prune = [&](const std::vector<tk::config> &all,
                                                        const tk::launch_view &a) {
           CHECK(all.size() == 5);
           CHECK(a.current_config() == nullptr);
           std::vector<tk::config> kept;
           for (const tk::config &c : all)
             if (c.constants[0].second <= a.arg<int>(2)) // no block wider than n
               kept.push_back(c);
           return kept;
         }}});
    run(tuned);
    CHECK(timed == std::vector<std::string>{"BLOCK=16", "BLOCK=32", "BLOCK=64"});
  }
  SECTION("top_k configs by the perf model, timed in the model's order") {
    run(tk::autotune(accumulate, {.configs = configs,
                                  .bench = bench,
                                  .prune_configs_by = {.perf_model = model, .top_k = 3}}));
    CHECK(modelled.size() == 5);
    CHECK(timed == std::vector<std::string>{"BLOCK=64", "BLOCK=32", "BLOCK=16"});
  }
  SECTION("a fraction of the configs, at least one") {
    run(tk::autotune(accumulate, {.configs = configs,
                                  .bench = bench,
                                  .prune_configs_by = {.perf_model = model, .top_k = 0.5}}));
    CHECK(timed == std::vector<std::string>{"BLOCK=64", "BLOCK=32"});
    run(tk::autotune(accumulate, {.configs = configs,
                                  .bench = bench,
                                  .prune_configs_by = {.perf_model = model, .top_k = 0.1}}));
    CHECK(timed.empty()); // one config left: launched without timing, as Triton does
    CHECK(modelled.size() == 5);
  }
  SECTION("top_k 1.0 (the default) keeps every config and asks no model") {
    run(tk::autotune(
        accumulate,
        {.configs = configs, .bench = bench, .prune_configs_by = {.perf_model = model}}));
    CHECK(modelled.empty());
    CHECK(timed.size() == 5);
  }
  SECTION("the interpreter without a bench launches the model's best") {
    int block = 0;
    auto tuned = tk::autotune(
        accumulate, {.configs = configs, .prune_configs_by = {.perf_model = model, .top_k = 2}});
    tuned.launch(
        [&](int BLOCK) {
          block = BLOCK;
          return tk::grid(tk::cdiv(n, BLOCK));
        },
        on_interpreter, out, in, n, tk::tuned<int>("BLOCK"));
    CHECK(block == 64);
  }
}

TEST_CASE("reset_to_zero and restore_value around an accumulating kernel", "[autotune][memory]") {
  auto accumulate = accumulate_kernel();
  const int n = 300;
  const float total = float(n);
  std::vector<float> in(n, 1.f), out(1, 100.f);
  std::vector<float> seen_after; // out[0] after each tuning launch (post_hook)
  const auto options = [&](std::vector<int> reset, std::vector<int> restore) {
    return tk::autotune_options{
        .configs = {{{{"BLOCK", 64}}}, {{{"BLOCK", 128}}}},
        .bench =
            [](const tk::config &, auto launch) {
              for (int i = 0; i < 3; ++i)
                launch();
              return 1.0;
            },
        .post_hook = [&](const tk::config &) { seen_after.push_back(out[0]); },
        .reset_to_zero = std::move(reset),
        .restore_value = std::move(restore)};
  };
  const auto launch = [&](const auto &tuned) {
    tuned.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); }, on_interpreter, out, in,
                 n, tk::tuned<int>("BLOCK"));
  };

  SECTION("without either, tuning launches pile up") {
    launch(tk::autotune(accumulate, options({}, {})));
    CHECK(seen_after.size() == 6);
    CHECK(out[0] == 100.f + 7 * total);
  }
  SECTION("reset_to_zero: each launch starts from zero, and so does the one after tuning") {
    auto tuned = tk::autotune(accumulate, options({0}, {}));
    launch(tuned);
    CHECK(seen_after == std::vector<float>(6, total));
    CHECK(out[0] == total);
    launch(tuned); // tuned already: nothing is zeroed
    CHECK(out[0] == 2 * total);
  }
  SECTION("restore_value: each launch starts from the caller's data, and so does the one after") {
    launch(tk::autotune(accumulate, options({}, {0})));
    CHECK(seen_after == std::vector<float>(6, 100.f + total)); // post_hook runs before the restore
    CHECK(out[0] == 100.f + total);
  }
  SECTION("a tk::device_buffer and a std::span, on the interpreter") {
    tk::device_buffer<float> buffer(std::vector<float>{100.f});
    auto tuned = tk::autotune(accumulate, options({}, {0}));
    tuned.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); }, on_interpreter, buffer,
                 std::span<const float>(in), n, tk::tuned<int>("BLOCK"));
    CHECK(buffer.to_host() == std::vector<float>{100.f + total});
    std::span<float> view(out);
    auto zeroing = tk::autotune(accumulate, options({0}, {}));
    zeroing.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); }, on_interpreter, view,
                   in, n, tk::tuned<int>("BLOCK"));
    CHECK(out[0] == total);
  }
}

TEST_CASE("config pre_hook: before every launch of its config, while tuning and after",
          "[autotune][hooks]") {
  auto accumulate = accumulate_kernel();
  std::vector<std::string> events;
  const auto hook = [&](const tk::launch_view &a) {
    events.push_back("pre " + constants_of(*a.current_config()) + " n=" +
                     std::to_string(a.arg<int>(2)) + " BLOCK=" + std::to_string(a.arg<int>(3)));
  };
  auto tuned = tk::autotune(
      accumulate,
      {.configs = {{{{"BLOCK", 64}}, 4, 3, hook},
                   {.constants = {{"BLOCK", 128}}, .pre_hook = hook}},
       .key = {2},
       .bench =
           [&](const tk::config &c, auto launch) {
             events.push_back("bench " + constants_of(c));
             launch();
             launch();
             return c.constants[0].second == 128 ? 1.0 : 2.0;
           },
       .pre_hook = [&](const tk::config &c) { events.push_back("tuner " + constants_of(c)); }});
  const int n = 200;
  std::vector<float> in(n, 1.f), out(1, 0.f);
  tuned.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); }, on_interpreter, out, in, n,
               tk::tuned<int>("BLOCK"));
  const std::string a = "BLOCK=64", b = "BLOCK=128";
  CHECK(events == std::vector<std::string>{"bench " + a, "pre " + a + " n=200 BLOCK=64",
                                           "tuner " + a, "pre " + a + " n=200 BLOCK=64",
                                           "tuner " + a, "bench " + b,
                                           "pre " + b + " n=200 BLOCK=128", "tuner " + b,
                                           "pre " + b + " n=200 BLOCK=128", "tuner " + b,
                                           "pre " + b + " n=200 BLOCK=128"});
  events.clear();
  tuned.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); }, on_interpreter, out, in, n,
               tk::tuned<int>("BLOCK"));
  CHECK(events == std::vector<std::string>{"pre " + b + " n=200 BLOCK=128"});
}

TEST_CASE("use_cuda_graph: why tuning falls back to CUDA events", "[autotune][graph]") {
  tk::detail::cu::driver none;
  CHECK(tk::detail::cuda_graph_unavailable(none, false, false, {}) ==
        "the driver has no CUDA graphs");
  tk::detail::cu::driver graphs;
  const auto set = [](auto &fn) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(1);
  };
  set(graphs.stream_begin_capture);
  set(graphs.stream_end_capture);
  set(graphs.graph_instantiate);
  set(graphs.graph_launch);
  set(graphs.graph_exec_destroy);
  set(graphs.graph_destroy);
  set(graphs.stream_create);
  set(graphs.stream_destroy);
  CHECK(tk::detail::cuda_graph_unavailable(graphs, false, false, {}).empty());
  CHECK(tk::detail::cuda_graph_unavailable(graphs, true, false, {})
            .starts_with("pre_hook and post_hook run on the host"));
  CHECK(tk::detail::cuda_graph_unavailable(graphs, false, true, {})
            .starts_with("restore_value copies through host memory"));
  tk::detail::memory_target odd{.address = 256, .bytes = 6, .device = true, .index = 2};
  CHECK(tk::detail::cuda_graph_unavailable(graphs, false, false, {odd}) ==
        "reset_to_zero of launch argument 2 is not whole 4-byte words of GPU memory");
  set(graphs.memset_d32_async);
  odd.bytes = 8;
  CHECK(tk::detail::cuda_graph_unavailable(graphs, false, false, {odd}).empty());
}

TEST_CASE("errors: tk::heuristics", "[errors][autotune][heuristics]") {
  int line = 0;
  const int rows = 1, K = 32;
  std::vector<float> a(static_cast<std::size_t>(K)), out(1);
  const auto launch = [&](const auto &k, auto block, auto even) {
    k.launch(tk::grid(rows), on_interpreter, out, a, K, block, even);
  };
  SECTION("a placeholder without a function") {
    auto k =
        tk::heuristics(rowsum_kernel(), {{"BLOCK_K", [](const tk::launch_view &) { return 16; }}});
    tk_test::expect_error(this_file, line,
                          "tk::heuristic(\"EVEN_K\"), launch argument 4, has no function: "
                          "tk::heuristics of kernel 'rowsum' computes \"BLOCK_K\"",
                          [&] {
                            line = __LINE__ + 1;
                            launch(k, tk::heuristic<int>("BLOCK_K"), tk::heuristic<bool>("EVEN_K"));
                          });
  }
  SECTION("a function no placeholder names") {
    auto k =
        tk::heuristics(rowsum_kernel(), {{"EVEN", [](const tk::launch_view &) { return true; }},
                                         {"EVEN_K", [](const tk::launch_view &) { return true; }}});
    tk_test::expect_error(this_file, line,
                          "tk::heuristics of kernel 'rowsum' computes heuristic \"EVEN\", which no "
                          "tk::heuristic argument of this launch names (they are \"EVEN_K\")",
                          [&] {
                            line = __LINE__ + 1;
                            launch(k, tk::constant(16), tk::heuristic<bool>("EVEN_K"));
                          });
  }
  SECTION("a function returning another type") {
    auto k = tk::heuristics(rowsum_kernel(), {{"EVEN_K", [](const tk::launch_view &a) {
                                                 return a.arg<int>(2) % 16; // not a bool
                                               }}});
    tk_test::expect_error(this_file, line,
                          "tk::heuristic<bool>(\"EVEN_K\"), launch argument 4 of kernel 'rowsum', "
                          "takes a bool, but its function returned the std::int32_t 0",
                          [&] {
                            line = __LINE__ + 1;
                            launch(k, tk::constant(16), tk::heuristic<bool>("EVEN_K"));
                          });
  }
  SECTION("a value that does not fit") {
    auto k = tk::heuristics(rowsum_kernel(), {{"BLOCK_K", [](const tk::launch_view &) {
                                                 return std::int64_t{1} << 40;
                                               }}});
    tk_test::expect_error(this_file, line,
                          "tk::heuristic<std::int32_t>(\"BLOCK_K\"), launch argument 3 of kernel "
                          "'rowsum', takes a std::int32_t, but its function returned the "
                          "std::int64_t 1099511627776, which does not fit",
                          [&] {
                            line = __LINE__ + 1;
                            launch(k, tk::heuristic<int>("BLOCK_K"), tk::constant(true));
                          });
  }
  SECTION("a heuristic without a function") {
    tk_test::expect_error(this_file, line,
                          "tk::heuristics of kernel 'rowsum': heuristic \"EVEN_K\" has no function",
                          [&] {
                            line = __LINE__ + 1;
                            (void)tk::heuristics(rowsum_kernel(), {{"EVEN_K", nullptr}});
                          });
  }
  SECTION("a heuristic given twice") {
    tk_test::expect_error(
        this_file, line, "tk::heuristics of kernel 'rowsum': heuristic \"EVEN_K\" is given twice",
        [&] {
          line = __LINE__ + 1;
          (void)tk::heuristics(rowsum_kernel(), {{"EVEN_K", even_k}, {"EVEN_K", even_k}});
        });
  }
  SECTION("a config setting what a heuristic computes") {
    tk_test::expect_error(
        this_file, line,
        "tk::autotune config 0 of kernel 'rowsum' sets \"EVEN_K\", which a "
        "heuristic computes",
        [&] {
          line = __LINE__ + 1;
          (void)tk::autotune(rowsum_kernel(),
                             {.configs = {{{{"EVEN_K", 1}}}}, .heuristics = {{"EVEN_K", even_k}}});
        });
  }
  SECTION("a tk::tuned placeholder without autotune") {
    auto k = tk::heuristics(rowsum_kernel(), {{"EVEN_K", even_k}});
    tk_test::expect_error(this_file, line,
                          "tk::tuned(\"BLOCK_K\"), launch argument 3: kernel 'rowsum' is launched "
                          "through tk::heuristics alone",
                          [&] {
                            line = __LINE__ + 1;
                            launch(k, tk::tuned<int>("BLOCK_K"), tk::heuristic<bool>("EVEN_K"));
                          });
  }
  SECTION("a key that is a heuristic placeholder") {
    auto k = tk::autotune(
        rowsum_kernel(),
        {.configs = {{{{"BLOCK_K", 16}}}}, .key = {4}, .heuristics = {{"EVEN_K", even_k}}});
    tk_test::expect_error(this_file, line, "key argument 4 is a tk::heuristic placeholder", [&] {
      line = __LINE__ + 1;
      launch(k, tk::tuned<int>("BLOCK_K"), tk::heuristic<bool>("EVEN_K"));
    });
  }
}

TEST_CASE("errors: tk::launch_view reads", "[errors][autotune][heuristics]") {
  int line = 0;
  const int K = 32;
  std::vector<float> a(static_cast<std::size_t>(K)), out(1);
  const auto launch_with = [&](auto rule) {
    // EVEN_K is computed first: BLOCK_K has no value yet when it runs.
    auto k =
        tk::heuristics(rowsum_kernel(),
                       {{"EVEN_K", rule}, {"BLOCK_K", [](const tk::launch_view &) { return 16; }}});
    k.launch(tk::grid(1), on_interpreter, out, a, K, tk::heuristic<int>("BLOCK_K"),
             tk::heuristic<bool>("EVEN_K"));
  };
  SECTION("an argument of another type") {
    tk_test::expect_error(this_file, line,
                          "tk::launch_view::arg<bool>(2) of kernel 'rowsum': the value is the "
                          "std::int32_t 32, not a bool",
                          [&] {
                            launch_with([&](const tk::launch_view &v) {
                              line = __LINE__ + 1;
                              return v.arg<bool>(2);
                            });
                          });
  }
  SECTION("a pointer of another element type, or dropping const") {
    tk_test::expect_error(this_file, line,
                          "tk::launch_view::arg<float*>(1) of kernel 'rowsum': the value is a "
                          "const float*, not a float*",
                          [&] {
                            launch_with([&](const tk::launch_view &v) {
                              line = __LINE__ + 1;
                              return v.arg<float *>(1) != nullptr;
                            });
                          });
  }
  SECTION("an argument past the launch's") {
    tk_test::expect_error(this_file, line,
                          "tk::launch_view::arg(7): kernel 'rowsum' has 5 launch arguments", [&] {
                            launch_with([&](const tk::launch_view &v) {
                              line = __LINE__ + 1;
                              return v.arg<int>(7) > 0;
                            });
                          });
  }
  SECTION("a placeholder without its value yet") {
    tk_test::expect_error(this_file, line,
                          "tk::launch_view::arg<std::int32_t>(3) of kernel 'rowsum': the value is "
                          "tk::heuristic(\"BLOCK_K\"), which has no value here",
                          [&] {
                            launch_with([&](const tk::launch_view &v) {
                              line = __LINE__ + 1;
                              return v.arg<int>(3) > 0;
                            });
                          });
  }
  SECTION("an unknown constant") {
    tk_test::expect_error(
        this_file, line,
        "tk::launch_view::constant(\"BLOCK\"): kernel 'rowsum' has no constant of "
        "that name here (none is known",
        [&] {
          launch_with([&](const tk::launch_view &v) {
            line = __LINE__ + 1;
            return v.constant("BLOCK") > 0;
          });
        });
  }
}

TEST_CASE("errors: pruning, reset_to_zero and restore_value", "[errors][autotune][prune]") {
  int line = 0;
  auto accumulate = accumulate_kernel();
  const int n = 64;
  std::vector<float> in(n), out(1);
  const std::vector<tk::config> configs{{{{"BLOCK", 32}}}, {{{"BLOCK", 64}}}};
  const auto bench = [](const tk::config &, auto launch) {
    launch();
    return 1.0;
  };
  SECTION("a bad top_k") {
    tk_test::expect_error(
        this_file, line,
        "tk::autotune of kernel 'accumulate': prune_configs_by.top_k is 0; it "
        "must be a number of configs (an int, at least 1) or a fraction in (0, 1]",
        [&] {
          line = __LINE__ + 1;
          (void)tk::autotune(accumulate, {.configs = configs, .prune_configs_by = {.top_k = 0}});
        });
    tk_test::expect_error(this_file, line, "prune_configs_by.top_k is 1.500000", [&] {
      line = __LINE__ + 1;
      (void)tk::autotune(accumulate, {.configs = configs, .prune_configs_by = {.top_k = 1.5}});
    });
  }
  SECTION("early_config_prune keeping nothing") {
    auto tuned = tk::autotune(
        accumulate, {.configs = configs,
                     .bench = bench,
                     .prune_configs_by = {.early_config_prune = [](const auto &, const auto &) {
                       return std::vector<tk::config>{};
                     }}});
    tk_test::expect_error(this_file, line,
                          "tk::autotune of kernel 'accumulate': early_config_prune returned no "
                          "configs; it must keep at least one",
                          [&] {
                            line = __LINE__ + 2;
                            tuned.launch(tk::grid(2), on_interpreter, out, in, n,
                                         tk::tuned<int>("BLOCK"));
                          });
  }
  SECTION("early_config_prune returning a bad config") {
    auto tuned = tk::autotune(
        accumulate, {.configs = configs,
                     .bench = bench,
                     .prune_configs_by = {.early_config_prune = [](const auto &, const auto &) {
                       return std::vector<tk::config>{{{{"BLOCK", 32}}, 3}};
                     }}});
    tk_test::expect_error(this_file, line,
                          "tk::autotune config 0 returned by early_config_prune of kernel "
                          "'accumulate': num_warps is 3",
                          [&] {
                            line = __LINE__ + 2;
                            tuned.launch(tk::grid(2), on_interpreter, out, in, n,
                                         tk::tuned<int>("BLOCK"));
                          });
  }
  SECTION("reset_to_zero of a pointer") {
    auto tuned =
        tk::autotune(accumulate, {.configs = configs, .bench = bench, .reset_to_zero = {0}});
    tk_test::expect_error(
        this_file, line,
        "tk::autotune of kernel 'accumulate': reset_to_zero names launch "
        "argument 0, a float*; pass the buffer itself (a std::vector, a "
        "std::span or a tk::device_buffer), whose size says how many bytes to zero",
        [&] {
          line = __LINE__ + 1;
          tuned.launch(tk::grid(2), on_interpreter, out.data(), in, n, tk::tuned<int>("BLOCK"));
        });
  }
  SECTION("restore_value past the arguments") {
    auto tuned =
        tk::autotune(accumulate, {.configs = configs, .bench = bench, .restore_value = {4}});
    tk_test::expect_error(
        this_file, line, "restore_value names launch argument 4, past the launch's 4 arguments",
        [&] {
          line = __LINE__ + 1;
          tuned.launch(tk::grid(2), on_interpreter, out, in, n, tk::tuned<int>("BLOCK"));
        });
  }
  SECTION("bad indices") {
    tk_test::expect_error(this_file, line,
                          "tk::autotune of kernel 'accumulate': reset_to_zero argument index -1 is "
                          "not a launch argument's index",
                          [&] {
                            line = __LINE__ + 1;
                            (void)tk::autotune(accumulate,
                                               {.configs = configs, .reset_to_zero = {-1}});
                          });
    tk_test::expect_error(this_file, line, "restore_value argument 0 is listed twice", [&] {
      line = __LINE__ + 1;
      (void)tk::autotune(accumulate, {.configs = configs, .restore_value = {0, 0}});
    });
    tk_test::expect_error(
        this_file, line, "argument 0 is in both reset_to_zero and restore_value", [&] {
          line = __LINE__ + 1;
          (void)tk::autotune(accumulate,
                             {.configs = configs, .reset_to_zero = {0}, .restore_value = {0}});
        });
  }
}

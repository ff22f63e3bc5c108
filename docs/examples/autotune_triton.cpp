/// @file autotune_triton.cpp
/// The examples of docs/autotune.md on Triton's autotuner options: tk::heuristics (alone and
/// inside tk::autotune), prune_configs_by, reset_to_zero and restore_value, a config's pre_hook,
/// use_cuda_graph and host-made descriptors whose block shape follows the config; run on the
/// interpreter, where a custom bench stands in for the timing.
#include "doc_examples.hpp"

#include <cstdlib>
#include <utility>
#include <vector>

namespace {

// [snippet:rowsum]
// out[row] = the sum of a[row, 0:K]. EVEN_K (K a multiple of BLOCK_K) drops the mask.
auto rowsum = tk::jit("rowsum", [](tk::ptr<float> out, tk::ptr<const float> a, tk::i32 K,
                                   tk::constant<int> BLOCK_K, tk::constant<bool> EVEN_K) {
  auto offs = tk::arange(0, BLOCK_K);
  auto ptrs = a + tk::program_id(0) * K + offs;
  auto acc = tk::zeros<float>({BLOCK_K});
  tk::for_range(0, K, BLOCK_K, [&](tk::i32 k) {
    if (EVEN_K) // a C++ if: the traced kernel has one branch or the other
      acc = acc + tk::load(ptrs);
    else
      acc = acc + tk::load(ptrs, offs + k < K, 0.f);
    ptrs += BLOCK_K;
  });
  tk::store(out + tk::program_id(0), tk::sum(acc, 0));
});
// [/snippet]

// [snippet:heuristics]
// @triton.heuristics({'EVEN_K': lambda args: args['K'] % args['BLOCK_K'] == 0})
auto rowsum_even =
    tk::heuristics(rowsum, {{"EVEN_K", [](const tk::launch_view &a) {
                               return a.arg<int>(2) % a.arg<int>(3) == 0; // K % BLOCK_K
                             }}});
// @triton.autotune(configs=[...], key=['K']) above it: the config is chosen first.
auto rowsum_tuned = tk::autotune(
    rowsum_even,
    {.configs = {{{{"BLOCK_K", 32}}, 2}, {{{"BLOCK_K", 64}}, 4}, {{{"BLOCK_K", 128}}, 4}},
     .key = {2}});
// [/snippet]

// out[0] += the sum of in[0, n), an atomic_add per program instance.
auto accumulate = tk::jit("accumulate", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n,
                                           tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  tk::atomic_add(out, tk::sum(tk::load(in + offs, offs < n, 0.f), 0));
});

// [snippet:descriptor_kernel]
// y = 2 x over host-made descriptors; the tile is a constant for the grid and the offsets, and
// the descriptors' block shape, which each config sets.
auto twice =
    tk::jit("twice", [](tk::tensor_descriptor<float, 2> y, tk::tensor_descriptor<const float, 2> x,
                        tk::constant<int> BM, tk::constant<int> BN) {
      auto i = tk::program_id(0) * BM, j = tk::program_id(1) * BN;
      y.store({i, j}, x.load({i, j}) * 2.0f);
    });
// [/snippet]

} // namespace

DOC_EXAMPLE("autotune_triton.descriptors") {
  const int M = 100, N = 72;
  std::vector<float> x(M * N, 1.f), y(M * N);
  // [snippet:descriptor_launch]
  auto tuned =
      tk::autotune(twice, {.configs = {{{{"BM", 32}, {"BN", 64}}}, {{{"BM", 64}, {"BN", 32}}}},
                           .bench = [](const tk::config &, auto launch) {
                             launch();
                             return 1.0;
                           }});
  // Block dimensions as tk::tuned placeholders: each config gives them its BM and BN (Triton
  // sets desc.block_shape in a pre_hook for this).
  const tk::tuned<int> BM("BM"), BN("BN");
  const tk::host_tensor_descriptor xd(std::as_const(x), {M, N}, {N, 1}, {BM, BN});
  const tk::host_tensor_descriptor yd(y, {M, N}, {N, 1}, {BM, BN});
  tuned.launch([&](int bm, int bn) { return tk::grid(tk::cdiv(M, bm), tk::cdiv(N, bn)); },
               {.backend = tk::backend::interpreter}, yd, xd, BM, BN);
  // [/snippet]
  for (float v : y)
    doc::check(v == 2.f, "y = 2 x");
}

DOC_EXAMPLE("autotune_triton.heuristics") {
  const int rows = 4, K = 100;
  std::vector<float> a(rows * K, 1.f), out(rows);
  // [snippet:heuristics_launch]
  rowsum_tuned.launch(tk::grid(rows), {.backend = tk::backend::interpreter}, out, a, K,
                      tk::tuned<int>("BLOCK_K"), tk::heuristic<bool>("EVEN_K"));
  // [/snippet]
  for (float v : out)
    doc::check(v == float(K), "row sums");
  // Without autotune: the caller gives BLOCK_K.
  rowsum_even.interpret(tk::grid(rows), out, a, K, tk::constant(64), tk::heuristic<bool>("EVEN_K"));
  for (float v : out)
    doc::check(v == float(K), "row sums, heuristics alone");
}

DOC_EXAMPLE("autotune_triton.options") {
  const int n = 10000;
  std::vector<float> in(n, 1.f), out{5.f};
  // [snippet:options]
  auto tuned = tk::autotune(
      accumulate,
      {.configs = {{{{"BLOCK", 128}}, 4}, {{{"BLOCK", 256}}, 4}, {{{"BLOCK", 1024}}, 8}},
       .key = {2},
       // Stands in for the GPU timing, so that tuning also runs here on the interpreter.
       .bench =
           [](const tk::config &c, auto launch) {
             launch();
             return double(c.num_warps);
           },
       // prune_configs_by={'perf_model': ..., 'top_k': 2}
       .prune_configs_by = {.perf_model =
                                [](const tk::config &, const tk::launch_view &a) {
                                  return double(
                                      a.constant("BLOCK")); // a rough model: smaller first
                                },
                            .top_k = 2},
       // reset_to_zero=['out']: zeroed before each timed launch and the launch after tuning.
       .reset_to_zero = {0},
       .use_cuda_graph = true}); // on a GPU: timed by replaying a CUDA graph
  tuned.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); },
               {.backend = tk::backend::interpreter}, out, in, n, tk::tuned<int>("BLOCK"));
  // out[0] == n: the sum, added once, whatever tuning ran.
  // [/snippet]
  doc::check(out[0] == float(n), "reset_to_zero");

  out[0] = 5.f;
  // [snippet:restore]
  // restore_value=['out'], and Config(..., pre_hook=...) on one config.
  auto restoring = tk::autotune(
      accumulate, {.configs = {{{{"BLOCK", 128}}, 4},
                               {.constants = {{"BLOCK", 256}},
                                .pre_hook =
                                    [](const tk::launch_view &a) { // before each launch of it
                                      doc::check(a.arg<int>(3) == 256, "the config's BLOCK");
                                    }}},
                   .key = {2},
                   .bench =
                       [](const tk::config &, auto launch) {
                         launch();
                         return 1.0;
                       },
                   .restore_value = {0}});
  restoring.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); },
                   {.backend = tk::backend::interpreter}, out, in, n, tk::tuned<int>("BLOCK"));
  // out[0] == 5 + n: every timed launch started from 5, and so did the one after.
  // [/snippet]
  doc::check(out[0] == 5.f + float(n), "restore_value");
}

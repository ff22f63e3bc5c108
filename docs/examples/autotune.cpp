/// @file autotune.cpp
/// docs/autotune.md: grid callables, tk::autotune, tk::device_buffer.
#include "doc_examples.hpp"

#include <cstdlib>
#include <string>
#include <vector>

namespace {

// [snippet:kernel]
// out = in * 2, BLOCK elements per program instance.
auto twice = tk::jit(
    "twice", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n, tk::constant<int> BLOCK) {
      auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offs < n;
      tk::store(out + offs, tk::load(in + offs, mask) * 2, mask);
    });
// [/snippet]

// [snippet:autotune]
// Four candidates; the best is chosen for each value of n (launch argument 2).
auto twice_tuned =
    tk::autotune(twice, {.configs = {{.constants = {{"BLOCK", 1024}}, .num_warps = 4},
                                     {.constants = {{"BLOCK", 2048}}, .num_warps = 4},
                                     {.constants = {{"BLOCK", 2048}}, .num_warps = 8},
                                     {.constants = {{"BLOCK", 4096}}, .num_warps = 8}},
                         .key = {2}});
// [/snippet]

// [snippet:device_buffer]
// Without the CUDA runtime: allocate, copy in, launch, copy out.
[[maybe_unused]] std::vector<float> twice_on_gpu(const std::vector<float> &host) {
  const int n = int(host.size());
  tk::device_buffer<float> in(host), out(host.size());
  twice.launch(tk::grid(tk::cdiv(n, 1024)), out.data(), in.data(), n, tk::constant(1024));
  return out.to_host(); // waits for the launch (default stream)
}
// [/snippet]

} // namespace

DOC_EXAMPLE("autotune.grid_callable") {
  const int n = 5000;
  std::vector<float> in(n, 1.5f), out(n);
  // [snippet:grid_callable]
  // The grid callable gets each tk::constant argument's value, in parameter order.
  twice.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); },
               {.backend = tk::backend::interpreter}, out.data(), in.data(), n, tk::constant(1024));
  // [/snippet]
  for (float v : out)
    doc::check(v == 3.0f, "1.5 * 2 == 3");
}

DOC_EXAMPLE("autotune.launch") {
  const int n = 5000;
  std::vector<float> in(n, 1.5f), out(n);
  // [snippet:autotune_launch]
  // tk::tuned<int>("BLOCK") stands for BLOCK: each config supplies it, and so does the grid.
  twice_tuned.launch([&](int BLOCK) { return tk::grid(tk::cdiv(n, BLOCK)); },
                     {.backend = tk::backend::interpreter}, out.data(), in.data(), n,
                     tk::tuned<int>("BLOCK"));
  // [/snippet]
  for (float v : out)
    doc::check(v == 3.0f, "1.5 * 2 == 3");
}

DOC_EXAMPLE("autotune.grid_by_name") {
  const int n = 5000;
  std::vector<float> in(n, 1.5f), out(n);
  // [snippet:grid_by_name]
  // Triton's grid = lambda META: (triton.cdiv(n, META["BLOCK"]),): the launch's view, whose
  // tuned constants and heuristics are read by name, whatever their position.
  twice_tuned.launch(
      [&](const tk::launch_view &meta) {
        return tk::grid(tk::cdiv(n, meta.constant<int>("BLOCK")));
      },
      {.backend = tk::backend::interpreter}, out.data(), in.data(), n, tk::tuned<int>("BLOCK"));
  // [/snippet]
  for (float v : out)
    doc::check(v == 3.0f, "1.5 * 2 == 3");
}

DOC_EXAMPLE("autotune.device_buffer_on_the_interpreter") {
  // The same program under TK_INTERPRET=1: the buffers are host memory (docs/interpreter.md,
  // "Device buffers"), and the launch runs on the interpreter.
#ifndef _WIN32
  const char *before = std::getenv("TK_INTERPRET");
  const std::string saved = before ? before : "";
  setenv("TK_INTERPRET", "1", 1);
  const std::vector<float> out = twice_on_gpu(std::vector<float>(3000, 1.5f));
  if (before)
    setenv("TK_INTERPRET", saved.c_str(), 1);
  else
    unsetenv("TK_INTERPRET");
  for (float v : out)
    doc::check(v == 3.0f, "1.5 * 2 == 3");
#endif
}

/// @file control.cpp
/// docs/writing-kernels.md: for_range, if_, while_, loop options and compile-time helpers, and
/// how tracing runs bodies.
#include "doc_examples.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

namespace {

// [snippet:for_range]
// Sums each row of an R x n matrix, BLOCK columns at a time; one program per row.
auto long_row_sum = tk::jit("long_row_sum", [](tk::ptr<float> sums, tk::ptr<const float> x,
                                               tk::i32 n, tk::constant<int> BLOCK) {
  auto row = tk::program_id(0);
  auto base = x + row * n;
  auto acc = tk::zeros<float>({BLOCK});
  tk::for_range(0, n, BLOCK, [&](tk::i32 start) { // start = 0, BLOCK, 2 * BLOCK, ... < n
    auto cols = start + tk::arange(0, BLOCK);
    acc += tk::load(base + cols, cols < n, 0.0f); // assigning acc makes it loop-carried
  });
  tk::store(sums + row, tk::sum(acc, 0));
});
// [/snippet]

// [snippet:if]
auto branches = tk::jit("branches", [](tk::ptr<float> out, tk::i32 mode) {
  auto offs = tk::arange(0, 4);
  auto x = tk::cast<float>(offs);
  // A branch may return a block: both branches return the same type and shape.
  auto y = tk::if_(mode > 0, [&] { return x * 2.0f; }, [&] { return x - 1.0f; });
  // Assigning a handle from outside makes it a result of the branch.
  auto scale = tk::full<float>({4}, 1.0f);
  tk::if_(mode == 2, [&] { scale = scale * 10.0f; }); // no else: scale keeps its value
  tk::store(out + offs, y * scale);
});
// [/snippet]

// [snippet:while]
// Counts how many halvings bring x below 1 (x >= 0).
auto halvings = tk::jit("halvings", [](tk::ptr<std::int32_t> out, tk::ptr<const float> in) {
  auto x = tk::load(in); // tk::f32
  tk::i32 steps = 0;     // a scalar from a C++ value: carried through the loop
  tk::while_([&] { return x >= 1.0f; },
             [&] {
               x = x * 0.5f;
               steps = steps + 1;
             });
  tk::store(out, steps);
});
// [/snippet]

// [snippet:persistent]
// Scales n floats, BLOCK at a time, with a fixed number of programs that each walk the blocks
// pid, pid + num_programs, ...
auto scale_all =
    tk::jit("scale_all", [](tk::ptr<float> x, tk::i32 n, tk::f32 factor, tk::constant<int> BLOCK) {
      tk::for_range(tk::program_id(0), tk::cdiv(n, BLOCK), tk::num_programs(0), [&](tk::i32 block) {
        auto offs = block * BLOCK + tk::arange(0, BLOCK);
        tk::store(x + offs, tk::load(x + offs, offs < n) * factor, offs < n);
      });
    });
// [/snippet]

// [snippet:range_options]
// Sums the rows of a rows x n matrix with a fixed number of programs, each taking rows pid,
// pid + programs, ...: flattened, the two loops compile as one loop over every column block of
// every row the program takes; the column loop asks for 4 stages and an unroll factor of 2.
auto row_sums = tk::jit("row_sums", [](tk::ptr<float> sums, tk::ptr<const float> x, tk::i32 rows,
                                       tk::i32 n, tk::constant<int> BLOCK) {
  tk::for_range(tk::program_id(0), rows, tk::num_programs(0), {.flatten = true}, [&](tk::i32 row) {
    auto acc = tk::zeros<float>({BLOCK}); // when a row starts
    tk::for_range(0, n, BLOCK, {.num_stages = 4, .loop_unroll_factor = 2}, [&](tk::i32 start) {
      auto cols = start + tk::arange(0, BLOCK);
      acc += tk::load(x + row * n + cols, cols < n, 0.0f);
    });
    tk::store(sums + row, tk::sum(acc, 0)); // when it ends
  });
});
// [/snippet]

// [snippet:static_helpers]
auto scaled_copy = tk::jit(
    "scaled_copy", [](tk::ptr<float> out, tk::ptr<const float> in, tk::constant<int> BLOCK) {
      tk::static_assert_(BLOCK % 16 == 0, "BLOCK must be a multiple of 16");
      auto offs = tk::arange(0, BLOCK);
      tk::static_print("offs", offs, "BLOCK", BLOCK); // once per trace: offs i32[32] BLOCK 32
      // Triton's static_range: a C++ loop runs while tracing, recording four loads and stores.
      for (int part = 0; part < 4; ++part) {
        auto at = part * BLOCK + offs;
        tk::store(out + at, tk::load(in + at) * float(part + 1));
      }
      // Where the index must be a compile-time constant: std::get<i> of a tuple of blocks.
      auto ends = std::make_tuple(tk::arange(0, 16), tk::arange(0, 32));
      tk::static_for<0, 2>([&](auto i) {
        auto block = std::get<i>(ends);
        tk::store(out + 4 * BLOCK + i * 16 + block, tk::cast<float>(block), block < 16);
      });
    });
// [/snippet]

} // namespace

DOC_EXAMPLE("control.range_options") {
  const int rows = 5, n = 300;
  std::vector<float> x(std::size_t(rows * n)), sums(rows, -1.0f);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < n; ++c)
      x[std::size_t(r * n + c)] = float(r + 1);
  row_sums.interpret(tk::grid(2), sums.data(), x.data(), rows, n, 64);
  doc::check(sums == std::vector<float>{300, 600, 900, 1200, 1500}, "row sums");
}

DOC_EXAMPLE("control.static_helpers") {
  const int block = 32;
  std::vector<float> in(4 * block, 1.0f), out(4 * block + 48, -1.0f);
  scaled_copy.interpret(tk::grid(1), out.data(), in.data(), block);
  doc::check(out[0] == 1.0f && out[3 * block + 5] == 4.0f, "the four parts, scaled");
  doc::check(out[4 * block + 15] == 15.0f && out[4 * block + 16 + 15] == 15.0f &&
                 out[4 * block + 16 + 16] == -1.0f,
             "the two blocks of the tuple");
}

DOC_EXAMPLE("control.persistent") {
  const int n = 10000, block = 256;
  std::vector<float> x(n, 3.0f);
  // [snippet:persistent_launch]
  // One program per multiprocessor (the interpreter, with no GPU: 4), no more than the blocks.
  const int sms = tk::gpu_available() ? tk::gpu_multiprocessor_count() : 4;
  scale_all.interpret(tk::grid(std::min<std::int64_t>(sms, tk::cdiv(n, block))), x.data(), n, 0.5f,
                      block);
  // [/snippet]
  doc::check(x == std::vector<float>(n, 1.5f), "every block scaled once");
}

DOC_EXAMPLE("control.for_range") {
  const int rows = 3, n = 1000;
  std::vector<float> x(std::size_t(rows * n)), sums(rows);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < n; ++c)
      x[std::size_t(r * n + c)] = float(r + 1);
  long_row_sum.interpret(tk::grid(rows), sums.data(), x.data(), n, 128);
  doc::check(sums == std::vector<float>{1000, 2000, 3000}, "row sums");
}

DOC_EXAMPLE("control.if") {
  std::vector<float> out(4);
  branches.interpret(tk::grid(1), out.data(), 2);
  doc::check(out == std::vector<float>{0, 20, 40, 60}, "then branch, scaled");
  branches.interpret(tk::grid(1), out.data(), 0);
  doc::check(out == std::vector<float>{-1, 0, 1, 2}, "else branch");
}

DOC_EXAMPLE("control.while") {
  const float x = 10.0f;
  std::int32_t steps = -1;
  halvings.interpret(tk::grid(1), &steps, &x);
  doc::check(steps == 4, "10 -> 5 -> 2.5 -> 1.25 -> 0.625");
}

DOC_EXAMPLE("control.tracing_runs_bodies_twice") {
  // [snippet:trace_twice]
  int calls = 0; // host-side state touched by the body: only to show how often it runs
  auto count = tk::jit("count", [&calls](tk::ptr<float> out, tk::i32 n) {
    auto acc = tk::zeros<float>({16});
    tk::for_range(0, n, [&] {
      ++calls;
      acc += 1.0f;
    });
    tk::store(out + tk::arange(0, 16), acc);
  });
  float buffer[16];
  (void)count.ir(buffer, 5);               // tracing: the body runs twice, whatever n is
  const int traced = calls;                // 2
  count.interpret(tk::grid(1), buffer, 5); // interpreting: traced, then once per iteration
  const int interpreted = calls - traced;  // 2 + 5
  // [/snippet]
  doc::check(traced == 2 && interpreted == 7 && buffer[0] == 5.0f, "body calls");
}

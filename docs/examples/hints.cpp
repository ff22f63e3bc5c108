/// @file hints.cpp
/// docs/writing-kernels.md and docs/ir.md: compiler hints (tk::multiple_of, tk::max_contiguous,
/// tk::assume), cache and eviction hints on loads and stores (tk::memory_hints), and their IR.
#include "doc_examples.hpp"

#include <cstdint>
#include <vector>

namespace {

// [snippet:gather]
// Gathers elements of a paged cache: element i of the output is cache[slots[i]]. Pages hold
// whole rows of 8 halves, so the slots come in runs of 8 consecutive values, each run starting
// at a multiple of 8. Nothing else tells the compiler so: with the hints, each thread reads
// 16 bytes at a time instead of 2.
auto gather = tk::jit("gather", [](tk::ptr<tk::half> out, tk::ptr<const tk::half> cache,
                                   tk::ptr<const std::int32_t> slots, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto slot = tk::load(slots + offs);
  slot = tk::max_contiguous(tk::multiple_of(slot, 8), 8);
  tk::store(out + offs, tk::load(cache + slot));
});
// [/snippet]

// [snippet:assume]
// Copies rows that start where `starts` says. The kernel reads the starts from memory, so only
// the assumption tells the compiler that they are multiples of 16 (and the copies 16-byte
// vectors).
auto copy_rows =
    tk::jit("copy_rows", [](tk::ptr<float> out, tk::ptr<const float> in,
                            tk::ptr<const std::int32_t> starts, tk::constant<int> BLOCK) {
      auto start = tk::load(starts + tk::program_id(0));
      tk::assume(start % 16 == 0);
      auto offs = start + tk::arange(0, BLOCK);
      tk::store(out + offs, tk::load(in + offs));
    });
// [/snippet]

// [snippet:pointer]
// Copies a row whose address the kernel reads from memory (a table of buffers). The address's
// alignment is a promise in bytes, as in Triton; with it each thread copies 16 bytes at a time.
auto copy_from = tk::jit("copy_from", [](tk::ptr<float> out, tk::ptr<const std::int64_t> table,
                                         tk::constant<int> BLOCK) {
  auto row = tk::multiple_of(tk::cast<float *>(tk::load(table + tk::program_id(0))), 16);
  auto offs = tk::arange(0, BLOCK);
  tk::store(out + tk::program_id(0) * BLOCK + offs, tk::load(row + offs));
});
// [/snippet]

// [snippet:cache]
// y = x * w, row by row: x is read once (evict it from L1 first), the weights are read by every
// program (keep them), and y is not read back soon (a streaming store).
auto scale_rows = tk::jit("scale_rows", [](tk::ptr<float> y, tk::ptr<const float> x,
                                           tk::ptr<const float> w, tk::constant<int> N) {
  auto cols = tk::arange(0, N);
  auto offs = tk::program_id(0) * N + cols;
  auto xv = tk::load(x + offs, {.eviction_policy = tk::eviction_policy::evict_first});
  auto wv = tk::load(w + cols, {.eviction_policy = tk::eviction_policy::evict_last});
  tk::store(y + offs, xv * wv, {.cache_modifier = tk::cache_modifier::cs});
});
// [/snippet]

// [snippet:ir_kernel]
auto hinted = tk::jit("hinted", [](tk::ptr<float> p, tk::i32 n) {
  tk::assume(n % 16 == 0);
  auto offs = tk::max_contiguous(tk::multiple_of(tk::arange(0, 64), 64), 64);
  auto x = tk::load(p + offs, {.cache_modifier = tk::cache_modifier::cg});
  tk::store(p + n + offs, x, {.eviction_policy = tk::eviction_policy::evict_last});
});
// [/snippet]

} // namespace

DOC_EXAMPLE("hints.gather") {
  std::vector<tk::half> cache(256), out(64);
  for (std::size_t k = 0; k < cache.size(); ++k)
    cache[k] = tk::half(float(k % 100));
  std::vector<std::int32_t> slots(64);
  const int pages[] = {5, 0, 31, 2, 17, 9, 30, 12}; // 8 rows of 8, from scattered pages
  for (std::size_t k = 0; k < slots.size(); ++k)
    slots[k] = pages[k / 8] * 8 + std::int32_t(k % 8);
  gather.interpret(tk::grid(2), out, cache, slots, 32);
  for (std::size_t k = 0; k < out.size(); ++k)
    doc::check(float(out[k]) == float(cache[std::size_t(slots[k])]), "out[k] = cache[slots[k]]");
}

DOC_EXAMPLE("hints.assume") {
  std::vector<float> in(128), out(128, 0.0f);
  for (std::size_t k = 0; k < in.size(); ++k)
    in[k] = float(k);
  const std::vector<std::int32_t> starts = {0, 48, 96};
  copy_rows.interpret(tk::grid(3), out, in, starts, 16);
  doc::check(out[48] == 48 && out[63] == 63 && out[64] == 0 && out[111] == 111,
             "rows copied where they start");
  // A start that breaks the assumption: the interpreter's checked mode says so.
  const std::vector<std::int32_t> bad = {8};
  bool reported = false;
  try {
    copy_rows.launch(tk::grid(1), {.backend = tk::backend::interpreter, .checked = true}, out, in,
                     bad, 16);
  } catch (const tk::error &) {
    reported = true;
  }
  doc::check(reported, "checked mode reports a false tk::assume");
}

DOC_EXAMPLE("hints.pointer") {
  alignas(16) static float first[16], second[16];
  for (int k = 0; k < 16; ++k) {
    first[k] = float(k);
    second[k] = float(100 + k);
  }
  const std::vector<std::int64_t> table = {std::int64_t(reinterpret_cast<std::uintptr_t>(second)),
                                           std::int64_t(reinterpret_cast<std::uintptr_t>(first))};
  std::vector<float> out(32, 0.0f);
  copy_from.launch(tk::grid(2), {.backend = tk::backend::interpreter, .checked = true}, out, table,
                   16);
  doc::check(out[0] == 100 && out[15] == 115 && out[16] == 0 && out[31] == 15,
             "rows copied from the table's addresses");
  // An address 4 bytes in breaks the promise: the checked mode reports it.
  const std::vector<std::int64_t> misaligned = {table[0] + 4, table[1]};
  bool reported = false;
  try {
    copy_from.launch(tk::grid(2), {.backend = tk::backend::interpreter, .checked = true}, out,
                     misaligned, 16);
  } catch (const tk::error &) {
    reported = true;
  }
  doc::check(reported, "checked mode reports a broken tk::multiple_of");
}

DOC_EXAMPLE("hints.cache") {
  std::vector<float> x(32), w(16), y(32);
  for (std::size_t k = 0; k < x.size(); ++k)
    x[k] = float(k) * 0.5f;
  for (std::size_t k = 0; k < w.size(); ++k)
    w[k] = float(k) - 3;
  scale_rows.interpret(tk::grid(2), y, x, w, 16);
  for (std::size_t k = 0; k < y.size(); ++k)
    doc::check(y[k] == x[k] * w[k % 16], "y = x * w");
}

DOC_IR("ir.hints") {
  alignas(16) static float p[256];
  return hinted.ir(p, 64);
}

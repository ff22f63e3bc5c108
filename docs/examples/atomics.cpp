/// @file atomics.cpp
/// docs/writing-kernels.md and docs/ir.md: atomics (a histogram, tickets from a counter, a spin
/// lock) and their IR.
#include "doc_examples.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

// [snippet:histogram]
// Counts n keys into bins: many lanes, and many programs, add to the same bin.
auto histogram =
    tk::jit("histogram", [](tk::ptr<std::int32_t> bins, tk::ptr<const std::int32_t> keys, tk::i32 n,
                            tk::constant<int> BLOCK) {
      auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offs < n;
      auto key = tk::load(keys + offs, mask);
      tk::atomic_add(bins + key, 1, mask); // masked-off lanes touch nothing
    });
// [/snippet]

// [snippet:tickets]
// Each program takes the next free slot of `out` from a counter (a scalar pointer): the old
// value the atomic returns is the program's own, whatever order the programs run in.
auto append = tk::jit("append", [](tk::ptr<float> out, tk::ptr<std::int32_t> counter,
                                   tk::ptr<const float> x, tk::constant<int> BLOCK) {
  auto v = tk::load(x + tk::program_id(0) * BLOCK + tk::arange(0, BLOCK));
  auto slot = tk::atomic_add(counter, 1, tk::sem::relaxed); // tk::i32: the value before
  tk::store(out + slot, tk::max(v));
});
// [/snippet]

// [snippet:spin_lock]
// Adds each program's block into one shared row under a lock: plain loads and stores between
// taking the lock (atomic_cas from 0 to 1) and releasing it (atomic_xchg back to 0).
auto locked_add = tk::jit("locked_add", [](tk::ptr<float> row, tk::ptr<std::int32_t> lock,
                                           tk::ptr<const float> x, tk::constant<int> BLOCK) {
  auto offs = tk::arange(0, BLOCK);
  auto mine = tk::load(x + tk::program_id(0) * BLOCK + offs);
  tk::while_([&] { return tk::atomic_cas(lock, 0, 1) == 1; }, [] {}); // spin until we take it
  tk::store(row + offs, tk::load(row + offs) + mine);
  tk::atomic_xchg(lock, 0); // release
});
// [/snippet]

// [snippet:ir_kernel]
auto bump = tk::jit("bump", [](tk::ptr<float> p, tk::ptr<std::int32_t> lock, tk::i32 n) {
  auto offs = tk::arange(0, 128);
  auto mask = offs < n;
  auto old = tk::atomic_add(p + offs, 1.0f, mask);
  auto taken = tk::atomic_cas(lock, 0, 1, tk::sem::acquire, tk::scope::gpu);
  (void)old, (void)taken;
});
// [/snippet]

} // namespace

DOC_EXAMPLE("atomics.histogram") {
  std::vector<std::int32_t> keys(1000), bins(5, 0);
  for (std::size_t k = 0; k < keys.size(); ++k)
    keys[k] = std::int32_t(k * 7 % 5);
  histogram.interpret(tk::grid(tk::cdiv(1000, 128)), bins, keys, 1000, 128);
  doc::check(bins == std::vector<std::int32_t>(5, 200), "200 keys in each bin");
}

DOC_EXAMPLE("atomics.tickets") {
  std::vector<float> x(4 * 16), out(4, 0.0f);
  for (std::size_t k = 0; k < x.size(); ++k)
    x[k] = float(k);
  std::vector<std::int32_t> counter = {0};
  append.interpret(tk::grid(4), out, counter, x, 16);
  std::sort(out.begin(), out.end()); // on the GPU, in any order
  doc::check(out == std::vector<float>{15, 31, 47, 63}, "one slot per program");
  doc::check(counter[0] == 4, "four tickets taken");
}

DOC_EXAMPLE("atomics.spin_lock") {
  std::vector<float> x(8 * 16, 1.0f), row(16, 0.0f);
  std::vector<std::int32_t> lock = {0};
  locked_add.interpret(tk::grid(8), row, lock, x, 16);
  doc::check(row == std::vector<float>(16, 8.0f), "every program's block added once");
  doc::check(lock[0] == 0, "released");
}

DOC_IR("ir.atomics") {
  alignas(16) static float p[128];
  alignas(16) static std::int32_t lock[4];
  return bump.ir(p, lock, 100);
}

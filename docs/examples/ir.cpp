/// @file ir.cpp
/// docs/ir.md: kernels whose printed IR the page quotes (without locations).
///
/// One traced operation per C++ expression here: C++ does not fix the order in which function
/// arguments and operands are evaluated, and the quoted IR must not depend on the compiler.
#include "doc_examples.hpp"

#include <cstdint>

namespace {

struct buffers {
  alignas(16) static inline float f32[64];
  alignas(16) static inline tk::half f16[64];
  alignas(16) static inline std::int32_t i32[64];
};

// [snippet:add]
auto add = tk::jit(
    "add", [](tk::ptr<float> out, tk::ptr<const float> a, tk::i32 n, tk::constant<int> BLOCK) {
      auto pid = tk::program_id(0);
      auto start = pid * BLOCK;
      auto offs = start + tk::arange(0, BLOCK);
      auto mask = offs < n;
      auto x = tk::load(a + offs, mask, 0.0f);
      auto y = x * 2.0f;
      tk::store(out + offs, y, mask);
    });
// [/snippet]

// [snippet:row_max]
auto row_max =
    tk::jit("row_max", [](tk::ptr<float> out, tk::ptr<std::int32_t> idx, tk::ptr<const float> in) {
      auto offs = tk::arange(0, 16);
      auto x = tk::load(in + offs);
      auto m = tk::max(x, 0);
      auto i = tk::argmax(x, 0);
      tk::store(out, m);
      tk::store(idx, i);
    });
// [/snippet]

// [snippet:loop]
auto loop = tk::jit("loop", [](tk::ptr<float> out, tk::ptr<const tk::half> in, tk::i32 n) {
  auto offs = tk::arange(0, 16);
  auto acc = tk::zeros<float>({16});
  auto ptrs = in + offs;
  tk::for_range(0, n, [&](tk::i32) {
    auto x = tk::load(ptrs);
    acc += x;
    ptrs += 16;
  });
  auto positive = n > 0;
  tk::if_(positive, [&] { tk::store(out + offs, acc); });
});
// [/snippet]

} // namespace

DOC_IR("ir.add") { return add.ir(buffers::f32, buffers::f32, 1000, tk::constant<int>(128)); }

DOC_IR("ir.divisibility") {
  // 16-byte aligned pointer, 4-byte aligned pointer, integer divisible by 16.
  return add.ir(buffers::f32, buffers::f32 + 1, 1024, tk::constant<int>(128));
}

DOC_IR("ir.row_max") { return row_max.ir(buffers::f32, buffers::i32, buffers::f32); }

DOC_IR("ir.loop") { return loop.ir(buffers::f32, buffers::f16, 7); }

/// @file inline_asm.cpp
/// docs/writing-kernels.md and docs/ir.md: PTX of one's own with
/// tk::inline_asm_elementwise, the interpreter's refusal of it, a kernel that runs either way,
/// and the IR.
#include "doc_examples.hpp"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace {

// [snippet:packed_add]
// a + b on halves, two to a 32-bit register: PTX's add.f16x2 runs once per pair of elements.
// With ASM false the same sum is the block operator, which the interpreter can run.
auto add_halves = tk::jit("add_halves", [](tk::ptr<tk::half> out, tk::ptr<const tk::half> a,
                                           tk::ptr<const tk::half> b, tk::constant<bool> ASM) {
  auto offs = tk::program_id(0) * 256 + tk::arange(0, 256);
  auto x = tk::load(a + offs);
  auto y = tk::load(b + offs);
  if (ASM.value) {
    auto sum = tk::inline_asm_elementwise<tk::half>("add.f16x2 $0, $1, $2;", "=r,r,r",
                                                    std::tuple{x, y}, /*is_pure=*/true,
                                                    /*pack=*/2);
    tk::store(out + offs, sum);
  } else {
    tk::store(out + offs, x + y);
  }
});
// [/snippet]

// [snippet:two_results]
// Splits each 32-bit word into its low and high halves, as two blocks of u16: one asm
// statement, two results ("=h" each: a 16-bit register), one operand ("r").
auto split_words = tk::jit("split_words", [](tk::ptr<std::uint16_t> lo, tk::ptr<std::uint16_t> hi,
                                             tk::ptr<const std::uint32_t> words) {
  auto offs = tk::arange(0, 128);
  auto w = tk::load(words + offs);
  auto [l, h] = tk::inline_asm_elementwise<std::uint16_t, std::uint16_t>(
      "mov.b32 {$0, $1}, $2;", "=h,=h,r", std::tuple{w}, true, 1);
  tk::store(lo + offs, l);
  tk::store(hi + offs, h);
});
// [/snippet]

} // namespace

DOC_EXAMPLE("inline_asm.interpreter") {
  std::vector<tk::half> a(512), b(512), out(512);
  for (std::size_t k = 0; k < a.size(); ++k) {
    a[k] = tk::half(float(k % 64) * 0.25f);
    b[k] = tk::half(1.5f - float(k % 7));
  }
  // [snippet:interpreter]
  try {
    add_halves.interpret(tk::grid(2), out, a, b, true);
  } catch (const tk::error &) {
    // "...: error: tk::inline_asm_elementwise cannot run on the interpreter: it runs PTX, which
    //  only the GPU can; launch on the GPU, or write the computation with block operations ..."
  }
  add_halves.interpret(tk::grid(2), out, a, b, false); // the block operator instead
  // [/snippet]
  for (std::size_t k = 0; k < out.size(); ++k)
    doc::check(float(out[k]) == float(tk::half(float(a[k]) + float(b[k]))), "out = a + b");
  bool refused = false;
  std::vector<std::uint16_t> lo(128), hi(128);
  const std::vector<std::uint32_t> words(128, 0x12345678u);
  try {
    split_words.interpret(tk::grid(1), lo, hi, words);
  } catch (const tk::error &e) {
    refused = std::string(e.message()).find("cannot run on the interpreter") != std::string::npos;
  }
  doc::check(refused, "the interpreter refuses inline PTX");
}

DOC_IR("ir.inline_asm") {
  alignas(16) static tk::half out[512], a[512], b[512];
  return add_halves.ir(out, a, b, true);
}

DOC_IR("ir.inline_asm_two_results") {
  alignas(16) static std::uint16_t lo[128], hi[128];
  alignas(16) static std::uint32_t words[128];
  return split_words.ir(lo, hi, words);
}

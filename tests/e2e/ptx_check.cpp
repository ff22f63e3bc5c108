/// @file ptx_check.cpp
/// End-to-end code generation check: every example kernel and every golden kernel
/// (tests/ir/golden_kernels.hpp), traced by the front end, goes through the backend's C ABI to PTX
/// for each target the backend supports, and ptxas assembles that PTX. Where it matters the PTX
/// is checked too: vector add moves 16 bytes per access, softmax reduces with warp shuffles, the
/// simple kernels spill nothing to local memory (ptxas -v), and ptxas serializes no wgmma.
///
///   tk_e2e_ptx PTXAS GROUP     GROUP: an example (vector_add, softmax, layernorm,
///                              layernorm_backward, dropout, matmul, attention, hints) or a
///                              golden family (params, creation, memory, ...)
///   tk_e2e_ptx --families F... checks that F... are all the golden families (so that CMake's
///                              list of tests misses none)
///
/// Exits 0 when every case passes, 1 otherwise, 77 (skipped) when ptxas cannot run.
#include "../ir/golden_support.hpp"
#include "kernels/attention.hpp"
#include "kernels/attention_backward.hpp"
#include "kernels/block_scaled_matmul.hpp"
#include "kernels/dropout.hpp"
#include "kernels/extern_functions.hpp"
#include "kernels/grouped_matmul.hpp"
#include "kernels/layernorm.hpp"
#include "kernels/layernorm_backward.hpp"
#include "kernels/matmul.hpp"
#include "kernels/sampling.hpp"
#include "kernels/softmax.hpp"
#include "kernels/vector_add.hpp"
#include "kernels/w4a16_matmul.hpp"

#include "tk/backend.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

struct check_case {
  std::string group;
  std::string name;
  std::function<std::string()> ir;
  int num_warps = 4;
  std::vector<std::string> ptx_must_match; // regular expressions, on every target from min_sm
  bool no_spills = false;
  int min_sm = 0; // the first target (compute capability x 10) the checks apply to
  std::vector<std::string> ptx_must_not_match = {}; // from min_sm too
  std::vector<std::string> sm90a_must_match = {};   // on sm_90a instead of ptx_must_match
  bool tensor_maps = false; // the caller encodes tensor maps, as the runtime does (TMA on sm_90)
  std::vector<std::string> sm90a_must_not_match = {};
};

/// "sm_90a" -> 90.
int sm_number(const std::string &target) { return std::atoi(target.c_str() + 3); }

/// out[p * 1024 + i] = kv[slots[p * 1024 + i]]: 1024 slots per program, gathered. With `hinted`,
/// the slots are declared multiples of 8 in runs of 8 consecutive values, as a paged cache whose
/// pages hold 8 rows of 8 halves would give.
inline const auto paged_gather =
    tk::jit("paged_gather", [](tk::ptr<tk::half> out, tk::ptr<const tk::half> kv,
                               tk::ptr<const std::int32_t> slots, tk::constant<bool> hinted) {
      auto offs = tk::program_id(0) * 1024 + tk::arange(0, 1024);
      auto slot = tk::load(slots + offs);
      if (hinted.value)
        slot = tk::max_contiguous(tk::multiple_of(slot, 8), 8);
      tk::store(out + offs, tk::load(kv + slot));
    });

/// A copy whose loads and stores carry cache hints.
inline const auto cache_hinted_copy =
    tk::jit("cache_hinted_copy", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
      auto offs = tk::program_id(0) * 1024 + tk::arange(0, 1024);
      auto a = tk::load(in + offs, {.cache_modifier = tk::cache_modifier::cg});
      auto b = tk::load(in + offs, {.eviction_policy = tk::eviction_policy::evict_last});
      tk::store(out + offs, a, {.cache_modifier = tk::cache_modifier::cs});
      tk::store(out + offs, b + n, {.eviction_policy = tk::eviction_policy::evict_first});
    });

// Pointers 16-byte aligned (the common case: cudaMalloc'ed buffers), so the IR carries
// tk.divisibility = 16 like a launch on such buffers would.
template <class T> T *aligned() { return reinterpret_cast<T *>(std::uintptr_t{256}); }

std::vector<check_case> example_cases() {
  using tk::half;
  std::vector<check_case> out;
  out.push_back({"vector_add",
                 "block1024",
                 [] {
                   return examples::vector_add.ir(aligned<float>(), aligned<const float>(),
                                                  aligned<const float>(), 1 << 20,
                                                  tk::constant(1024));
                 },
                 4,
                 // 16 bytes per access: 4 x b32, or 2 x b64 as LLVM writes it for sm_100 on
                 {R"(ld\.global(\.nc)?\.(v4\.b32|v2\.b64))", R"(st\.global\.(v4\.b32|v2\.b64))"},
                 true});
  for (int block : {1024, 4096})
    out.push_back({"softmax",
                   "block" + std::to_string(block),
                   [block] {
                     return examples::softmax.ir(aligned<float>(), aligned<const float>(), 4096,
                                                 4000, tk::constant(block));
                   },
                   block >= 4096 ? 8 : 4,
                   {R"(shfl\.sync\.bfly)", R"(ex2\.approx)"},
                   true});
  out.push_back({"layernorm",
                 "f16_block256",
                 [] {
                   return examples::layernorm.ir(aligned<half>(), aligned<const half>(),
                                                 aligned<const half>(), aligned<const half>(),
                                                 aligned<float>(), aligned<float>(), 1024, 1000,
                                                 1e-5f, tk::constant(256));
                 },
                 4,
                 {R"(shfl\.sync\.bfly)"},
                 true});
  // The backward pass: a spin lock per group of rows (a compare-and-swap to take it, an
  // exchange to release it) around the partial sums of dW and dB, then their sum.
  out.push_back({"layernorm_backward",
                 "dx_f16_block1024",
                 [] {
                   return examples::layernorm_backward_dx.ir(
                       aligned<half>(), aligned<const half>(), aligned<float>(), aligned<float>(),
                       aligned<const half>(), aligned<const float>(), aligned<const float>(),
                       aligned<const float>(), aligned<std::int32_t>(), 1024, 1000,
                       tk::constant(256), tk::constant(1024));
                 },
                 4,
                 {R"(atom\.[a-z0-9_.]*cas\.b32)", R"(atom\.[a-z0-9_.]*exch\.b32)"}});
  out.push_back({"layernorm_backward",
                 "dwdb_f32_32x128",
                 [] {
                   return examples::layernorm_backward_dwdb.ir(
                       aligned<const float>(), aligned<const float>(), aligned<float>(),
                       aligned<float>(), 256, 1000, tk::constant(32), tk::constant(128));
                 },
                 4,
                 {},
                 true});
  // Device functions by name (Triton's tutorial 07): libdevice's asinf, and smoothstepf from
  // the example's own library file, both linked and inlined (no call is left).
  out.push_back({"extern_functions",
                 "libdevice_asin",
                 [] {
                   return examples::asin_kernel.ir(aligned<float>(), aligned<const float>(),
                                                   1 << 20, tk::constant(1024));
                 },
                 4,
                 {R"(ld\.global(\.nc)?\.(v4\.b32|v2\.b64))"},
                 true,
                 0,
                 {R"(call(\.uni)?\s)", R"(\.extern \.func)"}});
  out.push_back({"extern_functions",
                 "library_smoothstep",
                 [] {
                   examples::smoothstep_library = TK_EXAMPLES_DIR "/from_triton/07-smoothstep.ll";
                   return examples::smoothstep_kernel.ir(aligned<float>(), aligned<const float>(),
                                                         1 << 20, tk::constant(1024));
                 },
                 4,
                 {R"(max\.f32)", R"(min\.f32)"},
                 true,
                 0,
                 {R"(call(\.uni)?\s)", R"(\.extern \.func)"}});
  // Programmatic dependent launch: griddepcontrol from sm_90 (before sm_90 the ops lower to
  // nothing: tests/lit/Conversion/TkToLLVM/gdc.mlir).
  out.push_back({"vector_add",
                 "gdc_block1024",
                 [] {
                   return examples::vector_add_gdc.ir(aligned<float>(), aligned<const float>(),
                                                      aligned<const float>(), 1 << 20,
                                                      tk::constant(1024), tk::constant(true));
                 },
                 4,
                 {R"(griddepcontrol\.wait;)", R"(griddepcontrol\.launch_dependents;)"},
                 true,
                 90});
  // Dropout, forward and backward: Philox's products as mul.hi (the mask from the seed, no
  // mask buffer), 16-byte accesses, no spills.
  const auto dropout_case = [&](const char *name, const auto &kernel) {
    out.push_back({"dropout",
                   name,
                   [&kernel] {
                     return kernel.ir(aligned<float>(), aligned<const float>(), 1 << 20, 0.3f,
                                      std::int64_t(7), tk::constant(1024));
                   },
                   4,
                   {R"(ld\.global(\.nc)?\.(v4\.b32|v2\.b64))", R"(st\.global\.(v4\.b32|v2\.b64))",
                    R"(mul\.hi\.u32)"},
                   true});
  };
  dropout_case("forward_f32_block1024", examples::dropout_forward);
  dropout_case("backward_f32_block1024", examples::dropout_backward);
  out.push_back({"dropout",
                 "with_mask_f32_block1024",
                 [] {
                   return examples::dropout_with_mask.ir(aligned<float>(), aligned<const float>(),
                                                         aligned<const std::int8_t>(), 1 << 20,
                                                         0.3f, tk::constant(1024));
                 },
                 4,
                 {R"(ld\.global(\.nc)?\.(v4\.b32|v2\.b64))", R"(st\.global\.(v4\.b32|v2\.b64))"},
                 true});
  // Compiler hints: a gather through offsets loaded from a slot table (a paged KV cache's
  // block table, a MoE row map) moves 16 bytes per access once the offsets are declared
  // multiples of 8 in runs of 8 (tk::multiple_of, tk::max_contiguous), and one f16 per access
  // without the hints, which nothing else tells the compiler.
  const auto paged_case = [&](const char *name, bool hinted, std::vector<std::string> must,
                              std::vector<std::string> must_not) {
    out.push_back({"hints", name,
                   [hinted] {
                     return paged_gather.ir(aligned<half>(), aligned<const half>(),
                                            aligned<const std::int32_t>(), tk::constant(hinted));
                   },
                   4, std::move(must), true, 0, std::move(must_not)});
  };
  paged_case("gather_hinted", true, {R"(ld\.global(\.nc)?\.(v4\.b32|v2\.b64))"},
             {R"(ld\.global(\.nc)?\.[bu]16)"});
  paged_case("gather_unhinted", false, {R"(ld\.global(\.nc)?\.[bu]16)"}, {});
  // Cache and eviction hints become the qualifiers of the 16-byte accesses.
  out.push_back(
      {"hints",
       "memory_hints",
       [] { return cache_hinted_copy.ir(aligned<float>(), aligned<const float>(), 1 << 20); },
       4,
       {R"(ld\.global\.cg\.v4\.b32)", R"(ld\.global\.L1::evict_last\.v4\.b32)",
        R"(st\.global\.cs\.v4\.b32)", R"(st\.global\.L1::evict_first\.v4\.b32)"},
       true});
  // Tensor cores from sm_80: mma.sync fed by ldmatrix from tiles that cp.async fills ahead of
  // the loop (num_stages = 3: two groups in flight), no spills for the large tiles. Sizes
  // divisible by 16, as in the benchmarks, so that the loads are 16-byte vectors. On sm_90a,
  // wgmma reads the tiles cp.async fills (made visible to it by a proxy fence), one product
  // left in flight while the next iteration's copies start.
  const std::vector<std::string> mma = {
      R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16)", R"(ldmatrix\.sync\.aligned\.m8n8\.x4)",
      R"(cp\.async\.cg\.shared\.global\s+\[[^\]]+\], \[[^\]]+\], 16)",
      R"(cp\.async\.wait_group\s+1;)"};
  const std::vector<std::string> wgmma = {
      R"(wgmma\.mma_async\.sync\.aligned\.m64n\d+k16\.f32\.f16\.f16)",
      R"(wgmma\.wait_group\.sync\.aligned\s+1;)", R"(fence\.proxy\.async\.shared::cta)",
      R"(cp\.async\.cg\.shared\.global\s+\[[^\]]+\], \[[^\]]+\], 16)",
      R"(cp\.async\.wait_group\s+1;)"};
  struct tile {
    int m, n, k, warps;
  };
  for (tile t : {tile{64, 64, 32, 4}, tile{128, 128, 32, 4}, tile{128, 128, 32, 8}})
    out.push_back({"matmul",
                   "f16_" + std::to_string(t.m) + "x" + std::to_string(t.n) + "x" +
                       std::to_string(t.k) + "_w" + std::to_string(t.warps),
                   [t] {
                     return examples::matmul.ir(
                         aligned<half>(), aligned<const half>(), aligned<const half>(), 4096, 4096,
                         4096, 4096, 1, 4096, 1, 4096, 1, tk::constant(t.m), tk::constant(t.n),
                         tk::constant(t.k), tk::constant(4),
                         tk::constant(tk::input_precision::tf32));
                   },
                   t.warps,
                   mma,
                   true,
                   80,
                   {},
                   wgmma});
  // Triton's grouped-GEMM tutorial: addresses loaded from device arrays, a while loop over the
  // tiles (the addresses' alignment and the sizes' multiples are tk::multiple_of promises, which
  // make the tiles' copies 16 bytes wide, as cp.async from sm_80); persistent matmul through
  // pointers; block-scaled (MX) operands decoded to bf16 for the tensor cores.
  out.push_back({"matmul",
                 "grouped_128x128x32_w4",
                 [] {
                   return examples::grouped_matmul.ir(
                       aligned<const std::int64_t>(), aligned<const std::int64_t>(),
                       aligned<const std::int64_t>(), aligned<const std::int32_t>(),
                       aligned<const std::int32_t>(), 4, tk::constant(128), tk::constant(128),
                       tk::constant(32));
                 },
                 4,
                 {R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)",
                  R"(cp\.async\.cg\.shared\.global\s+\[[^\]]+\], \[[^\]]+\], 16)"},
                 false,
                 80,
                 {R"(ld\.global(\.nc)?\.[bu]16)",
                  R"(cp\.async\.ca\.shared\.global\s+\[[^\]]+\], \[[^\]]+\], [248];)"},
                 {R"(wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16)",
                  R"(cp\.async\.cg\.shared\.global\s+\[[^\]]+\], \[[^\]]+\], 16)"}});
  out.push_back({"matmul",
                 "persistent_pointers_128x128x64_w8",
                 [] {
                   return examples::matmul_persistent_pointers.ir(
                       aligned<half>(), aligned<const half>(), aligned<const half>(), 4096, 4096,
                       4096, 4096, 1, 4096, 1, 4096, 1, tk::constant(128), tk::constant(128),
                       tk::constant(64), tk::constant(8), tk::constant(tk::input_precision::tf32));
                 },
                 8,
                 {R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"},
                 true,
                 80,
                 {},
                 {R"(wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16)"}});
  for (auto [name, fa, fb] :
       {std::tuple{"block_scaled_mxfp8", tk::mx_format::e4m3, tk::mx_format::e4m3},
        std::tuple{"block_scaled_mixed", tk::mx_format::e4m3, tk::mx_format::e2m1}})
    out.push_back({"matmul",
                   name,
                   [fa, fb] {
                     return examples::block_scaled_matmul.ir(
                         aligned<float>(), aligned<const std::uint8_t>(),
                         aligned<const std::uint8_t>(), aligned<const std::uint8_t>(),
                         aligned<const std::uint8_t>(), 4096, 4096, 4096, tk::constant(fa),
                         tk::constant(fb), tk::constant(64), tk::constant(64), tk::constant(64));
                   },
                   4,
                   {R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32)"},
                   false,
                   80,
                   {},
                   {R"(wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.bf16\.bf16)"}});
  // Triton's matmul tutorial: the leaky-ReLU epilogue, f16 C, tensor cores from sm_80.
  out.push_back({"matmul",
                 "tutorial_leaky_relu_128x128x32_w4",
                 [] {
                   return examples::matmul_activation.ir(
                       aligned<half>(), aligned<const half>(), aligned<const half>(), 4096, 4096,
                       4096, 4096, 1, 4096, 1, 4096, 1, tk::constant(128), tk::constant(128),
                       tk::constant(32), tk::constant(8),
                       tk::constant(examples::activation::leaky_relu));
                 },
                 4,
                 {R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"},
                 true,
                 80,
                 {},
                 {R"(wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16)"}});
  // The int4-weight matmul: the unpacked, scaled weights reach the tensor cores (mma.sync from
  // sm_80, wgmma on sm_90a) and the activations move by cp.async.
  out.push_back({"w4a16",
                 "f16_128x128x64_w8",
                 [] {
                   return examples::w4a16_matmul.ir(
                       aligned<half>(), aligned<const half>(), aligned<const std::int8_t>(),
                       aligned<const half>(), 4096, 4096, 4096, tk::constant(128),
                       tk::constant(128), tk::constant(64), tk::constant(8), tk::constant(128));
                 },
                 8,
                 {R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"},
                 false,
                 80,
                 {},
                 {R"(wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16)"}});
  // Sampling: a bitonic top-k of i64 keys per vocabulary chunk, then scans over the candidates.
  out.push_back({"sampling",
                 "top_k_64_block_2048",
                 [] {
                   return examples::sample_top_k_top_p.ir(
                       aligned<std::int32_t>(), aligned<const float>(), aligned<const float>(),
                       128256, 0.7f, 0.9f, tk::constant(2048), tk::constant(64));
                 },
                 8,
                 {R"(shfl\.sync)"}});
  out.push_back(
      {"matmul",
       "bf16_128x64x32",
       [] {
         return examples::matmul.ir(
             aligned<float>(), aligned<const tk::bfloat16>(), aligned<const tk::bfloat16>(), 4096,
             4096, 4096, 4096, 1, 4096, 1, 4096, 1, tk::constant(128), tk::constant(64),
             tk::constant(32), tk::constant(4), tk::constant(tk::input_precision::tf32));
       },
       4,
       {R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16)", R"(cp\.async\.cg\.shared\.global)"},
       true,
       80,
       {},
       {R"(wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.bf16\.bf16)",
        R"(cp\.async\.cg\.shared\.global)"}});
  out.push_back(
      {"matmul",
       "tf32_64x64x32",
       [] {
         return examples::matmul.ir(aligned<float>(), aligned<const float>(),
                                    aligned<const float>(), 4096, 4096, 4096, 4096, 1, 4096, 1,
                                    4096, 1, tk::constant(64), tk::constant(64), tk::constant(32),
                                    tk::constant(4), tk::constant(tk::input_precision::tf32));
       },
       4,
       {R"(mma\.sync\.aligned\.m16n8k8\.row\.col\.f32\.tf32)", R"(cp\.async\.cg\.shared\.global)"},
       true,
       80,
       {R"(cvt\.rna\.tf32)"}}); // the tensor cores read f32 registers as tf32

  // fp8 (e4m3, B given K-major through its strides, as the Triton tutorial does): mma.sync
  // m16n8k32 from sm_89 (PTX 8.4), wgmma k32 on sm_90a; widened to f16 below sm_89.
  out.push_back({"matmul",
                 "e4m3_128x128x64",
                 [] {
                   return examples::matmul.ir(aligned<half>(), aligned<const tk::f8e4m3>(),
                                              aligned<const tk::f8e4m3>(), 4096, 4096, 4096, 4096,
                                              1, 1, 4096, 4096, 1, tk::constant(128),
                                              tk::constant(128), tk::constant(64), tk::constant(8),
                                              tk::constant(tk::input_precision::tf32));
                 },
                 8,
                 {R"(mma\.sync\.aligned\.m16n8k32\.row\.col\.f32\.e4m3\.e4m3\.f32)",
                  R"(cp\.async\.cg\.shared\.global)"},
                 true,
                 89,
                 {},
                 {R"(wgmma\.mma_async\.sync\.aligned\.m64n\d+k32\.f32\.e4m3\.e4m3)",
                  R"(cp\.async\.cg\.shared\.global)"}});

  // The persistent matmul through tensor descriptors: the tile loop around the K loop. On
  // sm_90a, TMA fills the rings wgmma reads and stores C, with no cp.async.
  out.push_back(
      {"matmul",
       "persistent_f16_128x128x64_w8",
       [] {
         return examples::matmul_persistent.ir(
             aligned<half>(), aligned<const half>(), aligned<const half>(), 4096, 4096, 4096,
             tk::constant(128), tk::constant(128), tk::constant(64), tk::constant(8));
       },
       8,
       {R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16)"},
       true,
       80,
       {},
       {R"(wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16)",
        R"(cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes)",
        R"(cp\.async\.bulk\.tensor\.2d\.global\.shared::cta)", R"(mbarrier\.try_wait\.parity)"},
       true,
       {R"(cp\.async\.(cg|ca|wait_group|commit_group))"}});

  // Flash attention: two dots per step, the second reading P from registers on sm_90a.
  struct attention_case {
    const char *type;
    int head_dim, block_n, warps;
    bool causal;
  };
  for (attention_case a :
       {attention_case{"f16", 64, 64, 4, false}, attention_case{"bf16", 128, 64, 8, true}}) {
    const bool bf16 = std::string(a.type) == "bf16";
    const std::string t = bf16 ? "bf16" : "f16";
    out.push_back(
        {"attention",
         t + "_d" + std::to_string(a.head_dim) + (a.causal ? "_causal" : "") + "_w" +
             std::to_string(a.warps),
         [a, bf16] {
           auto ir = [&]<class T>(T) {
             return examples::attention.ir(
                 aligned<T>(), aligned<const T>(), aligned<const T>(), aligned<const T>(), 0.125f,
                 4096, tk::constant(a.head_dim), tk::constant(128), tk::constant(a.block_n),
                 tk::constant(a.causal), tk::constant(false));
           };
           return bf16 ? ir(tk::bfloat16{}) : ir(half{});
         },
         a.warps,
         // Some targets spill a few registers here (ptxas -v); the check is on the instructions.
         {"mma\\.sync\\.aligned\\.m16n8k16\\.row\\.col\\.f32\\." + t + "\\." + t,
          R"(cp\.async\.cg\.shared\.global)", R"(ex2\.approx)"},
         false,
         80,
         {},
         {"wgmma\\.mma_async\\.sync\\.aligned\\.m64n" + std::to_string(a.block_n) + "k16\\.f32\\." +
              t + "\\." + t,
          "wgmma\\.mma_async\\.sync\\.aligned\\.m64n" + std::to_string(a.head_dim) +
              "k16\\.f32\\." + t + "\\." + t + "\\s+\\{[^}]*\\}, \\{%r",
          R"(cp\.async\.cg\.shared\.global)", R"(ex2\.approx)"}});
  }
  // Flash attention's backward (Triton's tutorial 06): five dots per step of each half, on the
  // tensor cores from sm_80 (wgmma on sm_90a).
  out.push_back({"attention",
                 "backward_f16_d64_causal_w4",
                 [] {
                   return examples::attention_backward.ir(
                       aligned<half>(), aligned<half>(), aligned<half>(), aligned<const half>(),
                       aligned<const half>(), aligned<const half>(), aligned<const half>(),
                       aligned<const float>(), aligned<const float>(), 0.125f, 4096,
                       tk::constant(64), tk::constant(32), tk::constant(128), tk::constant(128),
                       tk::constant(32), tk::constant(true));
                 },
                 4,
                 {R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"},
                 false,
                 80,
                 {},
                 {R"(wgmma\.mma_async\.sync\.aligned\.m64n\d+k16\.f32\.f16\.f16)"}});
  out.push_back({"attention",
                 "backward_preprocess_f16_d64",
                 [] {
                   return examples::attention_backward_preprocess.ir(
                       aligned<float>(), aligned<const half>(), aligned<const half>(), 4096,
                       tk::constant(64), tk::constant(128));
                 },
                 4,
                 {R"(ld\.global(\.nc)?\.(v4\.b32|v2\.b64))"},
                 true});
  // The same through tensor descriptors: on sm_90a, TMA copies K and V into the rings wgmma
  // reads, with no cp.async (nor the proxy fence cp.async needs before wgmma reads its copies).
  // bf16, S 4096; mma.sync on the other targets.
  struct descriptor_attention {
    const char *name;
    int head_dim, block_m, block_n, warps;
    bool causal, even_n;
    std::vector<std::string> sm90a_must_match, must_not_match;
  };
  const std::string no_cp_async = R"(cp\.async\.(cg|ca|wait_group|commit_group))";
  const std::string tma_copy =
      R"(cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes)";
  const std::string qk_wgmma = R"(wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.bf16\.bf16)";
  const std::string masked_score = R"(selp\.f32\s+%\w+, %\w+, 0fFF800000)";
  const descriptor_attention descriptor_cases[] = {
      {"descriptor_bf16_d128_causal_w8",
       128,
       128,
       64,
       8,
       true,
       false,
       {qk_wgmma, tma_copy, R"(mbarrier\.try_wait\.parity)"},
       {}},
      // The causal configuration the benchmarks run on the H100: 64 x 64 on one warpgroup, P V
      // with P in registers. (It spills on mma.sync targets, which run other configurations.)
      {"descriptor_bf16_d128_causal_w4",
       128,
       64,
       64,
       4,
       true,
       true,
       {qk_wgmma,
        R"(wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.bf16\.bf16\s+\{[^}]*\}, \{%r)",
        tma_copy},
       {}},
      // With EVEN_N a non-causal kernel has one key loop and masks no score with -inf.
      {"descriptor_bf16_d64_even_w4",
       64,
       64,
       64,
       4,
       false,
       true,
       {qk_wgmma, tma_copy},
       {masked_score}},
  };
  for (const descriptor_attention &a : descriptor_cases) {
    std::vector<std::string> sm90a_must_not_match = a.must_not_match;
    sm90a_must_not_match.push_back(no_cp_async);
    out.push_back({"attention",
                   a.name,
                   [a] {
                     return examples::attention_descriptor.ir(
                         aligned<tk::bfloat16>(), aligned<const tk::bfloat16>(),
                         aligned<const tk::bfloat16>(), aligned<const tk::bfloat16>(), 0.125f, 4096,
                         4 * 32 * 4096, tk::constant(a.head_dim), tk::constant(a.block_m),
                         tk::constant(a.block_n), tk::constant(a.causal), tk::constant(a.even_n));
                   },
                   a.warps,
                   {R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16)", R"(ex2\.approx)"},
                   false,
                   80,
                   a.must_not_match,
                   a.sm90a_must_match,
                   true,
                   sm90a_must_not_match});
  }
  return out;
}

std::vector<check_case> golden_cases(const std::string &family) {
  std::vector<check_case> out;
  for (const auto &c : tk_golden::cases())
    if (family == c.family)
      out.push_back({c.family, c.name, c.ir, 4, {}, false});
  return out;
}

std::string read_file(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Runs `command`, its stdout and stderr into `log`; the exit status.
int run(const std::string &command, const std::filesystem::path &log) {
  const std::string full = command + " >'" + log.string() + "' 2>&1";
  const int status = std::system(full.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/// The targets tk_backend_targets() lists ("sm_75 sm_80 ...").
std::vector<std::string> targets() {
  std::istringstream in(tk_backend_targets());
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

struct checker {
  std::string ptxas;
  std::filesystem::path dir;
  int failures = 0;

  void fail(const check_case &c, const std::string &target, const std::string &why) {
    ++failures;
    std::printf("FAIL %s.%s %s: %s\n", c.group.c_str(), c.name.c_str(), target.c_str(),
                why.c_str());
  }

  void check(const check_case &c) {
    const std::string ir = c.ir();
    for (const std::string &target : targets()) {
      tk_compile_options opts;
      tk_compile_options_init(&opts);
      opts.target = target.c_str();
      opts.num_warps = c.num_warps;
      opts.tensor_maps = c.tensor_maps ? 1 : 0;
      opts.output = TK_OUTPUT_PTX;
      tk_compile_result *result = nullptr;
      const tk_status status = tk_compile(ir.c_str(), ir.size(), &opts, &result);
      if (status != TK_OK) {
        fail(c, target, std::string("tk_compile: ") + tk_compile_result_error(result));
        tk_compile_result_free(result);
        continue;
      }
      const std::string ptx = tk_compile_result_ptx(result);
      tk_compile_result_free(result);
      for (const std::string &pattern : c.ptx_must_match)
        if (sm_number(target) >= c.min_sm && (target != "sm_90a" || c.sm90a_must_match.empty()) &&
            !std::regex_search(ptx, std::regex(pattern)))
          fail(c, target, "nothing in the PTX matches `" + pattern + "`");
      for (const std::string &pattern : c.sm90a_must_match)
        if (target == "sm_90a" && !std::regex_search(ptx, std::regex(pattern)))
          fail(c, target, "nothing in the PTX matches `" + pattern + "`");
      for (const std::string &pattern : c.sm90a_must_not_match)
        if (target == "sm_90a" && std::regex_search(ptx, std::regex(pattern)))
          fail(c, target, "the PTX matches `" + pattern + "`");
      for (const std::string &pattern : c.ptx_must_not_match)
        if (sm_number(target) >= c.min_sm && std::regex_search(ptx, std::regex(pattern)))
          fail(c, target, "the PTX matches `" + pattern + "`");

      const auto base = dir / (c.group + "." + c.name + "." + target);
      std::ofstream(base.string() + ".ptx", std::ios::binary) << ptx;
      const auto log = base.string() + ".ptxas.log";
      const int rc = run("'" + ptxas + "' -arch=" + target + " -v '" + base.string() +
                             ".ptx' -o '" + base.string() + ".cubin'",
                         log);
      const std::string text = read_file(log);
      if (rc != 0) {
        fail(c, target, "ptxas failed:\n" + text);
        continue;
      }
      // ptxas's notes on wgmma (C7510-C7519): it serialized the instructions or inserted its own
      // warpgroup.arrive or wait, both a lowering bug.
      static const std::regex serialized(
          R"(ptxas info\s+: \(C75[0-9][0-9]\)[^\n]*(Performance Loss|is injected)[^\n]*)");
      if (std::smatch m; std::regex_search(text, m, serialized))
        fail(c, target, "ptxas: " + m.str());
      static const std::regex spills(R"(([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads)");
      for (std::sregex_iterator m(text.begin(), text.end(), spills), end; m != end; ++m)
        if (c.no_spills && sm_number(target) >= c.min_sm && ((*m)[1] != "0" || (*m)[2] != "0"))
          fail(c, target, "ptxas reports spills: " + m->str());
    }
    std::printf("%s %s.%s (%zu targets)\n", failures ? "...." : "ok  ", c.group.c_str(),
                c.name.c_str(), targets().size());
  }
};

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::string(argv[1]) == "--families") {
    const std::vector<std::string> listed(argv + 2, argv + argc);
    if (listed == tk_golden::families())
      return 0;
    std::printf("FAIL: tests/e2e/CMakeLists.txt lists other golden families than "
                "tests/ir/golden_kernels.hpp has:");
    for (const auto &family : tk_golden::families())
      std::printf(" %s", family.c_str());
    std::printf("\n");
    return 1;
  }
  if (argc != 3) {
    std::fprintf(stderr, "usage: tk_e2e_ptx PTXAS GROUP\n");
    return 2;
  }
  checker check{argv[1], {}};
  const std::string group = argv[2];
  if (run("'" + check.ptxas + "' --version", "/dev/null") != 0) {
    std::printf("SKIPPED: ptxas (%s) does not run here\n", check.ptxas.c_str());
    return 77;
  }
  std::vector<check_case> cases;
  for (auto &c : example_cases())
    if (c.group == group)
      cases.push_back(std::move(c));
  if (cases.empty())
    cases = golden_cases(group);
  if (cases.empty()) {
    std::fprintf(stderr, "tk_e2e_ptx: no kernels in group '%s'\n", group.c_str());
    return 2;
  }
  check.dir = std::filesystem::temp_directory_path() / ("tk_e2e_ptx." + group);
  std::filesystem::create_directories(check.dir);
  try {
    for (const auto &c : cases)
      check.check(c);
  } catch (const std::exception &e) {
    std::printf("FAIL %s: %s\n", group.c_str(), e.what());
    return 1;
  }
  std::printf("%s: %d failure(s); PTX, cubins and ptxas logs in %s\n", group.c_str(),
              check.failures, check.dir.string().c_str());
  return check.failures ? 1 : 0;
}

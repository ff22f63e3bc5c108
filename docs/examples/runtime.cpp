/// @file runtime.cpp
/// docs/runtime.md: picking the device, specialization control, warmup and compiled(). Run on the
/// interpreter where there is no GPU (devices then do not exist, and a program written for them
/// runs unchanged), and for the first device where there is one.
#include "doc_examples.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

// [snippet:scaled]
auto body = [](tk::ptr<float> x, tk::i32 n, tk::i32 stride, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  tk::store(x + offs * stride, tk::load(x + offs * stride, offs < n) * 2.0f, offs < n);
};
auto scaled = tk::jit("scaled", body);
// [/snippet]

} // namespace

DOC_EXAMPLE("runtime.devices") {
  doc::interpret_without_gpu scope;
  const int n = 1000;
  std::vector<float> host(n, 1.0f);
  // [snippet:devices]
  const int count = tk::device_count(); // 0 without a driver or a GPU
  if (count > 0) {
    const tk::device_properties p = tk::get_device_properties(count - 1);
    std::printf("%s (%s): %d SMs, %zu bytes\n", p.name.c_str(), p.target.c_str(),
                p.multiprocessor_count, p.total_memory);
  }
  const int last = count > 0 ? count - 1 : 0;
  {
    tk::device_guard on_last(last);                         // `with torch.cuda.device(last):`
    tk::device_buffer<float> x(host);                       // allocated there
    scaled.launch(tk::grid(4), x, n, 1, tk::constant(256)); // runs there
  } // the context before is current
  tk::device_buffer<float> y(host, tk::on_device(last));                    // one buffer there
  scaled.launch(tk::grid(4), {.device = last}, y, n, 1, tk::constant(256)); // one launch there
  // [/snippet]
  doc::check(y.to_host() == std::vector<float>(n, 2.0f), "scaled on the chosen device");
}

DOC_EXAMPLE("runtime.specialization") {
  const int n = 1000;
  std::vector<float> x(n, 1.0f);
  // [snippet:jit_options]
  // n and stride: one kernel for every value; x: compiled without knowing its alignment.
  auto once = tk::jit("scaled_once", body,
                      {.do_not_specialize = {1, 2}, .do_not_specialize_on_alignment = {0}});
  // [/snippet]
  once.interpret(tk::grid(4), x, n, 1, tk::constant(256));
  doc::check(x == std::vector<float>(n, 2.0f), "unspecialized kernel");
  float *const aligned = reinterpret_cast<float *>(std::uintptr_t{1} << 20);
  doc::check(once.ir(aligned, 1024, 1, tk::constant(256)) ==
                 once.ir(aligned + 1, 1001, 3, tk::constant(256)),
             "one kernel for every n, stride and alignment");
}

DOC_EXAMPLE("runtime.warmup") {
  doc::interpret_without_gpu scope;
  std::vector<float> host(1024, 1.0f);
  tk::device_buffer<float> x(host);
  // [snippet:warmup]
  scaled.warmup({.num_warps = 8}, x, 1024, 1, tk::constant(256)); // compiled and loaded now
  scaled.launch(tk::grid(4), {.num_warps = 8}, x, 1024, 1, tk::constant(256)); // no compile
  // [/snippet]
  doc::check(x.to_host() == std::vector<float>(1024, 2.0f), "one launch after warmup");
}

DOC_EXAMPLE("runtime.compiled") {
  float *const x = reinterpret_cast<float *>(std::uintptr_t{1} << 20); // aligned, not read
  try {
    // [snippet:compiled]
    tk::compiled_kernel c =
        scaled.compiled({.num_warps = 8, .target_arch = "sm_80"}, x, 1024, 1, tk::constant(256));
    std::fputs(c.resources.c_str(), stdout); // "tk: kernel 'scaled' for sm_80: <n> registers, ..."
    std::string_view ptx = c.ptx(), llvm_ir = c.asm_of("llir");
    // c.stages: "tk", "tkgpu", "llvm-dialect", "llir", "ptx"; c.binary: the cubin;
    // c.n_regs, c.n_spills(), c.shared_bytes, c.num_threads: Triton's n_regs, n_spills, metadata
    // [/snippet]
    doc::check(ptx.find(".entry scaled") != std::string_view::npos && !llvm_ir.empty(),
               "the PTX and the LLVM IR");
  } catch (const tk::error &e) {
    // Where this program runs without the backend library (the interpreter needs none).
    doc::check(std::string(e.message()).find("cannot find the TileKit backend library") !=
                   std::string::npos,
               e.message());
  }
}

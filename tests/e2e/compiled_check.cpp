/// @file compiled_check.cpp
/// kernel.compiled(options, args...) through the real backend: every stage's IR, the PTX, the
/// binary and the resources, for a named target where there is no GPU and for the GPU's own
/// where there is one; and the errors when there is nothing to compile for (e2e.compiled).
#include "../unit/expect_error.hpp"

#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include <string>
#include <vector>

namespace {

using tk_test::expect_error;

const int scale_line = __LINE__ + 1;
auto scale = tk::jit("scale", [](tk::ptr<float> out, tk::ptr<const float> in, tk::f32 factor,
                                 tk::i32 n, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offs < n;
  tk::store(out + offs, tk::load(in + offs, mask) * factor, mask);
});

// Addresses aligned to 16 bytes, never dereferenced: compiling needs their alignment only.
float *const out = reinterpret_cast<float *>(std::uintptr_t{1} << 20);
const float *const in = reinterpret_cast<const float *>(std::uintptr_t{2} << 20);

} // namespace

TEST_CASE("compiled: every stage, the binary and the resources", "[compiled]") {
  const tk::compiled_kernel c = scale.compiled({.num_warps = 8, .target_arch = "sm_80"}, out, in,
                                               2.0f, 4096, tk::constant(1024));
  std::vector<std::string> names;
  for (const auto &[name, text] : c.stages) {
    names.push_back(name);
    CHECK(!text.empty());
  }
  CHECK(names == std::vector<std::string>{"tk", "tkgpu", "llvm-dialect", "llir", "ptx"});
  CHECK(c.name == "scale");
  CHECK(c.num_warps == 8);
  CHECK(c.num_threads == 256);
  CHECK(c.ir.find("func.func @scale") != std::string::npos);
  CHECK(c.ir.find("tk.divisibility = 16") != std::string::npos);
  CHECK(c.asm_of("tk").find("tk.load") != std::string::npos);
  CHECK(c.asm_of("llir").find("define") != std::string::npos);
  CHECK(c.ptx().find(".entry scale") != std::string::npos);
  CHECK(c.asm_of("sass").empty());
  CHECK(!c.binary.empty());
  INFO(c.resources);
  CHECK(c.resources.starts_with("tk: kernel 'scale' for "));
  if (c.binary_is_cubin) {
    CHECK(c.binary.starts_with("\177ELF"));
    CHECK(c.n_regs > 0);
    CHECK(c.n_spills() == 0);
    CHECK(c.local_bytes == 0);
  } else {
    CHECK(c.n_regs == -1); // PTX for the driver: ptxas did not say
  }
  if (!tk::gpu_available()) {
    CHECK(c.target == "sm_80");
    CHECK(c.lowering_target.empty());
    CHECK(c.ptx().find(".target sm_80") != std::string::npos);
  }
}

TEST_CASE("compiled: the code follows what the kernel is specialized on", "[compiled]") {
  const tk::launch_options o{.target_arch = "sm_80"};
  const tk::compiled_kernel aligned = scale.compiled(o, out, in, 2.0f, 4096, tk::constant(1024));
  const tk::compiled_kernel odd =
      scale.compiled(o, out + 1, in + 1, 2.0f, 4097, tk::constant(1024));
  // 16-byte accesses where the pointers are aligned and n divisible by 16; 4-byte ones else.
  CHECK(aligned.ptx().find("ld.global.v4") != std::string::npos);
  CHECK(odd.ptx().find("ld.global.v4") == std::string::npos);
  auto once = tk::jit("scale_once",
                      [](tk::ptr<float> o2, tk::ptr<const float> i2, tk::f32 f, tk::i32 n,
                         tk::constant<int> BLOCK) {
                        auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
                        tk::store(o2 + offs, tk::load(i2 + offs, offs < n) * f, offs < n);
                      },
                      {.do_not_specialize_on_alignment = {0, 1, 3}});
  CHECK(once.compiled(o, out, in, 2.0f, 4096, tk::constant(1024)).ptx().find("ld.global.v4") ==
        std::string::npos);
}

TEST_CASE("compiled: without a GPU, a target must be named", "[compiled][errors]") {
  if (tk::gpu_available()) {
    // With a GPU, the launch's device is the target.
    CHECK(scale.compiled(out, in, 2.0f, 64, tk::constant(64)).target ==
          tk::get_device_properties().target);
    return;
  }
  // Errors name the line that made the kernel: compiled() has no grid to name.
  expect_error("compiled_check.cpp", scale_line, "kernel 'scale': no GPU to compile for (",
               [&] { (void)scale.compiled(out, in, 2.0f, 64, tk::constant(64)); });
  expect_error(
      "compiled_check.cpp", scale_line,
      "launch_options::target_arch is sm_12, which this backend cannot compile for",
      [&] { (void)scale.compiled({.target_arch = "sm_12"}, out, in, 2.0f, 64, tk::constant(64)); });
}

/// @file gpu_dot.cpp
/// tk::dot compiled for the GPU against the interpreter running the same kernel on the same
/// inputs, and the interpreter against a double-precision reference (tests/support/dot_cases.hpp:
/// the cases, and the tolerances derived from K and the types). Odd shapes, every input/accumulator
/// pair, f32 in tf32, ieee and tf32x3, column-major and transposed operands, num_warps, num_stages
/// 1 to 4, tiles that take wgmma on sm_90a, a dot inside tk::if_ and two chained dots. On a GPU
/// newer than sm_80 everything runs twice: for the GPU's own target and lowered as for sm_80
/// (launch_options::target_arch: the mma.sync path on Hopper, fp8 widened to f16), and on sm_90a
/// the fp8 cases once more lowered as for sm_90 (fp8 mma.sync, as on sm_89, instead of wgmma);
/// TK_TARGET_ARCH=<sm_XY> runs only that.
///
///   tk_e2e_gpu_dot [--interpreter] [seed]
///
/// --interpreter: the interpreter side only (no GPU needed; CI runs it). Otherwise, without a
/// usable GPU, prints `SKIPPED: <reason>` and exits 77 (CTest's skip). Prints a line per case,
/// `ok  ` or `FAIL` with the first element out of tolerance; exits 1 on any failure.
#include "../support/dot_cases.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

int failures = 0, checks = 0;

void report(const std::string &what, const dot_cases::verdict &v) {
  ++checks;
  std::printf("%s %s (worst error %.3g of the tolerance", v.bad ? "FAIL" : "ok  ", what.c_str(),
              v.worst_ratio);
  if (v.bad)
    std::printf("; %zu element(s) out of it, first %s", v.bad, v.first.c_str());
  std::printf(")\n");
  failures += v.bad != 0;
}

/// Runs one case (fresh inputs from `seed`) and checks the interpreter against the reference
/// and, with `gpu`, the GPU against the interpreter.
void run(const std::string &what, bool gpu, const std::string &arch_note,
         const std::function<std::pair<dot_cases::outcome, dot_cases::outcome>(std::mt19937_64 &,
                                                                               bool)> &body,
         std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  try {
    const auto [interp, dev] = body(gen, gpu);
    report("interpreter vs exact: " + what, dot_cases::check(interp.got, interp.want, interp.tol));
    if (gpu)
      report("GPU" + arch_note + " vs interpreter: " + what,
             dot_cases::check(dev.got, dev.want, dev.tol));
  } catch (const std::exception &e) {
    ++checks;
    ++failures;
    std::printf("FAIL %s: %s\n", what.c_str(), e.what());
  }
}

void run_all(bool gpu, const std::string &arch_note, std::uint64_t seed) {
  std::uint64_t n = 0;
  for (const dot_cases::tiled_case &c : dot_cases::all_tiled_cases())
    run(
        c.describe(), gpu, arch_note,
        [&](std::mt19937_64 &g, bool on_gpu) { return dot_cases::run_tiled(c, g, on_gpu); },
        seed + n++);
  for (const dot_cases::tiled_case &c : dot_cases::wgmma_cases())
    run(
        c.describe(), gpu, arch_note,
        [&](std::mt19937_64 &g, bool on_gpu) { return dot_cases::run_tiled(c, g, on_gpu); },
        seed + n++);
  for (const dot_cases::tiled_case &c : dot_cases::stage_cases())
    run(
        c.describe(), gpu, arch_note,
        [&](std::mt19937_64 &g, bool on_gpu) { return dot_cases::run_tiled(c, g, on_gpu); },
        seed + n++);
  for (auto p : {tk::input_precision::ieee, tk::input_precision::tf32, tk::input_precision::tf32x3})
    run(
        std::string("dot inside tk::if_, f32 ") + dot_cases::name_of(p), gpu, arch_note,
        [&](std::mt19937_64 &g, bool on_gpu) { return dot_cases::run_in_branch(p, g, on_gpu); },
        seed + n++);
  for (auto [L, D] : {std::pair{32, 64}, std::pair{16, 16}, std::pair{64, 32}})
    run(
        "chained dots softmax(q kT) v, L=" + std::to_string(L) + " D=" + std::to_string(D), gpu,
        arch_note,
        [&](std::mt19937_64 &g, bool on_gpu) { return dot_cases::run_attention(L, D, g, on_gpu); },
        seed + n++);
}

/// The fp8 cases of run_all only.
void run_fp8(const std::string &arch_note, std::uint64_t seed) {
  std::vector<dot_cases::tiled_case> cases = dot_cases::all_tiled_cases();
  for (const dot_cases::tiled_case &c : dot_cases::wgmma_cases())
    cases.push_back(c);
  std::uint64_t n = 0;
  for (const dot_cases::tiled_case &c : cases)
    if (dot_cases::is_fp8(c.t))
      run(
          c.describe(), true, arch_note,
          [&](std::mt19937_64 &g, bool on_gpu) { return dot_cases::run_tiled(c, g, on_gpu); },
          seed + n++);
}

} // namespace

int main(int argc, char **argv) {
  bool interpreter_only = false;
  std::uint64_t seed = std::random_device{}();
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--interpreter") == 0)
      interpreter_only = true;
    else
      seed = std::strtoull(argv[i], nullptr, 0);
  }
  std::printf("seed %llu (tk_e2e_gpu_dot%s %llu repeats this run)\n", (unsigned long long)seed,
              interpreter_only ? " --interpreter" : "", (unsigned long long)seed);
  if (interpreter_only) {
    run_all(false, "", seed);
    std::printf("%d failure(s) in %d checks on the interpreter\n", failures, checks);
    return failures ? 1 : 0;
  }
  if (const std::string why = tk::gpu_unavailable_reason(); !why.empty()) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return 77;
  }
  const std::string gpu = tk::gpu_name(); // "NVIDIA H100 80GB HBM3 (sm_90a)"
  std::printf("running on %s\n", gpu.c_str());
  const char *env_arch = std::getenv("TK_TARGET_ARCH");
  if (env_arch && *env_arch) {
    std::printf("TK_TARGET_ARCH=%s: lowered as for %s\n", env_arch, env_arch);
    run_all(true, std::string(" (") + env_arch + ")", seed);
  } else {
    run_all(true, "", seed);
    // The mma.sync path of an older GPU, on this one (when it is newer than sm_80).
    const auto open = gpu.rfind("(sm_");
    const int cc = open == std::string::npos ? 0 : std::atoi(gpu.c_str() + open + 4);
    if (cc > 80) {
      dot_cases::gpu_target_arch = "sm_80";
      run_all(true, " (lowered for sm_80)", seed);
    }
    if (gpu.find("(sm_90a)") != std::string::npos) {
      dot_cases::gpu_target_arch = "sm_90";
      run_fp8(" (lowered for sm_90)", seed);
    }
  }
  std::printf("%d failure(s) in %d checks on %s\n", failures, checks, gpu.c_str());
  return failures ? 1 : 0;
}

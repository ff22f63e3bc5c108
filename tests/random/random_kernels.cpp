/// @file random_kernels.cpp
/// Differential testing with random kernels (program.hpp; docs/testing.md).
///
///   tk_random_kernels compile [--first S] [--count N] [--targets all|T,T...] [--repro DIR]
///       Generates kernels S .. S+N-1, traces each, prints its IR and compiles it to a cubin
///       (through ptxas) for every target the backend supports, or those listed. A crash shows
///       itself; a compile error (a verifier failure, an unsupported operation, ptxas
///       rejecting the PTX) is a failure.
///   tk_random_kernels interpret [--first S] [--count N] [--repro DIR]
///       Runs kernels S .. S+N-1 on the interpreter only: an error it reports is a failure.
///   tk_random_kernels gpu [--first S] [--count N] [--repro DIR]
///       Runs kernels S .. S+N-1 on the interpreter and on the GPU (fp_fusion off) and compares
///       their outputs. Exits 77 (skipped) without a GPU.
///   tk_random_kernels print SEED
///       Prints kernel SEED's C++ and IR.
///
/// Every failure writes a reproducer to DIR/seed-S/ (default: random-kernels in the temporary
/// directory): kernel.cpp (the C++), kernel.mlir (the IR), the inputs, the output as both
/// launches start (out0.bin: the atomics' regions hold small values), the interpreter's and the
/// GPU's outputs, report.txt, and reduced.cpp: the kernel with every result, statement, loop and
/// branch removed that the failure does not need. Exit status: 0 when every kernel passed, 1
/// otherwise.
#include "program.hpp"

#include <tk/backend.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using tk_random::program;

namespace {

struct options {
  std::string mode;
  std::uint64_t first = 1;
  std::uint64_t count = 100;
  std::vector<std::string> targets;
  fs::path repro = fs::temp_directory_path() / "random-kernels";
};

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, sep);)
    if (!part.empty())
      parts.push_back(part);
  return parts;
}

int usage() {
  std::fprintf(stderr, "usage: tk_random_kernels compile|interpret|gpu [--first S] [--count N] "
                       "[--targets all|T,T...] [--repro DIR]\n"
                       "       tk_random_kernels print SEED\n");
  return 2;
}

void write_file(const fs::path &path, const std::string &text) {
  std::ofstream(path, std::ios::binary) << text;
}
void write_bytes(const fs::path &path, const std::vector<std::uint8_t> &bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
}

/// The kernel's IR, traced with host pointers (only their type and alignment count).
std::string trace(const program &p) {
  std::vector<std::uint8_t> in0(16), in1(16), out(16);
  return tk_random::with_kernel(p, [&](const auto &kernel, const auto &make_descriptor) {
    return kernel.ir(in0.data(), in1.data(), out.data(), p.s0, p.s1,
                     make_descriptor(p.host.which == 0 ? in0.data() : in1.data()));
  });
}

/// A reproducer directory for kernel `p`, with its C++ and (when it traces) IR.
fs::path reproducer(const options &o, const program &p, const std::string &report) {
  const fs::path dir = o.repro / ("seed-" + std::to_string(p.seed));
  fs::create_directories(dir);
  write_file(dir / "kernel.cpp", tk_random::print_cpp(p));
  try {
    write_file(dir / "kernel.mlir", trace(p));
  } catch (const std::exception &e) {
    write_file(dir / "kernel.mlir", std::string("// tracing failed: ") + e.what() + "\n");
  }
  write_file(dir / "report.txt", report);
  return dir;
}

struct tally {
  std::uint64_t kernels = 0, compiles = 0, failures = 0;
};

/// Compiles kernel `p` for each target: "" or what failed.
std::string compile(const options &o, const program &p, tally &t) {
  std::string ir;
  try {
    ir = trace(p);
  } catch (const std::exception &e) {
    return std::string("tracing failed: ") + e.what();
  }
  std::string failures;
  for (const std::string &target : o.targets) {
    tk_compile_options opts;
    tk_compile_options_init(&opts);
    opts.target = target.c_str();
    opts.num_warps = p.num_warps;
    opts.output = TK_OUTPUT_CUBIN;
    tk_compile_result *result = nullptr;
    const tk_status status = tk_compile(ir.c_str(), ir.size(), &opts, &result);
    ++t.compiles;
    if (status != TK_OK)
      failures += target + ": " + tk_compile_result_error(result) + "\n";
    tk_compile_result_free(result);
  }
  return failures;
}

/// Runs kernel `p` on the interpreter: "" or why it failed.
std::string interpret(const program &p) {
  std::vector<std::uint8_t> in0 = tk_random::make_input(p, 0), in1 = tk_random::make_input(p, 1);
  std::vector<std::uint8_t> out = tk_random::make_output(p);
  try {
    tk_random::with_kernel(p, [&](const auto &kernel, const auto &make_descriptor) {
      kernel.launch(
          tk::grid(p.grid),
          {.num_warps = p.num_warps, .fp_fusion = false, .backend = tk::backend::interpreter}, in0,
          in1, out, p.s0, p.s1, make_descriptor((p.host.which == 0 ? in0 : in1).data()));
    });
  } catch (const std::exception &e) {
    return std::string("the interpreter failed: ") + e.what();
  }
  return "";
}

/// Runs kernel `p` on the interpreter and the GPU: "" or what differed.
std::string run_both(const program &p, std::vector<std::uint8_t> &expected,
                     std::vector<std::uint8_t> &actual) {
  std::vector<std::uint8_t> in0 = tk_random::make_input(p, 0), in1 = tk_random::make_input(p, 1);
  expected = tk_random::make_output(p);
  actual = expected;
  return tk_random::with_kernel(
      p, [&](const auto &kernel, const auto &make_descriptor) -> std::string {
        try {
          kernel.launch(
              tk::grid(p.grid),
              {.num_warps = p.num_warps, .fp_fusion = false, .backend = tk::backend::interpreter},
              in0, in1, expected, p.s0, p.s1,
              make_descriptor((p.host.which == 0 ? in0 : in1).data()));
        } catch (const std::exception &e) {
          return std::string("the interpreter failed: ") + e.what();
        }
        try {
          tk::device_buffer<std::uint8_t> d0(in0), d1(in1), dout(actual);
          kernel.launch(tk::grid(p.grid),
                        {.num_warps = p.num_warps,
                         .fp_fusion = false,
                         .backend = tk::backend::gpu,
                         .launch_pdl = p.launch_pdl},
                        d0, d1, dout, p.s0, p.s1,
                        make_descriptor((p.host.which == 0 ? d0 : d1).data()));
          actual = dout.to_host();
        } catch (const std::exception &e) {
          return std::string("the GPU launch failed: ") + e.what();
        }
        return tk_random::compare(p, expected, actual);
      });
}

// -- Reduction ---------------------------------------------------------------------------------

void used_ids(const std::vector<tk_random::stmt> &body, std::vector<bool> &used) {
  for (const tk_random::stmt &s : body) {
    for (int a : s.args)
      used[std::size_t(a)] = true;
    used_ids(s.body, used);
    used_ids(s.else_body, used);
  }
}

/// Drops the statements of `body` (not nested) whose value nothing uses; true if any went.
bool drop_unused(program &p) {
  std::vector<bool> used(std::size_t(p.values));
  used_ids(p.body, used);
  for (const tk_random::result &r : p.results)
    used[std::size_t(r.id)] = true;
  const std::size_t before = p.body.size();
  std::erase_if(p.body, [&](const tk_random::stmt &s) {
    if (s.kind == tk_random::op::atomic) // kept while its region or its old values are
      return !used[std::size_t(s.j[3])] && (s.id < 0 || !used[std::size_t(s.id)]);
    return s.id >= 0 && !used[std::size_t(s.id)] && s.kind != tk_random::op::loop &&
           s.kind != tk_random::op::branch;
  });
  return p.body.size() != before;
}

/// A smaller program that still fails `fails`: results dropped one at a time, unused
/// statements removed, then loops and branches removed whole where the failure stays.
template <class F> program reduce(program p, F &&fails) {
  for (std::size_t k = 0; p.results.size() > 1 && k < p.results.size();) {
    program q = p;
    q.results.erase(q.results.begin() + std::ptrdiff_t(k));
    while (drop_unused(q)) {
    }
    if (!fails(q).empty())
      p = std::move(q);
    else
      ++k;
  }
  while (drop_unused(p)) {
  }
  for (std::size_t k = 0; k < p.body.size();) {
    const auto kind = p.body[k].kind;
    if (kind != tk_random::op::loop && kind != tk_random::op::branch) {
      ++k;
      continue;
    }
    program q = p;
    q.body.erase(q.body.begin() + std::ptrdiff_t(k));
    while (drop_unused(q)) {
    }
    if (!fails(q).empty())
      p = std::move(q);
    else
      ++k;
  }
  return p;
}

int run(const options &o) {
  tally t;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t seed = o.first; seed < o.first + o.count; ++seed) {
    const program p = tk_random::generate(seed);
    ++t.kernels;
    std::string failure;
    std::vector<std::uint8_t> expected, actual;
    if (o.mode == "compile")
      failure = compile(o, p, t);
    else if (o.mode == "interpret")
      failure = interpret(p);
    else
      failure = run_both(p, expected, actual);
    if (failure.empty())
      continue;
    ++t.failures;
    const fs::path dir = reproducer(o, p, failure);
    // The same failure from fewer statements, where it still fails so.
    auto fails = [&](const program &q) {
      tally ignored;
      std::vector<std::uint8_t> e, a;
      return o.mode == "compile" ? compile(o, q, ignored) : run_both(q, e, a);
    };
    const program reduced = reduce(p, fails);
    write_file(dir / "reduced.cpp", tk_random::print_cpp(reduced));
    if (!expected.empty()) {
      write_bytes(dir / "in0.bin", tk_random::make_input(p, 0));
      write_bytes(dir / "in1.bin", tk_random::make_input(p, 1));
      write_bytes(dir / "out0.bin", tk_random::make_output(p)); // as both launches start
      write_bytes(dir / "expected.bin", expected);
      write_bytes(dir / "actual.bin", actual);
    }
    std::printf("FAIL seed %llu (%s):\n%s", static_cast<unsigned long long>(seed),
                dir.string().c_str(), failure.c_str());
    std::fflush(stdout);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %llu kernels (seeds %llu..%llu)", o.mode.c_str(),
              static_cast<unsigned long long>(t.kernels), static_cast<unsigned long long>(o.first),
              static_cast<unsigned long long>(o.first + o.count - 1));
  if (o.mode == "compile")
    std::printf(", %llu compiles for %zu targets", static_cast<unsigned long long>(t.compiles),
                o.targets.size());
  std::printf(", %llu failed, %.1f s\n", static_cast<unsigned long long>(t.failures), seconds);
  return t.failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage();
  options o;
  o.mode = argv[1];
  if (o.mode == "print") {
    if (argc != 3)
      return usage();
    const program p = tk_random::generate(std::strtoull(argv[2], nullptr, 10));
    std::fputs(tk_random::print_cpp(p).c_str(), stdout);
    try {
      std::fputs(trace(p).c_str(), stdout);
    } catch (const std::exception &e) {
      std::printf("// tracing failed: %s\n", e.what());
      return 1;
    }
    return 0;
  }
  if (o.mode != "compile" && o.mode != "gpu" && o.mode != "interpret")
    return usage();
  std::string targets = "all";
  for (int k = 2; k + 1 < argc; k += 2) {
    const std::string flag = argv[k], value = argv[k + 1];
    if (flag == "--first")
      o.first = std::strtoull(value.c_str(), nullptr, 10);
    else if (flag == "--count")
      o.count = std::strtoull(value.c_str(), nullptr, 10);
    else if (flag == "--targets")
      targets = value;
    else if (flag == "--repro")
      o.repro = value;
    else
      return usage();
  }
  if (argc % 2 != 0)
    return usage();
  o.targets = split(targets == "all" ? std::string(tk_backend_targets()) : targets,
                    targets == "all" ? ' ' : ',');
  if (o.mode == "compile") { // no ptxas and no nvJitLink here: nothing to assemble with
    const std::string ir = trace(tk_random::generate(o.first));
    tk_compile_options opts;
    tk_compile_options_init(&opts);
    opts.target = o.targets.empty() ? "sm_80" : o.targets.front().c_str();
    opts.output = TK_OUTPUT_CUBIN;
    tk_compile_result *result = nullptr;
    const tk_status status = tk_compile(ir.c_str(), ir.size(), &opts, &result);
    const std::string why = status == TK_ERROR_NO_CUBIN ? tk_compile_result_error(result) : "";
    tk_compile_result_free(result);
    if (!why.empty()) {
      std::printf("SKIPPED: %s\n", why.c_str());
      return 77;
    }
  }
  if (o.mode == "gpu" && !tk::gpu_available()) {
    std::printf("SKIPPED: %s\n", tk::gpu_unavailable_reason().c_str());
    return 77;
  }
  return run(o);
}

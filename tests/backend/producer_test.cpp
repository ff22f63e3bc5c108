/// @file producer_test.cpp
/// The cubin producers of libtilekit_backend.so misbehaving, through its C ABI: fake
/// ptxas scripts that exit 0 with garbage or with nothing, hang, or kill themselves, a ptxas
/// that writes a cubin for another target, and the producer's identity (tk_backend_producer).
/// Usage: producer_test <dir of inputs/*.mlir>. Prints a line per check; exits non-zero on
/// failure.
#include "../support/capture_stderr.hpp"
#include "backend_check.hpp"
#include "tk/backend.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using backend_test::check;
using backend_test::Compiled;
using backend_test::contains;

namespace {

fs::path scratch;

/// Writes an executable shell script `name` into the scratch directory. It sees ptxas's
/// arguments: `-arch=sm_XX <input.ptx> -o <output.cubin>`, or `--version`.
std::string fakePtxas(const std::string &name, const std::string &body) {
  const fs::path path = scratch / name;
  std::ofstream(path) << "#!/bin/sh\n"
                      << "if [ \"$1\" = --version ]; then echo 'ptxas: " << name
                      << "'; echo 'Cuda compilation tools, release 99.9, V99.9." << name.size()
                      << "'; exit 0; fi\n"
                      << body << "\n";
  fs::permissions(path, fs::perms::owner_all);
  return path.string();
}

/// What `body` writes to stderr.
template <class Body> std::string captureStderr(Body &&body) {
  return tk_test::capture_stderr_in((scratch / "stderr.txt").string(), body);
}

/// The cubin and the error of one compile with TK_PTXAS=`ptxas` and no nvJitLink: with
/// TK_OUTPUT_CUBIN it must fail with `reason`, with TK_OUTPUT_AUTO fall back to PTX saying so.
void refused(const std::string &vectorAdd, const std::string &what, const std::string &ptxas,
             const std::string &reason) {
  setenv("TK_PTXAS", ptxas.c_str(), 1);
  Compiled cubin(vectorAdd, "sm_90a", TK_OUTPUT_CUBIN);
  check(cubin.status == TK_ERROR_NO_CUBIN && contains(cubin.error(), reason),
        what + ": no cubin, and the error says why", cubin.error());
  Compiled automatic(vectorAdd, "sm_90a", TK_OUTPUT_AUTO);
  check(automatic.status == TK_OK && tk_compile_result_kind(automatic.result) == TK_OUTPUT_PTX &&
            contains(automatic.producerLog(), "ptxas failed: " + reason) &&
            contains(automatic.producerLog(), "none: PTX for the driver's JIT"),
        what + ": TK_OUTPUT_AUTO falls back to PTX", automatic.error() + automatic.producerLog());
}

void brokenPtxas(const std::string &vectorAdd) {
  setenv("TK_NVJITLINK", "0", 1);
  const std::string garbage = fakePtxas(
      "garbage", "while [ $# -gt 1 ]; do [ \"$1\" = -o ] && echo garbage > \"$2\"; shift; done");
  refused(vectorAdd, "ptxas exits 0 with garbage", garbage,
          "ptxas (" + garbage + ") wrote an invalid cubin: it is not an ELF file");
  const std::string nothing = fakePtxas("nothing", "exit 0");
  refused(vectorAdd, "ptxas exits 0 and writes nothing", nothing,
          "ptxas (" + nothing + ") exited with 0 but wrote no cubin");
  const std::string segv = fakePtxas("segv", "kill -SEGV $$");
  refused(vectorAdd, "ptxas killed by a signal", segv,
          "ptxas (" + segv + ") was killed by signal 11 (SIGSEGV)");
  const std::string fails = fakePtxas("fails", "echo 'ptxas fatal: something' >&2; exit 3");
  refused(vectorAdd, "ptxas fails", fails,
          "ptxas (" + fails + ") exited with 3: ptxas fatal: something");

  // exec: the process killed on the timeout is the sleep itself, not a shell around it.
  const std::string hangs = fakePtxas("hangs", "exec sleep 600");
  setenv("TK_PTXAS_TIMEOUT", "1", 1);
  refused(vectorAdd, "ptxas hangs (TK_PTXAS_TIMEOUT=1)", hangs,
          "ptxas (" + hangs +
              ") did not finish within 1 s and was killed; set TK_PTXAS_TIMEOUT to the seconds "
              "it may take (0: no limit)");
  unsetenv("TK_PTXAS_TIMEOUT");
  unsetenv("TK_PTXAS");
  unsetenv("TK_NVJITLINK");
}

/// A real ptxas made to write a cubin for sm_80 whatever it is asked for.
void wrongTarget(const std::string &vectorAdd) {
  std::string real;
  for (std::string root : {std::string(std::getenv("CUDA_PATH") ? std::getenv("CUDA_PATH") : ""),
                           std::string("/usr/local/cuda")})
    if (!root.empty() && access((root + "/bin/ptxas").c_str(), X_OK) == 0 && real.empty())
      real = root + "/bin/ptxas";
  if (real.empty()) {
    std::printf("skip a cubin for the wrong target: no ptxas in CUDA_PATH or /usr/local/cuda\n");
    return;
  }
  setenv("TK_NVJITLINK", "0", 1);
  const std::string input = (scratch / "sm80.ptx").string();
  const std::string sm80 =
      fakePtxas("sm80", "sed 's/^\\.target sm_90a/.target sm_80/' \"$2\" > " + input + " && exec " +
                            real + " -arch=sm_80 " + input + " -o \"$4\"");
  refused(vectorAdd, "ptxas makes a cubin for sm_80 when asked for sm_90a", sm80,
          "ptxas (" + sm80 + ") wrote an invalid cubin: it is for sm_80, not sm_90a");
  unsetenv("TK_NVJITLINK");
}

void producerIdentity() {
  setenv("TK_NVJITLINK", "0", 1);
  const std::string a = fakePtxas("identity-a", "exit 1");
  const std::string b = fakePtxas("identity-bb", "exit 1");
  setenv("TK_PTXAS", a.c_str(), 1);
  const std::string first = tk_backend_producer();
  check(first.rfind("ptxas " + a + " (Cuda compilation tools, release 99.9, V99.9.10; ", 0) == 0 &&
            contains(first, " bytes, modified "),
        "producer: ptxas, its path and its --version line", first);
  check(tk_backend_producer() == tk_backend_producer(), "producer: looked up once, kept");
  setenv("TK_PTXAS", b.c_str(), 1);
  const std::string second = tk_backend_producer();
  check(second != first && contains(second, "V99.9.11"), "producer: another ptxas, another text",
        second);
  setenv("TK_PTXAS", "/nonexistent/ptxas", 1);
  check(std::string(tk_backend_producer()) == "driver JIT",
        "producer: without ptxas or nvJitLink, the driver's JIT", tk_backend_producer());
  setenv("TK_NVJITLINK", "1", 1);
  const std::string nvJitLink = tk_backend_producer();
  check(nvJitLink == "driver JIT" || nvJitLink.rfind("nvJitLink ", 0) == 0,
        "producer: TK_NVJITLINK=1 names nvJitLink where it loads", nvJitLink);
  unsetenv("TK_PTXAS");
  unsetenv("TK_NVJITLINK");

  // The cost of the first lookup in a process with the default toolchain (a ptxas --version).
  const auto start = std::chrono::steady_clock::now();
  const std::string real = tk_backend_producer();
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const auto again = std::chrono::steady_clock::now();
  (void)tk_backend_producer();
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - again).count();
  std::printf("     producer %s: first lookup %.2f ms, then %.2f us\n", real.c_str(), ms, us);
}

void badSettings(const std::string &vectorAdd) {
  setenv("TK_PTXAS_TIMEOUT", "soon", 1);
  setenv("TK_NVJITLINK", "maybe", 1);
  setenv("TK_PTXAS", "/nonexistent/ptxas", 1);
  const std::string log = captureStderr([&] {
    Compiled c(vectorAdd, "sm_90a", TK_OUTPUT_AUTO);
    Compiled again(vectorAdd, "sm_90a", TK_OUTPUT_AUTO);
    check(c.status == TK_OK && again.status == TK_OK, "compiles with unreadable settings",
          c.error());
  });
  check(log == "tk: ignoring TK_NVJITLINK=maybe: expected 1, true, yes, on or 0, false, no, off "
               "(any case); using the default: ptxas first, nvJitLink when ptxas fails\n",
        "TK_NVJITLINK=maybe: said once, default used", log);
  // TK_PTXAS_TIMEOUT is read only when ptxas runs.
  setenv("TK_PTXAS", fakePtxas("quick", "exit 1").c_str(), 1);
  const std::string timeoutLog = captureStderr([&] {
    Compiled c(vectorAdd, "sm_90a", TK_OUTPUT_AUTO);
    Compiled again(vectorAdd, "sm_90a", TK_OUTPUT_AUTO);
  });
  check(timeoutLog == "tk: ignoring TK_PTXAS_TIMEOUT=soon: expected a whole number of seconds "
                      "(0: no limit); using the default, 120 s\n",
        "TK_PTXAS_TIMEOUT=soon: said once, default used", timeoutLog);
  unsetenv("TK_PTXAS_TIMEOUT");
  unsetenv("TK_NVJITLINK");
  unsetenv("TK_PTXAS");
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <inputs dir>\n", argv[0]);
    return 2;
  }
  std::ifstream in(std::string(argv[1]) + "/vector_add.mlir");
  std::stringstream text;
  text << in.rdbuf();
  const std::string vectorAdd = text.str();
  if (vectorAdd.empty()) {
    std::printf("FAIL cannot read %s/vector_add.mlir\n", argv[1]);
    return 1;
  }
  char dir[] = "/tmp/tk-producer-test-XXXXXX";
  if (!mkdtemp(dir)) {
    std::printf("FAIL cannot make a temporary directory\n");
    return 1;
  }
  scratch = dir;
  brokenPtxas(vectorAdd);
  wrongTarget(vectorAdd);
  producerIdentity();
  badSettings(vectorAdd);
  fs::remove_all(scratch);
  std::printf("%d failure(s)\n", backend_test::failures);
  return backend_test::failures == 0 ? 0 : 1;
}

/// @file cache_test.cpp
/// The disk cache of libtilekit_backend.so through its C ABI: tk_compile_cached's hits,
/// misses and TK_CACHE_REPLACE, what its key holds (the IR, every option, the producer), damaged
/// entries, and tk_cache_load/store for other kinds of entries.
/// Usage: cache_test <dir of inputs/*.mlir>. Prints a line per check; exits non-zero on failure.
#include "../support/capture_stderr.hpp"
#include "backend_check.hpp"
#include "tk/backend.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using backend_test::check;
using backend_test::contains;
using backend_test::readFile;

namespace {

fs::path scratch;

/// One tk_compile_cached call and its result.
struct Cached {
  tk_status status;
  tk_compile_result *result = nullptr;
  explicit Cached(const std::string &ir, tk_compile_options opts,
                  tk_cache_mode mode = TK_CACHE_USE) {
    status = tk_compile_cached(ir.data(), ir.size(), "kernel.cpp", &opts, mode, &result);
  }
  ~Cached() { tk_compile_result_free(result); }
  Cached(const Cached &) = delete;
  Cached &operator=(const Cached &) = delete;

  bool fromCache() const { return tk_compile_result_from_cache(result) != 0; }
  std::string entry() const { return tk_compile_result_cache_entry(result); }
  bool store() const { return tk_compile_result_cache_store(result) == 1; }
  std::string error() const { return tk_compile_result_error(result); }
  std::string binary() const {
    size_t size = 0;
    const void *data = tk_compile_result_binary(result, &size);
    return data ? std::string(static_cast<const char *>(data), size) : std::string();
  }
};

tk_compile_options options(tk_output_kind output = TK_OUTPUT_PTX) {
  tk_compile_options opts;
  tk_compile_options_init(&opts);
  opts.target = "sm_90a";
  opts.output = output;
  return opts;
}

void hitsAndMisses(const std::string &ir) {
  Cached first(ir, options());
  const std::string entry = first.entry();
  check(first.status == TK_OK && !first.fromCache() &&
            entry.rfind(scratch.string() + "/cache/", 0) == 0 && !fs::exists(entry),
        "a first compile is a miss, its entry under TK_CACHE_DIR, not written yet",
        first.error() + entry);
  check(first.store() && fs::exists(entry), "the caller stores a fresh result");

  Cached hit(ir, options());
  check(hit.status == TK_OK && hit.fromCache() && hit.entry() == entry,
        "the same IR and options again: a hit on the same entry", hit.error());
  check(hit.binary() == first.binary() &&
            std::string(tk_compile_result_ptx(hit.result)) == first.binary() &&
            tk_compile_result_kind(hit.result) == TK_OUTPUT_PTX &&
            std::string(tk_compile_result_kernel_name(hit.result)) ==
                tk_compile_result_kernel_name(first.result) &&
            std::string(tk_compile_result_target(hit.result)) == "sm_90a" &&
            tk_compile_result_threads_per_block(hit.result) == 128 &&
            tk_compile_result_dynamic_shared_bytes(hit.result) ==
                tk_compile_result_dynamic_shared_bytes(first.result),
        "a hit has the binary and the launch metadata of the compile");
  check(!hit.store(), "a hit is not stored again");

  Cached replaced(ir, options(), TK_CACHE_REPLACE);
  check(replaced.status == TK_OK && !replaced.fromCache() && !fs::exists(entry) &&
            replaced.entry() == entry,
        "TK_CACHE_REPLACE deletes the entry and compiles", replaced.error());
  check(replaced.store() && fs::exists(entry), "...and its result is stored in its place");

  // Each option that decides the binary has its own entry; one that does not shares it.
  auto entryWith = [&](auto &&change) {
    tk_compile_options opts = options();
    change(opts);
    Cached c(ir, opts);
    return c.status == TK_OK ? c.entry() : "error: " + c.error();
  };
  const std::string warps = entryWith([](auto &o) { o.num_warps = 8; });
  const std::string stages = entryWith([](auto &o) { o.num_stages = 2; });
  const std::string fusion = entryWith([](auto &o) { o.fp_fusion = 0; });
  const std::string lowered = entryWith([](auto &o) { o.lowering_target = "sm_80"; });
  const std::string maps = entryWith([](auto &o) { o.tensor_maps = 1; });
  const std::string target = entryWith([](auto &o) { o.target = "sm_80"; });
  const std::string own = entryWith([](auto &o) { o.lowering_target = "sm_90a"; });
  const std::string other = [&] {
    Cached c(ir + "\n// another kernel\n", options());
    return c.entry();
  }();
  bool distinct = true;
  const std::string all[] = {entry, warps, stages, fusion, lowered, maps, target, other};
  for (const std::string &a : all)
    for (const std::string &b : all)
      distinct = distinct && (&a == &b || a != b);
  check(distinct,
        "num_warps, num_stages, fp_fusion, lowering_target, tensor_maps, the target "
        "and the IR each key their own entry",
        warps + " " + stages + " " + fusion + " " + lowered + " " + maps + " " + target);
  check(own == entry, "lowering for the target itself is the same entry as no lowering_target",
        own);
}

/// An entry whose bytes changed on disk is a miss, said under TK_DEBUG, and compiled again.
void damagedEntry(const std::string &ir) {
  tk_compile_options opts = options();
  opts.num_warps = 2;
  std::string entry;
  {
    Cached c(ir, opts);
    entry = c.entry();
    check(c.status == TK_OK && c.store(), "a kernel for the damage test is stored", c.error());
  }
  std::string bytes = readFile(entry);
  bytes[bytes.size() / 2] ^= 0x20;
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes;
  setenv("TK_DEBUG", "1", 1);
  bool miss = false;
  const std::string log = tk_test::capture_stderr_in((scratch / "stderr.txt").string(), [&] {
    Cached again(ir, opts);
    miss = again.status == TK_OK && !again.fromCache() && again.store();
  });
  unsetenv("TK_DEBUG");
  check(miss, "a damaged entry is a miss, compiled and stored again");
  check(contains(log, entry), "TK_DEBUG=1 names the damaged entry", log);
  Cached healed(ir, opts);
  check(healed.fromCache() && readFile(entry) != bytes, "the entry is whole again");
}

/// The producer of the binary (which ptxas, nvJitLink, or the driver's JIT) is in the key: a
/// cubin of one ptxas is not taken for another's.
void producerInKey(const std::string &ir) {
  std::string real;
  for (std::string root : {std::string(std::getenv("CUDA_PATH") ? std::getenv("CUDA_PATH") : ""),
                           std::string("/usr/local/cuda")})
    if (!root.empty() && access((root + "/bin/ptxas").c_str(), X_OK) == 0 && real.empty())
      real = root + "/bin/ptxas";
  if (real.empty()) {
    std::printf("skip the producer in the key: no ptxas in CUDA_PATH or /usr/local/cuda\n");
    return;
  }
  // The real ptxas under another name and version line: another producer, the same cubins.
  const fs::path wrapper = scratch / "other-ptxas";
  std::ofstream(wrapper) << "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'ptxas: other'; "
                            "echo 'Cuda compilation tools, release 99.9, V99.9.1'; exit 0; fi\n"
                            "exec "
                         << real << " \"$@\"\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  setenv("TK_NVJITLINK", "0", 1);
  setenv("TK_PTXAS", real.c_str(), 1);
  std::string byReal;
  {
    Cached c(ir, options(TK_OUTPUT_CUBIN));
    byReal = c.entry();
    check(c.status == TK_OK && tk_compile_result_kind(c.result) == TK_OUTPUT_CUBIN && c.store(),
          "a cubin from ptxas is stored", c.error());
  }
  setenv("TK_PTXAS", wrapper.c_str(), 1);
  {
    Cached c(ir, options(TK_OUTPUT_CUBIN));
    check(c.status == TK_OK && !c.fromCache() && c.entry() != byReal,
          "another ptxas: another entry, compiled again", c.error());
  }
  setenv("TK_PTXAS", real.c_str(), 1);
  {
    Cached c(ir, options(TK_OUTPUT_CUBIN));
    check(c.fromCache() && c.entry() == byReal &&
              tk_compile_result_kind(c.result) == TK_OUTPUT_CUBIN,
          "the first ptxas again: its cubin from the cache");
  }
  unsetenv("TK_PTXAS");
  unsetenv("TK_NVJITLINK");
}

/// A kernel's tensor-map recipes are kept with its binary.
void tensorMaps(const std::string &descriptorCopy) {
  tk_compile_options opts = options();
  opts.tensor_maps = 1;
  auto maps = [](const Cached &c) {
    std::string bytes;
    for (int i = 0; i < tk_compile_result_tensor_map_count(c.result); ++i) {
      tk_tensor_map map{};
      tk_compile_result_tensor_map(c.result, i, &map);
      bytes.append(reinterpret_cast<const char *>(&map), sizeof map);
    }
    return bytes;
  };
  Cached fresh(descriptorCopy, opts);
  check(fresh.status == TK_OK && !fresh.fromCache() &&
            tk_compile_result_tensor_map_count(fresh.result) > 0 && fresh.store(),
        "a kernel with tensor maps is compiled and stored", fresh.error());
  Cached hit(descriptorCopy, opts);
  check(hit.fromCache() && maps(hit) == maps(fresh),
        "a hit has the same tensor-map recipes, field for field");
}

void noCache(const std::string &ir) {
  setenv("TK_CACHE_DIR", "", 1);
  const char *home = std::getenv("HOME");
  const std::string savedHome = home ? home : "";
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  const std::string savedXdg = xdg ? xdg : "";
  unsetenv("HOME");
  unsetenv("XDG_CACHE_HOME");
  check(std::string(tk_cache_directory()).empty(), "no TK_CACHE_DIR, XDG_CACHE_HOME or HOME: no "
                                                   "cache directory");
  Cached c(ir, options());
  check(c.status == TK_OK && !c.fromCache() && c.entry().empty() && !c.store(),
        "without a cache directory it compiles, and nothing is stored", c.error());
  if (home)
    setenv("HOME", savedHome.c_str(), 1);
  if (xdg)
    setenv("XDG_CACHE_HOME", savedXdg.c_str(), 1);
  setenv("TK_CACHE_DIR", (scratch / "cache").c_str(), 1);
  check(std::string(tk_cache_directory()) == (scratch / "cache").string(),
        "tk_cache_directory is TK_CACHE_DIR when set", tk_cache_directory());
}

void misuse(const std::string &ir) {
  tk_compile_options opts = options();
  check(tk_compile_cached(ir.data(), ir.size(), nullptr, &opts, TK_CACHE_USE, nullptr) ==
            TK_ERROR_INVALID_ARGUMENT,
        "tk_compile_cached without a place for the result: invalid argument");
  Cached badMode(ir, opts, tk_cache_mode(7));
  check(badMode.status == TK_ERROR_INVALID_ARGUMENT &&
            badMode.error() ==
                "tk_compile_cached: 7 is not a tk_cache_mode (TK_CACHE_USE, TK_CACHE_REPLACE)",
        "an unknown cache mode is refused with its number", badMode.error());
  opts.num_warps = 3;
  Cached badWarps(ir, opts);
  check(badWarps.status == TK_ERROR_INVALID_ARGUMENT && contains(badWarps.error(), "num_warps") &&
            !badWarps.store(),
        "invalid options fail as tk_compile's do, and a failure is not stored", badWarps.error());
  check(tk_compile_result_from_cache(nullptr) == 0 &&
            std::string(tk_compile_result_cache_entry(nullptr)).empty() &&
            tk_compile_result_cache_store(nullptr) == 0,
        "the cache accessors take NULL");
}

void otherEntries() {
  const char *parts[] = {"matmul", "sm_90a"};
  const size_t sizes[] = {6, 6};
  const char payload[] = "config 3\0with a NUL";
  check(tk_cache_store("tuning", parts, sizes, 2, payload, sizeof payload) == 1,
        "tk_cache_store writes an entry of another kind");
  size_t size = 0;
  void *back = tk_cache_load("tuning", parts, sizes, 2, &size);
  check(back && size == sizeof payload && std::memcmp(back, payload, size) == 0,
        "tk_cache_load reads it back, NUL bytes and all");
  tk_cache_free(back);
  const size_t shorter[] = {6, 5};
  check(!tk_cache_load("tuning", parts, shorter, 2, &size), "another key is a miss");
  check(!tk_cache_load("other", parts, sizes, 2, &size), "another kind is a miss");
  check(tk_cache_store("cubin", parts, sizes, 2, payload, 3) == 0 &&
            !tk_cache_load("cubin", parts, sizes, 2, &size),
        "kind \"cubin\" belongs to tk_compile_cached");
  check(tk_cache_store("Bad/Kind", parts, sizes, 2, payload, 3) == 0 &&
            tk_cache_store(nullptr, parts, sizes, 2, payload, 3) == 0 &&
            tk_cache_store("seventeen-chars-x", parts, sizes, 2, payload, 3) == 0,
        "kinds other than 1-16 characters of [a-z0-9_-] are refused");
  const char *null[] = {nullptr};
  const size_t one[] = {1};
  check(tk_cache_store("tuning", null, one, 1, payload, 3) == 0 &&
            tk_cache_store("tuning", nullptr, nullptr, 1, payload, 3) == 0 &&
            tk_cache_store("tuning", parts, sizes, 2, nullptr, 3) == 0,
        "NULL parts or payload with a size are refused");
  check(tk_cache_store("tuning", nullptr, nullptr, 0, nullptr, 0) == 1 &&
            (back = tk_cache_load("tuning", nullptr, nullptr, 0, &size)) != nullptr && size == 0,
        "an empty key and an empty payload are an entry");
  tk_cache_free(back);
  tk_cache_free(nullptr);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <inputs dir>\n", argv[0]);
    return 2;
  }
  const std::string ir = readFile(std::string(argv[1]) + "/vector_add_tk.mlir");
  const std::string descriptorCopy = readFile(std::string(argv[1]) + "/descriptor_copy.mlir");
  if (ir.empty() || descriptorCopy.empty()) {
    std::printf("FAIL cannot read the inputs in %s\n", argv[1]);
    return 1;
  }
  char dir[] = "/tmp/tk-cache-test-XXXXXX";
  if (!mkdtemp(dir)) {
    std::printf("FAIL cannot make a temporary directory\n");
    return 1;
  }
  scratch = dir;
  setenv("TK_CACHE_DIR", (scratch / "cache").c_str(), 1);
  hitsAndMisses(ir);
  damagedEntry(ir);
  producerInKey(ir);
  tensorMaps(descriptorCopy);
  noCache(ir);
  misuse(ir);
  otherEntries();
  fs::remove_all(scratch);
  std::printf("%d failure(s)\n", backend_test::failures);
  return backend_test::failures == 0 ? 0 : 1;
}

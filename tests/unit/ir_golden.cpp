/// @file ir_golden.cpp
/// Printed-IR golden tests: the `tk` dialect text of the kernels in tests/ir/golden_kernels.hpp,
/// one golden file per op family in tests/golden/<family>.mlir. The golden files are the
/// specification of the printed IR: review every change to them.
///
///   TK_UPDATE_GOLDEN=1 ./tk_unit_tests "[golden]"   rewrites the golden files
///
/// On a mismatch the actual text is written next to the temporary directory's
/// tk_golden_actual/<family>.mlir, and the first differing line is reported.
#include "../ir/golden_support.hpp"
#include "scoped_env.hpp"
#include "temp_files.hpp"

#include <catch2/catch.hpp>
#include <tk/detail/env.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#ifndef TK_GOLDEN_DIR
#error "compile with -DTK_GOLDEN_DIR=\"<repository>/tests/golden\""
#endif

namespace {

namespace fs = std::filesystem;

bool update_requested() { return tk::detail::env::flag("TK_UPDATE_GOLDEN"); }

fs::path golden_path(const std::string &family) {
  return fs::path(TK_GOLDEN_DIR) / (family + ".mlir");
}

bool read_file(const fs::path &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

void write_file(const fs::path &path, const std::string &text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out)
    FAIL("cannot write " << path.string());
}

std::vector<std::string> split_lines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

/// A short report of where `actual` first differs from `expected`.
std::string first_difference(const std::string &expected, const std::string &actual) {
  const auto e = split_lines(expected), a = split_lines(actual);
  std::size_t k = 0;
  while (k < e.size() && k < a.size() && e[k] == a[k])
    ++k;
  std::string kernel = "(header)";
  for (std::size_t j = 0; j < k && j < e.size(); ++j)
    if (e[j].rfind("// kernel: ", 0) == 0)
      kernel = e[j].substr(11);
  std::ostringstream s;
  s << "first difference at line " << k + 1 << ", in kernel " << kernel << "\n";
  const std::size_t from = k >= 3 ? k - 3 : 0;
  for (std::size_t j = from; j < k; ++j)
    s << "    " << e[j] << "\n";
  s << "  expected: " << (k < e.size() ? e[k] : "<end of file>") << "\n";
  s << "  actual:   " << (k < a.size() ? a[k] : "<end of file>") << "\n";
  return s.str();
}

/// GCC is the reference compiler of the goldens; other compilers report other columns for
/// `std::source_location`, so they compare without them.
std::string comparable(const std::string &text) {
#if defined(__GNUC__) && !defined(__clang__)
  return text;
#else
  return tk_golden::strip_columns(text);
#endif
}

void check_family(const std::string &family) {
  const std::string actual = tk_golden::family_text(family);
  const fs::path path = golden_path(family);
  if (update_requested()) {
    std::string old;
    if (!read_file(path, old) || old != actual) {
      write_file(path, actual);
      WARN("TK_UPDATE_GOLDEN: rewrote " << path.string() << "; review it with git diff");
    }
    return;
  }
  std::string expected;
  if (!read_file(path, expected))
    FAIL("golden file " << path.string()
                        << " is missing; create it with TK_UPDATE_GOLDEN=1 and review it");
  if (comparable(expected) == comparable(actual)) {
    SUCCEED();
    return;
  }
  const fs::path dump = fs::temp_directory_path() / "tk_golden_actual" / (family + ".mlir");
  write_file(dump, actual);
  FAIL("printed IR of family `"
       << family << "` differs from " << path.string() << "\n"
       << first_difference(comparable(expected), comparable(actual))
       << "actual text: " << dump.string() << " (diff it with the golden file)\n"
       << "If the change is intended, regenerate with TK_UPDATE_GOLDEN=1 and review the diff.");
}

#define TK_GOLDEN_FAMILY(FAMILY)                                                                   \
  TEST_CASE("ir golden: " #FAMILY, "[ir][golden]") { check_family(#FAMILY); }

} // namespace

TK_GOLDEN_FAMILY(params)
TK_GOLDEN_FAMILY(creation)
TK_GOLDEN_FAMILY(memory)
TK_GOLDEN_FAMILY(arith)
TK_GOLDEN_FAMILY(casts)
TK_GOLDEN_FAMILY(math)
TK_GOLDEN_FAMILY(shapes)
TK_GOLDEN_FAMILY(reductions)
TK_GOLDEN_FAMILY(scans)
TK_GOLDEN_FAMILY(dot)
TK_GOLDEN_FAMILY(control)
TK_GOLDEN_FAMILY(atomics)
TK_GOLDEN_FAMILY(debug)

TEST_CASE("ir golden: every family has a test and a golden file, and no golden file is stale",
          "[ir][golden]") {
  const std::set<std::string> tested = {"params",  "creation", "memory",     "arith", "casts",
                                        "math",    "shapes",   "reductions", "scans", "dot",
                                        "control", "atomics",  "debug"};
  const auto families = tk_golden::families();
  const std::set<std::string> defined(families.begin(), families.end());
  CHECK(defined == tested);
  REQUIRE(families.size() == defined.size()); // each family's kernels are listed together
  if (update_requested())
    return;
  std::set<std::string> on_disk;
  for (const auto &entry : fs::directory_iterator(TK_GOLDEN_DIR))
    if (entry.path().extension() == ".mlir")
      on_disk.insert(entry.path().stem().string());
  CHECK(on_disk == defined);
}

TEST_CASE("ir golden: location normalization", "[ir][golden]") {
  CHECK(tk_golden::normalize_locations(R"(%0 = x loc("/a/b/c.hpp":12:7) loc("d.cpp":1:2))") ==
        R"(%0 = x loc("c.hpp":12:7) loc("d.cpp":1:2))");
  CHECK(tk_golden::normalize_locations(R"(loc("C:\\src\\k.cpp":3:4))") == R"(loc("k.cpp":3:4))");
  CHECK(tk_golden::strip_columns(R"(a loc("k.cpp":3:4)
b loc("k.cpp":5:16))") == R"(a loc("k.cpp":3)
b loc("k.cpp":5))");
}

TEST_CASE("ir golden: printing twice gives identical bytes", "[ir][golden]") {
  for (const auto &c : tk_golden::cases()) {
    CAPTURE(c.family, c.name);
    const std::string first = c.ir();
    CHECK(first == c.ir());
    // No absolute path survives normalization.
    CHECK(tk_golden::normalize_locations(first).find("loc(\"/") == std::string::npos);
  }
}

TEST_CASE("ir golden: tracing on several threads at once gives identical bytes", "[ir][golden]") {
  std::vector<std::string> expected;
  for (const auto &c : tk_golden::cases())
    expected.push_back(c.ir());
  std::vector<std::vector<std::string>> got(4);
  std::vector<std::thread> threads;
  for (auto &out : got)
    threads.emplace_back([&out] {
      for (const auto &c : tk_golden::cases())
        out.push_back(c.ir());
    });
  for (auto &t : threads)
    t.join();
  for (const auto &out : got)
    CHECK(out == expected);
}

namespace {

/// The command that checks printed IR: $TK_MLIR_OPT (an mlir-opt, as is) if set; else the
/// build's tk-opt (TK_OPT_PATH, defined when the backend is built), which verifies the tk ops;
/// else mlir-opt from LLVM 22 (install locations, then PATH), which skips them. Empty if none.
std::string find_ir_checker() {
  if (const char *v = std::getenv("TK_MLIR_OPT"); v && *v)
    return "\"" + std::string(v) + "\" --allow-unregistered-dialect";
#ifdef TK_OPT_PATH
  if (fs::exists(TK_OPT_PATH))
    return "\"" TK_OPT_PATH "\"";
#endif
  for (const char *p : {"/usr/lib/llvm-22/bin/mlir-opt", "/usr/bin/mlir-opt-22"})
    if (fs::exists(p))
      return "\"" + std::string(p) + "\" --allow-unregistered-dialect";
#ifndef _WIN32
  if (std::system("command -v mlir-opt-22 >/dev/null 2>&1") == 0)
    return "mlir-opt-22 --allow-unregistered-dialect";
#endif
  return {};
}

/// find_ir_checker(), with a warning where there is none (the test then checks nothing).
std::string ir_checker_or_warn() {
  std::string checker = find_ir_checker();
  if (checker.empty())
    WARN("neither tk-opt nor mlir-opt-22 found (set TK_MLIR_OPT); skipping the parse check");
  return checker;
}

/// What the IR checker said about `text`, written to `<dir>/<name>.mlir`.
struct check_result {
  int status;
  std::string command, output;
};

check_result run_checker(const std::string &checker, const std::string &options,
                         const fs::path &dir, const std::string &name, const std::string &text) {
  const fs::path input = dir / (name + ".mlir"), log = dir / (name + ".log");
  write_file(input, text);
  check_result r;
  r.command = checker + options + " \"" + input.string() + "\" > \"" + log.string() + "\" 2>&1";
  r.status = std::system(r.command.c_str());
  read_file(log, r.output);
  return r;
}

} // namespace

TEST_CASE("ir golden: the printed IR of every golden kernel parses and verifies (tk-opt)",
          "[ir][golden][tk-opt]") {
  const std::string checker = ir_checker_or_warn();
  if (checker.empty())
    return;
  const tk_test::temp_dir dir;
  for (const auto &family : tk_golden::families()) {
    CAPTURE(family);
    const check_result r = run_checker(checker, " --split-input-file", dir.path(), family,
                                       tk_golden::family_text(family));
    INFO(r.command << "\n" << r.output.substr(0, 4000));
    CHECK(r.status == 0);
  }
}

TEST_CASE("ir: tk.assert, printed with TK_DEBUG=1, parses and verifies (tk-opt)",
          "[ir][tk-opt][debug]") {
  // Not in the goldens: it names the source file by its full path and the function as the
  // compiler spells it.
  const std::string checker = ir_checker_or_warn();
  if (checker.empty())
    return;
  auto k = tk::jit("asserts", [](tk::ptr<float> p, tk::i32 n) {
    auto x = tk::load(p + tk::arange(0, 16));
    tk::device_assert(x >= 0, "x must not be negative: \"x\" \\ 100%");
    tk::device_assert(n > 0);
  });
  std::string ir;
  {
    const tk_test::scoped_env debug("TK_DEBUG", "1");
    alignas(16) static float buffer[16];
    ir = k.ir(buffer, 4);
  }
  REQUIRE(ir.find("\"tk.assert\"") != std::string::npos);
  const tk_test::temp_dir dir;
  const check_result r = run_checker(checker, "", dir.path(), "asserts", ir);
  INFO(r.command << "\n" << r.output.substr(0, 4000) << "\n" << ir);
  CHECK(r.status == 0);
  CHECK(r.output.find("tk.assert") != std::string::npos);
}

TEST_CASE("ir: integer arguments equal to 1 are specialized on", "[ir]") {
  // As in Triton: a unit stride becomes the constant 1 in the kernel, so that the addresses it
  // makes are known to be contiguous; the argument stays in the signature, unused.
  auto k = tk::jit("strided", [](tk::ptr<float> out, tk::i32 stride) {
    auto i = tk::arange(0, 16);
    tk::store(out + i * stride, 1.0f);
  });
  std::vector<float> buffer(64);
  const std::string one = k.ir(buffer.data(), 1);
  const std::string two = k.ir(buffer.data(), 2);
  CHECK(one.find("arith.constant 1 : i32") != std::string::npos);
  CHECK(one.find("tk.splat\"(%arg1)") == std::string::npos);
  CHECK(two.find("tk.splat\"(%arg1)") != std::string::npos);
  // 16 is not 1: divisibility only.
  const std::string sixteen = k.ir(buffer.data(), 16);
  CHECK(sixteen.find("%arg1: i32 {tk.divisibility = 16 : i32}") != std::string::npos);
  CHECK(sixteen.find("tk.splat\"(%arg1)") != std::string::npos);
}

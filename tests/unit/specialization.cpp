/// @file specialization.cpp
/// What a kernel is specialized on (tk::jit_options), seen in its IR, and kernel::warmup where
/// launches run on the interpreter. The GPU side (a launch after warmup compiles nothing) is in
/// tests/e2e/gpu_check.cpp.
#include "expect_error.hpp"
#include "scoped_env.hpp"
#include "temp_files.hpp"

#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using tk_test::expect_error;
using tk_test::scoped_env;

auto body = [](tk::ptr<float> x, tk::i32 n, tk::i32 stride, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  tk::store(x + offs * stride, tk::load(x + offs * stride, offs < n) * 2.0f, offs < n);
};

auto specialized = tk::jit("scaled", body);
auto unspecialized = tk::jit("scaled", body, {.do_not_specialize = {1, 2}});
auto unaligned = tk::jit("scaled", body, {.do_not_specialize_on_alignment = {0, 1, 2}});

// An address aligned to 16 bytes, never dereferenced: IR is traced from types and values only.
float *const aligned = reinterpret_cast<float *>(std::uintptr_t{1} << 20);

std::size_t count(const std::string &text, const std::string &what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

/// Whether the body of the function in `ir` reads `value` (the signature names every argument).
bool uses(const std::string &ir, const std::string &value) {
  const std::string body = ir.substr(ir.find('\n', ir.find("func.func")));
  return body.find(value) != std::string::npos;
}

} // namespace

TEST_CASE("by default a kernel is specialized on alignment, divisibility and unit integers",
          "[specialization]") {
  const std::string ir = specialized.ir(aligned, 1024, 1, tk::constant(128));
  CHECK(count(ir, "tk.divisibility = 16") == 2); // the pointer and n
  CHECK(!uses(ir, "%arg2"));                     // the stride of 1 is folded away
}

TEST_CASE("do_not_specialize leaves an integer's value and divisibility out of the code",
          "[specialization]") {
  const std::string ir = unspecialized.ir(aligned, 1024, 1, tk::constant(128));
  CHECK(count(ir, "tk.divisibility = 16") == 1); // the pointer only: it was not named
  CHECK(uses(ir, "%arg2"));                      // the stride is read, not folded to 1
  // One kernel serves every n and stride: the IR does not change with them.
  CHECK(unspecialized.ir(aligned, 1000, 3, tk::constant(128)) == ir);
}

TEST_CASE("do_not_specialize_on_alignment keeps unit integers but drops divisibility",
          "[specialization]") {
  const std::string ir = unaligned.ir(aligned, 1024, 1, tk::constant(128));
  CHECK(count(ir, "tk.divisibility") == 0);
  CHECK(!uses(ir, "%arg2")); // the unit stride is still folded
  CHECK(unaligned.ir(aligned + 1, 1001, 1, tk::constant(128)) == ir);
}

TEST_CASE("unspecialized kernels compute the same on the interpreter", "[specialization]") {
  std::vector<float> x(300, 1.5f);
  unspecialized.interpret(tk::grid(3), x, 300, 1, tk::constant(128));
  unaligned.interpret(tk::grid(3), x, 300, 1, tk::constant(128));
  CHECK(x == std::vector<float>(300, 6.0f));
}

TEST_CASE("jit_options naming a parameter that cannot be unspecialized is an error",
          "[specialization][errors]") {
  int line = 0;
  expect_error("specialization.cpp", line,
               "tk::jit_options::do_not_specialize of kernel 'bad' names parameter -1; "
               "parameters are numbered from 0, and at most 64 can be named",
               [&] {
                 line = __LINE__ + 1;
                 (void)tk::jit("bad", body, {.do_not_specialize = {-1}});
               });
  auto names_constant = tk::jit("names_constant", body, {.do_not_specialize = {3}});
  std::vector<float> x(16);
  expect_error("specialization.cpp", line,
               "tk::jit_options::do_not_specialize of kernel 'names_constant' names parameter "
               "3, a tk::constant: its value is compiled into the kernel; make it a scalar "
               "parameter (tk::i32, say) to compile one kernel for every value",
               [&] {
                 line = __LINE__ + 1;
                 names_constant.interpret(tk::grid(1), x, 16, 1, tk::constant(16));
               });
  auto past_end = tk::jit("past_end", body, {.do_not_specialize_on_alignment = {7}});
  expect_error("specialization.cpp", line,
               "tk::jit_options::do_not_specialize_on_alignment of kernel 'past_end' names "
               "parameter 7, but the kernel is launched with 4 arguments",
               [&] {
                 line = __LINE__ + 1;
                 past_end.interpret(tk::grid(1), x, 16, 1, tk::constant(16));
               });
}

TEST_CASE("warmup on the interpreter traces the kernel, so that its errors show",
          "[specialization][warmup]") {
  scoped_env interpret("TK_INTERPRET", "1");
  std::vector<float> x(64, 1.0f);
  CHECK_NOTHROW(specialized.warmup(x, 64, 1, tk::constant(64)));
  CHECK_NOTHROW(specialized.warmup({.num_warps = 8}, x, 64, 1, tk::constant(64)));
  CHECK(x == std::vector<float>(64, 1.0f)); // nothing ran
  int line = 0;
  auto broken = tk::jit("broken", [&](tk::ptr<float> p, tk::constant<int> BLOCK) {
    line = __LINE__ + 1;
    tk::store(p + tk::arange(0, BLOCK), tk::arange(0, 2 * BLOCK));
  });
  expect_error("specialization.cpp", line, "", [&] { broken.warmup(x, tk::constant(16)); });
}

namespace {

auto f32_dot = tk::jit("f32_dot", [](tk::ptr<float> c, tk::ptr<const float> a) {
  auto i = tk::arange(0, 16);
  auto x = tk::load(a + i(tk::_, tk::newaxis) * 16 + i(tk::newaxis, tk::_));
  auto y = tk::dot(x, x);
  tk::store(c + i(tk::_, tk::newaxis) * 16 + i(tk::newaxis, tk::_), y);
});

} // namespace

// Run by CTest a second time with TK_F32_DEFAULT=ieee and a third with a value it cannot read
// (unit.f32_default.*): the variable is read once per process.
TEST_CASE("tk::dot of f32 blocks takes its default precision from TK_F32_DEFAULT",
          "[f32_default]") {
  const char *value = std::getenv("TK_F32_DEFAULT");
  const std::string setting = value ? value : "";
  const std::string expected = setting == "ieee" || setting == "tf32x3" ? setting : "tf32";
  float *const c = aligned, *const a = aligned + 256;
  std::string ir;
  const std::string complaint = tk_test::capture_stderr([&] { ir = f32_dot.ir(c, a); });
  CHECK(ir.find("input_precision = \"" + expected + "\"") != std::string::npos);
  if (setting == "bogus")
    CHECK(complaint == "tk: ignoring TK_F32_DEFAULT=bogus: expected tf32, ieee or tf32x3; using "
                       "the default, tf32\n");
  else
    CHECK(complaint.empty());
}

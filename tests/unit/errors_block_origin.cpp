/// @file errors_block_origin.cpp
/// A block handle lives in the trace or program instance that made it. Using one elsewhere (kept
/// in a static or captured variable and used by another kernel, launch or program instance) is a
/// tk::error at the line that uses it, whichever of `.ir()` and the interpreter made it and
/// whichever uses it.
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view this_file = "errors_block_origin.cpp";

} // namespace

TEST_CASE("errors: a block used in a kernel other than the one that made it", "[errors]") {
  int line = 0;
  std::vector<int> out(16, 0);
  tk::block<int, 1> kept;
  auto k1 = tk::jit("k1", [&](tk::ptr<int> p) {
    kept = tk::arange(0, 16) + 1;
    tk::store(p + tk::arange(0, 16), kept);
  });
  auto k2 = tk::jit("k2", [&](tk::ptr<int> p) {
    line = __LINE__ + 1;
    tk::store(p + tk::arange(0, 16), kept * 2);
  });
  const std::string message = "this block was made by kernel 'k1' (";
  const std::string used = "and cannot be used in kernel 'k2' (";
  SECTION("made by .ir, used by the interpreter") {
    (void)k1.ir(out.data());
    tk_test::expect_error(this_file, line, message, [&] { k2.interpret(tk::grid(1), out.data()); });
    tk_test::expect_error(this_file, line, used, [&] { k2.interpret(tk::grid(1), out.data()); });
  }
  SECTION("made by the interpreter, used by .ir") {
    k1.interpret(tk::grid(1), out.data());
    tk_test::expect_error(this_file, line, message, [&] { (void)k2.ir(out.data()); });
  }
  SECTION("made by the interpreter, used by the interpreter") {
    k1.interpret(tk::grid(1), out.data());
    tk_test::expect_error(this_file, line, message, [&] { k2.interpret(tk::grid(1), out.data()); });
    CHECK(out[3] == 4); // k1 ran; k2 wrote nothing
  }
  SECTION("made by .ir, used by .ir") {
    (void)k1.ir(out.data());
    tk_test::expect_error(this_file, line, "pass the data as a kernel argument instead",
                          [&] { (void)k2.ir(out.data()); });
  }
}

TEST_CASE("errors: a block used by another program instance of the same launch", "[errors]") {
  int line = 0;
  std::vector<int> out(32, 0);
  tk::block<int, 1> kept;
  bool first = true; // host state: program instance 0 keeps a block, instance 1 uses it
  auto k = tk::jit("k", [&](tk::ptr<int> p) {
    auto pid = tk::program_id(0);
    auto cols = tk::arange(0, 16);
    if (first)
      kept = cols;
    first = false;
    line = __LINE__ + 1;
    tk::store(p + pid * 16 + cols, kept);
  });
  tk_test::expect_error(this_file, line,
                        "this block was made by program instance (0, 0, 0) and cannot be used in "
                        "program instance (1, 0, 0) of the same launch of kernel 'k' (",
                        [&] { k.interpret(tk::grid(2), out.data()); });
}

TEST_CASE("errors: a block used by a later launch or trace of the same kernel", "[errors]") {
  int line = 0;
  std::vector<int> out(16, 0);
  tk::block<int, 1> kept;
  bool first = true;
  auto k = tk::jit("k", [&](tk::ptr<int> p) {
    if (first)
      kept = tk::arange(0, 16);
    first = false;
    line = __LINE__ + 1;
    tk::store(p + tk::arange(0, 16), kept);
  });
  SECTION("interpreter, then interpreter") {
    k.interpret(tk::grid(1), out.data());
    tk_test::expect_error(this_file, line,
                          "this block was made by an earlier launch of kernel 'k' (",
                          [&] { k.interpret(tk::grid(1), out.data()); });
  }
  SECTION(".ir, then .ir") {
    (void)k.ir(out.data());
    tk_test::expect_error(this_file, line,
                          "this block was made by an earlier trace of kernel 'k' (",
                          [&] { (void)k.ir(out.data()); });
  }
}

TEST_CASE("errors: a block from another kernel carried through a loop or a branch", "[errors]") {
  int line = 0;
  std::vector<int> out(16, 0);
  tk::block<int, 1> kept;
  auto k1 = tk::jit("k1", [&] { kept = tk::arange(0, 16); });
  (void)k1.ir();
  SECTION("tk::for_range") {
    auto k2 = tk::jit("k2", [&](tk::ptr<int> p) {
      auto acc = tk::zeros<int>({16});
      line = __LINE__ + 1;
      tk::for_range(0, 4, [&] { acc = kept; });
      tk::store(p + tk::arange(0, 16), acc);
    });
    tk_test::expect_error(this_file, line, "this block was made by kernel 'k1' (",
                          [&] { (void)k2.ir(out.data()); });
  }
  SECTION("tk::if_") {
    auto k2 = tk::jit("k2", [&](tk::ptr<int> p, tk::i32 n) {
      auto acc = tk::zeros<int>({16});
      line = __LINE__ + 1;
      tk::if_(n > 0, [&] { acc = kept; });
      tk::store(p + tk::arange(0, 16), acc);
    });
    tk_test::expect_error(this_file, line, "this block was made by kernel 'k1' (",
                          [&] { (void)k2.ir(out.data(), 3); });
  }
}

TEST_CASE("errors: a block from another program instance carried through a loop or a branch",
          "[errors]") {
  // The interpreter checks a loop or branch by tracing it first (as .ir does): the foreign block
  // is named at the loop's or branch's line, as coming from the other program instance.
  int line = 0;
  std::vector<int> out(32, 0);
  tk::block<int, 1> kept;
  bool first = true;
  const std::string message = "this block was made by program instance (0, 0, 0) and cannot be "
                              "used in program instance (1, 0, 0) of the same launch of kernel";
  SECTION("tk::for_range") {
    auto k = tk::jit("k", [&](tk::ptr<int> p) {
      auto pid = tk::program_id(0);
      auto acc = tk::arange(0, 16);
      if (first)
        kept = acc;
      first = false;
      line = __LINE__ + 1;
      tk::for_range(0, 4, [&] { acc = acc + kept; });
      tk::store(p + pid * 16 + tk::arange(0, 16), acc);
    });
    tk_test::expect_error(this_file, line, message, [&] { k.interpret(tk::grid(2), out.data()); });
  }
  SECTION("tk::if_") {
    auto k = tk::jit("k", [&](tk::ptr<int> p) {
      auto pid = tk::program_id(0);
      auto acc = tk::arange(0, 16);
      if (first)
        kept = acc;
      first = false;
      line = __LINE__ + 1;
      tk::if_(pid > 5, [&] { acc = kept; });
      tk::store(p + pid * 16 + tk::arange(0, 16), acc);
    });
    tk_test::expect_error(this_file, line, message, [&] { k.interpret(tk::grid(2), out.data()); });
  }
}

/// @file expect_error.hpp
/// Shared by the errors_*.cpp unit tests: checks that a tk::error is thrown, what it says and
/// that it points at the user's line (never at a TileKit header).
#pragma once

#include <catch2/catch.hpp>
#include <tk/error.hpp>
#include <tk/kernel.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace tk_test {

/// Runs `f` and checks that it throws a `tk::error` whose message contains `message` and whose
/// location is line `line` of a file whose name ends with `file`. `line` is read after `f` ran,
/// so a kernel body may set it (`line = __LINE__ + 1;` just before the offending statement).
template <class F>
void expect_error(std::string_view file, const int &line, std::string_view message, F &&f) {
  try {
    f();
  } catch (const tk::error &e) {
    const std::string what = e.what();
    const std::string_view where = e.where().file_name();
    INFO("what(): " << what);
    INFO("expected at " << file << ":" << line);
    CHECK(line > 0);
    CHECK(e.where().line() == static_cast<std::uint_least32_t>(line));
    CHECK(where.ends_with(file));
    CHECK(!where.ends_with(".hpp"));
    // `<file>:<line>:<column>: error: <message>`
    const std::string prefix = std::string(where) + ":" + std::to_string(line) + ":";
    CHECK(what.starts_with(prefix));
    CHECK(what.starts_with(prefix + std::to_string(e.where().column()) + ": error: "));
    CHECK(what.ends_with(e.message()));
    CHECK(what.find(message) != std::string::npos);
    return;
  }
  FAIL("expected a tk::error containing \"" << message << "\", but none was thrown");
}

/// Checks the error of kernel `k` with `args` on both paths, in two sections: tracing it
/// (`.ir()`) and running it on the interpreter over one program.
template <class K, class... A>
void trace_and_interpret(std::string_view file, const K &k, const int &line,
                         std::string_view message, const A &...args) {
  SECTION("trace") {
    expect_error(file, line, message, [&] { (void)k.ir(args...); });
  }
  SECTION("interpreter") {
    expect_error(file, line, message, [&] { k.interpret(tk::grid(1), args...); });
  }
}

} // namespace tk_test

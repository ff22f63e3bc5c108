/// @file env.cpp
/// Boolean environment variables (tk/detail/env.hpp): one rule for every TK_* switch, and what
/// the switches the runtime reads make of it.
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "Cache/DiskCache.h"

#include "scoped_env.hpp"
#include "temp_files.hpp"

#include <string>

namespace env = tk::detail::env;
using tk_test::scoped_env;

TEST_CASE("env: 1/true/yes/on and 0/false/no/off in any case, unset and empty are unset", "[env]") {
  for (const char *on : {"1", "true", "TRUE", "True", "yes", "YES", "Yes", "on", "ON", "oN"})
    CHECK(env::parse(on) == env::setting::on);
  for (const char *off : {"0", "false", "FALSE", "no", "NO", "off", "OFF", "Off"})
    CHECK(env::parse(off) == env::setting::off);
  CHECK(env::parse(nullptr) == env::setting::unset);
  CHECK(env::parse("") == env::setting::unset);
  for (const char *bad : {"2", "y", "n", "enable", " 1", "1 ", "truee", "o", "-1", "yes!"})
    CHECK(env::parse(bad) == env::setting::invalid);
}

TEST_CASE("env: flag() gives the default when unset, empty or not a boolean", "[env]") {
  {
    scoped_env unset("TK_TEST_ENV_FLAG", nullptr);
    CHECK_FALSE(env::flag("TK_TEST_ENV_FLAG"));
    CHECK(env::flag("TK_TEST_ENV_FLAG", true));
  }
  {
    scoped_env empty("TK_TEST_ENV_FLAG", "");
    CHECK(env::flag("TK_TEST_ENV_FLAG", true));
  }
  {
    scoped_env off("TK_TEST_ENV_FLAG", "Off");
    CHECK_FALSE(env::flag("TK_TEST_ENV_FLAG", true));
  }
  scoped_env on("TK_TEST_ENV_FLAG", "Yes");
  CHECK(env::flag("TK_TEST_ENV_FLAG"));
}

#if !defined(_WIN32)
TEST_CASE("env: a value that is not a boolean is named once on stderr, and the default is used",
          "[env]") {
  scoped_env bad("TK_TEST_ENV_ONCE", "maybe");
  const std::string first = tk_test::capture_stderr([] {
    CHECK(env::flag("TK_TEST_ENV_ONCE", true));
    CHECK_FALSE(env::flag("TK_TEST_ENV_ONCE", false));
  });
  CHECK(first == "tk: ignoring TK_TEST_ENV_ONCE=maybe: expected 1, true, yes, on or 0, false, "
                 "no, off (any case); using the default, on\n");
  CHECK(tk_test::capture_stderr([] { env::flag("TK_TEST_ENV_ONCE"); }).empty());
  // Another variable is another warning.
  scoped_env other("TK_TEST_ENV_OTHER", "2");
  CHECK(tk_test::capture_stderr([] { env::flag("TK_TEST_ENV_OTHER"); }) ==
        "tk: ignoring TK_TEST_ENV_OTHER=2: expected 1, true, yes, on or 0, false, no, off (any "
        "case); using the default, off\n");
}

TEST_CASE("env: TK_INTERPRET, TK_DEBUG and TK_PRINT_AUTOTUNING follow the rule", "[env]") {
  {
    scoped_env interpret("TK_INTERPRET", "YES");
    CHECK(tk::interpret_requested());
  }
  {
    scoped_env interpret("TK_INTERPRET", "off");
    CHECK_FALSE(tk::interpret_requested());
  }
  {
    scoped_env debug("TK_DEBUG", "false");
    CHECK_FALSE(tk::cache::debug_enabled());
  }
  {
    scoped_env debug("TK_DEBUG", "On");
    CHECK(tk::cache::debug_enabled());
  }
  {
    scoped_env print("TK_PRINT_AUTOTUNING", "no");
    CHECK_FALSE(tk::detail::print_autotuning());
  }
  scoped_env print("TK_PRINT_AUTOTUNING", "TRUE");
  CHECK(tk::detail::print_autotuning());
  scoped_env debug("TK_DEBUG", "verbose");
  CHECK(tk_test::capture_stderr([] { CHECK_FALSE(tk::cache::debug_enabled()); }) ==
        "tk: ignoring TK_DEBUG=verbose: expected 1, true, yes, on or 0, false, no, off (any "
        "case); using the default, off\n");
}
#endif

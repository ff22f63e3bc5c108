/// @file catch_strict.hpp
/// Catch2's checks that a run proves something, on by default in TileKit's test programs: a test
/// spec that matches no test case fails the run (exit 2: a CTest entry that runs nothing is a
/// defect, e.g. a name that test discovery split at a ';'), and so does a test case or section
/// that ran no assertion.
#pragma once

#include <catch2/catch.hpp>

namespace tk_test {

inline int run_strict(int argc, char **argv) {
  Catch::Session session;
  Catch::ConfigData &config = session.configData();
  config.warnings = static_cast<Catch::WarnAbout::What>(
      config.warnings | Catch::WarnAbout::NoAssertions | Catch::WarnAbout::NoTests);
  if (const int status = session.applyCommandLine(argc, argv); status != 0)
    return status;
  return session.run();
}

} // namespace tk_test

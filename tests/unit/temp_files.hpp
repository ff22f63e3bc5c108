/// @file temp_files.hpp
/// Temporary directories, whole files, and what a piece of code writes to stderr or stdout: for
/// the tests of the disk cache and of everything that reads or logs around it, and of
/// tk::device_print.
#pragma once

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>

#include <utility>

#if !defined(_WIN32)
#include "../support/capture_stderr.hpp"
#endif

namespace tk_test {

namespace fs = std::filesystem;

/// A fresh directory under the system's temporary directory, removed (with anything made
/// read-only inside it) at the end of the test.
class temp_dir {
public:
  temp_dir() {
    std::random_device random;
    for (;;) {
      path_ = fs::temp_directory_path() /
              ("tk-cache-test-" + std::to_string(random()) + std::to_string(random()));
      if (fs::create_directory(path_))
        break;
    }
  }
  ~temp_dir() {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(path_, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_directory(ec))
        fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  temp_dir(const temp_dir &) = delete;
  temp_dir &operator=(const temp_dir &) = delete;

  const fs::path &path() const { return path_; }

private:
  fs::path path_;
};

inline std::string read_file(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_file(const fs::path &path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

#if !defined(_WIN32)
/// What `body` writes to stderr (file descriptor 2).
template <class Body> std::string capture_stderr(Body &&body) {
  temp_dir dir;
  return capture_stderr_in((dir.path() / "stderr.txt").string(), std::forward<Body>(body));
}

/// What `body` writes to stdout (file descriptor 1).
template <class Body> std::string capture_stdout(Body &&body) {
  temp_dir dir;
  return capture_stdout_in((dir.path() / "stdout.txt").string(), std::forward<Body>(body));
}
#endif

} // namespace tk_test

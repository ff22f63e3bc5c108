/// @file capture_stderr.hpp
/// What a piece of code writes to stderr (file descriptor 2, so that C stdio, iostreams and
/// child processes are all caught), through a file: for tests of messages printed on stderr.
#pragma once

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace tk_test {

/// Runs `body` with stderr sent to the file `path` (created or emptied), then returns what it
/// wrote. Throws std::runtime_error when `path` cannot be opened.
template <class Body> std::string capture_stderr_in(const std::string &path, Body &&body) {
  std::fflush(stderr);
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    throw std::runtime_error("cannot open " + path);
  const int saved = dup(2);
  dup2(fd, 2);
  close(fd);
  body();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace tk_test

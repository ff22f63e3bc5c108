/// @file capture_stderr.hpp
/// What a piece of code writes to stderr or stdout (file descriptor 2 or 1, so that C stdio,
/// iostreams and child processes are all caught), through a file: for tests of messages printed
/// on stderr and of output printed on stdout (tk::device_print on the interpreter).
#pragma once

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace tk_test {

namespace detail {

/// Runs `body` with file descriptor `fd` (whose C stream is `stream`) sent to the file `path`
/// (created or emptied), then returns what it wrote. The descriptor is restored also when
/// `body` throws. Throws std::runtime_error when `path` cannot be opened.
template <class Body>
std::string capture_fd_in(int fd, std::FILE *stream, const std::string &path, Body &&body) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stream);
  const int file = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (file < 0)
    throw std::runtime_error("cannot open " + path);
  const int saved = dup(fd);
  dup2(file, fd);
  close(file);
  struct restore {
    int fd, saved;
    std::FILE *stream;
    ~restore() {
      std::cout.flush();
      std::cerr.flush();
      std::fflush(stream);
      dup2(saved, fd);
      close(saved);
    }
  };
  {
    const restore restoring{fd, saved, stream};
    body();
  }
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace detail

/// Runs `body` with stderr sent to the file `path` (created or emptied), then returns what it
/// wrote. Throws std::runtime_error when `path` cannot be opened.
template <class Body> std::string capture_stderr_in(const std::string &path, Body &&body) {
  return detail::capture_fd_in(2, stderr, path, body);
}

/// The same for stdout (file descriptor 1).
template <class Body> std::string capture_stdout_in(const std::string &path, Body &&body) {
  return detail::capture_fd_in(1, stdout, path, body);
}

} // namespace tk_test

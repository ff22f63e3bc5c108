/// @file debug.cpp
/// docs/writing-kernels.md, docs/debugging.md and docs/interpreter.md: printing from a kernel
/// (tk::device_print, and the lines it prints on the interpreter), device assertions
/// (tk::device_assert with launch_options::debug) and their IR.
#include "doc_examples.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

// [snippet:print]
// Prints each row's maximum, and the bits of the row's elements in hexadecimal.
auto inspect = tk::jit("inspect", [](tk::ptr<const float> x, tk::constant<int> N) {
  auto row = tk::program_id(0);
  auto v = tk::load(x + row * N + tk::arange(0, N));
  tk::device_print("row max", tk::max(v));
  tk::device_print(tk::hex, "bits", v);
});
// [/snippet]

// [snippet:assert]
// Divides each row by its sum, which must be positive.
auto normalize =
    tk::jit("normalize", [](tk::ptr<float> out, tk::ptr<const float> x, tk::constant<int> N) {
      auto offs = tk::program_id(0) * N + tk::arange(0, N);
      auto v = tk::load(x + offs);
      auto total = tk::sum(v);
      tk::device_assert(total > 0, "row sums must be positive");
      tk::store(out + offs, v / total);
    });
// [/snippet]

/// What `body` writes to stdout (file descriptor 1), through a file in the temporary directory.
template <class Body> std::string capture_stdout(Body &&body) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("tk_docs_debug_" + std::to_string(getpid()) + ".txt");
  std::fflush(stdout);
  const int file = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (file < 0)
    throw std::runtime_error("cannot open " + path.string());
  const int saved = dup(1);
  dup2(file, 1);
  close(file);
  try {
    body();
  } catch (...) {
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    throw;
  }
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::ifstream in(path, std::ios::binary);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  in.close();
  std::filesystem::remove(path);
  return text;
}

std::string printed_rows() {
  const std::vector<float> x = {1.5f, -2, 0.25f, 3, -1, -0.5f, 4, 2};
  return capture_stdout([&] {
    // [snippet:print_launch]
    inspect.interpret(tk::grid(2), x, 4);
    // [/snippet]
  });
}

} // namespace

DOC_EXAMPLE("debug.print") {
  const std::string text = printed_rows();
  doc::check(text.find("pid (1, 0, 0) idx () row max: 4.000000\n") != std::string::npos,
             "program 1 prints its row's maximum");
  doc::check(text.find("pid (0, 0, 0) idx (3) bits: 0x40400000\n") != std::string::npos,
             "3.0f is 0x40400000");
}

/// The lines the print example writes on the interpreter, quoted in writing-kernels.md.
DOC_IR("debug.print_output") { return printed_rows(); }

DOC_EXAMPLE("debug.assert") {
  const std::vector<float> x = {1, 2, 3, 2, 1, -2, 0.5f, 0.5f};
  std::vector<float> out(8);
  // Asserts are off by default: the second row's sum, 0, divides it.
  normalize.interpret(tk::grid(2), out, x, 4);
  std::string message;
  // [snippet:assert_launch]
  try {
    normalize.launch(tk::grid(2), {.backend = tk::backend::interpreter, .debug = true}, out, x, 4);
  } catch (const tk::error &e) {
    // e.what(): ".../debug.cpp:<line>:<column>: error: device assertion failed: row sums must be
    //            positive (program (1, 0, 0), the scalar)"
    message = e.message();
  }
  // [/snippet]
  doc::check(message == "device assertion failed: row sums must be positive (program (1, 0, 0), "
                        "the scalar)",
             "the assert names its message and program: " + message);
  doc::check(out[0] == 0.125f && out[3] == 0.25f, "program 0 ran to the end");
}

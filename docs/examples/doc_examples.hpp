/// @file doc_examples.hpp
/// The code examples of docs/*.md, as programs that compile and run.
///
/// Each docs/examples/<topic>.cpp registers examples with DOC_EXAMPLE (a function that runs kernels
/// on the interpreter and checks their results) or DOC_IR (a function that returns printed IR).
/// Regions of a source file between `// [snippet:NAME]` and `// [/snippet]` are quoted in the
/// markdown after a `<!-- snippet: <topic>.cpp#NAME -->` line; DOC_IR results are quoted after
/// `<!-- ir: NAME -->`. `docs_examples --check-snippets docs/` verifies that the quotes match
/// (see main.cpp).
#pragma once

#include <tk/tk.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <source_location>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace doc {

struct example {
  std::string name;
  void (*run)();       ///< runs kernels and throws on a wrong result, or null
  std::string (*ir)(); ///< returns printed IR, or null
};

inline std::vector<example> &registry() {
  static std::vector<example> all;
  return all;
}

struct registrar {
  registrar(const char *name, void (*run)(), std::string (*ir)()) {
    registry().push_back({name, run, ir});
  }
};

/// Throws when `ok` is false, naming the caller's line.
inline void check(bool ok, const std::string &what,
                  std::source_location loc = std::source_location::current()) {
  if (!ok)
    throw std::runtime_error(std::string(loc.file_name()) + ":" + std::to_string(loc.line()) +
                             ": check failed: " + what);
}

/// Throws unless |got - want| <= tol * max(1, |want|).
inline void check_near(double got, double want, double tol = 1e-6,
                       std::source_location loc = std::source_location::current()) {
  std::ostringstream s;
  s << "got " << got << ", want " << want;
  check(std::fabs(got - want) <= tol * std::fmax(1.0, std::fabs(want)), s.str(), loc);
}

/// Sets TK_INTERPRET=1 for its lifetime where there is no GPU, so that the examples run anyway.
class interpret_without_gpu {
public:
  interpret_without_gpu() {
    if (tk::gpu_available())
      return;
    if (const char *v = std::getenv("TK_INTERPRET"))
      old_ = v;
    ::setenv("TK_INTERPRET", "1", 1);
    set_ = true;
  }
  ~interpret_without_gpu() {
    if (set_ && old_)
      ::setenv("TK_INTERPRET", old_->c_str(), 1);
    else if (set_)
      ::unsetenv("TK_INTERPRET");
  }
  interpret_without_gpu(const interpret_without_gpu &) = delete;
  interpret_without_gpu &operator=(const interpret_without_gpu &) = delete;

private:
  bool set_ = false;
  std::optional<std::string> old_;
};

} // namespace doc

#define DOC_CAT2(a, b) a##b
#define DOC_CAT(a, b) DOC_CAT2(a, b)

/// Defines and registers an example that runs kernels: `DOC_EXAMPLE("memory.masked_copy") { ... }`.
#define DOC_EXAMPLE(NAME)                                                                          \
  static void DOC_CAT(doc_example_, __LINE__)();                                                   \
  static const doc::registrar DOC_CAT(doc_registrar_,                                              \
                                      __LINE__){NAME, DOC_CAT(doc_example_, __LINE__), nullptr};   \
  static void DOC_CAT(doc_example_, __LINE__)()

/// Defines and registers a function returning printed IR, quoted in the docs.
#define DOC_IR(NAME)                                                                               \
  static std::string DOC_CAT(doc_ir_, __LINE__)();                                                 \
  static const doc::registrar DOC_CAT(doc_registrar_, __LINE__){NAME, nullptr,                     \
                                                                DOC_CAT(doc_ir_, __LINE__)};       \
  static std::string DOC_CAT(doc_ir_, __LINE__)()

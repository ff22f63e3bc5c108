/// @file scoped_env.hpp
/// An environment variable set (or, with nullptr, unset) for a scope, then restored: for the
/// tests of code that reads TK_* variables, the cache directory, the driver's library, ...
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace tk_test {

class scoped_env {
public:
  scoped_env(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    set(value);
  }
  ~scoped_env() { set(old_ ? old_->c_str() : nullptr); }
  scoped_env(const scoped_env &) = delete;
  scoped_env &operator=(const scoped_env &) = delete;

private:
  void set(const char *value) {
#ifdef _WIN32
    _putenv_s(name_.c_str(), value ? value : "");
#else
    if (value)
      setenv(name_.c_str(), value, 1);
    else
      unsetenv(name_.c_str());
#endif
  }
  std::string name_;
  std::optional<std::string> old_;
};

} // namespace tk_test

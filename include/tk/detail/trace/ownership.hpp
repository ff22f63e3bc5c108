/// @file ownership.hpp
/// The few ownership and callable types the headers need, kept small so that including TileKit
/// does not pull in `<memory>` and `<functional>` (together with `<sstream>` and `<algorithm>`,
/// about a fifth of the cost of `#include <tk/tk.hpp>`; docs/build-cost.md):
///
/// - `owned<T>`: sole ownership of a heap object, like `std::unique_ptr<T>`;
/// - `counted<T>`: shared ownership through a count inside the object (`refcounted`), like
///   LLVM's `ThreadSafeRefCountedBase`, so handles may be copied and dropped on any thread;
/// - `function_ref<R(A...)>`: a non-owning reference to a callable, for callbacks that are
///   called before the call that receives them returns;
/// - `callback<R(A...)>`: an owning, copyable callable (copies share it), for callbacks that are
///   stored.
#pragma once

#include <atomic>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tk::detail {

template <class T> class owned {
public:
  owned() = default;
  owned(std::nullptr_t) {}
  explicit owned(T *p) : p_(p) {}
  owned(owned &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <class U>
    requires std::is_convertible_v<U *, T *>
  owned(owned<U> &&o) noexcept : p_(o.release()) {}
  owned &operator=(owned o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~owned() { delete p_; }

  T *get() const { return p_; }
  T *operator->() const { return p_; }
  T &operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  T *release() { return std::exchange(p_, nullptr); }

private:
  T *p_ = nullptr;
};

template <class T, class... Args> owned<T> make_owned(Args &&...args) {
  return owned<T>(new T(std::forward<Args>(args)...));
}

template <class T> class counted;

/// The base of objects owned through `counted`.
class refcounted {
public:
  refcounted() = default;
  refcounted(const refcounted &) {} // a copy is a new object: its count starts at zero
  refcounted &operator=(const refcounted &) { return *this; }

private:
  template <class> friend class counted;
  mutable std::atomic<unsigned> refs_{0};
};

template <class T> class counted {
public:
  counted() = default;
  counted(std::nullptr_t) {}
  explicit counted(T *p) : p_(p) { retain(); }
  counted(const counted &o) : p_(o.p_) { retain(); }
  counted(counted &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <class U>
    requires std::is_convertible_v<U *, T *>
  counted(counted<U> o) : p_(o.release()) {}
  counted &operator=(counted o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~counted() { release_ref(); }

  T *get() const { return p_; }
  T *operator->() const { return p_; }
  T &operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  friend bool operator==(const counted &a, const counted &b) { return a.p_ == b.p_; }

  /// Gives up this reference without dropping the count (for a conversion).
  T *release() { return std::exchange(p_, nullptr); }

private:
  void retain() const {
    if (p_)
      p_->refs_.fetch_add(1, std::memory_order_relaxed);
  }
  void release_ref() {
    if (p_ && p_->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      destroy(p_);
  }
  // Not inlined: GCC 12's -Wuse-after-free does not see that a count which reached zero is never
  // read again, and warns in every caller the delete is inlined into.
#if defined(__GNUC__)
  [[gnu::noinline]]
#endif
  static void destroy(T *p) {
    delete p;
  }
  T *p_ = nullptr;
};

template <class T, class... Args> counted<T> make_counted(Args &&...args) {
  return counted<T>(new T(std::forward<Args>(args)...));
}

template <class Signature> class function_ref;

template <class R, class... A> class function_ref<R(A...)> {
public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, function_ref> &&
             std::is_invocable_r_v<R, F &, A...>)
  function_ref(F &&f) // NOLINT: converts implicitly, like std::function
      : object_(const_cast<void *>(static_cast<const void *>(&f))), call_([](void *o, A... a) -> R {
          return (*static_cast<std::remove_reference_t<F> *>(o))(std::forward<A>(a)...);
        }) {}

  R operator()(A... a) const { return call_(object_, std::forward<A>(a)...); }

private:
  void *object_;
  R (*call_)(void *, A...);
};

template <class Signature> class callback;

template <class R, class... A> class callback<R(A...)> {
public:
  callback() = default;
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, callback> &&
             std::is_invocable_r_v<R, std::decay_t<F> &, A...>)
  callback(F &&f) // NOLINT: converts implicitly, like std::function
      : holder_(counted<holder>(new model<std::decay_t<F>>(std::forward<F>(f)))) {}

  explicit operator bool() const { return bool(holder_); }
  R operator()(A... a) const { return holder_->call(std::forward<A>(a)...); }

private:
  struct holder : refcounted {
    virtual ~holder() = default;
    virtual R call(A... a) = 0;
  };
  template <class F> struct model final : holder {
    explicit model(F f) : f(std::move(f)) {}
    R call(A... a) override { return f(std::forward<A>(a)...); }
    F f;
  };
  counted<holder> holder_;
};

} // namespace tk::detail

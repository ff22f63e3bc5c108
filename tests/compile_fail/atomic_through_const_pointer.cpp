// expect: static assertion failed.*tk::atomic_xchg: the pointer points to const
// tk::atomic_xchg through tk::ptr<const T>: declare the parameter tk::ptr<T>.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<const std::int32_t> lock) {
    auto old = tk::atomic_xchg(lock, 0);
    (void)old;
  });
  (void)k;
}

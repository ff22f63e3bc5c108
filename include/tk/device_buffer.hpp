/// @file device_buffer.hpp
/// `tk::device_buffer<T>`: an array in GPU memory, for programs that have no CUDA runtime of
/// their own to allocate with. It owns `size()` elements allocated with cuMemAlloc in the
/// context launches use (the calling thread's current one, else device 0's primary context) and
/// copies to and from host memory. A launch takes the buffer itself (or `data()`) for a
/// `tk::ptr<T>` parameter; on the interpreter it then runs on a host copy, written back after.
///
///     tk::device_buffer<float> x(host_x), y(host_x.size());
///     kernel.launch(grid, y, x, n);
///     y.download(host_y);
///
/// Copies are synchronous and ordered after work on the default stream: a download waits for
/// launches on the default stream (launch_options::stream == nullptr); after launches on a
/// stream of your own, synchronize it first.
#pragma once

#include <tk/detail/runtime/driver.hpp>
#include <tk/error.hpp>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace tk {

template <class T> class device_buffer {
  static_assert(std::is_trivially_copyable_v<T> && !std::is_const_v<T>,
                "tk::device_buffer<T> holds trivially copyable, non-const elements");

public:
  device_buffer() = default;

  /// `count` uninitialized elements.
  explicit device_buffer(std::size_t count,
                         std::source_location where = std::source_location::current())
      : size_(count) {
    const detail::cu::driver &driver = detail::cu::get_driver(where);
    context_ = driver.launch_context(where);
    if (count > 0)
      driver.check(driver.mem_alloc(&address_, bytes()), "cuMemAlloc", where);
  }

  /// A copy of `host`.
  explicit device_buffer(std::span<const T> host,
                         std::source_location where = std::source_location::current())
      : device_buffer(host.size(), where) {
    upload(host, where);
  }
  explicit device_buffer(const std::vector<T> &host,
                         std::source_location where = std::source_location::current())
      : device_buffer(std::span<const T>(host), where) {}

  device_buffer(device_buffer &&other) noexcept
      : address_(std::exchange(other.address_, 0)), size_(std::exchange(other.size_, 0)),
        context_(std::exchange(other.context_, nullptr)) {}
  device_buffer &operator=(device_buffer &&other) noexcept {
    if (this != &other) {
      release();
      address_ = std::exchange(other.address_, 0);
      size_ = std::exchange(other.size_, 0);
      context_ = std::exchange(other.context_, nullptr);
    }
    return *this;
  }
  device_buffer(const device_buffer &) = delete;
  device_buffer &operator=(const device_buffer &) = delete;
  ~device_buffer() { release(); }

  /// The device address, as the pointer a launch takes (not dereferenceable on the host).
  T *data() const { return reinterpret_cast<T *>(static_cast<std::uintptr_t>(address_)); }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }

  /// Copies `host` to the first `host.size()` elements.
  void upload(std::span<const T> host,
              std::source_location where = std::source_location::current()) {
    check_size(host.size(), "upload", where);
    if (!host.empty())
      driver(where).check(driver(where).memcpy_htod(address_, host.data(), host.size_bytes()),
                          "cuMemcpyHtoD", where);
  }

  /// Copies the first `host.size()` elements to `host`.
  void download(std::span<T> host,
                std::source_location where = std::source_location::current()) const {
    check_size(host.size(), "download", where);
    if (!host.empty())
      driver(where).check(driver(where).memcpy_dtoh(host.data(), address_, host.size_bytes()),
                          "cuMemcpyDtoH", where);
  }

  /// The elements, copied to the host.
  std::vector<T> to_host(std::source_location where = std::source_location::current()) const {
    std::vector<T> host(size_);
    download(host, where);
    return host;
  }

  /// Sets every byte to `byte` (0xFF makes floats NaN: a poisoned output).
  void fill_bytes(unsigned char byte,
                  std::source_location where = std::source_location::current()) {
    if (size_ > 0)
      driver(where).check(driver(where).memset_d8(address_, byte, bytes()), "cuMemsetD8", where);
  }

private:
  detail::cu::deviceptr address_ = 0;
  std::size_t size_ = 0;
  detail::cu::context context_ = nullptr;

  static const detail::cu::driver &driver(std::source_location where) {
    return detail::cu::get_driver(where);
  }

  void check_size(std::size_t n, const char *what, std::source_location where) const {
    if (n > size_)
      detail::fail(where, "tk::device_buffer ", what, " of ", n, " elements; the buffer holds ",
                   size_);
  }

  /// Frees the memory in the context it came from; errors are ignored (a destructor must not
  /// throw, and a context torn down at exit has freed it already).
  void release() noexcept {
    if (!address_)
      return;
    try {
      const detail::cu::driver &d = detail::cu::get_driver();
      if (d.ctx_push_current(context_) == detail::cu::success) {
        d.mem_free(address_);
        detail::cu::context popped = nullptr;
        d.ctx_pop_current(&popped);
      }
    } catch (...) {
    }
    address_ = 0;
  }
};

} // namespace tk

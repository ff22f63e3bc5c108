/// @file device_buffer.hpp
/// `tk::device_buffer<T>`: an array in GPU memory, for programs that have no CUDA runtime of
/// their own to allocate with. It owns `size()` elements allocated with cuMemAlloc in the
/// context launches use (the calling thread's current one, else device 0's primary context) and
/// copies to and from host memory. A launch takes the buffer itself (or `data()`) for a
/// `tk::ptr<T>` parameter; on the interpreter it then runs on a host copy, written back after.
///
/// Where the interpreter runs the program's launches, the buffer is host memory instead, so that
/// one program runs on both paths: when TK_INTERPRET selects the interpreter as the buffer is
/// made, or when there is no usable driver or GPU. The interpreter then works on the buffer
/// itself, and a GPU launch refuses it (`on_host()`).
///
///     tk::device_buffer<float> x(host_x), y(host_x.size());
///     kernel.launch(grid, y, x, n);
///     y.download(host_y);
///
/// Copies are synchronous and ordered after work on the default stream: a download waits for
/// launches on the default stream (launch_options::stream == nullptr); after launches on a
/// stream of your own, synchronize it first.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/runtime/driver.hpp>
#include <tk/device.hpp>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace tk {

namespace detail {

/// Bytes of GPU memory, allocated with cuMemAlloc in the context launches use, freed in it:
/// what every `device_buffer<T>` holds. Host memory instead when the interpreter will run the
/// launches (TK_INTERPRET is set, or there is no usable driver or GPU): see the file comment.
/// Errors name `where`, the user's call.
class device_memory {
public:
  device_memory() = default;
  /// On `device` (its primary context), or in the context launches use when it is -1.
  TK_DECL device_memory(std::size_t bytes, int device, std::source_location where);
  device_memory(device_memory &&other) noexcept
      : address_(std::exchange(other.address_, 0)), bytes_(std::exchange(other.bytes_, 0)),
        context_(std::exchange(other.context_, nullptr)),
        on_host_(std::exchange(other.on_host_, false)) {}
  device_memory &operator=(device_memory &&other) noexcept {
    if (this != &other) {
      release();
      address_ = std::exchange(other.address_, 0);
      bytes_ = std::exchange(other.bytes_, 0);
      context_ = std::exchange(other.context_, nullptr);
      on_host_ = std::exchange(other.on_host_, false);
    }
    return *this;
  }
  device_memory(const device_memory &) = delete;
  device_memory &operator=(const device_memory &) = delete;
  ~device_memory() { release(); }

  /// The device address, or the host address when `on_host()`.
  cu::deviceptr address() const { return address_; }
  std::size_t bytes() const { return bytes_; }
  /// Whether the memory is on the host, for the interpreter (a GPU launch refuses it).
  bool on_host() const { return on_host_; }

  /// Copies `bytes` from `host` to the start of the memory.
  TK_DECL void upload(const void *host, std::size_t bytes, std::source_location where);
  /// Copies the first `bytes` to `host`.
  TK_DECL void download(void *host, std::size_t bytes, std::source_location where) const;
  /// The device the memory is on; -1 when `on_host()`.
  TK_DECL int device(std::source_location where) const;
  /// Sets every byte to `byte`.
  TK_DECL void fill_bytes(unsigned char byte, std::source_location where);

private:
  cu::deviceptr address_ = 0;
  std::size_t bytes_ = 0;
  cu::context context_ = nullptr;
  bool on_host_ = false;

  /// Frees the memory in the context it came from; errors are ignored (a destructor must not
  /// throw, and a context torn down at exit has freed it already).
  TK_DECL void release() noexcept;
};

/// The error for a copy of `count` elements (`what`: "upload", "download") to or from a buffer
/// of `size`, when it does not fit.
TK_DECL void check_copy_size(const char *what, std::size_t count, std::size_t size,
                             std::source_location where);

} // namespace detail

template <class T> class device_buffer {
  static_assert(std::is_trivially_copyable_v<T> && !std::is_const_v<T>,
                "tk::device_buffer<T> holds trivially copyable, non-const elements");

public:
  device_buffer() = default;

  /// `count` uninitialized elements.
  explicit device_buffer(std::size_t count,
                         std::source_location where = std::source_location::current())
      : memory_(count * sizeof(T), -1, where), size_(count) {}
  /// `count` uninitialized elements on device `on.index` (the context launches use is not
  /// consulted); host memory where launches go to the interpreter, as for the others.
  device_buffer(std::size_t count, on_device on,
                std::source_location where = std::source_location::current())
      : memory_(count * sizeof(T), on.index, where), size_(count) {}
  /// A copy of `host` on device `on.index`.
  device_buffer(const std::vector<T> &host, on_device on,
                std::source_location where = std::source_location::current())
      : memory_(host.size() * sizeof(T), on.index, where), size_(host.size()) {
    copy_in(host.data(), host.size(), where);
  }

  /// A copy of `host`: a std::vector<T>, or a std::span of T or const T.
  explicit device_buffer(const std::vector<T> &host,
                         std::source_location where = std::source_location::current())
      : device_buffer(host.data(), host.size(), where) {}
  template <std::size_t Extent>
  explicit device_buffer(std::span<const T, Extent> host,
                         std::source_location where = std::source_location::current())
      : device_buffer(host.data(), host.size(), where) {}
  template <std::size_t Extent>
  explicit device_buffer(std::span<T, Extent> host,
                         std::source_location where = std::source_location::current())
      : device_buffer(host.data(), host.size(), where) {}

  device_buffer(device_buffer &&other) noexcept
      : memory_(std::move(other.memory_)), size_(std::exchange(other.size_, 0)) {}
  device_buffer &operator=(device_buffer &&other) noexcept {
    memory_ = std::move(other.memory_);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }

  /// The device address, as the pointer a launch takes (not dereferenceable on the host); the
  /// host address when the buffer is host memory for the interpreter (`on_host()`).
  T *data() const { return reinterpret_cast<T *>(static_cast<std::uintptr_t>(memory_.address())); }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }
  /// Whether the buffer is host memory: made while TK_INTERPRET selected the interpreter, or
  /// without a usable driver or GPU. Launches on the interpreter take it; GPU launches do not.
  bool on_host() const { return memory_.on_host(); }

  /// Copies `host` to the first `host.size()` elements. (The spans are taken as templates, and
  /// vectors have overloads of their own, so that a call with a vector does not check the
  /// conversion to a span, which costs a file that calls it noticeably more to compile.)
  void upload(const std::vector<T> &host,
              std::source_location where = std::source_location::current()) {
    copy_in(host.data(), host.size(), where);
  }
  template <std::size_t Extent>
  void upload(std::span<const T, Extent> host,
              std::source_location where = std::source_location::current()) {
    copy_in(host.data(), host.size(), where);
  }
  template <std::size_t Extent>
  void upload(std::span<T, Extent> host,
              std::source_location where = std::source_location::current()) {
    copy_in(host.data(), host.size(), where);
  }

  /// Copies the first `host.size()` elements to `host`.
  void download(std::vector<T> &host,
                std::source_location where = std::source_location::current()) const {
    copy_out(host.data(), host.size(), where);
  }
  template <std::size_t Extent>
  void download(std::span<T, Extent> host,
                std::source_location where = std::source_location::current()) const {
    copy_out(host.data(), host.size(), where);
  }

  /// The device the buffer is on; -1 when it is host memory for the interpreter (`on_host()`).
  int device(std::source_location where = std::source_location::current()) const {
    return memory_.device(where);
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
    memory_.fill_bytes(byte, where);
  }

  /// The memory itself, for launches (a launch on the interpreter copies GPU memory to the host
  /// and back, and uses host memory as it is).
  detail::device_memory &memory() { return memory_; }
  const detail::device_memory &memory() const { return memory_; }

private:
  detail::device_memory memory_;
  std::size_t size_ = 0;

  device_buffer(const T *host, std::size_t count, std::source_location where)
      : device_buffer(count, where) {
    copy_in(host, count, where);
  }
  void copy_in(const T *host, std::size_t count, std::source_location where) {
    detail::check_copy_size("upload", count, size_, where);
    memory_.upload(host, count * sizeof(T), where);
  }
  void copy_out(T *host, std::size_t count, std::source_location where) const {
    detail::check_copy_size("download", count, size_, where);
    memory_.download(host, count * sizeof(T), where);
  }
};

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/device_buffer.ipp>
#endif

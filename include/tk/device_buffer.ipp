/// @file device_buffer.ipp
/// The bodies of the functions device_buffer.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/device_buffer.hpp>
#include <tk/error.hpp>
#include <tk/launch_options.hpp>

#include <cstring>
#include <new>

namespace tk::detail {

/// Host memory is aligned as cuMemAlloc aligns, so that launches specialize on it alike.
inline constexpr std::align_val_t host_memory_alignment{256};

TK_DECL device_memory::device_memory(std::size_t bytes, int device, std::source_location where)
    : bytes_(bytes) {
  if (device < -1)
    fail(where, "tk::on_device(", device, "): a device index is 0 or more");
  // The driver is asked only when TK_INTERPRET does not select the interpreter, and a driver
  // that cannot run kernels here (none, a stub, too old, no GPU) leaves the interpreter, which
  // takes host memory. A GPU that fails later (allocation, context) is an error, as it was.
  const cu::driver *driver = nullptr;
  if (!interpret_requested()) {
    try {
      driver = &cu::get_driver(where);
    } catch (const error &) {
    }
  }
  if (!driver) {
    on_host_ = true;
    if (bytes > 0)
      address_ = reinterpret_cast<std::uintptr_t>(::operator new(bytes, host_memory_alignment));
    return;
  }
  context_ = device < 0 ? driver->launch_context(where) : driver->device_context(device, where);
  const cu::scoped_context in_context(*driver, context_, where);
  if (bytes > 0)
    driver->check(driver->mem_alloc(&address_, bytes), "cuMemAlloc", where);
}

TK_DECL int device_memory::device(std::source_location where) const {
  return on_host_ ? -1 : cu::get_driver(where).device_of(context_, where).ordinal;
}

TK_DECL void device_memory::upload(const void *host, std::size_t bytes,
                                   std::source_location where) {
  if (bytes > 0 && on_host_) {
    std::memcpy(reinterpret_cast<void *>(address_), host, bytes);
  } else if (bytes > 0) {
    const cu::driver &driver = cu::get_driver(where);
    const cu::scoped_context in_context(driver, context_, where);
    driver.check(driver.memcpy_htod(address_, host, bytes), "cuMemcpyHtoD", where);
  }
}

TK_DECL void device_memory::download(void *host, std::size_t bytes,
                                     std::source_location where) const {
  if (bytes > 0 && on_host_) {
    std::memcpy(host, reinterpret_cast<const void *>(address_), bytes);
  } else if (bytes > 0) {
    const cu::driver &driver = cu::get_driver(where);
    const cu::scoped_context in_context(driver, context_, where);
    driver.check(driver.memcpy_dtoh(host, address_, bytes), "cuMemcpyDtoH", where);
  }
}

TK_DECL void device_memory::fill_bytes(unsigned char byte, std::source_location where) {
  if (bytes_ > 0 && on_host_) {
    std::memset(reinterpret_cast<void *>(address_), byte, bytes_);
  } else if (bytes_ > 0) {
    const cu::driver &driver = cu::get_driver(where);
    const cu::scoped_context in_context(driver, context_, where);
    driver.check(driver.memset_d8(address_, byte, bytes_), "cuMemsetD8", where);
  }
}

TK_DECL void device_memory::release() noexcept {
  if (!address_)
    return;
  if (on_host_) {
    ::operator delete(reinterpret_cast<void *>(address_), host_memory_alignment);
    address_ = 0;
    return;
  }
  try {
    const cu::driver &d = cu::get_driver();
    if (d.ctx_push_current(context_) == cu::success) {
      d.mem_free(address_);
      cu::context popped = nullptr;
      d.ctx_pop_current(&popped);
    }
  } catch (...) {
  }
  address_ = 0;
}

TK_DECL void check_copy_size(const char *what, std::size_t count, std::size_t size,
                             std::source_location where) {
  if (count > size)
    fail(where, "tk::device_buffer ", what, " of ", count, " elements; the buffer holds ", size);
}

} // namespace tk::detail

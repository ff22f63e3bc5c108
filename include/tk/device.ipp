/// @file device.ipp
/// The bodies of the functions device.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/runtime/driver.hpp>
#include <tk/device.hpp>
#include <tk/error.hpp>
#include <tk/launch_options.hpp>

namespace tk {

TK_DECL int device_count() {
  try {
    return detail::cu::get_driver().device_count;
  } catch (const error &) {
    return 0;
  }
}

TK_DECL int current_device(std::source_location where) {
  const detail::cu::driver &driver = detail::cu::get_driver(where);
  const detail::cu::context ctx = driver.current_context(where);
  return ctx ? driver.device_of(ctx, where).ordinal : 0;
}

TK_DECL void set_device(int index, std::source_location where) {
  const detail::cu::driver &driver = detail::cu::get_driver(where);
  driver.check(driver.ctx_set_current(driver.device_context(index, where)), "cuCtxSetCurrent",
               where);
}

TK_DECL device_properties get_device_properties(int index, std::source_location where) {
  const detail::cu::driver &driver = detail::cu::get_driver(where);
  if (index == -1)
    index = current_device(where);
  else
    (void)driver.device_context(index, where); // the error for an ordinal it does not have
  const detail::cu::device_info &d = driver.device_at(index, where);
  device_properties p;
  p.index = d.ordinal;
  p.name = d.name;
  p.major = d.major;
  p.minor = d.minor;
  p.target = d.target;
  p.multiprocessor_count = d.sm_count;
  p.total_memory = d.total_memory;
  p.l2_cache_size = d.l2_cache_bytes;
  p.max_shared_memory_per_block = d.max_shared_bytes_optin;
  p.max_shared_memory_per_multiprocessor = d.max_shared_bytes_per_sm;
  p.max_registers_per_multiprocessor = d.max_registers_per_sm;
  p.warp_size = d.warp_size;
  p.clock_rate_khz = d.clock_khz;
  p.memory_clock_rate_khz = d.memory_clock_khz;
  p.memory_bus_width = d.memory_bus_bits;
  p.pci_bus_id = d.pci_bus;
  p.pci_device_id = d.pci_device;
  return p;
}

TK_DECL device_guard::device_guard(int index, std::source_location where) {
  if (interpret_requested())
    return;
  const detail::cu::driver *driver = nullptr;
  try {
    driver = &detail::cu::get_driver(where);
  } catch (const error &) {
    return; // launches go to the interpreter
  }
  const detail::cu::context ctx = driver->device_context(index, where);
  previous_ = driver->current_context(where);
  driver->check(driver->ctx_set_current(ctx), "cuCtxSetCurrent", where);
  active_ = true;
}

TK_DECL device_guard::~device_guard() {
  if (!active_)
    return;
  try {
    const detail::cu::driver &driver = detail::cu::get_driver();
    driver.ctx_set_current(static_cast<detail::cu::context>(previous_));
  } catch (...) {
  }
}

} // namespace tk

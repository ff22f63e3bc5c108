/// @file kernel.ipp
/// The bodies of the functions kernel.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/kernel.hpp>

namespace tk {

TK_DECL std::string gpu_unavailable_reason() {
  try {
    const detail::cu::driver &driver = detail::cu::get_driver();
    (void)driver.device_of(driver.launch_context());
    (void)detail::get_backend();
    return "";
  } catch (const error &e) {
    return e.message();
  }
}

TK_DECL std::string gpu_name() {
  try {
    const detail::cu::driver &driver = detail::cu::get_driver();
    const detail::cu::device_info &device = driver.device_of(driver.launch_context());
    return device.name + " (" + device.target + ")";
  } catch (const error &) {
    return "";
  }
}

TK_DECL int gpu_multiprocessor_count() {
  try {
    const detail::cu::driver &driver = detail::cu::get_driver();
    return driver.device_of(driver.launch_context()).sm_count;
  } catch (const error &) {
    return 0;
  }
}

namespace detail {

TK_DECL std::uint64_t parameter_mask(const std::vector<int> &indices, const char *option,
                                     const std::string &kernel, std::source_location loc) {
  std::uint64_t mask = 0;
  for (int index : indices) {
    if (index < 0 || index >= 64)
      fail(loc, "tk::jit_options::", option, " of kernel '", kernel, "' names parameter ", index,
           "; parameters are numbered from 0, and at most 64 can be named");
    mask |= std::uint64_t{1} << index;
  }
  return mask;
}

} // namespace detail

} // namespace tk

/// @file asserts.ipp
/// The bodies of the functions asserts.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/runtime/asserts.hpp>
#include <tk/detail/runtime/driver.hpp>

#include <mutex>

namespace tk::detail {

/// A loaded kernel with asserts and its record (pinned host memory, mapped for the GPU; kept
/// for the life of the process, as loaded modules are).
struct registered_asserts {
  volatile assert_record *record;
  std::string kernel;
  std::vector<assert_site> sites;
};

struct assert_registry {
  std::mutex mutex;
  std::vector<registered_asserts> kernels;
};

/// The process's one registry: shared by every file of the program (an inline function's
/// static), so a kernel loaded in one file has its assert named by a call in another.
TK_DECL assert_registry &asserts_registry() {
  static assert_registry *registry = new assert_registry; // outlives static destructors
  return *registry;
}

inline constexpr unsigned mem_host_alloc_portable = 0x01;  // CU_MEMHOSTALLOC_PORTABLE
inline constexpr unsigned mem_host_alloc_devicemap = 0x02; // CU_MEMHOSTALLOC_DEVICEMAP

TK_DECL void register_asserts(const cu::driver &driver, cu::module_handle module,
                              const std::string &name, std::vector<assert_site> sites,
                              std::source_location where) {
  if (!driver.module_get_global || !driver.mem_host_alloc || !driver.mem_host_get_device_pointer)
    return;
  cu::deviceptr global = 0;
  std::size_t bytes = 0;
  if (driver.module_get_global(&global, &bytes, module, "tk_assert_record") != cu::success ||
      bytes != sizeof(std::uint64_t))
    return; // compiled without asserts after all
  void *host = nullptr;
  driver.check(driver.mem_host_alloc(&host, sizeof(assert_record),
                                     mem_host_alloc_portable | mem_host_alloc_devicemap),
               "cuMemHostAlloc (device assert record)", where);
  auto *record = static_cast<assert_record *>(host);
  *record = {};
  cu::deviceptr mapped = 0;
  driver.check(driver.mem_host_get_device_pointer(&mapped, host, 0),
               "cuMemHostGetDevicePointer (device assert record)", where);
  const std::uint64_t address = mapped;
  driver.check(driver.memcpy_htod(global, &address, sizeof(address)),
               "cuMemcpyHtoD (device assert record)", where);
  assert_registry &registry = asserts_registry();
  const std::lock_guard<std::mutex> lock(registry.mutex);
  registry.kernels.push_back({record, name, std::move(sites)});
}

TK_DECL void report_device_assert(const char *what, const std::string &described,
                                  std::source_location where) {
  assert_registry &registry = asserts_registry();
  std::unique_lock<std::mutex> lock(registry.mutex);
  for (const registered_asserts &k : registry.kernels) {
    const std::uint32_t id = k.record->id_plus_one;
    if (id == 0 || id > k.sites.size())
      continue;
    const assert_site site = k.sites[id - 1];
    const std::string program = "(" + std::to_string(k.record->program[0]) + ", " +
                                std::to_string(k.record->program[1]) + ", " +
                                std::to_string(k.record->program[2]) + ")";
    const std::uint32_t element = k.record->element;
    const std::string kernel = k.kernel;
    lock.unlock();
    fail(site.loc, "device assertion failed in kernel '", kernel,
         "': ", site.message.empty() ? std::string("(no message)") : site.message, " (program ",
         program, ", element ", element, " of the block); reported by ", what,
         ". The CUDA context cannot be used after this error: restart the process");
  }
  lock.unlock();
  fail(where, what, " failed: ", described,
       ": a device assertion failed in a kernel launched before this call; its message is "
       "printed above by the GPU. The CUDA context cannot be used after this error");
}

} // namespace tk::detail

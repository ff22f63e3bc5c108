/// @file driver.ipp
/// The bodies of the functions driver.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/runtime/asserts.hpp>
#include <tk/detail/runtime/backend_loader.hpp>
#include <tk/detail/runtime/driver.hpp>

namespace tk::detail::cu {

TK_DECL const char *loaded_backend_targets(std::source_location where) {
  return get_backend(where).targets();
}

TK_DECL std::string target_name(int major, int minor, std::string_view backend_targets) {
  const std::string base = "sm_" + std::to_string(major * 10 + minor);
  const std::string targets = " " + std::string(backend_targets) + " ";
  if (targets.find(" " + base + "a ") != std::string::npos)
    return base + "a";
  if (targets.find(" " + base + " ") != std::string::npos)
    return base;
  return {};
}

TK_DECL owned<driver> driver::load(const std::string &library, std::source_location where) {
  std::string why;
  void *handle = os::open_library(library, why);
  if (!handle)
    fail(where, "no CUDA driver: cannot load ", library, " (", why,
         "); install the NVIDIA driver, or ", interpreter_hint);
  auto d = make_owned<driver>();
  d->library = library;
  // These two are looked up by name: they predate versioning and never changed.
  d->driver_get_version = reinterpret_cast<decltype(d->driver_get_version)>(
      os::find_symbol(handle, "cuDriverGetVersion"));
  d->get_proc_address = reinterpret_cast<decltype(d->get_proc_address)>(
      os::find_symbol(handle, "cuGetProcAddress_v2"));
  if (d->driver_get_version) {
    const result r = d->driver_get_version(&d->version);
    // The toolkit's lib64/stubs/libcuda.so lets programs link without a driver and answers
    // every call with CUDA_ERROR_STUB_LIBRARY; on LD_LIBRARY_PATH it hides the real driver.
    if (r == error_stub_library || (r != success && library.find("/stubs/") != std::string::npos))
      fail(where, library,
           " is the CUDA toolkit's stub library, not a driver: it lets programs link, but "
           "cannot run kernels (cuDriverGetVersion returned ",
           r == error_stub_library ? "CUDA_ERROR_STUB_LIBRARY" : std::to_string(r),
           "); install the NVIDIA driver, remove the toolkit's stubs directory from "
           "LD_LIBRARY_PATH, or ",
           interpreter_hint);
    if (r != success)
      d->version = 0;
  }
  if (d->version < required_version)
    fail(where, "the CUDA driver is too old: ", library, " supports CUDA ",
         d->version > 0 ? version_text(d->version) : std::string("(unknown)"),
         " and TileKit needs CUDA ", version_text(required_version),
         " or newer; update the NVIDIA driver (R525 or newer), or ", interpreter_hint);
  if (!d->get_proc_address)
    fail(where, "the CUDA driver ", library, " (CUDA ", version_text(d->version),
         ") lacks cuGetProcAddress_v2; update the NVIDIA driver, or ", interpreter_hint);
  d->resolve_all(where);
  if (const result r = d->init(0); r != success)
    fail(where, "no GPU: the CUDA driver failed to initialize (", d->describe(r),
         "); check that nvidia-smi lists a GPU, or ", interpreter_hint);
  if (d->device_get_count(&d->device_count) != success || d->device_count < 1) {
    const auto visible = os::environment("CUDA_VISIBLE_DEVICES");
    fail(where, "no GPU: the CUDA driver sees no device",
         visible ? " (CUDA_VISIBLE_DEVICES=\"" + *visible + "\")" : std::string(),
         "; check that nvidia-smi lists a GPU, or ", interpreter_hint);
  }
  d->devices_ = std::vector<device_slot>(static_cast<std::size_t>(d->device_count));
  for (int i = 0; i < d->device_count; ++i)
    d->check(d->device_get(&d->devices_[static_cast<std::size_t>(i)].handle, i), "cuDeviceGet",
             where);
  return d;
}

TK_DECL std::string driver::describe(result r) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (get_error_name(r, &name) != success || !name)
    return "CUresult " + std::to_string(r);
  if (get_error_string(r, &text) != success || !text)
    return name;
  return std::string(name) + " (" + text + ")";
}

TK_DECL void driver::check(result r, const char *what, std::source_location where) const {
  if (r == error_assert)
    report_device_assert(what, describe(r), where);
  if (r != success)
    fail(where, what, " failed: ", describe(r));
}

TK_DECL context driver::current_context(std::source_location where) const {
  context ctx = nullptr;
  check(ctx_get_current(&ctx), "cuCtxGetCurrent", where);
  return ctx;
}

TK_DECL context driver::launch_context(std::source_location where) const {
  if (const context ctx = current_context(where))
    return ctx;
  const context primary = device_context(0, where);
  check(ctx_set_current(primary), "cuCtxSetCurrent", where);
  return primary;
}

TK_DECL context driver::device_context(int ordinal, std::source_location where) const {
  if (ordinal < 0 || ordinal >= device_count)
    fail(where, "device ", ordinal, " does not exist: the CUDA driver sees ", device_count,
         device_count == 1 ? " device (0)"
                           : " devices (0 to " + std::to_string(device_count - 1) + ")",
         [&] {
           const auto visible = os::environment("CUDA_VISIBLE_DEVICES");
           return visible ? "; CUDA_VISIBLE_DEVICES=\"" + *visible + "\"" : std::string();
         }());
  device_slot &slot = devices_[static_cast<std::size_t>(ordinal)];
  // An error leaves the flag unset: the next call retains (and fails) again.
  std::call_once(slot.primary_once, [&] {
    context primary = nullptr;
    check(device_primary_ctx_retain(&primary, slot.handle), "cuDevicePrimaryCtxRetain", where);
    slot.primary = primary;
  });
  return slot.primary;
}

TK_DECL const device_info &driver::device_at(int ordinal, std::source_location where) const {
  if (ordinal < 0 || ordinal >= device_count)
    internal_error("device ordinal " + std::to_string(ordinal) + " out of range");
  device_slot &slot = devices_[static_cast<std::size_t>(ordinal)];
  // An error leaves the flag unset: the next call queries (and fails) again.
  std::call_once(slot.once, [&] { slot.info = query(ordinal, slot.handle, where); });
  return slot.info;
}

TK_DECL const device_info &driver::device_of(context ctx, std::source_location where) const {
  context current = nullptr;
  check(ctx_get_current(&current), "cuCtxGetCurrent", where);
  device_handle dev = 0;
  if (ctx == current) {
    check(ctx_get_device(&dev), "cuCtxGetDevice", where);
  } else { // cuCtxGetDevice asks about the current context only
    check(ctx_push_current(ctx), "cuCtxPushCurrent", where);
    const result r = ctx_get_device(&dev);
    context popped = nullptr;
    ctx_pop_current(&popped);
    check(r, "cuCtxGetDevice", where);
  }
  for (int i = 0; i < device_count; ++i)
    if (devices_[static_cast<std::size_t>(i)].handle == dev)
      return device_at(i, where);
  internal_error("cuCtxGetDevice returned an unknown device");
}

TK_DECL pointer_kind driver::kind_of(deviceptr ptr, std::source_location where) const {
  unsigned type = 0;
  const result r = pointer_get_attribute(&type, pointer_attribute_memory_type, ptr);
  if (r == error_invalid_value) // "not a pointer the driver knows": plain host memory
    return pointer_kind::host;
  check(r, "cuPointerGetAttribute", where);
  if (type == memory_type_host) {
    // Drivers that know pageable memory (HMM) report it as HOST too; only memory registered
    // with (or allocated by) CUDA has an address on the device.
    deviceptr on_device = 0;
    return pointer_get_attribute(&on_device, pointer_attribute_device_pointer, ptr) == success
               ? pointer_kind::host_registered
               : pointer_kind::host;
  }
  if (type == memory_type_unified)
    return pointer_kind::managed;
  unsigned managed = 0; // managed memory reports CU_MEMORYTYPE_DEVICE: ask separately
  if (pointer_get_attribute(&managed, pointer_attribute_is_managed, ptr) == success && managed)
    return pointer_kind::managed;
  return pointer_kind::device;
}

TK_DECL void driver::resolve_all(std::source_location where) {
  auto resolve = [&](auto &slot, const char *name) {
    void *pfn = nullptr;
    int status = -1;
    if (get_proc_address(name, &pfn, required_version, get_proc_address_default, &status) !=
            success ||
        status != get_proc_address_success || !pfn)
      fail(where, "the CUDA driver ", library, " (CUDA ", version_text(version), ") lacks ", name,
           "; update the NVIDIA driver, or ", interpreter_hint);
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(pfn);
  };
  // cuGetErrorName first: the messages below may need it.
  resolve(get_error_name, "cuGetErrorName");
  resolve(get_error_string, "cuGetErrorString");
  resolve(init, "cuInit");
  resolve(device_get, "cuDeviceGet");
  resolve(device_get_count, "cuDeviceGetCount");
  resolve(device_get_attribute, "cuDeviceGetAttribute");
  resolve(device_get_name, "cuDeviceGetName");
  resolve(ctx_get_current, "cuCtxGetCurrent");
  resolve(ctx_set_current, "cuCtxSetCurrent");
  resolve(ctx_get_device, "cuCtxGetDevice");
  resolve(ctx_push_current, "cuCtxPushCurrent");
  resolve(ctx_pop_current, "cuCtxPopCurrent");
  resolve(device_primary_ctx_retain, "cuDevicePrimaryCtxRetain");
  resolve(module_load_data, "cuModuleLoadData");
  resolve(module_unload, "cuModuleUnload");
  resolve(module_get_function, "cuModuleGetFunction");
  resolve(func_set_attribute, "cuFuncSetAttribute");
  resolve(func_get_attribute, "cuFuncGetAttribute");
  resolve(launch_kernel, "cuLaunchKernel");
  resolve(pointer_get_attribute, "cuPointerGetAttribute");
  resolve(event_create, "cuEventCreate");
  resolve(event_record, "cuEventRecord");
  resolve(event_synchronize, "cuEventSynchronize");
  resolve(event_elapsed_time, "cuEventElapsedTime");
  resolve(event_destroy, "cuEventDestroy");
  resolve(stream_synchronize, "cuStreamSynchronize");
  resolve(event_query, "cuEventQuery");
  resolve(stream_wait_event, "cuStreamWaitEvent");
  resolve(stream_create, "cuStreamCreate");
  resolve(stream_destroy, "cuStreamDestroy");
  resolve(ctx_synchronize, "cuCtxSynchronize");
  resolve(device_total_mem, "cuDeviceTotalMem");
  resolve(mem_get_info, "cuMemGetInfo");
  resolve(memset_d32_async, "cuMemsetD32Async");
  resolve(mem_alloc, "cuMemAlloc");
  resolve(mem_free, "cuMemFree");
  resolve(memcpy_htod, "cuMemcpyHtoD");
  resolve(memcpy_dtoh, "cuMemcpyDtoH");
  resolve(memset_d8, "cuMemsetD8");
  // Optional: only TMA, device asserts, CUDA graphs and launch attributes need these.
  auto optional = [&](auto &slot, const char *name) {
    void *pfn = nullptr;
    int status = -1;
    if (get_proc_address(name, &pfn, required_version, get_proc_address_default, &status) ==
            success &&
        status == get_proc_address_success && pfn)
      slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(pfn);
  };
  optional(tensor_map_encode_tiled, "cuTensorMapEncodeTiled");
  optional(module_get_global, "cuModuleGetGlobal");
  optional(mem_host_alloc, "cuMemHostAlloc");
  optional(mem_host_get_device_pointer, "cuMemHostGetDevicePointer");
  optional(stream_begin_capture, "cuStreamBeginCapture");
  optional(stream_end_capture, "cuStreamEndCapture");
  optional(graph_instantiate, "cuGraphInstantiateWithFlags");
  optional(graph_launch, "cuGraphLaunch");
  optional(graph_exec_destroy, "cuGraphExecDestroy");
  optional(graph_destroy, "cuGraphDestroy");
  optional(launch_kernel_ex, "cuLaunchKernelEx");
}

TK_DECL device_info driver::query(int ordinal, device_handle dev,
                                  std::source_location where) const {
  device_info info;
  info.ordinal = ordinal;
  info.handle = dev;
  char name[256] = {};
  check(device_get_name(name, static_cast<int>(sizeof name) - 1, dev), "cuDeviceGetName", where);
  info.name = name;
  auto attribute = [&](int a) {
    int value = 0;
    check(device_get_attribute(&value, a, dev), "cuDeviceGetAttribute", where);
    return value;
  };
  info.major = attribute(attribute_compute_capability_major);
  info.minor = attribute(attribute_compute_capability_minor);
  info.sm_count = attribute(attribute_multiprocessor_count);
  info.max_shared_bytes = attribute(attribute_max_shared_memory_per_block);
  info.max_shared_bytes_optin = attribute(attribute_max_shared_memory_per_block_optin);
  // Descriptive only: a driver that does not answer one leaves it 0.
  auto optional_attribute = [&](int a) {
    int value = 0;
    return device_get_attribute(&value, a, dev) == success ? value : 0;
  };
  info.warp_size = optional_attribute(attribute_warp_size);
  info.l2_cache_bytes = optional_attribute(attribute_l2_cache_size);
  info.clock_khz = optional_attribute(attribute_clock_rate);
  info.memory_clock_khz = optional_attribute(attribute_memory_clock_rate);
  info.memory_bus_bits = optional_attribute(attribute_global_memory_bus_width);
  info.max_shared_bytes_per_sm = optional_attribute(attribute_max_shared_memory_per_multiprocessor);
  info.max_registers_per_sm = optional_attribute(attribute_max_registers_per_multiprocessor);
  info.pci_bus = optional_attribute(attribute_pci_bus_id);
  info.pci_device = optional_attribute(attribute_pci_device_id);
  if (std::size_t bytes = 0; device_total_mem(&bytes, dev) == success)
    info.total_memory = bytes;
  const std::string arch = "sm_" + std::to_string(info.major * 10 + info.minor);
  if (info.major * 10 + info.minor < minimum_compute_capability)
    fail(where, "GPU ", info.name, " is ", arch, "; TileKit needs sm_", minimum_compute_capability,
         " or newer; ", interpreter_hint);
  const char *listed = backend_targets(where);
  const std::string targets = listed ? listed : "";
  info.target = target_name(info.major, info.minor, targets);
  if (info.target.empty())
    fail(where, "GPU ", info.name, " is ", arch,
         ", which this TileKit backend cannot compile for (its targets: ", targets,
         "); use a newer TileKit, or ", interpreter_hint);
  return info;
}

TK_DECL const driver &get_driver(std::source_location where) {
  struct state {
    owned<driver> d;
    std::string error;
  };
  // Never destroyed: the driver is never unloaded (modules and contexts live in it).
  static const state *const loaded = [] {
    auto *s = new state;
    try {
      s->d = driver::load(default_library);
    } catch (const tk::error &e) {
      s->error = e.message();
    }
    return s;
  }();
  if (!loaded->d)
    throw tk::error(loaded->error, where);
  return *loaded->d;
}

} // namespace tk::detail::cu

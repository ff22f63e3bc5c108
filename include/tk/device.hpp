/// @file device.hpp
/// The GPUs a program launches on. Launches go to the calling thread's current CUDA context
/// (the CUDA runtime's, when the program uses it), else to device 0's primary context; these pick
/// another device, as `torch.cuda.set_device`, `torch.cuda.device(n)` and `device=` do for
/// Triton users:
///
///     tk::device_guard on_second(1);           // this scope's launches run on device 1
///     kernel.launch(grid, {.device = 1}, ...); // or one launch
///     tk::device_buffer<float> x(n, tk::on_device(1));
///
/// Each device has its own primary context (the CUDA runtime's), compiled kernels and autotuning
/// results; a kernel is compiled once per device it runs on.
#pragma once

#include <tk/detail/config.hpp>

#include <cstddef>
#include <source_location>
#include <string>

namespace tk {

/// What a GPU is, as `torch.cuda.get_device_properties` and Triton's
/// `driver.active.utils.get_device_properties` report it.
struct device_properties {
  int index = 0;                ///< its ordinal among the devices the process sees
  std::string name;             ///< "NVIDIA H100 80GB HBM3"
  int major = 0;                ///< compute capability
  int minor = 0;                ///<
  std::string target;           ///< what TileKit compiles for it: "sm_90a"
  int multiprocessor_count = 0; ///< SMs: 132 on an H100 SXM
  std::size_t total_memory = 0; ///< bytes of device memory
  int l2_cache_size = 0;        ///< bytes
  int max_shared_memory_per_block =
      0; ///< bytes a kernel may use, opted in (Triton's max_shared_mem)
  int max_shared_memory_per_multiprocessor = 0; ///< bytes
  int max_registers_per_multiprocessor = 0;     ///<
  int warp_size = 32;                           ///<
  int clock_rate_khz = 0;                       ///< the SM clock's peak (Triton's sm_clock_rate)
  int memory_clock_rate_khz = 0;                ///< (Triton's mem_clock_rate)
  int memory_bus_width = 0;                     ///< bits (Triton's mem_bus_width)
  int pci_bus_id = 0;                           ///<
  int pci_device_id = 0;                        ///<
};

/// The number of GPUs the CUDA driver sees (CUDA_VISIBLE_DEVICES applies); 0 without a driver
/// or a GPU.
TK_DECL int device_count();

/// The device this thread's launches go to: that of its current context, or 0 when it has none
/// (launches then make device 0's primary context current). Throws tk::error without a usable
/// driver.
TK_DECL int current_device(std::source_location where = std::source_location::current());

/// Makes device `index`'s primary context current for the calling thread (the CUDA runtime's
/// cudaSetDevice): later launches, buffers and timings on this thread use it.
TK_DECL void set_device(int index, std::source_location where = std::source_location::current());

/// The properties of device `index`; of current_device() when `index` is -1.
TK_DECL device_properties
get_device_properties(int index = -1, std::source_location where = std::source_location::current());

/// Runs the scope on device `index`: makes its primary context current for the calling thread,
/// and makes the context that was current before current again at the end of the scope (as
/// `with torch.cuda.device(n):`). Where launches go to the interpreter (TK_INTERPRET=1, or no
/// usable driver or GPU, as for tk::device_buffer), it does nothing.
class device_guard {
public:
  TK_DECL explicit device_guard(int index,
                                std::source_location where = std::source_location::current());
  TK_DECL ~device_guard();
  device_guard(const device_guard &) = delete;
  device_guard &operator=(const device_guard &) = delete;

private:
  void *previous_ = nullptr; ///< the CUcontext current before, restored at the end
  bool active_ = false;
};

/// Which device a tk::device_buffer is allocated on: `tk::device_buffer<float> x(n,
/// tk::on_device(1))`.
struct on_device {
  int index;
  constexpr explicit on_device(int device) : index(device) {}
};

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/device.ipp>
#endif

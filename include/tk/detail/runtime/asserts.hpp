/// @file asserts.hpp
/// Naming a device assert that failed on the GPU. A kernel compiled with asserts
/// (DebugOpToLLVM.cpp) writes which one failed, in which program and at which element, to host
/// memory the runtime allocates for it when it loads the kernel, before `__assertfail` stops
/// the kernel: the sticky CUDA_ERROR_ASSERT that follows leaves device memory unreadable, host
/// memory not. The call that sees the error (the launch, or a later one waiting for the GPU)
/// throws tk::error at the assert's own line, with its message.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/trace/context.hpp>

#include <source_location>
#include <string>
#include <string_view>
#include <vector>

struct CUmod_st;

// driver.hpp includes this header (its check() reports asserts), so the driver is declared here
// rather than included.
namespace tk::detail::cu {
class driver;
using module_handle = ::CUmod_st *;
} // namespace tk::detail::cu

namespace tk::detail {

/// The record a failing kernel writes: `id + 1` (0 while none has failed), the program id, and
/// the failing element's row-major index in its block.
struct assert_record {
  std::uint32_t id_plus_one;
  std::uint32_t program[3];
  std::uint32_t element;
};

/// Points the module's `tk_assert_record` at a new record for the kernel `name` and its
/// asserts `sites` (the trace's, in `id` order). Without the driver functions it needs, the
/// kernel still runs and a failure is reported without its message.
TK_DECL void register_asserts(const cu::driver &driver, cu::module_handle module,
                              const std::string &name, std::vector<assert_site> sites,
                              std::source_location where);

/// Throws tk::error for a CUDA_ERROR_ASSERT that the call `what` returned (`described`): at the
/// failed assert's line, with its message, when a record names it; else at `where`.
[[noreturn]] TK_DECL void report_device_assert(const char *what, const std::string &described,
                                               std::source_location where);

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/runtime/asserts.ipp>
#endif

/// @file implementation.hpp
/// The bodies of TileKit's non-template functions, for a program built with
/// TK_SEPARATE_COMPILATION (docs/build-cost.md): include this in exactly one source file of the
/// program, with TK_SEPARATE_COMPILATION defined there as in every other file of the program.
/// CMake's `tk::separate` target compiles it and defines the macro for what links it.
#pragma once

// Without TK_SEPARATE_COMPILATION every header includes its bodies already: this file then adds
// nothing.
#include <tk/tk.hpp>

#include <tk/autotune.ipp>
#include <tk/block_pointer.ipp>
#include <tk/control.ipp>
#include <tk/descriptor.ipp>
#include <tk/detail/env.ipp>
#include <tk/detail/interp/elements.ipp>
#include <tk/detail/ir/printer.ipp>
#include <tk/detail/kernel/arguments.ipp>
#include <tk/detail/kernel/run.ipp>
#include <tk/detail/runtime/asserts.ipp>
#include <tk/detail/runtime/backend_loader.ipp>
#include <tk/detail/runtime/driver.ipp>
#include <tk/detail/runtime/launch.ipp>
#include <tk/detail/runtime/os.ipp>
#include <tk/detail/trace/atomics.ipp>
#include <tk/detail/trace/context.ipp>
#include <tk/detail/trace/debug.ipp>
#include <tk/detail/trace/extern_elementwise.ipp>
#include <tk/detail/trace/primitives.ipp>
#include <tk/detail/trace/semantics.ipp>
#include <tk/detail/trace/value.ipp>
#include <tk/device.ipp>
#include <tk/device_buffer.ipp>
#include <tk/dot.ipp>
#include <tk/error.ipp>
#include <tk/host_descriptor.ipp>
#include <tk/kernel.ipp>
#include <tk/reduce.ipp>
#include <tk/shape.ipp>
#include <tk/testing.ipp>

#if defined(TK_SEPARATE_COMPILATION)
// The symbol every file of the program refers to (detail/config.hpp): missing without this file,
// defined twice where two files include it, and the linker names it in either case.
extern "C" const char
    tk_separate_compilation_needs_exactly_one_source_file_including_tk_implementation_hpp = 0;
#endif

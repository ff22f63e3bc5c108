/// @file tk.hpp
/// TileKit: Triton's block-level GPU programming model in C++. Include this header to write
/// kernels as lambdas over blocks of values.
#pragma once

#include <tk/atomic.hpp>
#include <tk/autotune.hpp>
#include <tk/block.hpp>
#include <tk/block_pointer.hpp>
#include <tk/compiled_kernel.hpp>
#include <tk/control.hpp>
#include <tk/creation.hpp>
#include <tk/debug.hpp>
#include <tk/descriptor.hpp>
#include <tk/device.hpp>
#include <tk/device_buffer.hpp>
#include <tk/dot.hpp>
#include <tk/dot_scaled.hpp>
#include <tk/dtype.hpp>
#include <tk/error.hpp>
#include <tk/float16.hpp>
#include <tk/host_descriptor.hpp>
#include <tk/inline_asm.hpp>
#include <tk/kernel.hpp>
#include <tk/libdevice.hpp>
#include <tk/math.hpp>
#include <tk/memory.hpp>
#include <tk/random.hpp>
#include <tk/reduce.hpp>
#include <tk/shape.hpp>
#include <tk/sort.hpp>
#include <tk/testing.hpp>

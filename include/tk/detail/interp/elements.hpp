/// @file elements.hpp
/// Element-level semantics shared by the interpreter's primitives: wrapping integers to their
/// width, rounding floats to their format, and reading and writing typed memory.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/detail/trace/value.hpp>
#include <tk/float16.hpp>
#include <tk/float8.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tk::detail {

/// Wraps an integer to the width and signedness of `d` (two's complement, like the GPU).
TK_DECL std::int64_t wrap_int(std::int64_t x, dtype d);

/// Rounds a real result to the float format `d` (once, to nearest even unless `mode` says
/// otherwise; fp8 formats saturate, see float8.hpp).
TK_DECL double round_float(double x, dtype d, rounding mode = rounding::rtne);

/// An integer element as the mathematical value it denotes (u64 above 2^63 loses precision, which
/// only matters when converting it to a float).
inline double int_as_real(std::int64_t x, dtype d) {
  return d == dtype::u64 ? double(std::uint64_t(x)) : double(x);
}

/// Float to integer as the GPU's `cvt.rzi`: truncate toward zero, saturate, NaN gives 0.
TK_DECL std::int64_t float_to_int(double x, dtype d);

/// Reads one element of dtype `d` from host memory.
TK_DECL void load_element(const void *address, dtype d, double &f, std::int64_t &i);

/// Writes one element of dtype `d` (already rounded or wrapped to it) to host memory.
TK_DECL void store_element(void *address, dtype d, double f, std::int64_t i);

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/interp/elements.ipp>
#endif

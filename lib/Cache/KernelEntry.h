/// @file KernelEntry.h
/// A compiled kernel as the cache keeps it.
///
/// The payload of a "cubin" cache entry: the binary and what launching it needs, in a byte format
/// of its own (serialize) that does not depend on a compiler's struct layout.
#ifndef TK_CACHE_KERNELENTRY_H
#define TK_CACHE_KERNELENTRY_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tk::cache {

/// How a launch builds one tensor-map parameter of a kernel: tk_tensor_map of <tk/backend.h>
/// (its fields and their meaning), kept with the binary.
struct tensor_map_recipe {
  static constexpr int max_rank = 5; // TK_TENSOR_MAP_MAX_RANK
  std::int32_t rank = 0, element_bytes = 0, base_arg = 0;
  std::array<std::int32_t, max_rank> shape_arg{}, stride_arg{}, box{};
  std::array<std::int64_t, max_rank> shape{}, stride{};
  std::int32_t swizzle = 0; ///< 0, 32, 64 or 128 bytes

  friend bool operator==(const tensor_map_recipe &, const tensor_map_recipe &) = default;
};

/// A compiled kernel as the cache stores it: the binary and what launching it needs.
struct cached_kernel {
  enum : std::uint8_t { cubin = 0, ptx = 1 };

  std::string binary;
  std::string kernel_name;
  std::string target; ///< e.g. "sm_90a"
  std::uint32_t threads_per_block = 0;
  std::uint32_t dynamic_shared_bytes = 0;
  std::uint8_t binary_kind = cubin;
  std::vector<tensor_map_recipe> tensor_maps; ///< parameters after the kernel's arguments
  /// What the kernel uses (tk_resources of <tk/backend.h>), -1 where unknown.
  std::int32_t registers = -1, spill_store_bytes = -1, spill_load_bytes = -1, stack_bytes = -1;
  std::uint32_t static_shared_bytes = 0; ///< shared memory besides dynamic_shared_bytes

  friend bool operator==(const cached_kernel &, const cached_kernel &) = default;
};

/// Explicit little-endian fixed-width fields, so that the bytes do not depend on the compiler's
/// struct layout: u8 version (4), u8 binary_kind, u32 threads_per_block, u32
/// dynamic_shared_bytes, u32 static_shared_bytes, then registers, spill_store_bytes,
/// spill_load_bytes and stack_bytes as u32 (two's complement: -1 unknown), then kernel_name,
/// target and binary, each as a u32 length (u64 for the
/// binary) followed by its bytes, then a u32 count of tensor maps and each map's fields (u32
/// rank, element_bytes, base_arg, then per dimension u32 shape_arg, u64 shape, u32 stride_arg,
/// u64 stride, u32 box, then u32 swizzle; arguments and constants as two's complement).
std::string serialize(const cached_kernel &kernel);

/// The kernel `serialize` wrote, or nullopt for anything else: another version, an unknown
/// binary kind, a length past the end, or trailing bytes.
std::optional<cached_kernel> deserialize(std::string_view bytes);

} // namespace tk::cache

#endif // TK_CACHE_KERNELENTRY_H

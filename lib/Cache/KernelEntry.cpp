/// @file KernelEntry.cpp
/// A compiled kernel as the cache keeps it.
#include "Cache/KernelEntry.h"

#include "Cache/Bytes.h"

namespace tk::cache {

namespace {
// 4: resources (registers, spills, stack, static shared memory) after dynamic_shared_bytes.
constexpr std::uint8_t kernel_format_version = 4;
} // namespace

std::string serialize(const cached_kernel &kernel) {
  std::string out;
  out.reserve(46 + kernel.kernel_name.size() + kernel.target.size() + kernel.binary.size());
  put_le(out, kernel_format_version, 1);
  put_le(out, kernel.binary_kind, 1);
  put_le(out, kernel.threads_per_block, 4);
  put_le(out, kernel.dynamic_shared_bytes, 4);
  put_le(out, kernel.static_shared_bytes, 4);
  for (std::int32_t value :
       {kernel.registers, kernel.spill_store_bytes, kernel.spill_load_bytes, kernel.stack_bytes})
    put_le(out, std::uint32_t(value), 4);
  put_le(out, kernel.kernel_name.size(), 4);
  out.append(kernel.kernel_name);
  put_le(out, kernel.target.size(), 4);
  out.append(kernel.target);
  put_le(out, kernel.binary.size(), 8);
  out.append(kernel.binary);
  put_le(out, kernel.tensor_maps.size(), 4);
  for (const tensor_map_recipe &m : kernel.tensor_maps) {
    put_le(out, std::uint32_t(m.rank), 4);
    put_le(out, std::uint32_t(m.element_bytes), 4);
    put_le(out, std::uint32_t(m.base_arg), 4);
    for (int d = 0; d < tensor_map_recipe::max_rank; ++d) {
      const auto i = std::size_t(d);
      put_le(out, std::uint32_t(m.shape_arg[i]), 4);
      put_le(out, std::uint64_t(m.shape[i]), 8);
      put_le(out, std::uint32_t(m.stride_arg[i]), 4);
      put_le(out, std::uint64_t(m.stride[i]), 8);
      put_le(out, std::uint32_t(m.box[i]), 4);
    }
    put_le(out, std::uint32_t(m.swizzle), 4);
  }
  return out;
}

std::optional<cached_kernel> deserialize(std::string_view bytes) {
  reader in(bytes);
  cached_kernel kernel;
  const std::uint64_t version = in.integer(1);
  kernel.binary_kind = static_cast<std::uint8_t>(in.integer(1));
  kernel.threads_per_block = static_cast<std::uint32_t>(in.integer(4));
  kernel.dynamic_shared_bytes = static_cast<std::uint32_t>(in.integer(4));
  kernel.static_shared_bytes = static_cast<std::uint32_t>(in.integer(4));
  for (std::int32_t *value : {&kernel.registers, &kernel.spill_store_bytes,
                              &kernel.spill_load_bytes, &kernel.stack_bytes})
    *value = std::int32_t(std::uint32_t(in.integer(4)));
  kernel.kernel_name = in.bytes(in.integer(4));
  kernel.target = in.bytes(in.integer(4));
  kernel.binary = in.bytes(in.integer(8));
  const std::uint64_t maps = in.integer(4);
  for (std::uint64_t k = 0; k < maps && in.ok() && k <= tensor_map_recipe::max_rank * 64; ++k) {
    tensor_map_recipe m;
    m.rank = std::int32_t(std::uint32_t(in.integer(4)));
    m.element_bytes = std::int32_t(std::uint32_t(in.integer(4)));
    m.base_arg = std::int32_t(std::uint32_t(in.integer(4)));
    for (int d = 0; d < tensor_map_recipe::max_rank; ++d) {
      const auto i = std::size_t(d);
      m.shape_arg[i] = std::int32_t(std::uint32_t(in.integer(4)));
      m.shape[i] = std::int64_t(in.integer(8));
      m.stride_arg[i] = std::int32_t(std::uint32_t(in.integer(4)));
      m.stride[i] = std::int64_t(in.integer(8));
      m.box[i] = std::int32_t(std::uint32_t(in.integer(4)));
    }
    m.swizzle = std::int32_t(std::uint32_t(in.integer(4)));
    if (m.rank < 1 || m.rank > tensor_map_recipe::max_rank ||
        (m.swizzle != 0 && m.swizzle != 32 && m.swizzle != 64 && m.swizzle != 128))
      return std::nullopt;
    kernel.tensor_maps.push_back(m);
  }
  if (kernel.tensor_maps.size() != maps)
    return std::nullopt;
  if (!in.ok() || in.remaining() != 0 || version != kernel_format_version ||
      kernel.binary_kind > cached_kernel::ptx)
    return std::nullopt;
  return kernel;
}

} // namespace tk::cache

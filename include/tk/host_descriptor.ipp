/// @file host_descriptor.ipp
/// The bodies of the functions host_descriptor.hpp declares: included at its end (header-only,
/// the default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/host_descriptor.hpp>

namespace tk::detail {

TK_DECL void check_host_descriptor(std::uint64_t base, elem_type element, std::size_t rank,
                                   const host_extent *shape, const host_extent *strides,
                                   const host_extent *block, padding pad, loc_t loc) {
  constexpr std::int64_t most = 2147483647; // the kernel takes sizes and strides as i32
  if (base < null_page)
    fail(loc, "tk::host_tensor_descriptor: the base pointer is null");
  if (base % 16 != 0)
    fail(loc, "tk::host_tensor_descriptor: the base address must be 16-byte aligned, got ", base);
  const std::int64_t bytes = element.bytes();
  for (std::size_t d = 0; d < rank; ++d) {
    for (const auto &[part, name] :
         {std::pair{&shape[d], "size"}, std::pair{&strides[d], "stride"}})
      if (!part->tuned.empty())
        fail(part->at, "tk::host_tensor_descriptor: the ", name, " of dimension ", d,
             " is tk::tuned(\"", part->tuned,
             "\"); only block dimensions can be tuned, sizes and strides are the tensor's");
    if (!shape[d].fits || shape[d].value < 1 || shape[d].value > most)
      fail(loc, "tk::host_tensor_descriptor: dimension ", d, " has size ",
           shape[d].fits ? std::to_string(shape[d].value) : "above 2^63",
           "; sizes must be from 1 to 2^31 - 1");
    const std::int64_t stride = strides[d].value;
    if (d + 1 == rank) {
      if (!strides[d].fits || stride != 1)
        fail(loc, "tk::host_tensor_descriptor: the last stride must be 1 (the last dimension ",
             "contiguous), got ", strides[d].fits ? std::to_string(stride) : "above 2^63",
             "; for a tensor whose last dimension is strided, pass pointers and load through "
             "pointer blocks or tk::make_block_ptr instead");
    } else if (!strides[d].fits || stride < 1 || stride > most || stride * bytes % 16 != 0) {
      fail(loc, "tk::host_tensor_descriptor: the stride of dimension ", d, " (",
           strides[d].fits ? std::to_string(stride) : "above 2^63",
           " elements) must be a positive multiple of 16 bytes, below 2^31 elements");
    }
  }
  if (pad == padding::nan && !element.is_float())
    fail(loc, "tk::host_tensor_descriptor: padding::nan needs a tensor of floats, got ",
         to_string(element));
  check_descriptor_block(rank, block, loc);
}

TK_DECL void check_descriptor_block(std::size_t rank, const host_extent *block, loc_t loc) {
  shape_t box;
  bool tuned = false;
  for (std::size_t d = 0; d < rank; ++d) {
    if (!block[d].tuned.empty()) { // checked once a config gives it a value
      tuned = true;
      continue;
    }
    if (!block[d].fits || block[d].value < 1 || block[d].value > max_block_elements)
      fail(loc, "tk::host_tensor_descriptor: block dimension ", d, " is ",
           block[d].fits ? std::to_string(block[d].value) : "above 2^63",
           "; block dimensions must be powers of two");
    box.push_back(block[d].value);
  }
  if (!tuned) // else where a config gives the rest
    check_access_block(box, "tk::host_tensor_descriptor", loc);
}

TK_DECL void untuned_descriptor_block(std::size_t d, std::string_view name, loc_t loc) {
  fail(loc, "tk::host_tensor_descriptor: block dimension ", d, " is tk::tuned(\"", name,
       "\"), which only a tk::autotune config gives a value; launch the kernel through "
       "tk::autotune, or give the block dimension as a number");
}

TK_DECL std::uint64_t pack_descriptor_block(std::size_t rank, const host_extent *block,
                                            padding pad) {
  std::uint64_t bits = pad == padding::nan ? std::uint64_t(1) << 40 : 0;
  for (std::size_t d = 0; d < rank; ++d) {
    std::uint64_t log2 = 0;
    while (block[d].tuned.empty() && (std::int64_t(1) << log2) < block[d].value)
      ++log2;
    bits |= log2 << (8 * d);
  }
  return bits;
}

} // namespace tk::detail

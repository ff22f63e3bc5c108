/// @file CubinCheck.h
/// Is it a cubin for the target?.
///
/// A cheap check that bytes are a cubin for a given target: the ELF header's magic, class, byte
/// order and machine (EM_CUDA), and the SM number in e_flags. It catches what a broken ptxas or
/// nvJitLink leaves (nothing, text, a truncated or foreign file) before the bytes are cached; the
/// driver still has the last word. Standard library only.
#ifndef TK_TARGET_CUBINCHECK_H
#define TK_TARGET_CUBINCHECK_H

#include <cstdint>
#include <string>
#include <string_view>

namespace tk::detail {

/// The SM number of a target name: 90 for "sm_90a", 0 when the name is not sm_<digits>...
constexpr unsigned sm_number(std::string_view target) {
  if (target.substr(0, 3) != "sm_")
    return 0;
  unsigned sm = 0;
  for (std::size_t i = 3; i < target.size() && target[i] >= '0' && target[i] <= '9'; ++i)
    sm = sm * 10 + unsigned(target[i] - '0');
  return sm;
}

/// Why `image` is not a cubin for `target` ("sm_90a"), or "" when it may be one.
///
/// CUDA's ELF ABI says where e_flags keep the SM number, by e_ident[EI_ABIVERSION] (LLVM's
/// BinaryFormat/ELF.h): version 7 (ptxas before Blackwell) in bits 0-7 (EF_CUDA_SM), version 8
/// (CUDA 13's ptxas and nvJitLink for every target) in bits 8-15 (EF_CUDA_SM_MASK). CUDA 13.0's
/// ptxas writes 0x4b04, 0x5004, 0x5a04, 0x6402, 0x7802 for sm_75, sm_80, sm_90a, sm_100a, sm_120a
/// (tests/unit/cubin_check.cpp). The architecture-specific `a` is not checked: ptxas sets
/// EF_CUDA_ACCELERATORS only when a kernel uses such instructions. An ABI version not listed
/// here is checked up to the machine only.
inline std::string cubin_problem(std::string_view image, std::string_view target) {
  constexpr std::size_t header_size = 64; // Elf64_Ehdr
  if (image.empty())
    return "it is empty";
  if (image.substr(0, 4) != "\177ELF")
    return "it is not an ELF file";
  if (image.size() < header_size)
    return "it is truncated (" + std::to_string(image.size()) + " bytes)";
  auto byte = [&](std::size_t i) { return unsigned(static_cast<unsigned char>(image[i])); };
  if (byte(4) != 2) // EI_CLASS: ELFCLASS64
    return "it is not a 64-bit ELF file";
  if (byte(5) != 1) // EI_DATA: ELFDATA2LSB
    return "it is not a little-endian ELF file";
  const unsigned machine = byte(18) | byte(19) << 8;
  if (machine != 190) // EM_CUDA
    return "it is an ELF file for machine " + std::to_string(machine) + ", not CUDA (190)";
  const std::uint32_t flags =
      byte(48) | byte(49) << 8 | byte(50) << 16 | std::uint32_t(byte(51)) << 24;
  unsigned sm = 0;
  if (byte(8) == 7) // ELFABIVERSION_CUDA_V1
    sm = flags & 0xffu;
  else if (byte(8) == 8) // ELFABIVERSION_CUDA_V2
    sm = flags >> 8 & 0xffu;
  const unsigned wanted = sm_number(target);
  if (sm && wanted && sm != wanted)
    return "it is for sm_" + std::to_string(sm) + ", not " + std::string(target);
  return "";
}

} // namespace tk::detail

#endif // TK_TARGET_CUBINCHECK_H

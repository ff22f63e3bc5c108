/// @file cubin_check.cpp
/// The check of a cubin's ELF header before it is cached (lib/Target/CubinCheck.h), on the
/// headers of real cubins and on what broken producers leave.
#include "Target/CubinCheck.h"
#include <catch2/catch.hpp>

#include <cstddef>
#include <string>

using tk::detail::cubin_problem;

namespace {

std::string from_hex(const char *hex) {
  std::string bytes;
  for (std::size_t i = 0; hex[i] && hex[i + 1]; i += 2)
    bytes.push_back(char(std::stoi(std::string(hex + i, 2), nullptr, 16)));
  return bytes;
}

// The first 64 bytes (the ELF header) of cubins that CUDA 13.0's ptxas (V13.0.88) wrote for an
// empty kernel: ELF ABI version 8, the SM number in bits 8-15 of e_flags (bytes 48-51).
const char *const sm75 = "7f454c460201014108000000000000000200be0001000000000000000000000080"
                         "0a0000000000000007000000000000044b000640003800030040000e000100";
const char *const sm80 = "7f454c460201014108000000000000000200be0001000000000000000000000000"
                         "0b00000000000080070000000000000450000640003800030040000e000100";
const char *const sm90a = "7f454c460201014108000000000000000200be000100000000000000000000005"
                          "00c0000000000009008000000000000045a000640003800050040000f000100";
const char *const sm100a = "7f454c460201014108000000000000000200be00010000000000000000000000"
                           "0012000000000000800c00000000000002640006400038000500400016000100";
const char *const sm120a = "7f454c460201014108000000000000000200be00010000000000000000000000"
                           "0012000000000000800c00000000000002780006400038000500400016000100";

} // namespace

TEST_CASE("cubin check: real cubins pass for their own target", "[cubin]") {
  CHECK(cubin_problem(from_hex(sm75), "sm_75") == "");
  CHECK(cubin_problem(from_hex(sm80), "sm_80") == "");
  CHECK(cubin_problem(from_hex(sm90a), "sm_90a") == "");
  CHECK(cubin_problem(from_hex(sm90a), "sm_90") == "");
  CHECK(cubin_problem(from_hex(sm100a), "sm_100a") == "");
  CHECK(cubin_problem(from_hex(sm120a), "sm_120a") == "");
}

TEST_CASE("cubin check: a cubin for another SM is refused, naming both", "[cubin]") {
  CHECK(cubin_problem(from_hex(sm80), "sm_90a") == "it is for sm_80, not sm_90a");
  CHECK(cubin_problem(from_hex(sm120a), "sm_100a") == "it is for sm_120, not sm_100a");
  CHECK(cubin_problem(from_hex(sm75), "sm_86") == "it is for sm_75, not sm_86");
}

TEST_CASE("cubin check: ELF ABI version 7 keeps the SM in the low byte", "[cubin]") {
  std::string v1 = from_hex(sm90a);
  v1[8] = 7;                  // EI_ABIVERSION: ELFABIVERSION_CUDA_V1
  v1[48] = char(0x5a);        // EF_CUDA_SM90
  v1[49] = char(0x05 | 0x08); // EF_CUDA_TEXMODE_UNIFIED, EF_CUDA_64BIT_ADDRESS, accelerators
  CHECK(cubin_problem(v1, "sm_90a") == "");
  CHECK(cubin_problem(v1, "sm_80") == "it is for sm_90, not sm_80");
}

TEST_CASE("cubin check: an unknown ELF ABI version is checked up to the machine", "[cubin]") {
  std::string other = from_hex(sm80);
  other[8] = 9;
  CHECK(cubin_problem(other, "sm_90a") == "");
}

TEST_CASE("cubin check: what broken producers leave is refused with the reason", "[cubin]") {
  CHECK(cubin_problem("", "sm_90a") == "it is empty");
  CHECK(cubin_problem("garbage from a fake ptxas\n", "sm_90a") == "it is not an ELF file");
  CHECK(cubin_problem("\177EL", "sm_90a") == "it is not an ELF file");
  CHECK(cubin_problem(from_hex(sm90a).substr(0, 40), "sm_90a") == "it is truncated (40 bytes)");
  std::string elf32 = from_hex(sm90a);
  elf32[4] = 1;
  CHECK(cubin_problem(elf32, "sm_90a") == "it is not a 64-bit ELF file");
  std::string big_endian = from_hex(sm90a);
  big_endian[5] = 2;
  CHECK(cubin_problem(big_endian, "sm_90a") == "it is not a little-endian ELF file");
  std::string x86 = from_hex(sm90a);
  x86[18] = 62; // EM_X86_64
  CHECK(cubin_problem(x86, "sm_90a") == "it is an ELF file for machine 62, not CUDA (190)");
}

#!/usr/bin/env python3
"""Writes tests/unit/random_triton_table.hpp: what Triton's tl.randint4x, tl.rand and tl.randn
return on the GPU for a few seeds and offsets, as the bits TileKit's tk::randint4x, tk::rand and
tk::randn must reproduce (tests/unit/interpreter_random.cpp). Needs Triton, PyTorch and a GPU:

    python3 tests/support/triton_random_table.py > tests/unit/random_triton_table.hpp
"""
import sys

import torch
import triton
import triton.language as tl

SEEDS = [0, 42, -7, 0x123456789ABCDEF]
OFFSETS = list(range(64)) + [1000, 65535, 1 << 20, 2**31 - 1, -1, -2**31]


@triton.jit
def table_kernel(offsets, seed, i0, i1, i2, i3, uniform, normal, N: tl.constexpr):
    lane = tl.arange(0, N)
    offs = tl.load(offsets + lane)
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    tl.store(i0 + lane, r0.to(tl.int32, bitcast=True))
    tl.store(i1 + lane, r1.to(tl.int32, bitcast=True))
    tl.store(i2 + lane, r2.to(tl.int32, bitcast=True))
    tl.store(i3 + lane, r3.to(tl.int32, bitcast=True))
    tl.store(uniform + lane, tl.rand(seed, offs))
    tl.store(normal + lane, tl.randn(seed, offs))


def main():
    n = 128
    offsets = torch.zeros(n, dtype=torch.int32, device="cuda")
    offsets[: len(OFFSETS)] = torch.tensor(OFFSETS, dtype=torch.int32)
    out = sys.stdout
    out.write("/// @file random_triton_table.hpp\n")
    out.write(f"/// Made by tests/support/triton_random_table.py with Triton {triton.__version__} on "
              f"{torch.cuda.get_device_name()}.\n")
    out.write("/// For each seed and offset: tl.randint4x's four words, then the bits of tl.rand and "
              "tl.randn.\n")
    out.write("#pragma once\n\n#include <cstdint>\n\nnamespace tk_test {\n\n")
    out.write("struct triton_random_row {\n  std::int64_t seed;\n  std::int32_t offset;\n"
              "  std::uint32_t words[4], rand_bits, randn_bits;\n};\n\n")
    out.write("// clang-format off: one row per line, as the script writes them\n")
    out.write("inline constexpr triton_random_row triton_random_table[] = {\n")
    for seed in SEEDS:
        bufs = [torch.empty(n, dtype=torch.int32, device="cuda") for _ in range(4)]
        uniform = torch.empty(n, dtype=torch.float32, device="cuda")
        normal = torch.empty(n, dtype=torch.float32, device="cuda")
        table_kernel[(1,)](offsets, seed, *bufs, uniform, normal, N=n)
        torch.cuda.synchronize()
        words = [b.cpu().tolist() for b in bufs]
        rand_bits = uniform.view(torch.int32).cpu().tolist()
        randn_bits = normal.view(torch.int32).cpu().tolist()
        for k, off in enumerate(OFFSETS):
            w = ", ".join(f"0x{words[j][k] & 0xFFFFFFFF:08x}u" for j in range(4))
            off_text = "-2147483647 - 1" if off == -2**31 else str(off)  # no narrowing
            out.write(f"    {{{seed}LL, {off_text}, {{{w}}}, 0x{rand_bits[k] & 0xFFFFFFFF:08x}u, "
                      f"0x{randn_bits[k] & 0xFFFFFFFF:08x}u}},\n")
    out.write("};\n// clang-format on\n\n} // namespace tk_test\n")


if __name__ == "__main__":
    main()

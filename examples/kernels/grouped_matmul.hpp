/// @file grouped_matmul.hpp
/// Grouped GEMM, Triton's tutorial 08: C_g = A_g x B_g for a group of products of different
/// shapes in one launch. A fixed number of program instances (one per multiprocessor) walks the
/// tiles of all the products in turn: program p takes tiles p, p + programs, ... of the
/// concatenated tile list, finding each tile's product with a loop over the group and a while
/// loop over the tiles of the current product. The operands' addresses are data: loaded from
/// device arrays of 64-bit addresses and converted to pointers (`tk::cast<tk::half *>`), as the
/// tutorial loads them and converts them with `.to(tl.pointer_type(tl.float16))`.
///
/// Launch contract:
/// - grid: `tk::grid(programs)`, any number of programs (the tutorial launches one per
///   multiprocessor: `tk::gpu_multiprocessor_count()`);
/// - `group_a`, `group_b`, `group_c`: `group_size` addresses each, of f16 matrices A_g (M_g x K_g),
///   B_g (K_g x N_g) and C_g (M_g x N_g), row-major; `sizes`: M_g, N_g, K_g for each product;
///   `lds`: the leading dimensions (row strides) of A_g, B_g and C_g for each product;
/// - every matrix 16-byte aligned, and N_g, K_g and the leading dimensions multiples of 8, so
///   that each row of a tile is whole 16-byte vectors: the kernel promises it to the compiler with
///   `tk::multiple_of`, as the tutorial does with `tl.multiple_of(a_ptrs, [16, 16])`, and
///   nothing else could tell it of addresses and sizes read from memory;
/// - constants BLOCK_M, BLOCK_N, BLOCK_K, powers of two >= 16. Edges are masked (M, N and K need
///   not be multiples of the blocks), unlike the tutorial's kernel.
#pragma once

#include "matmul.hpp"

#include <tk/tk.hpp>

#include <cstdint>

namespace examples {

// [snippet:grouped_matmul]
inline auto grouped_matmul = tk::jit(
    "grouped_matmul_kernel",
    [](tk::ptr<const std::int64_t> group_a, tk::ptr<const std::int64_t> group_b,
       tk::ptr<const std::int64_t> group_c, tk::ptr<const std::int32_t> sizes,
       tk::ptr<const std::int32_t> lds, tk::i32 group_size, tk::constant<int> BLOCK_M,
       tk::constant<int> BLOCK_N, tk::constant<int> BLOCK_K) {
      tk::i32 tile = tk::program_id(0); // this program's next tile, over all the products
      tk::i32 first = 0;                // the first tile of product g
      tk::for_range(0, group_size, [&](tk::i32 g) {
        auto m = tk::load(sizes + 3 * g), n = tk::multiple_of(tk::load(sizes + 3 * g + 1), 8),
             k = tk::multiple_of(tk::load(sizes + 3 * g + 2), 8);
        auto tiles_n = tk::cdiv(n, BLOCK_N);
        auto tiles = tk::cdiv(m, BLOCK_M) * tiles_n;
        tk::while_([&] { return tile >= first && tile < first + tiles; },
                   [&] {
                     // Addresses (in bytes) and leading dimensions (in elements) as promised.
                     auto address = [&](const auto &group) {
                       return tk::multiple_of(tk::cast<tk::half *>(tk::load(group + g)), 16);
                     };
                     auto ld = [&](int i) { return tk::multiple_of(tk::load(lds + 3 * g + i), 8); };
                     auto tile_m = (tile - first) / tiles_n, tile_n = (tile - first) % tiles_n;
                     auto acc = matmul_accumulate(address(group_a), address(group_b), tile_m,
                                                  tile_n, m, n, k, ld(0), 1, ld(1), 1, BLOCK_M,
                                                  BLOCK_N, BLOCK_K, tk::input_precision::tf32);
                     store_tile(address(group_c), tk::cast<tk::half>(acc), tile_m, tile_n, m, n,
                                ld(2), 1, BLOCK_M, BLOCK_N);
                     tile += tk::num_programs(0);
                   });
        first += tiles;
      });
    });
// [/snippet]

} // namespace examples

// RUN: tk-opt %s -tk-test-layout-mapping -o /dev/null 2>&1 | FileCheck %s
// Which thread holds which element (Layout.h's getElementIndex): for a few threads, the tensor
// indices of their elements, in their order. t<N> is thread N: lane N % 32 of warp N / 32.
// Before each: Triton's default layouts for the shape and number of warps
// (getDefaultBlockedEncoding), scalar and vectorized to 16 bytes for the element type.

#b2d = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1d = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#col = #tkgpu.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]}>

// 32x64 in a 32x16 tile: each thread holds 4 contiguous elements of a row, 4 times 16 apart;
// 4 lanes cover 16 columns, 8 lanes rows, warps go down the rows.
// CHECK: remark: default: #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>; vectorized: #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: remark: elemsPerThread = [1, 16]
// CHECK-SAME: t0: (0, 0) (0, 1) (0, 2) (0, 3) (0, 16) (0, 17) (0, 18) (0, 19) (0, 32) (0, 33) (0, 34) (0, 35) (0, 48) (0, 49) (0, 50) (0, 51);
// CHECK-SAME: t1: (0, 4) (0, 5) (0, 6) (0, 7) (0, 20)
// CHECK-SAME: t8: (2, 0) (2, 1) (2, 2) (2, 3) (2, 16)
// CHECK-SAME: t31: (7, 12) (7, 13) (7, 14) (7, 15) (7, 28)
// CHECK-SAME: t32: (8, 0) (8, 1) (8, 2) (8, 3) (8, 16)
// CHECK-SAME: t127: (31, 12) (31, 13) (31, 14) (31, 15) (31, 28) (31, 29) (31, 30) (31, 31) (31, 44) (31, 45) (31, 46) (31, 47) (31, 60) (31, 61) (31, 62) (31, 63){{$}}
func.func @blocked_2d(%a: tensor<32x64xf32, #b2d>) {
  func.return
}

// The rows of the same layout (a reduction along dim 1's result): the 4 lanes of a row hold
// the same element.
// CHECK-LABEL: remark: elemsPerThread = [1]
// CHECK-SAME: t0: (0); t1: (0); t8: (2); t31: (7); t32: (8); t127: (31){{$}}
func.func @slice(%s: tensor<32xf32, #tkgpu.slice<{dim = 1, parent = #b2d}>>) {
  func.return
}

// 1-D: 256 elements over 128 threads, twice; 64 elements: threads 64..127 wrap around.
// CHECK: remark: default: #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>; vectorized: #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: remark: elemsPerThread = [2]
// CHECK-SAME: t0: (0) (128); t1: (1) (129); t8: (8) (136); t31: (31) (159); t32: (32) (160); t127: (127) (255){{$}}
// CHECK-LABEL: remark: elemsPerThread = [1]
// CHECK-SAME: t0: (0); t1: (1); t8: (8); t31: (31); t32: (32); t127: (63){{$}}
func.func @blocked_1d(%r: tensor<256xf32, #b1d>, %t: tensor<64xf32, #b1d>) {
  func.return
}

// Column-major (order = [0, 1]): lanes and a thread's elements go down a column first.
// CHECK: remark: default: #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [1, 0]}>; vectorized: #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
// CHECK-LABEL: remark: elemsPerThread = [2, 2]
// CHECK-SAME: t0: (0, 0) (1, 0) (0, 16) (1, 16); t1: (2, 0) (3, 0) (2, 16) (3, 16); t8: (0, 2) (1, 2) (0, 18) (1, 18); t31: (6, 7) (7, 7) (6, 23) (7, 23); t32: (0, 8) (1, 8) (0, 24) (1, 24); t63: (6, 15) (7, 15) (6, 31) (7, 31){{$}}
func.func @column_major(%c: tensor<8x32xf32, #col>) {
  func.return
}

// Tensor-core layouts (TkGPUAttrs.td), for lanes 0, 1, 4 and 31 of warp 0, lane 0 of every
// other warp and the last thread. With g = lane / 4 and t = lane % 4:
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma41 = #tkgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>

// mma, 2 x 2 warps on 32 x 16 (the grid's tile): warp w's 16 x 8 tile at row 16 (w / 2), column
// 8 (w % 2); lane l holds rows g, g + 8 and columns 2t, 2t + 1, row by row. Lane 1 is the next
// column pair, lane 4 the next row.
// CHECK: remark: elemsPerThread = [2, 2];
// CHECK-SAME: t0: (0, 0) (0, 1) (8, 0) (8, 1);
// CHECK-SAME: t1: (0, 2) (0, 3) (8, 2) (8, 3);
// CHECK-SAME: t4: (1, 0) (1, 1) (9, 0) (9, 1);
// CHECK-SAME: t31: (7, 6) (7, 7) (15, 6) (15, 7);
// CHECK-SAME: t32: (0, 8) (0, 9) (8, 8) (8, 9);
// CHECK-SAME: t64: (16, 0) (16, 1) (24, 0) (24, 1);
// CHECK-SAME: t96: (16, 8) (16, 9) (24, 8) (24, 9);
// CHECK-SAME: t127: (23, 14) (23, 15) (31, 14) (31, 15){{$}}
// 64 x 32: the 32 x 16 tile twice along each dimension; four elements per tile, the tiles row
// by row.
// CHECK: remark: elemsPerThread = [4, 4];
// CHECK-SAME: t0: (0, 0) (0, 1) (8, 0) (8, 1) (0, 16) (0, 17) (8, 16) (8, 17) (32, 0) (32, 1) (40, 0) (40, 1) (32, 16) (32, 17) (40, 16) (40, 17);
// CHECK-SAME: t127: (23, 14) (23, 15) (31, 14) (31, 15) (23, 30) (23, 31) (31, 30) (31, 31) (55, 14) (55, 15) (63, 14) (63, 15) (55, 30) (55, 31) (63, 30) (63, 31){{$}}
// 4 x 1 warps on 16 x 8, smaller than the grid's 64 x 8 tile: every warp holds warp 0's copy.
// CHECK: remark: elemsPerThread = [2, 2];
// CHECK-SAME: t0: (0, 0) (0, 1) (8, 0) (8, 1);
// CHECK-SAME: t32: (0, 0) (0, 1) (8, 0) (8, 1); t64: (0, 0) (0, 1) (8, 0) (8, 1); t96: (0, 0) (0, 1) (8, 0) (8, 1);
func.func @mma(%c: tensor<32x16xf32, #mma>, %d: tensor<64x32xf32, #mma>, %e: tensor<16x8xf32, #mma41>) {
  func.return
}

// mma version 3 (wgmma), 4 x 2 warps on 64 x 32 with n = 16: warps go down the rows first (warp
// w at row 16 (w % 4), column 16 (w / 4)), so that warps 0-3 (a warpgroup) hold rows 0-63 of
// columns 0-15; in a warp's 16 x 16 tile, two 16 x 8 pieces left to right, four elements each.
// CHECK: remark: elemsPerThread = [2, 4];
// CHECK-SAME: t0: (0, 0) (0, 1) (8, 0) (8, 1) (0, 8) (0, 9) (8, 8) (8, 9);
// CHECK-SAME: t1: (0, 2) (0, 3) (8, 2) (8, 3) (0, 10) (0, 11) (8, 10) (8, 11);
// CHECK-SAME: t4: (1, 0) (1, 1) (9, 0) (9, 1) (1, 8) (1, 9) (9, 8) (9, 9);
// CHECK-SAME: t31: (7, 6) (7, 7) (15, 6) (15, 7) (7, 14) (7, 15) (15, 14) (15, 15);
// CHECK-SAME: t32: (16, 0) (16, 1) (24, 0) (24, 1) (16, 8)
// CHECK-SAME: t64: (32, 0) (32, 1) (40, 0) (40, 1) (32, 8)
// CHECK-SAME: t96: (48, 0) (48, 1) (56, 0) (56, 1) (48, 8)
// CHECK-SAME: t128: (0, 16) (0, 17) (8, 16) (8, 17) (0, 24) (0, 25) (8, 24) (8, 25);
// CHECK-SAME: t255: (55, 22) (55, 23) (63, 22) (63, 23) (55, 30) (55, 31) (63, 30) (63, 31){{$}}
func.func @mma_v3(%c: tensor<64x32xf32, #tkgpu.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 16]}>>) {
  func.return
}

// a (opIdx 0), f16, kWidth 2, 32 x 32: K = 32 is two 16-wide K tiles. Register j holds row
// g + 8 (j % 2), columns 2t + 8 (j / 2) + [0, 2); registers 0..3 of K tile 0, then of K tile 1.
// Warps of one row of the 2 x 2 grid (0 and 1, 2 and 3) hold the same rows.
// CHECK: remark: elemsPerThread = [2, 8];
// CHECK-SAME: t0: (0, 0) (0, 1) (8, 0) (8, 1) (0, 8) (0, 9) (8, 8) (8, 9) (0, 16) (0, 17) (8, 16) (8, 17) (0, 24) (0, 25) (8, 24) (8, 25);
// CHECK-SAME: t1: (0, 2) (0, 3) (8, 2) (8, 3) (0, 10) (0, 11) (8, 10) (8, 11) (0, 18) (0, 19) (8, 18) (8, 19) (0, 26) (0, 27) (8, 26) (8, 27);
// CHECK-SAME: t4: (1, 0) (1, 1) (9, 0) (9, 1) (1, 8) (1, 9) (9, 8) (9, 9) (1, 16) (1, 17) (9, 16) (9, 17) (1, 24) (1, 25) (9, 24) (9, 25);
// CHECK-SAME: t31: (7, 6) (7, 7) (15, 6) (15, 7) (7, 14) (7, 15) (15, 14) (15, 15) (7, 22) (7, 23) (15, 22) (15, 23) (7, 30) (7, 31) (15, 30) (15, 31);
// CHECK-SAME: t32: (0, 0) (0, 1) (8, 0) (8, 1) (0, 8) (0, 9) (8, 8) (8, 9) (0, 16) (0, 17) (8, 16) (8, 17) (0, 24) (0, 25) (8, 24) (8, 25);
// CHECK-SAME: t64: (16, 0) (16, 1) (24, 0) (24, 1) (16, 8) (16, 9) (24, 8) (24, 9) (16, 16) (16, 17) (24, 16) (24, 17) (16, 24) (16, 25) (24, 24) (24, 25);
// CHECK-SAME: t96: (16, 0) (16, 1) (24, 0) (24, 1) (16, 8) (16, 9) (24, 8) (24, 9) (16, 16) (16, 17) (24, 16) (24, 17) (16, 24) (16, 25) (24, 24) (24, 25);
// CHECK-SAME: t127: (23, 6) (23, 7) (31, 6) (31, 7) (23, 14) (23, 15) (31, 14) (31, 15) (23, 22) (23, 23) (31, 22) (31, 23) (23, 30) (23, 31) (31, 30) (31, 31){{$}}
func.func @dot_operand_a_f16(%a: tensor<32x32xf16, #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
  func.return
}

// b (opIdx 1), f16, kWidth 2, 32 x 32 (K x N): register j holds rows 2t + 8j + [0, 2), column g;
// two K tiles and two N repetitions (every 16 columns), N outermost. Warps of one column of the
// grid (0 and 2, 1 and 3) hold the same columns.
// CHECK: remark: elemsPerThread = [8, 2];
// CHECK-SAME: t0: (0, 0) (1, 0) (8, 0) (9, 0) (16, 0) (17, 0) (24, 0) (25, 0) (0, 16) (1, 16) (8, 16) (9, 16) (16, 16) (17, 16) (24, 16) (25, 16);
// CHECK-SAME: t1: (2, 0) (3, 0) (10, 0) (11, 0) (18, 0) (19, 0) (26, 0) (27, 0) (2, 16) (3, 16) (10, 16) (11, 16) (18, 16) (19, 16) (26, 16) (27, 16);
// CHECK-SAME: t4: (0, 1) (1, 1) (8, 1) (9, 1) (16, 1) (17, 1) (24, 1) (25, 1) (0, 17) (1, 17) (8, 17) (9, 17) (16, 17) (17, 17) (24, 17) (25, 17);
// CHECK-SAME: t31: (6, 7) (7, 7) (14, 7) (15, 7) (22, 7) (23, 7) (30, 7) (31, 7) (6, 23) (7, 23) (14, 23) (15, 23) (22, 23) (23, 23) (30, 23) (31, 23);
// CHECK-SAME: t32: (0, 8) (1, 8) (8, 8) (9, 8) (16, 8) (17, 8) (24, 8) (25, 8) (0, 24) (1, 24) (8, 24) (9, 24) (16, 24) (17, 24) (24, 24) (25, 24);
// CHECK-SAME: t64: (0, 0) (1, 0) (8, 0) (9, 0) (16, 0) (17, 0) (24, 0) (25, 0) (0, 16) (1, 16) (8, 16) (9, 16) (16, 16) (17, 16) (24, 16) (25, 16);
// CHECK-SAME: t96: (0, 8) (1, 8) (8, 8) (9, 8) (16, 8) (17, 8) (24, 8) (25, 8) (0, 24) (1, 24) (8, 24) (9, 24) (16, 24) (17, 24) (24, 24) (25, 24);
// CHECK-SAME: t127: (6, 15) (7, 15) (14, 15) (15, 15) (22, 15) (23, 15) (30, 15) (31, 15) (6, 31) (7, 31) (14, 31) (15, 31) (22, 31) (23, 31) (30, 31) (31, 31){{$}}
func.func @dot_operand_b_f16(%b: tensor<32x32xf16, #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>>) {
  func.return
}

// a (opIdx 0), tf32 (f32, kWidth 1), 32 x 8: one 8-wide K tile; register j holds row
// g + 8 (j % 2), column t + 4 (j / 2).
// CHECK: remark: elemsPerThread = [2, 2];
// CHECK-SAME: t0: (0, 0) (8, 0) (0, 4) (8, 4);
// CHECK-SAME: t1: (0, 1) (8, 1) (0, 5) (8, 5);
// CHECK-SAME: t4: (1, 0) (9, 0) (1, 4) (9, 4);
// CHECK-SAME: t31: (7, 3) (15, 3) (7, 7) (15, 7);
// CHECK-SAME: t32: (0, 0) (8, 0) (0, 4) (8, 4);
// CHECK-SAME: t64: (16, 0) (24, 0) (16, 4) (24, 4);
// CHECK-SAME: t96: (16, 0) (24, 0) (16, 4) (24, 4);
// CHECK-SAME: t127: (23, 3) (31, 3) (23, 7) (31, 7){{$}}
func.func @dot_operand_a_tf32(%a: tensor<32x8xf32, #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>>) {
  func.return
}

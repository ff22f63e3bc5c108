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

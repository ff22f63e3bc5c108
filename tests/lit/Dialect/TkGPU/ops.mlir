// The tkgpu layouts and ops: tk-opt parses and verifies them, prints them (layouts under the
// aliases #blocked, #blocked1, ..., #slice), and the printed form parses again (round trip).
// RUN: tk-opt %s | tk-opt | FileCheck %s

// CHECK-DAG: #[[B2D:blocked[0-9]*]] = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B1D:blocked[0-9]*]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #tkgpu.slice<{dim = 1, parent = #[[B2D]]}>
// CHECK: module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32}
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @layouts
  // CHECK-SAME: (%[[X:.+]]: tensor<32x64xf32, #[[B2D]]>, %[[R:.+]]: tensor<32xf32, #[[ROWS]]>)
  func.func @layouts(%x: tensor<32x64xf32, #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>,
                     %r: tensor<32xf32, #tkgpu.slice<{dim = 1, parent = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>>) {
    // CHECK: tkgpu.convert_layout %[[R]] : tensor<32xf32, #[[ROWS]]> -> tensor<32xf32, #[[B1D]]>
    %0 = tkgpu.convert_layout %r : tensor<32xf32, #tkgpu.slice<{dim = 1, parent = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<32xf32, #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    func.return
  }
}

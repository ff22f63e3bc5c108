// The tkgpu layouts and ops: tk-opt parses and verifies them, prints them (layouts under the
// aliases #blocked, #blocked1, ..., #slice), and the printed form parses again (round trip).
// RUN: tk-opt %s | tk-opt | FileCheck %s

// CHECK-DAG: #[[B2D:blocked[0-9]*]] = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B1D:blocked[0-9]*]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #tkgpu.slice<{dim = 1, parent = #[[B2D]]}>
// CHECK-DAG: #[[V3:mma[0-9]*]] = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
// CHECK-DAG: #[[PANELS:shared[0-9]*]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>
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

  // wgmma: a tile stored from a tensor, panels, a version-3 accumulator, an asynchronous
  // product and its wait.
  // CHECK-LABEL: func.func @wgmma
  // CHECK: %[[TA:.+]] = tkgpu.local_alloc %{{.+}} : tensor<64x64xf16, #[[B2D]]> -> !tkgpu.memdesc<64x64xf16, #{{.+}}>
  // CHECK: %[[D:.+]] = tkgpu.warp_group_dot %[[TA]], %{{.+}}, %{{.+}} {is_async} : !tkgpu.memdesc<64x64xf16, #{{.+}}>, !tkgpu.memdesc<64x128xf16, #[[PANELS]]>, tensor<64x128xf32, #[[V3]]> -> tensor<64x128xf32, #[[V3]]>
  // CHECK: tkgpu.warp_group_dot_wait %[[D]] {pendings = 0 : i32} : tensor<64x128xf32, #[[V3]]>
  func.func @wgmma(%a: tensor<64x64xf16, #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>,
                   %b: !tkgpu.memdesc<64x128xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>>,
                   %c: tensor<64x128xf32, #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>>) {
    %ta = tkgpu.local_alloc %a : tensor<64x64xf16, #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>> -> !tkgpu.memdesc<64x64xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>
    %d = tkgpu.warp_group_dot %ta, %b, %c {is_async} : !tkgpu.memdesc<64x64xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>, !tkgpu.memdesc<64x128xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>>, tensor<64x128xf32, #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>> -> tensor<64x128xf32, #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>>
    %w = tkgpu.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<64x128xf32, #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>>
    func.return
  }
  // A TMA ring's ops: barriers, a predicated copy into a panelled tile, a wait with a phase.
  // CHECK-LABEL: func.func @tma_ring
  // CHECK: tkgpu.init_barrier %[[BAR:.+]], 2 : !tkgpu.memdesc<1x1xi64, #{{.+}}>
  // CHECK: tkgpu.async_tma_copy_global_to_local %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}}, %[[BAR]] pred %{{.+}} : !tk.tensordesc<tensor<64x128xf16>> -> !tkgpu.memdesc<64x128xf16, #[[PANELS]]>, !tkgpu.memdesc<1x1xi64, #{{.+}}>
  // CHECK: tkgpu.async_tma_copy_global_to_local %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}}, %[[BAR]] : !tk.tensordesc<tensor<64x128xf16>>
  // CHECK: tkgpu.wait_barrier %[[BAR]], %{{.+}} : !tkgpu.memdesc<1x1xi64, #{{.+}}>
  // CHECK: tkgpu.inval_barrier %[[BAR]] : !tkgpu.memdesc<1x1xi64, #{{.+}}>
  func.func @tma_ring(%map: !tk.tensordesc<tensor<64x128xf16>>, %i: i32, %go: i1,
                      %tile: !tkgpu.memdesc<64x128xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>>,
                      %bar: !tkgpu.memdesc<1x1xi64, #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>) {
    tkgpu.init_barrier %bar, 2 : !tkgpu.memdesc<1x1xi64, #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>
    tkgpu.async_tma_copy_global_to_local %map[%i, %i], %tile, %bar pred %go : !tk.tensordesc<tensor<64x128xf16>> -> !tkgpu.memdesc<64x128xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>>, !tkgpu.memdesc<1x1xi64, #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>
    tkgpu.async_tma_copy_global_to_local %map[%i, %i], %tile, %bar : !tk.tensordesc<tensor<64x128xf16>> -> !tkgpu.memdesc<64x128xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>>, !tkgpu.memdesc<1x1xi64, #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>
    tkgpu.wait_barrier %bar, %i : !tkgpu.memdesc<1x1xi64, #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>
    tkgpu.inval_barrier %bar : !tkgpu.memdesc<1x1xi64, #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>
    func.return
  }
}

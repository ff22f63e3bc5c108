// tk-pipeline, outside loops: a wgmma operand written to shared memory before each of its
// products gets one tile for all of them, and one loaded once through a tensor map is copied by
// TMA straight into that tile (attention's Q). Both happen whatever num_stages says.
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=3 | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=1 | FileCheck %s

#ba = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
#sa = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>
// The block of Q goes by TMA into one swizzled tile, which both products read; the map's
// recipe gets the box and swizzle. One barrier, armed for one arrival, waited on at phase 0,
// then invalidated between two barriers.
// CHECK-LABEL: func.func @direct
// CHECK-SAME: tkgpu.tensor_map = {base = 0 : i32, box = array<i32: 64, 64>, {{[^}]*}}swizzle = 128 : i32}
// CHECK-NOT: tk.descriptor_load
// CHECK: %[[Q:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<64x64xf16, #shared>
// CHECK-NEXT: %[[BAR:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<1x1xi64
// CHECK-NEXT: tkgpu.init_barrier %[[BAR]], 1
// CHECK-NEXT: tkgpu.barrier
// CHECK-NEXT: tkgpu.async_tma_copy_global_to_local %arg2[%{{.+}}, %{{.+}}], %[[Q]], %[[BAR]]
// CHECK: tkgpu.wait_barrier %[[BAR]], %c0
// CHECK-NEXT: tkgpu.barrier
// CHECK-NEXT: tkgpu.inval_barrier %[[BAR]]
// CHECK-NEXT: tkgpu.barrier
// CHECK: %[[D1:.+]] = tkgpu.warp_group_dot %[[Q]],
// CHECK-NOT: tkgpu.local_alloc
// CHECK: tkgpu.warp_group_dot %[[Q]], %{{.+}}, %[[D1]]
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @direct(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %m: i32 {tk.divisibility = 16 : i32}, %arg2: !tk.tensordesc<tensor<64x64xf16>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 0, 64>, shape_args = array<i32: 1, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 64, 1>}}) -> tensor<64x128xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %ones = arith.constant dense<1.000000e+00> : tensor<64x128xf16, #bb>
    %0 = tk.get_program_id {axis = 0 : i32} : i32
    %q = tk.descriptor_load %arg2[%0, %c0_i32] : !tk.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #ba>
    %b = tkgpu.local_alloc %ones : tensor<64x128xf16, #bb> -> !tkgpu.memdesc<64x128xf16, #sb>
    %t1 = tkgpu.local_alloc %q : tensor<64x64xf16, #ba> -> !tkgpu.memdesc<64x64xf16, #sa>
    %d1 = tkgpu.warp_group_dot %t1, %b, %cst {input_precision = "ieee"} : !tkgpu.memdesc<64x64xf16, #sa>, !tkgpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
    %t2 = tkgpu.local_alloc %q : tensor<64x64xf16, #ba> -> !tkgpu.memdesc<64x64xf16, #sa>
    %d2 = tkgpu.warp_group_dot %t2, %b, %d1 {input_precision = "ieee"} : !tkgpu.memdesc<64x64xf16, #sa>, !tkgpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
    return %d2 : tensor<64x128xf32, #mma>
  }
}

// -----

#ba = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
#sa = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>
// A value from elsewhere (an argument here): one tile, written once where the value is made.
// CHECK-LABEL: func.func @shared_tile
// CHECK-NEXT: %[[T:.+]] = tkgpu.local_alloc %arg2 : tensor<64x64xf16, #blocked> -> !tkgpu.memdesc<64x64xf16, #shared>
// CHECK: %[[D1:.+]] = tkgpu.warp_group_dot %[[T]],
// CHECK-NOT: tkgpu.local_alloc
// CHECK: tkgpu.warp_group_dot %[[T]], %{{.+}}, %[[D1]]
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @shared_tile(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %m: i32 {tk.divisibility = 16 : i32}, %q: tensor<64x64xf16, #ba>) -> tensor<64x128xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %ones = arith.constant dense<1.000000e+00> : tensor<64x128xf16, #bb>
    %0 = tk.get_program_id {axis = 0 : i32} : i32
    %b = tkgpu.local_alloc %ones : tensor<64x128xf16, #bb> -> !tkgpu.memdesc<64x128xf16, #sb>
    %t1 = tkgpu.local_alloc %q : tensor<64x64xf16, #ba> -> !tkgpu.memdesc<64x64xf16, #sa>
    %d1 = tkgpu.warp_group_dot %t1, %b, %cst {input_precision = "ieee"} : !tkgpu.memdesc<64x64xf16, #sa>, !tkgpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
    %t2 = tkgpu.local_alloc %q : tensor<64x64xf16, #ba> -> !tkgpu.memdesc<64x64xf16, #sa>
    %d2 = tkgpu.warp_group_dot %t2, %b, %d1 {input_precision = "ieee"} : !tkgpu.memdesc<64x64xf16, #sa>, !tkgpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
    return %d2 : tensor<64x128xf32, #mma>
  }
}

// -----

#ba = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
#sa = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>
// A map read twice keeps its loads (a map has one box and swizzle); a tile is still a tile.
// CHECK-LABEL: func.func @map_read_twice
// CHECK-NOT: box
// CHECK: tk.descriptor_load
// CHECK: tk.descriptor_load
// CHECK-NOT: tkgpu.init_barrier
// CHECK: return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @map_read_twice(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %m: i32 {tk.divisibility = 16 : i32}, %arg2: !tk.tensordesc<tensor<64x64xf16>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 0, 64>, shape_args = array<i32: 1, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 64, 1>}}) -> tensor<64x128xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %ones = arith.constant dense<1.000000e+00> : tensor<64x128xf16, #bb>
    %0 = tk.get_program_id {axis = 0 : i32} : i32
    %q = tk.descriptor_load %arg2[%0, %c0_i32] : !tk.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #ba>
    %b = tkgpu.local_alloc %ones : tensor<64x128xf16, #bb> -> !tkgpu.memdesc<64x128xf16, #sb>
    %q2 = tk.descriptor_load %arg2[%c0_i32, %c0_i32] : !tk.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #ba>
    %t1 = tkgpu.local_alloc %q : tensor<64x64xf16, #ba> -> !tkgpu.memdesc<64x64xf16, #sa>
    %d1 = tkgpu.warp_group_dot %t1, %b, %cst {input_precision = "ieee"} : !tkgpu.memdesc<64x64xf16, #sa>, !tkgpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
    %t2 = tkgpu.local_alloc %q2 : tensor<64x64xf16, #ba> -> !tkgpu.memdesc<64x64xf16, #sa>
    %d2 = tkgpu.warp_group_dot %t2, %b, %d1 {input_precision = "ieee"} : !tkgpu.memdesc<64x64xf16, #sa>, !tkgpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
    return %d2 : tensor<64x128xf32, #mma>
  }
}

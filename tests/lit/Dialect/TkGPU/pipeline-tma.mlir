// tk-pipeline with tensor maps: the descriptor loads behind a tkgpu.warp_group_dot's tiles become
// TMA copies straight into rings of swizzled tiles, each slot signalled by its own mbarrier; the
// maps' recipes get the box and swizzle of those copies.
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=3 | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=1 | FileCheck %s --check-prefix=OFF

#ba = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#bt = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
#sa = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>
#st = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>

// A (64 x 64, rows of 128 bytes) and B given K x N (64 x 128: two panels of 64 columns). Before
// the loop: the rings, a ring of three barriers each expecting two arrivals (one per copy),
// and the copies of iterations 0 and 1, off where the loop is shorter. In the loop: the wait
// for the slot's phase, the product in place, then (after a barrier: every warpgroup is done
// with the slot) the copies of iteration i + 2 into the slot iteration i - 1 read. After it:
// the barriers are invalidated between two barriers.
// CHECK-LABEL: func.func @matmul_kn
// CHECK-SAME: tkgpu.tensor_map = {base = 1 : i32, box = array<i32: 64, 64>, {{[^}]*}}swizzle = 128 : i32}
// CHECK-SAME: tkgpu.tensor_map = {base = 2 : i32, box = array<i32: 64, 64>, {{[^}]*}}swizzle = 128 : i32}
// CHECK: %[[B:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<3x64x128xf16, #shared>
// CHECK: %[[A:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<3x64x64xf16, #shared1>
// CHECK: %[[BARS:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<3x1x1xi64, #shared2>
// CHECK: %[[BAR0:.+]] = tkgpu.memdesc_index %[[BARS]]
// CHECK-NEXT: tkgpu.init_barrier %[[BAR0]], 2
// CHECK: tkgpu.init_barrier %{{.+}}, 2
// CHECK: tkgpu.init_barrier %{{.+}}, 2
// CHECK-NEXT: tkgpu.barrier
// CHECK: %[[P0:.+]] = arith.cmpi slt
// CHECK: tkgpu.async_tma_copy_global_to_local %arg7[{{.+}}], %{{.+}}, %{{.+}} pred %[[P0]] : !tk.tensordesc<tensor<64x128xf16>> -> !tkgpu.memdesc<64x128xf16, #shared>
// CHECK: tkgpu.async_tma_copy_global_to_local %arg6[{{.+}}], %{{.+}}, %{{.+}} pred %[[P0]]
// CHECK: tkgpu.async_tma_copy_global_to_local %arg7
// CHECK: tkgpu.async_tma_copy_global_to_local %arg6
// CHECK: %[[R:.+]] = scf.for %[[IV:.+]] = {{.+}} iter_args
// CHECK-NOT: tk.descriptor_load
// CHECK-NOT: tkgpu.async_wait
// CHECK: %[[SLOT:.+]] = arith.remsi %{{.+}}, %c3
// CHECK: %[[BAR:.+]] = tkgpu.memdesc_index %[[BARS]][%[[SLOT]]]
// CHECK: %[[ROUND:.+]] = arith.divsi %{{.+}}, %c3
// CHECK: %[[PHASE:.+]] = arith.remsi %[[ROUND]], %c2
// CHECK: tkgpu.wait_barrier %[[BAR]], %[[PHASE]]
// CHECK: %[[TA:.+]] = tkgpu.memdesc_index %[[A]]
// CHECK: %[[TB:.+]] = tkgpu.memdesc_index %[[B]]
// CHECK: %[[D:.+]] = tkgpu.warp_group_dot %[[TA]], %[[TB]], %{{.+}} {{{.*}}is_async}
// CHECK-NEXT: %[[W:.+]] = tkgpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK: tkgpu.barrier
// CHECK: tkgpu.async_tma_copy_global_to_local %arg7[{{.+}}], %{{.+}}, %{{.+}} pred
// CHECK: tkgpu.async_tma_copy_global_to_local %arg6[{{.+}}], %{{.+}}, %{{.+}} pred
// CHECK-NOT: tkgpu.async_commit_group
// CHECK: scf.yield %[[W]]
// CHECK: tkgpu.warp_group_dot_wait %[[R]] {pendings = 0 : i32}
// CHECK-NOT: tkgpu.async_wait
// CHECK-NEXT: tkgpu.barrier
// CHECK: tkgpu.inval_barrier
// CHECK: tkgpu.inval_barrier
// CHECK: tkgpu.inval_barrier
// CHECK-NEXT: tkgpu.barrier
// OFF-LABEL: func.func @matmul_kn
// OFF-NOT: box
// OFF: tk.descriptor_load
// OFF-NOT: tkgpu.init_barrier
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @matmul_kn(%c: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %m: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %arg6: !tk.tensordesc<tensor<64x64xf16>> {tkgpu.tensor_map = {base = 1 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 3, 5>, stride_args = array<i32: 5, -1>, strides = array<i64: 0, 1>}}, %arg7: !tk.tensordesc<tensor<64x128xf16>> {tkgpu.tensor_map = {base = 2 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 5, 4>, stride_args = array<i32: 4, -1>, strides = array<i64: 0, 1>}}) -> tensor<64x128xf32, #mma> {
    %c63_i32 = arith.constant 63 : i32
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %0 = tk.get_program_id {axis = 0 : i32} : i32
    %1 = tk.get_program_id {axis = 1 : i32} : i32
    %2 = arith.addi %k, %c63_i32 : i32
    %3 = arith.divsi %2, %c64_i32 : i32
    %4 = scf.for %iv = %c0_i32 to %3 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x128xf32, #mma>)  : i32 {
      %24 = arith.muli %iv, %c64_i32 : i32
      %25 = arith.muli %1, %c128_i32 : i32
      %26 = tk.descriptor_load %arg7[%24, %25] : !tk.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16, #bb>
      %27 = arith.muli %0, %c64_i32 : i32
      %28 = tk.descriptor_load %arg6[%27, %24] : !tk.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #ba>
      %29 = tkgpu.local_alloc %28 : tensor<64x64xf16, #ba> -> !tkgpu.memdesc<64x64xf16, #sa>
      %30 = tkgpu.local_alloc %26 : tensor<64x128xf16, #bb> -> !tkgpu.memdesc<64x128xf16, #sb>
      %31 = tkgpu.warp_group_dot %29, %30, %acc {input_precision = "ieee"} : !tkgpu.memdesc<64x64xf16, #sa>, !tkgpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
      scf.yield %31 : tensor<64x128xf32, #mma>
    }
    return %4 : tensor<64x128xf32, #mma>
  }
}

// -----

#ba = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#bt = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
#sa = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>
#st = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>

// B given N x K and transposed (tk.trans) before the product: the tile holds the loaded block
// as it lies in memory, viewed as its transpose (order [0, 1]); one box of 128 x 64.
// CHECK-LABEL: func.func @matmul_nk
// CHECK-SAME: tkgpu.tensor_map = {base = 2 : i32, box = array<i32: 128, 64>, {{[^}]*}}swizzle = 128 : i32}
// CHECK: tkgpu.local_alloc : !tkgpu.memdesc<3x64x128xf16, #shared>
// CHECK: scf.for
// CHECK-NOT: tk.trans
// CHECK: tkgpu.async_tma_copy_global_to_local %arg7[{{.+}}], %{{.+}}, %{{.+}} pred %{{.+}} : !tk.tensordesc<tensor<128x64xf16>> -> !tkgpu.memdesc<64x128xf16, #shared>
// CHECK: scf.yield
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @matmul_nk(%c: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %m: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %arg6: !tk.tensordesc<tensor<64x64xf16>> {tkgpu.tensor_map = {base = 1 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 3, 5>, stride_args = array<i32: 5, -1>, strides = array<i64: 0, 1>}}, %arg7: !tk.tensordesc<tensor<128x64xf16>> {tkgpu.tensor_map = {base = 2 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 4, 5>, stride_args = array<i32: 5, -1>, strides = array<i64: 0, 1>}}) -> tensor<64x128xf32, #mma> {
    %c63_i32 = arith.constant 63 : i32
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %0 = tk.get_program_id {axis = 0 : i32} : i32
    %1 = tk.get_program_id {axis = 1 : i32} : i32
    %2 = arith.addi %k, %c63_i32 : i32
    %3 = arith.divsi %2, %c64_i32 : i32
    %4 = scf.for %iv = %c0_i32 to %3 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x128xf32, #mma>)  : i32 {
      %24 = arith.muli %iv, %c64_i32 : i32
      %25 = arith.muli %1, %c128_i32 : i32
      %26 = tk.descriptor_load %arg7[%25, %24] : !tk.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #bb>
      %t = tk.trans %26 {order = array<i32: 1, 0>} : tensor<128x64xf16, #bb> -> tensor<64x128xf16, #bt>
      %27 = arith.muli %0, %c64_i32 : i32
      %28 = tk.descriptor_load %arg6[%27, %24] : !tk.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #ba>
      %29 = tkgpu.local_alloc %28 : tensor<64x64xf16, #ba> -> !tkgpu.memdesc<64x64xf16, #sa>
      %30 = tkgpu.local_alloc %t : tensor<64x128xf16, #bt> -> !tkgpu.memdesc<64x128xf16, #st>
      %31 = tkgpu.warp_group_dot %29, %30, %acc {input_precision = "ieee"} : !tkgpu.memdesc<64x64xf16, #sa>, !tkgpu.memdesc<64x128xf16, #st>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
      scf.yield %31 : tensor<64x128xf32, #mma>
    }
    return %4 : tensor<64x128xf32, #mma>
  }
}

// -----

#ba = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#bt = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
#sa = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>
#st = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>

// A map also read outside the ring (after the loop) keeps its own copies everywhere, and its
// recipe its block and no swizzle; the other map still feeds its ring.
// CHECK-LABEL: func.func @map_read_twice
// CHECK-SAME: %arg6: !tk.tensordesc<tensor<64x64xf16>> {tkgpu.tensor_map = {base = 1 : i32, shape
// CHECK-SAME: tkgpu.tensor_map = {base = 2 : i32, box = array<i32: 64, 64>
// CHECK: tkgpu.init_barrier %{{.+}}, 1
// CHECK: scf.for
// CHECK: tk.descriptor_load %arg6
// CHECK: tkgpu.async_tma_copy_global_to_local %arg7
// CHECK: scf.yield
// CHECK: tk.descriptor_load %arg6
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @map_read_twice(%c: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %m: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %arg6: !tk.tensordesc<tensor<64x64xf16>> {tkgpu.tensor_map = {base = 1 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 3, 5>, stride_args = array<i32: 5, -1>, strides = array<i64: 0, 1>}}, %arg7: !tk.tensordesc<tensor<64x128xf16>> {tkgpu.tensor_map = {base = 2 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 5, 4>, stride_args = array<i32: 4, -1>, strides = array<i64: 0, 1>}}) -> (tensor<64x128xf32, #mma>, tensor<64x64xf16, #ba>) {
    %c63_i32 = arith.constant 63 : i32
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %0 = tk.get_program_id {axis = 0 : i32} : i32
    %1 = tk.get_program_id {axis = 1 : i32} : i32
    %2 = arith.addi %k, %c63_i32 : i32
    %3 = arith.divsi %2, %c64_i32 : i32
    %4 = scf.for %iv = %c0_i32 to %3 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x128xf32, #mma>)  : i32 {
      %24 = arith.muli %iv, %c64_i32 : i32
      %25 = arith.muli %1, %c128_i32 : i32
      %26 = tk.descriptor_load %arg7[%24, %25] : !tk.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16, #bb>
      %27 = arith.muli %0, %c64_i32 : i32
      %28 = tk.descriptor_load %arg6[%27, %24] : !tk.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #ba>
      %29 = tkgpu.local_alloc %28 : tensor<64x64xf16, #ba> -> !tkgpu.memdesc<64x64xf16, #sa>
      %30 = tkgpu.local_alloc %26 : tensor<64x128xf16, #bb> -> !tkgpu.memdesc<64x128xf16, #sb>
      %31 = tkgpu.warp_group_dot %29, %30, %acc {input_precision = "ieee"} : !tkgpu.memdesc<64x64xf16, #sa>, !tkgpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
      scf.yield %31 : tensor<64x128xf32, #mma>
    }
    %last = tk.descriptor_load %arg6[%c0_i32, %c0_i32] : !tk.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #ba>
    return %4, %last : tensor<64x128xf32, #mma>, tensor<64x64xf16, #ba>
  }
}

// tk-pipeline with wgmma: the loads behind a tkgpu.warp_group_dot's tiles become cp.async copies
// straight into rings of num_stages tiles; the product reads its slot in place.
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=3 | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=4 | FileCheck %s --check-prefix=FOUR

#ba = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#sha = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#shb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sa0 = #tkgpu.slice<{dim = 0, parent = #ba}>
#sa1 = #tkgpu.slice<{dim = 1, parent = #ba}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #bb}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #bb}>

// The accumulator only goes from one product to the next: the product is asynchronous, one
// stays in flight (warp_group_dot_wait 1) while the next iteration starts; the copies of
// iteration i + 2 go into the slot iteration i - 1 read, after a barrier (every warpgroup has
// waited for its product i - 1). The wait for the copies makes them visible to wgmma
// (async_proxy). After the loop the last product is waited for, then every copy group.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[A:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<3x64x32xf16, #shared>
// CHECK: %[[B:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16, #shared1>
// CHECK: tkgpu.async_commit_group
// CHECK: tkgpu.async_commit_group
// CHECK: %[[R:.+]]:3 = scf.for
// CHECK-NOT: tk.load
// CHECK: tkgpu.async_wait 1 {async_proxy}
// CHECK-NOT: tkgpu.local_load
// CHECK: %[[TA:.+]] = tkgpu.memdesc_index %[[A]]
// CHECK: %[[TB:.+]] = tkgpu.memdesc_index %[[B]]
// CHECK: %[[D:.+]] = tkgpu.warp_group_dot %[[TA]], %[[TB]], %{{.+}} {is_async}
// CHECK-NEXT: %[[W:.+]] = tkgpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK: tkgpu.barrier
// CHECK: tkgpu.async_copy_global_to_local
// CHECK: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK: scf.yield %[[W]]
// CHECK: %[[DONE:.+]] = tkgpu.warp_group_dot_wait %[[R]]#0 {pendings = 0 : i32}
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK: return %[[DONE]]
// FOUR-LABEL: func.func @matmul
// FOUR: tkgpu.local_alloc : !tkgpu.memdesc<4x64x32xf16
// FOUR: scf.for
// FOUR: tkgpu.async_wait 2 {async_proxy}
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @matmul(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %zero_a = arith.constant dense<0.0> : tensor<64x32xf16, #ba>
  %zero_b = arith.constant dense<0.0> : tensor<32x64xf16, #bb>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %step_a = arith.constant dense<32> : tensor<64x32xi32, #ba>
  %ra = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #sa1>
  %ra1 = tk.expand_dims %ra {axis = 1 : i32} : tensor<64xi32, #sa1> -> tensor<64x1xi32, #ba>
  %ks = tk.splat %k : i32 -> tensor<64x1xi32, #ba>
  %rowa = arith.muli %ra1, %ks : tensor<64x1xi32, #ba>
  %ca = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #sa0>
  %ca1 = tk.expand_dims %ca {axis = 0 : i32} : tensor<32xi32, #sa0> -> tensor<1x32xi32, #ba>
  %rowa2 = tk.broadcast %rowa : tensor<64x1xi32, #ba> -> tensor<64x32xi32, #ba>
  %cola2 = tk.broadcast %ca1 : tensor<1x32xi32, #ba> -> tensor<64x32xi32, #ba>
  %offa = arith.addi %rowa2, %cola2 : tensor<64x32xi32, #ba>
  %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>, #ba>
  %pa0 = tk.addptr %pa, %offa : tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi32, #ba> -> tensor<64x32x!tk.ptr<f16>, #ba>
  %rb = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #sb1>
  %rb1 = tk.expand_dims %rb {axis = 1 : i32} : tensor<32xi32, #sb1> -> tensor<32x1xi32, #bb>
  %ns = tk.splat %n : i32 -> tensor<32x1xi32, #bb>
  %rowb = arith.muli %rb1, %ns : tensor<32x1xi32, #bb>
  %cb = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #sb0>
  %cb1 = tk.expand_dims %cb {axis = 0 : i32} : tensor<64xi32, #sb0> -> tensor<1x64xi32, #bb>
  %rowb2 = tk.broadcast %rowb : tensor<32x1xi32, #bb> -> tensor<32x64xi32, #bb>
  %colb2 = tk.broadcast %cb1 : tensor<1x64xi32, #bb> -> tensor<32x64xi32, #bb>
  %offb = arith.addi %rowb2, %colb2 : tensor<32x64xi32, #bb>
  %pb = tk.splat %b : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #bb>
  %pb0 = tk.addptr %pb, %offb : tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi32, #bb> -> tensor<32x64x!tk.ptr<f16>, #bb>
  %n32 = arith.muli %n, %c32 : i32
  %step_b = tk.splat %n32 : i32 -> tensor<32x64xi32, #bb>
  %kp = arith.addi %k, %c31 : i32
  %iters = arith.divsi %kp, %c32 : i32
  %r:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %pai = %pa0, %pbi = %pb0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #ba>, tensor<32x64x!tk.ptr<f16>, #bb>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %kk : i32
    %lefta = tk.splat %left : i32 -> tensor<1x32xi32, #ba>
    %ma1 = arith.cmpi slt, %ca1, %lefta : tensor<1x32xi32, #ba>
    %ma = tk.broadcast %ma1 : tensor<1x32xi1, #ba> -> tensor<64x32xi1, #ba>
    %x = tk.load %pai, %ma, %zero_a : (tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi1, #ba>, tensor<64x32xf16, #ba>) -> tensor<64x32xf16, #ba>
    %leftb = tk.splat %left : i32 -> tensor<32x1xi32, #bb>
    %mb1 = arith.cmpi slt, %rb1, %leftb : tensor<32x1xi32, #bb>
    %mb = tk.broadcast %mb1 : tensor<32x1xi1, #bb> -> tensor<32x64xi1, #bb>
    %y = tk.load %pbi, %mb, %zero_b : (tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi1, #bb>, tensor<32x64xf16, #bb>) -> tensor<32x64xf16, #bb>
    %xa = tkgpu.local_alloc %x : tensor<64x32xf16, #ba> -> !tkgpu.memdesc<64x32xf16, #sha>
    %yb = tkgpu.local_alloc %y : tensor<32x64xf16, #bb> -> !tkgpu.memdesc<32x64xf16, #shb>
    %d = tkgpu.warp_group_dot %xa, %yb, %acc : !tkgpu.memdesc<64x32xf16, #sha>, !tkgpu.memdesc<32x64xf16, #shb>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %pan = tk.addptr %pai, %step_a : tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi32, #ba> -> tensor<64x32x!tk.ptr<f16>, #ba>
    %pbn = tk.addptr %pbi, %step_b : tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi32, #bb> -> tensor<32x64x!tk.ptr<f16>, #bb>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #ba>, tensor<32x64x!tk.ptr<f16>, #bb>
  }
  func.return %r#0 : tensor<64x64xf32, #mma>
}
}


// -----

#ba = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#sha = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#shb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sa0 = #tkgpu.slice<{dim = 0, parent = #ba}>
#sa1 = #tkgpu.slice<{dim = 1, parent = #ba}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #bb}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #bb}>

// The accumulator is scaled before each product: the product stays in flight across the end of
// the iteration (its copies, the barrier) and the next one waits for it, with none pending,
// just before the scaling reads it. That wait comes before the copies that overwrite the slot
// the product read.
// CHECK-LABEL: func.func @scaled
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] =
// CHECK: tkgpu.async_wait 1 {async_proxy}
// CHECK: %[[READY:.+]] = tkgpu.warp_group_dot_wait %[[ACC]] {pendings = 0 : i32}
// CHECK: arith.addf %[[READY]], %[[READY]]
// CHECK: %[[D:.+]] = tkgpu.warp_group_dot {{.*}} {is_async}
// CHECK-NOT: tkgpu.warp_group_dot_wait
// CHECK: tkgpu.barrier
// CHECK: tkgpu.async_copy_global_to_local
// CHECK: scf.yield %[[D]],
// CHECK: tkgpu.warp_group_dot_wait %{{.*}}#0 {pendings = 0 : i32}
// CHECK: tkgpu.async_wait 0
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @scaled(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %zero_a = arith.constant dense<0.0> : tensor<64x32xf16, #ba>
  %zero_b = arith.constant dense<0.0> : tensor<32x64xf16, #bb>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %step_a = arith.constant dense<32> : tensor<64x32xi32, #ba>
  %ra = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #sa1>
  %ra1 = tk.expand_dims %ra {axis = 1 : i32} : tensor<64xi32, #sa1> -> tensor<64x1xi32, #ba>
  %ks = tk.splat %k : i32 -> tensor<64x1xi32, #ba>
  %rowa = arith.muli %ra1, %ks : tensor<64x1xi32, #ba>
  %ca = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #sa0>
  %ca1 = tk.expand_dims %ca {axis = 0 : i32} : tensor<32xi32, #sa0> -> tensor<1x32xi32, #ba>
  %rowa2 = tk.broadcast %rowa : tensor<64x1xi32, #ba> -> tensor<64x32xi32, #ba>
  %cola2 = tk.broadcast %ca1 : tensor<1x32xi32, #ba> -> tensor<64x32xi32, #ba>
  %offa = arith.addi %rowa2, %cola2 : tensor<64x32xi32, #ba>
  %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>, #ba>
  %pa0 = tk.addptr %pa, %offa : tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi32, #ba> -> tensor<64x32x!tk.ptr<f16>, #ba>
  %rb = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #sb1>
  %rb1 = tk.expand_dims %rb {axis = 1 : i32} : tensor<32xi32, #sb1> -> tensor<32x1xi32, #bb>
  %ns = tk.splat %n : i32 -> tensor<32x1xi32, #bb>
  %rowb = arith.muli %rb1, %ns : tensor<32x1xi32, #bb>
  %cb = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #sb0>
  %cb1 = tk.expand_dims %cb {axis = 0 : i32} : tensor<64xi32, #sb0> -> tensor<1x64xi32, #bb>
  %rowb2 = tk.broadcast %rowb : tensor<32x1xi32, #bb> -> tensor<32x64xi32, #bb>
  %colb2 = tk.broadcast %cb1 : tensor<1x64xi32, #bb> -> tensor<32x64xi32, #bb>
  %offb = arith.addi %rowb2, %colb2 : tensor<32x64xi32, #bb>
  %pb = tk.splat %b : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #bb>
  %pb0 = tk.addptr %pb, %offb : tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi32, #bb> -> tensor<32x64x!tk.ptr<f16>, #bb>
  %n32 = arith.muli %n, %c32 : i32
  %step_b = tk.splat %n32 : i32 -> tensor<32x64xi32, #bb>
  %kp = arith.addi %k, %c31 : i32
  %iters = arith.divsi %kp, %c32 : i32
  %r:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %pai = %pa0, %pbi = %pb0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #ba>, tensor<32x64x!tk.ptr<f16>, #bb>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %kk : i32
    %lefta = tk.splat %left : i32 -> tensor<1x32xi32, #ba>
    %ma1 = arith.cmpi slt, %ca1, %lefta : tensor<1x32xi32, #ba>
    %ma = tk.broadcast %ma1 : tensor<1x32xi1, #ba> -> tensor<64x32xi1, #ba>
    %x = tk.load %pai, %ma, %zero_a : (tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi1, #ba>, tensor<64x32xf16, #ba>) -> tensor<64x32xf16, #ba>
    %leftb = tk.splat %left : i32 -> tensor<32x1xi32, #bb>
    %mb1 = arith.cmpi slt, %rb1, %leftb : tensor<32x1xi32, #bb>
    %mb = tk.broadcast %mb1 : tensor<32x1xi1, #bb> -> tensor<32x64xi1, #bb>
    %y = tk.load %pbi, %mb, %zero_b : (tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi1, #bb>, tensor<32x64xf16, #bb>) -> tensor<32x64xf16, #bb>
    %xa = tkgpu.local_alloc %x : tensor<64x32xf16, #ba> -> !tkgpu.memdesc<64x32xf16, #sha>
    %yb = tkgpu.local_alloc %y : tensor<32x64xf16, #bb> -> !tkgpu.memdesc<32x64xf16, #shb>
    %acc2 = arith.addf %acc, %acc : tensor<64x64xf32, #mma>
    %d = tkgpu.warp_group_dot %xa, %yb, %acc2 : !tkgpu.memdesc<64x32xf16, #sha>, !tkgpu.memdesc<32x64xf16, #shb>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %pan = tk.addptr %pai, %step_a : tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi32, #ba> -> tensor<64x32x!tk.ptr<f16>, #ba>
    %pbn = tk.addptr %pbi, %step_b : tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi32, #bb> -> tensor<32x64x!tk.ptr<f16>, #bb>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #ba>, tensor<32x64x!tk.ptr<f16>, #bb>
  }
  func.return %r#0 : tensor<64x64xf32, #mma>
}
}

// -----

#ba = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#sha = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#shb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sa0 = #tkgpu.slice<{dim = 0, parent = #ba}>
#sa1 = #tkgpu.slice<{dim = 1, parent = #ba}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #bb}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #bb}>

// B is computed in the body from its load (weights scaled, or unpacked, before the product)
// and stored there into one tile, which the next iteration writes again: the product stays
// synchronous, done before the loop goes on. A's load is still pipelined.
// CHECK-LABEL: func.func @dequantized
// CHECK: scf.for
// CHECK: tkgpu.async_wait 1 {async_proxy}
// CHECK: tk.load
// CHECK: %[[YB:.+]] = tkgpu.local_alloc %{{.+}} : tensor<32x64xf16
// CHECK: tkgpu.warp_group_dot %{{.+}}, %[[YB]], %{{.+}} :
// CHECK-NOT: tkgpu.warp_group_dot_wait
// CHECK: scf.yield
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @dequantized(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %zero_a = arith.constant dense<0.0> : tensor<64x32xf16, #ba>
  %zero_b = arith.constant dense<0.0> : tensor<32x64xf16, #bb>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %step_a = arith.constant dense<32> : tensor<64x32xi32, #ba>
  %ra = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #sa1>
  %ra1 = tk.expand_dims %ra {axis = 1 : i32} : tensor<64xi32, #sa1> -> tensor<64x1xi32, #ba>
  %ks = tk.splat %k : i32 -> tensor<64x1xi32, #ba>
  %rowa = arith.muli %ra1, %ks : tensor<64x1xi32, #ba>
  %ca = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #sa0>
  %ca1 = tk.expand_dims %ca {axis = 0 : i32} : tensor<32xi32, #sa0> -> tensor<1x32xi32, #ba>
  %rowa2 = tk.broadcast %rowa : tensor<64x1xi32, #ba> -> tensor<64x32xi32, #ba>
  %cola2 = tk.broadcast %ca1 : tensor<1x32xi32, #ba> -> tensor<64x32xi32, #ba>
  %offa = arith.addi %rowa2, %cola2 : tensor<64x32xi32, #ba>
  %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>, #ba>
  %pa0 = tk.addptr %pa, %offa : tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi32, #ba> -> tensor<64x32x!tk.ptr<f16>, #ba>
  %rb = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #sb1>
  %rb1 = tk.expand_dims %rb {axis = 1 : i32} : tensor<32xi32, #sb1> -> tensor<32x1xi32, #bb>
  %ns = tk.splat %n : i32 -> tensor<32x1xi32, #bb>
  %rowb = arith.muli %rb1, %ns : tensor<32x1xi32, #bb>
  %cb = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #sb0>
  %cb1 = tk.expand_dims %cb {axis = 0 : i32} : tensor<64xi32, #sb0> -> tensor<1x64xi32, #bb>
  %rowb2 = tk.broadcast %rowb : tensor<32x1xi32, #bb> -> tensor<32x64xi32, #bb>
  %colb2 = tk.broadcast %cb1 : tensor<1x64xi32, #bb> -> tensor<32x64xi32, #bb>
  %offb = arith.addi %rowb2, %colb2 : tensor<32x64xi32, #bb>
  %pb = tk.splat %b : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #bb>
  %pb0 = tk.addptr %pb, %offb : tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi32, #bb> -> tensor<32x64x!tk.ptr<f16>, #bb>
  %n32 = arith.muli %n, %c32 : i32
  %step_b = tk.splat %n32 : i32 -> tensor<32x64xi32, #bb>
  %kp = arith.addi %k, %c31 : i32
  %iters = arith.divsi %kp, %c32 : i32
  %r:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %pai = %pa0, %pbi = %pb0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #ba>, tensor<32x64x!tk.ptr<f16>, #bb>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %kk : i32
    %lefta = tk.splat %left : i32 -> tensor<1x32xi32, #ba>
    %ma1 = arith.cmpi slt, %ca1, %lefta : tensor<1x32xi32, #ba>
    %ma = tk.broadcast %ma1 : tensor<1x32xi1, #ba> -> tensor<64x32xi1, #ba>
    %x = tk.load %pai, %ma, %zero_a : (tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi1, #ba>, tensor<64x32xf16, #ba>) -> tensor<64x32xf16, #ba>
    %leftb = tk.splat %left : i32 -> tensor<32x1xi32, #bb>
    %mb1 = arith.cmpi slt, %rb1, %leftb : tensor<32x1xi32, #bb>
    %mb = tk.broadcast %mb1 : tensor<32x1xi1, #bb> -> tensor<32x64xi1, #bb>
    %y = tk.load %pbi, %mb, %zero_b : (tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi1, #bb>, tensor<32x64xf16, #bb>) -> tensor<32x64xf16, #bb>
    %xa = tkgpu.local_alloc %x : tensor<64x32xf16, #ba> -> !tkgpu.memdesc<64x32xf16, #sha>
    %y2 = arith.addf %y, %y : tensor<32x64xf16, #bb>
    %yb = tkgpu.local_alloc %y2 : tensor<32x64xf16, #bb> -> !tkgpu.memdesc<32x64xf16, #shb>
    %d = tkgpu.warp_group_dot %xa, %yb, %acc : !tkgpu.memdesc<64x32xf16, #sha>, !tkgpu.memdesc<32x64xf16, #shb>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %pan = tk.addptr %pai, %step_a : tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi32, #ba> -> tensor<64x32x!tk.ptr<f16>, #ba>
    %pbn = tk.addptr %pbi, %step_b : tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi32, #bb> -> tensor<32x64x!tk.ptr<f16>, #bb>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #ba>, tensor<32x64x!tk.ptr<f16>, #bb>
  }
  func.return %r#0 : tensor<64x64xf32, #mma>
}
}



// tk-pipeline: the loads feeding a tensor-core dot become cp.async copies into rings of
// num_stages swizzled shared tiles, started num_stages - 1 iterations ahead; or, when that lets
// more programs share a multiprocessor, rings of num_stages - 1 tiles (shared-per-sm makes
// these small tiles count).
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=3 | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-pipeline="num-stages=3 shared-per-sm=40000" | FileCheck %s --check-prefix=SMALL
// RUN: tk-opt %s -split-input-file -tk-pipeline="num-stages=4 shared-per-sm=60000" | FileCheck %s --check-prefix=FOUR
// RUN: tk-opt %s -split-input-file -tk-pipeline="num-stages=3 shared-per-sm=60000" | FileCheck %s --check-prefix=REGS
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=2 | FileCheck %s --check-prefix=TWO
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=1 | FileCheck %s --check-prefix=OFF

#ba = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sa0 = #tkgpu.slice<{dim = 0, parent = #ba}>
#sa1 = #tkgpu.slice<{dim = 1, parent = #ba}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #bb}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #bb}>

// A 64 x 64 x 32 f16 tile, K masked: rows of 64 bytes (a) and 128 bytes (b) give the swizzles.
// The prologue starts iterations 0 and 1 (each predicated on the loop getting that far: its
// trip count is not known); the loop waits for its own tile (one group may stay in flight),
// starts iteration i + 2, reads its tiles and multiplies; the copies of the last two
// iterations are predicated off; after the loop every group is drained.
// CHECK-DAG: #[[SA:.+]] = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[SB:.+]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: func.func @matmul
// CHECK: %[[A:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<3x64x32xf16, #[[SA]]>
// CHECK: %[[B:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16, #[[SB]]>
// CHECK: %[[A0:.+]] = tkgpu.memdesc_index %[[A]][%{{.+}}] : !tkgpu.memdesc<3x64x32xf16, #[[SA]]> -> !tkgpu.memdesc<64x32xf16, #[[SA]]>
// CHECK: tkgpu.async_copy_global_to_local %{{.+}}, %[[A0]] mask %{{.+}} : tensor<64x32x!tk.ptr<f16>, #{{.+}}> -> !tkgpu.memdesc<64x32xf16, #[[SA]]>
// CHECK: tkgpu.async_copy_global_to_local %{{.+}} : tensor<32x64x!tk.ptr<f16>
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK: tkgpu.async_copy_global_to_local %{{.+}} : tensor<64x32x!tk.ptr<f16>
// CHECK: tkgpu.async_copy_global_to_local %{{.+}} : tensor<32x64x!tk.ptr<f16>
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK: %[[R:.+]]:3 = scf.for
// CHECK-NOT: tk.load
// CHECK: tkgpu.async_wait 1
// CHECK: %[[PRED:.+]] = tk.splat %{{.+}} : i1 -> tensor<64x32xi1
// CHECK: %[[MASK:.+]] = arith.andi %{{.+}}, %[[PRED]]
// CHECK: tkgpu.async_copy_global_to_local %{{.+}}, %{{.+}} mask %[[MASK]]
// CHECK: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK: %[[TA:.+]] = tkgpu.memdesc_index %[[A]]
// CHECK: %[[XA:.+]] = tkgpu.local_load %[[TA]] : !tkgpu.memdesc<64x32xf16, #[[SA]]> -> tensor<64x32xf16, #{{.+}}>
// CHECK: %[[TB:.+]] = tkgpu.memdesc_index %[[B]]
// CHECK: %[[YB:.+]] = tkgpu.local_load %[[TB]]
// CHECK: tk.dot %[[XA]], %[[YB]]
// CHECK: scf.yield
// CHECK: tkgpu.async_wait 0
// CHECK: return %[[R]]#0
// The smaller ring: three stages as three tiles (24 KiB) leave room for one program in 40000
// bytes, as two tiles (16 KiB) for two, which registers allow at 4 warps. The prologue starts
// iterations 0 and 1 into the ring's two tiles; the loop waits for its own tile (one group may
// stay in flight), reads its tiles and multiplies, waits for every thread to have read them,
// then starts iteration i + 2 into the same slot; the copies of the last two iterations are
// predicated off; after the loop every group is drained.
// SMALL-DAG: #[[SA:.+]] = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// SMALL-DAG: #[[SB:.+]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// SMALL-LABEL: func.func @matmul
// SMALL: %[[A:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<2x64x32xf16, #[[SA]]>
// SMALL: %[[B:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<2x32x64xf16, #[[SB]]>
// SMALL: %[[A0:.+]] = tkgpu.memdesc_index %[[A]][%{{.+}}] : !tkgpu.memdesc<2x64x32xf16, #[[SA]]> -> !tkgpu.memdesc<64x32xf16, #[[SA]]>
// SMALL: tkgpu.async_copy_global_to_local %{{.+}}, %[[A0]] mask %{{.+}} : tensor<64x32x!tk.ptr<f16>, #{{.+}}> -> !tkgpu.memdesc<64x32xf16, #[[SA]]>
// SMALL: tkgpu.async_copy_global_to_local %{{.+}} : tensor<32x64x!tk.ptr<f16>
// SMALL-NEXT: tkgpu.async_commit_group
// SMALL: tkgpu.async_copy_global_to_local %{{.+}} : tensor<64x32x!tk.ptr<f16>
// SMALL: tkgpu.async_copy_global_to_local %{{.+}} : tensor<32x64x!tk.ptr<f16>
// SMALL-NEXT: tkgpu.async_commit_group
// SMALL: %[[R:.+]]:3 = scf.for %[[IV:[a-z0-9]+]] =
// SMALL-NOT: tk.load
// SMALL: tkgpu.async_wait 1
// SMALL: %[[NOW:.+]] = arith.remsi %{{.+}}, %c2_i32
// SMALL: %[[TA:.+]] = tkgpu.memdesc_index %[[A]][%[[NOW]]]
// SMALL: %[[XA:.+]] = tkgpu.local_load %[[TA]] : !tkgpu.memdesc<64x32xf16, #[[SA]]> -> tensor<64x32xf16, #{{.+}}>
// SMALL: %[[TB:.+]] = tkgpu.memdesc_index %[[B]]
// SMALL: %[[YB:.+]] = tkgpu.local_load %[[TB]]
// SMALL: tk.dot %[[XA]], %[[YB]]
// SMALL-NOT: tkgpu.async_copy_global_to_local
// SMALL: tkgpu.barrier
// SMALL: %[[NEXT:.+]] = arith.addi %[[IV]], %{{.+}} : i32
// SMALL: arith.remsi %{{.+}}, %c2_i32
// SMALL: %[[PRED:.+]] = tk.splat %{{.+}} : i1 -> tensor<64x32xi1
// SMALL: %[[MASK:.+]] = arith.andi %{{.+}}, %[[PRED]]
// SMALL: tkgpu.async_copy_global_to_local %{{.+}}, %{{.+}} mask %[[MASK]]
// SMALL: tkgpu.async_copy_global_to_local
// SMALL-NEXT: tkgpu.async_commit_group
// SMALL: scf.yield
// SMALL: tkgpu.async_wait 0
// SMALL: return %[[R]]#0
// Four stages, 32 KiB of tiles as four, 24 KiB as three: three tiles, two groups may stay in
// flight.
// FOUR-LABEL: func.func @matmul
// FOUR: tkgpu.local_alloc : !tkgpu.memdesc<3x64x32xf16
// FOUR: tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16
// FOUR: scf.for
// FOUR: tkgpu.async_wait 2
// FOUR: tk.dot
// FOUR: tkgpu.barrier
// FOUR: tkgpu.async_copy_global_to_local
// In 60000 bytes, three stages as three tiles fit two programs and as two tiles three; but
// registers allow two programs of 4 warps for certain, no more: three tiles, copies first.
// REGS-LABEL: func.func @matmul
// REGS: tkgpu.local_alloc : !tkgpu.memdesc<3x64x32xf16
// REGS-NOT: tkgpu.barrier
// REGS: scf.yield
// Two stages: a ring of two tiles, the copies of iteration i + 1 right after the wait (into the
// tile iteration i - 1 read); no other barrier.
// TWO-LABEL: func.func @matmul
// TWO: tkgpu.local_alloc : !tkgpu.memdesc<2x64x32xf16
// TWO: tkgpu.async_commit_group
// TWO-NOT: tkgpu.async_commit_group
// TWO: scf.for
// TWO-NOT: tkgpu.barrier
// TWO: tkgpu.async_wait 0
// TWO-NEXT: arith.
// TWO-NOT: tkgpu.local_load
// TWO: tkgpu.async_copy_global_to_local
// TWO: tkgpu.async_commit_group
// TWO: tkgpu.local_load
// TWO: tk.dot
// TWO-NOT: tkgpu.barrier
// TWO: scf.yield
// OFF-LABEL: func.func @matmul
// OFF-NOT: tkgpu.local_alloc
// OFF: tk.load
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
    %xa = tkgpu.convert_layout %x : tensor<64x32xf16, #ba> -> tensor<64x32xf16, #opa>
    %yb = tkgpu.convert_layout %y : tensor<32x64xf16, #bb> -> tensor<32x64xf16, #opb>
    %d = tk.dot %xa, %yb, %acc {input_precision = "ieee"} : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> + tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
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
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sa0 = #tkgpu.slice<{dim = 0, parent = #ba}>
#sa1 = #tkgpu.slice<{dim = 1, parent = #ba}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #bb}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #bb}>

// a's masked-off elements read as 1: cp.async can only zero-fill, so a stays a load in the
// loop (converted there); b alone is pipelined.
// CHECK-LABEL: func.func @other_one
// CHECK: tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16
// CHECK-NOT: tkgpu.local_alloc
// CHECK: scf.for
// CHECK: tkgpu.async_wait 1
// CHECK: tk.load %{{.+}} : (tensor<64x32x!tk.ptr<f16>
// CHECK: tkgpu.convert_layout
// CHECK: tkgpu.local_load
// CHECK: tk.dot
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @other_one(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %zero_a = arith.constant dense<1.0> : tensor<64x32xf16, #ba>
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
    %xa = tkgpu.convert_layout %x : tensor<64x32xf16, #ba> -> tensor<64x32xf16, #opa>
    %yb = tkgpu.convert_layout %y : tensor<32x64xf16, #bb> -> tensor<32x64xf16, #opb>
    %d = tk.dot %xa, %yb, %acc {input_precision = "ieee"} : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> + tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
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
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sa0 = #tkgpu.slice<{dim = 0, parent = #ba}>
#sa1 = #tkgpu.slice<{dim = 1, parent = #ba}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #bb}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #bb}>

// b's rows may start anywhere (nothing known of n): a thread's elements are not 4-byte
// vectors, which cp.async needs; a alone is pipelined.
// CHECK-LABEL: func.func @narrow
// CHECK: tkgpu.local_alloc : !tkgpu.memdesc<3x64x32xf16
// CHECK-NOT: tkgpu.local_alloc
// CHECK: scf.for
// CHECK: tk.load %{{.+}} : (tensor<32x64x!tk.ptr<f16>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @narrow(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
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
    %xa = tkgpu.convert_layout %x : tensor<64x32xf16, #ba> -> tensor<64x32xf16, #opa>
    %yb = tkgpu.convert_layout %y : tensor<32x64xf16, #bb> -> tensor<32x64xf16, #opb>
    %d = tk.dot %xa, %yb, %acc {input_precision = "ieee"} : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> + tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %pan = tk.addptr %pai, %step_a : tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi32, #ba> -> tensor<64x32x!tk.ptr<f16>, #ba>
    %pbn = tk.addptr %pbi, %step_b : tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi32, #bb> -> tensor<32x64x!tk.ptr<f16>, #bb>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #ba>, tensor<32x64x!tk.ptr<f16>, #bb>
  }
  func.return %r#0 : tensor<64x64xf32, #mma>
}
}

// -----

#ba = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sa0 = #tkgpu.slice<{dim = 0, parent = #ba}>
#sa1 = #tkgpu.slice<{dim = 1, parent = #ba}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #bb}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #bb}>

// On 8 warps registers allow one program for certain: the smaller ring, whatever the shared
// memory, so that the copies come after the dot.
// CHECK-LABEL: func.func @eight_warps
// CHECK: tkgpu.local_alloc : !tkgpu.memdesc<2x64x32xf16
// CHECK: scf.for
// CHECK: tk.dot
// CHECK: tkgpu.barrier
// CHECK: tkgpu.async_copy_global_to_local
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @eight_warps(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
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
    %xa = tkgpu.convert_layout %x : tensor<64x32xf16, #ba> -> tensor<64x32xf16, #opa>
    %yb = tkgpu.convert_layout %y : tensor<32x64xf16, #bb> -> tensor<32x64xf16, #opb>
    %d = tk.dot %xa, %yb, %acc {input_precision = "ieee"} : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> + tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
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
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sa0 = #tkgpu.slice<{dim = 0, parent = #ba}>
#sa1 = #tkgpu.slice<{dim = 1, parent = #ba}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #bb}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #bb}>

// A loop with an atomic is not pipelined: a load started an iteration early would move across
// it (all RUN lines agree).
// CHECK-LABEL: func.func @atomic_in_loop
// CHECK-NOT: tkgpu.local_alloc
// CHECK: scf.for
// CHECK: tk.atomic_rmw
// CHECK: tk.load
// CHECK: tk.load
// CHECK: tk.dot
// OFF-LABEL: func.func @atomic_in_loop
// SMALL-LABEL: func.func @atomic_in_loop
// SMALL-NOT: tkgpu.local_alloc
// FOUR-LABEL: func.func @atomic_in_loop
// FOUR-NOT: tkgpu.local_alloc
// REGS-LABEL: func.func @atomic_in_loop
// REGS-NOT: tkgpu.local_alloc
// TWO-LABEL: func.func @atomic_in_loop
// TWO-NOT: tkgpu.local_alloc
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @atomic_in_loop(%lock: !tk.ptr<i32>, %a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
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
    %old = "tk.atomic_rmw"(%lock, %c1) <{kind = "add", scope = "gpu", sem = "acq_rel"}> : (!tk.ptr<i32>, i32) -> i32
    %left = arith.subi %k, %kk : i32
    %lefta = tk.splat %left : i32 -> tensor<1x32xi32, #ba>
    %ma1 = arith.cmpi slt, %ca1, %lefta : tensor<1x32xi32, #ba>
    %ma = tk.broadcast %ma1 : tensor<1x32xi1, #ba> -> tensor<64x32xi1, #ba>
    %x = tk.load %pai, %ma, %zero_a : (tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi1, #ba>, tensor<64x32xf16, #ba>) -> tensor<64x32xf16, #ba>
    %leftb = tk.splat %left : i32 -> tensor<32x1xi32, #bb>
    %mb1 = arith.cmpi slt, %rb1, %leftb : tensor<32x1xi32, #bb>
    %mb = tk.broadcast %mb1 : tensor<32x1xi1, #bb> -> tensor<32x64xi1, #bb>
    %y = tk.load %pbi, %mb, %zero_b : (tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi1, #bb>, tensor<32x64xf16, #bb>) -> tensor<32x64xf16, #bb>
    %xa = tkgpu.convert_layout %x : tensor<64x32xf16, #ba> -> tensor<64x32xf16, #opa>
    %yb = tkgpu.convert_layout %y : tensor<32x64xf16, #bb> -> tensor<32x64xf16, #opb>
    %d = tk.dot %xa, %yb, %acc {input_precision = "ieee"} : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> + tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
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
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sa0 = #tkgpu.slice<{dim = 0, parent = #ba}>
#sa1 = #tkgpu.slice<{dim = 1, parent = #ba}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #bb}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #bb}>

// Volatile loads are not pipelined: each reads memory when its iteration reaches it (all RUN
// lines agree).
// CHECK-LABEL: func.func @volatile_in_loop
// CHECK-NOT: tkgpu.local_alloc
// CHECK: scf.for
// CHECK: tk.load {{.*}}is_volatile
// CHECK: tk.load {{.*}}is_volatile
// CHECK: tk.dot
// OFF-LABEL: func.func @volatile_in_loop
// SMALL-LABEL: func.func @volatile_in_loop
// SMALL-NOT: tkgpu.local_alloc
// FOUR-LABEL: func.func @volatile_in_loop
// FOUR-NOT: tkgpu.local_alloc
// REGS-LABEL: func.func @volatile_in_loop
// REGS-NOT: tkgpu.local_alloc
// TWO-LABEL: func.func @volatile_in_loop
// TWO-NOT: tkgpu.local_alloc

module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @volatile_in_loop(%lock: !tk.ptr<i32>, %a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
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
    %x = tk.load %pai, %ma, %zero_a {is_volatile} : (tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi1, #ba>, tensor<64x32xf16, #ba>) -> tensor<64x32xf16, #ba>
    %leftb = tk.splat %left : i32 -> tensor<32x1xi32, #bb>
    %mb1 = arith.cmpi slt, %rb1, %leftb : tensor<32x1xi32, #bb>
    %mb = tk.broadcast %mb1 : tensor<32x1xi1, #bb> -> tensor<32x64xi1, #bb>
    %y = tk.load %pbi, %mb, %zero_b {is_volatile} : (tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi1, #bb>, tensor<32x64xf16, #bb>) -> tensor<32x64xf16, #bb>
    %xa = tkgpu.convert_layout %x : tensor<64x32xf16, #ba> -> tensor<64x32xf16, #opa>
    %yb = tkgpu.convert_layout %y : tensor<32x64xf16, #bb> -> tensor<32x64xf16, #opb>
    %d = tk.dot %xa, %yb, %acc {input_precision = "ieee"} : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> + tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %pan = tk.addptr %pai, %step_a : tensor<64x32x!tk.ptr<f16>, #ba>, tensor<64x32xi32, #ba> -> tensor<64x32x!tk.ptr<f16>, #ba>
    %pbn = tk.addptr %pbi, %step_b : tensor<32x64x!tk.ptr<f16>, #bb>, tensor<32x64xi32, #bb> -> tensor<32x64x!tk.ptr<f16>, #bb>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #ba>, tensor<32x64x!tk.ptr<f16>, #bb>
  }
  func.return %r#0 : tensor<64x64xf32, #mma>
}
}

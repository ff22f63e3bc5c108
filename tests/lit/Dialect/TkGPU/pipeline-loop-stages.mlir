// tk-pipeline with a loop's own num_stages (tk::range_options): `tk.num_stages` on an scf.for
// takes the place of the pass's num-stages for that loop. The 64 x 64 x 32 f16 matmul of
// pipeline.mlir, whose loop is marked in each case.
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=1 | FileCheck %s --check-prefix=ON
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=3 | FileCheck %s --check-prefix=OFF
// RUN: tk-opt %s -split-input-file -tk-pipeline=num-stages=3 | FileCheck %s --check-prefix=FOUR

#ba = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sa0 = #tkgpu.slice<{dim = 0, parent = #ba}>
#sa1 = #tkgpu.slice<{dim = 1, parent = #ba}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #bb}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #bb}>

// A kernel of num_stages 1 with a loop of 3: the loop is pipelined, with a ring of three tiles
// per load, and keeps its other tk. attributes (for tk-unroll-loops).
// ON-LABEL: func.func @loop_on
// ON: tkgpu.local_alloc : !tkgpu.memdesc<3x64x32xf16
// ON: tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16
// ON: scf.for
// ON-NOT: tk.load
// ON: tkgpu.async_wait 1
// ON: tk.dot
// ON: } {tk.loop_unroll_factor = 2 : i32, tk.num_stages = 3 : i32}
// ON: tkgpu.async_wait 0
// OFF-LABEL: func.func @loop_on
// FOUR-LABEL: func.func @loop_on
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @loop_on(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
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
  } {tk.loop_unroll_factor = 2 : i32, tk.num_stages = 3 : i32}
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

// A kernel of num_stages 3 with a loop of 1: the loop is left as it is.
// ON-LABEL: func.func @loop_off
// OFF-LABEL: func.func @loop_off
// OFF-NOT: tkgpu.local_alloc
// OFF-NOT: tkgpu.async_copy_global_to_local
// OFF: scf.for
// OFF: tk.load
// OFF: tk.load
// OFF: tk.dot
// OFF: } {tk.num_stages = 1 : i32}
// OFF-NOT: tkgpu.async_wait
// FOUR-LABEL: func.func @loop_off
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @loop_off(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
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
  } {tk.num_stages = 1 : i32}
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

// A kernel of num_stages 3 with a loop of 4: iterations i + 1 .. i + 3 in flight, in rings of
// four tiles (the default shared-per-sm leaves room for them), three groups started before the
// loop, and the loop waits with two in flight.
// ON-LABEL: func.func @loop_four
// OFF-LABEL: func.func @loop_four
// FOUR-LABEL: func.func @loop_four
// FOUR: tkgpu.local_alloc : !tkgpu.memdesc<4x64x32xf16
// FOUR: tkgpu.local_alloc : !tkgpu.memdesc<4x32x64xf16
// FOUR-COUNT-3: tkgpu.async_commit_group
// FOUR: scf.for
// FOUR: tkgpu.async_wait 2
// FOUR: tk.dot
// FOUR: tkgpu.async_wait 0
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @loop_four(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
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
  } {tk.num_stages = 4 : i32}
  func.return %r#0 : tensor<64x64xf32, #mma>
}
}

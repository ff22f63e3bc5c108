// ReduceOpToLLVM.cpp: tk.reduce combines a thread's own elements along the axis, then the lanes
// along the axis with a shfl.sync butterfly, then (when several warps hold distinct elements
// along the axis) the warps' partials through shared memory: barrier, stores, barrier, loads.
// Lanes and warps beyond a small tensor's extent hold copies and take no part.
// The results are unused: keep-unread builds their structs all the same.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm=keep-unread \
// RUN:   | FileCheck %s

// 256 elements over 4 warps to a scalar: 2 per thread, 5 butterfly steps over 32 lanes, then the
// 4 warps' partials (16 bytes of scratch) read and combined by every thread.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK: tkgpu.shared = 16 : i32
  // CHECK-LABEL: llvm.func @sum_1d
  // CHECK: llvm.fadd %{{.*}}, %{{.*}} : f32
  // CHECK: %[[O1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK: %[[ALL:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %[[ALL]], %{{.*}}, %[[O1]], %[[C31]] : f32 -> f32
  // CHECK: llvm.mlir.constant(2 : i32)
  // CHECK: nvvm.shfl.sync bfly
  // CHECK: llvm.mlir.constant(4 : i32)
  // CHECK: nvvm.shfl.sync bfly
  // CHECK: llvm.mlir.constant(8 : i32)
  // CHECK: nvvm.shfl.sync bfly
  // CHECK: llvm.mlir.constant(16 : i32)
  // CHECK: nvvm.shfl.sync bfly
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: llvm.store %{{.*}}, %arg1 {{.*}} : f32, !llvm.ptr<1>
  func.func @sum_1d(%in: !tk.ptr<f32>, %out: !tk.ptr<f32>) {
    %0 = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %1 = "tk.splat"(%in) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
    %2 = "tk.addptr"(%1, %0) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<256x!tk.ptr<f32>, #b>) -> tensor<256xf32, #b>
    %4 = "tk.reduce"(%3) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
    }) : (tensor<256xf32, #b>) -> f32
    "tk.store"(%out, %4) : (!tk.ptr<f32>, f32) -> ()
    func.return
  }
}

// -----

// 16 elements over 128 threads: lanes 16-31 and warps 1-3 hold copies of lanes 0-15 of warp 0,
// so 4 butterfly steps (offsets 1 to 8) and no shared memory.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-NOT: tk_shared
  // CHECK-LABEL: llvm.func @wraps
  // CHECK: llvm.mlir.constant(1 : i32)
  // CHECK: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK: llvm.mlir.constant(2 : i32)
  // CHECK: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK: llvm.mlir.constant(4 : i32)
  // CHECK: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK: llvm.mlir.constant(8 : i32)
  // CHECK: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %arg1 {{.*}} : i32, !llvm.ptr<1>
  func.func @wraps(%in: !tk.ptr<i32>, %out: !tk.ptr<i32>) {
    %0 = "tk.make_range"() <{end = 16 : i32, start = 0 : i32}> : () -> tensor<16xi32, #b>
    %1 = "tk.reduce"(%0) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      "tk.reduce.return"(%s) : (i32) -> ()
    }) : (tensor<16xi32, #b>) -> i32
    "tk.store"(%out, %1) : (!tk.ptr<i32>, i32) -> ()
    func.return
  }
}

// -----

// 2-D, 16x32 in a 16x32 tile: along axis 1 each thread combines its 4 consecutive elements,
// then 8 lanes (offsets 1, 2, 4), one warp: no shared memory. Along axis 0: 4 lanes 8 apart
// in the lane id (offsets 8, 16) and 4 warps: the scratch is [warp][column], 4 x 32 floats.
#b = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tkgpu.slice<{dim = 1, parent = #b}>
#cols = #tkgpu.slice<{dim = 0, parent = #b}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK: tkgpu.shared = 512 : i32
  // CHECK-LABEL: llvm.func @axis1
  // CHECK-COUNT-3: llvm.fmul %{{.*}} : f32
  // CHECK: llvm.mlir.constant(1 : i32)
  // CHECK: nvvm.shfl.sync bfly
  // CHECK: llvm.fmul
  // CHECK: llvm.mlir.constant(2 : i32)
  // CHECK: nvvm.shfl.sync bfly
  // CHECK: llvm.mlir.constant(4 : i32)
  // CHECK: nvvm.shfl.sync bfly
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @axis1(%x: tensor<16x32xf32, #b>, %out: !tk.ptr<f32>) {
    %0 = "tk.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.mulf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
    }) : (tensor<16x32xf32, #b>) -> tensor<16xf32, #rows>
    %1 = "tk.make_range"() <{end = 16 : i32, start = 0 : i32}> : () -> tensor<16xi32, #rows>
    %2 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<16x!tk.ptr<f32>, #rows>
    %3 = "tk.addptr"(%2, %1) : (tensor<16x!tk.ptr<f32>, #rows>, tensor<16xi32, #rows>) -> tensor<16x!tk.ptr<f32>, #rows>
    "tk.store"(%3, %0) : (tensor<16x!tk.ptr<f32>, #rows>, tensor<16xf32, #rows>) -> ()
    func.return
  }

  // CHECK-LABEL: llvm.func @axis0
  // CHECK-NOT: llvm.fmax
  // CHECK: llvm.mlir.constant(8 : i32)
  // CHECK-COUNT-4: nvvm.shfl.sync bfly
  // CHECK: llvm.intr.maxnum
  // CHECK: llvm.mlir.constant(16 : i32)
  // CHECK-COUNT-4: nvvm.shfl.sync bfly
  // CHECK: llvm.intr.maxnum
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-16: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: llvm.return
  func.func @axis0(%x: tensor<16x32xf32, #b>, %out: !tk.ptr<f32>) {
    %0 = "tk.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.maxnumf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
    }) : (tensor<16x32xf32, #b>) -> tensor<32xf32, #cols>
    %1 = "tk.make_range"() <{end = 32 : i32, start = 0 : i32}> : () -> tensor<32xi32, #cols>
    %2 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<32x!tk.ptr<f32>, #cols>
    %3 = "tk.addptr"(%2, %1) : (tensor<32x!tk.ptr<f32>, #cols>, tensor<32xi32, #cols>) -> tensor<32x!tk.ptr<f32>, #cols>
    "tk.store"(%3, %0) : (tensor<32x!tk.ptr<f32>, #cols>, tensor<32xf32, #cols>) -> ()
    func.return
  }
}

// -----

// argmax: (value, index) pairs reduced together, each operand shuffled on its own and the region
// taking both; each operand has its own scratch area, the indices' 16 bytes after the values'.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK: tkgpu.shared = 32 : i32
  // CHECK-LABEL: llvm.func @argmax
  // CHECK: nvvm.shfl.sync bfly {{.*}} : f32 -> f32
  // CHECK-NEXT: llvm.mlir.constant
  // CHECK-NEXT: llvm.mlir.constant
  // CHECK-NEXT: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK: nvvm.shfl.sync bfly {{.*}} : f32 -> f32
  // CHECK-NEXT: llvm.mlir.constant
  // CHECK-NEXT: llvm.mlir.constant
  // CHECK-NEXT: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK: nvvm.shfl.sync bfly {{.*}} : f32 -> f32
  // CHECK-NEXT: llvm.mlir.constant
  // CHECK-NEXT: llvm.mlir.constant
  // CHECK-NEXT: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK: nvvm.shfl.sync bfly {{.*}} : f32 -> f32
  // CHECK-NEXT: llvm.mlir.constant
  // CHECK-NEXT: llvm.mlir.constant
  // CHECK-NEXT: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK: nvvm.shfl.sync bfly {{.*}} : f32 -> f32
  // CHECK-NEXT: llvm.mlir.constant
  // CHECK-NEXT: llvm.mlir.constant
  // CHECK-NEXT: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK: %[[AREA:.*]] = llvm.getelementptr %{{.*}}[16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[AREA]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  // CHECK: llvm.store %{{.*}}, %[[SLOT]] : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %arg1 {{.*}} : i32, !llvm.ptr<1>
  func.func @argmax(%in: !tk.ptr<f32>, %out: !tk.ptr<i32>) {
    %0 = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %1 = "tk.splat"(%in) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
    %2 = "tk.addptr"(%1, %0) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<256x!tk.ptr<f32>, #b>) -> tensor<256xf32, #b>
    %4:2 = "tk.reduce"(%3, %0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %eq = arith.cmpf oeq, %a, %b : f32
      %lt = arith.cmpi slt, %ai, %bi : i32
      %tie = arith.andi %eq, %lt : i1
      %take = arith.ori %gt, %tie : i1
      %m = arith.select %take, %a, %b : f32
      %mi = arith.select %take, %ai, %bi : i32
      "tk.reduce.return"(%m, %mi) : (f32, i32) -> ()
    }) : (tensor<256xf32, #b>, tensor<256xi32, #b>) -> (f32, i32)
    "tk.store"(%out, %4#1) : (!tk.ptr<i32>, i32) -> ()
    func.return
  }
}

// -----

// i64 is shuffled as two 32-bit halves; 128 elements in a 256-element tile: warps 2 and 3 hold
// copies of warps 0 and 1, so 2 partials per position (16 bytes).
#b = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK: tkgpu.shared = 16 : i32
  // CHECK-LABEL: llvm.func @sum_i64
  // CHECK: llvm.add %{{.*}}, %{{.*}} : i64
  // CHECK: %[[LO:.*]] = llvm.trunc %[[X:.*]] : i64 to i32
  // CHECK: %[[SHIFTED:.*]] = llvm.lshr %[[X]], %{{.*}} : i64
  // CHECK: %[[HI:.*]] = llvm.trunc %[[SHIFTED]] : i64 to i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %[[LO]], {{.*}} : i32 -> i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %[[HI]], {{.*}} : i32 -> i32
  // CHECK: llvm.shl
  // CHECK: llvm.or
  // CHECK: llvm.add %{{.*}}, %{{.*}} : i64
  // CHECK-COUNT-8: nvvm.shfl.sync bfly
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i64, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> i64
  // CHECK-NOT: llvm.load
  // CHECK: llvm.store %{{.*}}, %arg1 {{.*}} : i64, !llvm.ptr<1>
  func.func @sum_i64(%x: tensor<128xi64, #b>, %out: !tk.ptr<i64>) {
    %0 = "tk.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: i64, %b: i64):
      %s = arith.addi %a, %b : i64
      "tk.reduce.return"(%s) : (i64) -> ()
    }) : (tensor<128xi64, #b>) -> i64
    "tk.store"(%out, %0) : (!tk.ptr<i64>, i64) -> ()
    func.return
  }
}

// -----

// Pointers go through the shuffle as i64 halves; f16 widened to i32 and back; i1 in shared
// memory as i8. Only the pointer reduction needs 4 x 8 bytes of scratch (the largest).
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK: tkgpu.shared = 32 : i32
  // CHECK-LABEL: llvm.func @other_types
  // CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
  // CHECK-COUNT-2: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
  // CHECK: llvm.store %{{.*}}, %{{.*}} : !llvm.ptr<1>, !llvm.ptr<3>
  // CHECK: llvm.bitcast %{{.*}} : f16 to i16
  // CHECK: llvm.zext %{{.*}} : i16 to i32
  // CHECK: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK: llvm.trunc %{{.*}} : i32 to i16
  // CHECK: llvm.bitcast %{{.*}} : i16 to f16
  // CHECK: llvm.zext %{{.*}} : i1 to i32
  // CHECK: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
  // CHECK: llvm.trunc %{{.*}} : i32 to i1
  // CHECK: llvm.zext %{{.*}} : i1 to i8
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i8, !llvm.ptr<3>
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
  // CHECK: llvm.trunc %{{.*}} : i8 to i1
  func.func @other_types(%p: tensor<128x!tk.ptr<f32>, #b>, %h: tensor<128xf16, #b>, %c: tensor<128xi1, #b>, %out: !tk.ptr<f16>) {
    %0 = "tk.reduce"(%p) <{axis = 0 : i32}> ({
    ^bb0(%a: !tk.ptr<f32>, %b: !tk.ptr<f32>):
      "tk.reduce.return"(%b) : (!tk.ptr<f32>) -> ()
    }) : (tensor<128x!tk.ptr<f32>, #b>) -> !tk.ptr<f32>
    %1 = "tk.reduce"(%h) <{axis = 0 : i32}> ({
    ^bb0(%a: f16, %b: f16):
      %s = arith.addf %a, %b : f16
      "tk.reduce.return"(%s) : (f16) -> ()
    }) : (tensor<128xf16, #b>) -> f16
    %2 = "tk.reduce"(%c) <{axis = 0 : i32}> ({
    ^bb0(%a: i1, %b: i1):
      %o = arith.ori %a, %b : i1
      "tk.reduce.return"(%o) : (i1) -> ()
    }) : (tensor<128xi1, #b>) -> i1
    %3 = "tk.load"(%0) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tk.ptr<f32>) -> f32
    %4 = arith.truncf %3 : f32 to f16
    %5 = arith.addf %4, %1 : f16
    "tk.store"(%out, %5, %2) : (!tk.ptr<f16>, f16, i1) -> ()
    func.return
  }
}

// -----

// Rows of a wgmma accumulator (64 x 64, 4 warps down M): lane l holds rows l / 4 and l / 4 + 8,
// 16 columns each (2 per 8-wide piece); each row's 16 combine in the thread, then a butterfly
// over the 4 lanes of a row (offsets 1 and 2). No warp holds another's rows: no shared memory.
// The result, a slice of the mma layout, is 2 elements per thread.
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @row_max_mma
  // CHECK-COUNT-30: llvm.intr.maxnum
  // CHECK: %[[O1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O1]], %{{.*}} : f32 -> f32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O1]], %{{.*}} : f32 -> f32
  // CHECK: %[[O2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O2]], %{{.*}} : f32 -> f32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O2]], %{{.*}} : f32 -> f32
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.insertvalue %{{.*}}[1] : !llvm.struct<(f32, f32)>
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  func.func @row_max_mma(%x: tensor<64x64xf32, #mma>) {
    %0 = tk.reduce %x {axis = 1 : i32} : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #tkgpu.slice<{dim = 1, parent = #mma}>> {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tk.reduce.return %m : f32
    }
    func.return
  }
}

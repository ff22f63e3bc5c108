// ScanOpToLLVM.cpp: tk.scan runs along each thread's chunk, then Hillis-Steele over the lanes
// along the axis (shfl.sync.up by 1, 2, 4, ...; a select keeps the lane's own value where there
// is no lane that far before it), one more shuffle by one lane for the lanes before; with
// several warps along the axis, the last lane of each warp writes the warp's total (a branch);
// after a barrier the last lane of the first warp combines them in order and writes each warp's
// exclusive prefix and the whole total to a second area (a branch); after another barrier every
// thread loads its own prefix and the total. `reverse` shuffles down instead.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm -convert-scf-to-cf \
// RUN:   -convert-cf-to-llvm -convert-arith-to-llvm | FileCheck %s

// 128 elements over 4 warps: one per thread; 5 up-shuffles, the exclusive one, then the warp
// totals (4 floats) and the prefixes (4 more) through shared memory, written by lane 31 only.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK: tkgpu.shared = 32 : i32
  // CHECK-LABEL: llvm.func @cumsum
  // CHECK: %[[O1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[UP:.*]] = nvvm.shfl.sync up %{{.*}}, %[[X:.*]], %[[O1]], %[[C0]] : f32 -> f32
  // CHECK: %[[SUM:.*]] = llvm.fadd %[[UP]], %[[X]] : f32
  // CHECK: %[[HAS:.*]] = llvm.icmp "uge" %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.select %[[HAS]], %[[SUM]], %[[X]] : i1, f32
  // CHECK-COUNT-4: nvvm.shfl.sync up
  // CHECK: nvvm.shfl.sync up
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: nvvm.barrier0
  // CHECK: llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.cond_br
  // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.and
  // CHECK: llvm.cond_br
  // CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK-NOT: llvm.select
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {{.*}} : f32, !llvm.ptr<1>
  func.func @cumsum(%x: tensor<128xf32, #b>, %out: !tk.ptr<f32>) {
    %0 = "tk.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.scan.return"(%s) : (f32) -> ()
    }) : (tensor<128xf32, #b>) -> tensor<128xf32, #b>
    %1 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #b>
    %2 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>, #b>
    %3 = "tk.addptr"(%2, %1) : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xi32, #b>) -> tensor<128x!tk.ptr<f32>, #b>
    "tk.store"(%3, %0) : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xf32, #b>) -> ()
    func.return
  }

  // Reverse: the same with shfl.sync.down (clamp 31).
  // CHECK-LABEL: llvm.func @reverse
  // CHECK: llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK-NEXT: llvm.mlir.constant(-1 : i32) : i32
  // CHECK-NEXT: nvvm.shfl.sync down %{{.*}}, %{{.*}}, %{{.*}}, %[[C31]] : i32 -> i32
  // CHECK-COUNT-5: nvvm.shfl.sync down
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: nvvm.barrier0
  // CHECK: nvvm.barrier0
  // CHECK: nvvm.barrier0
  // CHECK: llvm.return
  func.func @reverse(%x: tensor<128xi32, #b>, %out: !tk.ptr<i32>) {
    %0 = "tk.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      "tk.scan.return"(%s) : (i32) -> ()
    }) : (tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %1 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #b>
    %2 = "tk.splat"(%out) : (!tk.ptr<i32>) -> tensor<128x!tk.ptr<i32>, #b>
    %3 = "tk.addptr"(%2, %1) : (tensor<128x!tk.ptr<i32>, #b>, tensor<128xi32, #b>) -> tensor<128x!tk.ptr<i32>, #b>
    "tk.store"(%3, %0) : (tensor<128x!tk.ptr<i32>, #b>, tensor<128xi32, #b>) -> ()
    func.return
  }
}

// -----

// 16 elements over 128 threads (copies beyond lane 15 and warp 0): 4 up-shuffles and the
// exclusive one, no shared memory.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-NOT: tk_shared
  // CHECK-LABEL: llvm.func @small
  // CHECK-COUNT-5: nvvm.shfl.sync up
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @small(%x: tensor<16xi32, #b>, %out: !tk.ptr<i32>) {
    %0 = "tk.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      "tk.scan.return"(%s) : (i32) -> ()
    }) : (tensor<16xi32, #b>) -> tensor<16xi32, #b>
    %1 = "tk.make_range"() <{end = 16 : i32, start = 0 : i32}> : () -> tensor<16xi32, #b>
    %2 = "tk.splat"(%out) : (!tk.ptr<i32>) -> tensor<16x!tk.ptr<i32>, #b>
    %3 = "tk.addptr"(%2, %1) : (tensor<16x!tk.ptr<i32>, #b>, tensor<16xi32, #b>) -> tensor<16x!tk.ptr<i32>, #b>
    "tk.store"(%3, %0) : (tensor<16x!tk.ptr<i32>, #b>, tensor<16xi32, #b>) -> ()
    func.return
  }
}

// -----

// 2-D along axis 1 within a warp: 4 elements per thread scanned in order (3 adds), 8 lanes
// (up-shuffles by 1, 2, 4 and the exclusive one, per row the thread holds), no shared memory.
#b = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-NOT: tk_shared
  // CHECK-LABEL: llvm.func @rows
  // CHECK-COUNT-3: llvm.fadd
  // CHECK-COUNT-4: nvvm.shfl.sync up
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @rows(%x: tensor<16x32xf32, #b>, %p: tensor<16x32x!tk.ptr<f32>, #b>) {
    %0 = "tk.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.scan.return"(%s) : (f32) -> ()
    }) : (tensor<16x32xf32, #b>) -> tensor<16x32xf32, #b>
    "tk.store"(%p, %0) : (tensor<16x32x!tk.ptr<f32>, #b>, tensor<16x32xf32, #b>) -> ()
    func.return
  }
}

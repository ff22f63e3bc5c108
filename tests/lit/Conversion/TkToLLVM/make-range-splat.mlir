// MakeRangeOpToLLVM.cpp and SplatOpToLLVM.cpp: a tensor is a struct of the elements the thread
// holds (256 elements over 128 threads: 2); make_range computes them from the thread id (Layout.h's
// mapping: tid and tid + 128, plus start), splat and splat constants repeat the scalar.
// RUN: tk-opt %s -split-input-file -tk-to-llvm -canonicalize | FileCheck %s

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @range
  // CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-DAG: %[[C128:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: %[[WARP:.*]] = llvm.udiv %[[TID]], %[[C32]] : i32
  // CHECK: %[[LANE:.*]] = llvm.urem %[[TID]], %[[C32]] : i32
  // CHECK: %[[W32:.*]] = llvm.mul %[[WARP]], %[[C32]] : i32
  // CHECK: %[[T:.*]] = llvm.add %[[W32]], %[[LANE]] : i32
  // CHECK: %[[T128:.*]] = llvm.add %[[T]], %[[C128]] : i32
  // CHECK: %[[E0:.*]] = llvm.add %[[T]], %[[C16]] : i32
  // CHECK: %[[E1:.*]] = llvm.add %[[T128]], %[[C16]] : i32
  // CHECK: llvm.store %[[E0]]
  // CHECK: llvm.store %[[E1]]
  func.func @range(%out: !tk.ptr<i32>) {
    %0 = "tk.make_range"() <{end = 272 : i32, start = 16 : i32}> : () -> tensor<256xi32, #b>
    %1 = "tk.splat"(%out) : (!tk.ptr<i32>) -> tensor<256x!tk.ptr<i32>, #b>
    %2 = "tk.addptr"(%1, %0) : (tensor<256x!tk.ptr<i32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<i32>, #b>
    "tk.store"(%2, %0) : (tensor<256x!tk.ptr<i32>, #b>, tensor<256xi32, #b>) -> ()
    func.return
  }

  // CHECK-LABEL: llvm.func @splats
  // CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2.000000e+00 : f32) : f32
  // CHECK: %[[X:.*]] = llvm.sitofp %{{.*}} : i32 to f32
  // CHECK: llvm.fmul %[[X]], %[[TWO]] : f32
  // CHECK: llvm.fmul %[[X]], %[[TWO]] : f32
  // CHECK-NOT: llvm.fmul
  func.func @splats(%out: !tk.ptr<f32>, %n: i32) {
    %0 = arith.sitofp %n : i32 to f32
    %1 = "tk.splat"(%0) : (f32) -> tensor<256xf32, #b>
    %2 = arith.constant dense<2.0> : tensor<256xf32, #b>
    %3 = arith.mulf %1, %2 : tensor<256xf32, #b>
    %4 = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %5 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
    %6 = "tk.addptr"(%5, %4) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
    "tk.store"(%6, %3) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xf32, #b>) -> ()
    func.return
  }
}

// -----

// A tensor smaller than the layout's tile (64 elements, 128 threads) wraps around: thread t holds
// element t % 64.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @wrap
  // CHECK-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK: %[[T:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
  // CHECK: %[[E:.*]] = llvm.urem %[[T]], %[[C64]] : i32
  // CHECK: llvm.store %[[E]]
  func.func @wrap(%out: !tk.ptr<i32>) {
    %0 = "tk.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32, #b>
    %1 = "tk.splat"(%out) : (!tk.ptr<i32>) -> tensor<64x!tk.ptr<i32>, #b>
    %2 = "tk.addptr"(%1, %0) : (tensor<64x!tk.ptr<i32>, #b>, tensor<64xi32, #b>) -> tensor<64x!tk.ptr<i32>, #b>
    "tk.store"(%2, %0) : (tensor<64x!tk.ptr<i32>, #b>, tensor<64xi32, #b>) -> ()
    func.return
  }
}

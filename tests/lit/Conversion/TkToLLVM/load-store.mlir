// LoadStoreOpToLLVM.cpp: a masked load is a branch around llvm.load that yields `other` when
// masked off; a masked store a branch around llvm.store. Where the layout gives a thread 4
// consecutive f32 and AxisInfo proves them 16-byte aligned (pointer divisibility 16, mask
// constant over 4), one vector<4xf32> access per 4 elements.
// RUN: tk-opt %s -split-input-file -tk-to-llvm -convert-scf-to-cf -convert-cf-to-llvm \
// RUN:   -convert-arith-to-llvm | FileCheck %s

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @masked
  // CHECK: llvm.mlir.constant(-1.000000e+00 : f32) : f32
  // CHECK: llvm.cond_br %{{.*}}, ^[[LOAD:.*]], ^[[SKIP:.*]]
  // CHECK: ^[[LOAD]]:
  // CHECK: %[[X:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  // CHECK: llvm.br ^[[JOIN:.*]](%[[X]] : f32)
  // CHECK: ^[[SKIP]]:
  // CHECK: llvm.br ^[[JOIN]](%{{.*}} : f32)
  // CHECK: llvm.cond_br
  // CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
  // CHECK-NOT: scf.
  // CHECK-NOT: cf.
  func.func @masked(%out: !tk.ptr<f32>, %in: !tk.ptr<f32>, %n: i32) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #b>
    %1 = "tk.splat"(%n) : (i32) -> tensor<128xi32, #b>
    %2 = arith.cmpi slt, %0, %1 : tensor<128xi32, #b>
    %3 = "tk.splat"(%in) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>, #b>
    %4 = "tk.addptr"(%3, %0) : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xi32, #b>) -> tensor<128x!tk.ptr<f32>, #b>
    %5 = arith.constant dense<-1.0> : tensor<128xf32, #b>
    %6 = "tk.load"(%4, %2, %5) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xi1, #b>, tensor<128xf32, #b>) -> tensor<128xf32, #b>
    %7 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>, #b>
    %8 = "tk.addptr"(%7, %0) : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xi32, #b>) -> tensor<128x!tk.ptr<f32>, #b>
    "tk.store"(%8, %6, %2) : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xf32, #b>, tensor<128xi1, #b>) -> ()
    func.return
  }
}

// -----

#v = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @vectorized
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  // CHECK-COUNT-4: llvm.extractelement
  // CHECK: llvm.fadd
  // CHECK-COUNT-4: llvm.insertelement
  // CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  // CHECK-NOT: llvm.load
  // CHECK-NOT: llvm.store
  func.func @vectorized(%out: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %in: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 512 : i32, start = 0 : i32}> : () -> tensor<512xi32, #v>
    %1 = "tk.splat"(%n) : (i32) -> tensor<512xi32, #v>
    %2 = arith.cmpi slt, %0, %1 : tensor<512xi32, #v>
    %3 = "tk.splat"(%in) : (!tk.ptr<f32>) -> tensor<512x!tk.ptr<f32>, #v>
    %4 = "tk.addptr"(%3, %0) : (tensor<512x!tk.ptr<f32>, #v>, tensor<512xi32, #v>) -> tensor<512x!tk.ptr<f32>, #v>
    %5 = "tk.load"(%4, %2) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<512x!tk.ptr<f32>, #v>, tensor<512xi1, #v>) -> tensor<512xf32, #v>
    %6 = arith.addf %5, %5 : tensor<512xf32, #v>
    %7 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<512x!tk.ptr<f32>, #v>
    %8 = "tk.addptr"(%7, %0) : (tensor<512x!tk.ptr<f32>, #v>, tensor<512xi32, #v>) -> tensor<512x!tk.ptr<f32>, #v>
    "tk.store"(%8, %6, %2) : (tensor<512x!tk.ptr<f32>, #v>, tensor<512xf32, #v>, tensor<512xi1, #v>) -> ()
    func.return
  }
}

// -----

// 32 elements over 128 threads: each element is held by four threads, and only the one holding
// its first copy (thread offset below 32) stores it, so that a block written in place is never
// read back by a later warp after another has written it. A scalar is stored by thread 0.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @first_copy
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[FIRST:.*]] = llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.cond_br %[[FIRST]]
  // CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
  // CHECK: %[[TID0:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[ZERO:.*]] = llvm.icmp "eq" %[[TID0]]
  // CHECK: llvm.cond_br %[[ZERO]]
  // CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
  func.func @first_copy(%p: !tk.ptr<i32>, %q: !tk.ptr<i32>, %x: i32) {
    %0 = "tk.make_range"() <{end = 32 : i32, start = 0 : i32}> : () -> tensor<32xi32, #b>
    %1 = "tk.splat"(%p) : (!tk.ptr<i32>) -> tensor<32x!tk.ptr<i32>, #b>
    %2 = "tk.addptr"(%1, %0) : (tensor<32x!tk.ptr<i32>, #b>, tensor<32xi32, #b>) -> tensor<32x!tk.ptr<i32>, #b>
    "tk.store"(%2, %0) : (tensor<32x!tk.ptr<i32>, #b>, tensor<32xi32, #b>) -> ()
    "tk.store"(%q, %x) : (!tk.ptr<i32>, i32) -> ()
    func.return
  }
}

// ElementwiseOpToLLVM.cpp: shifts by the width or more give PTX's results (0 for << and
// unsigned >>, all sign bits for signed >>): a select on the amount, read unsigned, around
// LLVM's shift (poison there); on tensors, per element.
// RUN: tk-opt %s -split-input-file -tk-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @scalar
// CHECK: %[[W:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NOT: llvm.intr.umin
// CHECK: %[[SHL:.*]] = llvm.shl %arg0, %arg1 : i32
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[FAR:.*]] = llvm.icmp "uge" %arg1, %[[W]] : i32
// CHECK: llvm.select %[[FAR]], %[[ZERO]], %[[SHL]] : i1, i32
// CHECK: %[[ASHR:.*]] = llvm.ashr %arg0, %arg1 : i32
// CHECK: %[[SIGN:.*]] = llvm.ashr %arg0, %{{.*}} : i32
// CHECK: llvm.select %{{.*}}, %[[SIGN]], %[[ASHR]] : i1, i32
// CHECK: llvm.lshr
// CHECK: llvm.select
func.func @scalar(%x: i32, %n: i32, %p: !tk.ptr<i32>) {
  %0 = arith.shli %x, %n : i32
  %1 = arith.shrsi %x, %n : i32
  %2 = arith.shrui %x, %n : i32
  %3 = arith.addi %0, %1 : i32
  %4 = arith.addi %3, %2 : i32
  "tk.store"(%p, %4) : (!tk.ptr<i32>, i32) -> ()
  func.return
}

// -----

// A 64-bit amount is clamped to 64 before the shift: PTX takes the amount as 32 bits, so the
// i64 minimum would otherwise shift by its low word, 0.
// CHECK-LABEL: llvm.func @wide
// CHECK: %[[W:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK: %[[AMOUNT:.*]] = llvm.intr.umin(%arg1, %[[W]]) : (i64, i64) -> i64
// CHECK: %[[SHL:.*]] = llvm.shl %arg0, %[[AMOUNT]] : i64
// CHECK: %[[FAR:.*]] = llvm.icmp "uge" %[[AMOUNT]], %[[W]] : i64
// CHECK: llvm.select %[[FAR]], %{{.*}}, %[[SHL]] : i1, i64
func.func @wide(%x: i64, %n: i64, %p: !tk.ptr<i64>) {
  %0 = arith.shli %x, %n : i64
  "tk.store"(%p, %0) : (!tk.ptr<i64>, i64) -> ()
  func.return
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @tensor
  // CHECK-COUNT-2: llvm.icmp "uge"
  // CHECK-NOT: arith.shli
  func.func @tensor(%x: tensor<256xi16, #b>, %n: tensor<256xi16, #b>, %p: tensor<256x!tk.ptr<i16>, #b>) {
    %0 = arith.shli %x, %n : tensor<256xi16, #b>
    "tk.store"(%p, %0) : (tensor<256x!tk.ptr<i16>, #b>, tensor<256xi16, #b>) -> ()
    func.return
  }
}

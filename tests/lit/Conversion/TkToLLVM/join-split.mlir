// ViewOpToLLVM.cpp: tk.join, tk.split, tk.cat and tk.flip, which the view maps of
// lib/Analysis/Utility.cpp describe (operands stacked for join and cat, a base index and a
// negative step for flip), and tk.gather. In registers where every thread holds what it reads
// (tkgpu.shared = 0, no barrier); else through shared memory.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm=keep-unread \
// RUN:   | FileCheck %s

// Each thread holds a[i] and b[i] and, with a pair dimension held by one thread, result (i, 0)
// and (i, 1): element 0 of the result is a's element 0, element 1 is b's.
// CHECK: module attributes {{.*}}tkgpu.shared = 0
// CHECK-LABEL: llvm.func @join_in_registers
// CHECK-DAG: %[[A:.*]] = llvm.extractvalue %arg0[0]
// CHECK-DAG: %[[B:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[R:.*]] = llvm.insertvalue %[[A]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[B]], %[[R]][1]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#p = #tkgpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @join_in_registers(%a: tensor<128xf32, #b>, %b: tensor<128xf32, #b>) {
    %0 = "tk.join"(%a, %b) : (tensor<128xf32, #b>, tensor<128xf32, #b>) -> tensor<128x2xf32, #p>
    func.return
  }
}

// -----

// Pairs spread over two threads: both operands go to shared memory, b after a (2 x 128 x 4
// bytes), and each result element (i, j) is read at j * 128 + i.
// CHECK: module attributes {{.*}}tkgpu.shared = 1024
// CHECK-LABEL: llvm.func @join_through_shared
// CHECK: nvvm.barrier0
// CHECK: llvm.store
// CHECK: llvm.store
// CHECK: nvvm.barrier0
// CHECK: llvm.mlir.constant(128 : i32)
// CHECK: llvm.load
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#q = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @join_through_shared(%a: tensor<128xf32, #b>, %b: tensor<128xf32, #b>) {
    %0 = "tk.join"(%a, %b) : (tensor<128xf32, #b>, tensor<128xf32, #b>) -> tensor<128x2xf32, #q>
    func.return
  }
}

// -----

// The halves of a pair held by one thread: element 0 of each half is the pair's element 0 or 1.
// CHECK: module attributes {{.*}}tkgpu.shared = 0
// CHECK-LABEL: llvm.func @split_in_registers
// CHECK-DAG: %[[L:.*]] = llvm.extractvalue %arg0[0]
// CHECK-DAG: %[[H:.*]] = llvm.extractvalue %arg0[1]
// CHECK-DAG: llvm.insertvalue %[[L]], %{{.*}}[0] : !llvm.struct<(f16)>
// CHECK-DAG: llvm.insertvalue %[[H]], %{{.*}}[0] : !llvm.struct<(f16)>
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#p = #tkgpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @split_in_registers(%x: tensor<128x2xf16, #p>) {
    %0:2 = "tk.split"(%x) : (tensor<128x2xf16, #p>) -> (tensor<128xf16, #b>, tensor<128xf16, #b>)
    func.return
  }
}

// -----

// A pair of scalars: element k of the result is operand k, chosen by the element's index (a
// thread of a layout that wraps around may hold them in either order).
// CHECK-LABEL: llvm.func @join_scalars
// CHECK: llvm.icmp "eq"
// CHECK: llvm.select {{.*}}, %arg0, %arg1
// CHECK: llvm.return
#s = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @join_scalars(%a: f32, %b: f32) {
    %0 = "tk.join"(%a, %b) : (f32, f32) -> tensor<2xf32, #s>
    func.return
  }
}

// -----

// Scalar halves of a tensor<2xT> whose every thread holds both elements, in order.
// CHECK-LABEL: llvm.func @split_scalars
// CHECK: llvm.extractvalue %arg0[0]
// CHECK: llvm.extractvalue %arg0[1]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#s = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @split_scalars(%x: tensor<2xi32, #s>) {
    %0:2 = "tk.split"(%x) : (tensor<2xi32, #s>) -> (i32, i32)
    func.return
  }
}

// -----

// 128 + 128 rows in a layout of 128 threads: the result wraps around, each thread holding row
// t (a's element) and row t + 128 (b's).
// CHECK: module attributes {{.*}}tkgpu.shared = 0
// CHECK-LABEL: llvm.func @cat_in_registers
// CHECK-DAG: %[[A:.*]] = llvm.extractvalue %arg0[0]
// CHECK-DAG: %[[B:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[R:.*]] = llvm.insertvalue %[[A]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[B]], %[[R]][1]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @cat_in_registers(%a: tensor<128xi32, #b>, %b: tensor<128xi32, #b>) {
    %0 = "tk.cat"(%a, %b) : (tensor<128xi32, #b>, tensor<128xi32, #b>) -> tensor<256xi32, #b>
    func.return
  }
}

// -----

// Four elements that every thread holds (one warp, wrapping around): flipped in registers.
// CHECK: module attributes {{.*}}tkgpu.shared = 0
// CHECK-LABEL: llvm.func @flip_in_registers
// CHECK: %[[E3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: llvm.insertvalue %[[E3]], %{{.*}}[0]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#r = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tkgpu.num_warps = 1 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @flip_in_registers(%x: tensor<4xf32, #r>) {
    %0 = "tk.flip"(%x) <{axis = 0 : i32}> : (tensor<4xf32, #r>) -> tensor<4xf32, #r>
    func.return
  }
}

// -----

// A flip across threads: through shared memory, element i read at 127 - i.
// CHECK: module attributes {{.*}}tkgpu.shared = 512
// CHECK-LABEL: llvm.func @flip_through_shared
// CHECK: nvvm.barrier0
// CHECK: llvm.store
// CHECK: nvvm.barrier0
// CHECK: llvm.mlir.constant(-1 : i32)
// CHECK: llvm.mlir.constant(127 : i32)
// CHECK: llvm.load
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @flip_through_shared(%x: tensor<128xf32, #b>) {
    %0 = "tk.flip"(%x) <{axis = 0 : i32}> : (tensor<128xf32, #b>) -> tensor<128xf32, #b>
    func.return
  }
}

// -----

// tk.gather along dimension 1 of a 4 x 32 tile: the tile goes to shared memory, then each
// element is read at row * 32 + its index (i64 indices truncated to i32).
// CHECK: module attributes {{.*}}tkgpu.shared = 256
// CHECK-LABEL: llvm.func @gather_rows
// CHECK: nvvm.barrier0
// CHECK: llvm.store
// CHECK: nvvm.barrier0
// CHECK: llvm.trunc %{{.*}} : i64 to i32
// CHECK: llvm.load
// CHECK: llvm.return
#g = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @gather_rows(%x: tensor<4x32xf16, #g>, %i: tensor<4x16xi64, #g>) {
    %0 = "tk.gather"(%x, %i) <{axis = 1 : i32}> : (tensor<4x32xf16, #g>, tensor<4x16xi64, #g>) -> tensor<4x16xf16, #g>
    func.return
  }
}

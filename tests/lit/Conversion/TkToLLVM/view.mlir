// ViewOpToLLVM.cpp: broadcast, expand_dims, reshape, trans and convert_layout. In registers
// when each thread already holds the operand element each of its result elements reads (the
// result struct is the operand's members, no barrier, tkgpu.shared = 0); else through shared
// memory: barrier, each thread stores its operand elements at their row-major linear index,
// barrier, each thread loads its result elements (tkgpu.shared = operand elements x bytes).
// The results are unused: keep-unread builds their structs all the same.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm=keep-unread \
// RUN:   | FileCheck %s

// 1x16 -> 8x16 in one layout: the broadcast dimension's index is 0 in every thread.
// CHECK: module attributes {{.*}}tkgpu.shared = 0
// CHECK-LABEL: llvm.func @broadcast_row
// CHECK: %[[E:.*]] = llvm.extractvalue %arg0[0]
// CHECK: llvm.insertvalue %[[E]], %{{.*}}[0]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @broadcast_row(%x: tensor<1x16xf32, #b>) {
    %0 = "tk.broadcast"(%x) : (tensor<1x16xf32, #b>) -> tensor<8x16xf32, #b>
    func.return
  }
}

// -----

// 16x1 -> 16x32: dimension 1 wraps around (tile 32, size 1), dimension 0 gives each thread 4
// rows (tile 4): result element i is operand element i.
// CHECK: module attributes {{.*}}tkgpu.shared = 0
// CHECK-LABEL: llvm.func @broadcast_col
// CHECK: %[[E0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[E1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[E2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[E3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: llvm.insertvalue %[[E0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[E1]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[E2]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[E3]], %{{.*}}[3]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @broadcast_col(%x: tensor<16x1xi32, #b>) {
    %0 = "tk.broadcast"(%x) : (tensor<16x1xi32, #b>) -> tensor<16x32xi32, #b>
    func.return
  }
}

// -----

// A broadcast whose operand layout spreads the columns differently: through shared memory
// (32 f32: 128 bytes). Each thread writes its 8 columns (the lanes wrap around the one row),
// then reads its 4 result elements at their column (the row does not matter).
// CHECK: module attributes {{.*}}tkgpu.shared = 128
// CHECK: llvm.mlir.global external @tk_shared() {addr_space = 3 : i32, alignment = 16 : i64}
// CHECK-LABEL: llvm.func @broadcast_shared
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @broadcast_shared(%x: tensor<1x32xf32, #c>) {
    %0 = "tk.broadcast"(%x) : (tensor<1x32xf32, #c>) -> tensor<16x32xf32, #b>
    func.return
  }
}

// -----

// expand_dims of a slice into its parent, at both axes: the same members.
// CHECK: module attributes {{.*}}tkgpu.shared = 0
// CHECK-LABEL: llvm.func @expand_dims
// CHECK: %[[X:.*]] = llvm.extractvalue %arg0[0]
// CHECK: llvm.insertvalue %[[X]], %{{.*}}[0]
// CHECK: %[[Y0:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %arg1[1]
// CHECK: llvm.insertvalue %[[Y0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[Y1]], %{{.*}}[1]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @expand_dims(%x: tensor<16xi32, #tkgpu.slice<{dim = 0, parent = #b}>>, %y: tensor<16xi32, #tkgpu.slice<{dim = 1, parent = #b}>>) {
    %0 = "tk.expand_dims"(%x) <{axis = 0 : i32}> : (tensor<16xi32, #tkgpu.slice<{dim = 0, parent = #b}>>) -> tensor<1x16xi32, #b>
    %1 = "tk.expand_dims"(%y) <{axis = 1 : i32}> : (tensor<16xi32, #tkgpu.slice<{dim = 1, parent = #b}>>) -> tensor<16x1xi32, #b>
    func.return
  }
}

// -----

// trans into the permuted layout (what tk-assign-layouts gives): no data moves.
// CHECK: module attributes {{.*}}tkgpu.shared = 0
// CHECK-LABEL: llvm.func @trans
// CHECK: %[[E0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[E1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[E2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[E3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: llvm.insertvalue %[[E0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[E1]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[E2]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[E3]], %{{.*}}[3]
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @trans(%x: tensor<16x32xf32, #b>) {
    %0 = "tk.trans"(%x) <{order = array<i32: 1, 0>}> : (tensor<16x32xf32, #b>) -> tensor<32x16xf32, #t>
    func.return
  }
}

// -----

// trans into the operand's own layout: through shared memory (512 f32). Result element
// (i, j) reads operand element (j, i), at linear index j * 32 + i.
// CHECK: module attributes {{.*}}tkgpu.shared = 2048
// CHECK-LABEL: llvm.func @trans_shared
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[I:.*]] = llvm.add
// CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: %[[J32:.*]] = llvm.mul %{{.*}}, %[[C32]] : i32
// CHECK: %[[L:.*]] = llvm.add %[[I]], %[[J32]] : i32
// CHECK: llvm.getelementptr %{{.*}}[%[[L]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @trans_shared(%x: tensor<16x32xf32, #b>) {
    %0 = "tk.trans"(%x) <{order = array<i32: 1, 0>}> : (tensor<16x32xf32, #b>) -> tensor<32x16xf32, #b>
    func.return
  }
}

// -----

// 16x32 -> 512 keeps every element in its thread (thread t holds t + 128 i in both): in
// registers. 512 -> 8x4x16 does not: through shared memory.
// CHECK: module attributes {{.*}}tkgpu.shared = 2048
// CHECK-LABEL: llvm.func @reshape
// CHECK: %[[E0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: llvm.insertvalue %[[E0]], %{{.*}}[0]
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#r = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tkgpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @reshape(%x: tensor<16x32xf32, #b>) {
    %0 = "tk.reshape"(%x) : (tensor<16x32xf32, #b>) -> tensor<512xf32, #r>
    %1 = "tk.reshape"(%0) : (tensor<512xf32, #r>) -> tensor<8x4x16xf32, #s>
    func.return
  }
}

// -----

// convert_layout between two blocked layouts, f16 (scratch 32 x 32 x 2 bytes: rows of 64 bytes,
// unpadded; the operand's runs of 4 along a row stored as vectors, the result read element by
// element) and i1 (one byte each: zero-extended to i8 to store, truncated after the load).
// CHECK: module attributes {{.*}}tkgpu.shared = 2048
// CHECK-LABEL: llvm.func @convert
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: llvm.store %{{.*}} {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> f16
// CHECK: nvvm.barrier0
// CHECK: %[[Z:.*]] = llvm.zext %{{.*}} : i1 to i8
// CHECK: llvm.store %[[Z]], %{{.*}} : i8, !llvm.ptr<3>
// CHECK-COUNT-7: llvm.store %{{.*}} : i8, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i8
// CHECK: llvm.trunc %[[B]] : i8 to i1
// CHECK-COUNT-7: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @convert(%x: tensor<32x32xf16, #b>, %m: tensor<32x32xi1, #b>) {
    %0 = tkgpu.convert_layout %x : tensor<32x32xf16, #b> -> tensor<32x32xf16, #c>
    %1 = tkgpu.convert_layout %m : tensor<32x32xi1, #b> -> tensor<32x32xi1, #c>
    func.return
  }
}

// -----

// An mma accumulator to a blocked layout (the matmul epilogue): 64 x 64 f32 rows are 256 bytes,
// so each row is padded to 68 elements (17408 bytes of scratch) and the 8 rows of an mma tile
// start in different banks; the mma pairs are stored as 8-byte vectors (16 per thread), the
// blocked runs of 4 read as 16-byte vectors (8 per thread).
// CHECK: module attributes {{.*}}tkgpu.shared = 17408
// CHECK-LABEL: llvm.func @epilogue
// CHECK: nvvm.barrier0
// CHECK: llvm.mlir.constant(68 : i32)
// CHECK-COUNT-16: llvm.store %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: llvm.return
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#b = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @epilogue(%x: tensor<64x64xf32, #mma>) {
    %0 = tkgpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    func.return
  }
}

// -----

// The online softmax of attention on wgmma accumulators: the probabilities (64 x 64, an
// accumulator of n = 64) become the register operand a of the next product (parent n = 128),
// and a row maximum of one accumulator is taken for the rows of the other. Same warps, same
// rows, and a's 16-wide K steps are the accumulator's 8-wide column pairs: every thread already
// holds what it needs, so no shared memory and no barrier.
// CHECK: module attributes {{.*}}tkgpu.shared = 0
// CHECK-LABEL: llvm.func @softmax_to_operand
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#mma1 = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
#op = #tkgpu.dot_operand<{opIdx = 0, parent = #mma1, kWidth = 2}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @softmax_to_operand(%p: tensor<64x64xf16, #mma>,
                                %m: tensor<64xf32, #tkgpu.slice<{dim = 1, parent = #mma}>>) {
    %0 = tkgpu.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #op>
    %1 = tkgpu.convert_layout %m : tensor<64xf32, #tkgpu.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #tkgpu.slice<{dim = 1, parent = #mma1}>>
    %2 = tk.expand_dims %1 {axis = 1 : i32} : tensor<64xf32, #tkgpu.slice<{dim = 1, parent = #mma1}>> -> tensor<64x1xf32, #mma1>
    %3 = tk.broadcast %2 : tensor<64x1xf32, #mma1> -> tensor<64x128xf32, #mma1>
    func.return
  }
}

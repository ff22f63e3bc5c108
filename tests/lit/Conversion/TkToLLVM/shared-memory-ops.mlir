// SharedMemoryOpToLLVM.cpp and ConvertToDotOperand.cpp: a ring buffer is the shared array at
// its offset, a slot steps over whole tiles; a copy is one cp.async per 16-byte vector (.cg),
// its mask the source size (0: zero-filled); commit and wait are cp.async.commit_group and
// cp.async.wait_group + bar.sync; a local load of a dot operand is ldmatrix (.trans here: b's N
// dimension is the contiguous one); a barrier is bar.sync. Elements narrower than 4 bytes per vector are loaded and
// stored one by one.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @ring
// CHECK: %[[BASE:.+]] = llvm.mlir.addressof @tk_shared : !llvm.ptr<3>
// A barrier after the ring's address: its bytes may have been an earlier op's scratch.
// CHECK: nvvm.barrier0
// CHECK: %[[TILE:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: %[[SIZE:.+]] = llvm.select %{{.+}}, %{{.+}}, %{{.+}} : i1, i32
// CHECK: nvvm.cp.async.shared.global %{{.+}}, %{{.+}}, 16, cache = cg, %[[SIZE]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT: llvm.store
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.barrier0
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK: nvvm.barrier0
// CHECK-NEXT: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sb0 = #tkgpu.slice<{dim = 0, parent = #b}>
#sb1 = #tkgpu.slice<{dim = 1, parent = #b}>
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @ring(%ptr: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %k: i32, %i: i32) {
    %r = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #sb1>
    %r1 = tk.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #sb1> -> tensor<32x1xi32, #b>
    %c64 = arith.constant dense<64> : tensor<32x1xi32, #b>
    %row = arith.muli %r1, %c64 : tensor<32x1xi32, #b>
    %c = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #sb0>
    %c1 = tk.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #sb0> -> tensor<1x64xi32, #b>
    %row2 = tk.broadcast %row : tensor<32x1xi32, #b> -> tensor<32x64xi32, #b>
    %col2 = tk.broadcast %c1 : tensor<1x64xi32, #b> -> tensor<32x64xi32, #b>
    %off = arith.addi %row2, %col2 : tensor<32x64xi32, #b>
    %base = tk.splat %ptr : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #b>
    %p = tk.addptr %base, %off : tensor<32x64x!tk.ptr<f16>, #b>, tensor<32x64xi32, #b> -> tensor<32x64x!tk.ptr<f16>, #b>
    %ks = tk.splat %k : i32 -> tensor<32x1xi32, #b>
    %m1 = arith.cmpi slt, %r1, %ks : tensor<32x1xi32, #b>
    %m = tk.broadcast %m1 : tensor<32x1xi1, #b> -> tensor<32x64xi1, #b>
    %buf = tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16, #s>
    %tile = tkgpu.memdesc_index %buf[%i] : !tkgpu.memdesc<3x32x64xf16, #s> -> !tkgpu.memdesc<32x64xf16, #s>
    tkgpu.async_copy_global_to_local %p, %tile mask %m : tensor<32x64x!tk.ptr<f16>, #b> -> !tkgpu.memdesc<32x64xf16, #s>, tensor<32x64xi1, #b>
    tkgpu.async_commit_group
    tkgpu.async_wait 1
    %x = tkgpu.local_load %tile : !tkgpu.memdesc<32x64xf16, #s> -> tensor<32x64xf16, #opb>
    tkgpu.barrier
    func.return
  }
}

// -----

// Nothing known of the pointers: 2-byte elements one at a time, loaded and stored.
// CHECK-LABEL: llvm.func @narrow
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: llvm.load %{{.+}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 2 : i64} : f16, !llvm.ptr<3>
#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @narrow(%p: tensor<32x64x!tk.ptr<f16>, #b>) {
    %buf = tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16, #s>
    %c0 = arith.constant 0 : i32
    %tile = tkgpu.memdesc_index %buf[%c0] : !tkgpu.memdesc<3x32x64xf16, #s> -> !tkgpu.memdesc<32x64xf16, #s>
    tkgpu.async_copy_global_to_local %p, %tile : tensor<32x64x!tk.ptr<f16>, #b> -> !tkgpu.memdesc<32x64xf16, #s>
    func.return
  }
}

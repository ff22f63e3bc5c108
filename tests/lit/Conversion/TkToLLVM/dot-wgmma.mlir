// WGMMADotOpToLLVM.cpp: tkgpu.warp_group_dot is wgmma.mma_async on matrix descriptors of its
// tiles, between wgmma.fence and wgmma.commit_group; a synchronous one waits for its group, an
// asynchronous one leaves that to tkgpu.warp_group_dot_wait. SharedMemoryOpToLLVM.cpp: a
// local_alloc with a value stores it between barriers and fences it for the async proxy.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm | FileCheck %s

#ba = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
#sa = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>

// f16 128 x 128 x 64 on one warpgroup: two 64-row reps, four K steps of 16: 8 instructions.
// a is K-major (128-byte rows, 128-byte swizzle): the descriptor's constant part is LBO 16
// (unused), SBO 1024 (8 rows of 128 bytes), mode 1; b is N-major in two panels of 64 rows x
// 128 bytes: LBO 8192 (the panel stride), SBO 1024. b transposed (the last immediate).
// The tiles are the shared array's first 16 KiB and the next 16 KiB (1024-byte aligned). Each
// instruction's descriptor is its tile's plus the sub-tile's offset / 16 (a's second rep, 64 rows
// of 128 bytes down: 512).
// CHECK: llvm.mlir.global external @tk_shared() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-LABEL: func.func @f16
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: nvvm.barrier0
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: nvvm.barrier0
// CHECK-DAG: llvm.mlir.constant(4611686293305360384 : i64)
// CHECK-DAG: llvm.mlir.constant(4611686293338849280 : i64)
// CHECK: "wgmma.fence.sync.aligned;", "{{(f,)*}}f"
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.*}}, $63}, $64, $65, p, 1, 1, 0, 1;\0A}", "=f,{{.*}},l,l,r,0,
// CHECK: %[[ROWS:.+]] = llvm.mlir.constant(512 : i64) : i64
// CHECK-NEXT: llvm.add %{{.+}}, %[[ROWS]] : i64
// CHECK-NEXT: wgmma.mma_async
// CHECK-COUNT-6: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.*}}, $63}, $64, $65, p, 1, 1, 0, 1;\0A}", "=f,{{.*}},l,l,r,0,
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: "wgmma.wait_group.sync.aligned 0;", "{{(=f,)+}}=f,0,1,{{.*}},127"
// CHECK-NOT: wgmma.wait_group
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @f16(%a: tensor<128x64xf16, #ba>, %b: tensor<64x128xf16, #bb>, %c: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> {
  %ta = tkgpu.local_alloc %a : tensor<128x64xf16, #ba> -> !tkgpu.memdesc<128x64xf16, #sa>
  %tb = tkgpu.local_alloc %b : tensor<64x128xf16, #bb> -> !tkgpu.memdesc<64x128xf16, #sb>
  %d = tkgpu.warp_group_dot %ta, %tb, %c : !tkgpu.memdesc<128x64xf16, #sa>, !tkgpu.memdesc<64x128xf16, #sb>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  func.return %d : tensor<128x128xf32, #mma>
}
}

// -----

#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 32]}>
#sa = #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>

// tf32 64 x 64 x 32 on 8 warps, both tiles K-major: warpgroups side by side along N (n = 32),
// four K steps of 8, no transposes. Asynchronous: no wait after the commit; the wait op
// passes the 16 accumulators through `wgmma.wait_group 1`.
// CHECK-LABEL: func.func @tf32
// CHECK: "wgmma.fence.sync.aligned;", "{{(f,)*}}f"
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 {$0, {{.*}}, $15}, $16, $17, p, 1, 1;
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: wgmma.wait_group
// CHECK: "wgmma.wait_group.sync.aligned 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @tf32(%ta: !tkgpu.memdesc<64x32xf32, #sa>, %tb: !tkgpu.memdesc<32x64xf32, #sb>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tkgpu.warp_group_dot %ta, %tb, %c {is_async} : !tkgpu.memdesc<64x32xf32, #sa>, !tkgpu.memdesc<32x64xf32, #sb>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %w = tkgpu.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<64x64xf32, #mma>
  func.return %w : tensor<64x64xf32, #mma>
}
}

// -----

#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#sb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// a in registers (f16 64 x 32: two K steps): four f16x2 registers per instruction instead of a
// descriptor, and no transpose immediate for a (b N-major: 1).
// CHECK-LABEL: func.func @register_a
// CHECK: "wgmma.fence.sync.aligned;", "r,r,r,r,r,r,r,r,{{(f,)*}}f"
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;\0A}", "=f,{{.*}},r,r,r,r,l,r,0,
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @register_a(%a: tensor<64x32xf16, #opa>, %tb: !tkgpu.memdesc<32x64xf16, #sb>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tkgpu.warp_group_dot %a, %tb, %c : tensor<64x32xf16, #opa>, !tkgpu.memdesc<32x64xf16, #sb>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  func.return %d : tensor<64x64xf32, #mma>
}
}

// -----

#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
#sa = #tkgpu.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [0, 1]}>

// fp8, e4m3 x e5m2, 64 x 128 x 64, both tiles K-major (64-byte rows, the 64-byte swizzle): two
// K steps of 32, each naming both types, with the scale immediates and no transposes. wgmma
// takes fp8 in PTX 8.0: the module asks for no higher ISA.
// CHECK-NOT: tkgpu.ptx_version
// CHECK-LABEL: func.func @fp8
// CHECK: "wgmma.fence.sync.aligned;", "{{(f,)*}}f"
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2 {$0, {{.*}}, $63}, $64, $65, p, 1, 1;
// CHECK-NOT: wgmma.mma_async
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @fp8(%ta: !tkgpu.memdesc<64x64xf8E4M3FN, #sa>, %tb: !tkgpu.memdesc<64x128xf8E5M2, #sb>, %c: tensor<64x128xf32, #mma>) -> tensor<64x128xf32, #mma> {
  %d = tkgpu.warp_group_dot %ta, %tb, %c : !tkgpu.memdesc<64x64xf8E4M3FN, #sa>, !tkgpu.memdesc<64x128xf8E5M2, #sb>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
  func.return %d : tensor<64x128xf32, #mma>
}
}

// -----

#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#sa = #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>

// A product from zeros (attention's Q Kᵀ): the first K step has scale-d 0 and undefined
// accumulator registers, the next ones scale-d 1 and the previous step's results.
// CHECK-LABEL: func.func @from_zero
// CHECK: %[[UNDEF:.+]] = llvm.mlir.undef : f32
// CHECK-NEXT: %[[ONE:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[ZERO:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async{{.*}} %{{.+}}, %{{.+}}, %[[ZERO]], %[[UNDEF]], %[[UNDEF]],
// CHECK-COUNT-3: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async{{.*}} %{{.+}}, %{{.+}}, %[[ONE]], %{{.+}}
// CHECK-NOT: wgmma.mma_async
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @from_zero(%ta: !tkgpu.memdesc<64x32xf32, #sa>, %tb: !tkgpu.memdesc<32x64xf32, #sb>) -> tensor<64x64xf32, #mma> {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %d = tkgpu.warp_group_dot %ta, %tb, %zero : !tkgpu.memdesc<64x32xf32, #sa>, !tkgpu.memdesc<32x64xf32, #sb>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  func.return %d : tensor<64x64xf32, #mma>
}
}

// -----

#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#sa = #tkgpu.shared<{vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 16, perPhase = 1, maxPhase = 8, order = [0, 1]}>

// max_num_imprecise_acc = 64 on fp8, K = 128: two runs of two K steps, each from zero
// (scale-d 0 first) in registers of its own, committed and waited for, then added to the
// accumulator in f32: 32 registers, so 32 additions per run.
// CHECK-LABEL: func.func @imprecise_runs
// CHECK: %[[UNDEF:.+]] = llvm.mlir.undef : f32
// CHECK: %[[ONE:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[ZERO:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3{{.*}} %[[ZERO]], %[[UNDEF]], %[[UNDEF]],
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3{{.*}} %[[ONE]],
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: wgmma.wait_group.sync.aligned 0
// CHECK-COUNT-32: llvm.fadd
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3{{.*}} %[[ZERO]], %[[UNDEF]], %[[UNDEF]],
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3{{.*}} %[[ONE]],
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: wgmma.wait_group.sync.aligned 0
// CHECK-COUNT-32: llvm.fadd
// CHECK-NOT: wgmma
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @imprecise_runs(%ta: !tkgpu.memdesc<64x128xf8E4M3FN, #sa>, %tb: !tkgpu.memdesc<128x64xf8E4M3FN, #sb>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tkgpu.warp_group_dot %ta, %tb, %c {max_num_imprecise_acc = 64 : i32} : !tkgpu.memdesc<64x128xf8E4M3FN, #sa>, !tkgpu.memdesc<128x64xf8E4M3FN, #sb>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  func.return %d : tensor<64x64xf32, #mma>
}
}

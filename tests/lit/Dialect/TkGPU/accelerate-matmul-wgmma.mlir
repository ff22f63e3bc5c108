// tk-accelerate-matmul with wgmma (sm_90a): dots wgmma can compute become
// tkgpu.warp_group_dot on shared-memory tiles with a version-3 mma result; the others take
// mma.sync as before.
// RUN: tk-opt %s -split-input-file -tk-accelerate-matmul="compute-capability=90 wgmma=true" | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-accelerate-matmul=compute-capability=90 | FileCheck %s --check-prefix=SYNC

#ld = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// f16 128 x 128 x 64 on 4 warps: one warpgroup down M (two 64-row reps), n = 128. The tiles
// are stored from the values before their conversions (the loads' layouts, K contiguous in a,
// N in b): a's 128-byte rows take the 128-byte swizzle, b's 256-byte rows two panels of it.
// CHECK-DAG: #[[MMA:.+]] = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
// CHECK-DAG: #[[SA:.+]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[SB:.+]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>
// CHECK-LABEL: func.func @f16
// CHECK-SAME: (%[[LA:[^:]+]]: tensor<128x64xf16, #blocked>, %[[LB:[^:]+]]: tensor<64x128xf16, #blocked>
// CHECK: %[[A:.+]] = tkgpu.local_alloc %[[LA]] : tensor<128x64xf16, #blocked> -> !tkgpu.memdesc<128x64xf16, #[[SA]]>
// CHECK: %[[B:.+]] = tkgpu.local_alloc %[[LB]] : tensor<64x128xf16, #blocked> -> !tkgpu.memdesc<64x128xf16, #[[SB]]>
// CHECK: %[[C:.+]] = tkgpu.convert_layout %{{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[D:.+]] = tkgpu.warp_group_dot %[[A]], %[[B]], %[[C]]
// CHECK-NOT: is_async
// CHECK-SAME: -> tensor<128x128xf32, #[[MMA]]>
// CHECK: tkgpu.convert_layout %[[D]] : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #blocked1>
// SYNC-LABEL: func.func @f16
// SYNC-NOT: warp_group_dot
// SYNC: tk.dot {{.*}} -> tensor<128x128xf32, #mma>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @f16(%la: tensor<128x64xf16, #ld>, %lb: tensor<64x128xf16, #ld>, %c: tensor<128x128xf32, #b>) -> tensor<128x128xf32, #b> {
  %a = tkgpu.convert_layout %la : tensor<128x64xf16, #ld> -> tensor<128x64xf16, #b>
  %bb = tkgpu.convert_layout %lb : tensor<64x128xf16, #ld> -> tensor<64x128xf16, #b>
  %d = tk.dot %a, %bb, %c {input_precision = "ieee"} : tensor<128x64xf16, #b> * tensor<64x128xf16, #b> + tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  func.return %d : tensor<128x128xf32, #b>
}
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#kb = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>

// 8 warps: 128 x 256 goes two warpgroups down M, n = 256; 64 x 128 has one warpgroup's rows,
// so the second goes across N (n = 64 each). bf16 with a 32-byte K row takes the 32-byte
// swizzle. tf32 needs K contiguous in both tiles: b with N contiguous takes mma.sync, b with
// K contiguous wgmma (k8: 32 bytes).
// CHECK-DAG: #[[M256:.+]] = #tkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256]}>
// CHECK-DAG: #[[M64:.+]] = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 64]}>
// CHECK-DAG: #[[M128:.+]] = #tkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128]}>
// CHECK-DAG: #[[V2:.+]] = #tkgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
// CHECK-DAG: #tkgpu.shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}>
// CHECK-DAG: #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-LABEL: func.func @shapes
// CHECK: tkgpu.warp_group_dot {{.*}} -> tensor<128x256xf32, #[[M256]]>
// CHECK: tkgpu.warp_group_dot {{.*}} -> tensor<64x128xf32, #[[M64]]>
// CHECK: tk.dot {{.*}}input_precision = "tf32"{{.*}} -> tensor<128x128xf32, #[[V2]]>
// CHECK: tkgpu.warp_group_dot {{.*}} -> tensor<128x128xf32, #[[M128]]>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @shapes(%a: tensor<128x64xf16, #b>, %b: tensor<64x256xf16, #b>, %c: tensor<128x256xf32, #b>,
                  %a2: tensor<64x16xbf16, #b>, %b2: tensor<16x128xbf16, #b>, %c2: tensor<64x128xf32, #b>,
                  %fa: tensor<128x32xf32, #b>, %fb: tensor<32x128xf32, #b>, %fbk: tensor<32x128xf32, #kb>,
                  %fc: tensor<128x128xf32, #b>)
    -> (tensor<128x256xf32, #b>, tensor<64x128xf32, #b>, tensor<128x128xf32, #b>, tensor<128x128xf32, #b>) {
  %0 = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<128x64xf16, #b> * tensor<64x256xf16, #b> + tensor<128x256xf32, #b> -> tensor<128x256xf32, #b>
  %1 = tk.dot %a2, %b2, %c2 {input_precision = "ieee"} : tensor<64x16xbf16, #b> * tensor<16x128xbf16, #b> + tensor<64x128xf32, #b> -> tensor<64x128xf32, #b>
  %2 = tk.dot %fa, %fb, %fc {input_precision = "tf32"} : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> + tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  %fbc = tkgpu.convert_layout %fbk : tensor<32x128xf32, #kb> -> tensor<32x128xf32, #b>
  %3 = tk.dot %fa, %fbc, %fc {input_precision = "tf32"} : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> + tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  func.return %0, %1, %2, %3 : tensor<128x256xf32, #b>, tensor<64x128xf32, #b>, tensor<128x128xf32, #b>, tensor<128x128xf32, #b>
}
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#b4 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// mma.sync where wgmma cannot: 2 warps (no warpgroup), 32 rows (a warpgroup takes 64), tf32x3.
// CHECK-LABEL: func.func @two_warps
// CHECK-NOT: warp_group_dot
// CHECK: tk.dot {{.*}} -> tensor<64x64xf32, #mma>
module attributes {tkgpu.num_warps = 2 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @two_warps(%a: tensor<64x32xf16, #b>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> {
  %d = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<64x32xf16, #b> * tensor<32x64xf16, #b> + tensor<64x64xf32, #b> -> tensor<64x64xf32, #b>
  func.return %d : tensor<64x64xf32, #b>
}
}

// -----

#b4 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @narrow
// CHECK-NOT: warp_group_dot
// CHECK: tk.dot {{.*}} -> tensor<32x64xf32, #mma>
// CHECK: tk.dot {{.*}}input_precision = "tf32x3"{{.*}} -> tensor<64x64xf32, #mma>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @narrow(%a: tensor<32x32xf16, #b4>, %b: tensor<32x64xf16, #b4>, %c: tensor<32x64xf32, #b4>,
                  %fa: tensor<64x32xf32, #b4>, %fb: tensor<32x64xf32, #b4>, %fc: tensor<64x64xf32, #b4>)
    -> (tensor<32x64xf32, #b4>, tensor<64x64xf32, #b4>) {
  %d = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<32x32xf16, #b4> * tensor<32x64xf16, #b4> + tensor<32x64xf32, #b4> -> tensor<32x64xf32, #b4>
  %e = tk.dot %fa, %fb, %fc {input_precision = "tf32x3"} : tensor<64x32xf32, #b4> * tensor<32x64xf32, #b4> + tensor<64x64xf32, #b4> -> tensor<64x64xf32, #b4>
  func.return %d, %e : tensor<32x64xf32, #b4>, tensor<64x64xf32, #b4>
}
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// a computed in the kernel (softmax(q kT) in attention, here a truncation) stays in registers:
// a dot_operand of the version-3 layout, kWidth 2; b, an argument, goes to a tile.
// CHECK: #[[OPA:.+]] = #tkgpu.dot_operand<{opIdx = 0, parent = #{{.+}}, kWidth = 2}>
// CHECK-LABEL: func.func @register_a
// CHECK: %[[P:.+]] = arith.truncf
// CHECK: %[[A:.+]] = tkgpu.convert_layout %[[P]] : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #[[OPA]]>
// CHECK: %[[B:.+]] = tkgpu.local_alloc %{{.+}} : tensor<64x64xf16, #blocked> -> !tkgpu.memdesc<64x64xf16
// CHECK: tkgpu.warp_group_dot %[[A]], %[[B]]
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @register_a(%s: tensor<64x64xf32, #b>, %v: tensor<64x64xf16, #b>, %c: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> {
  %p = arith.truncf %s : tensor<64x64xf32, #b> to tensor<64x64xf16, #b>
  %d = tk.dot %p, %v, %c {input_precision = "ieee"} : tensor<64x64xf16, #b> * tensor<64x64xf16, #b> + tensor<64x64xf32, #b> -> tensor<64x64xf32, #b>
  func.return %d : tensor<64x64xf32, #b>
}
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// An operand the loop does not change (q in attention) is stored to its tile once, before the
// loop; the one loaded in the loop is stored in it.
// CHECK-LABEL: func.func @invariant_operand
// CHECK: %[[A:.+]] = tkgpu.local_alloc %{{.+}} : tensor<64x64xf16, #blocked> -> !tkgpu.memdesc<64x64xf16
// CHECK-NEXT: scf.for
// CHECK: %[[B:.+]] = tkgpu.local_alloc %{{.+}} : tensor<64x64xf16, #blocked> -> !tkgpu.memdesc<64x64xf16
// CHECK: tkgpu.warp_group_dot %[[A]], %[[B]]
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @invariant_operand(%q: tensor<64x64xf16, #b>, %k: tensor<64x64x!tk.ptr<f16>, #b>, %n: i32) -> tensor<64x64xf32, #b> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #b>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #b>) : i32 {
    %kt = tk.load %k : (tensor<64x64x!tk.ptr<f16>, #b>) -> tensor<64x64xf16, #b>
    %d = tk.dot %q, %kt, %acc {input_precision = "ieee"} : tensor<64x64xf16, #b> * tensor<64x64xf16, #b> + tensor<64x64xf32, #b> -> tensor<64x64xf32, #b>
    scf.yield %d : tensor<64x64xf32, #b>
  }
  func.return %r : tensor<64x64xf32, #b>
}
}

// -----

#ka = #tkgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#kb = #tkgpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#nb = #tkgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

// fp8, e4m3 x e5m2 here: with both tiles K-major (b loaded N x K, K contiguous) wgmma takes it
// (K 64: 64-byte rows, the 64-byte swizzle); with b N-major it cannot (wgmma transposes 16-bit
// tiles only), and mma.sync does, kWidth 4.
// CHECK-LABEL: func.func @fp8
// CHECK: %[[A:.+]] = tkgpu.local_alloc %arg0 : tensor<64x64xf8E4M3FN, #{{.+}}> -> !tkgpu.memdesc<64x64xf8E4M3FN
// CHECK: %[[B:.+]] = tkgpu.local_alloc %arg1 : tensor<64x128xf8E5M2, #{{.+}}> -> !tkgpu.memdesc<64x128xf8E5M2
// CHECK: tkgpu.warp_group_dot %[[A]], %[[B]], %{{.*}} : !tkgpu.memdesc<64x64xf8E4M3FN, {{.*}}>, !tkgpu.memdesc<64x128xf8E5M2, {{.*}}>, tensor<64x128xf32, #{{.+}}> -> tensor<64x128xf32
// CHECK-NOT: warp_group_dot
// CHECK: tk.dot {{.*}} : tensor<64x64xf8E4M3FN, #{{.+}}> * tensor<64x128xf8E5M2, #{{.+}}> + tensor<64x128xf32, #mma1> -> tensor<64x128xf32, #mma1>
// SYNC-LABEL: func.func @fp8
// SYNC-NOT: warp_group_dot
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @fp8(%a: tensor<64x64xf8E4M3FN, #ka>, %b: tensor<64x128xf8E5M2, #kb>, %n: tensor<64x128xf8E5M2, #nb>, %c: tensor<64x128xf32, #ka>)
    -> (tensor<64x128xf32, #ka>, tensor<64x128xf32, #ka>) {
  %d = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<64x64xf8E4M3FN, #ka> * tensor<64x128xf8E5M2, #kb> + tensor<64x128xf32, #ka> -> tensor<64x128xf32, #ka>
  %e = tk.dot %a, %n, %c {input_precision = "ieee"} : tensor<64x64xf8E4M3FN, #ka> * tensor<64x128xf8E5M2, #nb> + tensor<64x128xf32, #ka> -> tensor<64x128xf32, #ka>
  func.return %d, %e : tensor<64x128xf32, #ka>, tensor<64x128xf32, #ka>
}
}

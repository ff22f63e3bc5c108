// DotOpToLLVM.cpp: tk.dot as an FMA loop. a and b go to shared memory (barrier, stores, barrier;
// b after a's M x K elements); each thread then reads, for every k, a[m, k] once per distinct row
// and b[k, n] once per distinct column of its c elements, from one pointer per operand plus
// constant offsets, and does one fma per element.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm | FileCheck %s

// f32, 16x16x16, 4 warps: each thread holds c rows r and r + 8 of column n (tile 8 x 16), so
// per k one load of b, two of a and two fmas; 16 k: 32 fmas. Scratch: 512 f32.
// CHECK: module attributes {{.*}}tkgpu.shared = 2048
// CHECK-LABEL: llvm.func @dot_f32
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// a's pointer: row r times 16; b's: 256 (after a) + column n.
// CHECK: %[[A:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: %[[C256:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK-NEXT: %[[COL:.*]] = llvm.add %{{.*}}, %[[C256]] : i32
// CHECK-NEXT: llvm.mlir.addressof @tk_shared
// CHECK-NEXT: %[[B:.*]] = llvm.getelementptr %{{.*}}[%[[COL]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// k = 0: b[0, n], a[r, 0], a[r + 8, 0].
// CHECK: llvm.getelementptr %[[B]][0]
// CHECK: llvm.getelementptr %[[A]][0]
// CHECK: llvm.intr.fma
// CHECK: llvm.getelementptr %[[A]][128]
// CHECK: llvm.intr.fma
// k = 1: b[1, n], a[r, 1], a[r + 8, 1].
// CHECK: llvm.getelementptr %[[B]][16]
// CHECK: llvm.getelementptr %[[A]][1]
// CHECK: llvm.intr.fma
// CHECK: llvm.getelementptr %[[A]][129]
// CHECK: llvm.intr.fma
// CHECK-COUNT-28: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @dot_f32(%a: tensor<16x16xf32, #b>, %b: tensor<16x16xf32, #b>, %c: tensor<16x16xf32, #b>) {
    %0 = "tk.dot"(%a, %b, %c) <{input_precision = "tf32"}> : (tensor<16x16xf32, #b>, tensor<16x16xf32, #b>, tensor<16x16xf32, #b>) -> tensor<16x16xf32, #b>
    func.return
  }
}

// -----

// f16 inputs (a in another layout than b), f16 accumulator: f16 loads extended to f32, the
// accumulator extended first and truncated at the end; 32 k x 2 elements: 64 fmas. Scratch:
// 1024 f16.
// CHECK: module attributes {{.*}}tkgpu.shared = 2048
// CHECK-LABEL: llvm.func @dot_f16
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}} : f16, !llvm.ptr<3>
// CHECK-COUNT-4: llvm.store %{{.*}} : f16, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[C512:.*]] = llvm.mlir.constant(512 : i32) : i32
// CHECK: llvm.add %{{.*}}, %[[C512]] : i32
// CHECK-COUNT-2: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f16
// CHECK: llvm.fpext
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f16
// CHECK: llvm.fpext
// CHECK: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-COUNT-63: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
// CHECK-COUNT-2: llvm.fptrunc %{{.*}} : f32 to f16
// CHECK: llvm.return
#a = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @dot_f16(%a: tensor<16x32xf16, #a>, %b: tensor<32x16xf16, #b>, %c: tensor<16x16xf16, #b>) {
    %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<16x32xf16, #a>, tensor<32x16xf16, #b>, tensor<16x16xf16, #b>) -> tensor<16x16xf16, #b>
    func.return
  }
}

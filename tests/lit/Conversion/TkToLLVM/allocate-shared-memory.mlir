// AllocateSharedMemory.cpp: every op that exchanges values through shared memory gets its
// scratch's byte offset (tkgpu.shared_offset), the module the bytes the kernel needs in all
// (tkgpu.shared). A scratch is live at its op only, so the three users here (a reduce across
// 4 warps: 4 partials, 16 bytes; a scan across 4 warps: 16 bytes; a convert_layout of 32 x 32
// f16 through shared memory: 2048 bytes) all sit at offset 0 and the total is the largest.
// Ops that need no scratch (a reduce within one warp, a convert_layout kept in registers) get
// no offset. Buffers live at the same time get disjoint offsets:
// tests/lit/Analysis/allocation.mlir.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory | FileCheck %s

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#r = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK: module attributes {tkgpu.num_warps = 4 : i32, tkgpu.shared = 2048 : i32,
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @users
  func.func @users(%x: tensor<128xf32, #b>, %y: tensor<32x32xf16, #r>, %n: i32) {
    // CHECK: tk.reduce %{{.*}} {axis = 0 : i32, tkgpu.shared_offset = 0 : i32} : (tensor<128xf32, #{{.*}}>) -> f32
    %0 = "tk.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
    }) : (tensor<128xf32, #b>) -> f32
    // CHECK: tk.scan %{{.*}} {axis = 0 : i32, reverse = false, tkgpu.shared_offset = 0 : i32}
    %1 = "tk.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.scan.return"(%s) : (f32) -> ()
    }) : (tensor<128xf32, #b>) -> tensor<128xf32, #b>
    // The convert_layout in a loop: live at the op all the same.
    // CHECK: scf.for
    // CHECK: tkgpu.convert_layout %{{.*}} {tkgpu.shared_offset = 0 : i32} : tensor<32x32xf16, #{{.*}}> -> tensor<32x32xf16, #{{.*}}>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %2 = tkgpu.convert_layout %y : tensor<32x32xf16, #r> -> tensor<32x32xf16, #c>
    }
    func.return
  }
}

// -----

// Within one warp: shuffles only. A convert_layout into the same elements: registers only.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK: module attributes {tkgpu.num_warps = 1 : i32, tkgpu.shared = 0 : i32,
// CHECK-NOT: tkgpu.shared_offset
module attributes {tkgpu.num_warps = 1 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @no_users(%x: tensor<32xf32, #b>) {
    %0 = "tk.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.maxnumf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
    }) : (tensor<32xf32, #b>) -> f32
    %1 = tkgpu.convert_layout %x : tensor<32xf32, #b> -> tensor<32xf32, #b>
    func.return
  }
}

// ElementwiseOpToLLVM.cpp: arith ops on tensors become one scalar op per element the thread
// holds (here 2), lowered by the upstream arith patterns; tk.addptr becomes llvm.getelementptr.
// RUN: tk-opt %s -tk-to-llvm | FileCheck %s

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @ops
  // CHECK-COUNT-2: llvm.mul %{{.*}} : i32
  // CHECK-COUNT-2: llvm.icmp "slt" %{{.*}} : i32
  // CHECK-COUNT-2: llvm.sitofp %{{.*}} : i32 to f32
  // CHECK-COUNT-2: llvm.fadd %{{.*}} : f32
  // CHECK-COUNT-2: llvm.select %{{.*}} : i1, f32
  // CHECK-COUNT-2: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  // CHECK-COUNT-2: llvm.store %{{.*}} : f32, !llvm.ptr<1>
  func.func @ops(%out: !tk.ptr<f32>, %n: i32) {
    %0 = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %1 = arith.muli %0, %0 : tensor<256xi32, #b>
    %2 = "tk.splat"(%n) : (i32) -> tensor<256xi32, #b>
    %3 = arith.cmpi slt, %1, %2 : tensor<256xi32, #b>
    %4 = arith.sitofp %1 : tensor<256xi32, #b> to tensor<256xf32, #b>
    %5 = arith.addf %4, %4 : tensor<256xf32, #b>
    %6 = arith.select %3, %5, %4 : tensor<256xi1, #b>, tensor<256xf32, #b>
    %7 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
    %8 = "tk.addptr"(%7, %0) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
    "tk.store"(%8, %6) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xf32, #b>) -> ()
    func.return
  }
}

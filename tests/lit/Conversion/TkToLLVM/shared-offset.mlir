// Utility.cpp's scratch addresses: an op's scratch starts at its tkgpu.shared_offset in the
// module's shared array (tk-allocate-shared-memory sets it; here by hand, as a buffer live
// beside another would get it): the reduce's partials are stored and loaded 64 bytes in.
// RUN: tk-opt %s -tk-to-llvm | FileCheck %s

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: llvm.mlir.global external @tk_shared() {addr_space = 3 : i32, alignment = 16 : i64}
// CHECK-LABEL: llvm.func @at_offset
// CHECK: nvvm.barrier0
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @tk_shared : !llvm.ptr<3>
// CHECK: %[[AREA:.*]] = llvm.getelementptr %[[BASE]][64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[AREA]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %{{.*}}, %[[AT]] : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.getelementptr %{{.*}}[64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.shared = 80 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @at_offset(%x: tensor<128xf32, #b>, %out: !tk.ptr<f32>) {
    %0 = "tk.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
    }) {tkgpu.shared_offset = 64 : i32} : (tensor<128xf32, #b>) -> f32
    "tk.store"(%out, %0) : (!tk.ptr<f32>, f32) -> ()
    func.return
  }
}

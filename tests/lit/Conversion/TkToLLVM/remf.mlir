// MathOpToLLVM.cpp: arith.remf (the front end's % on floats, C's fmod) calls libdevice's exact
// __nv_fmodf / __nv_fmod, on scalars, on each element a thread holds of a tensor and in a
// reduction's combine region; f16 and bf16 compute in f32 and round back (exactly: fmod's result
// is representable in its operands' type). No llvm.frem is left: NVPTX expands it to
// x - y * trunc(x / y), wrong for large quotients.
// RUN: tk-opt %s -split-input-file -tk-to-llvm | FileCheck %s

// CHECK-DAG: llvm.func @__nv_fmodf(f32, f32) -> f32
// CHECK-DAG: llvm.func @__nv_fmod(f64, f64) -> f64
// CHECK-LABEL: llvm.func @remf_scalars
// CHECK: llvm.call @__nv_fmodf(%[[X:.*]], %[[Y:.*]]) : (f32, f32) -> f32
// CHECK: llvm.call @__nv_fmod(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: %[[H:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK: %[[G:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK: %[[R:.*]] = llvm.call @__nv_fmodf(%[[H]], %[[G]]) : (f32, f32) -> f32
// CHECK: llvm.fptrunc %[[R]] : f32 to f16
// CHECK: %[[BH:.*]] = llvm.fpext %{{.*}} : bf16 to f32
// CHECK: %[[BG:.*]] = llvm.fpext %{{.*}} : bf16 to f32
// CHECK: %[[BR:.*]] = llvm.call @__nv_fmodf(%[[BH]], %[[BG]]) : (f32, f32) -> f32
// CHECK: llvm.fptrunc %[[BR]] : f32 to bf16
// CHECK-NOT: frem
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @remf_scalars(%p: !tk.ptr<f32>, %x: f32, %y: f32, %pd: !tk.ptr<f64>, %a: f64,
                          %b: f64, %ph: !tk.ptr<f16>, %h: f16, %g: f16, %pb: !tk.ptr<bf16>,
                          %bh: bf16, %bg: bf16) {
    %0 = arith.remf %x, %y : f32
    "tk.store"(%p, %0) : (!tk.ptr<f32>, f32) -> ()
    %1 = arith.remf %a, %b : f64
    "tk.store"(%pd, %1) : (!tk.ptr<f64>, f64) -> ()
    %2 = arith.remf %h, %g : f16
    "tk.store"(%ph, %2) : (!tk.ptr<f16>, f16) -> ()
    %3 = arith.remf %bh, %bg : bf16
    "tk.store"(%pb, %3) : (!tk.ptr<bf16>, bf16) -> ()
    func.return
  }
}

// -----

// Two elements per thread: two calls.
// CHECK-LABEL: llvm.func @remf_tensor
// CHECK-COUNT-2: llvm.call @__nv_fmodf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-NOT: frem
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @remf_tensor(%out: !tk.ptr<f32>, %y: f32) {
    %0 = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %1 = arith.sitofp %0 : tensor<256xi32, #b> to tensor<256xf32, #b>
    %2 = "tk.splat"(%y) : (f32) -> tensor<256xf32, #b>
    %3 = arith.remf %1, %2 : tensor<256xf32, #b>
    %4 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
    %5 = "tk.addptr"(%4, %0) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
    "tk.store"(%5, %3) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xf32, #b>) -> ()
    func.return
  }
}

// -----

// The combine region is cloned for every combine; its clones are lowered the same way.
// CHECK-LABEL: llvm.func @remf_in_reduce
// CHECK: llvm.call @__nv_fmod(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK-NOT: frem
#r = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tkgpu.num_warps = 1 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @remf_in_reduce(%out: !tk.ptr<f64>) {
    %0 = "tk.make_range"() <{end = 32 : i32, start = 0 : i32}> : () -> tensor<32xi32, #r>
    %1 = arith.sitofp %0 : tensor<32xi32, #r> to tensor<32xf64, #r>
    %2 = "tk.reduce"(%1) <{axis = 0 : i32}> ({
    ^bb0(%a: f64, %b: f64):
      %s = arith.remf %a, %b : f64
      "tk.reduce.return"(%s) : (f64) -> ()
    }) : (tensor<32xf64, #r>) -> f64
    "tk.store"(%out, %2) : (!tk.ptr<f64>, f64) -> ()
    func.return
  }
}

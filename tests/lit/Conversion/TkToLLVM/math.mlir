// MathOpToLLVM.cpp: math ops, on scalars and on each element a thread holds of a tensor. f32
// exp / exp2 / log / log2 / rsqrt take the SFU's approximations (ex2.approx.ftz of x * log2 e,
// lg2.approx times ln 2, rsqrt.approx); sqrt is IEEE (llvm.sqrt); floor, ceil, absf, absi, fma
// are LLVM intrinsics; sin, cos, erf and every f64 transcendental call libdevice; f16/bf16
// compute in f32. arith.floordivsi (which upstream arith -> LLVM leaves out) is the truncating
// quotient adjusted by one.
// RUN: tk-opt %s -split-input-file -tk-to-llvm | FileCheck %s

module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @fast_f32
  // CHECK: %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
  // CHECK: %[[S:.*]] = llvm.fmul %[[X:.*]], %[[LOG2E]] : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[S]]) : (f32) -> f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[X]]) : (f32) -> f32
  // CHECK: %[[L:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[X]]) : (f32) -> f32
  // CHECK: %[[LN2:.*]] = llvm.mlir.constant(0.693147182 : f32) : f32
  // CHECK: llvm.fmul %[[L]], %[[LN2]] : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[X]]) : (f32) -> f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"(%[[X]]) : (f32) -> f32
  // CHECK: llvm.intr.sqrt(%[[X]]) : (f32) -> f32
  // CHECK-NOT: math.
  func.func @fast_f32(%p: !tk.ptr<f32>, %x: f32) {
    %0 = math.exp %x : f32
    %1 = math.exp2 %x : f32
    %2 = math.log %x : f32
    %3 = math.log2 %x : f32
    %4 = math.rsqrt %x : f32
    %5 = math.sqrt %x : f32
    "tk.store"(%p, %0) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%p, %1) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%p, %2) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%p, %3) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%p, %4) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%p, %5) : (!tk.ptr<f32>, f32) -> ()
    func.return
  }
}

// -----

// CHECK-DAG: llvm.func @__nv_sinf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_cosf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_erff(f32) -> f32
// CHECK-LABEL: llvm.func @intrinsics_and_libdevice
// CHECK: llvm.intr.floor(%[[X:.*]]) : (f32) -> f32
// CHECK: llvm.intr.ceil(%[[X]]) : (f32) -> f32
// CHECK: llvm.intr.fabs(%[[X]]) : (f32) -> f32
// CHECK: "llvm.intr.abs"(%[[I:.*]]) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK: llvm.intr.fma(%[[X]], %[[X]], %[[X]]) : (f32, f32, f32) -> f32
// CHECK: llvm.call @__nv_sinf(%[[X]]) : (f32) -> f32
// CHECK: llvm.call @__nv_cosf(%[[X]]) : (f32) -> f32
// CHECK: llvm.call @__nv_erff(%[[X]]) : (f32) -> f32
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @intrinsics_and_libdevice(%p: !tk.ptr<f32>, %q: !tk.ptr<i32>, %x: f32, %i: i32) {
    %0 = math.floor %x : f32
    %1 = math.ceil %x : f32
    %2 = math.absf %x : f32
    %3 = math.absi %i : i32
    %4 = math.fma %x, %x, %x : f32
    %5 = math.sin %x : f32
    %6 = math.cos %x : f32
    %7 = math.erf %x : f32
    "tk.store"(%p, %0) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%p, %1) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%p, %2) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%q, %3) : (!tk.ptr<i32>, i32) -> ()
    "tk.store"(%p, %4) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%p, %5) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%p, %6) : (!tk.ptr<f32>, f32) -> ()
    "tk.store"(%p, %7) : (!tk.ptr<f32>, f32) -> ()
    func.return
  }
}

// -----

// f64: libdevice for the transcendentals (no SFU paths), llvm.sqrt (sqrt.rn.f64) for sqrt.
// CHECK-DAG: llvm.func @__nv_exp(f64) -> f64
// CHECK-DAG: llvm.func @__nv_log(f64) -> f64
// CHECK-DAG: llvm.func @__nv_rsqrt(f64) -> f64
// CHECK-DAG: llvm.func @__nv_sin(f64) -> f64
// CHECK-LABEL: llvm.func @f64
// CHECK: llvm.call @__nv_exp(%[[X:.*]]) : (f64) -> f64
// CHECK: llvm.call @__nv_log(%[[X]]) : (f64) -> f64
// CHECK: llvm.call @__nv_rsqrt(%[[X]]) : (f64) -> f64
// CHECK: llvm.call @__nv_sin(%[[X]]) : (f64) -> f64
// CHECK: llvm.intr.sqrt(%[[X]]) : (f64) -> f64
// CHECK-NOT: nvvm.ex2
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @f64(%p: !tk.ptr<f64>, %x: f64) {
    %0 = math.exp %x : f64
    %1 = math.log %x : f64
    %2 = math.rsqrt %x : f64
    %3 = math.sin %x : f64
    %4 = math.sqrt %x : f64
    "tk.store"(%p, %0) : (!tk.ptr<f64>, f64) -> ()
    "tk.store"(%p, %1) : (!tk.ptr<f64>, f64) -> ()
    "tk.store"(%p, %2) : (!tk.ptr<f64>, f64) -> ()
    "tk.store"(%p, %3) : (!tk.ptr<f64>, f64) -> ()
    "tk.store"(%p, %4) : (!tk.ptr<f64>, f64) -> ()
    func.return
  }
}

// -----

// Tensors: the op once per element the thread holds (2 here); f16 through f32 and back; bf16
// through f32 into libdevice's f32 function; f16 fma and floor at f16.
#b = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: llvm.func @__nv_sinf(f32) -> f32
// CHECK-LABEL: llvm.func @tensors
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: %[[H:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK: %[[HS:.*]] = llvm.fmul %[[H]], %{{.*}} : f32
// CHECK: %[[HE:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[HS]]) : (f32) -> f32
// CHECK: llvm.fptrunc %[[HE]] : f32 to f16
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.fptrunc %{{.*}} : f32 to f16
// CHECK: %[[B:.*]] = llvm.fpext %{{.*}} : bf16 to f32
// CHECK: %[[BS:.*]] = llvm.call @__nv_sinf(%[[B]]) : (f32) -> f32
// CHECK: llvm.fptrunc %[[BS]] : f32 to bf16
// CHECK: llvm.fpext %{{.*}} : bf16 to f32
// CHECK: llvm.call @__nv_sinf
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK-COUNT-2: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f16, f16, f16) -> f16
// CHECK-COUNT-2: llvm.intr.floor(%{{.*}}) : (f16) -> f16
// CHECK-COUNT-2: "llvm.intr.abs"(%{{.*}}) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK-NOT: math.
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @tensors(%p: !tk.ptr<f32>, %ph: !tk.ptr<f16>, %pb: !tk.ptr<bf16>, %pi: !tk.ptr<i32>) {
    %i = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %x = arith.sitofp %i : tensor<256xi32, #b> to tensor<256xf32, #b>
    %h = arith.sitofp %i : tensor<256xi32, #b> to tensor<256xf16, #b>
    %bf = arith.sitofp %i : tensor<256xi32, #b> to tensor<256xbf16, #b>
    %0 = math.exp2 %x : tensor<256xf32, #b>
    %1 = math.log2 %0 : tensor<256xf32, #b>
    %2 = math.exp %h : tensor<256xf16, #b>
    %3 = math.sin %bf : tensor<256xbf16, #b>
    %4 = math.fma %2, %2, %2 : tensor<256xf16, #b>
    %5 = math.floor %4 : tensor<256xf16, #b>
    %6 = math.absi %i : tensor<256xi32, #b>
    %pp = "tk.splat"(%p) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
    %pa = "tk.addptr"(%pp, %i) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
    "tk.store"(%pa, %1) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xf32, #b>) -> ()
    %hp = "tk.splat"(%ph) : (!tk.ptr<f16>) -> tensor<256x!tk.ptr<f16>, #b>
    %ha = "tk.addptr"(%hp, %i) : (tensor<256x!tk.ptr<f16>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f16>, #b>
    "tk.store"(%ha, %5) : (tensor<256x!tk.ptr<f16>, #b>, tensor<256xf16, #b>) -> ()
    %bp = "tk.splat"(%pb) : (!tk.ptr<bf16>) -> tensor<256x!tk.ptr<bf16>, #b>
    %ba = "tk.addptr"(%bp, %i) : (tensor<256x!tk.ptr<bf16>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<bf16>, #b>
    "tk.store"(%ba, %3) : (tensor<256x!tk.ptr<bf16>, #b>, tensor<256xbf16, #b>) -> ()
    %ip = "tk.splat"(%pi) : (!tk.ptr<i32>) -> tensor<256x!tk.ptr<i32>, #b>
    %ia = "tk.addptr"(%ip, %i) : (tensor<256x!tk.ptr<i32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<i32>, #b>
    "tk.store"(%ia, %6) : (tensor<256x!tk.ptr<i32>, #b>, tensor<256xi32, #b>) -> ()
    func.return
  }
}

// -----

// arith.floordivsi: sdiv, srem, and one less where the remainder is not 0 and its sign is not
// the divisor's.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: llvm.func @floordiv
// CHECK: %[[Q:.*]] = llvm.sdiv %[[A:.*]], %[[D:.*]] : i32
// CHECK: %[[R:.*]] = llvm.srem %[[A]], %[[D]] : i32
// CHECK: %[[NZ:.*]] = llvm.icmp "ne" %[[R]], %{{.*}} : i32
// CHECK: %[[X:.*]] = llvm.xor %[[R]], %[[D]] : i32
// CHECK: %[[NEG:.*]] = llvm.icmp "slt" %[[X]], %{{.*}} : i32
// CHECK: %[[ADJ:.*]] = llvm.and %[[NZ]], %[[NEG]] : i1
// CHECK: %[[DOWN:.*]] = llvm.sub %[[Q]], %{{.*}} : i32
// CHECK: llvm.select %[[ADJ]], %[[DOWN]], %[[Q]] : i1, i32
// CHECK-NOT: arith.
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @floordiv(%p: !tk.ptr<i32>, %n: i32) {
    %i = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #b>
    %d = arith.constant dense<-3> : tensor<128xi32, #b>
    %q = arith.floordivsi %i, %d : tensor<128xi32, #b>
    %pp = "tk.splat"(%p) : (!tk.ptr<i32>) -> tensor<128x!tk.ptr<i32>, #b>
    %pa = "tk.addptr"(%pp, %i) : (tensor<128x!tk.ptr<i32>, #b>, tensor<128xi32, #b>) -> tensor<128x!tk.ptr<i32>, #b>
    "tk.store"(%pa, %q) : (tensor<128x!tk.ptr<i32>, #b>, tensor<128xi32, #b>) -> ()
    %s = arith.floordivsi %n, %n : i32
    "tk.store"(%p, %s) : (!tk.ptr<i32>, i32) -> ()
    func.return
  }
}

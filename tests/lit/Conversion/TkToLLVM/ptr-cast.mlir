// PtrCastOpToLLVM.cpp: tk.bitcast between pointers is the value itself (every !tk.ptr is
// !llvm.ptr<1>); tk.ptr_to_int and tk.int_to_ptr are llvm.ptrtoint / llvm.inttoptr, per element
// on tensors. arith.bitcast between numbers of one width is llvm.bitcast per element
// (ElementwiseOpToLLVM.cpp and the upstream arith patterns).
// RUN: tk-opt %s -split-input-file -tk-to-llvm | FileCheck %s

module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @scalars(
  // CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr<1>
  // CHECK: %[[I:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
  // CHECK: %[[Q:.*]] = llvm.inttoptr %[[I]] : i64 to !llvm.ptr<1>
  // CHECK: llvm.store %{{.*}}, %[[Q]]
  // CHECK-NOT: tk.
  func.func @scalars(%p: !tk.ptr<f32>, %x: i32) {
    %0 = "tk.bitcast"(%p) : (!tk.ptr<f32>) -> !tk.ptr<i32>
    %1 = "tk.ptr_to_int"(%0) : (!tk.ptr<i32>) -> i64
    %2 = "tk.int_to_ptr"(%1) : (i64) -> !tk.ptr<i32>
    "tk.store"(%2, %x) : (!tk.ptr<i32>, i32) -> ()
    func.return
  }
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @tensors
  // CHECK-COUNT-2: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
  // CHECK-COUNT-2: llvm.add %{{.*}} : i64
  // CHECK-COUNT-2: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
  // CHECK-COUNT-2: llvm.bitcast %{{.*}} : f32 to i32
  // CHECK-COUNT-2: llvm.bitcast %{{.*}} : f16 to bf16
  // CHECK-COUNT-2: llvm.bitcast %{{.*}} : bf16 to i16
  // CHECK-COUNT-2: llvm.store %{{.*}} : i32, !llvm.ptr<1>
  // CHECK-NOT: tk.
  // CHECK-NOT: arith.
  func.func @tensors(%p: !tk.ptr<f32>, %q: !tk.ptr<i16>) {
    %i = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %pp = "tk.splat"(%p) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
    %pa = "tk.addptr"(%pp, %i) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
    %pi = "tk.bitcast"(%pa) : (tensor<256x!tk.ptr<f32>, #b>) -> tensor<256x!tk.ptr<i32>, #b>
    %a = "tk.ptr_to_int"(%pi) : (tensor<256x!tk.ptr<i32>, #b>) -> tensor<256xi64, #b>
    %four = arith.constant dense<4> : tensor<256xi64, #b>
    %a4 = arith.addi %a, %four : tensor<256xi64, #b>
    %pn = "tk.int_to_ptr"(%a4) : (tensor<256xi64, #b>) -> tensor<256x!tk.ptr<i32>, #b>
    %x = arith.sitofp %i : tensor<256xi32, #b> to tensor<256xf32, #b>
    %bits = arith.bitcast %x : tensor<256xf32, #b> to tensor<256xi32, #b>
    %h = arith.sitofp %i : tensor<256xi32, #b> to tensor<256xf16, #b>
    %bf = arith.bitcast %h : tensor<256xf16, #b> to tensor<256xbf16, #b>
    %hb = arith.bitcast %bf : tensor<256xbf16, #b> to tensor<256xi16, #b>
    "tk.store"(%pn, %bits) : (tensor<256x!tk.ptr<i32>, #b>, tensor<256xi32, #b>) -> ()
    %qp = "tk.splat"(%q) : (!tk.ptr<i16>) -> tensor<256x!tk.ptr<i16>, #b>
    %qa = "tk.addptr"(%qp, %i) : (tensor<256x!tk.ptr<i16>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<i16>, #b>
    "tk.store"(%qa, %hb) : (tensor<256x!tk.ptr<i16>, #b>, tensor<256xi16, #b>) -> ()
    func.return
  }
}

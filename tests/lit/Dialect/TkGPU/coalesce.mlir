// tk-coalesce: a load/store whose addresses are 16-byte aligned and contiguous (AxisInfo) gets a
// layout with 4 f32 per thread; its address and mask computations are rebuilt in that layout,
// a load's result converted back (which tk-remove-layout-conversions then moves forward).
// RUN: tk-opt %s -split-input-file -tk-coalesce | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-coalesce -tk-remove-layout-conversions | FileCheck %s --check-prefix=CLEAN

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B:.*]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V:.*]] = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @aligned
// CHECK: tk.make_range {{.*}} : tensor<1024xi32, #[[V]]>
// CHECK: tk.load {{.*}} -> tensor<1024xf32, #[[V]]>
// CHECK: tkgpu.convert_layout {{.*}} : tensor<1024xf32, #[[V]]> -> tensor<1024xf32, #[[B]]>
// CHECK: tk.store {{.*}} : (tensor<1024x!tk.ptr<f32>, #[[V]]>, tensor<1024xf32, #[[V]]>, tensor<1024xi1, #[[V]]>) -> ()
// CLEAN-LABEL: func.func @aligned
// CLEAN-NOT: tkgpu.convert_layout
// CLEAN: return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @aligned(%out: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %in: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32, #b>
    %1 = "tk.splat"(%n) : (i32) -> tensor<1024xi32, #b>
    %2 = arith.cmpi slt, %0, %1 : tensor<1024xi32, #b>
    %3 = "tk.splat"(%in) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>, #b>
    %4 = "tk.addptr"(%3, %0) : (tensor<1024x!tk.ptr<f32>, #b>, tensor<1024xi32, #b>) -> tensor<1024x!tk.ptr<f32>, #b>
    %5 = "tk.load"(%4, %2) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<1024x!tk.ptr<f32>, #b>, tensor<1024xi1, #b>) -> tensor<1024xf32, #b>
    %6 = arith.addf %5, %5 : tensor<1024xf32, #b>
    %7 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>, #b>
    %8 = "tk.addptr"(%7, %0) : (tensor<1024x!tk.ptr<f32>, #b>, tensor<1024xi32, #b>) -> tensor<1024x!tk.ptr<f32>, #b>
    "tk.store"(%8, %6, %2) : (tensor<1024x!tk.ptr<f32>, #b>, tensor<1024xf32, #b>, tensor<1024xi1, #b>) -> ()
    func.return
  }
}

// -----

// Unaligned pointer (no tk.divisibility): nothing to vectorize, nothing changes.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @unaligned
// CHECK-NOT: sizePerThread = [4]
// CHECK-NOT: tkgpu.convert_layout
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @unaligned(%in: !tk.ptr<f32>) {
    %0 = "tk.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32, #b>
    %3 = "tk.splat"(%in) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>, #b>
    %4 = "tk.addptr"(%3, %0) : (tensor<1024x!tk.ptr<f32>, #b>, tensor<1024xi32, #b>) -> tensor<1024x!tk.ptr<f32>, #b>
    %5 = "tk.load"(%4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tk.ptr<f32>, #b>) -> tensor<1024xf32, #b>
    "tk.store"(%4, %5) : (tensor<1024x!tk.ptr<f32>, #b>, tensor<1024xf32, #b>) -> ()
    func.return
  }
}

// -----

// An aligned load stored through an unaligned pointer: the accesses would want different
// layouts, and the conversion between them is not lowered yet, so neither changes.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @disagree
// CHECK-NOT: sizePerThread = [4]
// CHECK-NOT: tkgpu.convert_layout
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @disagree(%out: !tk.ptr<f32>, %in: !tk.ptr<f32> {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32, #b>
    %1 = "tk.splat"(%in) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>, #b>
    %2 = "tk.addptr"(%1, %0) : (tensor<1024x!tk.ptr<f32>, #b>, tensor<1024xi32, #b>) -> tensor<1024x!tk.ptr<f32>, #b>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tk.ptr<f32>, #b>) -> tensor<1024xf32, #b>
    %4 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>, #b>
    %5 = "tk.addptr"(%4, %0) : (tensor<1024x!tk.ptr<f32>, #b>, tensor<1024xi32, #b>) -> tensor<1024x!tk.ptr<f32>, #b>
    "tk.store"(%5, %3) : (tensor<1024x!tk.ptr<f32>, #b>, tensor<1024xf32, #b>) -> ()
    func.return
  }
}

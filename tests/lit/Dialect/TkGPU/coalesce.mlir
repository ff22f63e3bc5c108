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

// An aligned load stored through an unaligned pointer: each access gets its own layout (the
// load 4 floats per thread, the store 1), with a conversion between them.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B:.*]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V:.*]] = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @disagree
// CHECK: tk.load {{.*}} -> tensor<1024xf32, #[[V]]>
// CHECK: tkgpu.convert_layout {{.*}} : tensor<1024xf32, #[[V]]> -> tensor<1024xf32, #[[B]]>
// CHECK: tk.store {{.*}} : (tensor<1024x!tk.ptr<f32>, #[[B]]>, tensor<1024xf32, #[[B]]>) -> ()
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

// -----

// A column-major tile (dimension 0 contiguous: offsets r + c * 64, aligned): threads are spread
// along dimension 0 first, 4 floats each.
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#r = #tkgpu.slice<{dim = 1, parent = #b}>
#c = #tkgpu.slice<{dim = 0, parent = #b}>
// CHECK-DAG: #[[T:.*]] = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @column_major
// CHECK: tk.load {{.*}} -> tensor<64x64xf32, #[[T]]>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @column_major(%in: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %out: !tk.ptr<f32> {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32, #r>
    %1 = "tk.expand_dims"(%0) <{axis = 1 : i32}> : (tensor<64xi32, #r>) -> tensor<64x1xi32, #b>
    %2 = "tk.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32, #c>
    %3 = "tk.expand_dims"(%2) <{axis = 0 : i32}> : (tensor<64xi32, #c>) -> tensor<1x64xi32, #b>
    %4 = arith.constant dense<64> : tensor<1x64xi32, #b>
    %5 = arith.muli %3, %4 : tensor<1x64xi32, #b>
    %6 = "tk.broadcast"(%1) : (tensor<64x1xi32, #b>) -> tensor<64x64xi32, #b>
    %7 = "tk.broadcast"(%5) : (tensor<1x64xi32, #b>) -> tensor<64x64xi32, #b>
    %8 = arith.addi %6, %7 : tensor<64x64xi32, #b>
    %9 = "tk.splat"(%in) : (!tk.ptr<f32>) -> tensor<64x64x!tk.ptr<f32>, #b>
    %10 = "tk.addptr"(%9, %8) : (tensor<64x64x!tk.ptr<f32>, #b>, tensor<64x64xi32, #b>) -> tensor<64x64x!tk.ptr<f32>, #b>
    %11 = "tk.load"(%10) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x64x!tk.ptr<f32>, #b>) -> tensor<64x64xf32, #b>
    %12 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<64x64x!tk.ptr<f32>, #b>
    %13 = "tk.addptr"(%12, %8) : (tensor<64x64x!tk.ptr<f32>, #b>, tensor<64x64xi32, #b>) -> tensor<64x64x!tk.ptr<f32>, #b>
    "tk.store"(%13, %11) : (tensor<64x64x!tk.ptr<f32>, #b>, tensor<64x64xf32, #b>) -> ()
    func.return
  }
}

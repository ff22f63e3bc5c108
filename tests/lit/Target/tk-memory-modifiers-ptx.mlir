// Cache operators and eviction priorities on tk.load / tk.store become the PTX qualifiers, on
// vector accesses too; a volatile load is ld.volatile. Through the whole pipeline of tk_compile.
// REQUIRES: tk-compile
// RUN: tk-compile --target=sm_90a %s | FileCheck %s
// RUN: tk-compile --target=sm_80 %s | FileCheck %s
// RUN: tk-compile --target=sm_75 %s | FileCheck %s

// CHECK: .visible .entry modifiers(
// CHECK-DAG: ld.global.cg.v4.b32
// CHECK-DAG: ld.global.L1::evict_first.v4.b32
// CHECK-DAG: ld.volatile.global.v4
// CHECK-DAG: ld.global.cv.v4.b32
// CHECK-DAG: st.global.cs.v4.b32
// CHECK-DAG: st.global.L1::evict_last.v4.b32
// CHECK-DAG: st.global.wt.v4.b32
// CHECK: ret;
module {
  func.func @modifiers(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f32> {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32>
    %1 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>>
    %2 = "tk.addptr"(%1, %0) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>>
    %3 = "tk.load"(%2) <{cache = "cg", operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tk.ptr<f32>>) -> tensor<1024xf32>
    %4 = "tk.load"(%2) <{evict = "evict_first", operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tk.ptr<f32>>) -> tensor<1024xf32>
    %5 = "tk.load"(%2) <{is_volatile, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tk.ptr<f32>>) -> tensor<1024xf32>
    %6 = "tk.load"(%2) <{cache = "cv", operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tk.ptr<f32>>) -> tensor<1024xf32>
    %7 = arith.addf %3, %4 : tensor<1024xf32>
    %8 = arith.addf %7, %5 : tensor<1024xf32>
    %9 = arith.addf %8, %6 : tensor<1024xf32>
    %10 = "tk.splat"(%arg1) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>>
    %11 = "tk.addptr"(%10, %0) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>>
    "tk.store"(%11, %9) <{cache = "cs"}> : (tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>) -> ()
    "tk.store"(%11, %8) <{evict = "evict_last"}> : (tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>) -> ()
    "tk.store"(%11, %7) <{cache = "wt"}> : (tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>) -> ()
    func.return
  }
}

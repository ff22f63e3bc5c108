// Math through the whole pipeline of tk_compile to PTX: f32 exp is ex2.approx.ftz.f32 of
// x * log2 e (0f3FB8AA3B), log is lg2.approx.f32 times ln 2 (0f3F317218); sin calls libdevice,
// which PTXCodeGen.cpp links and O3 inlines, so no __nv_ function is left to call; f16 exp goes
// through f32.
// REQUIRES: tk-compile
// RUN: tk-compile --target=sm_80 %s | FileCheck %s
// RUN: tk-compile --target=sm_75 %s | FileCheck %s
// RUN: tk-compile --target=sm_90a %s | FileCheck %s

// CHECK:      .visible .entry math_ptx(
// CHECK-NOT:  __nv_
// CHECK-DAG:  mul.{{(rn.)?}}f32 {{.*}}0f3FB8AA3B
// CHECK-DAG:  ex2.approx.ftz.f32
// CHECK-DAG:  lg2.approx.f32
// CHECK-DAG:  mul.{{(rn.)?}}f32 {{.*}}0f3F317218
// CHECK-DAG:  cvt.f32.f16
// CHECK-DAG:  cvt.rn.f16.f32
// CHECK-NOT:  __nv_
// CHECK:      ret;
module {
  func.func @math_ptx(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f16> {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
    %1 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
    %2 = "tk.addptr"(%1, %0) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
    %4 = math.exp %3 : tensor<128xf32>
    %5 = math.log %4 : tensor<128xf32>
    %6 = math.sin %5 : tensor<128xf32>
    "tk.store"(%2, %6) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>) -> ()
    %7 = "tk.splat"(%arg1) : (!tk.ptr<f16>) -> tensor<128x!tk.ptr<f16>>
    %8 = "tk.addptr"(%7, %0) : (tensor<128x!tk.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f16>>
    %9 = "tk.load"(%8) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f16>>) -> tensor<128xf16>
    %10 = math.exp %9 : tensor<128xf16>
    "tk.store"(%8, %10) : (tensor<128x!tk.ptr<f16>>, tensor<128xf16>) -> ()
    func.return
  }
}

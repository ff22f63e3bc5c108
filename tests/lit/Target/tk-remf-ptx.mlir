// Float % through the whole pipeline of tk_compile to PTX: arith.remf calls libdevice's exact
// fmod, which PTXCodeGen.cpp links and O3 inlines (no call is left). LLVM's frem would be
// NVPTX's x - y * trunc(x / y): div.rn, cvt.rzi, and testp.infinite for y = inf; libdevice's
// fmodf divides approximately (div.approx) and, for quotients of 2^24 and more, reduces x step by
// step (rcp.approx.ftz); its fmod (f64) works on the bits.
// REQUIRES: tk-compile
// RUN: tk-compile --target=sm_90a %s | FileCheck %s
// RUN: tk-compile --target=sm_80 %s | FileCheck %s
// RUN: tk-compile --target=sm_90a --no-fp-fusion %s | FileCheck %s

// CHECK:     .visible .entry remf_ptx(
// CHECK-NOT: div.rn.f
// CHECK-NOT: testp.infinite
// CHECK-NOT: call
// CHECK-DAG: div.approx.f32
// CHECK-DAG: rcp.approx.ftz.f32
// CHECK-DAG: ld.global.b64
// CHECK-DAG: cvt.f32.f16
// CHECK-DAG: cvt.rn.f16.f32
// CHECK-NOT: div.rn.f
// CHECK-NOT: testp.infinite
// CHECK-NOT: call
// CHECK:     ret;
module {
  func.func @remf_ptx(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg2: !tk.ptr<f64> {tk.divisibility = 16 : i32}, %arg3: !tk.ptr<f64> {tk.divisibility = 16 : i32}, %arg4: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %arg5: !tk.ptr<f16> {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
    %1 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
    %2 = "tk.addptr"(%1, %0) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
    %4 = "tk.splat"(%arg1) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
    %5 = "tk.addptr"(%4, %0) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
    %6 = "tk.load"(%5) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
    %7 = arith.remf %3, %6 : tensor<128xf32>
    "tk.store"(%2, %7) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>) -> ()
    %11 = "tk.splat"(%arg2) : (!tk.ptr<f64>) -> tensor<128x!tk.ptr<f64>>
    %12 = "tk.addptr"(%11, %0) : (tensor<128x!tk.ptr<f64>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f64>>
    %13 = "tk.load"(%12) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f64>>) -> tensor<128xf64>
    %14 = "tk.splat"(%arg3) : (!tk.ptr<f64>) -> tensor<128x!tk.ptr<f64>>
    %15 = "tk.addptr"(%14, %0) : (tensor<128x!tk.ptr<f64>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f64>>
    %16 = "tk.load"(%15) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f64>>) -> tensor<128xf64>
    %17 = arith.remf %13, %16 : tensor<128xf64>
    "tk.store"(%12, %17) : (tensor<128x!tk.ptr<f64>>, tensor<128xf64>) -> ()
    %21 = "tk.splat"(%arg4) : (!tk.ptr<f16>) -> tensor<128x!tk.ptr<f16>>
    %22 = "tk.addptr"(%21, %0) : (tensor<128x!tk.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f16>>
    %23 = "tk.load"(%22) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f16>>) -> tensor<128xf16>
    %24 = "tk.splat"(%arg5) : (!tk.ptr<f16>) -> tensor<128x!tk.ptr<f16>>
    %25 = "tk.addptr"(%24, %0) : (tensor<128x!tk.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f16>>
    %26 = "tk.load"(%25) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f16>>) -> tensor<128xf16>
    %27 = arith.remf %23, %26 : tensor<128xf16>
    "tk.store"(%22, %27) : (tensor<128x!tk.ptr<f16>>, tensor<128xf16>) -> ()
    return
  }
}

// The approximate f32 sqrt and division (the `afn` flag: Triton's tl.sqrt and tl.fdiv without
// ieee_rounding) are sqrt.approx.f32 and div.full.f32; without the flag sqrt stays sqrt.rn;
// maximumf / minimumf (propagate_nan) are max.NaN / min.NaN on sm_80 and newer.
// REQUIRES: tk-compile
// RUN: tk-compile --target=sm_90a %s | FileCheck %s --check-prefixes=CHECK,NAN
// RUN: tk-compile --target=sm_75 %s | FileCheck %s

// CHECK: .visible .entry mathx(
// CHECK-DAG: sqrt.approx.f32
// CHECK-DAG: div.full.f32
// NAN-DAG: max.NaN.f32
// NAN-DAG: min.NaN.f32
// CHECK-DAG: cvt.rni.f32.f32
// CHECK-DAG: sqrt.rn.f32
// CHECK-NOT: __nv_
// CHECK: ret;
module {
  func.func @mathx(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
    %1 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
    %2 = "tk.addptr"(%1, %0) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
    %4 = math.sqrt %3 fastmath<afn> : tensor<128xf32>
    %5 = arith.divf %4, %3 fastmath<afn> : tensor<128xf32>
    %6 = arith.maximumf %5, %3 : tensor<128xf32>
    %7 = arith.minimumf %6, %4 : tensor<128xf32>
    %8 = math.tanh %7 : tensor<128xf32>
    %9 = math.roundeven %8 : tensor<128xf32>
    %10 = math.sqrt %9 : tensor<128xf32>
    "tk.store"(%2, %10) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>) -> ()
    func.return
  }
}

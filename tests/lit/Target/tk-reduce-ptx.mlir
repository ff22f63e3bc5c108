// Reductions and scans through the whole pipeline of tk_compile to PTX: a max over 1024 floats
// (in-thread, 5 butterfly shuffles, the 4 warps' maxima through shared memory), an argmax
// ((value, index) pairs: both shuffled), and an inclusive cumsum (shfl.sync.up, the warp totals
// through shared memory). The kernel declares the dynamic shared array the exchanges use.
// REQUIRES: tk-compile
// RUN: tk-compile --target=sm_90a %s | FileCheck %s
// RUN: tk-compile --target=sm_80 --num-warps=8 %s | FileCheck %s

// CHECK:      .extern .shared .align 16 .b8 tk_shared[];
// CHECK:      .visible .entry reduce_ptx(
// CHECK:      shfl.sync.bfly.b32
// CHECK:      bar.sync 0;
// CHECK:      st.shared
// CHECK:      bar.sync 0;
// CHECK:      ld.shared
// CHECK:      max.f32
// CHECK:      shfl.sync.up.b32
// CHECK:      ret;
module {
  func.func @reduce_ptx(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg2: !tk.ptr<i32> {tk.divisibility = 16 : i32}, %arg3: i32) {
    %0 = "tk.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32>
    %1 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>>
    %2 = "tk.addptr"(%1, %0) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>>
    %3 = "tk.splat"(%arg3) : (i32) -> tensor<1024xi32>
    %4 = arith.cmpi slt, %0, %3 : tensor<1024xi32>
    %5 = arith.constant dense<0xFF800000> : tensor<1024xf32>
    %6 = "tk.load"(%2, %4, %5) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
    %7 = "tk.reduce"(%6) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %m = arith.maxnumf %a, %b : f32
        "tk.reduce.return"(%m) : (f32) -> ()
    }) : (tensor<1024xf32>) -> f32
    "tk.store"(%arg1, %7) : (!tk.ptr<f32>, f32) -> ()
    %8:2 = "tk.reduce"(%6, %0) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
        %gt = arith.cmpf ogt, %a, %b : f32
        %eq = arith.cmpf oeq, %a, %b : f32
        %lt = arith.cmpi slt, %ai, %bi : i32
        %tie = arith.andi %eq, %lt : i1
        %take = arith.ori %gt, %tie : i1
        %v = arith.select %take, %a, %b : f32
        %i = arith.select %take, %ai, %bi : i32
        "tk.reduce.return"(%v, %i) : (f32, i32) -> ()
    }) : (tensor<1024xf32>, tensor<1024xi32>) -> (f32, i32)
    "tk.store"(%arg2, %8#1) : (!tk.ptr<i32>, i32) -> ()
    %9 = "tk.scan"(%6) <{axis = 0 : i32, reverse = false}> ({
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        "tk.scan.return"(%s) : (f32) -> ()
    }) : (tensor<1024xf32>) -> tensor<1024xf32>
    "tk.store"(%2, %9, %4) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
    func.return
  }
}

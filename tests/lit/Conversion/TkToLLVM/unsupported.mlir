// TkToLLVMPass.cpp: ops outside this slice, and tensors without a layout, stop the pass with an
// error at the op.
// RUN: tk-opt %s -split-input-file -tk-to-llvm -verify-diagnostics

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @reduce(%x: !tk.ptr<f32>) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #b>
    // expected-error @+1 {{tk.reduce is not lowered yet}}
    %1 = "tk.reduce"(%0) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      "tk.reduce.return"(%s) : (i32) -> ()
    }) : (tensor<128xi32, #b>) -> i32
    func.return
  }
}

// -----

func.func @no_layout() {
  // expected-error @+1 {{has no layout (run tk-assign-layouts before tk-to-llvm)}}
  %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  func.return
}

// TkToLLVMPass.cpp: ops it does not lower (tensor constants other than splats, which the front
// end never prints), and tensors without a layout, stop the pass with an
// error at the op.
// RUN: tk-opt %s -split-input-file -tk-to-llvm -verify-diagnostics

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @dense_constant() {
    // expected-error @+1 {{arith.constant is not lowered yet}}
    %0 = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #b>
    func.return
  }
}

// -----

func.func @no_layout() {
  // expected-error @+1 {{has no layout (run tk-assign-layouts before tk-to-llvm)}}
  %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  func.return
}

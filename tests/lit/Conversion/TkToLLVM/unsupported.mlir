// TkToLLVMPass.cpp: ops it does not lower (tensor constants other than splats, which the front
// end never prints), tensors without a layout, tensors larger than a block may be and ops using
// shared memory without an offset in it stop the pass with an error at the op.
// RUN: tk-opt %s -split-input-file -allow-unregistered-dialect -tk-to-llvm -verify-diagnostics

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @dense_constant() {
    // expected-error @+1 {{arith.constant is not lowered by tk-to-llvm}}
    %0 = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #b>
    func.return
  }
}

// -----

// An op of no registered dialect (tk-opt -allow-unregistered-dialect) is one it does not lower.
func.func @unregistered() {
  // expected-error @+1 {{test.op is not lowered by tk-to-llvm}}
  "test.op"() : () -> ()
  func.return
}

// -----

func.func @no_layout() {
  // expected-error @+1 {{has no layout (run tk-assign-layouts before tk-to-llvm)}}
  %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  func.return
}

// -----

// A tensor larger than a block may be (2^20 elements), made by an op the tk verifiers do not
// see: each thread would hold 2^23 of its elements in registers.
#big = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @huge_splat_constant() {
    // expected-error @+1 {{'arith.constant' op result 0 is 'tensor<1073741824xf32, #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>', 1073741824 elements; a block holds at most 1048576 (2^20) elements}}
    %0 = arith.constant dense<1.0> : tensor<1073741824xf32, #big>
    func.return
  }
}

// -----

// A reduce across 4 warps uses shared memory: tk-allocate-shared-memory did not place it.
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @no_shared_offset(%x: tensor<128xf32, #b>) {
    // expected-error @+1 {{tk.reduce has no shared-memory offset (run tk-allocate-shared-memory before tk-to-llvm)}}
    %0 = "tk.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
    }) : (tensor<128xf32, #b>) -> f32
    func.return
  }
}

// -----

// A tk op without a lowering for its layouts (a scan in a slice layout, which
// tk-assign-layouts never makes) stops the pass at the op, not at translation to LLVM IR.
#p = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tkgpu.slice<{dim = 0, parent = #p}>
// expected-error @+1 {{tk-to-llvm: could not lower the kernel to the LLVM dialect}}
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @scan_in_slice(%x: tensor<64xi32, #s>) {
    // expected-error @+1 {{failed to legalize operation 'tk.scan'}}
    %0 = "tk.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      "tk.scan.return"(%t) : (i32) -> ()
    }) : (tensor<64xi32, #s>) -> tensor<64xi32, #s>
    func.return
  }
}

// -----

// A kernel argument NVPTX cannot pass (LLVM would abort): an error at the function.
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // expected-error @+1 {{a kernel argument of type 'i0' cannot be passed; integers are i1, i8, i16, i32 or i64}}
  func.func @zero_width(%arg0: i0) {
    func.return
  }
}

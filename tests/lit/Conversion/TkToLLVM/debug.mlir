// DebugOpToLLVM.cpp: tk.print is one vprintf per element, through the slot holding its first
// copy, in Triton's format; tk.assert reports the first failing element of the thread through
// __assertfail, after the launch's first failing thread has written the host record;
// tk.debug_barrier is bar.sync 0; the hints are their operands and tk.assume is llvm.assume.
// RUN: tk-opt %s -split-input-file -tk-to-llvm -convert-scf-to-cf -convert-cf-to-llvm \
// RUN:   -convert-arith-to-llvm | FileCheck %s

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-DAG: llvm.mlir.global internal constant @tk_str_{{[0-9]+}}("pid (%u, %u, %u) idx (%3u) x: (operand 0) %f\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @tk_str_{{[0-9]+}}("pid (%u, %u, %u) idx (%3u) x: (operand 1) %i\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @tk_str_{{[0-9]+}}("pid (%u, %u, %u) 100%% done\0A\00")
  // CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
  // CHECK-LABEL: llvm.func @print
  // CHECK-COUNT-3: llvm.call @vprintf
  func.func @print(%x: tensor<128xf32, #b>, %i: tensor<128xi32, #b>) {
    "tk.print"(%x, %i) <{hex = false, is_signed = array<i32: 1, 1>, prefix = " x: "}> : (tensor<128xf32, #b>, tensor<128xi32, #b>) -> ()
    "tk.print"() <{hex = false, is_signed = array<i32>, prefix = " 100% done"}> : () -> ()
    func.return
  }
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-DAG: llvm.mlir.global external @tk_assert_record(0 : i64) {addr_space = 1 : i32, alignment = 8 : i64} : i64
  // CHECK-DAG: llvm.mlir.global internal @tk_assert_claimed(0 : i32) {addr_space = 1 : i32, alignment = 4 : i64} : i32
  // CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
  // CHECK-LABEL: llvm.func @assert
  // CHECK: llvm.load volatile
  // CHECK: llvm.atomicrmw xchg
  // CHECK: llvm.store volatile
  // CHECK: fence.sc.sys;
  // CHECK: llvm.store volatile
  // CHECK: fence.sc.sys;
  // CHECK: llvm.call @__assertfail
  // CHECK: nvvm.barrier0
  func.func @assert(%c: tensor<128xi1, #b>) {
    "tk.assert"(%c) <{file = "k.cpp", function = "kernel", id = 3 : i32, line = 12 : i32, message = "x > 0"}> : (tensor<128xi1, #b>) -> ()
    "tk.debug_barrier"() : () -> ()
    func.return
  }
}

// -----

// CHECK-LABEL: llvm.func @hints
// CHECK-NOT: tk.
// CHECK: llvm.intr.assume
func.func @hints(%x: i32, %c: i1, %p: !tk.ptr<i32>) {
  %0 = "tk.multiple_of"(%x) <{values = array<i32: 16>}> : (i32) -> i32
  %1 = "tk.max_contiguous"(%0) <{values = array<i32: 4>}> : (i32) -> i32
  %2 = "tk.max_constancy"(%1) <{values = array<i32: 4>}> : (i32) -> i32
  "tk.assume"(%c) : (i1) -> ()
  %3 = "tk.multiple_of"(%p) <{values = array<i32: 16>}> : (!tk.ptr<i32>) -> !tk.ptr<i32>
  "tk.store"(%3, %2) : (!tk.ptr<i32>, i32) -> ()
  func.return
}

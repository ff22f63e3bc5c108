// RUN: tk-opt %s -split-input-file -tk-test-print-allocation -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// lib/Analysis/Allocation.h: buffers over live intervals of the ops' pre-order numbering (the
// module not counted: the function is op 0), offsets first fit by size at multiples of 16.
// `test.buffer_bytes = N` makes an op's result an explicit buffer of N bytes, live from the op
// to its last use.

// Two buffers live at once (a and b, both used by op 3) take disjoint offsets, the larger
// first; c, live after both, reuses offset 0.
// CHECK-LABEL: remark: buffer of 100 bytes live [1, 3] at offset 0
// CHECK: remark: buffer of 64 bytes live [2, 3] at offset 112
// CHECK: remark: buffer of 48 bytes live [4, 5] at offset 0
// CHECK: remark: total 176 bytes
func.func @overlapping() {
  %a = arith.constant {test.buffer_bytes = 100 : i64} 0 : i32
  %b = arith.constant {test.buffer_bytes = 64 : i64} 1 : i32
  %0 = arith.addi %a, %b : i32
  %c = arith.constant {test.buffer_bytes = 48 : i64} 2 : i32
  %1 = arith.addi %c, %c : i32
  func.return
}

// -----

// a is used inside the loop (op 4 to 8), which does not contain its definition: the next
// iteration reads it again, so it lives to the loop's end (8), past b's definition (6), and b
// must not share its bytes. c, after the loop, reuses them.
// CHECK-LABEL: remark: buffer of 32 bytes live [1, 8] at offset 0
// CHECK: remark: buffer of 32 bytes live [6, 7] at offset 32
// CHECK: remark: buffer of 32 bytes live [9, 9] at offset 0
// CHECK: remark: total 64 bytes
func.func @loop(%n: i32) {
  %a = arith.constant {test.buffer_bytes = 32 : i64} 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %0 = arith.addi %a, %i : i32
    %b = arith.constant {test.buffer_bytes = 32 : i64} 1 : i32
    %1 = arith.addi %b, %b : i32
  }
  %c = arith.constant {test.buffer_bytes = 32 : i64} 2 : i32
  func.return
}

// -----

// Scratch is live at its op only: two reductions across 4 warps (16 bytes each) share offset 0,
// except where an explicit buffer is live around one of them (the second sits above it, at the
// next multiple of 16).
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: remark: scratch of 16 bytes live [1, 3] at offset 0
  // CHECK: remark: buffer of 40 bytes live [4, 8] at offset 0
  // CHECK: remark: scratch of 16 bytes live [5, 7] at offset 48
  // CHECK: remark: total 64 bytes
  func.func @scratch(%x: tensor<128xf32, #b>) {
    %0 = "tk.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
    }) : (tensor<128xf32, #b>) -> f32
    %buf = arith.constant {test.buffer_bytes = 40 : i64} 0 : i32
    %1 = "tk.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
    }) : (tensor<128xf32, #b>) -> f32
    %2 = arith.addi %buf, %buf : i32
    func.return
  }
}

// -----

// A tkgpu.local_alloc (3 tiles of 32 x 64 f16: 12288 bytes) used only through memdesc_index
// views inside a loop lives to the loop's end (op 7): b, defined in the loop, takes other
// bytes; c, after the loop, reuses offset 0.
// CHECK-LABEL: remark: buffer of 12288 bytes live [1, 7] at offset 0
// CHECK: remark: buffer of 32 bytes live [6, 6] at offset 12288
// CHECK: remark: buffer of 32 bytes live [8, 8] at offset 0
// CHECK: remark: total 12320 bytes
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @ring(%n: i32) {
  %buf = tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16, #s>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %tile = tkgpu.memdesc_index %buf[%i] : !tkgpu.memdesc<3x32x64xf16, #s> -> !tkgpu.memdesc<32x64xf16, #s>
    %b = arith.constant {test.buffer_bytes = 32 : i64} 1 : i32
  }
  %c = arith.constant {test.buffer_bytes = 32 : i64} 2 : i32
  func.return
}

// -----

// Padded rows count: 3 tiles of 32 rows of 64 + 8 f32 take 27648 bytes, not 24576.
// CHECK-LABEL: remark: buffer of 27648 bytes live [1, 1] at offset 0
// CHECK: remark: total 27648 bytes
#p = #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0], padding = 8}>
func.func @padded() {
  %buf = tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf32, #p>
  func.return
}

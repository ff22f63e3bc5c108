// RUN: tk-opt %s -split-input-file -tk-test-print-axis-info -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// Whole kernels as the front end prints them, and the vector width the coalescing pass gets for
// each tk.load / tk.store: min(contiguity, divisibility in elements, 16 bytes), capped by the
// mask's constancy.

// Vector add, 16-byte aligned pointers, n a multiple of 16: 4 f32 per 16-byte access, masked
// or not (the mask offs < n is constant over runs of 16).
// CHECK-LABEL: remark: function @add
func.func @add(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg2: i32 {tk.divisibility = 16 : i32}) {
  %0 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
  %1 = arith.constant 128 : i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [128], constancy = [1], constant_value = <none>
  %2 = arith.muli %0, %1 : i32
  %3 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  %4 = "tk.splat"(%2) : (i32) -> tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [128], constancy = [1], constant_value = <none>
  %5 = arith.addi %4, %3 : tensor<128xi32>
  %6 = "tk.splat"(%arg2) : (i32) -> tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>
  %7 = arith.cmpi slt, %5, %6 : tensor<128xi32>
  %8 = "tk.splat"(%arg1) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>
  %9 = "tk.addptr"(%8, %5) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
  %10 = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 4, order = [0]
  %11 = "tk.load"(%9, %7, %10) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tk.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  %12 = arith.constant dense<2.0> : tensor<128xf32>
  %13 = arith.mulf %11, %12 : tensor<128xf32>
  %14 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
  %15 = "tk.addptr"(%14, %5) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 4, order = [0]
  "tk.store"(%15, %13, %7) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 4, order = [0]
  "tk.store"(%15, %13) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>) -> ()
  func.return
}

// -----

// A masked tail: n has no divisibility, so any run may end at n: one element per access for the
// masked load, 4 for the unmasked one. A pointer of unknown alignment gives 1 even without a mask.
// CHECK-LABEL: remark: function @masked_tail
func.func @masked_tail(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f32>, %arg2: i32) {
  %0 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
  %1 = arith.constant 128 : i32
  %2 = arith.muli %0, %1 : i32
  %3 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  %4 = "tk.splat"(%2) : (i32) -> tensor<128xi32>
  %5 = arith.addi %4, %3 : tensor<128xi32>
  %6 = "tk.splat"(%arg2) : (i32) -> tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %7 = arith.cmpi slt, %5, %6 : tensor<128xi32>
  %8 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
  %9 = "tk.addptr"(%8, %5) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 1, order = [0]
  %10 = "tk.load"(%9, %7) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tk.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 4, order = [0]
  %11 = "tk.load"(%9) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
  %12 = "tk.splat"(%arg1) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
  // An argument without tk.divisibility is not assumed aligned at all.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [1], constancy = [1], constant_value = <none>
  %13 = "tk.addptr"(%12, %5) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 1, order = [0]
  %14 = "tk.load"(%13) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
  // A scalar load: 1.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 1, order = []
  %15 = "tk.load"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tk.ptr<f32>) -> f32
  func.return
}

// -----

// Softmax rows: row * stride + arange(0, 128). With stride a multiple of 16 the row start is
// 64-byte aligned: 4 f32. Without, only 4-byte alignment is known: 1.
// CHECK-LABEL: remark: function @softmax_rows
func.func @softmax_rows(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: i32 {tk.divisibility = 16 : i32}, %arg2: i32) {
  %0 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
  %1 = arith.muli %0, %arg1 : i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
  %2 = "tk.addptr"(%arg0, %1) : (!tk.ptr<f32>, i32) -> !tk.ptr<f32>
  %3 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  %4 = "tk.splat"(%2) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>
  %5 = "tk.addptr"(%4, %3) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 4, order = [0]
  %6 = "tk.load"(%5) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %7 = arith.muli %0, %arg2 : i32
  %8 = "tk.addptr"(%arg0, %7) : (!tk.ptr<f32>, i32) -> !tk.ptr<f32>
  %9 = "tk.splat"(%8) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [4], constancy = [1], constant_value = <none>
  %10 = "tk.addptr"(%9, %3) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 1, order = [0]
  %11 = "tk.load"(%10) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
  func.return
}

// -----

// A 2-D tile, offs_m[:, None] * stride + offs_n[None, :], f16: contiguous along dimension 1,
// 8 halves per 16-byte access, order [1, 0]. Its transpose is contiguous along dimension 0.
// CHECK-LABEL: remark: function @tile
func.func @tile(%arg0: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %arg1: i32 {tk.divisibility = 16 : i32}) {
  %0 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
  %c32 = arith.constant 32 : i32
  %1 = arith.muli %0, %c32 : i32
  %2 = "tk.splat"(%1) : (i32) -> tensor<32xi32>
  %3 = "tk.make_range"() <{end = 32 : i32, start = 0 : i32}> : () -> tensor<32xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [32], divisibility = [32], constancy = [1], constant_value = <none>
  %4 = arith.addi %2, %3 : tensor<32xi32>
  %5 = "tk.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [32, 1], divisibility = [32, 1], constancy = [1, 1], constant_value = <none>
  %6 = "tk.expand_dims"(%4) <{axis = 1 : i32}> : (tensor<32xi32>) -> tensor<32x1xi32>
  %7 = "tk.splat"(%arg1) : (i32) -> tensor<32x1xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1], constant_value = <none>
  %8 = arith.muli %6, %7 : tensor<32x1xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1, 64], divisibility = [1, 4611686018427387904], constancy = [1, 1], constant_value = <none>
  %9 = "tk.expand_dims"(%5) <{axis = 0 : i32}> : (tensor<64xi32>) -> tensor<1x64xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64], constant_value = <none>
  %10 = "tk.broadcast"(%8) : (tensor<32x1xi32>) -> tensor<32x64xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1, 64], divisibility = [1, 4611686018427387904], constancy = [32, 1], constant_value = <none>
  %11 = "tk.broadcast"(%9) : (tensor<1x64xi32>) -> tensor<32x64xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1], constant_value = <none>
  %12 = arith.addi %10, %11 : tensor<32x64xi32>
  %13 = "tk.splat"(%arg0) : (!tk.ptr<f16>) -> tensor<32x64x!tk.ptr<f16>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1], constant_value = <none>
  %14 = "tk.addptr"(%13, %12) : (tensor<32x64x!tk.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tk.ptr<f16>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 8, order = [1, 0]
  %15 = "tk.load"(%14) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<32x64x!tk.ptr<f16>>) -> tensor<32x64xf16>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [64, 1], divisibility = [16, 2], constancy = [1, 1], constant_value = <none>
  %16 = "tk.trans"(%14) <{order = array<i32: 1, 0>}> : (tensor<32x64x!tk.ptr<f16>>) -> tensor<64x32x!tk.ptr<f16>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 8, order = [0, 1]
  %17 = "tk.load"(%16) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x32x!tk.ptr<f16>>) -> tensor<64x32xf16>
  func.return
}

// -----

// A pointer advanced by a constant each iteration: the iter_arg is the join of the initial value
// and every yield. 128 f32 = 512 bytes keeps 16-byte divisibility (4 per access); 2 f32 = 8 bytes
// leaves 8 (2 per access). The induction variable is a multiple of gcd(lb, step).
// CHECK-LABEL: remark: function @loop
func.func @loop(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: i32) {
  %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  %1 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
  %2 = "tk.addptr"(%1, %0) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  // CHECK: :[[@LINE+5]]:{{[0-9]+}}: remark: arg 0: contiguity = [1], divisibility = [32], constancy = [1], constant_value = <none>
  // CHECK: :[[@LINE+4]]:{{[0-9]+}}: remark: arg 1: contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>
  // CHECK: :[[@LINE+3]]:{{[0-9]+}}: remark: arg 2: contiguity = [128], divisibility = [8], constancy = [1], constant_value = <none>
  // CHECK: :[[@LINE+2]]:{{[0-9]+}}: remark: result 0: contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: result 1: contiguity = [128], divisibility = [8], constancy = [1], constant_value = <none>
  %3:2 = scf.for %i = %c0 to %arg1 step %c32 iter_args(%p = %2, %q = %2) -> (tensor<128x!tk.ptr<f32>>, tensor<128x!tk.ptr<f32>>) : i32 {
    // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 4, order = [0]
    %4 = "tk.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
    // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: vector width = 2, order = [0]
    %5 = "tk.load"(%q) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
    %6 = arith.constant dense<128> : tensor<128xi32>
    // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>
    %7 = "tk.addptr"(%p, %6) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
    %8 = arith.constant dense<2> : tensor<128xi32>
    // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [8], constancy = [1], constant_value = <none>
    %9 = "tk.addptr"(%q, %8) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
    // An offset from the induction variable (a multiple of 32 elements, 128 bytes) keeps 16.
    // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
    %10 = "tk.addptr"(%arg0, %i) : (!tk.ptr<f32>, i32) -> !tk.ptr<f32>
    scf.yield %7, %9 : tensor<128x!tk.ptr<f32>>, tensor<128x!tk.ptr<f32>>
  }
  // A step with no known divisibility: the induction variable has none.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: arg 0: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  scf.for %j = %c0 to %arg1 step %arg1 : i32 {
    %11 = "tk.addptr"(%arg0, %j) : (!tk.ptr<f32>, i32) -> !tk.ptr<f32>
  }
  func.return
}

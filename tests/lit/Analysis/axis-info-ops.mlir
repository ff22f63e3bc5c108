// RUN: tk-opt %s -split-input-file -tk-test-print-axis-info -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// One function per transfer function. Each CHECK is anchored to the line of the op whose remark it
// expects ([[@LINE+n]]); block arguments are reported on their region's op as `arg N`.

// CHECK-LABEL: remark: function @args
// CHECK: arg 0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
// CHECK: arg 1: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
// CHECK: arg 2: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
// CHECK: arg 3: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
func.func @args(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f32>,
                %arg2: i32 {tk.divisibility = 16 : i32}, %arg3: i64) {
  func.return
}

// -----

// CHECK-LABEL: remark: function @constants
func.func @constants() {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [8], constancy = [1], constant_value = 24
  %0 = arith.constant 24 : i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant_value = 0
  %1 = arith.constant 0 : i64
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = -1
  %2 = arith.constant -1 : i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1, 1], divisibility = [64, 64], constancy = [4, 8], constant_value = 64
  %3 = arith.constant dense<64> : tensor<4x8xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = 1
  %4 = arith.constant true
  func.return
}

// -----

// CHECK-LABEL: remark: function @grid_and_range
func.func @grid_and_range() {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %0 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %1 = "tk.get_num_programs"() <{axis = 1 : i32}> : () -> i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant_value = <none>
  %2 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [32], divisibility = [32], constancy = [1], constant_value = <none>
  %3 = "tk.make_range"() <{end = 64 : i32, start = 32 : i32}> : () -> tensor<32xi32>
  func.return
}

// -----

// Shapes: splat, expand_dims, broadcast, reshape (exact and conservative), trans.
// CHECK-LABEL: remark: function @shapes
func.func @shapes(%arg0: i32 {tk.divisibility = 16 : i32}) {
  %0 = "tk.make_range"() <{end = 16 : i32, start = 0 : i32}> : () -> tensor<16xi32>
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: remark: contiguity = [16]
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [16], constant_value = <none>
  %1 = "tk.splat"(%arg0) : (i32) -> tensor<16xi32>
  // Inside a run of 16 only 1 is known of every element: the new dimension gets divisibility 1.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1, 16], divisibility = [1, 4611686018427387904], constancy = [1, 1], constant_value = <none>
  %2 = "tk.expand_dims"(%0) <{axis = 0 : i32}> : (tensor<16xi32>) -> tensor<1x16xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16, 1], divisibility = [4611686018427387904, 1], constancy = [1, 1], constant_value = <none>
  %3 = "tk.expand_dims"(%0) <{axis = 1 : i32}> : (tensor<16xi32>) -> tensor<16x1xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1, 16], divisibility = [1, 4611686018427387904], constancy = [8, 1], constant_value = <none>
  %4 = "tk.broadcast"(%2) : (tensor<1x16xi32>) -> tensor<8x16xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16, 1], divisibility = [4611686018427387904, 1], constancy = [1, 8], constant_value = <none>
  %5 = "tk.broadcast"(%3) : (tensor<16x1xi32>) -> tensor<16x8xi32>
  // Dropping the unit dimension is exact.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16], divisibility = [4611686018427387904], constancy = [1], constant_value = <none>
  %6 = "tk.reshape"(%2) : (tensor<1x16xi32>) -> tensor<16xi32>
  // Flattening 8x16 is conservative: only what holds for every element.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %7 = "tk.reshape"(%4) : (tensor<8x16xi32>) -> tensor<128xi32>
  // ... except for a whole-tensor constant.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1, 1], divisibility = [16, 16], constancy = [4, 4], constant_value = <none>
  %8 = "tk.splat"(%arg0) : (i32) -> tensor<4x4xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [16], constant_value = <none>
  %9 = "tk.reshape"(%8) : (tensor<4x4xi32>) -> tensor<16xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16, 1], divisibility = [4611686018427387904, 1], constancy = [1, 8], constant_value = <none>
  %10 = "tk.trans"(%4) <{order = array<i32: 1, 0>}> : (tensor<8x16xi32>) -> tensor<16x8xi32>
  func.return
}

// -----

// CHECK-LABEL: remark: function @add_sub_mul
func.func @add_sub_mul(%arg0: i32 {tk.divisibility = 16 : i32}, %arg1: i32) {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [64]
  %0 = "tk.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 64
  %c64 = arith.constant 64 : i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1]
  %pid = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
  // pid * 64: a multiple of 64.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [64], constancy = [1], constant_value = <none>
  %1 = arith.muli %pid, %c64 : i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [64], constancy = [64]
  %2 = "tk.splat"(%1) : (i32) -> tensor<64xi32>
  // splat + arange: runs of 64 starting at multiples of 64.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [64], divisibility = [64], constancy = [1], constant_value = <none>
  %3 = arith.addi %2, %0 : tensor<64xi32>
  // arange - splat stays contiguous; splat - arange does not.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [64], divisibility = [64], constancy = [1]
  %4 = arith.subi %0, %2 : tensor<64xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1]
  %5 = arith.subi %2, %0 : tensor<64xi32>
  // arange + arange = 0, 2, 4, ...: neither contiguous nor a multiple of anything but 1... the lead
  // 0's divisibility must not leak to the other elements.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1]
  %6 = arith.addi %0, %0 : tensor<64xi32>
  // arange * splat(arg0 | 16) = multiples of 16, not contiguous.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [64]
  %7 = "tk.splat"(%arg0) : (i32) -> tensor<64xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [1]
  %8 = arith.muli %0, %7 : tensor<64xi32>
  // x * 1 keeps x.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 1
  %c1 = arith.constant dense<1> : tensor<64xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [64], divisibility = [64], constancy = [1]
  %9 = arith.muli %3, %c1 : tensor<64xi32>
  // Constants fold, wrapping at the width.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 2147483647
  %c = arith.constant 2147483647 : i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 1
  %c1s = arith.constant 1 : i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [2147483648], constancy = [1], constant_value = -2147483648
  %10 = arith.addi %c, %c1s : i32
  func.return
}

// -----

// CHECK-LABEL: remark: function @div_rem
func.func @div_rem(%n: i32 {tk.divisibility = 16 : i32}) {
  %n16 = tk.splat %n : i32 -> tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128]
  %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 16
  %c16 = arith.constant dense<16> : tensor<128xi32>
  // x / 16 (unsigned): runs of 16 equal values, multiples of 2^62 / 16 at the lead.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>
  %1 = arith.divui %0, %c16 : tensor<128xi32>
  // Signed division keeps no bucket constancy (conservative: rounding toward zero).
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %2 = arith.divsi %0, %c16 : tensor<128xi32>
  // x % 16 (unsigned): runs of 16 consecutive values starting at 0.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>
  %3 = arith.remui %0, %c16 : tensor<128xi32>
  // Signed remainder as unsigned (index arithmetic is non-negative, as Triton assumes).
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>
  %4 = arith.remsi %0, %c16 : tensor<128xi32>
  // By a run-time modulus that is a multiple of 16 (a kernel argument specialized on it), as
  // `(pid * 128 + arange(0, 128)) % N`: runs of 16.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>
  %r = arith.remsi %0, %n16 : tensor<128xi32>
  // x & 15 is x % 16.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 15
  %c15 = arith.constant dense<15> : tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>
  %5 = arith.andi %0, %c15 : tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 4
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // x << 4: multiples of 16, no longer contiguous.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
  %6 = arith.shli %0, %c4 : tensor<128xi32>
  // x >> 4 (either kind): runs of 16 equal values.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>
  %7 = arith.shrui %0, %c4 : tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>
  %8 = arith.shrsi %0, %c4 : tensor<128xi32>
  // (x << 4) / 16 = x, but only divisibility survives: 16 / 16 = 1.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %9 = arith.divsi %6, %c16 : tensor<128xi32>
  // (x << 4) >> 2: multiples of 4.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 2
  %c2 = arith.constant dense<2> : tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>
  %10 = arith.shrsi %6, %c2 : tensor<128xi32>
  // Constants fold.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 1
  %11 = arith.divsi %c16, %c16 : tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 0
  %12 = arith.remui %c16, %c4 : tensor<128xi32>
  func.return
}

// -----

// CHECK-LABEL: remark: function @casts_select_cmp
func.func @casts_select_cmp(%arg0: i32 {tk.divisibility = 16 : i32}, %arg1: i32, %arg2: i1) {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128]
  %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [4611686018427387904], constancy = [1]
  %1 = arith.extsi %0 : tensor<128xi32> to tensor<128xi64>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [4611686018427387904], constancy = [1]
  %2 = arith.extui %0 : tensor<128xi32> to tensor<128xi64>
  // A run of 128 starting at a multiple of 2^62 cannot wrap at 2^8: runs of 128 stay.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [4611686018427387904], constancy = [1]
  %3 = arith.trunci %1 : tensor<128xi64> to tensor<128xi8>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = -1
  %m1 = arith.constant -1 : i8
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 255
  %4 = arith.extui %m1 : i8 to i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = -1
  %5 = arith.extsi %m1 : i8 to i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [128]
  %n = "tk.splat"(%arg0) : (i32) -> tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [128]
  %k = "tk.splat"(%arg1) : (i32) -> tensor<128xi32>
  // arange < n with n a multiple of 16: constant over runs of 16 (Triton's mask alignment).
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>
  %6 = arith.cmpi slt, %0, %n : tensor<128xi32>
  // n > arange: the same, sides swapped.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>
  %7 = arith.cmpi sgt, %n, %0 : tensor<128xi32>
  // arange <= n changes right at n: no runs.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %8 = arith.cmpi sle, %0, %n : tensor<128xi32>
  // An unknown bound: no runs.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %9 = arith.cmpi ult, %0, %k : tensor<128xi32>
  // Masks combine: and of constancies 16 and 128.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>
  %10 = arith.andi %6, %7 : tensor<128xi1>
  // select with a uniform condition keeps the common contiguity.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>
  %11 = arith.addi %0, %n : tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>
  %12 = arith.select %arg2, %0, %11 : tensor<128xi32>
  // select with a mask of runs of 16: runs of 16.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>
  %13 = arith.select %6, %0, %11 : tensor<128xi1>, tensor<128xi32>
  // A known condition picks its side.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 1
  %true = arith.constant true
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant_value = <none>
  %14 = arith.select %true, %0, %11 : tensor<128xi32>
  func.return
}

// -----

// Pointers: divisibility in bytes; addptr scales the offset's divisibility by the element size.
// CHECK-LABEL: remark: function @pointers
func.func @pointers(%arg0: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f64>, %arg2: i1) {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [64]
  %0 = "tk.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [64]
  %1 = "tk.splat"(%arg0) : (!tk.ptr<f16>) -> tensor<64x!tk.ptr<f16>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>
  %2 = "tk.addptr"(%1, %0) : (tensor<64x!tk.ptr<f16>>, tensor<64xi32>) -> tensor<64x!tk.ptr<f16>>
  // An offset of 3 halves (6 bytes) leaves 2-byte alignment.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 3
  %c3 = arith.constant 3 : i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [2], constancy = [1], constant_value = <none>
  %3 = "tk.addptr"(%arg0, %c3) : (!tk.ptr<f16>, i32) -> !tk.ptr<f16>
  // An offset of 8 halves keeps 16 bytes.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 8
  %c8 = arith.constant 8 : i64
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
  %4 = "tk.addptr"(%arg0, %c8) : (!tk.ptr<f16>, i64) -> !tk.ptr<f16>
  // An unaligned f64 pointer plus a multiple of 2 elements is still only known 1-byte aligned.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 2
  %c2 = arith.constant 2 : i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %5 = "tk.addptr"(%arg1, %c2) : (!tk.ptr<f64>, i32) -> !tk.ptr<f64>
  // Addresses step by 2 bytes: every one is a multiple of 2, none contiguous as integers.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [2], constancy = [1], constant_value = <none>
  %6 = "tk.ptr_to_int"(%2) : (tensor<64x!tk.ptr<f16>>) -> tensor<64xi64>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [2], constancy = [1], constant_value = <none>
  %7 = "tk.bitcast"(%2) : (tensor<64x!tk.ptr<f16>>) -> tensor<64x!tk.ptr<i8>>
  // Same element size: unchanged.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>
  %8 = "tk.bitcast"(%2) : (tensor<64x!tk.ptr<f16>>) -> tensor<64x!tk.ptr<i16>>
  // tk.load results are unknown.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %9 = "tk.load"(%8) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x!tk.ptr<i16>>) -> tensor<64xi16>
  // select between pointers.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>
  %10 = arith.select %arg2, %2, %2 : tensor<64x!tk.ptr<f16>>
  func.return
}

// -----

// Casts of i1 constants and int_to_ptr.
// CHECK-LABEL: remark: function @more_casts
func.func @more_casts(%arg0: i64 {tk.divisibility = 16 : i32}) {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: {{.*}}constant_value = 1
  %true = arith.constant true
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = -1
  %0 = arith.extsi %true : i1 to i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = 1
  %1 = arith.extui %true : i1 to i32
  // CHECK: :[[@LINE+2]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant_value = 0
  %c2 = arith.constant 2 : i32
  %2 = arith.trunci %c2 : i32 to i1
  // Integers step by 1: an int_to_ptr of a contiguous range to f32 pointers is not contiguous.
  %3 = "tk.make_range"() <{end = 16 : i32, start = 0 : i32}> : () -> tensor<16xi32>
  %4 = arith.extsi %3 : tensor<16xi32> to tensor<16xi64>
  %5 = "tk.splat"(%arg0) : (i64) -> tensor<16xi64>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>
  %6 = arith.addi %5, %4 : tensor<16xi64>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %7 = "tk.int_to_ptr"(%6) : (tensor<16xi64>) -> tensor<16x!tk.ptr<f32>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>
  %8 = "tk.int_to_ptr"(%6) : (tensor<16xi64>) -> tensor<16x!tk.ptr<i8>>
  func.return
}

// -----

// CHECK-LABEL: remark: function @min_max
func.func @min_max(%arg0: i32 {tk.divisibility = 16 : i32}) {
  %0 = "tk.make_range"() <{end = 32 : i32, start = 0 : i32}> : () -> tensor<32xi32>
  %1 = "tk.splat"(%arg0) : (i32) -> tensor<32xi32>
  %2 = arith.constant dense<8> : tensor<32xi32>
  // min(splat(n), splat(8)): a multiple of 8, constant.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [8], constancy = [32], constant_value = <none>
  %3 = arith.minsi %1, %2 : tensor<32xi32>
  // max(arange, splat(n)): no contiguity, no divisibility inside the range's runs.
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  %4 = arith.maxui %0, %1 : tensor<32xi32>
  func.return
}

// -----

// scf.if results join both branches: gcd of the divisibilities, no constant. A constant condition
// leaves the other branch dead (DeadCodeAnalysis), so only the live branch counts.
// CHECK-LABEL: remark: function @if_join
func.func @if_join(%arg0: i1) {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
  %0 = scf.if %arg0 -> i32 {
    %a = arith.constant 32 : i32
    scf.yield %a : i32
  } else {
    %b = arith.constant 48 : i32
    scf.yield %b : i32
  }
  %true = arith.constant true
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [32], constancy = [1], constant_value = 32
  %1 = scf.if %true -> i32 {
    %a = arith.constant 32 : i32
    scf.yield %a : i32
  } else {
    %b = arith.constant 48 : i32
    scf.yield %b : i32
  }
  func.return
}

// -----

// The hints add what the user vouches for; tk.assume(x % 16 == 0) at the top level makes x a
// multiple of 16 (the and-mask form too); the assumed value's users see it.
// CHECK-LABEL: remark: function @hints
// CHECK: arg 0: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
// CHECK: arg 1: contiguity = [1], divisibility = [8], constancy = [1], constant_value = <none>
func.func @hints(%x: i32, %y: i32, %t: tensor<128xi32>) {
  %c16 = arith.constant 16 : i32
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.remsi %x, %c16 : i32
  %1 = arith.cmpi eq, %0, %c0 : i32
  "tk.assume"(%1) : (i1) -> ()
  %2 = arith.andi %y, %c7 : i32
  %3 = arith.cmpi eq, %2, %c0 : i32
  "tk.assume"(%3) : (i1) -> ()
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
  %4 = "tk.multiple_of"(%y) <{values = array<i32: 48>}> : (i32) -> i32
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [8], divisibility = [1], constancy = [1], constant_value = <none>
  %5 = "tk.max_contiguous"(%t) <{values = array<i32: 8>}> : (tensor<128xi32>) -> tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [8], divisibility = [8], constancy = [1], constant_value = <none>
  %6 = "tk.multiple_of"(%5) <{values = array<i32: 8>}> : (tensor<128xi32>) -> tensor<128xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [1], constancy = [4], constant_value = <none>
  %7 = "tk.max_constancy"(%t) <{values = array<i32: 4>}> : (tensor<128xi32>) -> tensor<128xi32>
  func.return
}

// -----

// On pointers the hints count as the analysis does: multiple_of in bytes (an address loaded from
// memory, 16-byte aligned), max_contiguous in elements; addptr then carries them.
// CHECK-LABEL: remark: function @pointer_hints
func.func @pointer_hints(%q: !tk.ptr<i64>, %t: tensor<64x!tk.ptr<f16>>) {
  %a = "tk.load"(%q) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tk.ptr<i64>) -> i64
  %p = "tk.int_to_ptr"(%a) : (i64) -> !tk.ptr<f16>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>
  %0 = "tk.multiple_of"(%p) <{values = array<i32: 16>}> : (!tk.ptr<f16>) -> !tk.ptr<f16>
  %1 = "tk.splat"(%0) : (!tk.ptr<f16>) -> tensor<64x!tk.ptr<f16>>
  %2 = "tk.make_range"() <{start = 0 : i32, end = 64 : i32}> : () -> tensor<64xi32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>
  %3 = "tk.addptr"(%1, %2) : (tensor<64x!tk.ptr<f16>>, tensor<64xi32>) -> tensor<64x!tk.ptr<f16>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [8], divisibility = [1], constancy = [1], constant_value = <none>
  %4 = "tk.max_contiguous"(%t) <{values = array<i32: 8>}> : (tensor<64x!tk.ptr<f16>>) -> tensor<64x!tk.ptr<f16>>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: contiguity = [8], divisibility = [16], constancy = [1], constant_value = <none>
  %5 = "tk.multiple_of"(%4) <{values = array<i32: 16>}> : (tensor<64x!tk.ptr<f16>>) -> tensor<64x!tk.ptr<f16>>
  func.return
}

// tk-rewrite-block-pointers: a block pointer becomes its base, shape, strides and offsets;
// tk.advance adds to the offsets; loads and stores go through pointer blocks masked to the
// tensor along the boundary_check dimensions only, with every stride multiplied (a block
// pointer's last stride need not be 1).
// RUN: tk-opt %s -split-input-file -tk-rewrite-block-pointers -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @load_nan
// CHECK-SAME: (%[[IN:[^:]+]]: !tk.ptr<f32>, %[[M:[^:]+]]: i32, %[[N:[^:]+]]: i32, %[[SM:[^:]+]]: i64, %[[SN:[^:]+]]: i64, %[[I:[^:]+]]: i32, %[[J:[^:]+]]: i32)
// CHECK-NOT: tk.make_block_ptr
// Rows (dimension 0, not checked): i + arange(16), times the row stride, no mask.
// CHECK: %[[RS:.+]] = tk.splat %[[I]] : i32 -> tensor<16xi32>
// CHECK: %[[RI:.+]] = arith.addi %[[RS]], %{{.+}} : tensor<16xi32>
// CHECK: %[[ROW:.+]] = tk.expand_dims %[[RI]] {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
// CHECK-NOT: arith.cmpi
// CHECK: %[[ROW64:.+]] = arith.extsi %[[ROW]] : tensor<16x1xi32> to tensor<16x1xi64>
// CHECK: %[[SMS:.+]] = tk.splat %[[SM]] : i64 -> tensor<16x1xi64>
// CHECK: arith.muli %[[ROW64]], %[[SMS]] : tensor<16x1xi64>
// Columns (dimension 1, checked): inside [0, N), times the column stride.
// CHECK: %[[COL:.+]] = tk.expand_dims %{{.+}} {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
// CHECK: %[[NS:.+]] = tk.splat %[[N]] : i32 -> tensor<1x32xi32>
// CHECK: arith.cmpi sge, %[[COL]], %{{.+}} : tensor<1x32xi32>
// CHECK: arith.cmpi slt, %[[COL]], %[[NS]] : tensor<1x32xi32>
// CHECK: %[[COL64:.+]] = arith.extsi %[[COL]] : tensor<1x32xi32> to tensor<1x32xi64>
// CHECK: %[[SNS:.+]] = tk.splat %[[SN]] : i64 -> tensor<1x32xi64>
// CHECK: arith.muli %[[COL64]], %[[SNS]] : tensor<1x32xi64>
// CHECK: %[[OFF:.+]] = arith.addi %{{.+}}, %{{.+}} : tensor<16x32xi64>
// CHECK: %[[MASK:.+]] = tk.broadcast %{{.+}} : tensor<1x32xi1> -> tensor<16x32xi1>
// CHECK: %[[PTRS:.+]] = tk.addptr %{{.+}}, %[[OFF]]
// CHECK: %[[NAN:.+]] = arith.constant dense<0x7FC00000> : tensor<16x32xf32>
// CHECK: tk.load %[[PTRS]], %[[MASK]], %[[NAN]] : (tensor<16x32x!tk.ptr<f32>>, tensor<16x32xi1>, tensor<16x32xf32>) -> tensor<16x32xf32>
func.func @load_nan(%in: !tk.ptr<f32>, %m: i32, %n: i32, %sm: i64, %sn: i64, %i: i32, %j: i32) -> tensor<16x32xf32> {
  %p = tk.make_block_ptr %in, [%m, %n], [%sm, %sn], [%i, %j] {order = array<i32: 1, 0>} : !tk.ptr<f32>, !tk.blockptr<tensor<16x32xf32>>
  %x = tk.block_load %p {boundary_check = array<i32: 1>, nan_padding} : !tk.blockptr<tensor<16x32xf32>> -> tensor<16x32xf32>
  func.return %x : tensor<16x32xf32>
}

// -----

// No dimension checked: no mask, no other value.
// CHECK-LABEL: func.func @unchecked
// CHECK-NOT: arith.cmpi
// CHECK: tk.load %{{.+}} : (tensor<64x!tk.ptr<f16>>) -> tensor<64xf16>
func.func @unchecked(%in: !tk.ptr<f16>, %n: i32, %s: i64, %i: i32) -> tensor<64xf16> {
  %p = tk.make_block_ptr %in, [%n], [%s], [%i] {order = array<i32: 0>} : !tk.ptr<f16>, !tk.blockptr<tensor<64xf16>>
  %x = tk.block_load %p {boundary_check = array<i32>} : !tk.blockptr<tensor<64xf16>> -> tensor<64xf16>
  func.return %x : tensor<64xf16>
}

// -----

// A block pointer carried through a loop and advanced there: the loop carries its parts, the
// offsets change by the advance's, and the store after the loop reads the loop's results.
// CHECK-LABEL: func.func @advance_in_loop
// CHECK-SAME: (%[[IN:[^:]+]]: !tk.ptr<f32>, %[[OUT:[^:]+]]: !tk.ptr<f32>, %[[N:[^:]+]]: i32, %[[K:[^:]+]]: i32)
// CHECK: %[[LOOP:.+]]:5 = scf.for %{{.+}} = %{{.+}} to %[[K]] step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[B:.+]] = %[[IN]], %[[SH:.+]] = %[[N]], %[[ST:.+]] = %{{.+}}, %[[OF:.+]] = %{{.+}}) -> (tensor<32xf32>, !tk.ptr<f32>, i32, i64, i32)
// CHECK: tk.splat %[[OF]] : i32 -> tensor<32xi32>
// CHECK: %[[X:.+]] = tk.load
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[X]]
// CHECK: %[[NEXT:.+]] = arith.addi %[[OF]], %{{.+}} : i32
// CHECK: scf.yield %[[SUM]], %[[B]], %[[SH]], %[[ST]], %[[NEXT]] : tensor<32xf32>, !tk.ptr<f32>, i32, i64, i32
// CHECK: tk.store %{{.+}}, %[[LOOP]]#0, %{{.+}} : (tensor<32x!tk.ptr<f32>>, tensor<32xf32>, tensor<32xi1>) -> ()
// CHECK-NOT: tk.blockptr
func.func @advance_in_loop(%in: !tk.ptr<f32>, %out: !tk.ptr<f32>, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<32xf32>
  %p = tk.make_block_ptr %in, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tk.ptr<f32>, !tk.blockptr<tensor<32xf32>>
  %r:2 = scf.for %iv = %c0 to %k step %c32 iter_args(%acc = %zero, %q = %p) -> (tensor<32xf32>, !tk.blockptr<tensor<32xf32>>) : i32 {
    %x = tk.block_load %q {boundary_check = array<i32: 0>} : !tk.blockptr<tensor<32xf32>> -> tensor<32xf32>
    %s = arith.addf %acc, %x : tensor<32xf32>
    %q2 = tk.advance %q[%c32] : !tk.blockptr<tensor<32xf32>>
    scf.yield %s, %q2 : tensor<32xf32>, !tk.blockptr<tensor<32xf32>>
  }
  %o = tk.make_block_ptr %out, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tk.ptr<f32>, !tk.blockptr<tensor<32xf32>>
  tk.block_store %o, %r#0 {boundary_check = array<i32: 0>} : !tk.blockptr<tensor<32xf32>>, tensor<32xf32>
  func.return
}

// -----

// A block pointer chosen by a branch: the if yields its parts.
// CHECK-LABEL: func.func @branch
// CHECK: %[[IF:.+]]:4 = scf.if %{{.+}} -> (!tk.ptr<f32>, i32, i64, i32)
// CHECK-NOT: tk.blockptr
func.func @branch(%a: !tk.ptr<f32>, %b: !tk.ptr<f32>, %n: i32, %c: i1) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %p = scf.if %c -> !tk.blockptr<tensor<16xf32>> {
    %x = tk.make_block_ptr %a, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tk.ptr<f32>, !tk.blockptr<tensor<16xf32>>
    scf.yield %x : !tk.blockptr<tensor<16xf32>>
  } else {
    %y = tk.make_block_ptr %b, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tk.ptr<f32>, !tk.blockptr<tensor<16xf32>>
    scf.yield %y : !tk.blockptr<tensor<16xf32>>
  }
  %v = tk.block_load %p {boundary_check = array<i32: 0>} : !tk.blockptr<tensor<16xf32>> -> tensor<16xf32>
  func.return %v : tensor<16xf32>
}

// -----

// expected-error @+1 {{a block pointer must be made in the kernel (tk::make_block_ptr), not passed in as an argument}}
func.func @argument(%p: !tk.blockptr<tensor<16xf32>>) -> tensor<16xf32> {
  %x = tk.block_load %p {boundary_check = array<i32: 0>} : !tk.blockptr<tensor<16xf32>> -> tensor<16xf32>
  func.return %x : tensor<16xf32>
}

// -----

func.func @select(%a: !tk.ptr<f32>, %n: i32, %c: i1) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %p = tk.make_block_ptr %a, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tk.ptr<f32>, !tk.blockptr<tensor<16xf32>>
  %q = tk.advance %p[%n] : !tk.blockptr<tensor<16xf32>>
  // expected-error @+1 {{a block pointer can only be made (tk::make_block_ptr), advanced, loaded, stored and carried through loops and branches; 'arith.select' takes or makes one}}
  %r = arith.select %c, %p, %q : !tk.blockptr<tensor<16xf32>>
  %x = tk.block_load %r {boundary_check = array<i32: 0>} : !tk.blockptr<tensor<16xf32>> -> tensor<16xf32>
  func.return %x : tensor<16xf32>
}

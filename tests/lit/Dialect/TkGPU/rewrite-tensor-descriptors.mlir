// tk-rewrite-tensor-descriptors: descriptor loads, stores, reductions, gathers and scatters
// become loads, stores and atomics through pointer blocks masked to the tensor; the last stride is 1, so the last
// dimension stays contiguous (no multiplication there). Descriptors carried by loops and
// branches become their parts.
// RUN: tk-opt %s -split-input-file -tk-rewrite-tensor-descriptors -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @copy
// CHECK-SAME: (%[[IN:[^:]+]]: !tk.ptr<f16>, %[[OUT:[^:]+]]: !tk.ptr<f16>, %[[M:[^:]+]]: i32, %[[N:[^:]+]]: i32, %[[LD:[^:]+]]: i64, %[[I:[^:]+]]: i32, %[[J:[^:]+]]: i32)
// CHECK-NOT: tk.make_tensor_descriptor
// Rows: i + arange(64) as 64 x 1, inside [0, M), times the row stride.
// CHECK: %[[R:.+]] = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK: %[[RS:.+]] = tk.splat %[[I]] : i32 -> tensor<64xi32>
// CHECK: %[[RI:.+]] = arith.addi %[[RS]], %[[R]] : tensor<64xi32>
// CHECK: %[[ROW:.+]] = tk.expand_dims %[[RI]] {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
// CHECK: %[[MS:.+]] = tk.splat %[[M]] : i32 -> tensor<64x1xi32>
// CHECK: %[[GE:.+]] = arith.cmpi sge, %[[ROW]], %{{.+}} : tensor<64x1xi32>
// CHECK: %[[LT:.+]] = arith.cmpi slt, %[[ROW]], %[[MS]] : tensor<64x1xi32>
// CHECK: %[[IN0:.+]] = arith.andi %[[GE]], %[[LT]] : tensor<64x1xi1>
// CHECK: %[[ROW64:.+]] = arith.extsi %[[ROW]] : tensor<64x1xi32> to tensor<64x1xi64>
// CHECK: %[[LDS:.+]] = tk.splat %[[LD]] : i64 -> tensor<64x1xi64>
// CHECK: arith.muli %[[ROW64]], %[[LDS]] : tensor<64x1xi64>
// Columns: j + arange(32) as 1 x 32, inside [0, N), no stride.
// CHECK: tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK: tk.expand_dims %{{.+}} {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
// CHECK: %[[COL64:.+]] = arith.extsi %{{.+}} : tensor<1x32xi32> to tensor<1x32xi64>
// CHECK-NOT: arith.muli
// CHECK: %[[OFF:.+]] = arith.addi %{{.+}}, %{{.+}} : tensor<64x32xi64>
// CHECK: %[[MASK:.+]] = arith.andi %{{.+}}, %{{.+}} : tensor<64x32xi1>
// CHECK: %[[BASE:.+]] = tk.splat %[[IN]] : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>>
// CHECK: %[[PTRS:.+]] = tk.addptr %[[BASE]], %[[OFF]] : tensor<64x32x!tk.ptr<f16>>, tensor<64x32xi64> -> tensor<64x32x!tk.ptr<f16>>
// CHECK: %[[X:.+]] = tk.load %[[PTRS]], %[[MASK]] : (tensor<64x32x!tk.ptr<f16>>, tensor<64x32xi1>) -> tensor<64x32xf16>
// The store: the same pointers into out, the same mask.
// CHECK: tk.splat %[[OUT]] : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>>
// CHECK: tk.store %{{.+}}, %[[X]], %{{.+}} : (tensor<64x32x!tk.ptr<f16>>, tensor<64x32xf16>, tensor<64x32xi1>) -> ()
// CHECK-NOT: tk.descriptor
func.func @copy(%in: !tk.ptr<f16>, %out: !tk.ptr<f16>, %m: i32, %n: i32, %ld: i64, %i: i32, %j: i32) {
  %c1 = arith.constant 1 : i64
  %d = tk.make_tensor_descriptor %in, [%m, %n], [%ld, %c1] : !tk.ptr<f16>, !tk.tensordesc<tensor<64x32xf16>>
  %e = tk.make_tensor_descriptor %out, [%m, %n], [%ld, %c1] : !tk.ptr<f16>, !tk.tensordesc<tensor<64x32xf16>>
  %x = tk.descriptor_load %d[%i, %j] : !tk.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  tk.descriptor_store %e[%i, %j], %x : !tk.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  func.return
}

// -----

// A NaN-padded load: the masked-off elements read as NaN (the load's `other`).
// CHECK-LABEL: func.func @nan_padding
// CHECK: %[[NAN:.+]] = arith.constant dense<0x7FC00000> : tensor<16x32xf32>
// CHECK: tk.load %{{.+}}, %{{.+}}, %[[NAN]] : (tensor<16x32x!tk.ptr<f32>>, tensor<16x32xi1>, tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK-NOT: tk.descriptor
func.func @nan_padding(%in: !tk.ptr<f32>, %m: i32, %n: i32, %ld: i64, %i: i32, %j: i32) -> tensor<16x32xf32> {
  %c1 = arith.constant 1 : i64
  %d = tk.make_tensor_descriptor %in, [%m, %n], [%ld, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x32xf32>>
  %x = tk.descriptor_load %d[%i, %j] {nan_padding} : !tk.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
  func.return %x : tensor<16x32xf32>
}

// -----

// Reductions: a tk.atomic_rmw of the reduction's kind through the same masked pointer block
// (relaxed, GPU scope), elements outside the tensor masked off; its result is unused.
// CHECK-LABEL: func.func @reduce
// CHECK-SAME: (%[[OUT:[^:]+]]: !tk.ptr<i32>,
// CHECK: %[[MASK:.+]] = arith.andi %{{.+}}, %{{.+}} : tensor<16x32xi1>
// CHECK: %[[BASE:.+]] = tk.splat %[[OUT]] : !tk.ptr<i32> -> tensor<16x32x!tk.ptr<i32>>
// CHECK: %[[PTRS:.+]] = tk.addptr %[[BASE]], %{{.+}} : tensor<16x32x!tk.ptr<i32>>, tensor<16x32xi64> -> tensor<16x32x!tk.ptr<i32>>
// CHECK: tk.atomic_rmw %[[PTRS]], %[[X:[^,]+]], %[[MASK]] {kind = "umax", scope = "gpu", sem = "relaxed"} : (tensor<16x32x!tk.ptr<i32>>, tensor<16x32xi32>, tensor<16x32xi1>) -> tensor<16x32xi32>
// CHECK: tk.atomic_rmw %{{.+}}, %[[X]], %{{.+}} {kind = "xor", scope = "gpu", sem = "relaxed"}
// CHECK-NOT: tk.descriptor
func.func @reduce(%out: !tk.ptr<i32>, %m: i32, %n: i32, %ld: i64, %i: i32, %j: i32, %x: tensor<16x32xi32>) {
  %c1 = arith.constant 1 : i64
  %d = tk.make_tensor_descriptor %out, [%m, %n], [%ld, %c1] : !tk.ptr<i32>, !tk.tensordesc<tensor<16x32xi32>>
  tk.descriptor_reduce %d[%i, %j], %x {kind = "umax"} : !tk.tensordesc<tensor<16x32xi32>>, tensor<16x32xi32>
  tk.descriptor_reduce %d[%i, %j], %x {kind = "xor"} : !tk.tensordesc<tensor<16x32xi32>>, tensor<16x32xi32>
  func.return
}

// -----

// A descriptor carried through a loop (made again in the body) becomes its parts, carried one
// by one: base, sizes, strides.
// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[IN:[^:]+]]: !tk.ptr<f32>, %[[N:[^:]+]]: i32, %[[K:[^:]+]]: i32)
// CHECK: %[[C1:.+]] = arith.constant 1 : i64
// CHECK: %[[R:.+]]:4 = scf.for %[[IV:.+]] = %{{.+}} to %[[K]] step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[BASE:.+]] = %[[IN]], %[[SIZE:.+]] = %[[N]], %[[STRIDE:.+]] = %[[C1]]) -> (tensor<16xf32>, !tk.ptr<f32>, i32, i64) : i32 {
// CHECK:   tk.splat %[[SIZE]] : i32 -> tensor<16xi32>
// CHECK:   %[[SPLAT:.+]] = tk.splat %[[BASE]] : !tk.ptr<f32> -> tensor<16x!tk.ptr<f32>>
// CHECK:   %[[PTRS:.+]] = tk.addptr %[[SPLAT]], %{{.+}} : tensor<16x!tk.ptr<f32>>, tensor<16xi64>
// CHECK:   %[[X:.+]] = tk.load %[[PTRS]], %{{.+}} : (tensor<16x!tk.ptr<f32>>, tensor<16xi1>) -> tensor<16xf32>
// CHECK:   %[[NEXT:.+]] = tk.addptr %[[IN]], %[[N]] : !tk.ptr<f32>, i32 -> !tk.ptr<f32>
// CHECK:   scf.yield %{{.+}}, %[[NEXT]], %[[N]], %[[C1]] : tensor<16xf32>, !tk.ptr<f32>, i32, i64
// CHECK-NOT: tk.descriptor
// CHECK-NOT: tk.make_tensor_descriptor
func.func @loop(%in: !tk.ptr<f32>, %n: i32, %k: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s1 = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %d0 = tk.make_tensor_descriptor %in, [%n], [%s1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16xf32>>
  %r:2 = scf.for %iv = %c0 to %k step %c1 iter_args(%acc = %zero, %d = %d0) -> (tensor<16xf32>, !tk.tensordesc<tensor<16xf32>>) : i32 {
    %x = tk.descriptor_load %d[%c0] : !tk.tensordesc<tensor<16xf32>> -> tensor<16xf32>
    %sum = arith.addf %acc, %x : tensor<16xf32>
    %base = tk.addptr %in, %n : !tk.ptr<f32>, i32 -> !tk.ptr<f32>
    %next = tk.make_tensor_descriptor %base, [%n], [%s1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16xf32>>
    scf.yield %sum, %next : tensor<16xf32>, !tk.tensordesc<tensor<16xf32>>
  }
  func.return %r#0 : tensor<16xf32>
}

// -----

// A descriptor chosen by a branch: the scf.if yields its parts.
// CHECK-LABEL: func.func @branch
// CHECK: %[[P:.+]]:3 = scf.if %{{.+}} -> (!tk.ptr<f32>, i32, i64) {
// CHECK:   scf.yield %{{.+}}, %{{.+}}, %{{.+}} : !tk.ptr<f32>, i32, i64
// CHECK: } else {
// CHECK:   scf.yield %{{.+}}, %{{.+}}, %{{.+}} : !tk.ptr<f32>, i32, i64
// CHECK: }
// CHECK: tk.splat %[[P]]#0 : !tk.ptr<f32> -> tensor<16x!tk.ptr<f32>>
// CHECK: tk.store
// CHECK-NOT: tk.descriptor
func.func @branch(%a: !tk.ptr<f32>, %b: !tk.ptr<f32>, %n: i32, %c: i1, %x: tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %s1 = arith.constant 1 : i64
  %d = scf.if %c -> (!tk.tensordesc<tensor<16xf32>>) {
    %da = tk.make_tensor_descriptor %a, [%n], [%s1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16xf32>>
    scf.yield %da : !tk.tensordesc<tensor<16xf32>>
  } else {
    %db = tk.make_tensor_descriptor %b, [%n], [%s1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16xf32>>
    scf.yield %db : !tk.tensordesc<tensor<16xf32>>
  }
  tk.descriptor_store %d[%c0], %x : !tk.tensordesc<tensor<16xf32>>, tensor<16xf32>
  func.return
}

// -----

// Through an scf.while: both regions' arguments and the results become the parts.
// CHECK-LABEL: func.func @while
// CHECK: scf.while (%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) : (i32, !tk.ptr<f32>, i32, i64) -> (i32, !tk.ptr<f32>, i32, i64) {
// CHECK: scf.condition(%{{.+}}) %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : i32, !tk.ptr<f32>, i32, i64
// CHECK: ^bb0(%{{.+}}: i32, %[[B:.+]]: !tk.ptr<f32>, %{{.+}}: i32, %{{.+}}: i64):
// CHECK: tk.splat %[[B]] : !tk.ptr<f32> -> tensor<16x!tk.ptr<f32>>
// CHECK: tk.store
// CHECK-NOT: tk.descriptor
func.func @while(%a: !tk.ptr<f32>, %n: i32, %x: tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s1 = arith.constant 1 : i64
  %d0 = tk.make_tensor_descriptor %a, [%n], [%s1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16xf32>>
  %r:2 = scf.while (%i = %c0, %d = %d0) : (i32, !tk.tensordesc<tensor<16xf32>>) -> (i32, !tk.tensordesc<tensor<16xf32>>) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %d : i32, !tk.tensordesc<tensor<16xf32>>
  } do {
  ^bb0(%j: i32, %e: !tk.tensordesc<tensor<16xf32>>):
    tk.descriptor_store %e[%c0], %x : !tk.tensordesc<tensor<16xf32>>, tensor<16xf32>
    %next = arith.addi %j, %c1 : i32
    %base = tk.addptr %a, %next : !tk.ptr<f32>, i32 -> !tk.ptr<f32>
    %f = tk.make_tensor_descriptor %base, [%n], [%s1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16xf32>>
    scf.yield %next, %f : i32, !tk.tensordesc<tensor<16xf32>>
  }
  func.return
}

// -----

func.func @select(%a: !tk.ptr<f32>, %n: i32, %c: i1, %i: i32) -> tensor<16xf32> {
  %s1 = arith.constant 1 : i64
  %d = tk.make_tensor_descriptor %a, [%n], [%s1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16xf32>>
  %e = tk.make_tensor_descriptor %a, [%i], [%s1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16xf32>>
  // expected-error @+1 {{a tensor descriptor can only be made (tk::make_tensor_descriptor), loaded from, stored to, combined into and carried through loops and branches; 'arith.select' takes or makes one}}
  %f = arith.select %c, %d, %e : !tk.tensordesc<tensor<16xf32>>
  %x = tk.descriptor_load %f[%i] : !tk.tensordesc<tensor<16xf32>> -> tensor<16xf32>
  func.return %x : tensor<16xf32>
}

// -----

func.func @argument(%d: !tk.tensordesc<tensor<16xf32>>, %i: i32) -> tensor<16xf32> {
  // expected-error @+1 {{the tensor descriptor must be made (tk::make_tensor_descriptor) in the kernel itself, not passed in as an argument}}
  %x = tk.descriptor_load %d[%i] : !tk.tensordesc<tensor<16xf32>> -> tensor<16xf32>
  func.return %x : tensor<16xf32>
}

// -----

// A gather: the rows are the given indices (no range), each inside [0, M), times the row stride;
// the columns col + arange(16), inside [0, N). A scatter stores through the same pointers.
// CHECK-LABEL: func.func @gather_scatter
// CHECK-SAME: (%[[IN:[^:]+]]: !tk.ptr<f32>, %[[OUT:[^:]+]]: !tk.ptr<f32>, %[[M:[^:]+]]: i32, %[[N:[^:]+]]: i32, %[[LD:[^:]+]]: i64, %[[ROWS:[^:]+]]: tensor<8xi32>, %[[J:[^:]+]]: i32)
// CHECK-NOT: tk.make_range {end = 8
// CHECK: %[[ROW:.+]] = tk.expand_dims %[[ROWS]] {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
// CHECK: %[[MS:.+]] = tk.splat %[[M]] : i32 -> tensor<8x1xi32>
// CHECK: arith.cmpi slt, %[[ROW]], %[[MS]] : tensor<8x1xi32>
// CHECK: %[[ROW64:.+]] = arith.extsi %[[ROW]] : tensor<8x1xi32> to tensor<8x1xi64>
// CHECK: %[[LDS:.+]] = tk.splat %[[LD]] : i64 -> tensor<8x1xi64>
// CHECK: arith.muli %[[ROW64]], %[[LDS]] : tensor<8x1xi64>
// CHECK: tk.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK: tk.splat %[[J]] : i32 -> tensor<16xi32>
// CHECK: %[[X:.+]] = tk.load %{{.+}}, %{{.+}}, %{{.+}} : (tensor<8x16x!tk.ptr<f32>>, tensor<8x16xi1>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: tk.splat %[[OUT]] : !tk.ptr<f32> -> tensor<8x16x!tk.ptr<f32>>
// CHECK: tk.store %{{.+}}, %[[X]], %{{.+}} : (tensor<8x16x!tk.ptr<f32>>, tensor<8x16xf32>, tensor<8x16xi1>) -> ()
// CHECK-NOT: tk.descriptor
func.func @gather_scatter(%in: !tk.ptr<f32>, %out: !tk.ptr<f32>, %m: i32, %n: i32, %ld: i64, %rows: tensor<8xi32>, %j: i32) {
  %c1 = arith.constant 1 : i64
  %d = tk.make_tensor_descriptor %in, [%m, %n], [%ld, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<1x16xf32>>
  %e = tk.make_tensor_descriptor %out, [%m, %n], [%ld, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<1x16xf32>>
  %x = tk.descriptor_gather %d[%rows, %j] {nan_padding} : !tk.tensordesc<tensor<1x16xf32>>, tensor<8xi32> -> tensor<8x16xf32>
  tk.descriptor_scatter %e[%rows, %j], %x : !tk.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, tensor<8x16xf32>
  func.return
}

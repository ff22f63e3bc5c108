// tk-rewrite-tensor-descriptors: descriptor loads, stores and reductions become loads, stores
// and atomics through pointer blocks masked to the tensor; the last stride is 1, so the last
// dimension stays contiguous (no multiplication there).
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

func.func @argument(%d: !tk.tensordesc<tensor<16xf32>>, %i: i32) -> tensor<16xf32> {
  // expected-error @+1 {{the tensor descriptor must be made (tk::make_tensor_descriptor) in the kernel itself, not carried into it by a loop, a branch or an argument}}
  %x = tk.descriptor_load %d[%i] : !tk.tensordesc<tensor<16xf32>> -> tensor<16xf32>
  func.return %x : tensor<16xf32>
}

// tk-decompose-batched-dot: a 3-D tk.dot becomes one 2-D tk.dot per batch. The batch dimension
// moves last and is halved by reshape + split (even batches left, odd right); the products are
// joined back in the inverse order. A splat accumulator becomes one 2-D constant.
// RUN: tk-opt %s -split-input-file -tk-decompose-batched-dot -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @two
// CHECK-SAME: (%[[A:[^:]+]]: tensor<2x32x16xf16>, %[[B:[^:]+]]: tensor<2x16x64xf16>, %[[C:[^:]+]]: tensor<2x32x64xf32>)
// CHECK: %[[AT:.+]] = tk.trans %[[A]] {order = array<i32: 1, 2, 0>} : tensor<2x32x16xf16> -> tensor<32x16x2xf16>
// CHECK: %[[AP:.+]] = tk.reshape %[[AT]] : tensor<32x16x2xf16> -> tensor<32x16x1x2xf16>
// CHECK: %[[A0:.+]], %[[A1:.+]] = tk.split %[[AP]] : tensor<32x16x1x2xf16> -> tensor<32x16x1xf16>, tensor<32x16x1xf16>
// CHECK: %[[X0:.+]] = tk.reshape %[[A0]] : tensor<32x16x1xf16> -> tensor<32x16xf16>
// CHECK: %[[X1:.+]] = tk.reshape %[[A1]] : tensor<32x16x1xf16> -> tensor<32x16xf16>
// CHECK: %[[Y0:.+]] = tk.reshape %{{.+}} : tensor<16x64x1xf16> -> tensor<16x64xf16>
// CHECK: %[[Y1:.+]] = tk.reshape %{{.+}} : tensor<16x64x1xf16> -> tensor<16x64xf16>
// CHECK: %[[Z0:.+]] = tk.reshape %{{.+}} : tensor<32x64x1xf32> -> tensor<32x64xf32>
// CHECK: %[[Z1:.+]] = tk.reshape %{{.+}} : tensor<32x64x1xf32> -> tensor<32x64xf32>
// CHECK: %[[D0:.+]] = tk.dot %[[X0]], %[[Y0]], %[[Z0]] {input_precision = "ieee", max_num_imprecise_acc = 32 : i32} : tensor<32x16xf16> * tensor<16x64xf16> + tensor<32x64xf32> -> tensor<32x64xf32>
// CHECK: %[[D1:.+]] = tk.dot %[[X1]], %[[Y1]], %[[Z1]] {input_precision = "ieee", max_num_imprecise_acc = 32 : i32}
// CHECK: %[[E0:.+]] = tk.reshape %[[D0]] : tensor<32x64xf32> -> tensor<32x64x1xf32>
// CHECK: %[[E1:.+]] = tk.reshape %[[D1]] : tensor<32x64xf32> -> tensor<32x64x1xf32>
// CHECK: %[[J:.+]] = tk.join %[[E0]], %[[E1]] : tensor<32x64x1xf32>, tensor<32x64x1xf32> -> tensor<32x64x1x2xf32>
// CHECK: %[[R:.+]] = tk.reshape %[[J]] : tensor<32x64x1x2xf32> -> tensor<32x64x2xf32>
// CHECK: %[[D:.+]] = tk.trans %[[R]] {order = array<i32: 2, 0, 1>} : tensor<32x64x2xf32> -> tensor<2x32x64xf32>
// CHECK: return %[[D]]
func.func @two(%a: tensor<2x32x16xf16>, %b: tensor<2x16x64xf16>, %c: tensor<2x32x64xf32>) -> tensor<2x32x64xf32> {
  %d = tk.dot %a, %b, %c {input_precision = "ieee", max_num_imprecise_acc = 32 : i32} : tensor<2x32x16xf16> * tensor<2x16x64xf16> + tensor<2x32x64xf32> -> tensor<2x32x64xf32>
  func.return %d : tensor<2x32x64xf32>
}

// -----

// Four batches from a zero accumulator: two halvings, batches in the order 0, 2 | 1, 3 of the
// splits; each product reads the one 2-D zero constant.
// CHECK-LABEL: func.func @four_from_zero
// CHECK: %[[Z:.+]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK-COUNT-4: tk.dot %{{.+}}, %{{.+}}, %[[Z]] {input_precision = "tf32"}
// CHECK-NOT: tk.dot
// CHECK: tk.trans %{{.+}} {order = array<i32: 2, 0, 1>} : tensor<16x16x4xf32> -> tensor<4x16x16xf32>
func.func @four_from_zero(%a: tensor<4x16x16xf32>, %b: tensor<4x16x16xf32>) -> tensor<4x16x16xf32> {
  %c = arith.constant dense<0.0> : tensor<4x16x16xf32>
  %d = tk.dot %a, %b, %c {input_precision = "tf32"} : tensor<4x16x16xf32> * tensor<4x16x16xf32> + tensor<4x16x16xf32> -> tensor<4x16x16xf32>
  func.return %d : tensor<4x16x16xf32>
}

// -----

// 2-D products are left alone.
// CHECK-LABEL: func.func @matrix
// CHECK-NEXT: tk.dot
// CHECK-NEXT: return
func.func @matrix(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<16x16xf16> * tensor<16x16xf16> + tensor<16x16xf32> -> tensor<16x16xf32>
  func.return %d : tensor<16x16xf32>
}

// -----

func.func @three(%a: tensor<3x16x16xf16>, %b: tensor<3x16x16xf16>, %c: tensor<3x16x16xf32>) -> tensor<3x16x16xf32> {
  // expected-error @+1 {{the batch size of a 3-D tk.dot must be a power of two, got 3}}
  %d = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<3x16x16xf16> * tensor<3x16x16xf16> + tensor<3x16x16xf32> -> tensor<3x16x16xf32>
  func.return %d : tensor<3x16x16xf32>
}

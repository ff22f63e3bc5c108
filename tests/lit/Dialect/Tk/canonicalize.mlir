// Folders and canonicalization patterns of tk ops (lib/Dialect/Tk/IR/Ops.cpp): shape ops of
// splats are splats, identities fold away, `+ 0` on pointers folds; CSE merges the repeated
// ranges and splats the front end prints.
// RUN: tk-opt %s -split-input-file -canonicalize -cse | FileCheck %s

// CHECK-LABEL: func.func @splats
// CHECK-SAME:  (%[[X:.+]]: f32, %[[P:.+]]: !tk.ptr<f32>)
// CHECK-DAG:   %[[C:.+]] = arith.constant dense<3> : tensor<4x8xi32>
// CHECK-DAG:   %[[S:.+]] = tk.splat %[[X]] : f32 -> tensor<4x8xf32>
// CHECK-DAG:   %[[T:.+]] = tk.splat %[[X]] : f32 -> tensor<8x4xf32>
// CHECK-DAG:   %[[R:.+]] = tk.splat %[[X]] : f32 -> tensor<32xf32>
// CHECK:       return %[[C]], %[[S]], %[[T]], %[[R]], %[[P]]
func.func @splats(%x: f32, %p: !tk.ptr<f32>) -> (tensor<4x8xi32>, tensor<4x8xf32>, tensor<8x4xf32>, tensor<32xf32>, !tk.ptr<f32>) {
  %c3 = arith.constant 3 : i32
  %0 = tk.splat %c3 : i32 -> tensor<4x1xi32>
  %1 = tk.broadcast %0 : tensor<4x1xi32> -> tensor<4x8xi32>
  %2 = tk.splat %x : f32 -> tensor<8xf32>
  %3 = tk.expand_dims %2 {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %4 = tk.broadcast %3 : tensor<1x8xf32> -> tensor<4x8xf32>
  %5 = tk.trans %4 {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %6 = tk.reshape %4 : tensor<4x8xf32> -> tensor<32xf32>
  %c0 = arith.constant 0 : i32
  %7 = tk.addptr %p, %c0 : !tk.ptr<f32>, i32 -> !tk.ptr<f32>
  func.return %1, %4, %5, %6, %7 : tensor<4x8xi32>, tensor<4x8xf32>, tensor<8x4xf32>, tensor<32xf32>, !tk.ptr<f32>
}

// -----

// CHECK-LABEL: func.func @identities
// CHECK-SAME:  (%[[A:.+]]: tensor<4x4xf32>, %[[P:.+]]: tensor<4x!tk.ptr<f32>>)
// CHECK:       %[[T:.+]] = tk.trans %[[A]] {order = array<i32: 1, 0>}
// CHECK:       return %[[A]], %[[A]], %[[A]], %[[T]], %[[P]]
func.func @identities(%a: tensor<4x4xf32>, %p: tensor<4x!tk.ptr<f32>>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x!tk.ptr<f32>>) {
  %0 = tk.broadcast %a : tensor<4x4xf32> -> tensor<4x4xf32>
  %1 = tk.reshape %a : tensor<4x4xf32> -> tensor<4x4xf32>
  %2 = tk.trans %a {order = array<i32: 0, 1>} : tensor<4x4xf32> -> tensor<4x4xf32>
  // Same type, but a real transpose: kept.
  %3 = tk.trans %a {order = array<i32: 1, 0>} : tensor<4x4xf32> -> tensor<4x4xf32>
  %zeros = arith.constant dense<0> : tensor<4xi32>
  %4 = tk.addptr %p, %zeros : tensor<4x!tk.ptr<f32>>, tensor<4xi32> -> tensor<4x!tk.ptr<f32>>
  func.return %0, %1, %2, %3, %4 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x!tk.ptr<f32>>
}

// -----

// CHECK-LABEL: func.func @cse
// CHECK-COUNT-1: tk.make_range
// CHECK-COUNT-1: tk.splat
// CHECK-NOT:   tk.make_range
// CHECK:       arith.addi
// CHECK-NOT:   arith.addi
func.func @cse(%n: i32) -> (tensor<128xi32>, tensor<128xi32>) {
  %0 = tk.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %1 = tk.splat %n : i32 -> tensor<128xi32>
  %2 = arith.addi %0, %1 : tensor<128xi32>
  %3 = tk.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %4 = tk.splat %n : i32 -> tensor<128xi32>
  %5 = arith.addi %3, %4 : tensor<128xi32>
  func.return %2, %5 : tensor<128xi32>, tensor<128xi32>
}

// tk-assign-layouts on tk.join, tk.split, tk.cat, tk.flip and tk.gather: join and cat take the
// first operand's blocked layout for both operands, join adding a last dimension of 2 held by
// each thread; split gives its halves the operand's layout less that dimension, converting an
// operand whose pairs are not in one thread; flip and gather follow their operand, as
// elementwise ops do.
// RUN: tk-opt %s -split-input-file -tk-assign-layouts=num-warps=4 | FileCheck %s

// CHECK: #[[B:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[P:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @join_then_split
// CHECK: %[[J:.*]] = tk.join %{{.*}}, %{{.*}} : tensor<128xf32, #[[B]]>, tensor<128xf32, #[[B]]> -> tensor<128x2xf32, #[[P]]>
// CHECK-NOT: tkgpu.convert_layout
// CHECK: tk.split %[[J]] : tensor<128x2xf32, #[[P]]> -> tensor<128xf32, #[[B]]>, tensor<128xf32, #[[B]]>
func.func @join_then_split(%a: tensor<128xf32>, %b: tensor<128xf32>) -> (tensor<128xf32>, tensor<128xf32>) {
  %0 = "tk.join"(%a, %b) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128x2xf32>
  %1:2 = "tk.split"(%0) : (tensor<128x2xf32>) -> (tensor<128xf32>, tensor<128xf32>)
  func.return %1#0, %1#1 : tensor<128xf32>, tensor<128xf32>
}

// -----

// A loaded [64, 2] tile in its default layout (threads along the pairs too) is converted to one
// with each pair in a thread before it is split.
// CHECK: #[[D:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[H:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[P:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @split_converts
// CHECK: tkgpu.convert_layout %{{.*}} : tensor<64x2xi32, #[[D]]> -> tensor<64x2xi32, #[[P]]>
// CHECK: tk.split %{{.*}} : tensor<64x2xi32, #[[P]]> -> tensor<64xi32, #[[H]]>, tensor<64xi32, #[[H]]>
func.func @split_converts(%x: tensor<64x2xi32>) -> tensor<64xi32> {
  %0:2 = "tk.split"(%x) : (tensor<64x2xi32>) -> (tensor<64xi32>, tensor<64xi32>)
  func.return %0#1 : tensor<64xi32>
}

// -----

// Scalar halves: every thread holds both elements of the pair.
// CHECK: #[[S:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @split_scalars
// CHECK: tk.split %{{.*}} : tensor<2xf32, #[[S]]> -> f32, f32
func.func @split_scalars(%x: tensor<2xf32>) -> f32 {
  %0:2 = "tk.split"(%x) : (tensor<2xf32>) -> (f32, f32)
  func.return %0#0 : f32
}

// -----

// CHECK: #[[B:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @cat_flip_gather
// CHECK: tk.cat %{{.*}}, %{{.*}} : tensor<128xf32, #[[B]]>, tensor<128xf32, #[[B]]> -> tensor<256xf32, #[[B]]>
// CHECK: tk.flip %{{.*}} {axis = 0 : i32} : tensor<256xf32, #[[B]]> -> tensor<256xf32, #[[B]]>
// CHECK: tk.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : tensor<256xf32, #[[B]]>, tensor<256xi32, #[[B]]> -> tensor<256xf32, #[[B]]>
func.func @cat_flip_gather(%a: tensor<128xf32>, %b: tensor<128xf32>, %i: tensor<256xi32>) -> tensor<256xf32> {
  %0 = "tk.cat"(%a, %b) : (tensor<128xf32>, tensor<128xf32>) -> tensor<256xf32>
  %1 = "tk.flip"(%0) <{axis = 0 : i32}> : (tensor<256xf32>) -> tensor<256xf32>
  %2 = "tk.gather"(%1, %i) <{axis = 0 : i32}> : (tensor<256xf32>, tensor<256xi32>) -> tensor<256xf32>
  func.return %2 : tensor<256xf32>
}

// -----

// An interleave (a join, then its pairs merged into the last dimension) and its inverse keep
// every element in its thread: the reshape takes the layout with the pairs' runs merged
// (sizePerThread 2), and the reshape back splits them out again for tk.split.
// CHECK: #[[D:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[P:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK: #[[M:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @interleave_and_back
// CHECK-NOT: tkgpu.convert_layout
// CHECK: %[[J:.+]] = tk.join %{{.*}}, %{{.*}} : tensor<64x32xi8, #[[D]]>, tensor<64x32xi8, #[[D]]> -> tensor<64x32x2xi8, #[[P]]>
// CHECK-NEXT: %[[I:.+]] = tk.reshape %[[J]] : tensor<64x32x2xi8, #[[P]]> -> tensor<64x64xi8, #[[M]]>
// CHECK-NEXT: %[[B:.+]] = tk.reshape %[[I]] : tensor<64x64xi8, #[[M]]> -> tensor<64x32x2xi8, #[[P]]>
// CHECK-NEXT: tk.split %[[B]] : tensor<64x32x2xi8, #[[P]]> -> tensor<64x32xi8, #[[D]]>, tensor<64x32xi8, #[[D]]>
func.func @interleave_and_back(%a: tensor<64x32xi8>, %b: tensor<64x32xi8>) -> tensor<64x32xi8> {
  %0 = "tk.join"(%a, %b) : (tensor<64x32xi8>, tensor<64x32xi8>) -> tensor<64x32x2xi8>
  %1 = "tk.reshape"(%0) : (tensor<64x32x2xi8>) -> tensor<64x64xi8>
  %2 = "tk.reshape"(%1) : (tensor<64x64xi8>) -> tensor<64x32x2xi8>
  %3:2 = "tk.split"(%2) : (tensor<64x32x2xi8>) -> (tensor<64x32xi8>, tensor<64x32xi8>)
  func.return %3#1 : tensor<64x32xi8>
}

// RUN: tk-opt %s -split-input-file -tk-remove-layout-conversions | FileCheck %s

#a = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Identities go; A -> B -> A is nothing; A -> B -> C is A -> C.
// CHECK-LABEL: func.func @chains
// CHECK-SAME: (%[[X:.+]]: tensor<512xf32, #[[A:[a-z0-9]+]]>)
// CHECK-NEXT: %[[XC:.+]] = tkgpu.convert_layout %[[X]] : tensor<512xf32, #[[A]]> -> tensor<512xf32, #[[C:[a-z0-9]+]]>
// CHECK-NEXT: return %[[X]], %[[XC]]
func.func @chains(%x: tensor<512xf32, #a>) -> (tensor<512xf32, #a>, tensor<512xf32, #c>) {
  %0 = tkgpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #a>
  %1 = tkgpu.convert_layout %0 : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %2 = tkgpu.convert_layout %1 : tensor<512xf32, #b> -> tensor<512xf32, #a>
  %3 = tkgpu.convert_layout %1 : tensor<512xf32, #b> -> tensor<512xf32, #c>
  func.return %2, %3 : tensor<512xf32, #a>, tensor<512xf32, #c>
}

// -----

#a = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Ranges, splats and constants are rebuilt in the layout they are converted to.
// CHECK: #[[B:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [4]
// CHECK-LABEL: func.func @cheap
// CHECK-NEXT: %[[CST:.+]] = arith.constant dense<1.000000e+00> : tensor<512xf32, #[[B]]>
// CHECK-NEXT: %[[R:.+]] = tk.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #[[B]]>
// CHECK-NEXT: %[[S:.+]] = tk.splat %{{.*}} : i32 -> tensor<512xi32, #[[B]]>
// CHECK-NEXT: return %[[R]], %[[S]], %[[CST]]
func.func @cheap(%n: i32) -> (tensor<512xi32, #b>, tensor<512xi32, #b>, tensor<512xf32, #b>) {
  %0 = tk.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #a>
  %1 = tkgpu.convert_layout %0 : tensor<512xi32, #a> -> tensor<512xi32, #b>
  %2 = tk.splat %n : i32 -> tensor<512xi32, #a>
  %3 = tkgpu.convert_layout %2 : tensor<512xi32, #a> -> tensor<512xi32, #b>
  %4 = arith.constant dense<1.0> : tensor<512xf32, #a>
  %5 = tkgpu.convert_layout %4 : tensor<512xf32, #a> -> tensor<512xf32, #b>
  func.return %1, %3, %5 : tensor<512xi32, #b>, tensor<512xi32, #b>, tensor<512xf32, #b>
}

// -----

#a = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Backward: the conversion of an elementwise op's result is hoisted above it when its operands
// are free in the target layout (here converted from it, and a constant).
// CHECK-LABEL: func.func @hoist
// CHECK-SAME: (%[[X:.+]]: tensor<512xf32, #[[B:[a-z0-9]+]]>)
// CHECK-NEXT: %[[CST:.+]] = arith.constant dense<2.000000e+00> : tensor<512xf32, #[[B]]>
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[X]], %[[CST]] : tensor<512xf32, #[[B]]>
// CHECK-NEXT: %[[E:.+]] = math.exp %[[M]] : tensor<512xf32, #[[B]]>
// CHECK-NEXT: return %[[E]]
func.func @hoist(%x: tensor<512xf32, #b>) -> tensor<512xf32, #b> {
  %0 = tkgpu.convert_layout %x : tensor<512xf32, #b> -> tensor<512xf32, #a>
  %cst = arith.constant dense<2.0> : tensor<512xf32, #a>
  %1 = arith.mulf %0, %cst : tensor<512xf32, #a>
  %2 = math.exp %1 : tensor<512xf32, #a>
  %3 = tkgpu.convert_layout %2 : tensor<512xf32, #a> -> tensor<512xf32, #b>
  func.return %3 : tensor<512xf32, #b>
}

// -----

#b1d = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#col = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#tile = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>

// Backward over a chain (what tk-assign-layouts leaves for a tile's row offsets): the range is
// made in the slice of the tile's layout, and expand_dims, muli and broadcast run in it.
// CHECK: #[[TILE:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK: #[[ROWS:[a-z0-9]+]] = #tkgpu.slice<{dim = 1, parent = #[[TILE]]}>
// CHECK-LABEL: func.func @rows
// CHECK-NOT: tkgpu.convert_layout
// CHECK: tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #[[ROWS]]>
// CHECK-NEXT: tk.expand_dims %{{.*}} {axis = 1 : i32} : tensor<32xi32, #[[ROWS]]> -> tensor<32x1xi32, #[[TILE]]>
// CHECK: arith.muli %{{.*}}, %{{.*}} : tensor<32x1xi32, #[[TILE]]>
// CHECK-NEXT: tk.broadcast %{{.*}} : tensor<32x1xi32, #[[TILE]]> -> tensor<32x64xi32, #[[TILE]]>
// CHECK-NOT: tkgpu.convert_layout
func.func @rows(%stride: i32) -> tensor<32x64xi32, #tile> {
  %0 = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b1d>
  %1 = tkgpu.convert_layout %0 : tensor<32xi32, #b1d> -> tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #col}>>
  %2 = tk.expand_dims %1 {axis = 1 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #col}>> -> tensor<32x1xi32, #col>
  %3 = tk.splat %stride : i32 -> tensor<32x1xi32, #col>
  %4 = arith.muli %2, %3 : tensor<32x1xi32, #col>
  %5 = tkgpu.convert_layout %4 : tensor<32x1xi32, #col> -> tensor<32x1xi32, #tile>
  %6 = tk.broadcast %5 : tensor<32x1xi32, #tile> -> tensor<32x64xi32, #tile>
  func.return %6 : tensor<32x64xi32, #tile>
}

// -----

#a = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Forward: two conversions from one layout into an elementwise op become one after it.
// CHECK-LABEL: func.func @sink
// CHECK-SAME: (%[[X:.+]]: tensor<512xf32, #[[A:[a-z0-9]+]]>, %[[Y:.+]]: tensor<512xf32, #[[A]]>)
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[X]], %[[Y]] : tensor<512xf32, #[[A]]>
// CHECK-NEXT: %[[C:.+]] = tkgpu.convert_layout %[[S]] : tensor<512xf32, #[[A]]> -> tensor<512xf32, #[[B:[a-z0-9]+]]>
// CHECK-NEXT: return %[[C]]
func.func @sink(%x: tensor<512xf32, #a>, %y: tensor<512xf32, #a>) -> tensor<512xf32, #b> {
  %0 = tkgpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %1 = tkgpu.convert_layout %y : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %2 = arith.addf %0, %1 : tensor<512xf32, #b>
  func.return %2 : tensor<512xf32, #b>
}

// -----

#a = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Not handled: loads are anchors (their layout is coalesce's), and rebuilding the exp in #b
// would need %x in #b, which is not free; both conversions stay.
// CHECK-LABEL: func.func @kept
// CHECK: tk.load %{{.*}} -> tensor<512xf32, #[[A:[a-z0-9]+]]>
// CHECK: tkgpu.convert_layout %{{.*}} : tensor<512xf32, #[[A]]> -> tensor<512xf32, #[[B:[a-z0-9]+]]>
// CHECK: %[[E:.+]] = math.exp %{{.*}} : tensor<512xf32, #[[A]]>
// CHECK: tkgpu.convert_layout %[[E]] : tensor<512xf32, #[[A]]> -> tensor<512xf32, #[[B]]>
func.func @kept(%p: tensor<512x!tk.ptr<f32>, #a>, %x: tensor<512xf32, #a>) -> (tensor<512xf32, #b>, tensor<512xf32, #b>, tensor<512xf32, #a>) {
  %0 = tk.load %p : (tensor<512x!tk.ptr<f32>, #a>) -> tensor<512xf32, #a>
  %1 = tkgpu.convert_layout %0 : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %2 = math.exp %x : tensor<512xf32, #a>
  %3 = tkgpu.convert_layout %2 : tensor<512xf32, #a> -> tensor<512xf32, #b>
  func.return %1, %3, %2 : tensor<512xf32, #b>, tensor<512xf32, #b>, tensor<512xf32, #a>
}

// -----

#a = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#a1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A reduction runs in its operand's layout: the conversion moves to its (smaller) result, and
// from a 1-D reduction (a scalar) it disappears.
// CHECK-DAG:   #[[B:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 4]
// CHECK-DAG:   #[[SA:[a-z0-9]+]] = #tkgpu.slice<{dim = 1, parent = #[[A:[a-z0-9]+]]}>
// CHECK-DAG:   #[[SB:[a-z0-9]+]] = #tkgpu.slice<{dim = 1, parent = #[[B]]}>
// CHECK-LABEL: func.func @reduce_first
// CHECK-SAME:  (%[[X:.+]]: tensor<4x512xf32, #[[B]]>, %[[Y:.+]]: tensor<512xf32, #[[B1:[a-z0-9]+]]>)
// CHECK:       %[[R:.+]] = tk.reduce %[[X]] {axis = 1 : i32} : (tensor<4x512xf32, #[[B]]>) -> tensor<4xf32, #[[SB]]>
// CHECK:       tkgpu.convert_layout %[[R]] : tensor<4xf32, #[[SB]]> -> tensor<4xf32, #[[SA]]>
// CHECK:       tk.reduce %[[Y]] {axis = 0 : i32} : (tensor<512xf32, #[[B1]]>) -> f32
// CHECK-NOT:   tkgpu.convert_layout
// CHECK:       return
func.func @reduce_first(%x: tensor<4x512xf32, #b>, %y: tensor<512xf32, #b1>) -> (tensor<4xf32, #tkgpu.slice<{dim = 1, parent = #a}>>, f32) {
  %0 = tkgpu.convert_layout %x : tensor<4x512xf32, #b> -> tensor<4x512xf32, #a>
  %1 = tk.reduce %0 {axis = 1 : i32} : (tensor<4x512xf32, #a>) -> tensor<4xf32, #tkgpu.slice<{dim = 1, parent = #a}>> {
  ^bb0(%l: f32, %r: f32):
    %m = arith.maxnumf %l, %r : f32
    tk.reduce.return %m : f32
  }
  %2 = tkgpu.convert_layout %y : tensor<512xf32, #b1> -> tensor<512xf32, #a1>
  %3 = tk.reduce %2 {axis = 0 : i32} : (tensor<512xf32, #a1>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tk.reduce.return %s : f32
  }
  func.return %1, %3 : tensor<4xf32, #tkgpu.slice<{dim = 1, parent = #a}>>, f32
}

// -----

#a = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A loop accumulating loaded data carries the accumulator in the load's layout: the conversion
// in every iteration goes (the zero is rebuilt in #b), and so does the one after the loop (the
// reduction runs in #b).
// CHECK-DAG:   #[[B:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [4]
// CHECK-LABEL: func.func @loop_carried
// CHECK:       %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<512xf32, #[[B]]>
// CHECK:       %[[SUM:.+]] = scf.for {{.*}} iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (tensor<512xf32, #[[B]]>)
// CHECK-NEXT:    %[[X:.+]] = tk.load %{{.*}} -> tensor<512xf32, #[[B]]>
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[ACC]], %[[X]] : tensor<512xf32, #[[B]]>
// CHECK-NEXT:    scf.yield %[[S]] : tensor<512xf32, #[[B]]>
// CHECK:       tk.reduce %[[SUM]] {axis = 0 : i32} : (tensor<512xf32, #[[B]]>) -> f32
// CHECK-NOT:   tkgpu.convert_layout
func.func @loop_carried(%p: tensor<512x!tk.ptr<f32>, #b>, %n: i32) -> f32 {
  %zero = arith.constant dense<0.0> : tensor<512xf32, #a>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<512xf32, #a>) : i32 {
    %x = tk.load %p : (tensor<512x!tk.ptr<f32>, #b>) -> tensor<512xf32, #b>
    %xc = tkgpu.convert_layout %x : tensor<512xf32, #b> -> tensor<512xf32, #a>
    %s = arith.addf %a, %xc : tensor<512xf32, #a>
    scf.yield %s : tensor<512xf32, #a>
  }
  %r = tk.reduce %acc {axis = 0 : i32} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %m = arith.addf %l, %r : f32
    tk.reduce.return %m : f32
  }
  func.return %r : f32
}

// -----

#a = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// The squares of a masked difference (a value used twice, by one op, and a mask used by the
// load too): rebuilt in #b, so the loop carries #b as above. A loop-carried value computed from
// another function argument in #a keeps #a: nothing would make it free in #b.
// CHECK-DAG:   #[[A:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1]
// CHECK-DAG:   #[[B:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [4]
// CHECK-LABEL: func.func @loop_carried_squares
// CHECK:       scf.for {{.*}} -> (tensor<512xf32, #[[B]]>, tensor<512xf32, #[[A]]>)
// CHECK-NOT:     tkgpu.convert_layout
// CHECK:         scf.yield {{.*}} : tensor<512xf32, #[[B]]>, tensor<512xf32, #[[A]]>
func.func @loop_carried_squares(%p: tensor<512x!tk.ptr<f32>, #b>, %y: tensor<512xf32, #a>, %m: f32, %n: i32) -> (tensor<512xf32, #a>, tensor<512xf32, #a>) {
  %zero = arith.constant dense<0.0> : tensor<512xf32, #a>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero, %t = %zero) -> (tensor<512xf32, #a>, tensor<512xf32, #a>) : i32 {
    %r = tk.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %ns = tk.splat %n : i32 -> tensor<512xi32, #b>
    %mask = arith.cmpi slt, %r, %ns : tensor<512xi32, #b>
    %x = tk.load %p, %mask : (tensor<512x!tk.ptr<f32>, #b>, tensor<512xi1, #b>) -> tensor<512xf32, #b>
    %xc = tkgpu.convert_layout %x : tensor<512xf32, #b> -> tensor<512xf32, #a>
    %maskc = tkgpu.convert_layout %mask : tensor<512xi1, #b> -> tensor<512xi1, #a>
    %ms = tk.splat %m : f32 -> tensor<512xf32, #a>
    %d0 = arith.subf %xc, %ms : tensor<512xf32, #a>
    %d = arith.select %maskc, %d0, %zero : tensor<512xi1, #a>, tensor<512xf32, #a>
    %sq = arith.mulf %d, %d : tensor<512xf32, #a>
    %s = arith.addf %a, %sq : tensor<512xf32, #a>
    %t2 = arith.addf %t, %y : tensor<512xf32, #a>
    scf.yield %s, %t2 : tensor<512xf32, #a>, tensor<512xf32, #a>
  }
  func.return %acc#0, %acc#1 : tensor<512xf32, #a>, tensor<512xf32, #a>
}

// -----

// Only elementwise ops have conversions hoisted over them. A dot of square tiles has operands of
// its result's shape, but it stays in the mma layout it was given; so does a square transpose,
// whose operand and result layouts differ.
#bl = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tr = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 4}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 4}>

// CHECK-LABEL: func.func @square_dot
// CHECK: %[[D:.+]] = tk.dot {{.*}} -> tensor<128x128xi32, #mma>
// CHECK: tkgpu.convert_layout %[[D]] : tensor<128x128xi32, #mma> -> tensor<128x128xi32, #{{[a-z0-9]+}}>
func.func @square_dot(%a: tensor<128x128xi8, #bl>, %b: tensor<128x128xi8, #bl>) -> tensor<128x128xi32, #bl> {
  %zero = arith.constant dense<0> : tensor<128x128xi32, #mma>
  %ca = tkgpu.convert_layout %a : tensor<128x128xi8, #bl> -> tensor<128x128xi8, #opa>
  %cb = tkgpu.convert_layout %b : tensor<128x128xi8, #bl> -> tensor<128x128xi8, #opb>
  %d = tk.dot %ca, %cb, %zero {input_precision = "ieee"} : tensor<128x128xi8, #opa> * tensor<128x128xi8, #opb> + tensor<128x128xi32, #mma> -> tensor<128x128xi32, #mma>
  %r = tkgpu.convert_layout %d : tensor<128x128xi32, #mma> -> tensor<128x128xi32, #bl>
  func.return %r : tensor<128x128xi32, #bl>
}

// CHECK-LABEL: func.func @square_trans
// CHECK: %[[T:.+]] = tk.trans %{{.*}} : tensor<64x64xf32, #[[BL:[a-z0-9]+]]> -> tensor<64x64xf32, #[[TR:[a-z0-9]+]]>
// CHECK: tkgpu.convert_layout %[[T]] : tensor<64x64xf32, #[[TR]]> -> tensor<64x64xf32, #[[BL]]>
func.func @square_trans(%x: tensor<64x64xf32, #bl>) -> tensor<64x64xf32, #bl> {
  %t = tk.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf32, #bl> -> tensor<64x64xf32, #tr>
  %r = tkgpu.convert_layout %t : tensor<64x64xf32, #tr> -> tensor<64x64xf32, #bl>
  func.return %r : tensor<64x64xf32, #bl>
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#mma1 = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
#op = #tkgpu.dot_operand<{opIdx = 0, parent = #mma1, kWidth = 2}>

// One step of an online softmax on a tensor-core product (attention): the row maximum, the
// exponentials, their cast and the accumulator's rescaling all stay in the mma layouts. What
// is left converts nothing between threads: the probabilities to the next dot's operand, and
// the row maxima from one accumulator's rows to the other's (same warps, same rows).
// CHECK: #[[MMA:[a-z0-9]+]] = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
// CHECK: #[[MMA1:[a-z0-9]+]] = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
// CHECK: #[[S:[a-z0-9]+]] = #tkgpu.slice<{dim = 1, parent = #[[MMA]]}>
// CHECK: #[[S1:[a-z0-9]+]] = #tkgpu.slice<{dim = 1, parent = #[[MMA1]]}>
// CHECK-LABEL: func.func @online_softmax_on_mma
// CHECK: %[[MAX:.+]] = tk.reduce %{{.+}} {axis = 1 : i32} : (tensor<64x64xf32, #[[MMA]]>) -> tensor<64xf32, #[[S]]>
// CHECK: math.exp2 %{{.+}} : tensor<64x64xf32, #[[MMA]]>
// CHECK: arith.truncf %{{.+}} : tensor<64x64xf32, #[[MMA]]> to tensor<64x64xf16, #[[MMA]]>
// CHECK: tkgpu.convert_layout %{{.+}} : tensor<64x64xf16, #[[MMA]]> -> tensor<64x64xf16, #{{.+}}>
// CHECK: tkgpu.convert_layout %[[MAX]] : tensor<64xf32, #[[S]]> -> tensor<64xf32, #[[S1]]>
// CHECK: arith.mulf %{{.+}}, %{{.+}} : tensor<64x128xf32, #[[MMA1]]>
// CHECK-NOT: tkgpu.convert_layout
// CHECK: return
func.func @online_softmax_on_mma(%s: tensor<64x64xf32, #mma>, %acc: tensor<64x128xf32, #mma1>)
    -> (tensor<64x64xf16, #op>, tensor<64x128xf32, #mma1>) {
  %0 = tkgpu.convert_layout %s : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
  %m = tk.reduce %0 {axis = 1 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #tkgpu.slice<{dim = 1, parent = #b}>> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.maxnumf %x, %y : f32
    tk.reduce.return %r : f32
  }
  %e = tk.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #tkgpu.slice<{dim = 1, parent = #b}>> -> tensor<64x1xf32, #b>
  %bc = tk.broadcast %e : tensor<64x1xf32, #b> -> tensor<64x64xf32, #b>
  %d = arith.subf %0, %bc : tensor<64x64xf32, #b>
  %p = math.exp2 %d : tensor<64x64xf32, #b>
  %h = arith.truncf %p : tensor<64x64xf32, #b> to tensor<64x64xf16, #b>
  %a = tkgpu.convert_layout %h : tensor<64x64xf16, #b> -> tensor<64x64xf16, #op>
  %ac = tkgpu.convert_layout %acc : tensor<64x128xf32, #mma1> -> tensor<64x128xf32, #c>
  %m2 = tkgpu.convert_layout %m : tensor<64xf32, #tkgpu.slice<{dim = 1, parent = #b}>> -> tensor<64xf32, #tkgpu.slice<{dim = 1, parent = #c}>>
  %e2 = tk.expand_dims %m2 {axis = 1 : i32} : tensor<64xf32, #tkgpu.slice<{dim = 1, parent = #c}>> -> tensor<64x1xf32, #c>
  %bc2 = tk.broadcast %e2 : tensor<64x1xf32, #c> -> tensor<64x128xf32, #c>
  %scaled = arith.mulf %ac, %bc2 : tensor<64x128xf32, #c>
  %back = tkgpu.convert_layout %scaled : tensor<64x128xf32, #c> -> tensor<64x128xf32, #mma1>
  func.return %a, %back : tensor<64x64xf16, #op>, tensor<64x128xf32, #mma1>
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#p = #tkgpu.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#m = #tkgpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #tkgpu.blocked<{sizePerThread = [2, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>

// A tile loaded in a coalesced layout (8 bytes per thread), converted to the default before an
// interleave and a transpose (int4 weights unpacked for a product): the conversion goes after
// each view op, in the layout that keeps the op in registers, and ends after the transpose, in
// one conversion.
// CHECK: #[[L:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[LP:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 8, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK: #[[LM:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[LT:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @views_after_conversions
// CHECK-SAME: (%[[X:.+]]: tensor<64x32xi8, #[[L]]>)
// CHECK-NEXT: %[[J:.+]] = tk.join %[[X]], %[[X]] : tensor<64x32xi8, #[[L]]>, tensor<64x32xi8, #[[L]]> -> tensor<64x32x2xi8, #[[LP]]>
// CHECK-NEXT: %[[R:.+]] = tk.reshape %[[J]] : tensor<64x32x2xi8, #[[LP]]> -> tensor<64x64xi8, #[[LM]]>
// CHECK-NEXT: %[[T:.+]] = tk.trans %[[R]] {order = array<i32: 1, 0>} : tensor<64x64xi8, #[[LM]]> -> tensor<64x64xi8, #[[LT]]>
// CHECK-NEXT: %[[C:.+]] = tkgpu.convert_layout %[[T]]
// CHECK-NEXT: return %[[C]]
func.func @views_after_conversions(%x: tensor<64x32xi8, #l>) -> tensor<64x64xi8, #t> {
  %0 = tkgpu.convert_layout %x : tensor<64x32xi8, #l> -> tensor<64x32xi8, #d>
  %1 = tk.join %0, %0 : tensor<64x32xi8, #d>, tensor<64x32xi8, #d> -> tensor<64x32x2xi8, #p>
  %2 = tk.reshape %1 : tensor<64x32x2xi8, #p> -> tensor<64x64xi8, #m>
  %3 = tk.trans %2 {order = array<i32: 1, 0>} : tensor<64x64xi8, #m> -> tensor<64x64xi8, #t>
  func.return %3 : tensor<64x64xi8, #t>
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// A conversion of a broadcast moves before it, onto the [64, 1] column (a scale per row), and
// an elementwise op whose other operand is such a broadcast is computed in its converted
// operand's layout.
// CHECK-LABEL: func.func @scaled_rows
// CHECK-SAME: (%[[X:.+]]: tensor<64x32xf16, #[[L:[a-z0-9]+]]>, %[[S:.+]]: tensor<64x1xf16, #[[D:[a-z0-9]+]]>)
// CHECK-NEXT: %[[SC:.+]] = tkgpu.convert_layout %[[S]] : tensor<64x1xf16, #[[D]]> -> tensor<64x1xf16, #[[L]]>
// CHECK-NEXT: %[[B:.+]] = tk.broadcast %[[SC]] : tensor<64x1xf16, #[[L]]> -> tensor<64x32xf16, #[[L]]>
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[X]], %[[B]] : tensor<64x32xf16, #[[L]]>
// CHECK-NEXT: %[[C:.+]] = tkgpu.convert_layout %[[M]] : tensor<64x32xf16, #[[L]]> -> tensor<64x32xf16, #[[D]]>
// CHECK-NEXT: return %[[C]]
func.func @scaled_rows(%x: tensor<64x32xf16, #l>, %s: tensor<64x1xf16, #d>) -> tensor<64x32xf16, #d> {
  %0 = tkgpu.convert_layout %x : tensor<64x32xf16, #l> -> tensor<64x32xf16, #d>
  %1 = tk.broadcast %s : tensor<64x1xf16, #d> -> tensor<64x32xf16, #d>
  %2 = arith.mulf %0, %1 : tensor<64x32xf16, #d>
  func.return %2 : tensor<64x32xf16, #d>
}

// -----

// A loop-carried value that is transposed and combined with itself (`x = maximum(x, trans(x))`):
// LoopCarriedLayout carries it in the transpose's layout, and the conversion of the carried value
// before tk.trans stays where it is (moving it after the transpose would flip the carried layout
// back, without end). One conversion per iteration, as written.
// CHECK-LABEL: func.func @carried_transpose
// CHECK: scf.for {{.*}} -> (tensor<16x16xf32, #[[T:[a-z0-9]+]]>)
// CHECK-NEXT: %[[C:.+]] = tkgpu.convert_layout %{{.+}} : tensor<16x16xf32, #[[T]]> -> tensor<16x16xf32, #[[A:[a-z0-9]+]]>
// CHECK-NEXT: %[[X:.+]] = tk.trans %[[C]] {order = array<i32: 1, 0>} : tensor<16x16xf32, #[[A]]> -> tensor<16x16xf32, #[[T]]>
// CHECK-NEXT: arith.maximumf %{{.+}}, %[[X]] : tensor<16x16xf32, #[[T]]>
// CHECK-NEXT: scf.yield
#a = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
func.func @carried_transpose(%x: tensor<16x16xf32, #a>, %n: i32) -> tensor<16x16xf32, #a> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<16x16xf32, #a>) : i32 {
    %t = tk.trans %v {order = array<i32: 1, 0>} : tensor<16x16xf32, #a> -> tensor<16x16xf32, #t>
    %c = tkgpu.convert_layout %t : tensor<16x16xf32, #t> -> tensor<16x16xf32, #a>
    %m = arith.maximumf %v, %c : tensor<16x16xf32, #a>
    scf.yield %m : tensor<16x16xf32, #a>
  }
  func.return %r : tensor<16x16xf32, #a>
}

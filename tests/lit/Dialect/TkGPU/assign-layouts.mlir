// RUN: tk-opt %s -split-input-file -tk-assign-layouts=num-warps=4 | FileCheck %s

// Vector add: everything 1-D takes the default layout of 128 elements over 4 warps.

// CHECK: #[[B:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32}
// CHECK-LABEL: func.func @add
// CHECK: tk.make_range {{.*}} : tensor<128xi32, #[[B]]>
// CHECK: tk.splat %{{.*}} : i32 -> tensor<128xi32, #[[B]]>
// CHECK: arith.cmpi slt, {{.*}} : tensor<128xi32, #[[B]]>
// CHECK: arith.constant dense<0.000000e+00> : tensor<128xf32, #[[B]]>
// CHECK: tk.load {{.*}} : (tensor<128x!tk.ptr<f32>, #[[B]]>, tensor<128xi1, #[[B]]>, tensor<128xf32, #[[B]]>) -> tensor<128xf32, #[[B]]>
// CHECK: tk.store {{.*}} : (tensor<128x!tk.ptr<f32>, #[[B]]>, tensor<128xf32, #[[B]]>, tensor<128xi1, #[[B]]>) -> ()
// CHECK-NOT: tkgpu.convert_layout
func.func @add(%out: !tk.ptr<f32>, %a: !tk.ptr<f32>, %n: i32) {
  %0 = tk.get_program_id {axis = 0 : i32} : i32
  %c128 = arith.constant 128 : i32
  %1 = arith.muli %0, %c128 : i32
  %2 = tk.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %3 = tk.splat %1 : i32 -> tensor<128xi32>
  %4 = arith.addi %3, %2 : tensor<128xi32>
  %5 = tk.splat %n : i32 -> tensor<128xi32>
  %6 = arith.cmpi slt, %4, %5 : tensor<128xi32>
  %7 = tk.splat %a : !tk.ptr<f32> -> tensor<128x!tk.ptr<f32>>
  %8 = tk.addptr %7, %4 : tensor<128x!tk.ptr<f32>>, tensor<128xi32> -> tensor<128x!tk.ptr<f32>>
  %cst = arith.constant dense<0.0> : tensor<128xf32>
  %9 = tk.load %8, %6, %cst : (tensor<128x!tk.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  %10 = arith.addf %9, %9 : tensor<128xf32>
  %11 = tk.splat %out : !tk.ptr<f32> -> tensor<128x!tk.ptr<f32>>
  %12 = tk.addptr %11, %4 : tensor<128x!tk.ptr<f32>>, tensor<128xi32> -> tensor<128x!tk.ptr<f32>>
  tk.store %12, %10, %6 : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  func.return
}

// -----

// Row softmax on a 4x128 tile: a reduction along dim 1 gives the rows' slice of the tile's
// layout, expand_dims turns it back into the tile's layout, broadcast keeps it: no conversion.

// CHECK: #[[B1D:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[COL:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[TILE:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK: #[[COLS:[a-z0-9]+]] = #tkgpu.slice<{dim = 1, parent = #[[COL]]}>
// CHECK: #[[TILE0:[a-z0-9]+]] = #tkgpu.slice<{dim = 0, parent = #[[TILE]]}>
// CHECK: #[[ROWS:[a-z0-9]+]] = #tkgpu.slice<{dim = 1, parent = #[[TILE]]}>
// CHECK-LABEL: func.func @softmax
// CHECK: %[[R:.+]] = tk.make_range {{.*}} : tensor<4xi32, #[[B1D]]>
// CHECK: %[[C:.+]] = tk.make_range {{.*}} : tensor<128xi32, #[[B1D]]>
// CHECK: %[[RS:.+]] = tkgpu.convert_layout %[[R]] : tensor<4xi32, #[[B1D]]> -> tensor<4xi32, #[[COLS]]>
// CHECK: tk.expand_dims %[[RS]] {axis = 1 : i32} : tensor<4xi32, #[[COLS]]> -> tensor<4x1xi32, #[[COL]]>
// CHECK: %[[CS:.+]] = tkgpu.convert_layout %[[C]] : tensor<128xi32, #[[B1D]]> -> tensor<128xi32, #[[TILE0]]>
// CHECK: tk.expand_dims %[[CS]] {axis = 0 : i32} : tensor<128xi32, #[[TILE0]]> -> tensor<1x128xi32, #[[TILE]]>
// CHECK: tkgpu.convert_layout %{{.*}} : tensor<4x1xi32, #[[COL]]> -> tensor<4x1xi32, #[[TILE]]>
// CHECK: tk.broadcast %{{.*}} : tensor<4x1xi32, #[[TILE]]> -> tensor<4x128xi32, #[[TILE]]>
// CHECK: %[[X:.+]] = tk.load %{{.*}} -> tensor<4x128xf32, #[[TILE]]>
// CHECK: %[[M:.+]] = tk.reduce %[[X]] {axis = 1 : i32} : (tensor<4x128xf32, #[[TILE]]>) -> tensor<4xf32, #[[ROWS]]>
// CHECK: %[[M2:.+]] = tk.expand_dims %[[M]] {axis = 1 : i32} : tensor<4xf32, #[[ROWS]]> -> tensor<4x1xf32, #[[TILE]]>
// CHECK: %[[MB:.+]] = tk.broadcast %[[M2]] : tensor<4x1xf32, #[[TILE]]> -> tensor<4x128xf32, #[[TILE]]>
// CHECK: arith.subf %[[X]], %[[MB]] : tensor<4x128xf32, #[[TILE]]>
// CHECK: math.exp %{{.*}} : tensor<4x128xf32, #[[TILE]]>
// CHECK: tk.reduce {{.*}} -> tensor<4xf32, #[[ROWS]]>
// CHECK: arith.divf {{.*}} : tensor<4x128xf32, #[[TILE]]>
// CHECK-NOT: tkgpu.convert_layout
// CHECK: tk.store {{.*}} : (tensor<4x128x!tk.ptr<f32>, #[[TILE]]>, tensor<4x128xf32, #[[TILE]]>) -> ()
func.func @softmax(%out: !tk.ptr<f32>, %in: !tk.ptr<f32>) {
  %r = tk.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %c = tk.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %r2 = tk.expand_dims %r {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %cst = arith.constant dense<128> : tensor<4x1xi32>
  %rs = arith.muli %r2, %cst : tensor<4x1xi32>
  %c2 = tk.expand_dims %c {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tk.broadcast %rs : tensor<4x1xi32> -> tensor<4x128xi32>
  %cb = tk.broadcast %c2 : tensor<1x128xi32> -> tensor<4x128xi32>
  %offs = arith.addi %rb, %cb : tensor<4x128xi32>
  %ip = tk.splat %in : !tk.ptr<f32> -> tensor<4x128x!tk.ptr<f32>>
  %ips = tk.addptr %ip, %offs : tensor<4x128x!tk.ptr<f32>>, tensor<4x128xi32> -> tensor<4x128x!tk.ptr<f32>>
  %x = tk.load %ips : (tensor<4x128x!tk.ptr<f32>>) -> tensor<4x128xf32>
  %m = tk.reduce %x {axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %mx = arith.maximumf %a, %b : f32
    tk.reduce.return %mx : f32
  }
  %m2 = tk.expand_dims %m {axis = 1 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  %mb = tk.broadcast %m2 : tensor<4x1xf32> -> tensor<4x128xf32>
  %d = arith.subf %x, %mb : tensor<4x128xf32>
  %e = math.exp %d : tensor<4x128xf32>
  %s = tk.reduce %e {axis = 1 : i32} : (tensor<4x128xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    tk.reduce.return %sum : f32
  }
  %s2 = tk.expand_dims %s {axis = 1 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  %sb = tk.broadcast %s2 : tensor<4x1xf32> -> tensor<4x128xf32>
  %y = arith.divf %e, %sb : tensor<4x128xf32>
  %op = tk.splat %out : !tk.ptr<f32> -> tensor<4x128x!tk.ptr<f32>>
  %ops = tk.addptr %op, %offs : tensor<4x128x!tk.ptr<f32>>, tensor<4x128xi32> -> tensor<4x128x!tk.ptr<f32>>
  tk.store %ops, %y : (tensor<4x128x!tk.ptr<f32>>, tensor<4x128xf32>) -> ()
  func.return
}

// -----

// A 32x64 tile copy: the row and column ranges are converted to slices of the 2-D default
// layouts of 32x1 and 1x64; the two broadcast halves meet at the addi, which keeps the
// non-splat operand's layout and converts the other.

// CHECK: #[[COL:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[TILE:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: func.func @tile
// CHECK: tk.splat %{{.*}} : i32 -> tensor<32x1xi32, #[[COL]]>
// CHECK: tkgpu.convert_layout %{{.*}} : tensor<32x1xi32, #[[COL]]> -> tensor<32x1xi32, #[[TILE]]>
// CHECK: %[[OFFS:.+]] = arith.addi %{{.*}}, %{{.*}} : tensor<32x64xi32, #[[TILE]]>
// CHECK: tk.addptr %{{.*}}, %[[OFFS]] : tensor<32x64x!tk.ptr<f16>, #[[TILE]]>, tensor<32x64xi32, #[[TILE]]> -> tensor<32x64x!tk.ptr<f16>, #[[TILE]]>
// CHECK: tk.load %{{.*}} -> tensor<32x64xf16, #[[TILE]]>
// CHECK: tk.store {{.*}} : (tensor<32x64x!tk.ptr<f16>, #[[TILE]]>, tensor<32x64xf16, #[[TILE]]>) -> ()
func.func @tile(%out: !tk.ptr<f16>, %in: !tk.ptr<f16>, %stride: i32) {
  %r = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %c = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r2 = tk.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %st = tk.splat %stride : i32 -> tensor<32x1xi32>
  %rs = arith.muli %r2, %st : tensor<32x1xi32>
  %c2 = tk.expand_dims %c {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tk.broadcast %rs : tensor<32x1xi32> -> tensor<32x64xi32>
  %cb = tk.broadcast %c2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %offs = arith.addi %rb, %cb : tensor<32x64xi32>
  %ip = tk.splat %in : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>>
  %ips = tk.addptr %ip, %offs : tensor<32x64x!tk.ptr<f16>>, tensor<32x64xi32> -> tensor<32x64x!tk.ptr<f16>>
  %x = tk.load %ips : (tensor<32x64x!tk.ptr<f16>>) -> tensor<32x64xf16>
  %op = tk.splat %out : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>>
  %ops = tk.addptr %op, %offs : tensor<32x64x!tk.ptr<f16>>, tensor<32x64xi32> -> tensor<32x64x!tk.ptr<f16>>
  tk.store %ops, %x : (tensor<32x64x!tk.ptr<f16>>, tensor<32x64xf16>) -> ()
  func.return
}

// -----

// A loop carrying a tensor and a block of pointers: iter_args, region arguments, yields and
// results all take the default layout of their shape; a value in another layout is converted
// where it enters the loop and where it is yielded.

// CHECK: #[[B:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[ROW:[a-z0-9]+]] = #tkgpu.slice<{dim = 0, parent = #{{.+}}}>
// CHECK-LABEL: func.func @loop
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<16xf32, #[[B]]>
// CHECK: %[[P:.+]] = tk.addptr
// CHECK: scf.for %{{.*}} iter_args(%[[A:.+]] = %[[ZERO]], %[[Q:.+]] = %[[P]]) -> (tensor<16xf32, #[[B]]>, tensor<16x!tk.ptr<f32>, #[[B]]>)
// CHECK:   tk.load %[[Q]] : (tensor<16x!tk.ptr<f32>, #[[B]]>) -> tensor<16xf32, #[[B]]>
// CHECK:   scf.yield %{{.*}}, %{{.*}} : tensor<16xf32, #[[B]]>, tensor<16x!tk.ptr<f32>, #[[B]]>
// CHECK: %[[SUM:.+]] = tk.reduce {{.*}} -> tensor<16xi32, #[[ROW]]>
// CHECK: %[[INIT:.+]] = tkgpu.convert_layout %[[SUM]] : tensor<16xi32, #[[ROW]]> -> tensor<16xi32, #[[B]]>
// CHECK: scf.for %{{.*}} iter_args(%[[V:.+]] = %[[INIT]]) -> (tensor<16xi32, #[[B]]>)
// CHECK:   %[[USE:.+]] = tkgpu.convert_layout %[[SUM]] : tensor<16xi32, #[[ROW]]> -> tensor<16xi32, #[[B]]>
// CHECK:   arith.addi %[[V]], %[[USE]] : tensor<16xi32, #[[B]]>
func.func @loop(%out: !tk.ptr<f32>, %in: !tk.ptr<f32>, %n: i32) {
  %offs = tk.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %p0 = tk.splat %in : !tk.ptr<f32> -> tensor<16x!tk.ptr<f32>>
  %p1 = tk.addptr %p0, %offs : tensor<16x!tk.ptr<f32>>, tensor<16xi32> -> tensor<16x!tk.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc, %ptrs = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero, %p = %p1) -> (tensor<16xf32>, tensor<16x!tk.ptr<f32>>) : i32 {
    %x = tk.load %p : (tensor<16x!tk.ptr<f32>>) -> tensor<16xf32>
    %y = arith.addf %a, %x : tensor<16xf32>
    %step = arith.constant dense<16> : tensor<16xi32>
    %q = tk.addptr %p, %step : tensor<16x!tk.ptr<f32>>, tensor<16xi32> -> tensor<16x!tk.ptr<f32>>
    scf.yield %y, %q : tensor<16xf32>, tensor<16x!tk.ptr<f32>>
  }
  %row = tk.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %row2 = tk.expand_dims %row {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %sum = tk.reduce %row2 {axis = 0 : i32} : (tensor<1x16xi32>) -> tensor<16xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tk.reduce.return %s : i32
  }
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %sum) -> (tensor<16xi32>) : i32 {
    %w = arith.addi %v, %sum : tensor<16xi32>
    scf.yield %w : tensor<16xi32>
  }
  %o = tk.splat %out : !tk.ptr<f32> -> tensor<16x!tk.ptr<f32>>
  %os = tk.addptr %o, %r : tensor<16x!tk.ptr<f32>>, tensor<16xi32> -> tensor<16x!tk.ptr<f32>>
  tk.store %os, %acc : (tensor<16x!tk.ptr<f32>>, tensor<16xf32>) -> ()
  func.return
}

// -----

// scf.if and scf.while results and region arguments take the default layout too; a 1-D
// reduction's result is a scalar and gets none.
// CHECK: #[[B:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @branches
// CHECK: scf.if %{{.*}} -> (tensor<64xf32, #[[B]]>)
// CHECK: tk.reduce {{.*}} : (tensor<64xf32, #[[B]]>) -> f32
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (tensor<64xf32, #[[B]]>) -> tensor<64xf32, #[[B]]>
// CHECK: scf.condition(%{{.*}}) %{{.*}} : tensor<64xf32, #[[B]]>
// CHECK: ^bb0(%{{.*}}: tensor<64xf32, #[[B]]>):
func.func @branches(%c: i1, %n: f32) -> f32 {
  %x = tk.splat %n : f32 -> tensor<64xf32>
  %y = scf.if %c -> (tensor<64xf32>) {
    %e = math.exp %x : tensor<64xf32>
    scf.yield %e : tensor<64xf32>
  } else {
    scf.yield %x : tensor<64xf32>
  }
  %s = tk.reduce %y {axis = 0 : i32} : (tensor<64xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tk.reduce.return %t : f32
  }
  %w = scf.while (%v = %y) : (tensor<64xf32>) -> tensor<64xf32> {
    scf.condition(%c) %v : tensor<64xf32>
  } do {
  ^bb0(%v: tensor<64xf32>):
    %v2 = arith.addf %v, %v : tensor<64xf32>
    scf.yield %v2 : tensor<64xf32>
  }
  func.return %s : f32
}

// -----

// tk.trans permutes the operand's layout (no data moves): the loaded 32x64 tile's fastest
// dimension 1 is the transposed 64x32 tile's dimension 0.
// CHECK: #[[T:[a-z0-9]+]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
// CHECK-LABEL: func.func @transpose
// CHECK: tk.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<32x64xf32, #{{[a-z0-9]+}}> -> tensor<64x32xf32, #[[T]]>
func.func @transpose(%p: tensor<32x64x!tk.ptr<f32>>) -> tensor<64x32xf32> {
  %x = tk.load %p : (tensor<32x64x!tk.ptr<f32>>) -> tensor<32x64xf32>
  %t = tk.trans %x {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
  func.return %t : tensor<64x32xf32>
}

// -----

// A scan of a reduction's result: scans lower on blocked layouts only, so the slice-layout
// operand is converted to the default blocked layout first (it was kept in the slice, and
// tk-to-llvm had no lowering for it).
// CHECK-LABEL: func.func @scan_of_reduction
// CHECK: %[[R:.+]] = tk.reduce {{.*}} -> tensor<64xi32, #[[S:slice[0-9]*]]>
// CHECK: %[[C:.+]] = tkgpu.convert_layout %[[R]] : tensor<64xi32, #[[S]]> -> tensor<64xi32, #[[B:blocked[0-9]*]]>
// CHECK: tk.scan %[[C]] {{.*}} : (tensor<64xi32, #[[B]]>) -> tensor<64xi32, #[[B]]>
func.func @scan_of_reduction(%x: tensor<16x64xi32>) -> tensor<64xi32> {
  %r = tk.reduce %x {axis = 0 : i32} : (tensor<16x64xi32>) -> tensor<64xi32> {
  ^bb0(%a: i32, %b: i32):
    %m = arith.maxsi %a, %b : i32
    tk.reduce.return %m : i32
  }
  %s = tk.scan %r {axis = 0 : i32, reverse = true} : (tensor<64xi32>) -> tensor<64xi32> {
  ^bb0(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    tk.scan.return %t : i32
  }
  func.return %s : tensor<64xi32>
}

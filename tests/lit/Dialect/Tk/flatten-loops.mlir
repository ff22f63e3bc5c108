// tk-flatten-loops: an scf.for marked tk.flatten whose body holds one scf.for, with bounds
// defined outside it, becomes one loop over every inner iteration where both loops have
// iterations, and the nest without its inner loop elsewhere; other marked loops stay as they are.
// RUN: tk-opt %s -split-input-file -tk-flatten-loops | FileCheck %s

// A prologue (the inner loop's init, and a value the inner body reads), an inner loop carrying
// a value, and an epilogue that stores and adds to the outer loop's carried value. The trip
// counts are computed in i64; the first prologue runs before the flattened loop, which carries
// i, the inner index jj, the outer value, the prologue's value the body reads, and the inner
// value. The epilogue runs under `jj == lenJ - 1`, the next prologue under that and
// `i + 1 < n`; the flattened loop takes the outer loop's num_stages.
// CHECK-LABEL: func.func @nest
// CHECK-SAME: (%[[OUT:[^ ]+]]: !tk.ptr<f32>, %[[N:[^ ]+]]: i32, %[[M:[^ ]+]]: i32)
// CHECK: %[[LENI:[^ ]+]] = arith.divsi %{{.+}}, %{{.+}} : i64
// CHECK: %[[LENJ:[^ ]+]] = arith.divsi %{{.+}}, %{{.+}} : i64
// CHECK: %[[BOTH:[^ ]+]] = arith.andi
// CHECK: %[[RES:[^ ]+]] = scf.if %[[BOTH]] -> (f32) {
// CHECK: %[[TOTAL:[^ ]+]] = arith.muli %[[LENI]], %[[LENJ]] : i64
// CHECK: %[[F0:[^ ]+]] = arith.sitofp %[[C0:[^ ]+]] : i32 to f32
// CHECK: %[[W0:[^ ]+]] = arith.mulf %[[F0]], %[[F0]] : f32
// CHECK: %[[FLAT:[^ ]+]]:5 = scf.for %{{.+}} = %{{.+}} to %[[TOTAL]] step %{{.+}} iter_args(%[[I:[^ ]+]] = %[[C0]], %[[JJ:[^ ]+]] = %{{.+}}, %[[TOT:[^ ]+]] = %{{.+}}, %[[W:[^ ]+]] = %[[W0]], %[[ACC:[^ ]+]] = %[[F0]]) -> (i32, i64, f32, f32, f32) : i64 {
// CHECK: %[[J:[^ ]+]] = arith.trunci %{{.+}} : i64 to i32
// CHECK: %[[FJ:[^ ]+]] = arith.sitofp %[[J]] : i32 to f32
// CHECK: %[[PROD:[^ ]+]] = arith.mulf %[[FJ]], %[[W]] : f32
// CHECK: %[[NEXT:[^ ]+]] = arith.addf %[[ACC]], %[[PROD]] : f32
// CHECK: %[[LAST:[^ ]+]] = arith.cmpi eq, %[[JJ]], %{{.+}} : i64
// CHECK: %[[END:[^ ]+]] = scf.if %[[LAST]] -> (f32) {
// CHECK: %[[P:[^ ]+]] = tk.addptr %[[OUT]], %[[I]]
// CHECK: tk.store %[[P]], %[[NEXT]]
// CHECK: %[[SUM:[^ ]+]] = arith.addf %[[TOT]], %[[NEXT]] : f32
// CHECK: scf.yield %[[SUM]] : f32
// CHECK: } else {
// CHECK: scf.yield %[[TOT]] : f32
// CHECK: }
// CHECK: %[[INEXT:[^ ]+]] = arith.addi %[[I]], %{{.+}} : i32
// CHECK: %[[MORE0:[^ ]+]] = arith.cmpi slt, %[[INEXT]], %[[N]] : i32
// CHECK: %[[MORE:[^ ]+]] = arith.andi %[[LAST]], %[[MORE0]] : i1
// CHECK: %[[START:[^ ]+]]:2 = scf.if %[[MORE]] -> (f32, f32) {
// CHECK: %[[FI:[^ ]+]] = arith.sitofp %[[INEXT]] : i32 to f32
// CHECK: %[[WI:[^ ]+]] = arith.mulf %[[FI]], %[[FI]] : f32
// CHECK: scf.yield %[[WI]], %[[FI]] : f32, f32
// CHECK: } else {
// CHECK: scf.yield %[[W]], %[[NEXT]] : f32, f32
// CHECK: }
// CHECK: %[[JJNEXT:[^ ]+]] = arith.select %[[LAST]], %{{.+}}, %{{.+}} : i64
// CHECK: %[[ISEL:[^ ]+]] = arith.select %[[LAST]], %[[INEXT]], %[[I]] : i32
// CHECK: scf.yield %[[ISEL]], %[[JJNEXT]], %[[END]], %[[START]]#0, %[[START]]#1 : i32, i64, f32, f32, f32
// CHECK: } {tk.num_stages = 2 : i32}
// CHECK: scf.yield %[[FLAT]]#2 : f32
// CHECK: } else {
// CHECK: %[[PLAIN:[^ ]+]] = scf.for %[[PI:[^ ]+]] = %{{.+}} to %[[N]] step %{{.+}} iter_args(%[[PT:[^ ]+]] = %{{.+}}) -> (f32) : i32 {
// CHECK-NOT: scf.for
// CHECK: %[[PF:[^ ]+]] = arith.sitofp %[[PI]] : i32 to f32
// CHECK: tk.store %{{.+}}, %[[PF]]
// CHECK: arith.addf %[[PT]], %[[PF]]
// CHECK: scf.yield
// CHECK: } {tk.num_stages = 2 : i32}
// CHECK: scf.yield %[[PLAIN]] : f32
// CHECK: }
// CHECK: return %[[RES]] : f32
// CHECK-NOT: tk.flatten
func.func @nest(%out: !tk.ptr<f32>, %n: i32, %m: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%tot = %z) -> (f32) : i32 {
    %fi = arith.sitofp %i : i32 to f32
    %w = arith.mulf %fi, %fi : f32
    %s = scf.for %j = %c0 to %m step %c1 iter_args(%acc = %fi) -> (f32) : i32 {
      %fj = arith.sitofp %j : i32 to f32
      %prod = arith.mulf %fj, %w : f32
      %a = arith.addf %acc, %prod : f32
      scf.yield %a : f32
    }
    %p = "tk.addptr"(%out, %i) : (!tk.ptr<f32>, i32) -> !tk.ptr<f32>
    "tk.store"(%p, %s) : (!tk.ptr<f32>, f32) -> ()
    %t = arith.addf %tot, %s : f32
    scf.yield %t : f32
  } {tk.flatten, tk.num_stages = 2 : i32}
  func.return %r : f32
}

// -----

// No prologue, epilogue or carried values: the flattened loop carries only i and jj, and takes
// the inner loop's options where the outer loop has none. The inner bounds, computed in the
// outer body from values outside it, are hoisted first.
// CHECK-LABEL: func.func @bare
// CHECK: scf.if
// CHECK: %{{.+}}:2 = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (i32, i64) : i64 {
// CHECK: tk.store
// CHECK: } {tk.loop_unroll_factor = 2 : i32, tk.num_stages = 3 : i32}
// CHECK: } else {
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: }
func.func @bare(%out: !tk.ptr<i32>, %n: i32, %m: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %m2 = arith.muli %m, %m : i32
    scf.for %j = %c0 to %m2 step %c1 : i32 {
      %p = "tk.addptr"(%out, %j) : (!tk.ptr<i32>, i32) -> !tk.ptr<i32>
      "tk.store"(%p, %i) : (!tk.ptr<i32>, i32) -> ()
    } {tk.loop_unroll_factor = 2 : i32, tk.num_stages = 3 : i32}
  } {tk.flatten}
  func.return
}

// -----

// An inner loop whose bound is the outer induction variable, or a body without an inner loop:
// left as they are, without the attribute.
// CHECK-LABEL: func.func @triangle
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: tk.flatten
// CHECK-LABEL: func.func @flat_already
// CHECK: scf.for
// CHECK-NOT: tk.flatten
// CHECK: return
func.func @triangle(%out: !tk.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.for %j = %c0 to %i step %c1 : i32 {
      %p = "tk.addptr"(%out, %j) : (!tk.ptr<i32>, i32) -> !tk.ptr<i32>
      "tk.store"(%p, %i) : (!tk.ptr<i32>, i32) -> ()
    }
  } {tk.flatten}
  func.return
}
func.func @flat_already(%out: !tk.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %p = "tk.addptr"(%out, %i) : (!tk.ptr<i32>, i32) -> !tk.ptr<i32>
    "tk.store"(%p, %i) : (!tk.ptr<i32>, i32) -> ()
  } {tk.flatten}
  func.return
}

// tk-unroll-loops: an scf.for with tk.loop_unroll_factor = N (N >= 2) runs its body N times per
// iteration, then the iterations N does not divide in a loop of its own; 0 and 1 leave the loop
// rolled. The attribute is removed either way.
// RUN: tk-opt %s -split-input-file -tk-unroll-loops | FileCheck %s

// A loop of unknown trip count carrying a value: the unrolled loop steps by 3 * step up to the
// last multiple of 3 iterations, and each copy of the body gets its own induction variable
// (iv, iv + step, iv + 2 step); the remainder loop starts where it ends, from its result.
// CHECK-LABEL: func.func @unrolled
// CHECK: %[[MAIN:.+]] = scf.for %[[IV:.+]] = %{{.+}} to %[[UB:.+]] step %[[STEP3:.+]] iter_args(%[[A:.+]] = %{{.+}}) -> (i32) : i32 {
// CHECK: %[[X0:.+]] = arith.addi %[[A]], %[[IV]] : i32
// CHECK: %[[IV1:.+]] = arith.addi %[[IV]], %{{.+}} : i32
// CHECK: %[[X1:.+]] = arith.addi %[[X0]], %[[IV1]] : i32
// CHECK: %[[IV2:.+]] = arith.addi %[[IV]], %{{.+}} : i32
// CHECK: %[[X2:.+]] = arith.addi %[[X1]], %[[IV2]] : i32
// CHECK: scf.yield %[[X2]] : i32
// CHECK-NEXT: }
// CHECK: %[[REST:.+]] = scf.for %[[J:.+]] = %[[UB]] to %{{.+}} step %{{.+}} iter_args(%[[B:.+]] = %[[MAIN]]) -> (i32) : i32 {
// CHECK: arith.addi %[[B]], %[[J]] : i32
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK: return %[[REST]] : i32
// CHECK-NOT: tk.loop_unroll_factor
func.func @unrolled(%lb: i32, %ub: i32, %step: i32) -> i32 {
  %z = arith.constant 0 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%a = %z) -> (i32) : i32 {
    %x = arith.addi %a, %i : i32
    scf.yield %x : i32
  } {tk.loop_unroll_factor = 3 : i32}
  func.return %r : i32
}

// -----

// Factors 0 and 1: the loop stays as it is, without the attribute; other attributes are kept.
// CHECK-LABEL: func.func @rolled
// CHECK: scf.for
// CHECK: arith.addi
// CHECK-NOT: arith.addi
// CHECK: } {tk.num_stages = 2 : i32}
// CHECK: scf.for
// CHECK: arith.addi
// CHECK-NOT: arith.addi
// CHECK: }
// CHECK-NOT: tk.loop_unroll_factor
func.func @rolled(%lb: i32, %ub: i32, %step: i32) -> i32 {
  %z = arith.constant 0 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%a = %z) -> (i32) : i32 {
    %x = arith.addi %a, %i : i32
    scf.yield %x : i32
  } {tk.loop_unroll_factor = 1 : i32, tk.num_stages = 2 : i32}
  %s = scf.for %i = %lb to %ub step %step iter_args(%a = %r) -> (i32) : i32 {
    %x = arith.addi %a, %i : i32
    scf.yield %x : i32
  } {tk.loop_unroll_factor = 0 : i32}
  func.return %s : i32
}

// -----

// A constant trip count of 8 by 4: two iterations of four bodies, no remainder loop.
// CHECK-LABEL: func.func @exact
// CHECK: scf.for
// CHECK-COUNT-4: tk.store
// CHECK-NEXT: }
// CHECK-NOT: scf.for
// CHECK: return
func.func @exact(%out: !tk.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  scf.for %i = %c0 to %c8 step %c1 : i32 {
    %p = "tk.addptr"(%out, %i) : (!tk.ptr<i32>, i32) -> !tk.ptr<i32>
    "tk.store"(%p, %i) : (!tk.ptr<i32>, i32) -> ()
  } {tk.loop_unroll_factor = 4 : i32}
  func.return
}

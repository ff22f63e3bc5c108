// The pipeline's stages after tk-to-llvm (lib/CAPI/Lower.cpp), on what tk-to-llvm leaves: scf ops
// whose types are LLVM types already (a thread's elements as a struct), here a loop carrying one
// and a masked load's branch. Each stage is upstream's pass of that name:
//  - convert-scf-to-cf: blocks and cf branches; the loop's compare and increment as arith ops;
//  - convert-cf-to-llvm: llvm.br / llvm.cond_br, the structs passed as block arguments;
//  - convert-arith-to-llvm: the loop's arith ops.
// RUN: tk-opt %s -convert-scf-to-cf | FileCheck %s --check-prefix=CF
// RUN: tk-opt %s -convert-scf-to-cf -convert-cf-to-llvm | FileCheck %s --check-prefix=BR
// RUN: tk-opt %s -convert-scf-to-cf -convert-cf-to-llvm -convert-arith-to-llvm \
// RUN:   -reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// CF-LABEL: llvm.func @loop
// CF: cf.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
// CF: ^[[HEAD]](%[[IV:.*]]: i32, %{{.*}}: !llvm.struct<(f32, f32)>):
// CF: %[[C:.*]] = arith.cmpi slt, %[[IV]], %{{.*}} : i32
// CF: cf.cond_br %[[C]]
// CF: cf.cond_br
// CF: arith.addi %[[IV]], %{{.*}} : i32
// CF-NOT: scf.

// BR-LABEL: llvm.func @loop
// BR: llvm.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
// BR: arith.cmpi slt
// BR: llvm.cond_br
// BR-NOT: cf.

// LLVM-LABEL: llvm.func @loop
// LLVM: llvm.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
// LLVM: ^[[HEAD]](%[[IV:.*]]: i32, %[[ACC:.*]]: !llvm.struct<(f32, f32)>):
// LLVM: %[[C:.*]] = llvm.icmp "slt" %[[IV]], %{{.*}} : i32
// LLVM: llvm.cond_br %[[C]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
// LLVM: ^[[BODY]]:
// LLVM: llvm.cond_br %{{.*}}, ^[[LOAD:bb[0-9]+]], ^[[SKIP:bb[0-9]+]]
// LLVM: ^[[LOAD]]:
// LLVM: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// LLVM: llvm.br ^[[JOIN:bb[0-9]+]](%[[X]] : f32)
// LLVM: llvm.add %[[IV]], %{{.*}} : i32
// LLVM: llvm.br ^[[HEAD]]
// LLVM: ^[[EXIT]]:
// LLVM: llvm.return
// LLVM-NOT: arith.
// LLVM-NOT: cf.
// LLVM-NOT: scf.
llvm.func @loop(%p: !llvm.ptr<1>, %n: i32, %mask: i1) {
  %zero = llvm.mlir.constant(0.000000e+00 : f32) : f32
  %undef = llvm.mlir.undef : !llvm.struct<(f32, f32)>
  %s0 = llvm.insertvalue %zero, %undef[0] : !llvm.struct<(f32, f32)>
  %init = llvm.insertvalue %zero, %s0[1] : !llvm.struct<(f32, f32)>
  %lb = llvm.mlir.constant(0 : i32) : i32
  %step = llvm.mlir.constant(1 : i32) : i32
  %acc = scf.for %iv = %lb to %n step %step iter_args(%a = %init) -> (!llvm.struct<(f32, f32)>) : i32 {
    %x = scf.if %mask -> (f32) {
      %v = llvm.load %p : !llvm.ptr<1> -> f32
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %e = llvm.extractvalue %a[0] : !llvm.struct<(f32, f32)>
    %sum = llvm.fadd %e, %x : f32
    %next = llvm.insertvalue %sum, %a[0] : !llvm.struct<(f32, f32)>
    scf.yield %next : !llvm.struct<(f32, f32)>
  }
  %r = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32)>
  llvm.store %r, %p : f32, !llvm.ptr<1>
  llvm.return
}

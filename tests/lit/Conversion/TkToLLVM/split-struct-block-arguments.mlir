// SplitStructBlockArguments.cpp: a block argument of a struct of scalars or vectors becomes one
// argument per member; branches pass the members' extractvalues, member reads become the new
// arguments, other uses read the struct rebuilt at the top of the block.
// RUN: tk-opt %s -split-input-file -tk-split-struct-block-arguments | FileCheck %s

// A loop-carried accumulator of two floats: the loop header takes two floats.
// CHECK-LABEL: llvm.func @loop
// CHECK: %[[I0:.*]] = llvm.extractvalue %[[INIT:.*]][0] : !llvm.struct<(f32, f32)>
// CHECK: %[[I1:.*]] = llvm.extractvalue %[[INIT]][1] : !llvm.struct<(f32, f32)>
// CHECK: llvm.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %[[I0]], %[[I1]] : i32, f32, f32)
// CHECK: ^[[HEAD]](%[[IV:.*]]: i32, %[[A0:.*]]: f32, %[[A1:.*]]: f32):
// CHECK-NOT: llvm.extractvalue
// CHECK: llvm.cond_br %{{.*}}, ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
// CHECK: ^[[BODY]]:
// CHECK: %[[S0:.*]] = llvm.fadd %[[A0]], %[[A0]] : f32
// CHECK: %[[S1:.*]] = llvm.fadd %[[A1]], %[[A1]] : f32
// CHECK: %[[N1:.*]] = llvm.insertvalue %[[S1]], %{{.*}}[1]
// CHECK: %[[E0:.*]] = llvm.extractvalue %[[N1]][0]
// CHECK: %[[E1:.*]] = llvm.extractvalue %[[N1]][1]
// CHECK: llvm.br ^[[HEAD]](%{{.*}}, %[[E0]], %[[E1]] : i32, f32, f32)
// CHECK: ^[[EXIT]]:
// CHECK: llvm.store %[[A1]]
llvm.func @loop(%out: !llvm.ptr<1>, %n: i32, %init: !llvm.struct<(f32, f32)>) {
  %zero = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^head(%zero, %init : i32, !llvm.struct<(f32, f32)>)
^head(%iv: i32, %acc: !llvm.struct<(f32, f32)>):
  %c = llvm.icmp "slt" %iv, %n : i32
  llvm.cond_br %c, ^body, ^exit
^body:
  %a0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32)>
  %a1 = llvm.extractvalue %acc[1] : !llvm.struct<(f32, f32)>
  %s0 = llvm.fadd %a0, %a0 : f32
  %s1 = llvm.fadd %a1, %a1 : f32
  %u = llvm.mlir.undef : !llvm.struct<(f32, f32)>
  %n0 = llvm.insertvalue %s0, %u[0] : !llvm.struct<(f32, f32)>
  %n1 = llvm.insertvalue %s1, %n0[1] : !llvm.struct<(f32, f32)>
  %next = llvm.add %iv, %one : i32
  llvm.br ^head(%next, %n1 : i32, !llvm.struct<(f32, f32)>)
^exit:
  %r = llvm.extractvalue %acc[1] : !llvm.struct<(f32, f32)>
  llvm.store %r, %out : f32, !llvm.ptr<1>
  llvm.return
}

// -----

// A use other than a member read gets the struct rebuilt from the members; both edges of a
// cond_br to one block pass their own members.
// CHECK-LABEL: llvm.func @rebuilt
// CHECK: llvm.cond_br %{{.*}}, ^[[JOIN:bb[0-9]+]](%{{.*}}, %{{.*}} : i32, vector<2xf16>), ^[[JOIN]](%{{.*}}, %{{.*}} : i32, vector<2xf16>)
// CHECK: ^[[JOIN]](%[[M0:.*]]: i32, %[[M1:.*]]: vector<2xf16>):
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, vector<2xf16>)>
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[M0]], %[[U]][0]
// CHECK: %[[R1:.*]] = llvm.insertvalue %[[M1]], %[[R0]][1]
// CHECK: llvm.store %[[R1]], %{{.*}} : !llvm.struct<(i32, vector<2xf16>)>, !llvm.ptr<1>
llvm.func @rebuilt(%out: !llvm.ptr<1>, %c: i1, %x: !llvm.struct<(i32, vector<2xf16>)>,
                   %y: !llvm.struct<(i32, vector<2xf16>)>) {
  llvm.cond_br %c, ^join(%x : !llvm.struct<(i32, vector<2xf16>)>),
                   ^join(%y : !llvm.struct<(i32, vector<2xf16>)>)
^join(%v: !llvm.struct<(i32, vector<2xf16>)>):
  llvm.store %v, %out : !llvm.struct<(i32, vector<2xf16>)>, !llvm.ptr<1>
  llvm.return
}

// -----

// Left alone: a struct with an aggregate member, and the entry block's arguments.
// CHECK-LABEL: llvm.func @nested
// CHECK: ^{{.*}}(%{{.*}}: !llvm.struct<(f32, array<2 x f32>)>):
llvm.func @nested(%out: !llvm.ptr<1>, %x: !llvm.struct<(f32, array<2 x f32>)>) {
  llvm.br ^next(%x : !llvm.struct<(f32, array<2 x f32>)>)
^next(%v: !llvm.struct<(f32, array<2 x f32>)>):
  %e = llvm.extractvalue %v[0] : !llvm.struct<(f32, array<2 x f32>)>
  llvm.store %e, %out : f32, !llvm.ptr<1>
  llvm.return
}

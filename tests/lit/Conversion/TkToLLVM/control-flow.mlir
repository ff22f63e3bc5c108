// ControlFlowOpToLLVM.cpp: scf.for / scf.if / scf.while carrying tensors (structs of the
// thread's elements, here 2) and scalars. tk-to-llvm keeps them scf ops with converted types and
// converts the ops in their regions (SCF); the pipeline's next stages (convert-scf-to-cf,
// convert-cf-to-llvm, convert-arith-to-llvm) lower them to branches between blocks whose
// arguments are those structs.
// RUN: tk-opt %s -split-input-file -tk-to-llvm | FileCheck %s --check-prefix=SCF
// RUN: tk-opt %s -split-input-file -tk-to-llvm -convert-scf-to-cf -convert-cf-to-llvm \
// RUN:   -convert-arith-to-llvm | FileCheck %s

#b = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // A tensor carried through scf.for with an i32 induction variable; a load in the body.
  // SCF-LABEL: llvm.func @for_carried
  // SCF: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!llvm.struct<(f32, f32)>) : i32 {
  // SCF: llvm.load
  // SCF: scf.yield %{{.*}} : !llvm.struct<(f32, f32)>
  // SCF-NOT: tk.
  // SCF-NOT: arith.
  // CHECK-LABEL: llvm.func @for_carried
  // CHECK: llvm.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
  // CHECK: ^[[HEAD]](%[[IV:.*]]: i32, %[[ACC:.*]]: !llvm.struct<(f32, f32)>):
  // CHECK: %[[C:.*]] = llvm.icmp "slt" %[[IV]], %{{.*}} : i32
  // CHECK: llvm.cond_br %[[C]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
  // CHECK: ^[[BODY]]:
  // CHECK: llvm.getelementptr %{{.*}}[%[[IV]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  // CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
  // CHECK: llvm.extractvalue %[[ACC]][0]
  // CHECK-COUNT-2: llvm.fadd %{{.*}} : f32
  // CHECK: %[[NEXT:.*]] = llvm.add %[[IV]], %{{.*}} : i32
  // CHECK: llvm.br ^[[HEAD]](%[[NEXT]], %{{.*}} : i32, !llvm.struct<(f32, f32)>)
  // CHECK: ^[[EXIT]]:
  // CHECK: llvm.extractvalue %[[ACC]][0]
  // CHECK-COUNT-2: llvm.store %{{.*}} : f32, !llvm.ptr<1>
  // CHECK-NOT: scf.
  // CHECK-NOT: cf.
  // CHECK-NOT: arith.
  func.func @for_carried(%out: !tk.ptr<f32>, %in: !tk.ptr<f32>, %n: i32) {
    %r = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %zero = arith.constant dense<0.0> : tensor<256xf32, #b>
    %lb = arith.constant 0 : i32
    %step = arith.constant 1 : i32
    %acc = scf.for %iv = %lb to %n step %step iter_args(%a = %zero) -> (tensor<256xf32, #b>) : i32 {
      %p = "tk.addptr"(%in, %iv) : (!tk.ptr<f32>, i32) -> !tk.ptr<f32>
      %ps = "tk.splat"(%p) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
      %pa = "tk.addptr"(%ps, %r) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
      %x = "tk.load"(%pa) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<256x!tk.ptr<f32>, #b>) -> tensor<256xf32, #b>
      %s = arith.addf %a, %x : tensor<256xf32, #b>
      scf.yield %s : tensor<256xf32, #b>
    }
    %os = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
    %oa = "tk.addptr"(%os, %r) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
    "tk.store"(%oa, %acc) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xf32, #b>) -> ()
    func.return
  }
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // scf.if yielding a tensor and a scalar: both branches jump to a block taking the struct and
  // the f32.
  // SCF-LABEL: llvm.func @if_tensor
  // SCF: scf.if %{{.*}} -> (!llvm.struct<(f32, f32)>, f32) {
  // CHECK-LABEL: llvm.func @if_tensor
  // CHECK: llvm.cond_br %{{.*}}, ^[[THEN:bb[0-9]+]], ^[[ELSE:bb[0-9]+]]
  // CHECK: ^[[THEN]]:
  // CHECK-COUNT-2: llvm.fadd %{{.*}} : f32
  // CHECK: llvm.br ^[[JOIN:bb[0-9]+]](%{{.*}}, %{{.*}} : !llvm.struct<(f32, f32)>, f32)
  // CHECK: ^[[ELSE]]:
  // CHECK-COUNT-2: llvm.fsub %{{.*}} : f32
  // CHECK: llvm.br ^[[JOIN]](%{{.*}}, %{{.*}} : !llvm.struct<(f32, f32)>, f32)
  // CHECK: ^[[JOIN]](%[[T:.*]]: !llvm.struct<(f32, f32)>, %{{.*}}: f32):
  // CHECK: llvm.extractvalue %[[T]][0]
  // CHECK-NOT: scf.
  // CHECK-NOT: cf.
  func.func @if_tensor(%out: !tk.ptr<f32>, %n: i32, %f: f32) {
    %r = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %x = arith.sitofp %r : tensor<256xi32, #b> to tensor<256xf32, #b>
    %ten = arith.constant 10 : i32
    %c = arith.cmpi sgt, %n, %ten : i32
    %t:2 = scf.if %c -> (tensor<256xf32, #b>, f32) {
      %y = arith.addf %x, %x : tensor<256xf32, #b>
      scf.yield %y, %f : tensor<256xf32, #b>, f32
    } else {
      %y = arith.subf %x, %x : tensor<256xf32, #b>
      %g = arith.mulf %f, %f : f32
      scf.yield %y, %g : tensor<256xf32, #b>, f32
    }
    %os = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
    %oa = "tk.addptr"(%os, %r) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
    "tk.store"(%oa, %t#0) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xf32, #b>) -> ()
    "tk.store"(%out, %t#1) : (!tk.ptr<f32>, f32) -> ()
    func.return
  }
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // scf.while carrying a tensor and an i32 counter (the front end's control.while).
  // SCF-LABEL: llvm.func @while_tensor
  // SCF: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (!llvm.struct<(f32, f32)>, i32) -> (!llvm.struct<(f32, f32)>, i32) {
  // CHECK-LABEL: llvm.func @while_tensor
  // CHECK: llvm.br ^[[BEFORE:bb[0-9]+]](%{{.*}}, %{{.*}} : !llvm.struct<(f32, f32)>, i32)
  // CHECK: ^[[BEFORE]](%{{.*}}: !llvm.struct<(f32, f32)>, %[[K:.*]]: i32):
  // CHECK: %[[C:.*]] = llvm.icmp "sgt" %[[K]], %{{.*}} : i32
  // CHECK: llvm.cond_br %[[C]], ^[[AFTER:bb[0-9]+]](%{{.*}}, %{{.*}} : !llvm.struct<(f32, f32)>, i32), ^[[EXIT:bb[0-9]+]]
  // CHECK: ^[[AFTER]](%[[V:.*]]: !llvm.struct<(f32, f32)>, %[[K2:.*]]: i32):
  // CHECK: llvm.sitofp %[[K2]] : i32 to f32
  // CHECK-COUNT-2: llvm.fadd %{{.*}} : f32
  // CHECK: llvm.sub %[[K2]], %{{.*}} : i32
  // CHECK: llvm.br ^[[BEFORE]]
  // CHECK: ^[[EXIT]]:
  // CHECK-COUNT-2: llvm.store %{{.*}} : f32, !llvm.ptr<1>
  // CHECK-NOT: scf.
  // CHECK-NOT: cf.
  func.func @while_tensor(%out: !tk.ptr<f32>, %n: i32) {
    %zero = arith.constant dense<0.0> : tensor<256xf32, #b>
    %w:2 = scf.while (%a = %zero, %k = %n) : (tensor<256xf32, #b>, i32) -> (tensor<256xf32, #b>, i32) {
      %z = arith.constant 0 : i32
      %c = arith.cmpi sgt, %k, %z : i32
      scf.condition(%c) %a, %k : tensor<256xf32, #b>, i32
    } do {
    ^bb0(%a: tensor<256xf32, #b>, %k: i32):
      %kf = arith.sitofp %k : i32 to f32
      %ks = "tk.splat"(%kf) : (f32) -> tensor<256xf32, #b>
      %s = arith.addf %a, %ks : tensor<256xf32, #b>
      %one = arith.constant 1 : i32
      %k1 = arith.subi %k, %one : i32
      scf.yield %s, %k1 : tensor<256xf32, #b>, i32
    }
    %r = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %os = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<256x!tk.ptr<f32>, #b>
    %oa = "tk.addptr"(%os, %r) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xi32, #b>) -> tensor<256x!tk.ptr<f32>, #b>
    "tk.store"(%oa, %w#0) : (tensor<256x!tk.ptr<f32>, #b>, tensor<256xf32, #b>) -> ()
    func.return
  }
}

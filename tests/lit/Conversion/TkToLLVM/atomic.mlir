// AtomicOpToLLVM.cpp: one PTX `atom` per element, with the ordering and scope as its
// qualifiers and the mask as its predicate (masked-off lanes read 0). A layout that holds each
// element once needs no shared memory; one that holds an element in several slots (32 elements
// over 128 threads) has each slot claim its element in shared memory, and only the slot whose
// claim survives updates it, then shares the old value. A scalar is updated by thread 0.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm -convert-scf-to-cf \
// RUN:   -convert-cf-to-llvm -convert-arith-to-llvm | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm="compute-capability=80" \
// RUN:   -convert-scf-to-cf -convert-cf-to-llvm -convert-arith-to-llvm | FileCheck %s --check-prefix=SM80

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @unique
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$3 atom.acq_rel.gpu.global.add.f32 $0, [$1], $2;{{.*}}@!$3 mov.b32 $0, 0;", "=r,l,r,b"
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @unique(%p: !tk.ptr<f32>, %out: !tk.ptr<f32>, %n: i32) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #b>
    %1 = "tk.splat"(%n) : (i32) -> tensor<128xi32, #b>
    %2 = arith.cmpi slt, %0, %1 : tensor<128xi32, #b>
    %3 = "tk.splat"(%p) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>, #b>
    %4 = "tk.addptr"(%3, %0) : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xi32, #b>) -> tensor<128x!tk.ptr<f32>, #b>
    %5 = arith.constant dense<1.0> : tensor<128xf32, #b>
    %6 = "tk.atomic_rmw"(%4, %5, %2) <{kind = "fadd", scope = "gpu", sem = "acq_rel"}> : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xf32, #b>, tensor<128xi1, #b>) -> tensor<128xf32, #b>
    %7 = "tk.splat"(%out) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>, #b>
    %8 = "tk.addptr"(%7, %0) : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xi32, #b>) -> tensor<128x!tk.ptr<f32>, #b>
    "tk.store"(%8, %6) : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xf32, #b>) -> ()
    func.return
  }
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {{{.*}}tkgpu.shared = 256 : i32
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @duplicates
  // CHECK: nvvm.read.ptx.sreg.tid.x
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: %[[CLAIM:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: %[[MINE:.*]] = llvm.icmp "eq" %[[CLAIM]]
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$3 atom.relaxed.cta.global.max.s32 $0, [$1], $2;{{.*}}", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[MINE]]
  // CHECK: llvm.cond_br %[[MINE]]
  // CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  func.func @duplicates(%p: !tk.ptr<i32>, %out: !tk.ptr<i32>) {
    %0 = "tk.make_range"() <{end = 32 : i32, start = 0 : i32}> : () -> tensor<32xi32, #b>
    %3 = "tk.splat"(%p) : (!tk.ptr<i32>) -> tensor<32x!tk.ptr<i32>, #b>
    %4 = "tk.addptr"(%3, %0) : (tensor<32x!tk.ptr<i32>, #b>, tensor<32xi32, #b>) -> tensor<32x!tk.ptr<i32>, #b>
    %6 = "tk.atomic_rmw"(%4, %0) <{kind = "max", scope = "cta", sem = "relaxed"}> : (tensor<32x!tk.ptr<i32>, #b>, tensor<32xi32, #b>) -> tensor<32xi32, #b>
    %7 = "tk.splat"(%out) : (!tk.ptr<i32>) -> tensor<32x!tk.ptr<i32>, #b>
    %8 = "tk.addptr"(%7, %0) : (tensor<32x!tk.ptr<i32>, #b>, tensor<32xi32, #b>) -> tensor<32x!tk.ptr<i32>, #b>
    "tk.store"(%8, %6) : (tensor<32x!tk.ptr<i32>, #b>, tensor<32xi32, #b>) -> ()
    func.return
  }
}

// -----

// CHECK: module attributes {{{.*}}tkgpu.shared = 4 : i32
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @scalar_cas
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]]
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$4 atom.acquire.sys.global.cas.b32 $0, [$1], $2, $3;{{.*}}", "=r,l,r,r,b" %{{.*}}, %{{.*}}, %{{.*}}, %[[FIRST]]
  // CHECK: nvvm.barrier0
  // CHECK: llvm.cond_br %[[FIRST]]
  // CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "fence.acq_rel.sys;"
  func.func @scalar_cas(%lock: !tk.ptr<i32>, %out: !tk.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %0 = "tk.atomic_cas"(%lock, %c0, %c1) <{scope = "sys", sem = "acquire"}> : (!tk.ptr<i32>, i32, i32) -> i32
    "tk.store"(%out, %0) : (!tk.ptr<i32>, i32) -> ()
    func.return
  }
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {{{.*}}tkgpu.shared = 0 : i32
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // A float max is an integer max or min on the bits, chosen by the value's sign; the result
  // is unused, so nothing is shared.
  // CHECK-LABEL: llvm.func @fmax
  // CHECK: setp.lt.s32 %neg, $2, 0;{{.*}}@%nonneg atom.release.gpu.global.max.s32 $0, [$1], $2;{{.*}}@%neg atom.release.gpu.global.min.u32 $0, [$1], $2;
  // CHECK-LABEL: llvm.func @fmin
  // CHECK: @%nonneg atom.acq_rel.gpu.global.min.s64 $0, [$1], $2;{{.*}}@%neg atom.acq_rel.gpu.global.max.u64 $0, [$1], $2;{{.*}}"=l,l,l"
  func.func @fmax(%p: !tk.ptr<f32>, %v: tensor<128xf32, #b>) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #b>
    %3 = "tk.splat"(%p) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>, #b>
    %4 = "tk.addptr"(%3, %0) : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xi32, #b>) -> tensor<128x!tk.ptr<f32>, #b>
    %6 = "tk.atomic_rmw"(%4, %v) <{kind = "fmax", scope = "gpu", sem = "release"}> : (tensor<128x!tk.ptr<f32>, #b>, tensor<128xf32, #b>) -> tensor<128xf32, #b>
    func.return
  }
  func.func @fmin(%p: !tk.ptr<f64>, %v: tensor<128xf64, #b>) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #b>
    %3 = "tk.splat"(%p) : (!tk.ptr<f64>) -> tensor<128x!tk.ptr<f64>, #b>
    %4 = "tk.addptr"(%3, %0) : (tensor<128x!tk.ptr<f64>, #b>, tensor<128xi32, #b>) -> tensor<128x!tk.ptr<f64>, #b>
    %6 = "tk.atomic_rmw"(%4, %v) <{kind = "fmin", scope = "gpu", sem = "acq_rel"}> : (tensor<128x!tk.ptr<f64>, #b>, tensor<128xf64, #b>) -> tensor<128xf64, #b>
    func.return
  }
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // bf16 add: one instruction from sm_90; before, a relaxed compare-and-swap loop between fences.
  // CHECK-LABEL: llvm.func @bf16_add
  // CHECK: "atom.acq_rel.gpu.global.add.noftz.bf16 $0, [$1], $2;", "=h,l,h"
  // SM80-LABEL: llvm.func @bf16_add
  // SM80: "fence.acq_rel.gpu;"
  // SM80: llvm.atomicrmw fadd %{{.*}}, %{{.*}} syncscope("device") monotonic
  // SM80: "fence.acq_rel.gpu;"
  // SM80-NOT: atom.
  func.func @bf16_add(%p: !tk.ptr<bf16>, %v: tensor<128xbf16, #b>) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #b>
    %3 = "tk.splat"(%p) : (!tk.ptr<bf16>) -> tensor<128x!tk.ptr<bf16>, #b>
    %4 = "tk.addptr"(%3, %0) : (tensor<128x!tk.ptr<bf16>, #b>, tensor<128xi32, #b>) -> tensor<128x!tk.ptr<bf16>, #b>
    %6 = "tk.atomic_rmw"(%4, %v) <{kind = "fadd", scope = "gpu", sem = "acq_rel"}> : (tensor<128x!tk.ptr<bf16>, #b>, tensor<128xbf16, #b>) -> tensor<128xbf16, #b>
    func.return
  }
}

// -----

// A scalar atomic is thread 0's: every thread fences and a barrier follows before a release (a
// lock released after a critical section all threads wrote in); after an acquire a barrier, then
// every thread fences.
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @scalar_release
  // SM80-LABEL: llvm.func @scalar_release
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "fence.acq_rel.gpu;"
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.ptrtoint
  // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$3 atom.release.gpu.global.exch.b32
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @scalar_release(%lock: !tk.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %0 = "tk.atomic_rmw"(%lock, %c0) <{kind = "xchg", scope = "gpu", sem = "release"}> : (!tk.ptr<i32>, i32) -> i32
    func.return
  }
  // CHECK-LABEL: llvm.func @scalar_acq_rel
  // CHECK: nvvm.barrier0
  // CHECK: atom.acq_rel.gpu.global.add.u32
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "fence.acq_rel.gpu;"
  func.func @scalar_acq_rel(%counter: !tk.ptr<i32>) {
    %c1 = arith.constant 1 : i32
    %0 = "tk.atomic_rmw"(%counter, %c1) <{kind = "add", scope = "gpu", sem = "acq_rel"}> : (!tk.ptr<i32>, i32) -> i32
    func.return
  }
}

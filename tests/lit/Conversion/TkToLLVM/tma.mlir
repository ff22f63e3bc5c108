// TmaOpToLLVM.cpp: loads and stores through a tensor map (a tk-tma-descriptors argument). The
// map is a 128-byte __grid_constant__ parameter; one thread arms the op's mbarrier with the
// tile's bytes and issues cp.async.bulk.tensor (coordinates innermost first), every thread waits
// on the barrier's phase 0 and reads its elements from the row-major tile. A store writes the
// tile, fences it for the async proxy and has one thread copy it out and wait for the copy.
// tk-pipeline's ring ops: mbarriers initialized, waited for with a phase, invalidated by one
// thread; a TMA copy into a swizzled tile, one box per 128-byte panel, guarded by its predicate.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm | FileCheck %s

#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// The tile (64 x 32 f16: 4096 bytes) at offset 0, its barrier right after; the shared array
// 128-byte aligned.
// CHECK: llvm.mlir.global external @tk_shared() {addr_space = 3 : i32, alignment = 128 : i64}
// CHECK-LABEL: llvm.func @copy
// CHECK-SAME: %arg2: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK: "{\0A.reg .pred leader;\0Asetp.eq.u32 leader, $0, 0;\0A@leader mbarrier.init.shared::cta.b64 [$1], 1;\0A@leader fence.mbarrier_init.release.cluster;\0A}", "r,r"
// CHECK: nvvm.barrier0
// CHECK: @leader mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 4096;\0A@leader cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$2], [$3, {$5, $4}], [$1];\0A}", "r,r,r,l,r,r"
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;
// CHECK-COUNT-16: llvm.load %{{.+}} : !llvm.ptr<3> -> f16
// CHECK: nvvm.barrier0
// CHECK: @leader mbarrier.inval.shared::cta.b64 [$1];
// The store: the tile written, fenced, copied out by one thread.
// CHECK: nvvm.barrier0
// CHECK-COUNT-16: llvm.store %{{.+}} : f16, !llvm.ptr<3>
// CHECK: fence.proxy.async.shared::cta
// CHECK: nvvm.barrier0
// CHECK: @leader cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$2, {$4, $3}], [$1];\0A@leader cp.async.bulk.commit_group;\0A@leader cp.async.bulk.wait_group 0;
// CHECK: nvvm.barrier0
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @copy(%i: i32, %j: i32, %map: !tk.tensordesc<tensor<64x32xf16>> {tkgpu.tensor_map = {base = 3 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 0, 1>, stride_args = array<i32: 1, -1>, strides = array<i64: 0, 1>}}, %base: !tk.ptr<f16>) {
  %x = tk.descriptor_load %map[%i, %j] : !tk.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #b>
  tk.descriptor_store %map[%j, %i], %x : !tk.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16, #b>
  func.return
}
}

// -----

#sb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 64}>
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// A 64 x 128 f16 tile (two panels of 64 x 64, 8192 bytes each): the barrier armed with 16384
// bytes, two boxes, the second 8192 bytes further in the tile and 64 columns further in the
// tensor; all under the leader's and the predicate's guard.
// CHECK-LABEL: llvm.func @ring
// CHECK: @leader mbarrier.init.shared::cta.b64 [$1], 2;\0A@leader fence.mbarrier_init.release.cluster;
// CHECK: llvm.getelementptr %{{.+}}[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[X:.+]] = llvm.add %{{.+}}, %{{.+}} : i32
// CHECK: %[[PRED:.+]] = llvm.zext %{{.+}} : i1 to i32
// CHECK: setp.ne.u32 given, $8, 0;\0Asetp.eq.and.u32 leader, $0, 0, given;\0A}\0A@leader mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 16384;\0A@leader cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$4], [$2, {$5, $3}], [$1];\0A@leader cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$6], [$2, {$7, $3}], [$1];\0A}", "r,r,l,r,r,r,r,r,r"
// CHECK-SAME: %arg4, %arg0, %{{.+}}, %arg1, %{{.+}}, %[[X]], %[[PRED]] :
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;
// CHECK: @leader mbarrier.inval.shared::cta.b64 [$1];
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @ring(%i: i32, %j: i32, %phase: i32, %go: i1, %map: !tk.tensordesc<tensor<64x128xf16>> {tkgpu.tensor_map = {base = 5 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 0, 1>, stride_args = array<i32: 1, -1>, strides = array<i64: 0, 1>}}, %base: !tk.ptr<f16>) {
  %c0 = arith.constant 0 : i32
  %tiles = tkgpu.local_alloc : !tkgpu.memdesc<2x64x128xf16, #sb>
  %bars = tkgpu.local_alloc : !tkgpu.memdesc<2x1x1xi64, #bar>
  %tile = tkgpu.memdesc_index %tiles[%c0] : !tkgpu.memdesc<2x64x128xf16, #sb> -> !tkgpu.memdesc<64x128xf16, #sb>
  %b = tkgpu.memdesc_index %bars[%c0] : !tkgpu.memdesc<2x1x1xi64, #bar> -> !tkgpu.memdesc<1x1xi64, #bar>
  tkgpu.init_barrier %b, 2 : !tkgpu.memdesc<1x1xi64, #bar>
  tkgpu.barrier
  tkgpu.async_tma_copy_global_to_local %map[%i, %j], %tile, %b pred %go : !tk.tensordesc<tensor<64x128xf16>> -> !tkgpu.memdesc<64x128xf16, #sb>, !tkgpu.memdesc<1x1xi64, #bar>
  tkgpu.wait_barrier %b, %phase : !tkgpu.memdesc<1x1xi64, #bar>
  tkgpu.barrier
  tkgpu.inval_barrier %b : !tkgpu.memdesc<1x1xi64, #bar>
  func.return
}
}

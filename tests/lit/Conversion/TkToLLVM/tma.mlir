// TmaOpToLLVM.cpp: loads and stores through a tensor map (a tk-tma-descriptors argument). The
// map is a 128-byte __grid_constant__ parameter; one thread arms the op's mbarrier with the
// tile's bytes and issues cp.async.bulk.tensor (coordinates innermost first), every thread waits
// on the barrier's phase 0 and reads its elements from the row-major tile. A store writes the
// tile, fences it for the async proxy and has one thread copy it out and wait for the copy.
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
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 done, [$0], 0;
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
func.func @copy(%i: i32, %j: i32, %map: !tk.tensordesc<tensor<64x32xf16>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 2, 3>, stride_args = array<i32: 4, -1>, strides = array<i64: 0, 1>}}) {
  %x = tk.descriptor_load %map[%i, %j] : !tk.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #b>
  tk.descriptor_store %map[%j, %i], %x : !tk.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16, #b>
  func.return
}
}

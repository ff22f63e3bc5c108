// tk-allocate-shared-memory takes the limit of the target GPU (shared-per-block, from the
// backend's table of targets): 128 KiB of rings fit a block of sm_90 (227 KiB) but not one of
// sm_86 or sm_120 (99 KiB).
// RUN: tk-opt %s -tk-allocate-shared-memory | FileCheck %s
// RUN: tk-opt %s -tk-allocate-shared-memory=shared-per-block=101376 -verify-diagnostics

#s = #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK: module attributes {tkgpu.num_warps = 8 : i32, tkgpu.shared = 131072 : i32
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @rings(%i: i32) {
    %a = tkgpu.local_alloc : !tkgpu.memdesc<2x128x64xf32, #s>
    // expected-error @+1 {{the pipelined loads need 131072 bytes of shared memory in all, more than a block can have (101376 on this GPU): use fewer num_stages or smaller blocks}}
    %b = tkgpu.local_alloc : !tkgpu.memdesc<2x64x128xf32, #s>
    %ta = tkgpu.memdesc_index %a[%i] : !tkgpu.memdesc<2x128x64xf32, #s> -> !tkgpu.memdesc<128x64xf32, #s>
    %tb = tkgpu.memdesc_index %b[%i] : !tkgpu.memdesc<2x64x128xf32, #s> -> !tkgpu.memdesc<64x128xf32, #s>
    func.return
  }
}

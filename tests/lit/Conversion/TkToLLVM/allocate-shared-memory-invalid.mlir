// tk-allocate-shared-memory refuses a kernel whose buffers need more shared memory than a block
// can have, at the op whose buffer ends last, naming what to change.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -verify-diagnostics

#s = #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @rings(%i: i32) {
    // b, the larger, is placed first; a ends last.
    // expected-error @+1 {{the pipelined loads need 294912 bytes of shared memory in all, more than a block can have (232448 on this GPU): use fewer num_stages or smaller blocks}}
    %a = tkgpu.local_alloc : !tkgpu.memdesc<3x128x64xf32, #s>
    %b = tkgpu.local_alloc : !tkgpu.memdesc<3x64x256xf32, #s>
    %ta = tkgpu.memdesc_index %a[%i] : !tkgpu.memdesc<3x128x64xf32, #s> -> !tkgpu.memdesc<128x64xf32, #s>
    %tb = tkgpu.memdesc_index %b[%i] : !tkgpu.memdesc<3x64x256xf32, #s> -> !tkgpu.memdesc<64x256xf32, #s>
    func.return
  }
}

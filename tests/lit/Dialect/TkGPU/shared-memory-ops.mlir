// The shared-memory type, layout and ops of software pipelining: tk-opt parses, verifies and
// prints them (the layout under the alias #shared), and the printed form parses again.
// RUN: tk-opt %s -split-input-file | tk-opt -split-input-file | FileCheck %s

// CHECK: #[[S:shared]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: func.func @ring
// CHECK: %[[BUF:.+]] = tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16, #[[S]]>
// CHECK: %[[TILE:.+]] = tkgpu.memdesc_index %[[BUF]][%{{.+}}] : !tkgpu.memdesc<3x32x64xf16, #[[S]]> -> !tkgpu.memdesc<32x64xf16, #[[S]]>
// CHECK: tkgpu.async_copy_global_to_local %{{.+}}, %[[TILE]] mask %{{.+}} : tensor<32x64x!tk.ptr<f16>, #{{.+}}> -> !tkgpu.memdesc<32x64xf16, #[[S]]>, tensor<32x64xi1, #{{.+}}>
// CHECK: tkgpu.async_copy_global_to_local %{{.+}}, %[[TILE]] : tensor<32x64x!tk.ptr<f16>, #{{.+}}> -> !tkgpu.memdesc<32x64xf16, #[[S]]>
// CHECK: tkgpu.async_commit_group
// CHECK: tkgpu.async_wait 1
// CHECK: tkgpu.local_load %[[TILE]] : !tkgpu.memdesc<32x64xf16, #[[S]]> -> tensor<32x64xf16, #{{.+}}>
// CHECK-NEXT: tkgpu.barrier
#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @ring(%p: tensor<32x64x!tk.ptr<f16>, #b>, %m: tensor<32x64xi1, #b>, %i: i32) -> tensor<32x64xf16, #opb> {
    %buf = tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16, #s>
    %tile = tkgpu.memdesc_index %buf[%i] : !tkgpu.memdesc<3x32x64xf16, #s> -> !tkgpu.memdesc<32x64xf16, #s>
    tkgpu.async_copy_global_to_local %p, %tile mask %m : tensor<32x64x!tk.ptr<f16>, #b> -> !tkgpu.memdesc<32x64xf16, #s>, tensor<32x64xi1, #b>
    tkgpu.async_copy_global_to_local %p, %tile : tensor<32x64x!tk.ptr<f16>, #b> -> !tkgpu.memdesc<32x64xf16, #s>
    tkgpu.async_commit_group
    tkgpu.async_wait 1
    %x = tkgpu.local_load %tile : !tkgpu.memdesc<32x64xf16, #s> -> tensor<32x64xf16, #opb>
    tkgpu.barrier
    func.return %x : tensor<32x64xf16, #opb>
  }
}

// -----

// A padded tile (the layout of 32-bit dot operands read one element at a time): `padding` is
// printed when not 0.
// CHECK: #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0], padding = 8}>
// CHECK-LABEL: func.func @padded
#p = #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0], padding = 8}>
module {
  func.func @padded() {
    %buf = tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf32, #p>
    func.return
  }
}

// InlineAsmOpToLLVM.cpp: tk.extern_elementwise calls the library function per element;
// tk.inline_asm runs its asm once per `pack` elements, narrow elements `pack` to a register.
// RUN: tk-opt %s -split-input-file -tk-to-llvm -convert-arith-to-llvm | FileCheck %s

#b = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // CHECK: llvm.func @__nv_hypotf(f32, f32) -> f32
  // CHECK-LABEL: llvm.func @extern
  // CHECK-COUNT-4: llvm.call @__nv_hypotf
  func.func @extern(%x: tensor<512xf32, #b>, %y: tensor<512xf32, #b>, %p: tensor<512x!tk.ptr<f32>, #b>) {
    %0 = "tk.extern_elementwise"(%x, %y) <{pure = true, symbol = "__nv_hypotf"}> : (tensor<512xf32, #b>, tensor<512xf32, #b>) -> tensor<512xf32, #b>
    "tk.store"(%p, %0) : (tensor<512x!tk.ptr<f32>, #b>, tensor<512xf32, #b>) -> ()
    func.return
  }

  // Two f16 per 32-bit register: two statements for the thread's four elements.
  // CHECK-LABEL: llvm.func @packed
  // CHECK-COUNT-2: llvm.inline_asm asm_dialect = att "add.f16x2 $0, $1, $2;", "=r,r,r" {{.*}} : (i32, i32) -> i32
  // CHECK-NOT: llvm.inline_asm
  func.func @packed(%x: tensor<512xf16, #b>, %p: tensor<512x!tk.ptr<f16>, #b>) {
    %0 = "tk.inline_asm"(%x, %x) <{asm_string = "add.f16x2 $0, $1, $2;", constraints = "=r,r,r", pack = 2 : i32, pure = true}> : (tensor<512xf16, #b>, tensor<512xf16, #b>) -> tensor<512xf16, #b>
    "tk.store"(%p, %0) : (tensor<512x!tk.ptr<f16>, #b>, tensor<512xf16, #b>) -> ()
    func.return
  }

  // Two results, one register each per element; not pure: kept with side effects.
  // CHECK-LABEL: llvm.func @two_results
  // CHECK-COUNT-4: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $2; mov.b32 $1, $2;", "=r,=r,r" {{.*}} -> !llvm.struct<(i32, i32)>
  func.func @two_results(%x: tensor<512xi32, #b>, %p: tensor<512x!tk.ptr<i32>, #b>) {
    %0:2 = "tk.inline_asm"(%x) <{asm_string = "mov.b32 $0, $2; mov.b32 $1, $2;", constraints = "=r,=r,r", pack = 1 : i32, pure = false}> : (tensor<512xi32, #b>) -> (tensor<512xi32, #b>, tensor<512xi32, #b>)
    %1 = arith.addi %0#0, %0#1 : tensor<512xi32, #b>
    "tk.store"(%p, %1) : (tensor<512x!tk.ptr<i32>, #b>, tensor<512xi32, #b>) -> ()
    func.return
  }
}

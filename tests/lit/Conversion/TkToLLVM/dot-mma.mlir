// MMAv2DotOpToLLVM.cpp and ConvertToDotOperand.cpp: tk.dot in an mma layout is mma.sync, its
// operands come from shared memory through ldmatrix (.trans for b, whose N dimension is the
// contiguous one), stored swizzled with one 16-byte vector per thread.
// RUN: tk-opt %s -split-input-file -tk-allocate-shared-memory -tk-to-llvm | FileCheck %s

#a = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>

// 64 x 64 x 16 on a 2 x 2 warp grid: each warp's 32 x 32 is 2 x 4 instruction tiles, one K step:
// a is two ldmatrix.x4, b two ldmatrix.x4.trans (two N tiles each), then 8 mma.sync.
// CHECK-LABEL: func.func @f16
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @f16(%a: tensor<64x16xf16, #a>, %b: tensor<16x64xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %0 = tkgpu.convert_layout %a : tensor<64x16xf16, #a> -> tensor<64x16xf16, #opa>
  %1 = tkgpu.convert_layout %b : tensor<16x64xf16, #b> -> tensor<16x64xf16, #opb>
  %d = tk.dot %0, %1, %c {input_precision = "ieee"} : tensor<64x16xf16, #opa> * tensor<16x64xf16, #opb> + tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  func.return %d : tensor<64x64xf32, #mma>
}
}

// -----

#a = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 1}>

// tf32x3, 64 x 16 x 16 on 4 x 1 warps: 2 N tiles x 2 K steps, three products each. big is the
// f32 with its low 13 bits cleared, small = x - big goes as it is (the tensor cores read the
// top 19 bits of a register). The two small products go into a fresh accumulator (zeros), which
// is added to the tile with its NaNs (inf * 0) replaced by 0; then the big product.
// CHECK-LABEL: func.func @tf32x3
// CHECK-NOT: cvt.rna
// CHECK: %[[BITS:.+]] = llvm.bitcast %{{.+}} : f32 to i32
// CHECK-NEXT: %[[MASK:.+]] = llvm.mlir.constant(-8192 : i32) : i32
// CHECK-NEXT: %[[BIG:.+]] = llvm.and %[[BITS]], %[[MASK]] : i32
// CHECK: %[[BIGF:.+]] = llvm.bitcast %[[BIG]] : i32 to f32
// CHECK: %[[REST:.+]] = llvm.fsub %{{.+}}, %[[BIGF]] : f32
// CHECK: llvm.bitcast %[[REST]] : f32 to i32
// CHECK: %[[ZERO:.+]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: %[[S:.+]] = llvm.inline_asm {{.*}}mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32{{.*}}, %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[ZERO]] :
// CHECK: %[[T:.+]] = llvm.inline_asm {{.*}}mma.sync{{.*}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} :
// CHECK: %[[T0:.+]] = llvm.extractvalue %[[T]][0]
// CHECK: %[[NAN:.+]] = llvm.fcmp "uno" %[[T0]], %[[T0]] : f32
// CHECK: %[[PART:.+]] = llvm.select %[[NAN]], %[[ZERO]], %[[T0]] : i1, f32
// CHECK: %[[SUM:.+]] = llvm.fadd %{{.+}}, %[[PART]] : f32
// CHECK-COUNT-3: llvm.fadd
// CHECK: llvm.inline_asm {{.*}}mma.sync{{.*}}, %[[SUM]], %{{.+}}, %{{.+}}, %{{.+}} :
// CHECK-COUNT-9: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT: mma.sync
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @tf32x3(%a: tensor<64x16xf32, #opa>, %b: tensor<16x16xf32, #opb>, %c: tensor<64x16xf32, #mma>) -> tensor<64x16xf32, #mma> {
  %d = tk.dot %a, %b, %c {input_precision = "tf32x3"} : tensor<64x16xf32, #opa> * tensor<16x16xf32, #opb> + tensor<64x16xf32, #mma> -> tensor<64x16xf32, #mma>
  func.return %d : tensor<64x16xf32, #mma>
}
}

// -----

#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 1}>

// tf32: each f32 operand's bits go to mma.sync as they are, with no instruction to round them:
// 2 N tiles x 2 K steps, one product each.
// CHECK-LABEL: func.func @tf32
// CHECK-NOT: cvt.rna
// CHECK-NOT: llvm.and
// CHECK: %[[A0:.+]] = llvm.bitcast %{{.+}} : f32 to i32
// CHECK: llvm.inline_asm {{.*}}mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32{{.*}} %[[A0]],
// CHECK-COUNT-3: mma.sync.aligned.m16n8k8
// CHECK-NOT: mma.sync
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @tf32(%a: tensor<64x16xf32, #opa>, %b: tensor<16x16xf32, #opb>, %c: tensor<64x16xf32, #mma>) -> tensor<64x16xf32, #mma> {
  %d = tk.dot %a, %b, %c {input_precision = "tf32"} : tensor<64x16xf32, #opa> * tensor<16x16xf32, #opb> + tensor<64x16xf32, #mma> -> tensor<64x16xf32, #mma>
  func.return %d : tensor<64x16xf32, #mma>
}
}

// -----

#a = #tkgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tkgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 4}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 4}>

// fp8, e4m3 x e5m2, 64 x 64 x 32 on a 2 x 2 warp grid: 8 mma.sync m16n8k32 naming both types,
// registers of four bytes as for i8. The instruction needs PTX 8.4: the module says so.
// CHECK: module attributes {{{.*}}tkgpu.ptx_version = 84 : i32
// CHECK-LABEL: func.func @fp8
// CHECK-COUNT-8: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32
// CHECK-NOT: mma.sync
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @fp8(%a: tensor<64x32xf8E4M3FN, #a>, %b: tensor<32x64xf8E5M2, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %0 = tkgpu.convert_layout %a : tensor<64x32xf8E4M3FN, #a> -> tensor<64x32xf8E4M3FN, #opa>
  %1 = tkgpu.convert_layout %b : tensor<32x64xf8E5M2, #b> -> tensor<32x64xf8E5M2, #opb>
  %d = tk.dot %0, %1, %c {input_precision = "ieee"} : tensor<64x32xf8E4M3FN, #opa> * tensor<32x64xf8E5M2, #opb> + tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  func.return %d : tensor<64x64xf32, #mma>
}
}

// RUN: tk-opt %s -split-input-file -tk-accelerate-matmul | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-accelerate-matmul=compute-capability=75 | FileCheck %s --check-prefix=SM75
// RUN: tk-opt %s -split-input-file -tk-accelerate-matmul=compute-capability=89 | FileCheck %s --check-prefix=SM89

#b = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>

// f16 x f16 -> f32, 128 x 128 on 4 warps: a 2 x 2 warp grid, kWidth 2; the operands and the
// accumulator are converted in, the result back to the blocked layout.
// CHECK: #[[MMA:.+]] = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK: #[[OPA:.+]] = #tkgpu.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
// CHECK: #[[OPB:.+]] = #tkgpu.dot_operand<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>
// CHECK-LABEL: func.func @f16
// CHECK: %[[A:.+]] = tkgpu.convert_layout %{{.*}} : tensor<128x32xf16, #blocked> -> tensor<128x32xf16, #[[OPA]]>
// CHECK: %[[B:.+]] = tkgpu.convert_layout %{{.*}} : tensor<32x128xf16, #blocked> -> tensor<32x128xf16, #[[OPB]]>
// CHECK: %[[C:.+]] = tkgpu.convert_layout %{{.*}} : tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[D:.+]] = tk.dot %[[A]], %[[B]], %[[C]] {{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK: tkgpu.convert_layout %[[D]] : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #blocked>
// SM75-LABEL: func.func @f16
// SM75-NOT: tkgpu.mma
// SM75: tk.dot {{.*}} -> tensor<128x128xf32, #{{.+}}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @f16(%a: tensor<128x32xf16, #b>, %b: tensor<32x128xf16, #b>, %c: tensor<128x128xf32, #b>) -> tensor<128x128xf32, #b> {
  %d = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<128x32xf16, #b> * tensor<32x128xf16, #b> + tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  func.return %d : tensor<128x128xf32, #b>
}
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>

// 8 warps: 4 x 2 for 128 x 128 (32 x 64 per warp); 1 x 8 for 32 x 256 (32 x 32 per warp); tf32
// takes kWidth 1, i8 kWidth 4; ieee f32 and i8 with K = 16 stay on the FMA path.
// CHECK: #[[MMA:.+]] = #tkgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
// CHECK: #[[MMA1:.+]] = #tkgpu.mma<{version = 2, warpsPerCTA = [1, 8], instrShape = [16, 8]}>
// CHECK: = #tkgpu.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 1}>
// CHECK: = #tkgpu.dot_operand<{opIdx = 1, parent = #[[MMA]], kWidth = 1}>
// CHECK: = #tkgpu.dot_operand<{opIdx = 0, parent = #[[MMA1]], kWidth = 4}>
// CHECK: = #tkgpu.dot_operand<{opIdx = 1, parent = #[[MMA1]], kWidth = 4}>
// CHECK-LABEL: func.func @kinds
// CHECK: tk.dot {{.*}}input_precision = "tf32"{{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK: tk.dot {{.*}} -> tensor<32x256xi32, #[[MMA1]]>
// CHECK: tk.dot {{.*}}input_precision = "ieee"{{.*}} -> tensor<128x128xf32, #blocked>
// CHECK: tk.dot {{.*}} -> tensor<32x32xi32, #blocked>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @kinds(%a: tensor<128x32xf32, #b>, %b: tensor<32x128xf32, #b>, %c: tensor<128x128xf32, #b>,
                 %ia: tensor<32x64xi8, #b>, %ib: tensor<64x256xi8, #b>, %ic: tensor<32x256xi32, #b>,
                 %ja: tensor<32x16xi8, #b>, %jb: tensor<16x32xi8, #b>, %jc: tensor<32x32xi32, #b>)
    -> (tensor<128x128xf32, #b>, tensor<32x256xi32, #b>, tensor<128x128xf32, #b>, tensor<32x32xi32, #b>) {
  %0 = tk.dot %a, %b, %c {input_precision = "tf32"} : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> + tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  %1 = tk.dot %ia, %ib, %ic {input_precision = "ieee"} : tensor<32x64xi8, #b> * tensor<64x256xi8, #b> + tensor<32x256xi32, #b> -> tensor<32x256xi32, #b>
  %2 = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> + tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  %3 = tk.dot %ja, %jb, %jc {input_precision = "ieee"} : tensor<32x16xi8, #b> * tensor<16x32xi8, #b> + tensor<32x32xi32, #b> -> tensor<32x32xi32, #b>
  func.return %0, %1, %2, %3 : tensor<128x128xf32, #b>, tensor<32x256xi32, #b>, tensor<128x128xf32, #b>, tensor<32x32xi32, #b>
}
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>

// fp8 (e4m3 x e5m2 here) takes mma.sync m16n8k32 from sm_89, kWidth 4 as i8; below, it stays
// on the FMA path here (tk-legalize-fp8 has widened it to f16 in the pipeline).
// SM89-LABEL: func.func @fp8
// SM89: tk.dot {{.*}} : tensor<64x64xf8E4M3FN, #{{.+}}> * tensor<64x64xf8E5M2, #{{.+}}> + tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
// CHECK-LABEL: func.func @fp8
// CHECK: tk.dot {{.*}} -> tensor<64x64xf32, #blocked>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
func.func @fp8(%a: tensor<64x64xf8E4M3FN, #b>, %b: tensor<64x64xf8E5M2, #b>, %c: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> {
  %d = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<64x64xf8E4M3FN, #b> * tensor<64x64xf8E5M2, #b> + tensor<64x64xf32, #b> -> tensor<64x64xf32, #b>
  func.return %d : tensor<64x64xf32, #b>
}
}

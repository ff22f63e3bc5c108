// A 64 x 128 tile of C = A B through two tensor descriptors (A M x K, B K x N, f16), the K loop
// of backend_test's TMA ring checks: on sm_90a both loads fill wgmma's rings by TMA.
module {
  func.func @matmul_kn(%arg0: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %arg2: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %arg3: i32 {tk.divisibility = 16 : i32}, %arg4: i32 {tk.divisibility = 16 : i32}, %arg5: i32 {tk.divisibility = 16 : i32}) {
    %0 = tk.get_program_id {axis = 0 : i32} : i32
    %1 = tk.get_program_id {axis = 1 : i32} : i32
    %2 = arith.extsi %arg5 : i32 to i64
    %c1_i64 = arith.constant 1 : i64
    %3 = tk.make_tensor_descriptor %arg1, [%arg3, %arg5], [%2, %c1_i64] : !tk.ptr<f16>, !tk.tensordesc<tensor<64x64xf16>>
    %4 = arith.extsi %arg4 : i32 to i64
    %c1_i64_0 = arith.constant 1 : i64
    %5 = tk.make_tensor_descriptor %arg2, [%arg5, %arg4], [%4, %c1_i64_0] : !tk.ptr<f16>, !tk.tensordesc<tensor<64x128xf16>>
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32>
    %c64_i32 = arith.constant 64 : i32
    %6 = arith.addi %arg5, %c64_i32 : i32
    %c1_i32 = arith.constant 1 : i32
    %7 = arith.subi %6, %c1_i32 : i32
    %c64_i32_1 = arith.constant 64 : i32
    %8 = arith.divsi %7, %c64_i32_1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32_2 = arith.constant 1 : i32
    %9 = scf.for %arg6 = %c0_i32 to %8 step %c1_i32_2 iter_args(%arg7 = %cst) -> (tensor<64x128xf32>)  : i32 {
      %c64_i32_4 = arith.constant 64 : i32
      %28 = arith.muli %arg6, %c64_i32_4 : i32
      %c128_i32_5 = arith.constant 128 : i32
      %29 = arith.muli %1, %c128_i32_5 : i32
      %30 = tk.descriptor_load %5[%28, %29] : !tk.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16>
      %c64_i32_6 = arith.constant 64 : i32
      %31 = arith.muli %0, %c64_i32_6 : i32
      %c64_i32_7 = arith.constant 64 : i32
      %32 = arith.muli %arg6, %c64_i32_7 : i32
      %33 = tk.descriptor_load %3[%31, %32] : !tk.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
      %34 = tk.dot %33, %30, %arg7 {input_precision = "ieee"} : tensor<64x64xf16> * tensor<64x128xf16> + tensor<64x128xf32> -> tensor<64x128xf32>
      scf.yield %34 : tensor<64x128xf32>
    }
    %10 = tk.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %c128_i32 = arith.constant 128 : i32
    %11 = arith.muli %1, %c128_i32 : i32
    %12 = tk.splat %11 : i32 -> tensor<128xi32>
    %13 = arith.addi %12, %10 : tensor<128xi32>
    %14 = tk.expand_dims %13 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %15 = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %c64_i32_3 = arith.constant 64 : i32
    %16 = arith.muli %0, %c64_i32_3 : i32
    %17 = tk.splat %16 : i32 -> tensor<64xi32>
    %18 = arith.addi %17, %15 : tensor<64xi32>
    %19 = tk.expand_dims %18 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %20 = tk.splat %arg4 : i32 -> tensor<64x1xi32>
    %21 = arith.muli %19, %20 : tensor<64x1xi32>
    %22 = tk.splat %arg0 : !tk.ptr<f16> -> tensor<64x1x!tk.ptr<f16>>
    %23 = tk.addptr %22, %21 : tensor<64x1x!tk.ptr<f16>>, tensor<64x1xi32> -> tensor<64x1x!tk.ptr<f16>>
    %24 = tk.broadcast %14 : tensor<1x128xi32> -> tensor<64x128xi32>
    %25 = tk.broadcast %23 : tensor<64x1x!tk.ptr<f16>> -> tensor<64x128x!tk.ptr<f16>>
    %26 = tk.addptr %25, %24 : tensor<64x128x!tk.ptr<f16>>, tensor<64x128xi32> -> tensor<64x128x!tk.ptr<f16>>
    %27 = arith.truncf %9 : tensor<64x128xf32> to tensor<64x128xf16>
    tk.store %26, %27 : (tensor<64x128x!tk.ptr<f16>>, tensor<64x128xf16>) -> ()
    return
  }
}


// A copy through two tensor maps, in the form tk-tma-descriptors gives a kernel (gpu_run.cpp
// encodes the maps; sm_90 and newer): each program reads rows [64 p, 64 p + 64) x columns
// [16, 48) of a 100 x 40 f32 matrix (row stride 48), doubles them and writes them to the same
// place of another. Rows past 100 and columns past 40 read as zero and are not written.
module {
  func.func @tma_copy(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32 {tk.divisibility = 16 : i32}, %arg5: !tk.tensordesc<tensor<64x32xf32>> {tkgpu.tensor_map = {base = 1 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 2, 3>, stride_args = array<i32: 4, -1>, strides = array<i64: 0, 1>}}, %arg6: !tk.tensordesc<tensor<64x32xf32>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 2, 3>, stride_args = array<i32: 4, -1>, strides = array<i64: 0, 1>}}) {
    %0 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %c64 = arith.constant 64 : i32
    %c16 = arith.constant 16 : i32
    %1 = arith.muli %0, %c64 : i32
    %2 = tk.descriptor_load %arg5[%1, %c16] : !tk.tensordesc<tensor<64x32xf32>> -> tensor<64x32xf32>
    %3 = arith.addf %2, %2 : tensor<64x32xf32>
    tk.descriptor_store %arg6[%1, %c16], %3 : !tk.tensordesc<tensor<64x32xf32>>, tensor<64x32xf32>
    func.return
  }
}

// A copy through two tensor descriptors, as the front end prints one: each program reads rows
// [64 p, 64 p + 64) x columns [32, 64) of an M x N f32 matrix (row stride ld, 16-byte aligned
// pointers, N and ld divisible by 16: a descriptor that stores needs rows of 16-byte multiples
// for TMA), doubles them and writes them to the same place of another.
// With tk_compile_options::tensor_maps on sm_90 and newer both descriptors become tensor maps
// (backend_test.cpp checks the recipes; gpu_run.cpp encodes them and runs the kernel);
// otherwise they take the pointer path.
module {
  func.func @descriptor_copy(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg2: i32, %arg3: i32 {tk.divisibility = 16 : i32}, %arg4: i32 {tk.divisibility = 16 : i32}) {
    %0 = arith.extsi %arg4 : i32 to i64
    %1 = arith.constant 1 : i64
    %2 = tk.make_tensor_descriptor %arg1, [%arg2, %arg3], [%0, %1] : !tk.ptr<f32>, !tk.tensordesc<tensor<64x32xf32>>
    %3 = tk.make_tensor_descriptor %arg0, [%arg2, %arg3], [%0, %1] : !tk.ptr<f32>, !tk.tensordesc<tensor<64x32xf32>>
    %4 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %c64 = arith.constant 64 : i32
    %c32 = arith.constant 32 : i32
    %5 = arith.muli %4, %c64 : i32
    %6 = tk.descriptor_load %2[%5, %c32] : !tk.tensordesc<tensor<64x32xf32>> -> tensor<64x32xf32>
    %7 = arith.addf %6, %6 : tensor<64x32xf32>
    tk.descriptor_store %3[%5, %c32], %7 : !tk.tensordesc<tensor<64x32xf32>>, tensor<64x32xf32>
    func.return
  }
}

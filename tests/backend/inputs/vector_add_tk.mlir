// The front end's vector add (examples/kernels/vector_add.hpp), printed by
// examples::vector_add.ir(out, x, y, 98432, 1024) with 16-byte aligned pointers: tk-level IR that
// tk_compile lowers through the whole pipeline (backend_test.cpp, gpu_run.cpp).
module {
  func.func @vector_add(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg2: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg3: i32 {tk.divisibility = 16 : i32}) {
    %0 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32 loc("examples/kernels/vector_add.hpp":18:32)
    %1 = "tk.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32> loc("examples/kernels/vector_add.hpp":19:46)
    %2 = arith.constant 1024 : i32 loc("examples/kernels/vector_add.hpp":19:28)
    %3 = arith.muli %0, %2 : i32 loc("examples/kernels/vector_add.hpp":19:28)
    %4 = "tk.splat"(%3) : (i32) -> tensor<1024xi32> loc("examples/kernels/vector_add.hpp":19:55)
    %5 = arith.addi %4, %1 : tensor<1024xi32> loc("examples/kernels/vector_add.hpp":19:55)
    %6 = "tk.splat"(%arg3) : (i32) -> tensor<1024xi32> loc("examples/kernels/vector_add.hpp":20:29)
    %7 = arith.cmpi slt, %5, %6 : tensor<1024xi32> loc("examples/kernels/vector_add.hpp":20:29)
    %8 = "tk.splat"(%arg2) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>> loc("examples/kernels/vector_add.hpp":21:75)
    %9 = "tk.addptr"(%8, %5) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>> loc("examples/kernels/vector_add.hpp":21:75)
    %10 = "tk.load"(%9, %7) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32> loc("examples/kernels/vector_add.hpp":21:70)
    %11 = "tk.splat"(%arg1) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>> loc("examples/kernels/vector_add.hpp":21:45)
    %12 = "tk.addptr"(%11, %5) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>> loc("examples/kernels/vector_add.hpp":21:45)
    %13 = "tk.load"(%12, %7) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32> loc("examples/kernels/vector_add.hpp":21:40)
    %14 = arith.addf %13, %10 : tensor<1024xf32> loc("examples/kernels/vector_add.hpp":21:88)
    %15 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>> loc("examples/kernels/vector_add.hpp":21:23)
    %16 = "tk.addptr"(%15, %5) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>> loc("examples/kernels/vector_add.hpp":21:23)
    "tk.store"(%16, %14, %7) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> () loc("examples/kernels/vector_add.hpp":21:16)
    func.return loc("examples/kernels/vector_add.hpp":16:12)
  } loc("examples/kernels/vector_add.hpp":16:12)
}

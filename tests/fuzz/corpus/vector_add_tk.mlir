module {
  func.func @vector_add(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg2: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg3: i32 {tk.divisibility = 16 : i32}) {
    %0 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %1 = "tk.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32>
    %2 = arith.constant 1024 : i32
    %3 = arith.muli %0, %2 : i32
    %4 = "tk.splat"(%3) : (i32) -> tensor<1024xi32>
    %5 = arith.addi %4, %1 : tensor<1024xi32>
    %6 = "tk.splat"(%arg3) : (i32) -> tensor<1024xi32>
    %7 = arith.cmpi slt, %5, %6 : tensor<1024xi32>
    %8 = "tk.splat"(%arg2) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>>
    %9 = "tk.addptr"(%8, %5) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>>
    %10 = "tk.load"(%9, %7) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
    %11 = "tk.splat"(%arg1) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>>
    %12 = "tk.addptr"(%11, %5) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>>
    %13 = "tk.load"(%12, %7) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
    %14 = arith.addf %13, %10 : tensor<1024xf32>
    %15 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<1024x!tk.ptr<f32>>
    %16 = "tk.addptr"(%15, %5) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tk.ptr<f32>>
    "tk.store"(%16, %14, %7) : (tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
    func.return
  }
}

// tk-level IR (as the front end prints it), without masks: tk_compile lowers it through the
// whole pipeline (Lower.cpp).
module {
  func.func @copy(%arg0: !tk.ptr<f32>, %arg1: !tk.ptr<f32>) {
    %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
    %1 = "tk.splat"(%arg1) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
    %2 = "tk.addptr"(%1, %0) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
    %4 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
    %5 = "tk.addptr"(%4, %0) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
    "tk.store"(%5, %3) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>) -> ()
    return
  }
}

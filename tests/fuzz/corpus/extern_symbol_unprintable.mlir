// tk.extern_elementwise with a symbol NVPTX cannot print (NUL bytes): a verifier error, once an
// abort in LLVM's NVPTX printer ("Symbol name with unsupported characters").
module {
  func.func @library(%arg0: !tk.ptr<f64> {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 16 : i32, start = 0 : i32}> : () -> tensor<16xi32>
    %1 = "tk.splat"(%arg0) : (!tk.ptr<f64>) -> tensor<16x!tk.ptr<f64>>
    %2 = "tk.addptr"(%1, %0) : (tensor<16x!tk.ptr<f64>>, tensor<16xi32>) -> tensor<16x!tk.ptr<f64>>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tk.ptr<f64>>) -> tensor<16xf64>
    %4 = "tk.extern_elementwise"(%3) <{pure = true, symbol = "(\00\00\0010"}> : (tensor<16xf64>) -> tensor<16xf64>
    "tk.store"(%2, %4) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tk.ptr<f64>>, tensor<16xf64>) -> ()
    func.return
  }
}

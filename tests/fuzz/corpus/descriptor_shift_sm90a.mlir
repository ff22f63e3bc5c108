// fuzz: target=sm_90a maps=1
// A copy through two tensor descriptors, the source block at (i - di, j - dj): a tensor map
// whose load is checked at run time (TMA needs innermost coordinates of 16-byte multiples).
module {
  func.func @desc_shift(%arg0: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %arg1: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32 {tk.divisibility = 16 : i32}, %arg5: i32, %arg6: i32) {
    %0 = arith.extsi %arg4 : i32 to i64 loc("ir.cpp":6:54)
    %1 = arith.constant 1 : i64 loc("ir.cpp":6:58)
    %2 = "tk.make_tensor_descriptor"(%arg1, %arg2, %arg3, %0, %1) : (!tk.ptr<f16>, i32, i32, i64, i64) -> !tk.tensordesc<tensor<64x64xf16>> loc("ir.cpp":6:40)
    %3 = arith.extsi %arg4 : i32 to i64 loc("ir.cpp":7:56)
    %4 = arith.constant 1 : i64 loc("ir.cpp":7:60)
    %5 = "tk.make_tensor_descriptor"(%arg0, %arg2, %arg3, %3, %4) : (!tk.ptr<f16>, i32, i32, i64, i64) -> !tk.tensordesc<tensor<64x64xf16>> loc("ir.cpp":7:41)
    %6 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32 loc("ir.cpp":8:26)
    %7 = arith.constant 64 : i32 loc("ir.cpp":8:30)
    %8 = arith.muli %6, %7 : i32 loc("ir.cpp":8:30)
    %9 = "tk.get_program_id"() <{axis = 1 : i32}> : () -> i32 loc("ir.cpp":9:26)
    %10 = arith.constant 64 : i32 loc("ir.cpp":9:30)
    %11 = arith.muli %9, %10 : i32 loc("ir.cpp":9:30)
    %12 = arith.subi %8, %arg5 : i32 loc("ir.cpp":10:34)
    %13 = arith.subi %11, %arg6 : i32 loc("ir.cpp":10:42)
    %14 = "tk.descriptor_load"(%2, %12, %13) : (!tk.tensordesc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16> loc("ir.cpp":10:30)
    "tk.descriptor_store"(%5, %8, %11, %14) : (!tk.tensordesc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> () loc("ir.cpp":10:13)
    func.return loc("ir.cpp":3:26)
  } loc("ir.cpp":3:26)
}


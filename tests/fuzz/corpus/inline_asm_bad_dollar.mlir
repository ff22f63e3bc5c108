// tk.inline_asm whose asm string has a `$` that names no operand ("$;2"): a verifier error, once
// an abort in LLVM's inline asm printer ("Bad $ operand number in inline asm string").
module {
  func.func @inline_asm(%arg0: !tk.ptr<f16> {tk.divisibility = 16 : i32}) {
    %0 = "tk.make_range"() <{end = 32 : i32, start = 0 : i32}> : () -> tensor<32xi32>
    %1 = "tk.splat"(%arg0) : (!tk.ptr<f16>) -> tensor<32x!tk.ptr<f16>>
    %2 = "tk.addptr"(%1, %0) : (tensor<32x!tk.ptr<f16>>, tensor<32xi32>) -> tensor<32x!tk.ptr<f16>>
    %3 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<32x!tk.ptr<f16>>) -> tensor<32xf16>
    %4 = "tk.inline_asm"(%3, %3) <{asm_string = "add.f16x2 $0, $1, $;2", constraints = "=r,r,r", pack = 2 : i32, pure = true}> : (tensor<32xf16>, tensor<32xf16>) -> tensor<32xf16>
    "tk.store"(%2, %4) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<32x!tk.ptr<f16>>, tensor<32xf16>) -> ()
    func.return
  }
}

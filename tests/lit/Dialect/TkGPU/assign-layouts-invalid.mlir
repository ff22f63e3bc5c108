// tk-assign-layouts: a tensor with a dimension that is not a power of two (a function argument
// or an arith op, which the tk verifiers do not see) stops the pass with an error at it; it
// used to reach the layout constructor and fail its assertion (found by the fuzzer).
// RUN: tk-opt %s -split-input-file -tk-assign-layouts=num-warps=4 -verify-diagnostics

// expected-error @+1 {{a tensor of type 'tensor<8x15xbf16>' has a dimension that is not a power of two}}
func.func @argument(%a: tensor<8x15xbf16>) {
  func.return
}

// -----

func.func @result(%a: f32) {
  // expected-error @+1 {{a tensor of type 'tensor<3xf32>' has a dimension that is not a power of two}}
  %0 = "tk.splat"(%a) : (f32) -> tensor<3xf32>
  func.return
}

func.func @dot_tf32x3_bf16(%a: tensor<08x15xbf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
// fuzz:tk.dot"(%a, %b, %c) <{inp6x16xbf16>, tensor<04xr<1>x16xf32>
  func.return
}

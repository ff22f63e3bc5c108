// fuzz: target=sm_90a warps=8 stages=3
// A 64x64 tile of A (64xK) * B (Kx64), K in steps of 32, f16 in, f32 out: tk.dot in a loop
// (software pipelining, shared memory, tensor cores). The line above picks the options.
module {
  func.func @matmul(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %c: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %k: i32) {
    %r64 = "tk.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32>
    %r32 = "tk.make_range"() <{end = 32 : i32, start = 0 : i32}> : () -> tensor<32xi32>
    %rows = "tk.expand_dims"(%r64) <{axis = 1 : i32}> : (tensor<64xi32>) -> tensor<64x1xi32>
    %cols = "tk.expand_dims"(%r64) <{axis = 0 : i32}> : (tensor<64xi32>) -> tensor<1x64xi32>
    %krow = "tk.expand_dims"(%r32) <{axis = 1 : i32}> : (tensor<32xi32>) -> tensor<32x1xi32>
    %kcol = "tk.expand_dims"(%r32) <{axis = 0 : i32}> : (tensor<32xi32>) -> tensor<1x32xi32>
    %kv = "tk.splat"(%k) : (i32) -> tensor<64x1xi32>
    %arow = arith.muli %rows, %kv : tensor<64x1xi32>
    %aoff0 = "tk.broadcast"(%arow) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %aoff1 = "tk.broadcast"(%kcol) : (tensor<1x32xi32>) -> tensor<64x32xi32>
    %aoff = arith.addi %aoff0, %aoff1 : tensor<64x32xi32>
    %c64 = arith.constant dense<64> : tensor<32x1xi32>
    %brow = arith.muli %krow, %c64 : tensor<32x1xi32>
    %boff0 = "tk.broadcast"(%brow) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %boff1 = "tk.broadcast"(%cols) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %boff = arith.addi %boff0, %boff1 : tensor<32x64xi32>
    %as = "tk.splat"(%a) : (!tk.ptr<f16>) -> tensor<64x32x!tk.ptr<f16>>
    %ap = "tk.addptr"(%as, %aoff) : (tensor<64x32x!tk.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tk.ptr<f16>>
    %bs = "tk.splat"(%b) : (!tk.ptr<f16>) -> tensor<32x64x!tk.ptr<f16>>
    %bp = "tk.addptr"(%bs, %boff) : (tensor<32x64x!tk.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tk.ptr<f16>>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %astep = arith.constant dense<32> : tensor<64x32xi32>
    %bstep0 = arith.constant dense<2048> : tensor<32x64xi32>
    %acc:3 = scf.for %i = %c0 to %k step %c32 iter_args(%sum = %zero, %pa = %ap, %pb = %bp) -> (tensor<64x64xf32>, tensor<64x32x!tk.ptr<f16>>, tensor<32x64x!tk.ptr<f16>>) : i32 {
      %x = "tk.load"(%pa) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x32x!tk.ptr<f16>>) -> tensor<64x32xf16>
      %y = "tk.load"(%pb) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<32x64x!tk.ptr<f16>>) -> tensor<32x64xf16>
      %d = "tk.dot"(%x, %y, %sum) <{input_precision = "ieee"}> : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tk.addptr"(%pa, %astep) : (tensor<64x32x!tk.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tk.ptr<f16>>
      %nb = "tk.addptr"(%pb, %bstep0) : (tensor<32x64x!tk.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tk.ptr<f16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, tensor<64x32x!tk.ptr<f16>>, tensor<32x64x!tk.ptr<f16>>
    }
    %c64r = arith.constant dense<64> : tensor<64x1xi32>
    %crow = arith.muli %rows, %c64r : tensor<64x1xi32>
    %coff0 = "tk.broadcast"(%crow) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %coff1 = "tk.broadcast"(%cols) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %coff = arith.addi %coff0, %coff1 : tensor<64x64xi32>
    %cs = "tk.splat"(%c) : (!tk.ptr<f32>) -> tensor<64x64x!tk.ptr<f32>>
    %cp = "tk.addptr"(%cs, %coff) : (tensor<64x64x!tk.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tk.ptr<f32>>
    "tk.store"(%cp, %acc#0) : (tensor<64x64x!tk.ptr<f32>>, tensor<64x64xf32>) -> ()
    func.return
  }
}

// fuzz: target=sm_90a maps=1
module {
  func.func @k(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 99 : i32, shape = array<i64: 0>, shape_args = array<i32: 7>, stride_args = array<i32: -1, -1>, strides = array<i64: 3, 2>}}) {
    %0 = arith.constant 0 : i32
    %1 = "tk.descriptor_load"(%arg1, %0, %0) : (!tk.tensordesc<tensor<16x16xf32>>, i32, i32) -> tensor<16x16xf32>
    %p = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<16x16x!tk.ptr<f32>>
    "tk.store"(%p, %1) : (tensor<16x16x!tk.ptr<f32>>, tensor<16x16xf32>) -> ()
    func.return
  }
}

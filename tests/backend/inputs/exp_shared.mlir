// Calls libdevice (__nv_expf) and uses 1 KiB of static shared memory: out[t] = exp(in[t ^ 1]).
module {
  llvm.func @__nv_expf(f32) -> f32
  llvm.mlir.global internal @staging() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x f32>
  llvm.func @exp_shared(%out: !llvm.ptr<1>, %in: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %index = llvm.zext %tid : i32 to i64
    %pin = llvm.getelementptr %in[%index] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %x = llvm.load %pin : !llvm.ptr<1> -> f32
    %e = llvm.call @__nv_expf(%x) : (f32) -> f32
    %staging = llvm.mlir.addressof @staging : !llvm.ptr<3>
    %ps = llvm.getelementptr %staging[0, %index] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, !llvm.array<256 x f32>
    llvm.store %e, %ps : f32, !llvm.ptr<3>
    nvvm.barrier0
    %one = llvm.mlir.constant(1 : i64) : i64
    %partner = llvm.xor %index, %one : i64
    %pp = llvm.getelementptr %staging[0, %partner] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, !llvm.array<256 x f32>
    %y = llvm.load %pp : !llvm.ptr<3> -> f32
    %pout = llvm.getelementptr %out[%index] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    llvm.store %y, %pout : f32, !llvm.ptr<1>
    llvm.return
  }
}

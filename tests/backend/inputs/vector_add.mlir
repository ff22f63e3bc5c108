// A hand-written kernel already in the LLVM and NVVM dialects: out[i] = a[i] + b[i] for i < n,
// i = ctaid.x * ntid.x + tid.x. Compiled by tests/backend/backend_test.cpp for every target.
module {
  llvm.func @vector_add(%out: !llvm.ptr<1>, %a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %n: i32)
      attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %ctaid = nvvm.read.ptx.sreg.ctaid.x : i32
    %ntid = nvvm.read.ptx.sreg.ntid.x : i32
    %base = llvm.mul %ctaid, %ntid : i32
    %i = llvm.add %base, %tid : i32
    %in_bounds = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %in_bounds, ^body, ^exit
  ^body:
    %index = llvm.sext %i : i32 to i64
    %pa = llvm.getelementptr %a[%index] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %pb = llvm.getelementptr %b[%index] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %po = llvm.getelementptr %out[%index] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %x = llvm.load %pa : !llvm.ptr<1> -> f32
    %y = llvm.load %pb : !llvm.ptr<1> -> f32
    %sum = llvm.fadd %x, %y : f32 loc("vector_add.cpp":12:20)
    llvm.store %sum, %po : f32, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}

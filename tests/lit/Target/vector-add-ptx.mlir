// PTX emission through the C ABI (tk-compile): target, ISA, entry, launch bounds from num_warps.
// REQUIRES: tk-compile
// RUN: tk-compile --target=sm_90a %s | FileCheck %s
// RUN: tk-compile --target=sm_80 --num-warps=8 %s | FileCheck %s --check-prefix=SM80
// RUN: tk-compile --target=sm_120a %s | FileCheck %s --check-prefix=SM120
// RUN: not tk-compile --target=sm_42 %s 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: not tk-compile --target=sm_80 --num-warps=3 %s 2>&1 | FileCheck %s --check-prefix=BADWARPS

// CHECK:      .version 8.0
// CHECK-NEXT: .target sm_90a
// CHECK:      .visible .entry vector_add(
// CHECK:      .maxntid 128, 1, 1
// CHECK-DAG:  mov.u32 {{.*}}%tid.x
// CHECK-DAG:  mov.u32 {{.*}}%ctaid.x
// CHECK:      setp.{{.*}}
// CHECK:      ld.global.{{.*}}
// CHECK:      ld.global.{{.*}}
// CHECK:      add.{{(rn.)?}}f32
// CHECK:      st.global.{{.*}}

// SM80:       .target sm_80
// SM80:       .maxntid 256, 1, 1

// SM120:      .version 8.7
// SM120-NEXT: .target sm_120a

// BADTARGET:  unknown target 'sm_42'; supported: sm_75
// BADWARPS:   num_warps must be a power of two from 1 to 32

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
    %sum = llvm.fadd %x, %y : f32
    llvm.store %sum, %po : f32, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}

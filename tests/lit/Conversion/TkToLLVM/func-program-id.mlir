// FuncOpToLLVM.cpp and ProgramIdOpToLLVM.cpp: the kernel becomes an llvm.func with nvvm.kernel
// and nvvm.maxntid (num_warps * 32), !tk.ptr arguments !llvm.ptr<1> (tk.divisibility becomes
// llvm.align); program ids are CTA ids; scalar arith and tk.addptr lower as they are.
// RUN: tk-opt %s -tk-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @ids(%{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: i32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>}
// CHECK: nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK: nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK: nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK: llvm.add
// CHECK: llvm.mul
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: llvm.sitofp
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK: llvm.return
// CHECK-NOT: func.func
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @ids(%p: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32) {
    %0 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %1 = "tk.get_program_id"() <{axis = 1 : i32}> : () -> i32
    %2 = "tk.get_num_programs"() <{axis = 2 : i32}> : () -> i32
    %3 = arith.addi %0, %1 : i32
    %4 = arith.muli %3, %2 : i32
    %5 = "tk.addptr"(%p, %4) : (!tk.ptr<f32>, i32) -> !tk.ptr<f32>
    %6 = arith.sitofp %n : i32 to f32
    "tk.store"(%5, %6) : (!tk.ptr<f32>, f32) -> ()
    func.return
  }
}

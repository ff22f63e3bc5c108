// The front end's vector add as tk IR (tests/backend/inputs/vector_add_tk.mlir) through the
// whole pipeline of tk_compile (lib/CAPI/Lower.cpp) to PTX: program id and thread id; pointers
// 16-byte aligned and n a multiple of 16, so tk-coalesce gives each thread 4 consecutive floats:
// masked 16-byte loads (a branch around ld.global.v4), the add, masked 16-byte stores.
// REQUIRES: tk-compile
// RUN: tk-compile --target=sm_90a %S/../../backend/inputs/vector_add_tk.mlir | FileCheck %s
// RUN: tk-compile --target=sm_80 --num-warps=8 %S/../../backend/inputs/vector_add_tk.mlir | FileCheck %s --check-prefix=SM80

// CHECK:      .target sm_90a
// CHECK:      .visible .entry vector_add(
// CHECK:      .param .u64 .ptr .global .align 16 vector_add_param_0
// CHECK:      .maxntid 128, 1, 1
// CHECK-DAG:  mov.u32 {{.*}}%ctaid.x
// CHECK-DAG:  mov.u32 {{.*}}%tid.x
// CHECK:      setp.ge.s32
// CHECK:      @%p{{[0-9]+}} bra
// CHECK:      ld.global.v4.b32
// CHECK:      add.{{(rn.)?}}f32
// CHECK:      st.global.v4.b32
// CHECK:      ret;

// SM80:       .target sm_80
// SM80:       .maxntid 256, 1, 1
// SM80:       ld.global.v4.b32
// SM80:       st.global.v4.b32

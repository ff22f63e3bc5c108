// TK_DUMP prints the IR after each stage of the pipeline (lib/CAPI/Lower.cpp's table) to stderr,
// and tk-compile --time the milliseconds per stage of tk_compile.
// REQUIRES: tk-compile
// RUN: env TK_DUMP=1 tk-compile --target=sm_90a --time %S/../../backend/inputs/vector_add_tk.mlir -o /dev/null 2>&1 | FileCheck %s

// CHECK:      // -----// IR after tk-assign-layouts //----- //
// CHECK:      #blocked = #tkgpu.blocked<{sizePerThread = [1], {{.*}}warpsPerCTA = [4]
// CHECK:      tk.make_range {{.*}} : tensor<1024xi32, #blocked>
// CHECK:      // -----// IR after tk-coalesce //----- //
// CHECK:      // -----// IR after tk-remove-layout-conversions //----- //
// CHECK-NOT:  tkgpu.convert_layout
// CHECK:      // -----// IR after tk-allocate-shared-memory //----- //
// CHECK:      tkgpu.shared = 0 : i32
// CHECK:      // -----// IR after tk-to-llvm //----- //
// CHECK:      llvm.func @vector_add(
// CHECK:      scf.if
// CHECK:      // -----// IR after convert-scf-to-cf //----- //
// CHECK:      cf.cond_br
// CHECK:      // -----// IR after convert-cf-to-llvm //----- //
// CHECK:      // -----// IR after convert-arith-to-llvm //----- //
// CHECK:      // -----// IR after canonicalize //----- //
// CHECK:      // -----// IR after cse //----- //
// CHECK:      // -----// IR after reconcile-unrealized-casts //----- //
// CHECK-NOT:  tk.
// CHECK:      parse {{[0-9]+\.[0-9]+}} ms
// CHECK-NEXT: passes {{[0-9]+\.[0-9]+}} ms
// CHECK-NEXT: translate {{[0-9]+\.[0-9]+}} ms
// CHECK-NEXT: llvm-opt {{[0-9]+\.[0-9]+}} ms
// CHECK-NEXT: ptx {{[0-9]+\.[0-9]+}} ms
// CHECK-NEXT: cubin {{[0-9]+\.[0-9]+}} ms

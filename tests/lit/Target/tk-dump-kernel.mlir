// TK_DUMP with kernel names instead of 1: only the kernels it names are dumped, and a name is
// not complained about as a bad boolean (lib/CAPI/Compile.cpp, dumpRequested).
// REQUIRES: tk-compile
// RUN: env TK_DUMP=vector_add tk-compile --target=sm_90a %S/../../backend/inputs/vector_add_tk.mlir -o /dev/null 2>&1 | FileCheck %s
// RUN: env TK_DUMP='softmax, vector_add' tk-compile --target=sm_90a %S/../../backend/inputs/vector_add_tk.mlir -o /dev/null 2>&1 | FileCheck %s
// RUN: env TK_DUMP=softmax tk-compile --target=sm_90a %S/../../backend/inputs/vector_add_tk.mlir -o /dev/null 2>&1 | count 0
// RUN: env TK_DUMP=vector tk-compile --target=sm_90a %S/../../backend/inputs/vector_add_tk.mlir -o /dev/null 2>&1 | count 0
// RUN: env TK_DUMP=off tk-compile --target=sm_90a %S/../../backend/inputs/vector_add_tk.mlir -o /dev/null 2>&1 | count 0

// CHECK-NOT:  ignoring TK_DUMP
// CHECK:      // -----// IR after tk-assign-layouts //----- //
// CHECK:      func.func @vector_add(
// CHECK:      // -----// IR after tk-to-llvm //----- //
// CHECK:      llvm.func @vector_add(
// CHECK:      // -----// IR after reconcile-unrealized-casts //----- //

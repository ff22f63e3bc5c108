// tk-compile --dump-stages=DIR writes the module after each stage (keep_stages), and
// --resources prints the line the runtime logs under TK_DEBUG for a loaded kernel.
// REQUIRES: tk-compile
// RUN: rm -rf %t && tk-compile --target=sm_90a --dump-stages=%t %S/../../backend/inputs/vector_add_tk.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=TK < %t/vector_add.tk.mlir
// RUN: FileCheck %s --check-prefix=TKGPU < %t/vector_add.tkgpu.mlir
// RUN: FileCheck %s --check-prefix=LLVMDIALECT < %t/vector_add.llvm.mlir
// RUN: FileCheck %s --check-prefix=LLIR < %t/vector_add.ll
// RUN: diff %t/vector_add.ptx %t.ptx
// RUN: not ls %t/vector_add.cubin
// RUN: tk-compile --target=sm_90a --resources %S/../../backend/inputs/vector_add_tk.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXRES
// RUN: tk-compile --target=sm_90a --lowering-target=sm_80 --num-warps=8 --resources %S/../../backend/inputs/exp_shared.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWERED
// RUN: sh -c 'tk-compile --target=sm_90a --dump-stages= %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: sh -c 'tk-compile --target=sm_90a --dump-stages=/dev/null/x %S/../../backend/inputs/vector_add_tk.mlir -o /dev/null; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=UNWRITABLE

// TK:          func.func @vector_add(
// TK:          tk.load
// TKGPU:       #blocked = #tkgpu.blocked<
// TKGPU:       tkgpu.shared = 0
// TKGPU-NOT:   llvm.func
// LLVMDIALECT: llvm.func @vector_add(
// LLVMDIALECT-NOT: tk.load
// LLIR:        target triple = "nvptx64-nvidia-cuda"
// LLIR:        define {{.*}}void @vector_add(

// PTXRES:      tk: kernel 'vector_add' for sm_90a: registers and local memory unknown (no cubin), 0 bytes of shared memory, 128 threads
// LOWERED:     tk: kernel 'exp_shared' for sm_90a (lowered for sm_80): registers and local memory unknown (no cubin), 1024 bytes of shared memory, 256 threads

// EMPTY:       tk-compile: --dump-stages takes a directory
// EMPTY:       exit 2

// UNWRITABLE:  tk-compile: cannot make /dev/null/x:
// UNWRITABLE:  exit 1

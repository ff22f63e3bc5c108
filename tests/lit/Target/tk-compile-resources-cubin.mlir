// tk-compile --resources with a cubin: the registers and local memory ptxas -v reports, in the
// words of the runtime's TK_DEBUG line; --dump-stages also writes the cubin.
// REQUIRES: tk-compile, ptxas
// RUN: rm -rf %t && env TK_NVJITLINK=0 tk-compile --target=sm_90a --emit=cubin --resources --dump-stages=%t %S/../../backend/inputs/vector_add_tk.mlir -o %t.cubin 2>&1 | FileCheck %s
// RUN: cmp %t/vector_add.cubin %t.cubin
// RUN: env TK_NVJITLINK=0 tk-compile --target=sm_90a --emit=cubin --resources %S/../../backend/inputs/exp_shared.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHARED

// CHECK: tk: kernel 'vector_add' for sm_90a: {{[1-9][0-9]*}} registers, 0 bytes of local memory per thread, 0 bytes of shared memory, 128 threads
// SHARED: tk: kernel 'exp_shared' for sm_90a: {{[1-9][0-9]*}} registers, 0 bytes of local memory per thread, 1024 bytes of shared memory, 128 threads

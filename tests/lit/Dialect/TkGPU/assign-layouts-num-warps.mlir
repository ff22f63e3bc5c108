// tk-assign-layouts accepts num-warps as the C ABI does: a power of two from 1 to 32 (1024
// threads, CUDA's limit per block).
// RUN: tk-opt %s -tk-assign-layouts=num-warps=6 -verify-diagnostics
// RUN: not tk-opt %s -tk-assign-layouts=num-warps=64 2>&1 | FileCheck %s --check-prefix=W64
// RUN: not tk-opt %s -tk-assign-layouts=num-warps=1048576 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not tk-opt %s -tk-assign-layouts=num-warps=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: tk-opt %s -tk-assign-layouts=num-warps=32 | FileCheck %s --check-prefix=W32

// W64: error: num-warps must be a power of two from 1 to 32, got 64
// HUGE: error: num-warps must be a power of two from 1 to 32, got 1048576
// ZERO: error: num-warps must be a power of two from 1 to 32, got 0
// W32: module attributes {tkgpu.num_warps = 32 : i32

// expected-error @+1 {{num-warps must be a power of two from 1 to 32, got 6}}
module {
  func.func @empty() {
    func.return
  }
}

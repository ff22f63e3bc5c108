// Utility.cpp's packElements / materializePackedStructs: while tk-to-llvm runs, a result's struct
// is an unrealized cast of its elements, which the ops reading it take apart; afterwards the
// structs something still reads as a struct (here an scf.yield) become insertvalue chains, and
// the others go.
// RUN: tk-opt %s -split-input-file -tk-to-llvm | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-to-llvm=keep-unread | FileCheck %s --check-prefix=KEEP

// A chain of elementwise ops whose result nothing reads: no struct at all.
// CHECK-LABEL: llvm.func @unread
// CHECK-NOT: llvm.insertvalue
// CHECK-NOT: llvm.extractvalue
// CHECK-NOT: unrealized_conversion_cast
// CHECK: llvm.return
// keep-unread: the make_range's and the addi's structs, two members each.
// KEEP-LABEL: llvm.func @unread
// KEEP-COUNT-4: llvm.insertvalue
// KEEP-NOT: llvm.insertvalue
// KEEP-NOT: unrealized_conversion_cast
// KEEP: llvm.return
#b = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @unread() {
    %r = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %s = arith.addi %r, %r : tensor<256xi32, #b>
    func.return
  }
}

// -----

// A tensor yielded by a loop: the yield reads the struct, built from the sum's two elements,
// which read the loop-carried struct's members; nothing else is built.
// CHECK-LABEL: llvm.func @yielded
// CHECK: scf.for {{.*}} iter_args(%[[A:[a-z0-9]+]] = %{{.*}}) -> (!llvm.struct<(i32, i32)>)
// CHECK: %[[A0:.*]] = llvm.extractvalue %[[A]][0]
// CHECK: %[[A1:.*]] = llvm.extractvalue %[[A]][1]
// CHECK: %[[S0:.*]] = llvm.add %[[A0]], %{{.*}} : i32
// CHECK: %[[S1:.*]] = llvm.add %[[A1]], %{{.*}} : i32
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, i32)>
// CHECK: %[[P0:.*]] = llvm.insertvalue %[[S0]], %[[U]][0]
// CHECK: %[[P1:.*]] = llvm.insertvalue %[[S1]], %[[P0]][1]
// CHECK: scf.yield %[[P1]] : !llvm.struct<(i32, i32)>
// CHECK-NOT: unrealized_conversion_cast
#b = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @yielded(%n: i32) {
    %r = "tk.make_range"() <{end = 256 : i32, start = 0 : i32}> : () -> tensor<256xi32, #b>
    %lb = arith.constant 0 : i32
    %step = arith.constant 1 : i32
    %acc = scf.for %iv = %lb to %n step %step iter_args(%a = %r) -> (tensor<256xi32, #b>) : i32 {
      %s = arith.addi %a, %r : tensor<256xi32, #b>
      scf.yield %s : tensor<256xi32, #b>
    }
    func.return
  }
}

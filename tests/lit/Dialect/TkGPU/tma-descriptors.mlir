// tk-tma-descriptors: a descriptor the launch knows (an aligned pointer argument, sizes and
// strides that are arguments or constants, strides of 16-byte multiples, rows of 16-byte
// multiples) becomes a kernel argument with its tensor map's recipe; the others stay for
// tk-rewrite-tensor-descriptors, which leaves the tensor-map accesses alone.
// RUN: tk-opt %s -split-input-file -tk-tma-descriptors | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-tma-descriptors -tk-rewrite-tensor-descriptors | FileCheck %s --check-prefix=REWRITE

// Both descriptors qualify: the row stride is an argument divisible by 16 (sign-extended), the
// second descriptor's sizes are a constant and an argument. The new arguments come last, in
// the order of the descriptors; the recipe names arguments, -1 where a constant is meant. The
// coordinates are program ids times the block: provably not negative, the innermost a
// multiple of 16 bytes, so the accesses go through the maps unguarded.
// CHECK-LABEL: func.func @copy
// CHECK-SAME: %arg5: !tk.tensordesc<tensor<64x32xf16>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 2, 3>, stride_args = array<i32: 4, -1>, strides = array<i64: 0, 1>}}
// CHECK-SAME: %arg6: !tk.tensordesc<tensor<64x32xf16>> {tkgpu.tensor_map = {base = 1 : i32, shape = array<i64: 1024, 0>, shape_args = array<i32: -1, 3>, stride_args = array<i32: -1, -1>, strides = array<i64: 64, 1>}}
// CHECK-NOT: tk.make_tensor_descriptor
// CHECK-NOT: scf.if
// CHECK: %[[X:.+]] = tk.descriptor_load %arg5[%[[I:.+]], %[[J:.+]]]
// CHECK: tk.descriptor_store %arg6[%[[I]], %[[J]]], %[[X]]
// REWRITE-LABEL: func.func @copy
// REWRITE-NOT: tk.load
// REWRITE: tk.descriptor_load %arg5
// REWRITE: tk.descriptor_store %arg6
func.func @copy(%in: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %out: !tk.ptr<f16> {tk.divisibility = 16 : i32},
                %m: i32, %n: i32 {tk.divisibility = 16 : i32}, %ld: i32 {tk.divisibility = 16 : i32}) {
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %c1024 = arith.constant 1024 : i32
  %c32_i32 = arith.constant 32 : i32
  %c64_i32 = arith.constant 64 : i32
  %ld64 = arith.extsi %ld : i32 to i64
  %p0 = tk.get_program_id {axis = 0 : i32} : i32
  %p1 = tk.get_program_id {axis = 1 : i32} : i32
  %i = arith.muli %p0, %c64_i32 : i32
  %j = arith.muli %p1, %c32_i32 : i32
  %d = tk.make_tensor_descriptor %in, [%m, %n], [%ld64, %c1] : !tk.ptr<f16>, !tk.tensordesc<tensor<64x32xf16>>
  %e = tk.make_tensor_descriptor %out, [%c1024, %n], [%c64, %c1] : !tk.ptr<f16>, !tk.tensordesc<tensor<64x32xf16>>
  %x = tk.descriptor_load %d[%i, %j] : !tk.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  tk.descriptor_store %e[%i, %j], %x : !tk.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  func.return
}

// -----

// Coordinates from arguments: TMA faults on an innermost coordinate that is not a multiple of
// 16 bytes (8 f16 elements) and on a store that starts before the tensor. The load at (%i, %j)
// checks %j & 7 == 0 at run time, the store also %i >= 0 and %j >= 0; where a check fails, the
// access goes through the descriptor made in the kernel, which tk-rewrite-tensor-descriptors
// turns into masked pointer blocks. A load whose innermost index is a multiple of 16 (%k,
// divisible by 16) needs no check, even at a negative row (TMA reads zeros there).
// CHECK-LABEL: func.func @guarded
// CHECK: %[[D:.+]] = tk.make_tensor_descriptor %arg0
// CHECK: %[[LOW:.+]] = arith.andi %arg3, %c7_i32
// CHECK: %[[ALIGNED:.+]] = arith.cmpi eq, %[[LOW]], %c0_i32
// CHECK: %[[OK:.+]] = arith.andi %true, %[[ALIGNED]]
// CHECK: %[[X:.+]] = scf.if %[[OK]] -> (tensor<64x32xf16>) {
// CHECK-NEXT: %[[M:.+]] = tk.descriptor_load %arg5[%arg2, %arg3]
// CHECK-NEXT: scf.yield %[[M]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[P:.+]] = tk.descriptor_load %[[D]][%arg2, %arg3]
// CHECK-NEXT: scf.yield %[[P]]
// CHECK: arith.cmpi sge, %arg2, %c0_i32
// CHECK: arith.cmpi sge, %arg3, %c0_i32
// CHECK: scf.if
// CHECK-NEXT: tk.descriptor_store %arg5[%arg2, %arg3], %[[X]]
// CHECK: } else {
// CHECK-NEXT: tk.descriptor_store %[[D]][%arg2, %arg3], %[[X]]
// CHECK-NOT: scf.if
// CHECK: tk.descriptor_load %arg5[%arg2, %arg4]
// REWRITE-LABEL: func.func @guarded
// REWRITE: scf.if
// REWRITE: tk.descriptor_load %arg5
// REWRITE: } else {
// REWRITE: tk.load
func.func @guarded(%in: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32},
                   %i: i32, %j: i32, %k: i32 {tk.divisibility = 16 : i32}) {
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %d = tk.make_tensor_descriptor %in, [%n, %n], [%c64, %c1] : !tk.ptr<f16>, !tk.tensordesc<tensor<64x32xf16>>
  %x = tk.descriptor_load %d[%i, %j] : !tk.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  tk.descriptor_store %d[%i, %j], %x : !tk.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  %y = tk.descriptor_load %d[%i, %k] : !tk.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  func.return
}

// -----

// None qualifies: a base without 16-byte alignment; a row stride not known to be a multiple of
// 16 bytes (no divisibility, or a constant of 24 bytes); rows of 8 bytes; a base the kernel
// computes; a descriptor that stores into rows not known to be 16-byte multiples (%n); a row
// stride that is an i64 argument (the launch reads i32 arguments). The pointer path takes them
// all.
// CHECK-LABEL: func.func @pointer_path
// CHECK-SAME: %arg3: i32, %arg4: i32, %arg5: i64 {tk.divisibility = 16 : i32})
// CHECK-NOT: tkgpu.tensor_map
// CHECK-COUNT-7: tk.make_tensor_descriptor
// REWRITE-LABEL: func.func @pointer_path
// REWRITE-NOT: tk.descriptor_load
// REWRITE-COUNT-5: tk.load
// REWRITE: tk.store
// REWRITE: tk.load
func.func @pointer_path(%a: !tk.ptr<f32>, %b: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32, %ld: i32, %i: i32, %wide: i64 {tk.divisibility = 16 : i32}) {
  %c1 = arith.constant 1 : i64
  %c6 = arith.constant 6 : i64
  %ld64 = arith.extsi %ld : i32 to i64
  %d0 = tk.make_tensor_descriptor %a, [%n, %n], [%c6, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x32xf32>>
  %d1 = tk.make_tensor_descriptor %b, [%n, %n], [%ld64, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x32xf32>>
  %d2 = tk.make_tensor_descriptor %b, [%n, %n], [%c6, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x32xf32>>
  %d3 = tk.make_tensor_descriptor %b, [%n, %n], [%ld64, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x2xf32>>
  %p = tk.addptr %b, %i : !tk.ptr<f32>, i32 -> !tk.ptr<f32>
  %d4 = tk.make_tensor_descriptor %p, [%n, %n], [%c6, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x32xf32>>
  %x0 = tk.descriptor_load %d0[%i, %i] : !tk.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
  %x1 = tk.descriptor_load %d1[%i, %i] : !tk.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
  %x2 = tk.descriptor_load %d2[%i, %i] : !tk.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
  %x3 = tk.descriptor_load %d3[%i, %i] : !tk.tensordesc<tensor<16x2xf32>> -> tensor<16x2xf32>
  %x4 = tk.descriptor_load %d4[%i, %i] : !tk.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
  %c64 = arith.constant 64 : i64
  %d5 = tk.make_tensor_descriptor %b, [%n, %n], [%c64, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x32xf32>>
  tk.descriptor_store %d5[%i, %i], %x4 : !tk.tensordesc<tensor<16x32xf32>>, tensor<16x32xf32>
  %d6 = tk.make_tensor_descriptor %b, [%n, %n], [%wide, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x32xf32>>
  %x6 = tk.descriptor_load %d6[%i, %i] : !tk.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
  func.return
}

// -----

// A NaN-padded load, or a reduction, keeps its descriptor on the pointer path (the launch
// encodes tensor maps with zero fill, and TMA reductions are not lowered): no tensor map, even
// though everything else qualifies.
// CHECK-LABEL: func.func @pointer_path
// CHECK-NOT: tkgpu.tensor_map
// CHECK: %[[D:.+]] = tk.make_tensor_descriptor %arg0
// CHECK: %[[E:.+]] = tk.make_tensor_descriptor %arg1
// CHECK: tk.descriptor_load %[[D]][%{{.+}}, %{{.+}}] {nan_padding}
// CHECK: tk.descriptor_reduce %[[E]][%{{.+}}, %{{.+}}], %{{.+}} {kind = "fadd"}
// REWRITE-LABEL: func.func @pointer_path
// REWRITE-NOT: tk.descriptor
// REWRITE: tk.load
// REWRITE: tk.atomic_rmw
func.func @pointer_path(%in: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %out: !tk.ptr<f32> {tk.divisibility = 16 : i32},
                        %m: i32, %n: i32 {tk.divisibility = 16 : i32}) {
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %c0 = arith.constant 0 : i32
  %d = tk.make_tensor_descriptor %in, [%m, %n], [%c64, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<32x32xf32>>
  %e = tk.make_tensor_descriptor %out, [%m, %n], [%c64, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<32x32xf32>>
  %x = tk.descriptor_load %d[%c0, %c0] {nan_padding} : !tk.tensordesc<tensor<32x32xf32>> -> tensor<32x32xf32>
  tk.descriptor_reduce %e[%c0, %c0], %x {kind = "fadd"} : !tk.tensordesc<tensor<32x32xf32>>, tensor<32x32xf32>
  func.return
}

// -----

// A stride argument qualifies where its divisibility times the element's bytes is a multiple of
// 16: a row stride divisible by 8 f16 elements (16 bytes) does, one divisible by 4 (8 bytes)
// does not; a store's rows likewise (%n8, 8 f16 elements).
// CHECK-LABEL: func.func @stride_bytes
// CHECK-SAME: %arg5: !tk.tensordesc<tensor<16x32xf16>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 0, 0>, shape_args = array<i32: 1, 2>, stride_args = array<i32: 3, -1>, strides = array<i64: 0, 1>}}
// CHECK-NOT: tkgpu.tensor_map
// CHECK: tk.make_tensor_descriptor %arg0, [%arg1, %arg2], [%{{.+}}, %{{.+}}]
func.func @stride_bytes(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %m: i32, %n8: i32 {tk.divisibility = 8 : i32},
                        %ld8: i32 {tk.divisibility = 8 : i32}, %ld4: i32 {tk.divisibility = 4 : i32}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %s8 = arith.extsi %ld8 : i32 to i64
  %s4 = arith.extsi %ld4 : i32 to i64
  %d = tk.make_tensor_descriptor %a, [%m, %n8], [%s8, %c1] : !tk.ptr<f16>, !tk.tensordesc<tensor<16x32xf16>>
  %e = tk.make_tensor_descriptor %a, [%m, %n8], [%s4, %c1] : !tk.ptr<f16>, !tk.tensordesc<tensor<16x32xf16>>
  %x = tk.descriptor_load %d[%c0, %c0] : !tk.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
  tk.descriptor_store %d[%c0, %c0], %x : !tk.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
  %y = tk.descriptor_load %e[%c0, %c0] : !tk.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
  func.return
}

// -----

// A descriptor that gathers or scatters keeps the pointer path, whatever else qualifies: TMA's
// gather4 is Blackwell's.
// CHECK-LABEL: func.func @gathered
// CHECK-NOT: tkgpu.tensor_map
// CHECK: tk.make_tensor_descriptor %arg0
// CHECK: tk.descriptor_gather
// CHECK: tk.descriptor_scatter
func.func @gathered(%a: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}, %rows: tensor<8xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %d = tk.make_tensor_descriptor %a, [%n, %n], [%c64, %c1] : !tk.ptr<f32>, !tk.tensordesc<tensor<1x32xf32>>
  %x = tk.descriptor_gather %d[%rows, %c0] : !tk.tensordesc<tensor<1x32xf32>>, tensor<8xi32> -> tensor<8x32xf32>
  tk.descriptor_scatter %d[%rows, %c0], %x : !tk.tensordesc<tensor<1x32xf32>>, tensor<8xi32>, tensor<8x32xf32>
  func.return
}

// Every tk op, written the way the front end prints it (generic form, docs/ir.md): tk-opt parses
// and verifies it, prints its custom form, which parses again (round trip), and prints the
// front end's generic form back exactly with --mlir-print-op-generic.
// RUN: tk-opt %s | tk-opt | FileCheck %s
// RUN: tk-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @grid
// CHECK-SAME: (%{{.*}}: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %{{.*}}: i32 {tk.divisibility = 16 : i32}, %{{.*}}: f32)
func.func @grid(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %arg1: i32 {tk.divisibility = 16 : i32}, %arg2: f32) {
  // CHECK: tk.get_program_id {axis = 0 : i32} : i32
  // GENERIC: "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
  %0 = "tk.get_program_id"() <{axis = 0 : i32}> : () -> i32
  // CHECK: tk.get_num_programs {axis = 2 : i32} : i32
  // GENERIC: "tk.get_num_programs"() <{axis = 2 : i32}> : () -> i32
  %1 = "tk.get_num_programs"() <{axis = 2 : i32}> : () -> i32
  func.return
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%arg0: i32, %arg1: !tk.ptr<f32>) {
  // CHECK: tk.make_range {end = 64 : i32, start = 32 : i32} : tensor<32xi32>
  // GENERIC: "tk.make_range"() <{end = 64 : i32, start = 32 : i32}> : () -> tensor<32xi32>
  %0 = "tk.make_range"() <{end = 64 : i32, start = 32 : i32}> : () -> tensor<32xi32>
  // CHECK: tk.splat %{{.*}} : i32 -> tensor<8x1xi32>
  // GENERIC: "tk.splat"(%{{.*}}) : (i32) -> tensor<8x1xi32>
  %1 = "tk.splat"(%arg0) : (i32) -> tensor<8x1xi32>
  // CHECK: tk.splat %{{.*}} : !tk.ptr<f32> -> tensor<8x16x!tk.ptr<f32>>
  %2 = "tk.splat"(%arg1) : (!tk.ptr<f32>) -> tensor<8x16x!tk.ptr<f32>>
  // CHECK: tk.broadcast %{{.*}} : tensor<8x1xi32> -> tensor<8x16xi32>
  // GENERIC: "tk.broadcast"(%{{.*}}) : (tensor<8x1xi32>) -> tensor<8x16xi32>
  %3 = "tk.broadcast"(%1) : (tensor<8x1xi32>) -> tensor<8x16xi32>
  // CHECK: tk.expand_dims %{{.*}} {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  // GENERIC: "tk.expand_dims"(%{{.*}}) <{axis = 1 : i32}> : (tensor<32xi32>) -> tensor<32x1xi32>
  %4 = "tk.expand_dims"(%0) <{axis = 1 : i32}> : (tensor<32xi32>) -> tensor<32x1xi32>
  // A scalar is a rank-0 block: tk::expand_dims and tk::reshape accept it.
  // CHECK: tk.expand_dims %{{.*}} {axis = 0 : i32} : i32 -> tensor<1xi32>
  %5 = "tk.expand_dims"(%arg0) <{axis = 0 : i32}> : (i32) -> tensor<1xi32>
  // CHECK: tk.reshape %{{.*}} : tensor<8x16xi32> -> tensor<128xi32>
  // GENERIC: "tk.reshape"(%{{.*}}) : (tensor<8x16xi32>) -> tensor<128xi32>
  %6 = "tk.reshape"(%3) : (tensor<8x16xi32>) -> tensor<128xi32>
  // CHECK: tk.reshape %{{.*}} : i32 -> tensor<1x1xi32>
  %7 = "tk.reshape"(%arg0) : (i32) -> tensor<1x1xi32>
  // CHECK: tk.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<8x16xi32> -> tensor<16x8xi32>
  // GENERIC: "tk.trans"(%{{.*}}) <{order = array<i32: 1, 0>}> : (tensor<8x16xi32>) -> tensor<16x8xi32>
  %8 = "tk.trans"(%3) <{order = array<i32: 1, 0>}> : (tensor<8x16xi32>) -> tensor<16x8xi32>
  func.return
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%arg0: tensor<8x16xf16>, %arg1: tensor<8x16xf16>, %arg2: tensor<8x4xi32>, %arg3: f32) {
  // CHECK: tk.join %{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16x2xf16>
  // GENERIC: "tk.join"(%{{.*}}, %{{.*}}) : (tensor<8x16xf16>, tensor<8x16xf16>) -> tensor<8x16x2xf16>
  %0 = "tk.join"(%arg0, %arg1) : (tensor<8x16xf16>, tensor<8x16xf16>) -> tensor<8x16x2xf16>
  // CHECK: tk.split %{{.*}} : tensor<8x16x2xf16> -> tensor<8x16xf16>, tensor<8x16xf16>
  // GENERIC: "tk.split"(%{{.*}}) : (tensor<8x16x2xf16>) -> (tensor<8x16xf16>, tensor<8x16xf16>)
  %1:2 = "tk.split"(%0) : (tensor<8x16x2xf16>) -> (tensor<8x16xf16>, tensor<8x16xf16>)
  // CHECK: tk.join %{{.*}}, %{{.*}} : f32, f32 -> tensor<2xf32>
  %2 = "tk.join"(%arg3, %arg3) : (f32, f32) -> tensor<2xf32>
  // CHECK: tk.split %{{.*}} : tensor<2xf32> -> f32, f32
  %3:2 = "tk.split"(%2) : (tensor<2xf32>) -> (f32, f32)
  // CHECK: tk.cat %{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<16x16xf16>
  // GENERIC: "tk.cat"(%{{.*}}, %{{.*}}) : (tensor<8x16xf16>, tensor<8x16xf16>) -> tensor<16x16xf16>
  %4 = "tk.cat"(%arg0, %arg1) : (tensor<8x16xf16>, tensor<8x16xf16>) -> tensor<16x16xf16>
  // CHECK: tk.flip %{{.*}} {axis = 1 : i32} : tensor<8x16xf16> -> tensor<8x16xf16>
  // GENERIC: "tk.flip"(%{{.*}}) <{axis = 1 : i32}> : (tensor<8x16xf16>) -> tensor<8x16xf16>
  %5 = "tk.flip"(%arg0) <{axis = 1 : i32}> : (tensor<8x16xf16>) -> tensor<8x16xf16>
  // CHECK: tk.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : tensor<8x16xf16>, tensor<8x4xi32> -> tensor<8x4xf16>
  // GENERIC: "tk.gather"(%{{.*}}, %{{.*}}) <{axis = 1 : i32}> : (tensor<8x16xf16>, tensor<8x4xi32>) -> tensor<8x4xf16>
  %6 = "tk.gather"(%arg0, %arg2) <{axis = 1 : i32}> : (tensor<8x16xf16>, tensor<8x4xi32>) -> tensor<8x4xf16>
  func.return
}

// CHECK-LABEL: func.func @memory
func.func @memory(%arg0: !tk.ptr<f32>, %arg1: i64) {
  %0 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  %1 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<128x!tk.ptr<f32>>
  // CHECK: tk.addptr %{{.*}}, %{{.*}} : tensor<128x!tk.ptr<f32>>, tensor<128xi32> -> tensor<128x!tk.ptr<f32>>
  // GENERIC: "tk.addptr"(%{{.*}}, %{{.*}}) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
  %2 = "tk.addptr"(%1, %0) : (tensor<128x!tk.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tk.ptr<f32>>
  // CHECK: tk.addptr %{{.*}}, %{{.*}} : !tk.ptr<f32>, i64 -> !tk.ptr<f32>
  %3 = "tk.addptr"(%arg0, %arg1) : (!tk.ptr<f32>, i64) -> !tk.ptr<f32>
  %4 = "tk.splat"(%arg1) : (i64) -> tensor<128xi64>
  %5 = "tk.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
  %6 = arith.extsi %5 : tensor<128xi32> to tensor<128xi64>
  %7 = arith.cmpi slt, %6, %4 : tensor<128xi64>
  %8 = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: tk.load %{{.*}} : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
  // GENERIC: "tk.load"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
  %9 = "tk.load"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
  // CHECK: tk.load %{{.*}}, %{{.*}} : (tensor<128x!tk.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  // GENERIC: "tk.load"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tk.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  %10 = "tk.load"(%2, %7) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tk.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  // CHECK: tk.load %{{.*}}, %{{.*}}, %{{.*}} : (tensor<128x!tk.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  // GENERIC: "tk.load"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tk.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  %11 = "tk.load"(%2, %7, %8) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tk.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  // CHECK: tk.load %{{.*}} : (!tk.ptr<f32>) -> f32
  %12 = "tk.load"(%3) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tk.ptr<f32>) -> f32
  // CHECK: tk.store %{{.*}}, %{{.*}} : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>) -> ()
  // GENERIC: "tk.store"(%{{.*}}, %{{.*}}) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>) -> ()
  "tk.store"(%2, %9) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>) -> ()
  // CHECK: tk.store %{{.*}}, %{{.*}}, %{{.*}} : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  // GENERIC: "tk.store"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  "tk.store"(%2, %11, %7) : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  // CHECK: tk.store %{{.*}}, %{{.*}} : (!tk.ptr<f32>, f32) -> ()
  "tk.store"(%3, %12) : (!tk.ptr<f32>, f32) -> ()
  // CHECK: tk.atomic_rmw %{{.*}}, %{{.*}}, %{{.*}} {kind = "fadd", scope = "gpu", sem = "acq_rel"} : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  // GENERIC: "tk.atomic_rmw"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = "fadd", scope = "gpu", sem = "acq_rel"}> : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  %13 = "tk.atomic_rmw"(%2, %9, %7) <{kind = "fadd", scope = "gpu", sem = "acq_rel"}> : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  // CHECK: tk.atomic_rmw %{{.*}}, %{{.*}} {kind = "fmax", scope = "cta", sem = "relaxed"} : (!tk.ptr<f32>, f32) -> f32
  // GENERIC: "tk.atomic_rmw"(%{{.*}}, %{{.*}}) <{kind = "fmax", scope = "cta", sem = "relaxed"}> : (!tk.ptr<f32>, f32) -> f32
  %14 = "tk.atomic_rmw"(%3, %12) <{kind = "fmax", scope = "cta", sem = "relaxed"}> : (!tk.ptr<f32>, f32) -> f32
  // CHECK: tk.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} {scope = "sys", sem = "acquire"} : (!tk.ptr<f32>, f32, f32) -> f32
  // GENERIC: "tk.atomic_cas"(%{{.*}}, %{{.*}}, %{{.*}}) <{scope = "sys", sem = "acquire"}> : (!tk.ptr<f32>, f32, f32) -> f32
  %15 = "tk.atomic_cas"(%3, %12, %14) <{scope = "sys", sem = "acquire"}> : (!tk.ptr<f32>, f32, f32) -> f32
  func.return
}

// CHECK-LABEL: func.func @casts
func.func @casts(%arg0: !tk.ptr<f32>) {
  %0 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<16x!tk.ptr<f32>>
  // CHECK: tk.bitcast %{{.*}} : tensor<16x!tk.ptr<f32>> -> tensor<16x!tk.ptr<i32>>
  // GENERIC: "tk.bitcast"(%{{.*}}) : (tensor<16x!tk.ptr<f32>>) -> tensor<16x!tk.ptr<i32>>
  %1 = "tk.bitcast"(%0) : (tensor<16x!tk.ptr<f32>>) -> tensor<16x!tk.ptr<i32>>
  // CHECK: tk.bitcast %{{.*}} : !tk.ptr<f32> -> !tk.ptr<i8>
  %2 = "tk.bitcast"(%arg0) : (!tk.ptr<f32>) -> !tk.ptr<i8>
  // CHECK: tk.ptr_to_int %{{.*}} : tensor<16x!tk.ptr<f32>> -> tensor<16xi64>
  // GENERIC: "tk.ptr_to_int"(%{{.*}}) : (tensor<16x!tk.ptr<f32>>) -> tensor<16xi64>
  %3 = "tk.ptr_to_int"(%0) : (tensor<16x!tk.ptr<f32>>) -> tensor<16xi64>
  // CHECK: tk.int_to_ptr %{{.*}} : tensor<16xi64> -> tensor<16x!tk.ptr<f32>>
  // GENERIC: "tk.int_to_ptr"(%{{.*}}) : (tensor<16xi64>) -> tensor<16x!tk.ptr<f32>>
  %4 = "tk.int_to_ptr"(%3) : (tensor<16xi64>) -> tensor<16x!tk.ptr<f32>>
  // CHECK: tk.ptr_to_int %{{.*}} : !tk.ptr<f32> -> i64
  %5 = "tk.ptr_to_int"(%arg0) : (!tk.ptr<f32>) -> i64
  func.return
}

// CHECK-LABEL: func.func @reduce
func.func @reduce(%arg0: tensor<8x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xi32>) {
  // CHECK: tk.reduce %{{.*}} {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
  // CHECK-NEXT: tk.reduce.return %[[S]] : f32
  // CHECK-NEXT: }
  // GENERIC: "tk.reduce"(%{{.*}}) <{axis = 1 : i32}> ({
  // GENERIC: "tk.reduce.return"(%{{.*}}) : (f32) -> ()
  // GENERIC-NEXT: }) : (tensor<8x16xf32>) -> tensor<8xf32>
  %0 = "tk.reduce"(%arg0) <{axis = 1 : i32}> ({
    ^bb0(%1: f32, %2: f32):
      %3 = arith.addf %1, %2 : f32
      "tk.reduce.return"(%3) : (f32) -> ()
  }) : (tensor<8x16xf32>) -> tensor<8xf32>
  // Two operands (argmax), reduced to scalars.
  // CHECK: tk.reduce %{{.*}}, %{{.*}} {axis = 0 : i32} : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32) {
  // CHECK: tk.reduce.return %{{.*}}, %{{.*}} : f32, i32
  %4:2 = "tk.reduce"(%arg1, %arg2) <{axis = 0 : i32}> ({
    ^bb0(%5: f32, %6: i32, %7: f32, %8: i32):
      %9 = arith.cmpf ogt, %5, %7 : f32
      %10 = arith.select %9, %5, %7 : f32
      %11 = arith.select %9, %6, %8 : i32
      "tk.reduce.return"(%10, %11) : (f32, i32) -> ()
  }) : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
  func.return
}

// CHECK-LABEL: func.func @scan
func.func @scan(%arg0: tensor<8x16xf32>) {
  // CHECK: tk.scan %{{.*}} {axis = 0 : i32, reverse = true} : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK: tk.scan.return %{{.*}} : f32
  // GENERIC: "tk.scan"(%{{.*}}) <{axis = 0 : i32, reverse = true}> ({
  // GENERIC: "tk.scan.return"(%{{.*}}) : (f32) -> ()
  %0 = "tk.scan"(%arg0) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%1: f32, %2: f32):
      %3 = arith.addf %1, %2 : f32
      "tk.scan.return"(%3) : (f32) -> ()
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return
}

// CHECK-LABEL: func.func @dot
func.func @dot(%a: tensor<32x16xf16>, %b: tensor<16x64xf16>, %c: tensor<32x64xf32>, %x: tensor<16x32xf32>, %y: tensor<32x16xf32>, %z: tensor<16x16xf32>) {
  // CHECK: tk.dot %{{.*}}, %{{.*}}, %{{.*}} {input_precision = "ieee"} : tensor<32x16xf16> * tensor<16x64xf16> + tensor<32x64xf32> -> tensor<32x64xf32>
  // GENERIC: "tk.dot"(%{{.*}}, %{{.*}}, %{{.*}}) <{input_precision = "ieee"}> : (tensor<32x16xf16>, tensor<16x64xf16>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<32x16xf16>, tensor<16x64xf16>, tensor<32x64xf32>) -> tensor<32x64xf32>
  // CHECK: tk.dot {{.*}} {input_precision = "tf32"} : tensor<16x32xf32> * tensor<32x16xf32> + tensor<16x16xf32>
  %1 = "tk.dot"(%x, %y, %z) <{input_precision = "tf32"}> : (tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  // CHECK: tk.dot {{.*}} {input_precision = "tf32x3"} : tensor<16x32xf32> * tensor<32x16xf32> + tensor<16x16xf32>
  %2 = "tk.dot"(%x, %y, %1) <{input_precision = "tf32x3"}> : (tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// fp8 inputs, of one type or of both, accumulate in f32.
// CHECK-LABEL: func.func @dot_fp8
func.func @dot_fp8(%a: tensor<32x32xf8E4M3FN>, %b: tensor<32x16xf8E5M2>, %c: tensor<32x16xf32>) {
  // CHECK: tk.dot {{.*}} : tensor<32x32xf8E4M3FN> * tensor<32x16xf8E5M2> + tensor<32x16xf32>
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<32x32xf8E4M3FN>, tensor<32x16xf8E5M2>, tensor<32x16xf32>) -> tensor<32x16xf32>
  func.return
}

// The upstream ops the front end prints alongside (scf.for carrying blocks of pointers).
// CHECK-LABEL: func.func @loop
func.func @loop(%arg0: !tk.ptr<f16>, %arg1: i32) {
  %0 = "tk.make_range"() <{end = 16 : i32, start = 0 : i32}> : () -> tensor<16xi32>
  %1 = "tk.splat"(%arg0) : (!tk.ptr<f16>) -> tensor<16x!tk.ptr<f16>>
  %2 = "tk.addptr"(%1, %0) : (tensor<16x!tk.ptr<f16>>, tensor<16xi32>) -> tensor<16x!tk.ptr<f16>>
  %3 = arith.constant 0 : i32
  %4 = arith.constant 1 : i32
  %5 = arith.constant dense<16> : tensor<16xi32>
  // CHECK: scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}) -> (tensor<16x!tk.ptr<f16>>) : i32 {
  // CHECK-NEXT: tk.addptr %[[P]]
  %6 = scf.for %7 = %3 to %arg1 step %4 iter_args(%8 = %2) -> (tensor<16x!tk.ptr<f16>>) : i32 {
    %9 = "tk.addptr"(%8, %5) : (tensor<16x!tk.ptr<f16>>, tensor<16xi32>) -> tensor<16x!tk.ptr<f16>>
    scf.yield %9 : tensor<16x!tk.ptr<f16>>
  }
  func.return
}

// Block pointers, carried through a loop.
// CHECK-LABEL: func.func @block_pointer
// GENERIC-LABEL: sym_name = "block_pointer"
func.func @block_pointer(%arg0: !tk.ptr<f32>, %arg1: i32, %arg2: i64) {
  %0 = arith.constant 0 : i32
  %1 = arith.constant 32 : i32
  // CHECK: %[[P:.+]] = tk.make_block_ptr %arg0, [%arg1, %arg1], [%arg2, %{{.+}}], [%{{.+}}, %{{.+}}] {order = array<i32: 1, 0>} : !tk.ptr<f32>, !tk.blockptr<tensor<16x32xf32>>
  // GENERIC: "tk.make_block_ptr"(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) <{order = array<i32: 1, 0>}> : (!tk.ptr<f32>, i32, i32, i64, i64, i32, i32) -> !tk.blockptr<tensor<16x32xf32>>
  %2 = arith.constant 1 : i64
  %3 = "tk.make_block_ptr"(%arg0, %arg1, %arg1, %arg2, %2, %0, %0) <{order = array<i32: 1, 0>}> : (!tk.ptr<f32>, i32, i32, i64, i64, i32, i32) -> !tk.blockptr<tensor<16x32xf32>>
  %4 = scf.for %5 = %0 to %arg1 step %1 iter_args(%6 = %3) -> (!tk.blockptr<tensor<16x32xf32>>) : i32 {
    // CHECK: tk.block_load %{{.+}} {boundary_check = array<i32: 0, 1>, nan_padding} : !tk.blockptr<tensor<16x32xf32>> -> tensor<16x32xf32>
    // GENERIC: "tk.block_load"(%{{.+}}) <{boundary_check = array<i32: 0, 1>, nan_padding}> : (!tk.blockptr<tensor<16x32xf32>>) -> tensor<16x32xf32>
    %7 = "tk.block_load"(%6) <{boundary_check = array<i32: 0, 1>, nan_padding}> : (!tk.blockptr<tensor<16x32xf32>>) -> tensor<16x32xf32>
    // CHECK: tk.block_store %{{.+}}, %{{.+}} {boundary_check = array<i32: 1>} : !tk.blockptr<tensor<16x32xf32>>, tensor<16x32xf32>
    // GENERIC: "tk.block_store"(%{{.+}}, %{{.+}}) <{boundary_check = array<i32: 1>}> : (!tk.blockptr<tensor<16x32xf32>>, tensor<16x32xf32>) -> ()
    "tk.block_store"(%6, %7) <{boundary_check = array<i32: 1>}> : (!tk.blockptr<tensor<16x32xf32>>, tensor<16x32xf32>) -> ()
    // CHECK: tk.advance %{{.+}}[%{{.+}}, %{{.+}}] : !tk.blockptr<tensor<16x32xf32>>
    // GENERIC: "tk.advance"(%{{.+}}, %{{.+}}, %{{.+}}) : (!tk.blockptr<tensor<16x32xf32>>, i32, i32) -> !tk.blockptr<tensor<16x32xf32>>
    %8 = "tk.advance"(%6, %0, %1) : (!tk.blockptr<tensor<16x32xf32>>, i32, i32) -> !tk.blockptr<tensor<16x32xf32>>
    scf.yield %8 : !tk.blockptr<tensor<16x32xf32>>
  }
  func.return
}

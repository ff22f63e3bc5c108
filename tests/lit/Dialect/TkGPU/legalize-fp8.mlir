// tk-legalize-fp8: no arithmetic is left on fp8 values. extf decodes the byte's fields, truncf
// rounds in f32 (the 2^23 addition to nearest even, an integer conversion toward zero) after
// saturating, other ops compute in f32 and round back, constants become bytes; data movement
// (loads, stores, selects) keeps the fp8 type.
// RUN: tk-opt %s -split-input-file -tk-legalize-fp8 | FileCheck %s
// RUN: tk-opt %s -split-input-file -tk-legalize-fp8=compute-capability=89 | FileCheck %s --check-prefix=SM89

// CHECK-LABEL: func.func @decode_e4m3
// CHECK: %[[BYTE:.+]] = arith.bitcast %arg0 : tensor<16xf8E4M3FN> to tensor<16xi8>
// CHECK: arith.extui %[[BYTE]] : tensor<16xi8> to tensor<16xi32>
// CHECK: arith.uitofp
// CHECK: arith.mulf
// The NaN pattern, S.1111.111 (0x7F), gives the f32 NaN 0x7FC00000.
// CHECK: %[[NAN:.+]] = arith.constant dense<2143289344> : tensor<16xi32>
// CHECK: %[[ALL:.+]] = arith.constant dense<127> : tensor<16xi32>
// CHECK: %[[IS_NAN:.+]] = arith.cmpi eq, %{{.+}}, %[[ALL]] : tensor<16xi32>
// CHECK: arith.select %[[IS_NAN]], %[[NAN]], %{{.+}} : tensor<16xi1>, tensor<16xi32>
// CHECK-NOT: arith.extf
func.func @decode_e4m3(%x: tensor<16xf8E4M3FN>) -> tensor<16xf32> {
  %0 = arith.extf %x : tensor<16xf8E4M3FN> to tensor<16xf32>
  func.return %0 : tensor<16xf32>
}

// -----

// e5m2 to f16: decode to f32, then an exact truncf to f16.
// CHECK-LABEL: func.func @decode_e5m2_to_f16
// CHECK: arith.bitcast %arg0 : f8E5M2 to i8
// CHECK-NOT: arith.extf
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK-NEXT: return
func.func @decode_e5m2_to_f16(%x: f8E5M2) -> f16 {
  %0 = arith.extf %x : f8E5M2 to f16
  func.return %0 : f16
}

// -----

// Saturation at 448, the rounding to nearest even, the encoding, the byte.
// CHECK-LABEL: func.func @encode_nearest
// CHECK: %[[MAX:.+]] = arith.constant 4.480000e+02 : f32
// CHECK: %[[OVER:.+]] = arith.cmpf ogt, %{{.+}}, %[[MAX]] : f32
// CHECK: arith.select %[[OVER]], %[[MAX]], %{{.+}} : f32
// CHECK: %[[MAGIC:.+]] = arith.constant 0x4B000000 : f32
// CHECK: %[[SUM:.+]] = arith.addf %{{.+}}, %[[MAGIC]] : f32
// CHECK: arith.subf %[[SUM]], %[[MAGIC]] : f32
// CHECK: %[[BYTE:.+]] = arith.trunci %{{.+}} : i32 to i8
// CHECK: arith.bitcast %[[BYTE]] : i8 to f8E4M3FN
func.func @encode_nearest(%x: f32) -> f8E4M3FN {
  %0 = arith.truncf %x : f32 to f8E4M3FN
  func.return %0 : f8E4M3FN
}

// -----

// Toward zero: an integer conversion instead of the magic addition; bf16 goes through f32.
// CHECK-LABEL: func.func @encode_toward_zero
// CHECK: arith.extf %arg0 : tensor<8xbf16> to tensor<8xf32>
// CHECK: arith.constant dense<5.734400e+04> : tensor<8xf32>
// CHECK: %[[STEPS:.+]] = arith.fptoui %{{.+}} : tensor<8xf32> to tensor<8xi32>
// CHECK: arith.uitofp %[[STEPS]] : tensor<8xi32> to tensor<8xf32>
// CHECK-NOT: 0x4B000000
// CHECK: arith.bitcast %{{.+}} : tensor<8xi8> to tensor<8xf8E5M2>
func.func @encode_toward_zero(%x: tensor<8xbf16>) -> tensor<8xf8E5M2> {
  %0 = arith.truncf %x toward_zero : tensor<8xbf16> to tensor<8xf8E5M2>
  func.return %0 : tensor<8xf8E5M2>
}

// -----

// Arithmetic in f32, rounded back once; a constant as bytes; select untouched.
// CHECK-LABEL: func.func @arithmetic
// CHECK: %[[BYTES:.+]] = arith.constant dense<64> : tensor<4xi8>
// CHECK: %[[TWO:.+]] = arith.bitcast %[[BYTES]] : tensor<4xi8> to tensor<4xf8E4M3FN>
// CHECK: %[[PRODUCT:.+]] = arith.mulf %{{.+}}, %{{.+}} : tensor<4xf32>
// CHECK: arith.cmpf olt, %{{.+}}, %{{.+}} : tensor<4xf32>
// CHECK: arith.select %{{.+}}, %{{.+}}, %arg0 : tensor<4xi1>, tensor<4xf8E4M3FN>
// CHECK-NOT: arith.mulf %{{.+}} : tensor<4xf8E4M3FN>
func.func @arithmetic(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %two = arith.constant dense<2.0> : tensor<4xf8E4M3FN>
  %0 = arith.mulf %x, %two : tensor<4xf8E4M3FN>
  %1 = arith.cmpf olt, %0, %x : tensor<4xf8E4M3FN>
  %2 = arith.select %1, %0, %x : tensor<4xi1>, tensor<4xf8E4M3FN>
  func.return %2 : tensor<4xf8E4M3FN>
}

// -----

// A dot on fp8 keeps its operands where fp8 tensor cores take it (sm_89 and newer, K a multiple
// of 32); below sm_89, or with K = 16, the operands are decoded and narrowed to f16.
// CHECK-LABEL: func.func @dot
// CHECK: %[[A:.+]] = arith.truncf %{{.+}} : tensor<32x32xf32> to tensor<32x32xf16>
// CHECK: %[[B:.+]] = arith.truncf %{{.+}} : tensor<32x16xf32> to tensor<32x16xf16>
// CHECK: tk.dot %[[A]], %[[B]], %arg2 {{.*}} : tensor<32x32xf16> * tensor<32x16xf16> + tensor<32x16xf32>
// CHECK: tk.dot {{.*}} : tensor<32x16xf16> * tensor<16x16xf16> + tensor<32x16xf32>
// SM89-LABEL: func.func @dot
// SM89: tk.dot %arg0, %arg1, %arg2 {{.*}} : tensor<32x32xf8E4M3FN> * tensor<32x16xf8E5M2> + tensor<32x16xf32>
// SM89: arith.truncf %{{.+}} : tensor<32x16xf32> to tensor<32x16xf16>
// SM89: tk.dot {{.*}} : tensor<32x16xf16> * tensor<16x16xf16> + tensor<32x16xf32>
func.func @dot(%a: tensor<32x32xf8E4M3FN>, %b: tensor<32x16xf8E5M2>, %c: tensor<32x16xf32>,
               %x: tensor<32x16xf8E4M3FN>, %y: tensor<16x16xf8E4M3FN>) -> (tensor<32x16xf32>, tensor<32x16xf32>) {
  %0 = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<32x32xf8E4M3FN> * tensor<32x16xf8E5M2> + tensor<32x16xf32> -> tensor<32x16xf32>
  %1 = tk.dot %x, %y, %c {input_precision = "ieee"} : tensor<32x16xf8E4M3FN> * tensor<16x16xf8E4M3FN> + tensor<32x16xf32> -> tensor<32x16xf32>
  func.return %0, %1 : tensor<32x16xf32>, tensor<32x16xf32>
}

// -----

// An fp8 dot into an f16 accumulator takes the f16 path on every target.
// SM89-LABEL: func.func @dot_f16_acc
// SM89: arith.truncf %{{.+}} : tensor<32x32xf32> to tensor<32x32xf16>
// SM89: arith.truncf %{{.+}} : tensor<32x16xf32> to tensor<32x16xf16>
// SM89: tk.dot {{.*}} : tensor<32x32xf16> * tensor<32x16xf16> + tensor<32x16xf16>
func.func @dot_f16_acc(%a: tensor<32x32xf8E4M3FN>, %b: tensor<32x16xf8E4M3FN>, %c: tensor<32x16xf16>) -> tensor<32x16xf16> {
  %0 = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<32x32xf8E4M3FN> * tensor<32x16xf8E4M3FN> + tensor<32x16xf16> -> tensor<32x16xf16>
  func.return %0 : tensor<32x16xf16>
}

// -----

// The fnuz types: 0x80 (128) is the only NaN, decoded as NaN and made by NaN; the encoding of
// e4m3fnuz saturates at 240 and drops the sign of a zero (a select on the code being 0).
// CHECK-LABEL: func.func @fnuz
// CHECK: arith.bitcast %arg0 : tensor<16xf8E5M2FNUZ> to tensor<16xi8>
// CHECK: %[[NAN_CODE:.+]] = arith.constant dense<128> : tensor<16xi32>
// CHECK-NEXT: arith.cmpi eq, %{{.+}}, %[[NAN_CODE]] : tensor<16xi32>
// CHECK: arith.constant dense<2.400000e+02> : tensor<16xf32>
// CHECK: arith.bitcast %{{.+}} : tensor<16xi8> to tensor<16xf8E4M3FNUZ>
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
func.func @fnuz(%x: tensor<16xf8E5M2FNUZ>) -> tensor<16xf8E4M3FNUZ> {
  %0 = arith.extf %x : tensor<16xf8E5M2FNUZ> to tensor<16xf32>
  %1 = arith.truncf %0 : tensor<16xf32> to tensor<16xf8E4M3FNUZ>
  func.return %1 : tensor<16xf8E4M3FNUZ>
}

// -----

// A reduction and a scan over fp8 reduce f32 values: the operands decoded before, the combine
// taking and yielding f32 (rounding each step to fp8 inside), the results encoded after. No fp8
// value is left in the combine's signature.
// CHECK-LABEL: func.func @fp8_sum
// CHECK: tk.reduce %{{.+}} {axis = 0 : i32} : (tensor<16xf32>) -> f32
// CHECK: ^bb0(%{{.+}}: f32, %{{.+}}: f32):
// CHECK: tk.reduce.return %{{.+}} : f32
// CHECK-LABEL: func.func @fp8_cumsum
// CHECK: tk.scan %{{.+}} {axis = 0 : i32, reverse = false} : (tensor<16xf32>) -> tensor<16xf32>
// CHECK: ^bb0(%{{.+}}: f32, %{{.+}}: f32):
// CHECK: tk.scan.return %{{.+}} : f32
// CHECK-LABEL: func.func @fp8_argmax
// CHECK: tk.reduce %{{.+}}, %{{.+}} {axis = 0 : i32} : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
// CHECK: ^bb0(%{{.+}}: f32, %{{.+}}: i32, %{{.+}}: f32, %{{.+}}: i32):
func.func @fp8_sum(%x: tensor<16xf8E4M3FN>) -> f8E4M3FN {
  %s = "tk.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f8E4M3FN, %b: f8E4M3FN):
    %c = arith.addf %a, %b : f8E4M3FN
    "tk.reduce.return"(%c) : (f8E4M3FN) -> ()
  }) : (tensor<16xf8E4M3FN>) -> f8E4M3FN
  func.return %s : f8E4M3FN
}
func.func @fp8_cumsum(%x: tensor<16xf8E5M2>) -> tensor<16xf8E5M2> {
  %s = "tk.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f8E5M2, %b: f8E5M2):
    %c = arith.addf %a, %b : f8E5M2
    "tk.scan.return"(%c) : (f8E5M2) -> ()
  }) : (tensor<16xf8E5M2>) -> tensor<16xf8E5M2>
  func.return %s : tensor<16xf8E5M2>
}
func.func @fp8_argmax(%x: tensor<16xf8E4M3FN>, %i: tensor<16xi32>) -> i32 {
  %m:2 = "tk.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f8E4M3FN, %ia: i32, %b: f8E4M3FN, %ib: i32):
    %gt = arith.cmpf ogt, %a, %b : f8E4M3FN
    %v = arith.select %gt, %a, %b : f8E4M3FN
    %j = arith.select %gt, %ia, %ib : i32
    "tk.reduce.return"(%v, %j) : (f8E4M3FN, i32) -> ()
  }) : (tensor<16xf8E4M3FN>, tensor<16xi32>) -> (f8E4M3FN, i32)
  func.return %m#1 : i32
}

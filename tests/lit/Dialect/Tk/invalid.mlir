// One case per error of the tk dialect's verifiers (lib/Dialect/Tk/IR/{Types,Dialect,Ops}.cpp),
// plus a few of the ODS constraints, each with the message the user sees.
// RUN: tk-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{!tk.ptr points to an integer or floating-point type (i1 ... i64, f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f16, bf16, f32, f64), got 'index'}}
func.func @ptr_to_index(%arg0: !tk.ptr<index>)

// -----

// expected-error @+1 {{'tk.divisibility' of argument 0 must be an i32 integer such as `16 : i32`, got 16 : i64}}
func.func @divisibility_i64(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i64}) {
  func.return
}

// -----

// expected-error @+1 {{'tk.divisibility' of argument 1 must be a positive power of two, got 12}}
func.func @divisibility_not_pow2(%arg0: !tk.ptr<f32>, %arg1: i32 {tk.divisibility = 12 : i32}) {
  func.return
}

// -----

// expected-error @+1 {{'tk.divisibility' applies to pointer and integer arguments; argument 0 is 'f32'}}
func.func @divisibility_on_float(%arg0: f32 {tk.divisibility = 16 : i32}) {
  func.return
}

// -----

// expected-error @+1 {{unknown argument attribute 'tk.alignment' on argument 0 (the tk dialect defines only 'tk.divisibility')}}
func.func @unknown_arg_attr(%arg0: !tk.ptr<f32> {tk.alignment = 16 : i32}) {
  func.return
}

// -----

func.func @program_id_axis() {
  // expected-error @+1 {{'tk.get_program_id' op axis must be 0, 1 or 2 (the grid has three dimensions), got 3}}
  %0 = "tk.get_program_id"() <{axis = 3 : i32}> : () -> i32
  func.return
}

// -----

func.func @num_programs_axis() {
  // expected-error @+1 {{'tk.get_num_programs' op axis must be 0, 1 or 2 (the grid has three dimensions), got -1}}
  %0 = "tk.get_num_programs"() <{axis = -1 : i32}> : () -> i32
  func.return
}

// -----

func.func @make_range_empty() {
  // expected-error @+1 {{'tk.make_range' op end (0) must be greater than start (4)}}
  %0 = "tk.make_range"() <{end = 0 : i32, start = 4 : i32}> : () -> tensor<4xi32>
  func.return
}

// -----

func.func @make_range_not_pow2() {
  // expected-error @+1 {{'tk.make_range' op the range holds end - start = 3 values, which is not a power of two}}
  %0 = "tk.make_range"() <{end = 3 : i32, start = 0 : i32}> : () -> tensor<3xi32>
  func.return
}

// -----

// Blocks hold at most 2^20 elements, as in the front end (TkDialect::getMaxBlockElements):
// every tk op's operands and results are checked (the BlockSizeLimit trait).
func.func @make_range_too_large() {
  // expected-error @+1 {{'tk.make_range' op result 0 is 'tensor<16777216xi32>', 16777216 elements; a block holds at most 1048576 (2^20) elements: split the work over more program instances}}
  %0 = "tk.make_range"() <{end = 16777216 : i32, start = 0 : i32}> : () -> tensor<16777216xi32>
  func.return
}

// -----

func.func @make_range_2_pow_30() {
  // expected-error @+1 {{'tk.make_range' op result 0 is 'tensor<1073741824xi32>', 1073741824 elements; a block holds at most}}
  %0 = "tk.make_range"() <{end = 1073741824 : i32, start = 0 : i32}> : () -> tensor<1073741824xi32>
  func.return
}

// -----

func.func @splat_too_large(%arg0: f32) {
  // expected-error @+1 {{'tk.splat' op result 0 is 'tensor<2048x1024xf32>', 2097152 elements; a block holds at most 1048576 (2^20) elements}}
  %0 = "tk.splat"(%arg0) : (f32) -> tensor<2048x1024xf32>
  func.return
}

// -----

// The element count overflows 64 bits.
func.func @splat_overflow(%arg0: f32) {
  // expected-error @+1 {{'tk.splat' op result 0 is 'tensor<4294967296x4294967296x4294967296xf32>', more than 2^64 elements; a block holds at most}}
  %0 = "tk.splat"(%arg0) : (f32) -> tensor<4294967296x4294967296x4294967296xf32>
  func.return
}

// -----

// An operand made by another dialect's op: an arith constant too large to store.
func.func @store_too_large(%arg0: !tk.ptr<f32>) {
  %0 = arith.constant dense<1.0> : tensor<2097152xf32>
  %1 = "tk.splat"(%arg0) : (!tk.ptr<f32>) -> tensor<1048576x!tk.ptr<f32>>
  // expected-error @+1 {{'tk.store' op operand 1 is 'tensor<2097152xf32>', 2097152 elements; a block holds at most}}
  "tk.store"(%1, %0) : (tensor<1048576x!tk.ptr<f32>>, tensor<2097152xf32>) -> ()
  func.return
}

// -----

// Exactly 2^20 elements is allowed.
func.func @make_range_largest() {
  %0 = "tk.make_range"() <{end = 1048576 : i32, start = 0 : i32}> : () -> tensor<1048576xi32>
  func.return
}

// -----

func.func @make_range_size() {
  // expected-error @+1 {{'tk.make_range' op result must hold end - start = 16 values, got 'tensor<8xi32>'}}
  %0 = "tk.make_range"() <{end = 16 : i32, start = 0 : i32}> : () -> tensor<8xi32>
  func.return
}

// -----

func.func @make_range_rank() {
  // expected-error @+1 {{'tk.make_range' op result #0 must be 1D tensor of 32-bit signless integer values, but got 'tensor<4x4xi32>'}}
  %0 = "tk.make_range"() <{end = 16 : i32, start = 0 : i32}> : () -> tensor<4x4xi32>
  func.return
}

// -----

func.func @splat_type(%arg0: i32) {
  // expected-error @+1 {{'tk.splat' op result must be a block of the operand's type 'i32', got 'tensor<16xf32>'}}
  %0 = "tk.splat"(%arg0) : (i32) -> tensor<16xf32>
  func.return
}

// -----

func.func @splat_of_block(%arg0: tensor<4xi32>) {
  // expected-error @+1 {{'tk.splat' op operand #0 must be integer, float or pointer, but got 'tensor<4xi32>'}}
  %0 = "tk.splat"(%arg0) : (tensor<4xi32>) -> tensor<16xi32>
  func.return
}

// -----

func.func @broadcast_element_type(%arg0: tensor<8x1xi32>) {
  // expected-error @+1 {{'tk.broadcast' op result element type must be the operand's, 'i32', got 'i64'}}
  %0 = "tk.broadcast"(%arg0) : (tensor<8x1xi32>) -> tensor<8x16xi64>
  func.return
}

// -----

func.func @broadcast_rank(%arg0: tensor<16xi32>) {
  // expected-error @+1 {{'tk.broadcast' op keeps the rank: the operand has rank 1, the result 2 (add dimensions with tk.expand_dims or tk.reshape first)}}
  %0 = "tk.broadcast"(%arg0) : (tensor<16xi32>) -> tensor<8x16xi32>
  func.return
}

// -----

func.func @broadcast_dimension(%arg0: tensor<8x4xi32>) {
  // expected-error @+1 {{'tk.broadcast' op dimension 1 of the operand is 4; it must be 1 or the result's, 16}}
  %0 = "tk.broadcast"(%arg0) : (tensor<8x4xi32>) -> tensor<8x16xi32>
  func.return
}

// -----

func.func @broadcast_dynamic(%arg0: tensor<?x1xi32>) {
  // expected-error @+1 {{'tk.broadcast' op operand #0 must be statically shaped tensor of integer, float or pointer values, but got 'tensor<?x1xi32>'}}
  %0 = "tk.broadcast"(%arg0) : (tensor<?x1xi32>) -> tensor<8x16xi32>
  func.return
}

// -----

func.func @expand_dims_axis(%arg0: tensor<16xi32>) {
  // expected-error @+1 {{'tk.expand_dims' op axis 2 is out of range for an operand of rank 1 (0 <= axis <= 1)}}
  %0 = "tk.expand_dims"(%arg0) <{axis = 2 : i32}> : (tensor<16xi32>) -> tensor<16x1xi32>
  func.return
}

// -----

func.func @expand_dims_result(%arg0: tensor<16xi32>) {
  // expected-error @+1 {{'tk.expand_dims' op result must be 'tensor<16x1xi32>' (the operand with a dimension of size 1 at axis 1), got 'tensor<1x16xi32>'}}
  %0 = "tk.expand_dims"(%arg0) <{axis = 1 : i32}> : (tensor<16xi32>) -> tensor<1x16xi32>
  func.return
}

// -----

func.func @reshape_element_type(%arg0: tensor<16x32xf32>) {
  // expected-error @+1 {{'tk.reshape' op result element type must be the operand's, 'f32', got 'f16'}}
  %0 = "tk.reshape"(%arg0) : (tensor<16x32xf32>) -> tensor<512xf16>
  func.return
}

// -----

func.func @reshape_count(%arg0: tensor<16x32xf32>) {
  // expected-error @+1 {{'tk.reshape' op keeps the number of elements: the operand holds 512, the result 256}}
  %0 = "tk.reshape"(%arg0) : (tensor<16x32xf32>) -> tensor<256xf32>
  func.return
}

// -----

func.func @trans_order(%arg0: tensor<16x32xf32>) {
  // expected-error @+1 {{'tk.trans' op order must be a permutation of 0 .. 1 (one entry per dimension of the operand), got array<i32: 0, 0>}}
  %0 = "tk.trans"(%arg0) <{order = array<i32: 0, 0>}> : (tensor<16x32xf32>) -> tensor<16x32xf32>
  func.return
}

// -----

func.func @trans_result(%arg0: tensor<8x4x16xf32>) {
  // expected-error @+1 {{'tk.trans' op result must be 'tensor<16x8x4xf32>' (result dimension d is operand dimension order[d]), got 'tensor<4x16x8xf32>'}}
  %0 = "tk.trans"(%arg0) <{order = array<i32: 2, 0, 1>}> : (tensor<8x4x16xf32>) -> tensor<4x16x8xf32>
  func.return
}

// -----

func.func @addptr_shape(%arg0: tensor<128x!tk.ptr<f32>>, %arg1: tensor<64xi32>) {
  // expected-error @+1 {{'tk.addptr' op offsets must have the pointers' shape: the pointers are 'tensor<128x!tk.ptr<f32>>', the offsets 'tensor<64xi32>'}}
  %0 = "tk.addptr"(%arg0, %arg1) : (tensor<128x!tk.ptr<f32>>, tensor<64xi32>) -> tensor<128x!tk.ptr<f32>>
  func.return
}

// -----

func.func @addptr_result(%arg0: !tk.ptr<f32>, %arg1: i32) {
  // expected-error @+1 {{'tk.addptr' op result must have the pointers' type '!tk.ptr<f32>', got '!tk.ptr<f16>'}}
  %0 = "tk.addptr"(%arg0, %arg1) : (!tk.ptr<f32>, i32) -> !tk.ptr<f16>
  func.return
}

// -----

func.func @addptr_float_offset(%arg0: !tk.ptr<f32>, %arg1: f32) {
  // expected-error @+1 {{'tk.addptr' op operand #1 must be integer or block of integers, but got 'f32'}}
  %0 = "tk.addptr"(%arg0, %arg1) : (!tk.ptr<f32>, f32) -> !tk.ptr<f32>
  func.return
}

// -----

func.func @load_result(%arg0: tensor<128x!tk.ptr<f32>>) {
  // expected-error @+1 {{'tk.load' op result must be 'tensor<128xf32>' (the pointee type in the pointers' shape), got 'tensor<128xf16>'}}
  %0 = "tk.load"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf16>
  func.return
}

// -----

func.func @load_mask(%arg0: tensor<128x!tk.ptr<f32>>, %arg1: tensor<64xi1>) {
  // expected-error @+1 {{'tk.load' op mask must be 'tensor<128xi1>' (one i1 per pointer), got 'tensor<64xi1>'}}
  %0 = "tk.load"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tk.ptr<f32>>, tensor<64xi1>) -> tensor<128xf32>
  func.return
}

// -----

func.func @load_other_without_mask(%arg0: tensor<128x!tk.ptr<f32>>, %arg1: tensor<128xf32>) {
  // expected-error @+1 {{'tk.load' op has `other` but no `mask`: `other` fills the lanes the mask turns off, so give a mask or drop `other`}}
  %0 = "tk.load"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<128x!tk.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
  func.return
}

// -----

func.func @load_other(%arg0: tensor<128x!tk.ptr<f32>>, %arg1: tensor<128xi1>, %arg2: tensor<128xi32>) {
  // expected-error @+1 {{'tk.load' op other must be 'tensor<128xf32>' (the loaded type), got 'tensor<128xi32>'}}
  %0 = "tk.load"(%arg0, %arg1, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tk.ptr<f32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xf32>
  func.return
}

// -----

func.func @load_segments(%arg0: tensor<128x!tk.ptr<f32>>) {
  // expected-error @+1 {{'tk.load' op operand count (1) does not match with the total size (2) specified in attribute 'operandSegmentSizes'}}
  %0 = "tk.load"(%arg0) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tk.ptr<f32>>) -> tensor<128xf32>
  func.return
}

// -----

func.func @store_value(%arg0: tensor<128x!tk.ptr<f32>>, %arg1: tensor<128xf16>) {
  // expected-error @+1 {{'tk.store' op value must be 'tensor<128xf32>' (the pointee type in the pointers' shape), got 'tensor<128xf16>'}}
  "tk.store"(%arg0, %arg1) : (tensor<128x!tk.ptr<f32>>, tensor<128xf16>) -> ()
  func.return
}

// -----

func.func @store_mask(%arg0: !tk.ptr<f32>, %arg1: f32, %arg2: tensor<1xi1>) {
  // expected-error @+1 {{'tk.store' op mask must be 'i1' (one i1 per pointer), got 'tensor<1xi1>'}}
  "tk.store"(%arg0, %arg1, %arg2) : (!tk.ptr<f32>, f32, tensor<1xi1>) -> ()
  func.return
}

// -----

func.func @reduce_no_operand() {
  // expected-error @+1 {{'tk.reduce' op needs at least one operand}}
  "tk.reduce"() <{axis = 0 : i32}> ({
    ^bb0:
      "tk.reduce.return"() : () -> ()
  }) : () -> ()
  func.return
}

// -----

func.func @reduce_shapes(%arg0: tensor<16xf32>, %arg1: tensor<8xi32>) {
  // expected-error @+1 {{'tk.reduce' op operands must have one shape: operand 1 is 'tensor<8xi32>', operand 0 is 'tensor<16xf32>'}}
  %0:2 = "tk.reduce"(%arg0, %arg1) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: i32, %c: f32, %d: i32):
      "tk.reduce.return"(%a, %b) : (f32, i32) -> ()
  }) : (tensor<16xf32>, tensor<8xi32>) -> (f32, i32)
  func.return
}

// -----

func.func @reduce_axis(%arg0: tensor<8x16xf32>) {
  // expected-error @+1 {{'tk.reduce' op axis 2 is out of range for operands of rank 2 (0 <= axis < 2)}}
  %0 = "tk.reduce"(%arg0) <{axis = 2 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
  }) : (tensor<8x16xf32>) -> tensor<8xf32>
  func.return
}

// -----

func.func @reduce_result_count(%arg0: tensor<16xf32>) {
  // expected-error @+1 {{'tk.reduce' op has 2 results for 1 operands; it returns one result per operand}}
  %0:2 = "tk.reduce"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
  }) : (tensor<16xf32>) -> (f32, f32)
  func.return
}

// -----

func.func @reduce_result(%arg0: tensor<8x16xf32>) {
  // expected-error @+1 {{'tk.reduce' op result 0 must be 'tensor<8xf32>' (operand 0 without dimension 1), got 'tensor<16xf32>'}}
  %0 = "tk.reduce"(%arg0) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
  }) : (tensor<8x16xf32>) -> tensor<16xf32>
  func.return
}

// -----

func.func @reduce_to_scalar(%arg0: tensor<16xf32>) {
  // expected-error @+1 {{'tk.reduce' op result 0 must be 'f32' (operand 0 without dimension 0), got 'tensor<1xf32>'}}
  %0 = "tk.reduce"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.reduce.return"(%s) : (f32) -> ()
  }) : (tensor<16xf32>) -> tensor<1xf32>
  func.return
}

// -----

func.func @reduce_argument_count(%arg0: tensor<16xf32>) {
  // expected-error @+1 {{'tk.reduce' op the combine region takes 2 scalar arguments (1 left values, then 1 right values), got 1}}
  %0 = "tk.reduce"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32):
      "tk.reduce.return"(%a) : (f32) -> ()
  }) : (tensor<16xf32>) -> f32
  func.return
}

// -----

func.func @reduce_argument_type(%arg0: tensor<16xf32>, %arg1: tensor<16xi32>) {
  // expected-error @+1 {{'tk.reduce' op combine argument 3 must be 'i32' (the element type of operand 1), got 'f32'}}
  %0:2 = "tk.reduce"(%arg0, %arg1) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: i32, %c: f32, %d: f32):
      "tk.reduce.return"(%a, %b) : (f32, i32) -> ()
  }) : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
  func.return
}

// -----

func.func @reduce_return_count(%arg0: tensor<16xf32>) {
  %0 = "tk.reduce"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      // expected-error @+1 {{'tk.reduce.return' op returns 2 values; the combine region returns 1, one per operand}}
      "tk.reduce.return"(%a, %b) : (f32, f32) -> ()
  }) : (tensor<16xf32>) -> f32
  func.return
}

// -----

func.func @reduce_return_type(%arg0: tensor<16xf32>) {
  %0 = "tk.reduce"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %i = arith.fptosi %a : f32 to i32
      // expected-error @+1 {{'tk.reduce.return' op value 0 must be 'f32' (the element type of operand 0), got 'i32'}}
      "tk.reduce.return"(%i) : (i32) -> ()
  }) : (tensor<16xf32>) -> f32
  func.return
}

// -----

func.func @reduce_terminator(%arg0: tensor<16xf32>) {
  %0 = "tk.reduce"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      // expected-error @+1 {{'tk.scan.return' op expects parent op 'tk.scan'}}
      "tk.scan.return"(%a) : (f32) -> ()
  }) : (tensor<16xf32>) -> f32
  func.return
}

// -----

func.func @reduce_return_outside(%arg0: f32) {
  // expected-error @+1 {{'tk.reduce.return' op expects parent op 'tk.reduce'}}
  "tk.reduce.return"(%arg0) : (f32) -> ()
}

// -----

func.func @reduce_two_blocks(%arg0: tensor<16xf32>) {
  // expected-error @+1 {{'tk.reduce' op region #0 ('combineOp') failed to verify constraint: region with 1 blocks}}
  %0 = "tk.reduce"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      cf.br ^bb1
    ^bb1:
      "tk.reduce.return"(%a) : (f32) -> ()
  }) : (tensor<16xf32>) -> f32
  func.return
}

// -----

func.func @scan_axis(%arg0: tensor<16xf32>) {
  // expected-error @+1 {{'tk.scan' op axis -1 is out of range for operands of rank 1 (0 <= axis < 1)}}
  %0 = "tk.scan"(%arg0) <{axis = -1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.scan.return"(%s) : (f32) -> ()
  }) : (tensor<16xf32>) -> tensor<16xf32>
  func.return
}

// -----

func.func @scan_result(%arg0: tensor<8x16xf32>) {
  // expected-error @+1 {{'tk.scan' op result 0 must be 'tensor<8x16xf32>' (operand 0's type: a scan keeps the shape), got 'tensor<8xf32>'}}
  %0 = "tk.scan"(%arg0) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.scan.return"(%s) : (f32) -> ()
  }) : (tensor<8x16xf32>) -> tensor<8xf32>
  func.return
}

// -----

func.func @scan_argument_type(%arg0: tensor<16xi32>) {
  // expected-error @+1 {{'tk.scan' op combine argument 0 must be 'i32' (the element type of operand 0), got 'i64'}}
  %0 = "tk.scan"(%arg0) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i64, %b: i32):
      "tk.scan.return"(%b) : (i32) -> ()
  }) : (tensor<16xi32>) -> tensor<16xi32>
  func.return
}

// -----

func.func @scan_reverse_missing(%arg0: tensor<16xf32>) {
  // expected-error @+1 {{'tk.scan' op requires attribute 'reverse'}}
  %0 = "tk.scan"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      "tk.scan.return"(%s) : (f32) -> ()
  }) : (tensor<16xf32>) -> tensor<16xf32>
  func.return
}

// -----

func.func @dot_rank(%a: tensor<16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op a, b and c must be 2-D blocks, or 3-D blocks with a batch dimension first, got 'tensor<16xf16>', 'tensor<16x16xf16>', 'tensor<16x16xf32>'}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// -----

func.func @dot_inner(%a: tensor<32x16xf16>, %b: tensor<32x32xf16>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{'tk.dot' op inner dimensions differ: a is 'tensor<32x16xf16>' (M x K), b is 'tensor<32x32xf16>' (K x N)}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<32x16xf16>, tensor<32x32xf16>, tensor<32x32xf32>) -> tensor<32x32xf32>
  func.return
}

// -----

func.func @dot_accumulator(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op the accumulator must be M x N = 32 x 32, got 'tensor<16x16xf32>'}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<32x16xf16>, tensor<16x32xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// -----

func.func @dot_result(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{'tk.dot' op result must have the accumulator's type 'tensor<32x32xf32>', got 'tensor<32x32xf16>'}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<32x16xf16>, tensor<16x32xf16>, tensor<32x32xf32>) -> tensor<32x32xf16>
  func.return
}

// -----

func.func @dot_small(%a: tensor<8x16xf16>, %b: tensor<16x16xf16>, %c: tensor<8x16xf32>) {
  // expected-error @+1 {{'tk.dot' op every dimension must be at least 16 (tensor-core tiles), got a 'tensor<8x16xf16>' and b 'tensor<16x16xf16>'}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<8x16xf16>, tensor<16x16xf16>, tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return
}

// -----

func.func @dot_mixed_inputs(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op a and b must have one element type (or two fp8 types), got 'f16' and 'bf16'}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<16x16xf16>, tensor<16x16xbf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// -----

func.func @dot_types(%a: tensor<16x16xi8>, %b: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op unsupported input/accumulator types 'i8'/'f32'; supported: f16/f32, f16/f16, bf16/f32, f32/f32, fp8/f32, fp8/f16, i8/i32}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<16x16xi8>, tensor<16x16xi8>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// -----

func.func @dot_fp8_bf16(%a: tensor<16x16xf8E4M3FN>, %b: tensor<16x16xf8E4M3FN>, %c: tensor<16x16xbf16>) {
  // expected-error @+1 {{'tk.dot' op unsupported input/accumulator types 'f8E4M3FN'/'bf16'}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<16x16xf8E4M3FN>, tensor<16x16xf8E4M3FN>, tensor<16x16xbf16>) -> tensor<16x16xbf16>
  func.return
}

// -----

func.func @dot_fp8_f16_mixed(%a: tensor<16x16xf8E4M3FN>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op a and b must have one element type (or two fp8 types), got 'f8E4M3FN' and 'f16'}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee"}> : (tensor<16x16xf8E4M3FN>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// -----

func.func @dot_precision(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op input_precision must be "tf32", "tf32x3" or "ieee", got "tf32x4"}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "tf32x4"}> : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// -----

func.func @dot_tf32_f16(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op input_precision "tf32" applies to f32 inputs; use "ieee" for 'f16'}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "tf32"}> : (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// -----

func.func @dot_tf32x3_bf16(%a: tensor<16x16xbf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op input_precision "tf32x3" applies to f32 inputs; use "ieee" for 'bf16'}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "tf32x3"}> : (tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// -----

func.func @dot_batches(%a: tensor<2x16x16xf16>, %b: tensor<4x16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op a, b and c must have one batch size}}
  %0 = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<2x16x16xf16> * tensor<4x16x16xf16> + tensor<2x16x16xf32> -> tensor<2x16x16xf32>
  func.return
}

// -----

func.func @dot_rank(%a: tensor<2x16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op a, b and c must be 2-D blocks, or 3-D blocks with a batch dimension first}}
  %0 = tk.dot %a, %b, %c {input_precision = "ieee"} : tensor<2x16x16xf16> * tensor<16x16xf16> + tensor<16x16xf32> -> tensor<16x16xf32>
  func.return
}

// -----

func.func @dot_imprecise_acc(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op max_num_imprecise_acc must not be negative, got -1}}
  %0 = "tk.dot"(%a, %b, %c) <{input_precision = "ieee", max_num_imprecise_acc = -1 : i32}> : (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// -----

func.func @dot_precision_missing(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tk.dot' op requires attribute 'input_precision'}}
  %0 = "tk.dot"(%a, %b, %c) <{max_num_imprecise_acc = 0 : i32}> : (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  func.return
}

// -----

func.func @bitcast_numbers(%arg0: tensor<16xf32>) {
  // expected-error @+1 {{'tk.bitcast' op casts pointers to pointers, got 'tensor<16xf32>' to 'tensor<16xi32>'; bit-cast numbers with arith.bitcast}}
  %0 = "tk.bitcast"(%arg0) : (tensor<16xf32>) -> tensor<16xi32>
  func.return
}

// -----

func.func @bitcast_shape(%arg0: tensor<16x!tk.ptr<f32>>) {
  // expected-error @+1 {{'tk.bitcast' op keeps the shape, got 'tensor<16x!tk.ptr<f32>>' to '!tk.ptr<i32>'}}
  %0 = "tk.bitcast"(%arg0) : (tensor<16x!tk.ptr<f32>>) -> !tk.ptr<i32>
  func.return
}

// -----

func.func @ptr_to_int_shape(%arg0: tensor<16x!tk.ptr<f32>>) {
  // expected-error @+1 {{'tk.ptr_to_int' op keeps the shape, got 'tensor<16x!tk.ptr<f32>>' to 'tensor<8xi64>'}}
  %0 = "tk.ptr_to_int"(%arg0) : (tensor<16x!tk.ptr<f32>>) -> tensor<8xi64>
  func.return
}

// -----

func.func @ptr_to_int_i32(%arg0: !tk.ptr<f32>) {
  // expected-error @+1 {{'tk.ptr_to_int' op result #0 must be i64 or block of i64, but got 'i32'}}
  %0 = "tk.ptr_to_int"(%arg0) : (!tk.ptr<f32>) -> i32
  func.return
}

// -----

func.func @int_to_ptr_shape(%arg0: i64) {
  // expected-error @+1 {{'tk.int_to_ptr' op keeps the shape, got 'i64' to 'tensor<1x!tk.ptr<f32>>'}}
  %0 = "tk.int_to_ptr"(%arg0) : (i64) -> tensor<1x!tk.ptr<f32>>
  func.return
}

// -----

// expected-error @+1 {{!tk.tensordesc's block dimensions must be powers of two, got 'tensor<24xf32>'}}
func.func @desc_block(%d: !tk.tensordesc<tensor<24xf32>>) { func.return }

// -----

func.func @desc_sizes(%p: !tk.ptr<f32>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tk.make_tensor_descriptor' op needs one size and one stride per dimension of its block 'tensor<16x16xf32>', got 1}}
  %d = tk.make_tensor_descriptor %p, [%n], [%s] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x16xf32>>
  func.return
}

// -----

func.func @desc_pointee(%p: !tk.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tk.make_tensor_descriptor' op base '!tk.ptr<f16>' must point to the block's element type 'f32'}}
  %d = tk.make_tensor_descriptor %p, [%n], [%s] : !tk.ptr<f16>, !tk.tensordesc<tensor<16xf32>>
  func.return
}

// -----

func.func @desc_indices(%d: !tk.tensordesc<tensor<16x16xf32>>, %i: i32) {
  // expected-error @+1 {{'tk.descriptor_load' op needs one index per dimension of '!tk.tensordesc<tensor<16x16xf32>>', got 1}}
  %x = tk.descriptor_load %d[%i] : !tk.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf32>
  func.return
}

// -----

func.func @desc_store_block(%d: !tk.tensordesc<tensor<16xf32>>, %i: i32, %x: tensor<32xf32>) {
  // expected-error @+1 {{'tk.descriptor_store' op accesses blocks of 'tensor<16xf32>', got 'tensor<32xf32>'}}
  tk.descriptor_store %d[%i], %x : !tk.tensordesc<tensor<16xf32>>, tensor<32xf32>
  func.return
}

// -----

func.func @desc_nan_padding_int(%d: !tk.tensordesc<tensor<16xi32>>, %i: i32) {
  // expected-error @+1 {{'tk.descriptor_load' op pads with NaN only blocks of floats, got 'tensor<16xi32>'}}
  %x = tk.descriptor_load %d[%i] {nan_padding} : !tk.tensordesc<tensor<16xi32>> -> tensor<16xi32>
  func.return
}

// -----

func.func @desc_gather_block(%d: !tk.tensordesc<tensor<2x16xf32>>, %rows: tensor<8xi32>, %j: i32) {
  // expected-error @+1 {{'tk.descriptor_gather' op needs a 2-D descriptor of blocks of one row, got '!tk.tensordesc<tensor<2x16xf32>>'}}
  %x = tk.descriptor_gather %d[%rows, %j] : !tk.tensordesc<tensor<2x16xf32>>, tensor<8xi32> -> tensor<8x16xf32>
  func.return
}

// -----

func.func @desc_gather_rows(%d: !tk.tensordesc<tensor<1x16xf32>>, %rows: tensor<8x2xi32>, %j: i32) {
  // expected-error @+1 {{'tk.descriptor_gather' op takes a 1-D block of row indices, got 'tensor<8x2xi32>'}}
  %x = tk.descriptor_gather %d[%rows, %j] : !tk.tensordesc<tensor<1x16xf32>>, tensor<8x2xi32> -> tensor<8x16xf32>
  func.return
}

// -----

func.func @desc_gather_result(%d: !tk.tensordesc<tensor<1x16xf32>>, %rows: tensor<8xi32>, %j: i32) {
  // expected-error @+1 {{'tk.descriptor_gather' op accesses blocks of 'tensor<8x16xf32>' (one row per index), got 'tensor<16x16xf32>'}}
  %x = tk.descriptor_gather %d[%rows, %j] : !tk.tensordesc<tensor<1x16xf32>>, tensor<8xi32> -> tensor<16x16xf32>
  func.return
}

// -----

func.func @desc_gather_nan_int(%d: !tk.tensordesc<tensor<1x16xi32>>, %rows: tensor<8xi32>, %j: i32) {
  // expected-error @+1 {{'tk.descriptor_gather' op pads with NaN only blocks of floats, got 'tensor<8x16xi32>'}}
  %x = tk.descriptor_gather %d[%rows, %j] {nan_padding} : !tk.tensordesc<tensor<1x16xi32>>, tensor<8xi32> -> tensor<8x16xi32>
  func.return
}

// -----

func.func @desc_scatter_src(%d: !tk.tensordesc<tensor<1x16xf32>>, %rows: tensor<8xi32>, %j: i32, %x: tensor<8x16xf16>) {
  // expected-error @+1 {{'tk.descriptor_scatter' op accesses blocks of 'tensor<8x16xf32>' (one row per index), got 'tensor<8x16xf16>'}}
  tk.descriptor_scatter %d[%rows, %j], %x : !tk.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, tensor<8x16xf16>
  func.return
}

// -----

func.func @desc_reduce_xchg(%d: !tk.tensordesc<tensor<16xf32>>, %i: i32, %x: tensor<16xf32>) {
  // expected-error @+1 {{'tk.descriptor_reduce' op kind must be one of add, fadd, and, or, xor, max, min, umax, umin, fmax, fmin; got "xchg"}}
  tk.descriptor_reduce %d[%i], %x {kind = "xchg"} : !tk.tensordesc<tensor<16xf32>>, tensor<16xf32>
  func.return
}

// -----

func.func @desc_reduce_kind_type(%d: !tk.tensordesc<tensor<16xf16>>, %i: i32, %x: tensor<16xf16>) {
  // expected-error @+1 {{'tk.descriptor_reduce' op kind "fmax" applies to f32 or f64 elements, not 'f16'}}
  tk.descriptor_reduce %d[%i], %x {kind = "fmax"} : !tk.tensordesc<tensor<16xf16>>, tensor<16xf16>
  func.return
}

// -----

func.func @desc_reduce_block(%d: !tk.tensordesc<tensor<16xi32>>, %i: i32, %x: tensor<32xi32>) {
  // expected-error @+1 {{'tk.descriptor_reduce' op accesses blocks of 'tensor<16xi32>', got 'tensor<32xi32>'}}
  tk.descriptor_reduce %d[%i], %x {kind = "add"} : !tk.tensordesc<tensor<16xi32>>, tensor<32xi32>
  func.return
}

// -----

// expected-error @+1 {{!tk.blockptr's block dimensions must be powers of two, got 'tensor<16x12xf32>'}}
func.func @blockptr_block(%p: !tk.blockptr<tensor<16x12xf32>>) { func.return }

// -----

func.func @blockptr_sizes(%p: !tk.ptr<f32>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tk.make_block_ptr' op needs one size, one stride and one offset per dimension of its block 'tensor<16x16xf32>', got 1}}
  %b = tk.make_block_ptr %p, [%n], [%s], [%n] {order = array<i32: 0>} : !tk.ptr<f32>, !tk.blockptr<tensor<16x16xf32>>
  func.return
}

// -----

func.func @blockptr_pointee(%p: !tk.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tk.make_block_ptr' op base '!tk.ptr<f16>' must point to the block's element type 'f32'}}
  %b = tk.make_block_ptr %p, [%n], [%s], [%n] {order = array<i32: 0>} : !tk.ptr<f16>, !tk.blockptr<tensor<16xf32>>
  func.return
}

// -----

func.func @blockptr_order(%p: !tk.ptr<f32>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tk.make_block_ptr' op order must be a permutation of the block's 2 dimensions, got [1, 1]}}
  %b = tk.make_block_ptr %p, [%n, %n], [%s, %s], [%n, %n] {order = array<i32: 1, 1>} : !tk.ptr<f32>, !tk.blockptr<tensor<16x16xf32>>
  func.return
}

// -----

func.func @blockptr_order_rank(%p: !tk.ptr<f32>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tk.make_block_ptr' op order must be a permutation of the block's 2 dimensions, got [0]}}
  %b = tk.make_block_ptr %p, [%n, %n], [%s, %s], [%n, %n] {order = array<i32: 0>} : !tk.ptr<f32>, !tk.blockptr<tensor<16x16xf32>>
  func.return
}

// -----

func.func @advance_offsets(%b: !tk.blockptr<tensor<16x16xf32>>, %i: i32) {
  // expected-error @+1 {{'tk.advance' op needs one offset per dimension of '!tk.blockptr<tensor<16x16xf32>>', got 1}}
  %c = tk.advance %b[%i] : !tk.blockptr<tensor<16x16xf32>>
  func.return
}

// -----

func.func @block_load_shape(%b: !tk.blockptr<tensor<16xf32>>) {
  // expected-error @+1 {{'tk.block_load' op accesses blocks of 'tensor<16xf32>', got 'tensor<32xf32>'}}
  %x = tk.block_load %b {boundary_check = array<i32>} : !tk.blockptr<tensor<16xf32>> -> tensor<32xf32>
  func.return
}

// -----

func.func @block_load_check(%b: !tk.blockptr<tensor<16x16xf32>>) {
  // expected-error @+1 {{'tk.block_load' op boundary_check must list distinct dimensions of the 2-dimensional block, got [0, 2]}}
  %x = tk.block_load %b {boundary_check = array<i32: 0, 2>} : !tk.blockptr<tensor<16x16xf32>> -> tensor<16x16xf32>
  func.return
}

// -----

func.func @block_load_nan(%b: !tk.blockptr<tensor<16xi32>>) {
  // expected-error @+1 {{'tk.block_load' op pads with NaN only blocks of floats, got 'tensor<16xi32>'}}
  %x = tk.block_load %b {boundary_check = array<i32: 0>, nan_padding} : !tk.blockptr<tensor<16xi32>> -> tensor<16xi32>
  func.return
}

// -----

func.func @block_store_check(%b: !tk.blockptr<tensor<16xf32>>, %x: tensor<16xf32>) {
  // expected-error @+1 {{'tk.block_store' op boundary_check must list distinct dimensions of the 1-dimensional block, got [0, 0]}}
  tk.block_store %b, %x {boundary_check = array<i32: 0, 0>} : !tk.blockptr<tensor<16xf32>>, tensor<16xf32>
  func.return
}

// -----

func.func @desc_last_stride(%p: !tk.ptr<f32>, %n: i32) {
  %c64 = arith.constant 64 : i64
  %c2 = arith.constant 2 : i64
  // expected-error @+1 {{'tk.make_tensor_descriptor' op the last stride must be the constant 1 (rows of contiguous elements); use a block pointer or plain pointers for other strides}}
  %d = tk.make_tensor_descriptor %p, [%n, %n], [%c64, %c2] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x16xf32>>
  func.return
}

// -----

func.func @desc_last_stride_argument(%p: !tk.ptr<f32>, %n: i32, %s: i64) {
  %c64 = arith.constant 64 : i64
  // expected-error @+1 {{'tk.make_tensor_descriptor' op the last stride must be the constant 1 (rows of contiguous elements); use a block pointer or plain pointers for other strides}}
  %d = tk.make_tensor_descriptor %p, [%n, %n], [%c64, %s] : !tk.ptr<f32>, !tk.tensordesc<tensor<16x16xf32>>
  func.return
}

// -----

func.func @atomic_kind_type(%p: !tk.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tk.atomic_rmw' op kind "add" applies to i32 or i64 elements, not 'f32'}}
  %0 = "tk.atomic_rmw"(%p, %v) <{kind = "add", scope = "gpu", sem = "acq_rel"}> : (!tk.ptr<f32>, f32) -> f32
  func.return
}

// -----

func.func @atomic_fmax_f16(%p: !tk.ptr<f16>, %v: f16) {
  // expected-error @+1 {{'tk.atomic_rmw' op kind "fmax" applies to f32 or f64 elements, not 'f16'}}
  %0 = "tk.atomic_rmw"(%p, %v) <{kind = "fmax", scope = "gpu", sem = "acq_rel"}> : (!tk.ptr<f16>, f16) -> f16
  func.return
}

// -----

func.func @atomic_unknown_kind(%p: !tk.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tk.atomic_rmw' op kind must be one of add, fadd, and, or, xor, max, min, umax, umin, fmax, fmin, xchg; got "nand"}}
  %0 = "tk.atomic_rmw"(%p, %v) <{kind = "nand", scope = "gpu", sem = "acq_rel"}> : (!tk.ptr<i32>, i32) -> i32
  func.return
}

// -----

func.func @atomic_sem(%p: !tk.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tk.atomic_rmw' op sem must be "relaxed", "acquire", "release" or "acq_rel", got "seq_cst"}}
  %0 = "tk.atomic_rmw"(%p, %v) <{kind = "add", scope = "gpu", sem = "seq_cst"}> : (!tk.ptr<i32>, i32) -> i32
  func.return
}

// -----

func.func @atomic_scope(%p: !tk.ptr<i32>, %c: i32, %v: i32) {
  // expected-error @+1 {{'tk.atomic_cas' op scope must be "cta", "gpu" or "sys", got "cluster"}}
  %0 = "tk.atomic_cas"(%p, %c, %v) <{scope = "cluster", sem = "acq_rel"}> : (!tk.ptr<i32>, i32, i32) -> i32
  func.return
}

// -----

func.func @atomic_cas_type(%p: !tk.ptr<i16>, %c: i16, %v: i16) {
  // expected-error @+1 {{'tk.atomic_cas' op compares and swaps i32, i64, f32 or f64 elements, not 'i16'}}
  %0 = "tk.atomic_cas"(%p, %c, %v) <{scope = "gpu", sem = "acq_rel"}> : (!tk.ptr<i16>, i16, i16) -> i16
  func.return
}

// -----

func.func @atomic_val_shape(%p: tensor<16x!tk.ptr<i32>>, %v: tensor<32xi32>) {
  // expected-error @+1 {{'tk.atomic_rmw' op val must be 'tensor<16xi32>' (the pointee type in the pointers' shape), got 'tensor<32xi32>'}}
  %0 = "tk.atomic_rmw"(%p, %v) <{kind = "add", scope = "gpu", sem = "acq_rel"}> : (tensor<16x!tk.ptr<i32>>, tensor<32xi32>) -> tensor<16xi32>
  func.return
}

// -----

func.func @atomic_mask_shape(%p: tensor<16x!tk.ptr<i32>>, %v: tensor<16xi32>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tk.atomic_rmw' op mask must be 'tensor<16xi1>' (one i1 per pointer), got 'tensor<8xi1>'}}
  %0 = "tk.atomic_rmw"(%p, %v, %m) <{kind = "add", scope = "gpu", sem = "acq_rel"}> : (tensor<16x!tk.ptr<i32>>, tensor<16xi32>, tensor<8xi1>) -> tensor<16xi32>
  func.return
}

// -----

func.func @load_cache(%p: !tk.ptr<f32>) {
  // expected-error @+1 {{'tk.load' op cache must be one of "ca", "cg", "cs", "cv"; got "wb"}}
  %0 = "tk.load"(%p) <{cache = "wb", operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tk.ptr<f32>) -> f32
  func.return
}

// -----

func.func @load_cache_and_evict(%p: !tk.ptr<f32>) {
  // expected-error @+1 {{'tk.load' op has both a cache operator and an eviction priority: PTX's ld and st take one or the other}}
  %0 = "tk.load"(%p) <{cache = "cg", evict = "evict_last", operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tk.ptr<f32>) -> f32
  func.return
}

// -----

func.func @load_volatile_cache(%p: !tk.ptr<f32>) {
  // expected-error @+1 {{'tk.load' op is volatile: a volatile load takes no cache operator or eviction priority}}
  %0 = "tk.load"(%p) <{cache = "cg", is_volatile, operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tk.ptr<f32>) -> f32
  func.return
}

// -----

func.func @store_evict(%p: !tk.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tk.store' op evict must be "evict_first" or "evict_last", got "evict_normal"}}
  "tk.store"(%p, %v) <{evict = "evict_normal"}> : (!tk.ptr<f32>, f32) -> ()
  func.return
}

// -----

func.func @store_cache(%p: !tk.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tk.store' op cache must be one of "wb", "cg", "cs", "wt"; got "ca"}}
  "tk.store"(%p, %v) <{cache = "ca"}> : (!tk.ptr<f32>, f32) -> ()
  func.return
}

// -----

func.func @print_signs(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tk.print' op needs one is_signed entry per operand: 1 operands, 0 entries}}
  "tk.print"(%x) <{hex = false, is_signed = array<i32>, prefix = " x: "}> : (tensor<16xi32>) -> ()
  func.return
}

// -----

func.func @print_shapes(%x: tensor<16xi32>, %y: tensor<32xi32>) {
  // expected-error @+1 {{'tk.print' op operands must have one shape, got 'tensor<16xi32>' and 'tensor<32xi32>'}}
  "tk.print"(%x, %y) <{hex = false, is_signed = array<i32: 1, 1>, prefix = " x: "}> : (tensor<16xi32>, tensor<32xi32>) -> ()
  func.return
}

// -----

func.func @hint_rank(%x: tensor<16x16xi32>) {
  // expected-error @+1 {{'tk.multiple_of' op needs one value per dimension (2), got 1}}
  %0 = "tk.multiple_of"(%x) <{values = array<i32: 16>}> : (tensor<16x16xi32>) -> tensor<16x16xi32>
  func.return
}

// -----

func.func @hint_positive(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tk.max_contiguous' op values must be positive, got 0}}
  %0 = "tk.max_contiguous"(%x) <{values = array<i32: 0>}> : (tensor<16xi32>) -> tensor<16xi32>
  func.return
}

// -----

func.func @asm_pack(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tk.inline_asm' op pack 3 does not divide the 16 elements}}
  %0 = "tk.inline_asm"(%x) <{asm_string = "", constraints = "=r,r", pack = 3 : i32, pure = true}> : (tensor<16xf32>) -> tensor<16xf32>
  func.return
}

// -----

func.func @asm_pack_width(%x: tensor<16xf16>) {
  // expected-error @+1 {{'tk.inline_asm' op packs 4 elements of 'f16' per register: more than 32 bits}}
  %0 = "tk.inline_asm"(%x) <{asm_string = "", constraints = "=l,l", pack = 4 : i32, pure = true}> : (tensor<16xf16>) -> tensor<16xf16>
  func.return
}

// -----

func.func @asm_mixed(%x: tensor<16xf32>, %s: f32) {
  // expected-error @+1 {{'tk.inline_asm' op takes blocks of one shape or only scalars, not both}}
  %0 = "tk.inline_asm"(%x, %s) <{asm_string = "", constraints = "=r,r,r", pack = 1 : i32, pure = true}> : (tensor<16xf32>, f32) -> tensor<16xf32>
  func.return
}

// -----

func.func @join_types(%arg0: tensor<16xf32>, %arg1: tensor<16xf16>) {
  // expected-error @+1 {{'tk.join' op operands must have one type, got 'tensor<16xf32>' and 'tensor<16xf16>'}}
  %0 = "tk.join"(%arg0, %arg1) : (tensor<16xf32>, tensor<16xf16>) -> tensor<16x2xf32>
  func.return
}

// -----

func.func @join_result(%arg0: tensor<16xf32>) {
  // expected-error @+1 {{'tk.join' op result must be 'tensor<16x2xf32>' (the operands' shape with a last dimension of 2), got 'tensor<2x16xf32>'}}
  %0 = "tk.join"(%arg0, %arg0) : (tensor<16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
  func.return
}

// -----

func.func @split_not_pairs(%arg0: tensor<16x4xf32>) {
  // expected-error @+1 {{'tk.split' op the operand's last dimension must be 2, got 'tensor<16x4xf32>'}}
  %0:2 = "tk.split"(%arg0) : (tensor<16x4xf32>) -> (tensor<16x2xf32>, tensor<16x2xf32>)
  func.return
}

// -----

func.func @cat_shapes(%arg0: tensor<16xf32>, %arg1: tensor<8xf32>) {
  // expected-error @+1 {{'tk.cat' op operands must have one shape and element type, got 'tensor<16xf32>' and 'tensor<8xf32>'}}
  %0 = "tk.cat"(%arg0, %arg1) : (tensor<16xf32>, tensor<8xf32>) -> tensor<24xf32>
  func.return
}

// -----

func.func @flip_axis(%arg0: tensor<16xf32>) {
  // expected-error @+1 {{'tk.flip' op axis must be a dimension of the operand (0 .. 0), got 1}}
  %0 = "tk.flip"(%arg0) <{axis = 1 : i32}> : (tensor<16xf32>) -> tensor<16xf32>
  func.return
}

// -----

func.func @gather_shape(%arg0: tensor<8x16xf32>, %arg1: tensor<4x4xi32>) {
  // expected-error @+1 {{'tk.gather' op indices must have the operand's shape except along axis 1: the operand is 'tensor<8x16xf32>', the indices 'tensor<4x4xi32>'}}
  %0 = "tk.gather"(%arg0, %arg1) <{axis = 1 : i32}> : (tensor<8x16xf32>, tensor<4x4xi32>) -> tensor<4x4xf32>
  func.return
}

// -----

// A symbol NVPTX could not print (it names a PTX declaration): an error, not a crash in LLVM.
func.func @extern_symbol(%x: tensor<16xf64>) {
  // expected-error @+1 {{'tk.extern_elementwise' op symbol must be a PTX identifier (letters, digits, '_' and '$', not starting with a digit), got "(\00\0010"}}
  %y = "tk.extern_elementwise"(%x) <{pure = true, symbol = "(\00\0010"}> : (tensor<16xf64>) -> tensor<16xf64>
  func.return
}

// -----

func.func @extern_symbol_digit(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tk.extern_elementwise' op symbol must be a PTX identifier (letters, digits, '_' and '$', not starting with a digit), got "1f"}}
  %y = "tk.extern_elementwise"(%x) <{pure = true, symbol = "1f"}> : (tensor<16xf32>) -> tensor<16xf32>
  func.return
}

// -----

// A `$` that names no operand: LLVM's inline asm printer would abort on it.
func.func @inline_asm_dollar(%x: tensor<32xf16>) {
  // expected-error @+1 {{'tk.inline_asm' op asm_string refers to operands as $0 to $2 (or ${N}, or $$ for a dollar sign), got "$;2"}}
  %0 = "tk.inline_asm"(%x, %x) <{asm_string = "add.f16x2 $0, $1, $;2", constraints = "=r,r,r", pack = 2 : i32, pure = true}> : (tensor<32xf16>, tensor<32xf16>) -> tensor<32xf16>
  func.return
}

// -----

func.func @inline_asm_operand_number(%x: tensor<32xi32>) {
  // expected-error @+1 {{'tk.inline_asm' op asm_string refers to operands as $0 to $1 (or ${N}, or $$ for a dollar sign), got "$2"}}
  %0 = "tk.inline_asm"(%x) <{asm_string = "mov.b32 $0, $2;", constraints = "=r,r,~{memory}", pack = 1 : i32, pure = true}> : (tensor<32xi32>) -> tensor<32xi32>
  func.return
}

// -----

// `$$`, `${N}` and `${N:modifier}` are well formed.
func.func @inline_asm_dollars(%x: tensor<32xi32>) -> tensor<32xi32> {
  %0 = "tk.inline_asm"(%x) <{asm_string = "// $$\n mov.b32 ${0}, ${1:x};", constraints = "=r,r", pack = 1 : i32, pure = true}> : (tensor<32xi32>) -> tensor<32xi32>
  func.return %0 : tensor<32xi32>
}

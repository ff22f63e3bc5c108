// The tk ops. Each matches the generic form the front end prints (docs/ir.md): operand and
// property names, operandSegmentSizes on tk.load, explicit region terminators. The assembly
// formats below are only how tk-opt prints; the generic form always parses.

#ifndef TK_OPS_TD
#define TK_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "TkTypes.td"

// Every tk op's tensors hold at most TkDialect::getMaxBlockElements() elements, as in the front
// end (tk::detail::max_block_elements): lowering unrolls a block into registers.
def Tk_BlockSizeLimit : NativeOpTrait<"BlockSizeLimit"> {
  let cppNamespace = "::mlir::tk";
}

class Tk_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tk_Dialect, mnemonic, !listconcat(traits, [Tk_BlockSizeLimit])> {
  let hasVerifier = 1;
}

// Program instances.

class Tk_GridOp<string mnemonic, string what> : Tk_Op<mnemonic, [Pure]> {
  let summary = what # " along a grid axis";
  let arguments = (ins I32Attr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tk_GetProgramIdOp : Tk_GridOp<"get_program_id", "the program instance's index">;
def Tk_GetNumProgramsOp : Tk_GridOp<"get_num_programs", "the number of program instances">;

def Tk_MakeRangeOp : Tk_Op<"make_range", [Pure]> {
  let summary = "the integers start ... end - 1";
  let description = [{
    `end - start` is the result's only dimension and a power of two.
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs 1DTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

// Shapes. Broadcasting is always explicit in the front end's IR.

def Tk_SplatOp : Tk_Op<"splat", [Pure]> {
  let summary = "a block filled with one scalar";
  let arguments = (ins Tk_Elem:$src);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1; // a splat of a constant is a splat constant
}

def Tk_BroadcastOp : Tk_Op<"broadcast", [Pure]> {
  let summary = "expands dimensions of size 1, keeping the rank";
  let arguments = (ins Tk_Tensor:$src);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;           // of a splat constant; the identity
  let hasCanonicalizeMethod = 1; // of a tk.splat: a tk.splat
}

def Tk_ExpandDimsOp : Tk_Op<"expand_dims", [Pure]> {
  let summary = "inserts a dimension of size 1 at `axis`";
  let arguments = (ins Tk_Value:$src, I32Attr:$axis);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;           // of a splat constant; the identity
  let hasCanonicalizeMethod = 1; // of a tk.splat: a tk.splat
}

def Tk_ReshapeOp : Tk_Op<"reshape", [Pure]> {
  let summary = "the same elements in row-major order, in another shape";
  let arguments = (ins Tk_Value:$src);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;           // of a splat constant; the identity
  let hasCanonicalizeMethod = 1; // of a tk.splat: a tk.splat
}

def Tk_TransOp : Tk_Op<"trans", [Pure]> {
  let summary = "permutes dimensions: result dimension d is operand dimension order[d]";
  let arguments = (ins Tk_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;           // of a splat constant; the identity
  let hasCanonicalizeMethod = 1; // of a tk.splat: a tk.splat
}

def Tk_JoinOp : Tk_Op<"join", [Pure]> {
  let summary = "stacks two blocks of one type along a new last dimension of size 2";
  let description = [{
    result[i..., 0] = lhs[i...] and result[i..., 1] = rhs[i...]. A scalar pair gives a
    tensor<2xT>.
  }];
  let arguments = (ins Tk_Value:$lhs, Tk_Value:$rhs);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
}

def Tk_SplitOp : Tk_Op<"split", [Pure]> {
  let summary = "the two halves of a block's last dimension, which is 2: join's inverse";
  let arguments = (ins Tk_Tensor:$src);
  let results = (outs Tk_Value:$lhs, Tk_Value:$rhs);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($lhs) `,` type($rhs)";
}

def Tk_CatOp : Tk_Op<"cat", [Pure]> {
  let summary = "concatenates two blocks of one type along dimension 0, in order";
  let arguments = (ins Tk_Tensor:$lhs, Tk_Tensor:$rhs);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
}

def Tk_FlipOp : Tk_Op<"flip", [Pure]> {
  let summary = "reverses the order of the elements along `axis`";
  let arguments = (ins Tk_Tensor:$src, I32Attr:$axis);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tk_GatherOp : Tk_Op<"gather", [Pure]> {
  let summary = "result[i] = src[i with i[axis] replaced by indices[i]]";
  let description = [{
    `indices` is an integer block of `src`'s rank whose shape matches `src`'s except along
    `axis`; the result has the shape of `indices` and `src`'s element type. An index outside
    `[0, src.shape[axis])` is undefined behaviour.
  }];
  let arguments = (ins Tk_Tensor:$src, Tk_IntLike:$indices, I32Attr:$axis);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` type($src) `,` type($indices) `->` type($result)";
}

// Pointers and memory.

def Tk_AddPtrOp : Tk_Op<"addptr", [Pure]> {
  let summary = "pointer + offset, in elements of the pointee type";
  let description = [{
    Offsets are signed integers of any width, in the pointers' shape.
  }];
  let arguments = (ins Tk_PtrLike:$ptr, Tk_IntLike:$offset);
  let results = (outs Tk_PtrLike:$result);
  let assemblyFormat = [{
    $ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset) `->` type($result)
  }];
  let hasFolder = 1; // + 0
}

def Tk_LoadOp : Tk_Op<"load", [AttrSizedOperandSegments]> {
  let summary = "loads from global memory";
  let description = [{
    Lanes where `mask` is false are not read and yield `other` (zero without it). The result is
    the pointee type in the pointers' shape. `cache` is a PTX cache operator ("ca", "cg", "cs",
    "cv"), `evict` an L1 eviction priority ("evict_first", "evict_last"); `is_volatile` loads are
    never cached or merged, and take neither.
  }];
  let arguments = (ins Arg<Tk_PtrLike, "the addresses", [MemRead]>:$ptr,
                       Optional<Tk_BoolLike>:$mask,
                       Optional<Tk_Value>:$other,
                       OptionalAttr<StrAttr>:$cache, OptionalAttr<StrAttr>:$evict,
                       UnitAttr:$is_volatile);
  let results = (outs Tk_Value:$result);
  let builders = [
    OpBuilder<(ins "Type":$result, "Value":$ptr, "Value":$mask, "Value":$other), [{
      build($_builder, $_state, result, ptr, mask, other, StringAttr(), StringAttr(), UnitAttr());
    }]>
  ];
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Tk_StoreOp : Tk_Op<"store"> {
  let summary = "stores to global memory";
  let description = [{
    Lanes where `mask` is false are not written. `cache` is a PTX cache operator ("wb", "cg",
    "cs", "wt"), `evict` an L1 eviction priority ("evict_first", "evict_last").
  }];
  let arguments = (ins Arg<Tk_PtrLike, "the addresses", [MemWrite]>:$ptr,
                       Tk_Value:$value,
                       Optional<Tk_BoolLike>:$mask,
                       OptionalAttr<StrAttr>:$cache, OptionalAttr<StrAttr>:$evict);
  let builders = [
    OpBuilder<(ins "Value":$ptr, "Value":$value, "Value":$mask), [{
      build($_builder, $_state, ptr, value, mask, StringAttr(), StringAttr());
    }]>
  ];
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)? attr-dict `:` functional-type(operands, results)
  }];
}

// Atomics. Each lane reads, modifies and writes its address in one indivisible step and
// yields the value it read; lanes whose mask is false touch nothing and yield zero. `sem` is
// the memory ordering ("relaxed", "acquire", "release", "acq_rel"), `scope` the threads it
// orders with ("cta", "gpu", "sys"), as in Triton.

def Tk_AtomicRMWOp : Tk_Op<"atomic_rmw"> {
  let summary = "atomic read-modify-write of global memory";
  let description = [{
    `kind` and the pointee type: "add", "and", "or", "xor", "max", "min", "umax", "umin" on
    i32 and i64 (max/min signed, umax/umin unsigned); "fadd" on f16, bf16, f32 and f64 (each
    sum rounded to the pointee type); "fmax" and "fmin" on f32 and f64, on the bit patterns:
    with `val`'s sign bit clear, the signed integer max (min) of the two patterns, else the
    unsigned integer min (max), which orders negative values, -0 < +0 and NaNs by their sign;
    "xchg" on i32, i64, f32 and f64. `val` and the result are the pointee type in the
    pointers' shape.
  }];
  let arguments = (ins Arg<Tk_PtrLike, "the addresses", [MemRead, MemWrite]>:$ptr,
                       Tk_Value:$val,
                       Optional<Tk_BoolLike>:$mask,
                       StrAttr:$kind, StrAttr:$sem, StrAttr:$scope);
  let results = (outs Tk_Value:$result);
  let assemblyFormat = [{
    $ptr `,` $val (`,` $mask^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Tk_AtomicCASOp : Tk_Op<"atomic_cas"> {
  let summary = "atomic compare-and-swap of global memory";
  let description = [{
    Where the bits at the address equal `cmp`'s, writes `val`; yields the value it read. i32,
    i64, f32 and f64 (compared bit for bit).
  }];
  let arguments = (ins Arg<Tk_PtrLike, "the addresses", [MemRead, MemWrite]>:$ptr,
                       Tk_Value:$cmp, Tk_Value:$val, StrAttr:$sem, StrAttr:$scope);
  let results = (outs Tk_Value:$result);
  let assemblyFormat = [{
    $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, results)
  }];
}

// Elementwise calls and inline assembly.

def Tk_ExternElementwiseOp : Tk_Op<"extern_elementwise", [Elementwise]> {
  let summary = "calls a device-library function on each element";
  let description = [{
    `symbol` names a device function taking the operands' element types and returning the
    result's: libdevice's (`__nv_hypotf`) without `library`, else one that the LLVM bitcode or
    IR file `library` defines, which the backend links. Operands are scalars, or blocks of the
    result's shape. Without `pure` the call is kept even when its result is unused.
  }];
  let arguments = (ins Variadic<Tk_Value>:$srcs, StrAttr:$symbol, BoolAttr:$pure,
                       OptionalAttr<StrAttr>:$library);
  let results = (outs Tk_Value:$result);
  let assemblyFormat = "$srcs attr-dict `:` functional-type($srcs, $result)";
}

def Tk_InlineAsmOp : Tk_Op<"inline_asm", [Elementwise]> {
  let summary = "PTX applied to each element (Triton's inline_asm_elementwise)";
  let description = [{
    Runs `asm_string` once per `pack` elements of the operands, as Triton does: with `pack` > 1
    each operand and result register holds `pack` consecutive elements of one thread (so
    `pack` times their width must be at most 32 bits, or one element per register). The
    constraints are LLVM's (`=r,r`): the results' first, then the operands'. Operands are
    blocks of one shape, or all scalars; results have that shape. Without `pure` the asm is
    kept even when its results are unused.
  }];
  let arguments = (ins Variadic<Tk_Value>:$srcs, StrAttr:$asm_string, StrAttr:$constraints,
                       BoolAttr:$pure, I32Attr:$pack);
  let results = (outs Variadic<Tk_Value>:$results);
  let assemblyFormat = "$srcs attr-dict `:` functional-type($srcs, $results)";
}

// Debugging.

def Tk_PrintOp : Tk_Op<"print"> {
  let summary = "prints values from the device (Triton's device_print)";
  let description = [{
    One line per element of each operand, each thread printing the elements it holds:
    `pid (x, y, z) idx (i, j)<prefix><value>`, and `(operand n) ` before the value when there
    are several operands. `is_signed` says per operand whether integers print as signed;
    `hex` prints the bits in hexadecimal. Without operands, one line with the prefix.
  }];
  let arguments = (ins Variadic<Tk_Value>:$srcs, StrAttr:$prefix, BoolAttr:$hex,
                       DenseI32ArrayAttr:$is_signed);
  let assemblyFormat = "$srcs attr-dict (`:` type($srcs)^)?";
}

def Tk_AssertOp : Tk_Op<"assert"> {
  let summary = "stops the kernel where a condition is false (Triton's device_assert)";
  let description = [{
    Where an element of `condition` is false, the program reports `message` with the user's
    `file`, `line` and `function`, and the kernel stops (a trap). `id` numbers the kernel's
    assertions, for the runtime to name the one that failed.
  }];
  let arguments = (ins Tk_BoolLike:$condition, StrAttr:$message, StrAttr:$file, I32Attr:$line,
                       StrAttr:$function, I32Attr:$id);
  let assemblyFormat = "$condition attr-dict `:` type($condition)";
}

def Tk_DebugBarrierOp : Tk_Op<"debug_barrier"> {
  let summary = "waits for every thread of the program instance (Triton's debug_barrier)";
  let arguments = (ins);
  let assemblyFormat = "attr-dict";
}

// Programmatic dependent launch (Triton's tl.extra.cuda.gdc_wait, gdc_launch_dependents).
// Both order the kernel's memory accesses around them, so neither is moved across loads or
// stores.

def Tk_GdcWaitOp : Tk_Op<"gdc_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits for the kernel this launch depends on (griddepcontrol.wait)";
  let description = [{
    Returns once the grid launched before this one on its stream has completed and its memory
    is visible; at once for a launch without programmatic stream serialization. Nothing before
    sm_90, where launches on a stream never overlap.
  }];
  let arguments = (ins);
  let assemblyFormat = "attr-dict";
}

def Tk_GdcLaunchDependentsOp
    : Tk_Op<"gdc_launch_dependents", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "lets the next launch on the stream start (griddepcontrol.launch_dependents)";
  let description = [{
    Once every program of the grid has run it or exited, a dependent grid launched with
    programmatic stream serialization may start. It orders no memory. Nothing before sm_90.
  }];
  let arguments = (ins);
  let assemblyFormat = "attr-dict";
}

// Compiler hints. Each is its operand (Triton's multiple_of, max_contiguous, max_constancy:
// the user vouches for the fact); `values` has one entry per dimension (one for a scalar). On
// pointers, multiple_of counts bytes and max_contiguous counts elements, as the axis analysis
// does.

class Tk_HintOp<string mnemonic, string what>
    : Tk_Op<mnemonic, [Pure, Elementwise, AllTypesMatch<["src", "result"]>]> {
  let summary = what;
  let arguments = (ins Tk_IntOrPtrLike:$src, DenseI32ArrayAttr:$values);
  let results = (outs Tk_IntOrPtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
}

def Tk_MultipleOfOp : Tk_HintOp<"multiple_of",
    "each element along dimension d is a multiple of values[d]">;
def Tk_MaxContiguousOp : Tk_HintOp<"max_contiguous",
    "along dimension d the elements form runs of values[d] consecutive integers">;
def Tk_MaxConstancyOp : Tk_HintOp<"max_constancy",
    "along dimension d the elements form runs of values[d] equal integers">;

def Tk_AssumeOp : Tk_Op<"assume"> {
  let summary = "the condition holds (llvm.assume); the compiler may rely on it";
  let description = [{
    A false condition is undefined behaviour. Besides LLVM, the layout analysis reads
    `x % c == 0` and `x & (c - 1) == 0` (c a power of two) at the function's top level as
    "x is a multiple of c".
  }];
  let arguments = (ins I1:$condition);
  let assemblyFormat = "$condition attr-dict";
}

// Reductions and scans: one combine region on scalars, N left values then N right values.

class Tk_CombineOp<string mnemonic, list<Trait> traits = []>
    : Tk_Op<mnemonic, !listconcat(traits, [RecursiveMemoryEffects])> {
  let regions = (region SizedRegion<1>:$combineOp);
  let hasRegionVerifier = 1;
  let assemblyFormat = [{
    $srcs attr-dict `:` functional-type($srcs, results) $combineOp
  }];
}

def Tk_ReduceOp : Tk_CombineOp<"reduce"> {
  let summary = "reduces blocks along an axis with a combine region";
  let description = [{
    N operands of one shape are reduced together along `axis`; the results are their shapes
    without `axis` (scalars for 1-D operands). The region must be associative and commutative.
  }];
  let arguments = (ins Variadic<Tk_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tk_Value>:$results);
}

def Tk_ScanOp : Tk_CombineOp<"scan"> {
  let summary = "inclusive scans along an axis with a combine region";
  let description = [{
    Like `tk.reduce`, but each result has its operand's shape; from the last element to the first
    when `reverse`.
  }];
  let arguments = (ins Variadic<Tk_Tensor>:$srcs, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<Tk_Tensor>:$results);
}

class Tk_CombineReturnOp<string mnemonic, string parent>
    : Op<Tk_Dialect, mnemonic, [Pure, Terminator, HasParent<parent>]> {
  let summary = "returns the combined scalars from a " # parent # " region";
  let arguments = (ins Variadic<Tk_Elem>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

def Tk_ReduceReturnOp : Tk_CombineReturnOp<"reduce.return", "ReduceOp">;
def Tk_ScanReturnOp : Tk_CombineReturnOp<"scan.return", "ScanOp">;

// Tensor descriptors (Triton's tl.make_tensor_descriptor).

def Tk_MakeTensorDescOp : Tk_Op<"make_tensor_descriptor", [Pure, SameVariadicOperandSize]> {
  let summary = "a descriptor of the tensor at `base` with `shape` and `strides`";
  let description = [{
    The tensor's element (i0, ..., in) is at `base + i0 strides[0] + ... + in strides[n]`
    (elements), for 0 <= id < shape[d]. The last stride is the constant 1 (the verifier checks
    it), the base 16-byte aligned and the other strides multiples of 16 bytes (the interpreter
    checks those; TMA needs them).
  }];
  let arguments = (ins Tk_PtrType:$base, Variadic<I32>:$shape, Variadic<I64>:$strides);
  let results = (outs Tk_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` qualified(type($base)) `,`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tk_DescriptorLoadOp : Tk_Op<"descriptor_load"> {
  let summary = "loads the block at `indices` of a tensor descriptor";
  let description = [{
    The block whose first element is the tensor's element `indices`; elements outside the
    tensor read as zero, or as NaN with `nan_padding` (floats only; Triton's
    `padding_option="nan"`, which the front end takes when making the descriptor).
  }];
  let arguments = (ins Arg<Tk_TensorDescType, "the tensor", [MemRead]>:$desc,
                       Variadic<I32>:$indices, UnitAttr:$nan_padding);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]` attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tk_DescriptorStoreOp : Tk_Op<"descriptor_store"> {
  let summary = "stores a block at `indices` of a tensor descriptor";
  let description = [{
    Writes `src` to the block whose first element is the tensor's element `indices`; elements
    outside the tensor are not written.
  }];
  let arguments = (ins Arg<Tk_TensorDescType, "the tensor", [MemWrite]>:$desc,
                       Variadic<I32>:$indices, Tk_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def Tk_DescriptorReduceOp : Tk_Op<"descriptor_reduce"> {
  let summary = "atomically combines a block into the block at `indices` of a tensor descriptor";
  let description = [{
    Triton's `desc.atomic_add` and the other descriptor reductions: each element of the block
    whose first element is the tensor's element `indices` becomes, in one atomic step, the
    combination of its value and `src`'s element; elements outside the tensor are skipped.
    `kind` is a `tk.atomic_rmw` kind other than "xchg", on the same element types ("add",
    "and", "or", "xor", "max", "min", "umax", "umin" on i32 and i64; "fadd" on f16, bf16, f32
    and f64; "fmax", "fmin" on f32 and f64). The ordering is relaxed, at GPU scope.
  }];
  let arguments = (ins Arg<Tk_TensorDescType, "the tensor", [MemRead, MemWrite]>:$desc,
                       Variadic<I32>:$indices, Tk_Tensor:$src, StrAttr:$kind);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def Tk_DescriptorGatherOp : Tk_Op<"descriptor_gather"> {
  let summary = "loads the rows `rows` of a 2-D tensor descriptor, from column `col`";
  let description = [{
    Triton's `desc.gather`. The descriptor's block is [1, BN]; `rows` holds N row indices. The
    result's element (r, c) is the tensor's element (rows[r], col + c); elements outside the
    tensor read as zero, or as NaN with `nan_padding` (floats only).
  }];
  let arguments = (ins Arg<Tk_TensorDescType, "the tensor", [MemRead]>:$desc,
                       RankedTensorOf<[I32]>:$rows, I32:$col, UnitAttr:$nan_padding);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $rows `,` $col `]` attr-dict `:` qualified(type($desc)) `,` type($rows) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tk_DescriptorScatterOp : Tk_Op<"descriptor_scatter"> {
  let summary = "stores a block to the rows `rows` of a 2-D tensor descriptor, from column `col`";
  let description = [{
    Triton's `desc.scatter`, the converse of `tk.descriptor_gather`: `src`'s element (r, c) is
    written to the tensor's element (rows[r], col + c); elements outside the tensor are not
    written. Where `rows` repeats a row, which write lands is unspecified.
  }];
  let arguments = (ins Arg<Tk_TensorDescType, "the tensor", [MemWrite]>:$desc,
                       RankedTensorOf<[I32]>:$rows, I32:$col, Tk_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $rows `,` $col `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($rows)
    `,` type($src)
  }];
  let hasVerifier = 1;
}

// Block pointers (Triton's tl.make_block_ptr, tl.advance, tl.load / tl.store on them).

def Tk_MakeBlockPtrOp : Tk_Op<"make_block_ptr", [Pure, SameVariadicOperandSize]> {
  let summary = "a pointer to the block at `offsets` of the tensor at `base`";
  let description = [{
    The tensor's element (i0, ..., in) is at `base + i0 strides[0] + ... + in strides[n]`
    (elements), for 0 <= id < shape[d]; the block's first element is the tensor's element
    `offsets`. `order` lists the dimensions from the fastest-varying (a permutation; a hint,
    as in Triton). Strides are any values: there are no alignment rules.
  }];
  let arguments = (ins Tk_PtrType:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
                       Variadic<I32>:$offsets, DenseI32ArrayAttr:$order);
  let results = (outs Tk_BlockPtrType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:`
    qualified(type($base)) `,` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tk_AdvanceOp : Tk_Op<"advance", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "the block pointer moved by `offsets` elements";
  let arguments = (ins Tk_BlockPtrType:$ptr, Variadic<I32>:$offsets);
  let results = (outs Tk_BlockPtrType:$result);
  let assemblyFormat = "$ptr `[` $offsets `]` attr-dict `:` qualified(type($ptr))";
  let hasVerifier = 1;
}

def Tk_BlockLoadOp : Tk_Op<"block_load"> {
  let summary = "loads the block a block pointer points to";
  let description = [{
    Along each dimension in `boundary_check`, elements outside the tensor read as zero, or as
    NaN with `nan_padding` (floats only). Along the other dimensions the block must lie inside
    the tensor: nothing is checked there (the interpreter reports it).
  }];
  let arguments = (ins Arg<Tk_BlockPtrType, "the block", [MemRead]>:$ptr,
                       DenseI32ArrayAttr:$boundary_check, UnitAttr:$nan_padding);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$ptr attr-dict `:` qualified(type($ptr)) `->` type($result)";
  let hasVerifier = 1;
}

def Tk_BlockStoreOp : Tk_Op<"block_store"> {
  let summary = "stores a block where a block pointer points";
  let description = [{
    Along each dimension in `boundary_check`, elements outside the tensor are not written.
    Along the other dimensions the block must lie inside the tensor.
  }];
  let arguments = (ins Arg<Tk_BlockPtrType, "the block", [MemWrite]>:$ptr, Tk_Tensor:$src,
                       DenseI32ArrayAttr:$boundary_check);
  let assemblyFormat = "$ptr `,` $src attr-dict `:` qualified(type($ptr)) `,` type($src)";
  let hasVerifier = 1;
}

// Matrix product.

def Tk_DotOp : Tk_Op<"dot", [Pure]> {
  let summary = "a × b + c on 2-D blocks, or on 3-D blocks batch by batch (tensor cores)";
  let description = [{
    `a` is M×K, `b` K×N, `c` and the result M×N, every dimension at least 16; or `a` is B×M×K,
    `b` B×K×N and `c` B×M×N: B independent products. Input/accumulator types: f16/f32,
    f16/f16, bf16/f32, f32/f32, fp8/f32, fp8/f16, i8/i32. `input_precision` is "tf32" (f32
    inputs rounded to TF32), "tf32x3" (f32 inputs split into two TF32 parts, big + small, and
    multiplied as big*big + big*small + small*big) or "ieee"; "tf32" and "tf32x3" apply to f32
    inputs only. `max_num_imprecise_acc`, for fp8 inputs and an f32 accumulator: where the
    tensor cores add fp8 products with fewer bits than f32 (Hopper's wgmma), at most this many
    products along K are summed that way before the sum is added to the accumulator in f32.
    Absent: no limit.
  }];
  let arguments = (ins Tk_Tensor:$a, Tk_Tensor:$b, Tk_Tensor:$c, StrAttr:$input_precision,
                       OptionalAttr<I32Attr>:$max_num_imprecise_acc);
  let results = (outs Tk_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `+` type($c) `->` type($d)
  }];
}

// Casts.

def Tk_BitcastOp : Tk_Op<"bitcast", [Pure]> {
  let summary = "reinterprets pointers as pointers to another type";
  let description = [{
    Numbers are bit-cast with `arith.bitcast`; the verifier says so.
  }];
  let arguments = (ins Tk_Value:$src);
  let results = (outs Tk_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tk_PtrToIntOp : Tk_Op<"ptr_to_int", [Pure]> {
  let summary = "the address of each pointer, as i64";
  let arguments = (ins Tk_PtrLike:$src);
  let results = (outs Tk_I64Like:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tk_IntToPtrOp : Tk_Op<"int_to_ptr", [Pure]> {
  let summary = "i64 addresses as pointers";
  let arguments = (ins Tk_I64Like:$src);
  let results = (outs Tk_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

#endif // TK_OPS_TD

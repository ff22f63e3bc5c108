// The tk types (`!tk.ptr<T>`) and the type constraints the ops are written with.

#ifndef TK_TYPES_TD
#define TK_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "TkDialect.td"

class Tk_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tk_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tk_PtrType : Tk_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer to global memory";
  let description = [{
    The address of a `pointeeType` element in global memory: `!tk.ptr<f32>`. `const` is not
    represented. Offsets (`tk.addptr`) count elements of the pointee type.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType), [{
      return $_get(pointeeType.getContext(), pointeeType);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let genVerifyDecl = 1;
}

def Tk_TensorDescType : Tk_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "a tensor in global memory, read and written a block at a time";
  let description = [{
    `!tk.tensordesc<tensor<64x32xf16>>`: a descriptor of a tensor in global memory (its base,
    shape and strides, from `tk.make_tensor_descriptor`) that `tk.descriptor_load` and
    `tk.descriptor_store` access in blocks of `blockType`'s shape. Blocks may reach past the
    tensor's edges: those elements read as zero and are not written.
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
  let genVerifyDecl = 1;
}

def Tk_BlockPtrType : Tk_TypeDef<"BlockPtr", "blockptr"> {
  let summary = "a pointer to a block of a tensor in global memory";
  let description = [{
    `!tk.blockptr<tensor<64x32xf16>>`: Triton's block pointer (`tl.make_block_ptr`), a tensor in
    global memory (base, shape, strides) and the offsets of a block of `blockType`'s shape in
    it. `tk.advance` moves the block; `tk.block_load` and `tk.block_store` access it, checking
    the tensor's bounds along the dimensions they list. Unlike a descriptor, a block pointer may
    be carried through loops and branches.
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
  let genVerifyDecl = 1;
}

// Element types of the front end: i1 ... i64 (signless), f8E4M3FN, f8E5M2, f8E4M3FNUZ,
// f8E5M2FNUZ, f16, bf16, f32, f64, pointers.
def Tk_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def Tk_Float : AnyTypeOf<[F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ, F16, BF16, F32, F64],
                         "floating-point">;
def Tk_Elem : AnyTypeOf<[Tk_Int, Tk_Float, Tk_PtrType], "integer, float or pointer">;

// A block: a statically shaped tensor of elements. A scalar is the element type itself.
def Tk_Tensor : StaticShapeTensorOf<[Tk_Elem]>;
def Tk_Value : AnyTypeOf<[Tk_Elem, Tk_Tensor], "scalar or block">;

def Tk_PtrLike : AnyTypeOf<[Tk_PtrType, StaticShapeTensorOf<[Tk_PtrType]>],
                           "pointer or block of pointers">;
def Tk_IntLike : AnyTypeOf<[Tk_Int, StaticShapeTensorOf<[Tk_Int]>],
                           "integer or block of integers">;
def Tk_IntOrPtrLike : AnyTypeOf<[Tk_Int, Tk_PtrType, StaticShapeTensorOf<[Tk_Int, Tk_PtrType]>],
                                "integer, pointer or block of them">;
def Tk_I64Like : AnyTypeOf<[I64, StaticShapeTensorOf<[I64]>], "i64 or block of i64">;
def Tk_BoolLike : AnyTypeOf<[I1, StaticShapeTensorOf<[I1]>], "i1 or block of i1">;

#endif // TK_TYPES_TD

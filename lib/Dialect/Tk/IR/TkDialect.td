// The tk dialect: Triton's block-level ops on ranked tensors, as TileKit's front end prints them
// (docs/ir.md is the contract).

#ifndef TK_DIALECT_TD
#define TK_DIALECT_TD

include "mlir/IR/DialectBase.td"

def Tk_Dialect : Dialect {
  let name = "tk";
  let cppNamespace = "::mlir::tk";
  let summary = "TileKit's block-level ops (Triton's `tt`, on ranked tensors)";
  let description = [{
    A kernel is a `func.func` whose body mixes `tk` ops with `arith`, `math` and `scf` ops on
    scalars and statically shaped tensors. Pointers are `!tk.ptr<T>`; blocks of pointers are
    tensors of them. Tensors carry no encoding here: layouts are chosen by later passes.
  }];

  let useDefaultTypePrinterParser = 1;
  // Folded tk ops become arith.constant (splats).
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  // `tk.divisibility` on kernel arguments (specialization; see TkDialect::verifyRegionArgAttribute).
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the argument attribute giving an argument's known divisibility (16 for pointers
    /// aligned to 16 bytes and integers divisible by 16).
    static constexpr ::llvm::StringLiteral getDivisibilityAttrName() {
      return ::llvm::StringLiteral("tk.divisibility");
    }

    /// The most elements a tensor (a block) may hold: 2^20, the front end's limit
    /// (tk::detail::max_block_elements). Lowering gives each thread its share of a block in
    /// registers, so compile time and code size grow with it.
    static constexpr int64_t getMaxBlockElements() { return int64_t(1) << 20; }

    void registerTypes();
  }];
}

#endif // TK_DIALECT_TD

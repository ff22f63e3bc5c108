// Passes on the loops of tk kernels: the per-loop options of tk::range_options (Triton's
// tl.range). One pass per file beside this one; each has a lit test under
// tests/lit/Dialect/Tk/.

#ifndef TK_PASSES_TD
#define TK_PASSES_TD

include "mlir/Pass/PassBase.td"

def TkFlattenLoops : Pass<"tk-flatten-loops", "::mlir::ModuleOp"> {
  let summary = "a loop nest marked tk.flatten as one loop (Triton's fuse-nested-loops)";
  let description = [{
    An scf.for with the unit attribute `tk.flatten` whose body holds exactly one scf.for
    (after hoisting what does not depend on the outer loop), with bounds and step defined
    outside the outer loop, becomes one loop over every iteration of the inner loop: the code
    before the inner loop (the prologue) runs when an outer iteration starts, the code after it
    (the epilogue) when its last inner iteration ends, each under an scf.if. The flattened loop
    runs where both loops have iterations; elsewhere the original nest runs, without its inner
    loop (which has none). The flattened loop takes the outer loop's `tk.num_stages` and
    `tk.loop_unroll_factor`, else the inner loop's, so that tk-pipeline pipelines the inner
    loop's loads across the outer iterations. Other loops marked tk.flatten are left as they
    are (FlattenLoops.cpp).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TkUnrollLoops : Pass<"tk-unroll-loops", "::mlir::ModuleOp"> {
  let summary = "unrolls each scf.for by its tk.loop_unroll_factor";
  let description = [{
    An scf.for with `tk.loop_unroll_factor = N : i32`, N >= 2, is unrolled by N with MLIR's
    loopUnrollByFactor: the body N times per iteration, then a loop over the iterations N does
    not divide. Inner loops are unrolled before the loops around them. The attribute is
    removed; a factor of 0 or 1 leaves the loop as it is (UnrollLoops.cpp).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

#endif // TK_PASSES_TD

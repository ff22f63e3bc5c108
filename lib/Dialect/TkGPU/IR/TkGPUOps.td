// Ops of the tkgpu dialect.

#ifndef TKGPU_OPS_TD
#define TKGPU_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "TkGPUDialect.td"

def TkGPU_ConvertLayoutOp : Op<TkGPU_Dialect, "convert_layout", [Pure]> {
  let summary = "the same tensor in another layout";
  let description = [{
    Moves a tensor's elements between threads (through shuffles or shared memory once
    lowered): same shape and element type, both operand and result with a layout.
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // TKGPU_OPS_TD

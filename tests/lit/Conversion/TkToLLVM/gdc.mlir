// DebugOpToLLVM.cpp: tk.gdc_wait and tk.gdc_launch_dependents are griddepcontrol.wait and
// griddepcontrol.launch_dependents from sm_90, side-effecting asm with a memory clobber so that
// no access moves across them; before sm_90 they are nothing.
// RUN: tk-opt %s -tk-to-llvm=compute-capability=90 | FileCheck %s --check-prefix=SM90
// RUN: tk-opt %s -tk-to-llvm=compute-capability=80 | FileCheck %s --check-prefix=SM80

module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // SM90-LABEL: llvm.func @dependent
  // SM90: llvm.inline_asm has_side_effects asm_dialect = att "griddepcontrol.wait;", "~{memory}"
  // SM90: llvm.load
  // SM90: llvm.inline_asm has_side_effects asm_dialect = att "griddepcontrol.launch_dependents;", "~{memory}"
  // SM90: llvm.store
  // SM80-LABEL: llvm.func @dependent
  // SM80-NOT: griddepcontrol
  // SM80-NOT: tk.gdc
  // SM80: llvm.return
  func.func @dependent(%p: !tk.ptr<f32>) {
    "tk.gdc_wait"() : () -> ()
    %x = "tk.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tk.ptr<f32>) -> f32
    "tk.gdc_launch_dependents"() : () -> ()
    "tk.store"(%p, %x) : (!tk.ptr<f32>, f32) -> ()
    func.return
  }
}

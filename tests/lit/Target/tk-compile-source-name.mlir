// tk-compile passes the input's name to the C ABI (tk_compile_named): a position in the text
// itself is reported as file:line:col (<stdin> for standard input), not <tk-ir>. Locations the
// IR carries (loc(...)) are the user's and stay as they are.
// REQUIRES: tk-compile
// RUN: not tk-compile --target=sm_90a %s 2>&1 | FileCheck %s -DFILE=%s
// RUN: not tk-compile --target=sm_90a - < %s 2>&1 | FileCheck %s -DFILE='<stdin>'

// CHECK: [[FILE]]:[[@LINE+4]]:23: error: use of undeclared SSA value name
// CHECK-NOT: <tk-ir>
module {
  func.func @named(%arg0: !tk.ptr<f32>) {
    "tk.store"(%arg0, %undefined) : (!tk.ptr<f32>, f32) -> ()
    return
  }
}

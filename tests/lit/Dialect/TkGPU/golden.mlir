// Every golden kernel of the front end (tests/golden) through tk-assign-layouts and
// tk-remove-layout-conversions: both passes succeed and the result verifies.
// RUN: tk-opt -split-input-file %S/../../../golden/arith.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s
// RUN: tk-opt -split-input-file %S/../../../golden/casts.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s
// RUN: tk-opt -split-input-file %S/../../../golden/control.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s
// RUN: tk-opt -split-input-file %S/../../../golden/creation.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s
// RUN: tk-opt -split-input-file %S/../../../golden/dot.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s
// RUN: tk-opt -split-input-file %S/../../../golden/math.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s
// RUN: tk-opt -split-input-file %S/../../../golden/memory.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s
// RUN: tk-opt -split-input-file %S/../../../golden/params.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s
// RUN: tk-opt -split-input-file %S/../../../golden/reductions.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s
// RUN: tk-opt -split-input-file %S/../../../golden/scans.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s
// RUN: tk-opt -split-input-file %S/../../../golden/shapes.mlir -tk-assign-layouts -tk-remove-layout-conversions | FileCheck %s

// CHECK: module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32}

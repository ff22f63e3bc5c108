/// @file TestPasses.h
/// Passes that exist only for lit tests: they print what an analysis or a layout computes,
/// as remarks. Linked into tk-opt alone, never into the backend library.
#ifndef TK_TESTS_LIB_TESTPASSES_H
#define TK_TESTS_LIB_TESTPASSES_H

namespace mlir::tk::test {

/// `tk-test-print-axis-info`: a remark with the AxisInfo state of every integer and pointer
/// value (and the vector width of every tk.load / tk.store); tests/lit/Analysis.
void registerTestPrintAxisInfoPass();

/// `tk-test-layout-mapping`: which elements threads hold, for the layouts on function
/// arguments; tests/lit/Dialect/TkGPU/layout-mapping.mlir.
void registerTestLayoutMappingPass();

/// `tk-test-print-allocation`: the shared-memory buffers, their live intervals and offsets
/// (test.buffer_bytes on an op makes an explicit buffer); tests/lit/Analysis/allocation.mlir.
void registerTestPrintAllocationPass();

inline void registerTestPasses() {
  registerTestPrintAllocationPass();
  registerTestPrintAxisInfoPass();
  registerTestLayoutMappingPass();
}

} // namespace mlir::tk::test

#endif // TK_TESTS_LIB_TESTPASSES_H

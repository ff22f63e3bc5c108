/// @file PatternTkToLLVM.h
/// One populate function per op family of tk-to-llvm (one .cpp each beside this header).
/// What the families share is in TypeConverter.h, Utility.h and ReduceScanCommon.h.
#ifndef TK_CONVERSION_TKTOLLVM_PATTERNTKTOLLVM_H
#define TK_CONVERSION_TKTOLLVM_PATTERNTKTOLLVM_H

#include "Conversion/TkToLLVM/TypeConverter.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::tk {

/// Vector widths chosen for each tk.load / tk.store / tkgpu.async_copy_global_to_local before
/// the conversion starts (AxisInfo's width, capped by the elements a thread holds contiguously).
using VectorWidths = llvm::DenseMap<Operation *, unsigned>;

void populateFuncOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns,
                                  unsigned numWarps);
void populateProgramIdOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateMakeRangeOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateSplatOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateElementwiseOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateLoadStoreOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns, const VectorWidths &widths);
/// tk.atomic_rmw / tk.atomic_cas (PTX `atom`; bf16 add before sm_90 as a CAS loop).
void populateAtomicOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns,
                                    unsigned computeCapability);

void populateReduceOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateScanOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateViewOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateTmaOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateDotOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
/// tkgpu.convert_layout blocked -> dot_operand through swizzled shared memory and ldmatrix,
/// ahead of ViewOpToLLVM.cpp's generic conversion; tkgpu.local_load of a dot operand.
void populateConvertToDotOperandPatterns(TkToLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateWGMMADotOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                      RewritePatternSet &patterns);
void populateMMAv2DotOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                      RewritePatternSet &patterns);
/// Shared-memory buffers and asynchronous copies: tkgpu.local_alloc, memdesc_index,
/// async_copy_global_to_local (cp.async, vectors of `widths`), async_commit_group, async_wait.
void populateSharedMemoryOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                          RewritePatternSet &patterns, const VectorWidths &widths);
void populateMathOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateDebugOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns,
                                   unsigned computeCapability);
void populateInlineAsmOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);
void populatePtrCastOpToLLVMPatterns(TkToLLVMTypeConverter &converter, RewritePatternSet &patterns);
/// scf.for / scf.if / scf.while carrying tensors: their types converted (legality into `target`).
void populateControlFlowOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns, ConversionTarget &target);

} // namespace mlir::tk

#endif // TK_CONVERSION_TKTOLLVM_PATTERNTKTOLLVM_H

/// @file TmaOpToLLVM.cpp
/// tk.descriptor_load and tk.descriptor_store through a tensor map (a kernel argument of
/// tk-tma-descriptors): the Tensor Memory Accelerator copies the block between global memory and
/// the op's scratch tile in shared memory, where it lies row-major and unswizzled, as the map's
/// box (innermost dimension first) lays it out. Elements outside the tensor read as zero and
/// are not written: TMA's own bounds.
///
/// Load (one thread issues, every thread waits):
///   thread 0: mbarrier.init [bar], 1; fence.mbarrier_init            bar.sync
///   thread 0: mbarrier.arrive.expect_tx [bar], bytes
///             cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes
///               [tile], [map, {c_inner, ..., c_outer}], [bar]
///   all:      mbarrier.try_wait.parity [bar], 0 until it completes; each thread reads its elements
///   bar.sync; thread 0: mbarrier.inval [bar] (so the next execution may init it again)
/// Store:
///   bar.sync; each thread writes its elements; fence.proxy.async.shared::cta; bar.sync
///   thread 0: cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group [map, {...}], [tile];
///             cp.async.bulk.commit_group; cp.async.bulk.wait_group 0
///   bar.sync
/// The map operand is the generic address of the `__grid_constant__` parameter.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/TypeConverter.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Analysis/Allocation.h"
#include "Analysis/Utility.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tk;

namespace {

/// Whether `desc` is a tensor map (an argument of the kernel) rather than a descriptor made in
/// the kernel (which tk-rewrite-tensor-descriptors has turned into pointer blocks).
bool isTensorMap(Value desc) { return isa<BlockArgument>(desc); }

/// The coordinates of `indices` (outermost first) as TMA takes them, innermost first:
/// "{$3, $2}" for operands numbered from `first`.
std::string coordinates(unsigned first, unsigned rank) {
  SmallVector<std::string> names;
  for (unsigned d = 0; d < rank; ++d)
    names.push_back("$" + std::to_string(first + rank - 1 - d));
  return "{" + llvm::join(names, ", ") + "}";
}

/// `v` as an inline-asm operand: a shared-memory address as its 32-bit offset ("r"), a generic
/// pointer as it is ("l"), an i32 as it is ("r").
std::pair<Value, const char *> asmOperand(OpBuilder &b, Location loc, Value v) {
  auto pointer = dyn_cast<LLVM::LLVMPointerType>(v.getType());
  if (pointer && pointer.getAddressSpace() == 3)
    return {LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), v), "r"};
  return {v, pointer ? "l" : "r"};
}

/// `text` run by thread 0 only (its `leader` predicate; $0 is the thread index), its operands
/// `operands` numbered from $1. With `pred` (an i1), only where it is true as well.
void emitByThreadZero(OpBuilder &b, Location loc, StringRef text, ValueRange operands,
                      Value pred = {}) {
  std::string constraints = "r";
  SmallVector<Value> all{NVVM::ThreadIdXOp::create(b, loc, b.getI32Type())};
  for (Value v : operands) {
    auto [operand, constraint] = asmOperand(b, loc, v);
    all.push_back(operand);
    constraints += std::string(",") + constraint;
  }
  std::string guard = "setp.eq.u32 leader, $0, 0;\n";
  if (pred) {
    all.push_back(LLVM::ZExtOp::create(b, loc, b.getI32Type(), pred));
    constraints += ",r";
    guard = "{\n.reg .pred given;\nsetp.ne.u32 given, $" + std::to_string(all.size() - 1) +
            ", 0;\nsetp.eq.and.u32 leader, $0, 0, given;\n}\n";
  }
  const std::string guarded = "{\n.reg .pred leader;\n" + guard + text.str() + "\n}";
  emitAsm(b, loc, guarded, constraints, all, Type(), 0, /*sideEffects=*/true);
}

/// Every thread waits until the phase of parity `phase` (0 or 1, an i32 value) of the mbarrier
/// at `barrier` has completed.
void emitWaitParity(OpBuilder &b, Location loc, Value barrier, Value phase) {
  emitAsm(b, loc,
          "{\n.reg .pred done;\nwait_${:uid}:\n"
          "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
          "@!done bra wait_${:uid};\n}",
          "r,r", {asmOperand(b, loc, barrier).first, phase}, Type(), 0, /*sideEffects=*/true);
}

/// The tile and its mbarrier in the op's scratch area (Allocation.cpp: the tile rounded up to
/// 16 bytes, then the barrier).
struct Scratch {
  unsigned offset, tileBytes;
  Value tile(OpBuilder &b, Location loc) const {
    return getSharedAddress(b, loc, offset, b.getI8Type(), i32Constant(b, loc, 0));
  }
  Value barrier(OpBuilder &b, Location loc) const {
    return getSharedAddress(b, loc, offset, b.getI8Type(),
                            i32Constant(b, loc, int64_t(llvm::alignTo(tileBytes, 16))));
  }
};

Scratch scratchOf(Operation *op, RankedTensorType block) {
  return {getScratchOffset(op), unsigned(getTmaTileBytes(block))};
}

struct DescriptorLoadOpConversion : OpConversionPattern<DescriptorLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DescriptorLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isTensorMap(op.getDesc()))
      return rewriter.notifyMatchFailure(op, "a descriptor made in the kernel (pointer path)");
    RankedTensorType type = op.getType();
    Type structType = getTypeConverter()->convertType(type);
    Type element = getTypeConverter()->convertType(type.getElementType());
    if (!structType || !element)
      return rewriter.notifyMatchFailure(op, "result has no distributed layout");
    Location loc = op.getLoc();
    const unsigned rank = unsigned(type.getRank());
    const Scratch scratch = scratchOf(op, type);
    Value tile = scratch.tile(rewriter, loc), bar = scratch.barrier(rewriter, loc);

    emitByThreadZero(rewriter, loc,
                     "@leader mbarrier.init.shared::cta.b64 [$1], 1;\n"
                     "@leader fence.mbarrier_init.release.cluster;",
                     {bar});
    emitBarrier(rewriter, loc);
    SmallVector<Value> operands{bar, tile, adaptor.getDesc()};
    llvm::append_range(operands, adaptor.getIndices());
    emitByThreadZero(rewriter, loc,
                     "@leader mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " +
                         std::to_string(scratch.tileBytes) + ";\n@leader cp.async.bulk.tensor." +
                         std::to_string(rank) +
                         "d.shared::cluster.global.mbarrier::complete_tx::bytes [$2], [$3, " +
                         coordinates(4, rank) + "], [$1];",
                     operands);
    emitWaitParity(rewriter, loc, bar, i32Constant(rewriter, loc, 0));

    // Each thread's elements, from the row-major tile.
    SmallVector<SmallVector<Value>> indices = emitIndices(rewriter, loc, type);
    SmallVector<int64_t> strides = getRowMajorStrides(type.getShape());
    SmallVector<Value> results;
    for (const SmallVector<Value> &index : indices) {
      Value linear = i32Constant(rewriter, loc, 0);
      for (auto [i, stride] : llvm::zip_equal(index, strides))
        linear = LLVM::AddOp::create(
            rewriter, loc, linear,
            LLVM::MulOp::create(rewriter, loc, i, i32Constant(rewriter, loc, stride)));
      Value address = getSharedAddress(rewriter, loc, scratch.offset, element, linear);
      results.push_back(LLVM::LoadOp::create(rewriter, loc, element, address));
    }
    emitBarrier(rewriter, loc);
    emitByThreadZero(rewriter, loc, "@leader mbarrier.inval.shared::cta.b64 [$1];", {bar});
    rewriter.replaceOp(op, packElements(rewriter, loc, structType, results));
    return success();
  }
};

struct DescriptorStoreOpConversion : OpConversionPattern<DescriptorStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DescriptorStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isTensorMap(op.getDesc()))
      return rewriter.notifyMatchFailure(op, "a descriptor made in the kernel (pointer path)");
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    if (!isa<LLVM::LLVMStructType>(adaptor.getSrc().getType()))
      return rewriter.notifyMatchFailure(op, "value has no distributed layout");
    Location loc = op.getLoc();
    const unsigned rank = unsigned(type.getRank());
    const Scratch scratch = scratchOf(op, type);
    Value tile = scratch.tile(rewriter, loc);

    emitBarrier(rewriter, loc); // earlier users of the scratch are done
    storeTensorToShared(rewriter, loc, scratch.offset, type,
                        unpackElements(rewriter, loc, adaptor.getSrc()), /*offset=*/0);
    emitAsyncProxyFence(rewriter, loc);
    emitBarrier(rewriter, loc);
    SmallVector<Value> operands{tile, adaptor.getDesc()};
    llvm::append_range(operands, adaptor.getIndices());
    emitByThreadZero(rewriter, loc,
                     "@leader cp.async.bulk.tensor." + std::to_string(rank) +
                         "d.global.shared::cta.bulk_group [$2, " + coordinates(3, rank) +
                         "], [$1];\n@leader cp.async.bulk.commit_group;\n"
                         "@leader cp.async.bulk.wait_group 0;",
                     operands);
    emitBarrier(rewriter, loc); // the tile may be written again
    rewriter.eraseOp(op);
    return success();
  }
};

struct InitBarrierOpConversion : OpConversionPattern<tkgpu::InitBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::InitBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    emitByThreadZero(rewriter, op.getLoc(),
                     "@leader mbarrier.init.shared::cta.b64 [$1], " +
                         std::to_string(op.getCount()) +
                         ";\n@leader fence.mbarrier_init.release.cluster;",
                     {adaptor.getBarrier()});
    rewriter.eraseOp(op);
    return success();
  }
};

struct InvalBarrierOpConversion : OpConversionPattern<tkgpu::InvalBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::InvalBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    emitByThreadZero(rewriter, op.getLoc(), "@leader mbarrier.inval.shared::cta.b64 [$1];",
                     {adaptor.getBarrier()});
    rewriter.eraseOp(op);
    return success();
  }
};

struct WaitBarrierOpConversion : OpConversionPattern<tkgpu::WaitBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::WaitBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    emitWaitParity(rewriter, op.getLoc(), adaptor.getBarrier(), adaptor.getPhase());
    rewriter.eraseOp(op);
    return success();
  }
};

/// One thread arms the barrier with the tile's bytes and issues a copy per box
/// (getTmaTileBoxes): box p lands `p * rows * width` elements into the tile, from `p * width`
/// elements further along the block's rows.
struct AsyncTMACopyGlobalToLocalOpConversion
    : OpConversionPattern<tkgpu::AsyncTMACopyGlobalToLocalOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::AsyncTMACopyGlobalToLocalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType block = op.getDesc().getType().getBlockType();
    const tkgpu::TmaTileBoxes boxes =
        *tkgpu::getTmaTileBoxes(op.getDst().getType(), block.getShape());
    const int64_t elementBytes = block.getElementTypeBitWidth() / 8;
    const int64_t boxBytes = boxes.rows * boxes.width * elementBytes;
    Value inner = adaptor.getIndices()[1], outer = adaptor.getIndices()[0];
    SmallVector<Value> operands{adaptor.getBarrier(), adaptor.getDesc(), outer};
    std::string text = "@leader mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " +
                       std::to_string(boxBytes * boxes.panels) + ";";
    for (int64_t p = 0; p < boxes.panels; ++p) {
      Value dst =
          LLVM::GEPOp::create(rewriter, loc, adaptor.getDst().getType(), rewriter.getI8Type(),
                              adaptor.getDst(), LLVM::GEPArg(int32_t(p * boxBytes)));
      Value x = p == 0 ? inner
                       : LLVM::AddOp::create(rewriter, loc, inner,
                                             i32Constant(rewriter, loc, p * boxes.width));
      const unsigned first = unsigned(operands.size()) + 1; // $ of dst, then x
      operands.append({dst, x});
      text += "\n@leader cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx"
              "::bytes [$" +
              std::to_string(first) + "], [$2, {$" + std::to_string(first + 1) + ", $3}], [$1];";
    }
    emitByThreadZero(rewriter, loc, text, operands, adaptor.getPred());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tk::populateTmaOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<DescriptorLoadOpConversion, DescriptorStoreOpConversion, InitBarrierOpConversion,
               InvalBarrierOpConversion, WaitBarrierOpConversion,
               AsyncTMACopyGlobalToLocalOpConversion>(converter, patterns.getContext());
}

/// @file SharedMemoryOpToLLVM.cpp
/// Shared-memory buffers and the asynchronous copies that fill them (software
/// pipelining's ops) -> LLVM + NVVM.
///
/// A `!tkgpu.memdesc` becomes the `!llvm.ptr<3>` of its first element: tkgpu.local_alloc is the
/// shared array at the op's `tkgpu.shared_offset`, after a barrier (the allocation may give it
/// the bytes of an earlier op's scratch, whose readers must be done before copies land there),
/// tkgpu.memdesc_index steps over whole tiles.
/// tkgpu.async_copy_global_to_local issues one `cp.async` per vector of the thread's pointers
/// (the width tk-to-llvm chose from AxisInfo, as for loads: 4, 8 or 16 bytes; `.cg` for 16,
/// which bypasses L1), to the vector's place in the swizzled tile; a mask becomes the source
/// size (0: the bytes are zero-filled, global memory is not read). A vector narrower than 4 bytes
/// cannot be copied asynchronously: its elements are loaded and stored to shared memory
/// directly, which async_wait's barrier makes visible all the same. async_commit_group and
/// async_wait are `cp.async.commit_group` and `cp.async.wait_group N` followed by `bar.sync`;
/// tkgpu.barrier is `bar.sync` alone.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/TypeConverter.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

Type sharedPointer(MLIRContext *context) { return LLVM::LLVMPointerType::get(context, 3); }

struct LocalAllocOpConversion : OpConversionPattern<tkgpu::LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::LocalAllocOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value tile = getSharedAddress(rewriter, loc, getScratchOffset(op), rewriter.getI8Type(),
                                  i32Constant(rewriter, loc, 0));
    if (op.getSrc())
      storeTile(rewriter, loc, op, adaptor.getSrc(), tile);
    else // its bytes may have been an earlier op's scratch: that op's readers finish first
      emitBarrier(rewriter, loc);
    rewriter.replaceOp(op, tile);
    return success();
  }

  /// The tensor's elements into the tile, between barriers (readers of the previous contents
  /// are done; every element is written before anyone reads), made visible to wgmma too. A
  /// thread's run of elements along the contiguous dimension goes as one vector, up to a
  /// swizzle chunk.
  void storeTile(ConversionPatternRewriter &rewriter, Location loc, tkgpu::LocalAllocOp op,
                 Value src, Value tile) const {
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    tkgpu::MemDescType tileType = op.getType();
    tkgpu::SharedEncodingAttr shared = tileType.getEncoding();
    const unsigned inner = shared.getOrder()[0], outer = shared.getOrder()[1];
    Type element = getTypeConverter()->convertType(type.getElementType());
    unsigned width = 1;
    if (auto blocked = dyn_cast<tkgpu::BlockedEncodingAttr>(type.getEncoding());
        blocked && blocked.getOrder()[0] == inner)
      width = std::min(blocked.getSizePerThread()[inner], shared.getVec());
    width = std::min<unsigned>(width, unsigned(type.getDimSize(inner)));
    SmallVector<Value> elements = unpackElements(rewriter, loc, src);
    SmallVector<SmallVector<Value>> indices = emitIndices(rewriter, loc, type, width);
    emitBarrier(rewriter, loc);
    for (unsigned e = 0; e < elements.size(); e += width) {
      Value offset = emitSharedOffset(rewriter, loc, shared, tileType.getShape(), indices[e][outer],
                                      indices[e][inner]);
      Value dst = LLVM::GEPOp::create(rewriter, loc, sharedPointer(getContext()), element, tile,
                                      ValueRange{offset});
      Value value = elements[e];
      if (width > 1) {
        auto vectorType = VectorType::get({int64_t(width)}, element);
        value = LLVM::UndefOp::create(rewriter, loc, vectorType);
        for (unsigned i = 0; i < width; ++i)
          value = LLVM::InsertElementOp::create(rewriter, loc, value, elements[e + i],
                                                i32Constant(rewriter, loc, i));
      }
      const unsigned bytes = width * std::max(1u, element.getIntOrFloatBitWidth() / 8);
      LLVM::StoreOp::create(rewriter, loc, value, dst, bytes);
    }
    emitAsyncProxyFence(rewriter, loc);
    emitBarrier(rewriter, loc);
  }
};

struct MemDescIndexOpConversion : OpConversionPattern<tkgpu::MemDescIndexOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::MemDescIndexOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tkgpu::MemDescType tile = op.getType();
    Type element = getTypeConverter()->convertType(tile.getElementType());
    Value first = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                      i32Constant(rewriter, loc, tile.getAllocElements()));
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, sharedPointer(getContext()), element,
                                             adaptor.getSrc(), ValueRange{first});
    return success();
  }
};

struct AsyncCopyOpConversion : OpConversionPattern<tkgpu::AsyncCopyGlobalToLocalOp> {
  AsyncCopyOpConversion(TypeConverter &converter, MLIRContext *context, const VectorWidths &widths)
      : OpConversionPattern(converter, context), widths(widths) {}

  LogicalResult matchAndRewrite(tkgpu::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType ptrType = op.getPtr().getType();
    tkgpu::MemDescType tile = op.getDst().getType();
    tkgpu::SharedEncodingAttr shared = tile.getEncoding();
    Type element = getTypeConverter()->convertType(tile.getElementType());
    if (!element)
      return rewriter.notifyMatchFailure(op, "element type");
    const unsigned bytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
    const unsigned inner = shared.getOrder()[0], outer = shared.getOrder()[1];
    auto blocked = cast<tkgpu::BlockedEncodingAttr>(ptrType.getEncoding());
    // The vector: AxisInfo's width along the tile's contiguous dimension, within one chunk.
    unsigned width = blocked.getOrder()[0] == inner ? std::max(1u, widths.lookup(op)) : 1;
    width = std::min(width, shared.getVec());
    const unsigned vectorBytes = width * bytes;
    const bool async = vectorBytes == 4 || vectorBytes == 8 || vectorBytes == 16;
    if (!async)
      width = 1;

    SmallVector<Value> ptrs = unpackElements(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackElements(rewriter, loc, adaptor.getMask());
    SmallVector<SmallVector<Value>> indices = emitIndices(rewriter, loc, ptrType, width);
    for (unsigned e = 0; e < ptrs.size(); e += width) {
      Value offset = emitSharedOffset(rewriter, loc, shared, tile.getShape(), indices[e][outer],
                                      indices[e][inner]);
      Value dst = LLVM::GEPOp::create(rewriter, loc, sharedPointer(getContext()), element,
                                      adaptor.getDst(), ValueRange{offset});
      Value mask = masks.empty() ? Value() : masks[e];
      if (async) {
        Value srcSize;
        if (mask)
          srcSize =
              LLVM::SelectOp::create(rewriter, loc, mask, i32Constant(rewriter, loc, vectorBytes),
                                     i32Constant(rewriter, loc, 0));
        auto modifier =
            vectorBytes == 16 ? NVVM::LoadCacheModifierKind::CG : NVVM::LoadCacheModifierKind::CA;
        NVVM::CpAsyncOp::create(
            rewriter, loc, dst, ptrs[e], rewriter.getI32IntegerAttr(vectorBytes),
            NVVM::LoadCacheModifierKindAttr::get(getContext(), modifier), srcSize);
        continue;
      }
      // Narrower than 4 bytes: a plain load (zero where masked off) and store.
      Value value;
      if (!mask) {
        value = LLVM::LoadOp::create(rewriter, loc, element, ptrs[e], bytes);
      } else {
        auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{element}, mask,
                                      /*withElseRegion=*/true);
        OpBuilder thenBuilder = ifOp.getThenBodyBuilder(rewriter.getListener());
        scf::YieldOp::create(
            thenBuilder, loc,
            ValueRange{
                LLVM::LoadOp::create(thenBuilder, loc, element, ptrs[e], bytes).getResult()});
        OpBuilder elseBuilder = ifOp.getElseBodyBuilder(rewriter.getListener());
        scf::YieldOp::create(
            elseBuilder, loc,
            ValueRange{LLVM::ZeroOp::create(elseBuilder, loc, element).getResult()});
        value = ifOp.getResult(0);
      }
      LLVM::StoreOp::create(rewriter, loc, value, dst, bytes);
    }
    rewriter.eraseOp(op);
    return success();
  }

  const VectorWidths &widths;
};

struct AsyncCommitGroupOpConversion : OpConversionPattern<tkgpu::AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::AsyncCommitGroupOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitOpConversion : OpConversionPattern<tkgpu::AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::AsyncWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, op.getNum());
    if (op.getAsyncProxy())
      emitAsyncProxyFence(rewriter, loc);
    emitBarrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierOpConversion : OpConversionPattern<tkgpu::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    emitBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tk::populateSharedMemoryOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                                    RewritePatternSet &patterns,
                                                    const VectorWidths &widths) {
  MLIRContext *context = patterns.getContext();
  patterns.add<LocalAllocOpConversion, MemDescIndexOpConversion, AsyncCommitGroupOpConversion,
               AsyncWaitOpConversion, BarrierOpConversion>(converter, context);
  patterns.add<AsyncCopyOpConversion>(converter, context, widths);
}

/// @file RewriteBlockPointers.cpp
/// tk-rewrite-block-pointers: block pointers as pointer blocks (Triton's
/// RewriteTensorPointer). A `!tk.blockptr` value becomes its parts, 1 + 3 rank values:
///
///   base (!tk.ptr<T>), shape (rank x i32), strides (rank x i64), offsets (rank x i32)
///
/// tk.make_block_ptr is its operands, tk.advance adds to the offsets, and tk.block_load /
/// tk.block_store become a tk.load / tk.store through the pointer block
/// base + sum_d (offsets[d] + arange(0, B_d)) strides[d], masked to the tensor along the
/// dimensions of `boundary_check` (TensorBlocks.h). It is a dialect conversion with a 1:N type
/// conversion, so block pointers carried through scf.for, scf.if and scf.while become several
/// carried values (those that never change are folded away by canonicalization).
///
/// Any other use of a block pointer (a function argument, an arith.select of two) is an error
/// naming the op: the front end makes none.
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/Transforms/Passes.h"
#include "Dialect/TkGPU/Transforms/TensorBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKREWRITEBLOCKPOINTERS
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;

namespace {

/// The parts of a converted block pointer (see the file comment).
struct BlockPtrParts {
  ValueRange parts;
  int64_t rank;

  Value base() const { return parts[0]; }
  ValueRange shape() const { return parts.slice(1, rank); }
  ValueRange strides() const { return parts.slice(1 + rank, rank); }
  ValueRange offsets() const { return parts.slice(1 + 2 * rank, rank); }
};

class BlockPtrTypeConverter : public TypeConverter {
public:
  explicit BlockPtrTypeConverter(MLIRContext *context) {
    addConversion([](Type type) { return type; });
    addConversion([context](tk::BlockPtrType type, SmallVectorImpl<Type> &parts) {
      tkgpu::appendTensorPartTypes(type.getBlockType(), parts); // then the offsets
      parts.append(size_t(type.getBlockType().getRank()), IntegerType::get(context, 32));
      return success();
    });
  }
};

struct AdvancePattern : OpConversionPattern<tk::AdvanceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tk::AdvanceOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    const int64_t rank = op.getType().getBlockType().getRank();
    SmallVector<Value> parts(adaptor.getPtr());
    for (int64_t d = 0; d < rank; ++d) {
      Value &offset = parts[size_t(1 + 2 * rank + d)];
      offset = arith::AddIOp::create(rewriter, op.getLoc(), offset,
                                     adaptor.getOffsets()[size_t(d)].front());
    }
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

/// The pointers and mask of the block `ptr` (converted to `parts`) points to.
std::pair<Value, Value> emitPointers(OpBuilder &b, Location loc, tk::BlockPtrType ptr,
                                     ValueRange parts, ArrayRef<int32_t> boundaryCheck) {
  RankedTensorType block = ptr.getBlockType();
  BlockPtrParts p{parts, block.getRank()};
  tkgpu::TensorBlock tensor{block, p.base(), p.shape(), p.strides(), p.offsets()};
  SmallVector<bool> checked(size_t(block.getRank()), false);
  for (int32_t d : boundaryCheck)
    checked[size_t(d)] = true;
  return tkgpu::emitTensorBlockPointers(b, loc, tensor, checked);
}

struct BlockLoadPattern : OpConversionPattern<tk::BlockLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tk::BlockLoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [ptrs, mask] =
        emitPointers(rewriter, loc, op.getPtr().getType(), adaptor.getPtr(), op.getBoundaryCheck());
    rewriter.replaceOp(
        op, tkgpu::emitBlockLoad(rewriter, loc, op.getType(), ptrs, mask, op.getNanPadding()));
    return success();
  }
};

struct BlockStorePattern : OpConversionPattern<tk::BlockStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tk::BlockStoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto [ptrs, mask] = emitPointers(rewriter, op.getLoc(), op.getPtr().getType(), adaptor.getPtr(),
                                     op.getBoundaryCheck());
    tk::StoreOp::create(rewriter, op.getLoc(), ptrs, adaptor.getSrc().front(), mask);
    rewriter.eraseOp(op);
    return success();
  }
};

bool isBlockPtr(Type type) { return isa<tk::BlockPtrType>(type); }

/// Whether `op` may hold block pointers: the ops that make and use them, and the structured
/// control flow that carries them.
bool handlesBlockPtrs(Operation *op) {
  return isa<tk::MakeBlockPtrOp, tk::AdvanceOp, tk::BlockLoadOp, tk::BlockStoreOp, scf::ForOp,
             scf::IfOp, scf::WhileOp, scf::YieldOp, scf::ConditionOp>(op);
}

/// Errors at each op or block that holds a block pointer the conversion cannot take apart.
LogicalResult checkUses(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    const bool holds = llvm::any_of(op->getOperandTypes(), isBlockPtr) ||
                       llvm::any_of(op->getResultTypes(), isBlockPtr);
    if (holds && !handlesBlockPtrs(op)) {
      op->emitError() << "a block pointer can only be made (tk::make_block_ptr), advanced, "
                         "loaded, stored and carried through loops and branches; '"
                      << op->getName() << "' takes or makes one";
      return WalkResult::interrupt();
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!isa<scf::ForOp, scf::WhileOp>(op) &&
            llvm::any_of(block.getArgumentTypes(), isBlockPtr)) {
          op->emitError() << "a block pointer must be made in the kernel (tk::make_block_ptr), "
                             "not passed in as an argument";
          return WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct TkRewriteBlockPointersPass
    : tkgpu::impl::TkRewriteBlockPointersBase<TkRewriteBlockPointersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (failed(checkUses(module)))
      return signalPassFailure();
    BlockPtrTypeConverter converter(context);
    ConversionTarget target(*context);
    target.addIllegalOp<tk::MakeBlockPtrOp, tk::AdvanceOp, tk::BlockLoadOp, tk::BlockStoreOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(context);
    patterns.add<tkgpu::MakeFromPartsPattern<tk::MakeBlockPtrOp>, AdvancePattern, BlockLoadPattern,
                 BlockStorePattern>(converter, context);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

/// @file RewriteTensorDescriptors.cpp
/// tk-rewrite-tensor-descriptors: tensor descriptors as pointer blocks (Triton's
/// RewriteTensorDescriptorToPointer). A `!tk.tensordesc` value becomes its parts, 1 + 2 rank
/// values:
///
///   base (!tk.ptr<T>), shape (rank x i32), strides (rank x i64)
///
/// tk.make_tensor_descriptor is its operands, and each tk.descriptor_load becomes a tk.load, each
/// tk.descriptor_store a tk.store and each tk.descriptor_reduce a tk.atomic_rmw of its kind
/// (relaxed, GPU scope, its result unused), through the block of pointers
///
///   base + sum_d (indices[d] + arange(0, B_d)) strides[d]     (each term broadcast to the block)
///
/// masked to the tensor: 0 <= indices[d] + i_d < shape[d] in every dimension, masked-off elements
/// reading as zero (a load's `other`: NaN for a load with `nan_padding`) and not written. The last
/// dimension's stride is taken as 1, as the descriptor's contract says (tk.make_tensor_descriptor;
/// the interpreter checks it): the last dimension is then contiguous for AxisInfo, and the accesses
/// are vectors. Offsets are i64 (strides are), so tensors of more than 2^31 elements are addressed
/// correctly. A tk.descriptor_gather (tk.descriptor_scatter) is a tk.load (tk.store) through
/// base + rows[r] strides[0] + (col + c) over its [N, BN] block, masked to the tensor alike.
///
/// It is a dialect conversion with a 1:N type conversion (as tk-rewrite-block-pointers), so
/// descriptors carried through scf.for, scf.if and scf.while become several carried values
/// (those that never change are folded away by canonicalization). A tensor-map argument of
/// tk-tma-descriptors (`tkgpu.tensor_map`) stays, and so do the accesses through it, for the TMA
/// lowering; any other descriptor argument, and any other op that takes or makes a descriptor,
/// is an error: the front end makes none.
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/TensorMap.h"
#include "Dialect/TkGPU/Transforms/Passes.h"
#include "Dialect/TkGPU/Transforms/TensorBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

#include <type_traits>

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKREWRITETENSORDESCRIPTORS
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using mlir::tkgpu::TensorMapRecipe;

namespace {

class TensorDescTypeConverter : public TypeConverter {
public:
  TensorDescTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](tk::TensorDescType type, SmallVectorImpl<Type> &parts) {
      tkgpu::appendTensorPartTypes(type.getBlockType(), parts);
      return success();
    });
  }
};

/// Whether `desc` is a kernel argument tk-tma-descriptors made, a tensor map.
bool isTensorMapArgument(Value desc) {
  auto arg = dyn_cast<BlockArgument>(desc);
  // (A block the conversion is moving has no parent yet.)
  auto func = arg ? dyn_cast_or_null<func::FuncOp>(arg.getOwner()->getParentOp()) : nullptr;
  return func && func.getArgAttr(arg.getArgNumber(), TensorMapRecipe::attrName);
}

/// The pointers of the block at `indices` of the descriptor `type` (converted to `parts`), and
/// the mask of its elements inside the tensor.
std::pair<Value, Value> emitBlockPointers(OpBuilder &b, Location loc, tk::TensorDescType type,
                                          ValueRange parts, ArrayRef<ValueRange> indices) {
  RankedTensorType block = type.getBlockType();
  const int64_t rank = block.getRank();
  SmallVector<Value> starts;
  for (ValueRange index : indices)
    starts.push_back(index.front());
  tkgpu::TensorBlock tensor{block,
                            parts[0],
                            parts.slice(1, size_t(rank)),
                            parts.slice(1 + size_t(rank), size_t(rank)),
                            starts,
                            /*unitLastStride=*/true};
  SmallVector<bool> everyDimension(size_t(rank), true);
  return tkgpu::emitTensorBlockPointers(b, loc, tensor, everyDimension);
}

struct DescriptorLoadPattern : OpConversionPattern<tk::DescriptorLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tk::DescriptorLoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [ptrs, mask] = emitBlockPointers(rewriter, loc, op.getDesc().getType(), adaptor.getDesc(),
                                          adaptor.getIndices());
    rewriter.replaceOp(
        op, tkgpu::emitBlockLoad(rewriter, loc, op.getType(), ptrs, mask, op.getNanPadding()));
    return success();
  }
};

/// A store, or a reduction: a tk.atomic_rmw of its kind, relaxed, at GPU scope.
template <class Op> struct DescriptorWritePattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult matchAndRewrite(Op op, typename OpConversionPattern<Op>::OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [ptrs, mask] = emitBlockPointers(rewriter, loc, op.getDesc().getType(), adaptor.getDesc(),
                                          adaptor.getIndices());
    Value src = adaptor.getSrc().front();
    if constexpr (std::is_same_v<Op, tk::DescriptorStoreOp>)
      tk::StoreOp::create(rewriter, loc, ptrs, src, mask);
    else
      tk::AtomicRMWOp::create(rewriter, loc, src.getType(), ptrs, src, mask, op.getKind(),
                              "relaxed", "gpu");
    rewriter.eraseOp(op);
    return success();
  }
};

/// The pointers of the rows `rows` of the 2-D descriptor `type` (converted to `parts`), from
/// column `col`, a block of `block`'s shape ([N, BN]), and the mask of its elements inside the
/// tensor.
std::pair<Value, Value> emitRowPointers(OpBuilder &b, Location loc, RankedTensorType block,
                                        ValueRange parts, Value rows, Value col) {
  // The row starts are unused: the rows replace them.
  const Value starts[] = {col, col};
  const Value indexBlocks[] = {rows, Value()};
  tkgpu::TensorBlock tensor{
      block,      parts[0], parts.slice(1, 2), parts.slice(3, 2), starts, /*unitLastStride=*/true,
      indexBlocks};
  SmallVector<bool> everyDimension(2, true);
  return tkgpu::emitTensorBlockPointers(b, loc, tensor, everyDimension);
}

struct DescriptorGatherPattern : OpConversionPattern<tk::DescriptorGatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tk::DescriptorGatherOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [ptrs, mask] = emitRowPointers(rewriter, loc, op.getType(), adaptor.getDesc(),
                                        adaptor.getRows().front(), adaptor.getCol().front());
    rewriter.replaceOp(
        op, tkgpu::emitBlockLoad(rewriter, loc, op.getType(), ptrs, mask, op.getNanPadding()));
    return success();
  }
};

struct DescriptorScatterPattern : OpConversionPattern<tk::DescriptorScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tk::DescriptorScatterOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value src = adaptor.getSrc().front();
    auto [ptrs, mask] =
        emitRowPointers(rewriter, loc, cast<RankedTensorType>(src.getType()), adaptor.getDesc(),
                        adaptor.getRows().front(), adaptor.getCol().front());
    tk::StoreOp::create(rewriter, loc, ptrs, src, mask);
    rewriter.eraseOp(op);
    return success();
  }
};

bool isTensorDesc(Type type) { return isa<tk::TensorDescType>(type); }

/// Whether `op` may hold descriptors: the ops that make and use them, and the structured control
/// flow that carries them.
bool handlesTensorDescs(Operation *op) {
  return isa<tk::MakeTensorDescOp, tk::DescriptorLoadOp, tk::DescriptorStoreOp,
             tk::DescriptorReduceOp, tk::DescriptorGatherOp, tk::DescriptorScatterOp, scf::ForOp,
             scf::IfOp, scf::WhileOp, scf::YieldOp, scf::ConditionOp, func::FuncOp>(op);
}

/// Errors at each op or block that holds a descriptor the conversion cannot take apart.
LogicalResult checkUses(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    const bool holds = llvm::any_of(op->getOperandTypes(), isTensorDesc) ||
                       llvm::any_of(op->getResultTypes(), isTensorDesc);
    if (holds && !handlesTensorDescs(op)) {
      op->emitError() << "a tensor descriptor can only be made (tk::make_tensor_descriptor), "
                         "loaded from, stored to, combined into and carried through loops and "
                         "branches; '"
                      << op->getName() << "' takes or makes one";
      return WalkResult::interrupt();
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isTensorDesc(arg.getType()) && !isa<scf::ForOp, scf::WhileOp>(op) &&
              !isTensorMapArgument(arg)) {
            Operation *at = arg.use_empty() ? op : *arg.getUsers().begin();
            at->emitError() << "the tensor descriptor must be made (tk::make_tensor_descriptor) "
                               "in the kernel itself, not passed in as an argument";
            return WalkResult::interrupt();
          }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct TkRewriteTensorDescriptorsPass
    : tkgpu::impl::TkRewriteTensorDescriptorsBase<TkRewriteTensorDescriptorsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (failed(checkUses(module)))
      return signalPassFailure();
    TensorDescTypeConverter converter;
    ConversionTarget target(*context);
    // Gathers and scatters never go through a tensor map (tk-tma-descriptors leaves their
    // descriptors alone): TMA's gather4 is Blackwell's.
    target.addIllegalOp<tk::MakeTensorDescOp, tk::DescriptorGatherOp, tk::DescriptorScatterOp>();
    // Accesses through a tensor map stay for the TMA lowering.
    target
        .addDynamicallyLegalOp<tk::DescriptorLoadOp, tk::DescriptorStoreOp, tk::DescriptorReduceOp>(
            [](Operation *op) { return isTensorMapArgument(op->getOperand(0)); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(context);
    patterns.add<tkgpu::MakeFromPartsPattern<tk::MakeTensorDescOp>, DescriptorLoadPattern,
                 DescriptorWritePattern<tk::DescriptorStoreOp>,
                 DescriptorWritePattern<tk::DescriptorReduceOp>, DescriptorGatherPattern,
                 DescriptorScatterPattern>(converter, context);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

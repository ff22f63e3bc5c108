/// @file RewriteTensorDescriptors.cpp
/// tk-rewrite-tensor-descriptors: tensor-descriptor accesses as pointer blocks (Triton's
/// RewriteTensorDescriptorToPointer). Each tk.descriptor_load becomes a tk.load, each
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
/// correctly.
///
/// The descriptor must come from a tk.make_tensor_descriptor in the same function: through a
/// block argument (a loop or branch carrying it, a function argument) it is an error, except a
/// tensor-map argument of tk-tma-descriptors (`tkgpu.tensor_map`), whose accesses stay for the
/// TMA lowering.
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/TensorMap.h"
#include "Dialect/TkGPU/Transforms/Passes.h"
#include "Dialect/TkGPU/Transforms/TensorBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKREWRITETENSORDESCRIPTORS
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using mlir::tkgpu::TensorMapRecipe;

namespace {

/// The pointers of the block at `indices` of `desc`'s tensor, and the mask of its elements
/// inside the tensor.
std::pair<Value, Value> emitBlockPointers(OpBuilder &b, Location loc, tk::MakeTensorDescOp desc,
                                          ValueRange indices) {
  RankedTensorType block = desc.getType().getBlockType();
  tkgpu::TensorBlock tensor{block,
                            desc.getBase(),
                            desc.getShape(),
                            desc.getStrides(),
                            indices,
                            /*unitLastStride=*/true};
  SmallVector<bool> everyDimension(size_t(block.getRank()), true);
  return tkgpu::emitTensorBlockPointers(b, loc, tensor, everyDimension);
}

/// Whether `desc` is a kernel argument tk-tma-descriptors made, a tensor map.
bool isTensorMapArgument(Value desc) {
  auto arg = dyn_cast<BlockArgument>(desc);
  auto func = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()) : nullptr;
  return func && func.getArgAttr(arg.getArgNumber(), TensorMapRecipe::attrName);
}

struct TkRewriteTensorDescriptorsPass
    : tkgpu::impl::TkRewriteTensorDescriptorsBase<TkRewriteTensorDescriptorsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> accesses;
    getOperation().walk([&](Operation *op) {
      if (isa<tk::DescriptorLoadOp, tk::DescriptorStoreOp, tk::DescriptorReduceOp>(op))
        accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      Value descValue = op->getOperand(0);
      if (isTensorMapArgument(descValue))
        continue;
      auto desc = descValue.getDefiningOp<tk::MakeTensorDescOp>();
      if (!desc) {
        op->emitError() << "the tensor descriptor must be made (tk::make_tensor_descriptor) in "
                           "the kernel itself, not carried into it by a loop, a branch or an "
                           "argument";
        return signalPassFailure();
      }
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto load = dyn_cast<tk::DescriptorLoadOp>(op)) {
        auto [ptrs, mask] = emitBlockPointers(b, loc, desc, load.getIndices());
        Value other;
        if (load.getNanPadding()) {
          auto type = cast<RankedTensorType>(load.getType());
          auto element = cast<FloatType>(type.getElementType());
          other = arith::ConstantOp::create(
              b, loc, DenseElementsAttr::get(type, APFloat::getNaN(element.getFloatSemantics())));
        }
        Value result = tk::LoadOp::create(b, loc, load.getType(), ptrs, mask, other);
        load.replaceAllUsesWith(result);
      } else if (auto reduce = dyn_cast<tk::DescriptorReduceOp>(op)) {
        auto [ptrs, mask] = emitBlockPointers(b, loc, desc, reduce.getIndices());
        tk::AtomicRMWOp::create(b, loc, reduce.getSrc().getType(), ptrs, reduce.getSrc(), mask,
                                reduce.getKind(), "relaxed", "gpu");
      } else {
        auto store = cast<tk::DescriptorStoreOp>(op);
        auto [ptrs, mask] = emitBlockPointers(b, loc, desc, store.getIndices());
        tk::StoreOp::create(b, loc, ptrs, store.getSrc(), mask);
      }
      op->erase();
    }
    // Descriptors nobody reads any more.
    getOperation().walk([](tk::MakeTensorDescOp desc) {
      if (desc->use_empty())
        desc->erase();
    });
  }
};

} // namespace

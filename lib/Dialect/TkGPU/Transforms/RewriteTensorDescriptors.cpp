/// @file tk-rewrite-tensor-descriptors: tensor-descriptor accesses as pointer blocks (Triton's
/// RewriteTensorDescriptorToPointer). Each tk.descriptor_load becomes a tk.load and each
/// tk.descriptor_store a tk.store, through the block of pointers
///
///   base + sum_d (indices[d] + arange(0, B_d)) strides[d]     (each term broadcast to the block)
///
/// masked to the tensor: 0 <= indices[d] + i_d < shape[d] in every dimension, masked-off elements
/// reading as zero. The last dimension's stride is taken as 1, as the descriptor's contract says
/// (tk.make_tensor_descriptor; the interpreter checks it): the last dimension is then contiguous
/// for AxisInfo, and the accesses are vectors. Offsets are i64 (strides are), so tensors of more
/// than 2^31 elements are addressed correctly.
///
/// The descriptor must come from a tk.make_tensor_descriptor in the same function: through a
/// block argument (a loop or branch carrying it, a function argument) it is an error.
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKREWRITETENSORDESCRIPTORS
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;

namespace {

/// The pointers of the block at `indices` of `desc`'s tensor, and the mask of its elements
/// inside the tensor.
std::pair<Value, Value> emitBlockPointers(OpBuilder &b, Location loc, tk::MakeTensorDescOp desc,
                                          ValueRange indices) {
  RankedTensorType block = desc.getType().getBlockType();
  ArrayRef<int64_t> shape = block.getShape();
  const int64_t rank = block.getRank();
  Type i1 = b.getI1Type(), i32 = b.getI32Type(), i64 = b.getI64Type();
  auto tensorOf = [&](ArrayRef<int64_t> dims, Type element) {
    return RankedTensorType::get(dims, element);
  };
  Value offsets, mask;
  for (int64_t d = 0; d < rank; ++d) {
    // indices[d] + arange(0, B_d), as a [1, ..., B_d, ..., 1] block.
    auto range = tk::MakeRangeOp::create(b, loc, tensorOf(shape[d], i32), 0, int32_t(shape[d]));
    Value start = tk::SplatOp::create(b, loc, tensorOf(shape[d], i32), indices[d]);
    Value index = arith::AddIOp::create(b, loc, start, range);
    SmallVector<int64_t> dims(rank, 1);
    dims[d] = shape[d];
    for (int64_t axis = 0; axis < rank; ++axis) {
      if (axis == d)
        continue;
      // Axes in increasing order: the new unit dimension goes at `axis` of the result.
      SmallVector<int64_t> expanded(cast<RankedTensorType>(index.getType()).getShape());
      expanded.insert(expanded.begin() + axis, 1);
      index = tk::ExpandDimsOp::create(b, loc, tensorOf(expanded, i32), index, int32_t(axis));
    }
    // In the tensor: 0 <= index < shape[d].
    auto bounds = [&](Value scalar) {
      return tk::SplatOp::create(b, loc, tensorOf(dims, i32), scalar).getResult();
    };
    Value zero = bounds(arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)));
    Value limit = bounds(desc.getShape()[d]);
    Value atLeastZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
    Value belowLimit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, limit);
    Value inside = arith::AndIOp::create(b, loc, atLeastZero, belowLimit);
    Value term = arith::ExtSIOp::create(b, loc, tensorOf(dims, i64), index);
    if (d + 1 < rank)
      term = arith::MulIOp::create(
          b, loc, term, tk::SplatOp::create(b, loc, tensorOf(dims, i64), desc.getStrides()[d]));
    term = tk::BroadcastOp::create(b, loc, tensorOf(shape, i64), term);
    inside = tk::BroadcastOp::create(b, loc, tensorOf(shape, i1), inside);
    offsets = offsets ? arith::AddIOp::create(b, loc, offsets, term).getResult() : term;
    mask = mask ? arith::AndIOp::create(b, loc, mask, inside).getResult() : inside;
  }
  Type ptrType = desc.getBase().getType();
  Value base = tk::SplatOp::create(b, loc, tensorOf(shape, ptrType), desc.getBase());
  Value ptrs = tk::AddPtrOp::create(b, loc, tensorOf(shape, ptrType), base, offsets);
  return {ptrs, mask};
}

struct TkRewriteTensorDescriptorsPass
    : tkgpu::impl::TkRewriteTensorDescriptorsBase<TkRewriteTensorDescriptorsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> accesses;
    getOperation().walk([&](Operation *op) {
      if (isa<tk::DescriptorLoadOp, tk::DescriptorStoreOp>(op))
        accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      Value descValue = op->getOperand(0);
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
        Value result = tk::LoadOp::create(b, loc, load.getType(), ptrs, mask, Value());
        load.replaceAllUsesWith(result);
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

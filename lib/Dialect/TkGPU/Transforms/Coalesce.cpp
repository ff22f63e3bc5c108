/// @file Coalesce.cpp
/// tk-coalesce: gives each tk.load / tk.store whose addresses AxisInfo proves contiguous
/// and aligned a blocked layout in which a thread holds that many consecutive elements (up to 16
/// bytes) along the most contiguous dimension, whichever it is, so that the lowering emits one
/// vector access per thread (Triton's Coalesce). The
/// operands are converted to that layout and a load's result back; tk-remove-layout-conversions
/// then moves the conversions away (rebuilding ranges and splats in the new layout).
#include "Analysis/AxisInfo.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKCOALESCE
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// The layout a load/store should have: threads spread from the pointer's most contiguous
/// dimension (AxisInfo's order), `width` consecutive elements each along it; null when that
/// changes nothing or gives no thread more than one element there.
BlockedEncodingAttr coalescedLayout(RankedTensorType type, unsigned width, unsigned numWarps,
                                    ArrayRef<unsigned> contiguousOrder) {
  auto blocked = dyn_cast<BlockedEncodingAttr>(type.getEncoding());
  if (!blocked || width <= 1 || contiguousOrder.size() != size_t(type.getRank()))
    return {};
  auto layout = getCoalescedBlockedEncoding(type.getContext(), type.getShape(), numWarps,
                                            contiguousOrder, width);
  if (layout == blocked || layout.getSizePerThread()[contiguousOrder[0]] <= 1)
    return {};
  return layout;
}

/// `value` in `layout`: the same value, a copy of its cheap elementwise computation in that
/// layout (made before `before`), or a tkgpu.convert_layout.
Value inLayout(OpBuilder &builder, Value value, BlockedEncodingAttr layout,
               DenseMap<Value, Value> &copies) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getEncoding() == layout)
    return value;
  if (Value copy = copies.lookup(value))
    return copy;
  auto newType = RankedTensorType::get(type.getShape(), type.getElementType(), layout);
  Operation *def = value.getDefiningOp();
  Value result;
  auto constant = dyn_cast_or_null<arith::ConstantOp>(def);
  if (constant && isa<SplatElementsAttr>(constant.getValue())) {
    auto splat = cast<SplatElementsAttr>(constant.getValue());
    result = arith::ConstantOp::create(
        builder, def->getLoc(), newType,
        DenseElementsAttr::get(newType, splat.getSplatValue<Attribute>()));
  } else if (def && def->getNumResults() == 1 && def->getNumRegions() == 0 &&
             (isa<tk::MakeRangeOp, tk::SplatOp, tk::AddPtrOp>(def) ||
              (isa<arith::ArithDialect>(def->getDialect()) && !constant))) {
    IRMapping operands; // first, so that they are made before the copy
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        operands.map(operand, inLayout(builder, operand, layout, copies));
    Operation *copy = builder.clone(*def, operands);
    copy->getResult(0).setType(newType);
    result = copy->getResult(0);
  } else {
    result = ConvertLayoutOp::create(builder, value.getLoc(), newType, value);
  }
  copies[value] = result;
  return result;
}

struct TkCoalescePass : tkgpu::impl::TkCoalesceBase<TkCoalescePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const unsigned warps = TkGPUDialect::getModuleNumWarps(module);
    if (warps == 0)
      return; // no layouts yet
    tk::AxisInfoResult axisInfo(module);
    if (!axisInfo.succeeded())
      return;
    // Each access gets its own layout; where two disagree (an aligned load stored through an
    // unaligned pointer) the conversion between them stays, through shared memory.
    SmallVector<std::pair<Operation *, BlockedEncodingAttr>> rewrites;
    module.walk([&](Operation *op) {
      if (!isa<tk::LoadOp, tk::StoreOp>(op))
        return;
      Value ptr = op->getOperand(0);
      auto type = dyn_cast<RankedTensorType>(ptr.getType());
      if (!type)
        return;
      if (auto layout =
              coalescedLayout(type, axisInfo.getVectorWidth(op), warps, axisInfo.getOrder(ptr)))
        rewrites.emplace_back(op, layout);
    });
    for (auto [op, layout] : rewrites) {
      OpBuilder builder(op);
      DenseMap<Value, Value> copies;
      for (OpOperand &operand : op->getOpOperands())
        operand.set(inLayout(builder, operand.get(), layout, copies));
      builder.setInsertionPointAfter(op);
      for (OpResult result : op->getResults()) {
        Type old = result.getType();
        auto tensor = cast<RankedTensorType>(old);
        result.setType(RankedTensorType::get(tensor.getShape(), tensor.getElementType(), layout));
        auto back = ConvertLayoutOp::create(builder, op->getLoc(), old, result);
        result.replaceAllUsesExcept(back, back);
      }
    }
  }
};

} // namespace

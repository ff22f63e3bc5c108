/// @file AssignLayouts.cpp
/// tk-assign-layouts: gives every tensor a tkgpu layout (Triton's
/// ConvertTritonToTritonGPU). A DialectConversion: the type converter gives a tensor without a
/// layout the default blocked layout of its shape; one pattern for every op computes its
/// results' layouts from its operands' (rules in Passes.td), inserting tkgpu.convert_layout
/// where an operand must change; MLIR's scf structural conversions carry the type converter's
/// layouts through loops and branches.
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKASSIGNLAYOUTS
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

bool hasLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return !tensor || tensor.getEncoding();
}

/// Every tensor the op uses, defines or binds in its regions has a layout.
bool hasLayouts(Operation *op) {
  auto blockArgsHaveLayouts = [](Region &region) {
    return llvm::all_of(region.getArgumentTypes(), hasLayout);
  };
  return llvm::all_of(op->getOperandTypes(), hasLayout) &&
         llvm::all_of(op->getResultTypes(), hasLayout) &&
         llvm::all_of(op->getRegions(), blockArgsHaveLayouts);
}

/// Made from scalars alone: as cheap to make in any layout.
bool isCheap(Value value) {
  return isa_and_nonnull<tk::SplatOp, tk::MakeRangeOp, arith::ConstantOp>(value.getDefiningOp());
}

Attribute layoutOf(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor ? tensor.getEncoding() : Attribute();
}

RankedTensorType withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(), layout);
}

Value convertTo(OpBuilder &builder, Location loc, Value value, Attribute layout) {
  if (layoutOf(value) == layout)
    return value;
  return ConvertLayoutOp::create(builder, loc, withLayout(value.getType(), layout), value);
}

/// The result layout of `op`, a tk.reshape of a blocked tensor, that keeps every element in its
/// thread (getReshapedLayout); null for other ops and reshapes.
BlockedEncodingAttr inRegisterReshape(Operation *op, ArrayRef<Value> operands) {
  auto reshape = dyn_cast<tk::ReshapeOp>(op);
  auto source = reshape ? dyn_cast<RankedTensorType>(operands.front().getType()) : nullptr;
  auto layout = source ? dyn_cast_or_null<BlockedEncodingAttr>(source.getEncoding()) : nullptr;
  return layout ? getReshapedLayout(layout, source.getShape(), reshape.getType().getShape())
                : nullptr;
}

/// Tensors without a layout get the default blocked layout of their shape; conversions between
/// layouts are tkgpu.convert_layout.
struct LayoutTypeConverter : TypeConverter {
  LayoutTypeConverter(MLIRContext *context, unsigned numWarps) {
    addConversion([](Type type) { return type; });
    addConversion([=](RankedTensorType type) -> Type {
      if (type.getEncoding())
        return type;
      return withLayout(type, getDefaultBlockedEncoding(context, type.getShape(), numWarps));
    });
    auto convert = [](OpBuilder &builder, Type type, ValueRange inputs, Location loc) -> Value {
      if (inputs.size() != 1 || !hasLayout(type) || !isa<RankedTensorType>(type) ||
          !isa<RankedTensorType>(inputs.front().getType()) || !layoutOf(inputs.front()))
        return {};
      return ConvertLayoutOp::create(builder, loc, type, inputs.front());
    };
    addTargetMaterialization(convert);
    addSourceMaterialization(convert);
  }
};

/// Rebuilds any tk/arith/math op with layouts on its tensors. Without a type converter of its
/// own, it sees operands in the layouts their producers were given (not the default), so
/// layouts flow from producers to users.
struct AssignLayoutPattern : ConversionPattern {
  AssignLayoutPattern(MLIRContext *context, unsigned numWarps)
      : ConversionPattern(MatchAnyOpTypeTag(), /*benefit=*/1, context), numWarps(numWarps) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (isa<scf::SCFDialect, func::FuncDialect, TkGPUDialect>(op->getDialect()) ||
        (op->getNumRegions() && !isa<tk::ReduceOp, tk::ScanOp>(op)))
      return rewriter.notifyMatchFailure(op, "not converted by this pattern");
    MLIRContext *context = op->getContext();
    Location loc = op->getLoc();
    SmallVector<Value> newOperands(operands);
    auto defaultFor = [&](Type type) -> Attribute {
      return getDefaultBlockedEncoding(context, cast<RankedTensorType>(type).getShape(), numWarps);
    };
    auto convertAll = [&](MutableArrayRef<Value> values, Attribute layout) {
      for (Value &value : values)
        if (isa<RankedTensorType>(value.getType()))
          value = convertTo(rewriter, loc, value, layout);
    };

    Attribute resultLayout;
    if (auto reduce = dyn_cast<tk::ReduceOp>(op)) {
      auto layout = dyn_cast<BlockedEncodingAttr>(layoutOf(newOperands.front()));
      if (!layout)
        layout = cast<BlockedEncodingAttr>(defaultFor(newOperands.front().getType()));
      convertAll(newOperands, layout);
      if (layout.getRank() > 1) // else the results are scalars
        resultLayout = SliceEncodingAttr::get(context, unsigned(reduce.getAxis()), layout);
    } else if (isa<tk::ScanOp>(op)) {
      // Scans lower on blocked layouts only: an operand in another (a reduction's slice, say)
      // is converted to the default.
      auto layout = dyn_cast_or_null<BlockedEncodingAttr>(layoutOf(newOperands.front()));
      if (!layout)
        layout = cast<BlockedEncodingAttr>(defaultFor(newOperands.front().getType()));
      resultLayout = layout;
      convertAll(newOperands, resultLayout);
    } else if (auto expand = dyn_cast<tk::ExpandDimsOp>(op)) {
      const unsigned axis = unsigned(expand.getAxis());
      auto slice = dyn_cast_or_null<SliceEncodingAttr>(layoutOf(newOperands.front()));
      if (slice && slice.getDim() == axis) {
        resultLayout = slice.getParent();
      } else {
        auto parent = cast<BlockedEncodingAttr>(defaultFor(expand.getType()));
        resultLayout = parent;
        if (layoutOf(newOperands.front()))
          newOperands.front() = convertTo(rewriter, loc, newOperands.front(),
                                          SliceEncodingAttr::get(context, axis, parent));
      }
    } else if (auto broadcast = dyn_cast<tk::BroadcastOp>(op)) {
      // The default layout of the broadcast shape, not of the thin operand's (a 4x1 operand's
      // default puts every lane on dim 0); a blocked operand is converted to it while small.
      resultLayout = layoutOf(newOperands.front());
      if (isa<BlockedEncodingAttr>(resultLayout)) {
        resultLayout = defaultFor(broadcast.getType());
        newOperands.front() = convertTo(rewriter, loc, newOperands.front(), resultLayout);
      }
    } else if (auto trans = dyn_cast<tk::TransOp>(op);
               trans && isa<BlockedEncodingAttr>(layoutOf(newOperands.front()))) {
      // The operand's layout with its dimensions permuted: a transpose that moves no data.
      resultLayout = getTransposedLayout(cast<BlockedEncodingAttr>(layoutOf(newOperands.front())),
                                         trans.getOrder());
    } else if (BlockedEncodingAttr reshaped = inRegisterReshape(op, newOperands)) {
      // An interleave's or de-interleave's reshape, in the layout that keeps every element in
      // its thread (others take the default layout of their shape, below).
      resultLayout = reshaped;
    } else if (isa<tk::JoinOp, tk::CatOp>(op) && isa<RankedTensorType>(operands[0].getType())) {
      // Both operands in the first's blocked layout. tk.join puts each pair in one thread;
      // tk.cat's result takes the same layout, which wraps around its longer dimension 0.
      auto layout = dyn_cast<BlockedEncodingAttr>(layoutOf(newOperands[0]));
      if (!layout)
        layout = cast<BlockedEncodingAttr>(defaultFor(newOperands[0].getType()));
      convertAll(newOperands, layout);
      resultLayout = isa<tk::JoinOp>(op) ? Attribute(getPairedLayout(layout)) : Attribute(layout);
    } else if (auto split = dyn_cast<tk::SplitOp>(op)) {
      // The halves in the operand's layout less its pair dimension; an operand in another
      // layout is converted to one with its pairs in one thread.
      auto srcType = split.getSrc().getType();
      BlockedEncodingAttr pairs;
      if (srcType.getRank() == 1) { // scalar halves: every thread holds both elements
        pairs = BlockedEncodingAttr::get(context, {2}, {32}, {numWarps}, {0});
      } else {
        BlockedEncodingAttr half;
        if (auto layout = dyn_cast<BlockedEncodingAttr>(layoutOf(newOperands[0])))
          half = getUnpairedLayout(layout);
        if (!half)
          half = cast<BlockedEncodingAttr>(defaultFor(split.getType(0)));
        resultLayout = half;
        pairs = getPairedLayout(half);
      }
      newOperands[0] = convertTo(rewriter, loc, newOperands[0], pairs);
    } else if (isa<tk::DotOp>(op)) {
      // Blocked operands for now; accelerate-matmul will give them tensor-core layouts.
      for (Value &value : newOperands)
        value = convertTo(rewriter, loc, value, defaultFor(value.getType()));
      resultLayout = layoutOf(newOperands.back());
    } else {
      // Elementwise ops keep their first tensor operand's layout; ops that change the shape
      // (splat, make_range, constants, reshape) start from the default.
      Type result = op->getNumResults() ? op->getResultTypes().front() : Type();
      auto shape = [](Type type) { return cast<RankedTensorType>(type).getShape(); };
      // Splats, ranges and constants are as cheap in any layout: follow another operand.
      for (bool cheapToo : {false, true}) {
        for (Value value : newOperands)
          if (isa<RankedTensorType>(value.getType()) && (cheapToo || !isCheap(value)) &&
              (!result || !isa<RankedTensorType>(result) ||
               shape(value.getType()) == shape(result)))
            if ((resultLayout = layoutOf(value)))
              break;
        if (resultLayout)
          break;
      }
      if (!resultLayout && result && isa<RankedTensorType>(result))
        resultLayout = defaultFor(result);
      for (Value &value : newOperands)
        if (isa<RankedTensorType>(value.getType()) && result && isa<RankedTensorType>(result) &&
            shape(value.getType()) == shape(result))
          value = convertTo(rewriter, loc, value, resultLayout);
      if (!result)
        convertAll(newOperands, resultLayout); // tk.store: pointers, value and mask
    }

    Operation *newOp = rewriter.clone(*op);
    rewriter.modifyOpInPlace(newOp, [&] {
      newOp->setOperands(newOperands);
      for (OpResult result : newOp->getResults())
        if (isa<RankedTensorType>(result.getType()))
          result.setType(withLayout(result.getType(), resultLayout));
      if (auto constant = dyn_cast<arith::ConstantOp>(newOp))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          constant.setValueAttr(dense.reshape(cast<ShapedType>(constant.getType())));
    });
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }

  unsigned numWarps;
};

/// Layouts exist for tensors whose every dimension is a power of two (blocks are; the tk ops'
/// verifiers see only their own types, not a function's arguments or an arith op's): an error
/// at the first value that is not, rather than an invalid layout.
LogicalResult checkShapes(ModuleOp module) {
  auto bad = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && llvm::any_of(tensor.getShape(), [](int64_t d) {
             return d <= 0 || !llvm::isPowerOf2_64(uint64_t(d));
           });
  };
  auto report = [](Operation *op, Type type) {
    return op->emitError() << "a tensor of type " << type
                           << " has a dimension that is not a power of two; TileKit blocks "
                              "have power-of-two shapes";
  };
  WalkResult result = module.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (bad(arg.getType())) {
            (void)report(op, arg.getType());
            return WalkResult::interrupt();
          }
    for (Type type : op->getResultTypes())
      if (bad(type)) {
        (void)report(op, type);
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct AssignLayouts : tkgpu::impl::TkAssignLayoutsBase<AssignLayouts> {
  using TkAssignLayoutsBase::TkAssignLayoutsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (!llvm::isPowerOf2_32(unsigned(numWarps)) || numWarps > TkGPUDialect::getMaxNumWarps()) {
      module.emitError() << "num-warps must be a power of two from 1 to "
                         << TkGPUDialect::getMaxNumWarps() << ", got " << unsigned(numWarps);
      return signalPassFailure();
    }
    TkGPUDialect::setModuleNumWarps(module, numWarps);
    if (failed(checkShapes(module)))
      return signalPassFailure();

    LayoutTypeConverter converter(context, numWarps);
    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal(hasLayouts);
    target.addLegalOp<ModuleOp>();
    // Kernels take scalars and pointers; tensor arguments and results (tests, helpers) get the
    // default layout of their shape.
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             converter.isLegal(&func.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp>(
        [&](func::ReturnOp ret) { return converter.isLegal(ret.getOperandTypes()); });
    RewritePatternSet patterns(context);
    patterns.add<AssignLayoutPattern>(context, numWarps);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
      module.emitError() << "tk-assign-layouts could not give every tensor a layout";
      return signalPassFailure();
    }
  }
};

} // namespace

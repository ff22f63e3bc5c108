/// @file TmaDescriptors.cpp
/// tk-tma-descriptors: tensor descriptors whose tensor the launch knows become kernel
/// parameters, tensor maps the runtime encodes (`cuTensorMapEncodeTiled`) and passes by value,
/// for the Hopper Tensor Memory Accelerator (TMA) to copy blocks through.
///
/// A `tk.make_tensor_descriptor` qualifies when everything it is made of is known at launch and
/// fits TMA's rules:
///   - its base is a kernel argument, 16-byte aligned (`tk.divisibility` >= 16);
///   - each size is a kernel argument or a constant (at least 1);
///   - the last stride is the constant 1, each other stride a constant or a kernel argument
///     whose bytes are a multiple of 16 (for an argument, its `tk.divisibility` times the
///     element's bytes: a row stride divisible by 8 suffices for f16);
///   - the block has 1 to 5 dimensions of at most 256 elements, its rows (the last dimension) a
///     multiple of 16 bytes, and elements of 1, 2, 4 or 8 bytes;
///   - only `tk.descriptor_load` and `tk.descriptor_store` use it (a `tk.descriptor_reduce`
///     keeps the pointer path), and no load pads with NaN (`nan_padding`): a tensor map could
///     (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA), but the launch encodes every map with
///     zero fill, so such descriptors keep the pointer path, whose masked loads read NaN there;
///   - where it stores, the tensor's rows (the last size) are a multiple of 16 bytes (a constant,
///     or an argument whose divisibility says so): a TMA store writes whole 16-byte pieces of a
///     row, so past the end of a shorter row it would write up to 15 bytes outside the tensor (seen
///     on an H200: a row of 45 f32 got its elements 45 to 47 written). Loads are exact.
/// The accesses. TMA faults (an illegal instruction) on a box whose innermost coordinate is not
/// a multiple of 16 bytes, and on a store whose box starts before the tensor (both seen on an
/// H100; loads before the tensor read zeros). An access whose innermost index AxisInfo proves a
/// multiple of 16 bytes, and, for a store, whose indices are provably not negative (constants,
/// program ids, loop counters from 0, their sums and products), goes through the map. Any other
/// goes through the map only where a check at run time passes, and through the descriptor made
/// in the kernel (the pointer path) otherwise:
///
///   %ok = <inner index % (16 / element bytes) == 0> [and <every index >= 0>]
///   %x = scf.if %ok -> tensor<...> { descriptor_load %map[...] } else { descriptor_load %desc[...]
///   }
///
/// A guarded load is not pipelined (tk-pipeline takes only loads directly in a loop's body).
/// The op is replaced by a new argument of the kernel, of the descriptor's type, appended after
/// the others in the order of the descriptors, with the recipe of its tensor map:
///
///   tkgpu.tensor_map = {base = 0 : i32,
///                       shape_args = array<i32: 2, 3>, shape = array<i64: 0, 0>,
///                       stride_args = array<i32: 4, -1>, strides = array<i64: 0, 1>}
///
/// `base` is the pointer argument's index; per dimension (outermost first, as in the IR), a
/// size or stride is the argument `*_args[d]`, or the constant `shape[d]` / `strides[d]` where
/// the argument index is -1. Block shape and element type are the argument's type's. tk-to-llvm
/// passes such an argument as a 128-byte `__grid_constant__` parameter and lowers the loads and
/// stores through it to `cp.async.bulk.tensor`.
///
/// Why encoded on the host: the launch has the values at hand, a parameter costs no global
/// memory, and the kernel neither builds descriptors (`tensormap.replace` per program) nor
/// fences them before use. Descriptors of values the kernel computes keep the pointer path
/// (tk-rewrite-tensor-descriptors), as on GPUs without TMA.
#include "Analysis/AxisInfo.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/TensorMap.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKTMADESCRIPTORS
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using mlir::tkgpu::TensorMapRecipe;

namespace {

/// Where a size or stride comes from: kernel argument `arg`, or the constant `value` (arg -1).
struct Source {
  int32_t arg = -1;
  int64_t value = 0;
};

/// The source of `v` in `func`: an argument of its entry block (through a sign extension) or an
/// integer constant; none otherwise. Integer arguments must be i32, the width the launch reads
/// them with (tk_tensor_map); a pointer argument is the base.
std::optional<Source> sourceOf(func::FuncOp func, Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtSIOp>())
    v = ext.getIn();
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (arg.getOwner() == &func.getBody().front() &&
        (arg.getType().isSignlessInteger(32) || isa<tk::PointerType>(arg.getType())))
      return Source{int32_t(arg.getArgNumber()), 0};
  if (auto constant = v.getDefiningOp<arith::ConstantOp>())
    if (auto value = dyn_cast<IntegerAttr>(constant.getValue()))
      return Source{-1, value.getInt()};
  return std::nullopt;
}

/// The `tk.divisibility` of argument `arg` of `func` (1 when it has none).
int64_t divisibilityOf(func::FuncOp func, int32_t arg) {
  auto attr = func.getArgAttrOfType<IntegerAttr>(unsigned(arg), "tk.divisibility");
  return attr ? attr.getInt() : 1;
}

/// The recipe of `desc`'s tensor map (the file comment's attribute), or null where TMA cannot
/// copy its blocks.
DictionaryAttr getRecipe(func::FuncOp func, tk::MakeTensorDescOp desc) {
  RankedTensorType block = desc.getType().getBlockType();
  const int64_t rank = block.getRank();
  const unsigned bits = block.getElementTypeBitWidth();
  if (rank < 1 || rank > 5 || (bits != 8 && bits != 16 && bits != 32 && bits != 64))
    return {};
  const int64_t bytes = bits / 8;
  for (int64_t size : block.getShape())
    if (size < 1 || size > 256)
      return {};
  if (block.getShape().back() * bytes % 16 != 0)
    return {};
  bool stores = false;
  for (Operation *user : desc->getUsers()) {
    if (!isa<tk::DescriptorLoadOp, tk::DescriptorStoreOp>(user))
      return {};
    if (auto load = dyn_cast<tk::DescriptorLoadOp>(user); load && load.getNanPadding())
      return {};
    stores |= isa<tk::DescriptorStoreOp>(user);
  }

  std::optional<Source> base = sourceOf(func, desc.getBase());
  if (!base || base->arg < 0 || divisibilityOf(func, base->arg) < 16)
    return {};
  SmallVector<int32_t> shapeArgs, strideArgs;
  SmallVector<int64_t> shape, strides;
  for (Value size : desc.getShape()) {
    std::optional<Source> s = sourceOf(func, size);
    if (!s || (s->arg < 0 && s->value < 1))
      return {};
    shapeArgs.push_back(s->arg);
    shape.push_back(s->value);
  }
  // An argument's bytes are a multiple of 16 where its divisibility (a power of two up to 16)
  // times the element's bytes is.
  auto argBytesAligned = [&](int32_t arg) { return divisibilityOf(func, arg) * bytes % 16 == 0; };
  if (stores &&
      (shapeArgs.back() >= 0 ? !argBytesAligned(shapeArgs.back()) : shape.back() * bytes % 16 != 0))
    return {};
  for (auto [d, stride] : llvm::enumerate(desc.getStrides())) {
    std::optional<Source> s = sourceOf(func, stride);
    if (!s)
      return {};
    const bool last = int64_t(d) == rank - 1;
    if (last
            ? (s->arg >= 0 || s->value != 1)
            : (s->arg >= 0 ? !argBytesAligned(s->arg) : s->value < 1 || s->value * bytes % 16 != 0))
      return {};
    strideArgs.push_back(s->arg);
    strides.push_back(s->value);
  }
  TensorMapRecipe recipe;
  recipe.base = base->arg;
  recipe.shapeArgs = std::move(shapeArgs);
  recipe.shape = std::move(shape);
  recipe.strideArgs = std::move(strideArgs);
  recipe.strides = std::move(strides);
  return recipe.toAttr(desc.getContext());
}

/// Whether `v` is at least 0 whatever the launch: a constant that is, a program id or count, the
/// counter of a loop from a non-negative start by a positive step, or a sum, product or
/// extension of such values (coordinates a kernel computes as pid * BLOCK + k * BK).
bool knownNonNegative(Value v, int depth = 0) {
  if (depth > 16)
    return false;
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return !constant.isNegative();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    APInt step;
    return loop && arg == loop.getInductionVar() &&
           knownNonNegative(loop.getLowerBound(), depth + 1) &&
           matchPattern(loop.getStep(), m_ConstantInt(&step)) && step.isStrictlyPositive();
  }
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<tk::GetProgramIdOp, tk::GetNumProgramsOp>(def))
    return true;
  if (isa_and_nonnull<arith::AddIOp, arith::MulIOp, arith::ExtSIOp, arith::ExtUIOp, arith::MaxSIOp>(
          def))
    return llvm::all_of(def->getOperands(),
                        [&](Value operand) { return knownNonNegative(operand, depth + 1); });
  return false;
}

/// What an access through a tensor map must check at run time (the file comment): that its
/// innermost index is a multiple of `alignment` elements (16 bytes; 0: proven), and for a
/// store, that no index is negative.
struct Guard {
  int64_t alignment = 0;
  bool nonNegative = false;
  bool needed() const { return alignment != 0 || nonNegative; }
};

Guard guardOf(Operation *access, ValueRange indices, int64_t elementBytes,
              const tk::AxisInfoResult &axisInfo) {
  Guard guard;
  const int64_t alignment = std::max<int64_t>(1, 16 / elementBytes);
  const tk::AxisInfo *inner = axisInfo.getAxisInfo(indices.back());
  if (!inner || inner->getRank() < 1 || inner->getDivisibility(0) % alignment != 0)
    guard.alignment = alignment;
  guard.nonNegative = isa<tk::DescriptorStoreOp>(access) &&
                      !llvm::all_of(indices, [](Value i) { return knownNonNegative(i); });
  return guard;
}

/// `access` through `map`, under `guard`: in an scf.if whose else branch keeps the access
/// through the descriptor made in the kernel.
void redirect(Operation *access, ValueRange indices, Value desc, Value map, Guard guard) {
  if (!guard.needed()) {
    access->replaceUsesOfWith(desc, map);
    return;
  }
  OpBuilder b(access);
  Location loc = access->getLoc();
  Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  if (guard.alignment > 1) {
    Type type = indices.back().getType();
    Value low = arith::AndIOp::create(
        b, loc, indices.back(), arith::ConstantIntOp::create(b, loc, type, guard.alignment - 1));
    ok =
        arith::AndIOp::create(b, loc, ok,
                              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, low,
                                                    arith::ConstantIntOp::create(b, loc, type, 0)));
  }
  if (guard.nonNegative)
    for (Value index : indices)
      ok = arith::AndIOp::create(
          b, loc, ok,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index,
                                arith::ConstantIntOp::create(b, loc, index.getType(), 0)));
  SmallVector<Type> types(access->getResultTypes());
  auto branch = scf::IfOp::create(b, loc, TypeRange(types), ok, /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
  auto fill = [&](Block *block, Value through) {
    OpBuilder inner = OpBuilder::atBlockBegin(block);
    IRMapping mapping;
    mapping.map(desc, through);
    Operation *copy = inner.clone(*access, mapping);
    scf::YieldOp::create(inner, loc, copy->getResults());
  };
  fill(branch.thenBlock(), map);
  fill(branch.elseBlock(), desc);
  access->replaceAllUsesWith(branch.getResults());
  access->erase();
}

struct TkTmaDescriptorsPass : tkgpu::impl::TkTmaDescriptorsBase<TkTmaDescriptorsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp func) {
      if (func.isExternal())
        return;
      SmallVector<std::pair<tk::MakeTensorDescOp, DictionaryAttr>> chosen;
      func.walk([&](tk::MakeTensorDescOp desc) {
        if (DictionaryAttr recipe = getRecipe(func, desc))
          chosen.push_back({desc, recipe});
      });
      if (chosen.empty())
        return;
      // Every access's guard, decided on the IR as it was made.
      struct Access {
        Operation *op;
        Guard guard;
      };
      DenseMap<Operation *, SmallVector<Access>> accesses;
      {
        tk::AxisInfoResult axisInfo(func);
        for (auto [desc, recipe] : chosen) {
          const int64_t bytes = desc.getType().getBlockType().getElementTypeBitWidth() / 8;
          for (Operation *user : desc->getUsers()) {
            ValueRange indices = isa<tk::DescriptorLoadOp>(user)
                                     ? cast<tk::DescriptorLoadOp>(user).getIndices()
                                     : cast<tk::DescriptorStoreOp>(user).getIndices();
            accesses[desc].push_back({user, guardOf(user, indices, bytes, axisInfo)});
          }
        }
      }
      for (auto [desc, recipe] : chosen) {
        const unsigned index = func.getNumArguments();
        if (failed(func.insertArgument(
                index, desc.getType(),
                DictionaryAttr::get(
                    func.getContext(),
                    {NamedAttribute(StringAttr::get(func.getContext(), TensorMapRecipe::attrName),
                                    recipe)}),
                desc.getLoc())))
          return;
        for (const Access &access : accesses[desc]) {
          ValueRange indices = isa<tk::DescriptorLoadOp>(access.op)
                                   ? cast<tk::DescriptorLoadOp>(access.op).getIndices()
                                   : cast<tk::DescriptorStoreOp>(access.op).getIndices();
          redirect(access.op, indices, desc, func.getArgument(index), access.guard);
        }
        if (desc->use_empty())
          desc->erase();
      }
    });
  }
};

} // namespace

/// @file ViewOpToLLVM.cpp
/// tk.broadcast, tk.expand_dims, tk.reshape, tk.trans and tkgpu.convert_layout: ops that
/// move a tensor's elements without computing on them.
///
/// Each of them reads, for result index I, the operand element whose row-major linear index is
/// a linear function of I: sum over d of coef[d] * I[d] (broadcast: the operand's strides, 0 on
/// the broadcast dimensions; expand_dims: the operand's strides around the new axis; trans: the
/// operand's strides permuted; reshape: the result's own strides; convert_layout: the strides).
/// So one lowering serves all five:
///
/// - In registers, when every thread already holds the operand element each of its result
///   elements reads, at the same position of its struct for every thread. Layout.h's index of
///   a thread's element is (thread offset + thread-0 index) modulo the shape, per dimension, so
///   duplicates within a thread stay duplicates in every thread: we match each result element
///   to an operand element of thread 0, then check the match for every thread of the block (at
///   compile time: threads x elements, cheap next to compiling the kernel). This covers
///   broadcast and expand_dims in the layouts tk-assign-layouts gives, trans with the permuted
///   layout, and reshapes that keep elements in place, including tensors smaller than the
///   layout's tile (wrap-around).
/// - Else through shared memory: each thread writes its operand elements at their linear index,
///   then reads its result elements' (emitBarrier before both: an earlier op may still be
///   reading the scratch; our writes must be visible). Where the tile is larger than the tensor
///   several threads write the same value to one address: harmless. i1 goes through as i8.
///   A rank-2 convert_layout whose operand or result layout holds runs of elements along
///   dimension 1 (an mma accumulator's pairs, a blocked layout's vectors: the matmul epilogue)
///   writes and reads whole runs as vectors, in rows padded by 16 bytes where a row is a
///   multiple of 128 bytes (Utility.h's getVectorizedExchange), so that the eight rows of an
///   mma tile land in different banks.
/// The maps and the in-register check are in lib/Analysis/Utility.h: the shared-memory
/// allocation asks the same question.
#include "Analysis/Utility.h"
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <optional>

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

constexpr unsigned kThreadsPerWarp = 32;

int64_t dotProduct(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  int64_t sum = 0;
  for (auto [x, y] : llvm::zip_equal(a, b))
    sum += x * y;
  return sum;
}

/// The type an element takes in shared memory: i1 as i8 (a byte; PTX has no 1-bit stores).
Type scratchType(Type element) {
  return element.isInteger(1) ? IntegerType::get(element.getContext(), 8) : element;
}

Value linearIndex(OpBuilder &b, Location loc, ArrayRef<Value> index, ArrayRef<int64_t> coef) {
  Value linear;
  for (auto [i, c] : llvm::zip_equal(index, coef)) {
    if (c == 0)
      continue;
    Value term = c == 1 ? i : LLVM::MulOp::create(b, loc, i, i32Constant(b, loc, c));
    linear = linear ? LLVM::AddOp::create(b, loc, linear, term).getResult() : term;
  }
  return linear ? linear : i32Constant(b, loc, 0);
}

/// The elements of `type`'s layout that thread 0 holds at an index an earlier element already
/// has: every thread holds them twice too (Layout.h's indices are offset + base, modulo the
/// shape), so one store or load serves both.
SmallVector<int> firstCopy(RankedTensorType type) {
  Attribute layout = type.getEncoding();
  const unsigned count = tkgpu::getTotalElemsPerThread(layout, type.getShape());
  llvm::DenseMap<int64_t, int> first;
  SmallVector<int64_t> strides = getRowMajorStrides(type.getShape());
  SmallVector<int> copies;
  for (unsigned e = 0; e < count; ++e) {
    int64_t linear = dotProduct(tkgpu::getElementIndex(layout, type.getShape(), 0, 0, e), strides);
    copies.push_back(first.try_emplace(linear, int(e)).first->second);
  }
  return copies;
}

/// Writes the operands' elements to the scratch area at `scratch` (bytes), operand k at element
/// k * N (barriers before and after: an earlier op may still be reading the scratch; the writes
/// must be visible).
void stackInShared(OpBuilder &b, Location loc, unsigned scratch, const ViewMap &map,
                   ArrayRef<Value> srcElements) {
  emitBarrier(b, loc);
  const size_t count = srcElements.size() / map.numSources;
  for (unsigned k = 0; k < map.numSources; ++k)
    storeTensorToShared(b, loc, scratch, map.srcType, srcElements.slice(k * count, count),
                        /*offset=*/k * map.srcType.getNumElements());
  emitBarrier(b, loc);
}

/// The result elements, read from the scratch area at `scratch` (bytes) that stackInShared
/// filled.
SmallVector<Value> readFromShared(OpBuilder &b, Location loc, unsigned scratch, const ViewMap &map,
                                  Type elementType) {
  Type stored = scratchType(elementType);
  SmallVector<SmallVector<Value>> dstIndices = emitIndices(b, loc, map.dstType);
  SmallVector<int> dstCopies = firstCopy(map.dstType);
  SmallVector<Value> results;
  for (auto [e, index] : llvm::enumerate(dstIndices)) {
    if (dstCopies[e] != int(e)) {
      results.push_back(results[dstCopies[e]]);
      continue;
    }
    Value linear = addConst(b, loc, linearIndex(b, loc, index, map.coef), map.base);
    Value address = getSharedAddress(b, loc, scratch, stored, linear);
    Value value = LLVM::LoadOp::create(b, loc, stored, address);
    if (stored != elementType)
      value = LLVM::TruncOp::create(b, loc, elementType, value);
    results.push_back(value);
  }
  return results;
}

/// The result elements of a conversion, through the scratch area at `scratch` in the row-major,
/// padded layout of `exchange`: each thread writes its runs of operand elements along
/// dimension 1 as vectors, then reads its result runs as vectors (barriers as above).
SmallVector<Value> exchangeVectorized(OpBuilder &b, Location loc, unsigned scratch,
                                      const ViewMap &map, const VectorizedExchange &exchange,
                                      ArrayRef<Value> srcElements, Type elementType) {
  const unsigned bytes = elementType.getIntOrFloatBitWidth() / 8;
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = getSharedAddress(b, loc, scratch, elementType, i32Constant(b, loc, 0));
  auto address = [&](ArrayRef<Value> index) -> Value {
    Value row = LLVM::MulOp::create(b, loc, index[0], i32Constant(b, loc, exchange.rowStride));
    Value offset = LLVM::AddOp::create(b, loc, row, index[1]);
    return LLVM::GEPOp::create(b, loc, ptrType, elementType, base, ValueRange{offset});
  };
  // The address of every width-th element of `type` the thread holds. Where no dimension wraps
  // around, the thread's address plus a constant: one multiply-add for all, and each access
  // takes its constant as an immediate offset.
  auto addresses = [&](RankedTensorType type, unsigned width) {
    SmallVector<Value> offsets;
    SmallVector<bool> wraps;
    emitThreadOffsets(b, loc, type, offsets, wraps);
    const unsigned count = tkgpu::getTotalElemsPerThread(type.getEncoding(), type.getShape());
    SmallVector<Value> result(count);
    if (llvm::is_contained(wraps, true)) {
      SmallVector<SmallVector<Value>> indices = emitIndices(b, loc, type, width);
      for (unsigned e = 0; e < count; e += width)
        result[e] = address(indices[e]);
      return result;
    }
    Value thread = address(offsets);
    for (unsigned e = 0; e < count; e += width) {
      SmallVector<int64_t> index =
          tkgpu::getElementIndex(type.getEncoding(), type.getShape(), 0, 0, e);
      const int64_t constant = index[0] * exchange.rowStride + index[1];
      result[e] = constant == 0 ? thread
                                : LLVM::GEPOp::create(b, loc, ptrType, elementType, thread,
                                                      ArrayRef<LLVM::GEPArg>{int32_t(constant)})
                                      .getResult();
    }
    return result;
  };
  auto vectorType = [&](unsigned width) { return VectorType::get({width}, elementType); };

  emitBarrier(b, loc);
  const unsigned storeWidth = exchange.storeWidth;
  SmallVector<Value> srcAddresses = addresses(map.srcType, storeWidth);
  SmallVector<int> srcCopies = firstCopy(map.srcType);
  for (unsigned e = 0; e < srcElements.size(); e += storeWidth) {
    if (srcCopies[e] != int(e))
      continue;
    Value value = srcElements[e];
    if (storeWidth > 1) {
      value = LLVM::PoisonOp::create(b, loc, vectorType(storeWidth));
      for (unsigned i = 0; i < storeWidth; ++i)
        value = LLVM::InsertElementOp::create(b, loc, value, srcElements[e + i],
                                              i32Constant(b, loc, i));
    }
    LLVM::StoreOp::create(b, loc, value, srcAddresses[e], storeWidth * bytes);
  }
  emitBarrier(b, loc);
  const unsigned loadWidth = exchange.loadWidth;
  SmallVector<Value> dstAddresses = addresses(map.dstType, loadWidth);
  SmallVector<Value> results;
  for (unsigned e = 0; e < dstAddresses.size(); e += loadWidth) {
    if (loadWidth == 1) {
      results.push_back(
          LLVM::LoadOp::create(b, loc, elementType, dstAddresses[e], bytes).getResult());
      continue;
    }
    Value vector =
        LLVM::LoadOp::create(b, loc, vectorType(loadWidth), dstAddresses[e], loadWidth * bytes);
    for (unsigned i = 0; i < loadWidth; ++i)
      results.push_back(LLVM::ExtractElementOp::create(b, loc, vector, i32Constant(b, loc, i)));
  }
  return results;
}

struct ViewOpConversion : ConversionPattern {
  ViewOpConversion(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp, FlipOp, JoinOp, CatOp, SplitOp,
             tkgpu::ConvertLayoutOp>(op))
      return failure();
    Location loc = op->getLoc();
    if (auto split = dyn_cast<SplitOp>(op); split && !isa<RankedTensorType>(split.getType(0)))
      return lowerScalarSplit(split, operands[0], rewriter);
    SmallVector<ViewMap> maps;
    for (unsigned r = 0; r < op->getNumResults(); ++r) {
      std::optional<ViewMap> map = getViewMap(op, r);
      if (!map)
        return failure();
      maps.push_back(*map);
    }
    const ViewMap &first = maps.front();
    auto structType =
        dyn_cast_or_null<LLVM::LLVMStructType>(getTypeConverter()->convertType(first.dstType));
    Type elementType = getTypeConverter()->convertType(first.dstType.getElementType());
    if (!structType || !elementType)
      return rewriter.notifyMatchFailure(op, "result has no distributed layout");
    const unsigned count = structType.getBody().size();

    if (!first.srcType) {
      // A scalar made a one-element tensor: every element is the scalar. A join of two scalars:
      // element k is operand k, by the element's index in this thread.
      SmallVector<Value> elements(count, operands[0]);
      if (first.numSources == 2) {
        SmallVector<SmallVector<Value>> indices = emitIndices(rewriter, loc, first.dstType);
        for (unsigned e = 0; e < count; ++e) {
          Value isFirst = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                               indices[e][0], i32Constant(rewriter, loc, 0));
          elements[e] = LLVM::SelectOp::create(rewriter, loc, isFirst, operands[0], operands[1]);
        }
      }
      rewriter.replaceOp(op, packElements(rewriter, loc, structType, elements));
      return success();
    }
    SmallVector<Value> srcElements;
    for (unsigned k = 0; k < first.numSources; ++k) {
      if (!isa<LLVM::LLVMStructType>(operands[k].getType()))
        return rewriter.notifyMatchFailure(op, "operand is not a converted tensor");
      llvm::append_range(srcElements, unpackElements(rewriter, loc, operands[k]));
    }
    SmallVector<std::optional<SmallVector<unsigned>>> mappings;
    for (const ViewMap &map : maps)
      mappings.push_back(mapInRegisters(map));
    const bool shared = llvm::any_of(mappings, [](const auto &m) { return !m.has_value(); });
    std::optional<VectorizedExchange> exchange =
        isa<tkgpu::ConvertLayoutOp>(op) ? getVectorizedExchange(first.srcType, first.dstType)
                                        : std::nullopt;
    if (shared && !exchange)
      stackInShared(rewriter, loc, getScratchOffset(op), first, srcElements);
    SmallVector<Value> replacements;
    for (auto [map, mapping] : llvm::zip_equal(maps, mappings)) {
      SmallVector<Value> results;
      if (mapping) {
        for (unsigned e : *mapping)
          results.push_back(srcElements[e]);
      } else if (exchange) {
        results = exchangeVectorized(rewriter, loc, getScratchOffset(op), map, *exchange,
                                     srcElements, elementType);
      } else {
        results = readFromShared(rewriter, loc, getScratchOffset(op), map, elementType);
      }
      assert(results.size() == count && "one value per element of the result");
      replacements.push_back(packElements(rewriter, loc, structType, results));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

  /// tk.split of a tensor<2xT> into two scalars: tk-assign-layouts gives the operand a layout
  /// where every thread holds both elements, in order.
  static LogicalResult lowerScalarSplit(SplitOp split, Value operand,
                                        ConversionPatternRewriter &rewriter) {
    RankedTensorType type = split.getSrc().getType();
    Attribute layout = type.getEncoding();
    if (!layout || tkgpu::getTotalElemsPerThread(layout, type.getShape()) != 2 ||
        !isa<LLVM::LLVMStructType>(operand.getType()))
      return rewriter.notifyMatchFailure(split, "the operand's threads do not hold both halves");
    const unsigned threads = tkgpu::getNumWarps(layout) * kThreadsPerWarp;
    for (unsigned t = 0; t < threads; ++t)
      for (unsigned e = 0; e < 2; ++e)
        if (tkgpu::getElementIndex(layout, type.getShape(), t / kThreadsPerWarp,
                                   t % kThreadsPerWarp, e)[0] != int64_t(e))
          return rewriter.notifyMatchFailure(split, "the operand's threads hold other elements");
    rewriter.replaceOp(split, unpackElements(rewriter, split.getLoc(), operand));
    return success();
  }
};

/// tk.gather: the operand goes to shared memory whole, then each thread reads its result
/// elements at the indices it holds (the result and the indices share a layout).
struct GatherOpConversion : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    auto dstType = cast<RankedTensorType>(op.getType());
    auto structType =
        dyn_cast_or_null<LLVM::LLVMStructType>(getTypeConverter()->convertType(dstType));
    Type elementType = getTypeConverter()->convertType(dstType.getElementType());
    if (!structType || !elementType || !isa<LLVM::LLVMStructType>(adaptor.getSrc().getType()) ||
        !isa<LLVM::LLVMStructType>(adaptor.getIndices().getType()))
      return rewriter.notifyMatchFailure(op, "operands or result have no distributed layout");
    if (cast<RankedTensorType>(op.getIndices().getType()).getEncoding() != dstType.getEncoding())
      return rewriter.notifyMatchFailure(op, "the indices' layout is not the result's");
    const unsigned scratch = getScratchOffset(op);
    Type stored = scratchType(elementType);
    emitBarrier(rewriter, loc);
    storeTensorToShared(rewriter, loc, scratch, srcType,
                        unpackElements(rewriter, loc, adaptor.getSrc()), /*offset=*/0);
    emitBarrier(rewriter, loc);
    SmallVector<Value> indices = unpackElements(rewriter, loc, adaptor.getIndices());
    SmallVector<SmallVector<Value>> positions = emitIndices(rewriter, loc, dstType);
    SmallVector<int64_t> coef = getRowMajorStrides(srcType.getShape());
    const auto axis = size_t(op.getAxis());
    const int64_t axisStride = coef[axis];
    coef[axis] = 0; // the index comes from `indices`
    Type i32 = rewriter.getI32Type();
    SmallVector<Value> results;
    for (auto [position, index] : llvm::zip_equal(positions, indices)) {
      Value at = index;
      const unsigned width = index.getType().getIntOrFloatBitWidth();
      if (width > 32)
        at = LLVM::TruncOp::create(rewriter, loc, i32, at);
      else if (width < 32)
        at = LLVM::SExtOp::create(rewriter, loc, i32, at);
      if (axisStride != 1)
        at = LLVM::MulOp::create(rewriter, loc, at, i32Constant(rewriter, loc, axisStride));
      Value linear =
          LLVM::AddOp::create(rewriter, loc, linearIndex(rewriter, loc, position, coef), at);
      Value value = LLVM::LoadOp::create(rewriter, loc, stored,
                                         getSharedAddress(rewriter, loc, scratch, stored, linear));
      if (stored != elementType)
        value = LLVM::TruncOp::create(rewriter, loc, elementType, value);
      results.push_back(value);
    }
    rewriter.replaceOp(op, packElements(rewriter, loc, structType, results));
    return success();
  }
};

} // namespace

void mlir::tk::storeTensorToShared(OpBuilder &b, Location loc, unsigned byteOffset,
                                   RankedTensorType type, ArrayRef<Value> elements,
                                   int64_t offset) {
  if (elements.empty())
    return;
  Type elementType = elements.front().getType();
  Type stored = scratchType(elementType);
  SmallVector<SmallVector<Value>> indices = emitIndices(b, loc, type);
  SmallVector<int> copies = firstCopy(type);
  SmallVector<int64_t> strides = getRowMajorStrides(type.getShape());
  for (auto [e, element] : llvm::enumerate(elements)) {
    if (copies[e] != int(e))
      continue;
    Value value = element;
    Value index = addConst(b, loc, linearIndex(b, loc, indices[e], strides), offset);
    Value address = getSharedAddress(b, loc, byteOffset, stored, index);
    if (stored != elementType)
      value = LLVM::ZExtOp::create(b, loc, stored, value);
    LLVM::StoreOp::create(b, loc, value, address);
  }
}

void mlir::tk::populateViewOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<ViewOpConversion>(converter, patterns.getContext());
  patterns.add<GatherOpConversion>(converter, patterns.getContext());
}

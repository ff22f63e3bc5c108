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

/// The result elements, read through the scratch area at `scratch` (bytes).
SmallVector<Value> exchangeThroughShared(OpBuilder &b, Location loc, unsigned scratch,
                                         const ViewMap &map, ArrayRef<Value> srcElements,
                                         Type elementType) {
  Type stored = scratchType(elementType);
  emitBarrier(b, loc);
  storeTensorToShared(b, loc, scratch, map.srcType, srcElements, /*offset=*/0);
  emitBarrier(b, loc);
  SmallVector<SmallVector<Value>> dstIndices = emitIndices(b, loc, map.dstType);
  SmallVector<int> dstCopies = firstCopy(map.dstType);
  SmallVector<Value> results;
  for (auto [e, index] : llvm::enumerate(dstIndices)) {
    if (dstCopies[e] != int(e)) {
      results.push_back(results[dstCopies[e]]);
      continue;
    }
    Value address = getSharedAddress(b, loc, scratch, stored, linearIndex(b, loc, index, map.coef));
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
    if (!isa<BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp, tkgpu::ConvertLayoutOp>(op))
      return failure();
    std::optional<ViewMap> map = getViewMap(op);
    if (!map)
      return failure();
    Location loc = op->getLoc();
    auto structType =
        dyn_cast_or_null<LLVM::LLVMStructType>(getTypeConverter()->convertType(map->dstType));
    Type elementType = getTypeConverter()->convertType(map->dstType.getElementType());
    if (!structType || !elementType)
      return rewriter.notifyMatchFailure(op, "result has no distributed layout");
    const unsigned count = structType.getBody().size();

    if (!map->srcType) { // a scalar made a one-element tensor: every element is the scalar
      SmallVector<Value> elements(count, operands[0]);
      rewriter.replaceOp(op, packElements(rewriter, loc, structType, elements));
      return success();
    }
    if (!isa<LLVM::LLVMStructType>(operands[0].getType()))
      return rewriter.notifyMatchFailure(op, "operand is not a converted tensor");
    SmallVector<Value> srcElements = unpackElements(rewriter, loc, operands[0]);
    SmallVector<Value> results;
    if (std::optional<SmallVector<unsigned>> mapping = mapInRegisters(*map)) {
      for (unsigned e : *mapping)
        results.push_back(srcElements[e]);
    } else if (std::optional<VectorizedExchange> exchange =
                   isa<tkgpu::ConvertLayoutOp>(op)
                       ? getVectorizedExchange(map->srcType, map->dstType)
                       : std::nullopt) {
      results = exchangeVectorized(rewriter, loc, getScratchOffset(op), *map, *exchange,
                                   srcElements, elementType);
    } else {
      results = exchangeThroughShared(rewriter, loc, getScratchOffset(op), *map, srcElements,
                                      elementType);
    }
    assert(results.size() == count && "one value per element of the result");
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
}

/// @file DotOpToLLVM.cpp
/// tk.dot as an FMA loop, for dots left in blocked layouts (tk-accelerate-matmul gives the
/// others tensor-core layouts: MMAv2DotOpToLLVM.cpp).
///
/// a (M x K) and b (K x N) go to the op's scratch in shared memory, row-major, b after a
/// (emitBarrier before the
/// writes and before the reads, as every user of the scratch). Each thread then computes its
/// own elements of c: for k = 0 .. K-1, fully unrolled (K is a compile-time constant), it reads
/// a[m, k] for each distinct row m and b[k, n] for each distinct column n of its elements once,
/// and does one multiply-add per element. A thread's elements share few rows and columns (a
/// blocked layout gives it a sizePerThread block per repetition of the tile), so loads are
/// rows + columns per k, multiply-adds rows x columns.
///
/// Addresses: along a dimension that does not wrap around (the layout's tile is not larger than
/// the tensor) a thread's rows are its first row plus constants, so one pointer per operand and
/// constant offsets serve every row and every k (ld.shared [r + imm]). Where it wraps, each
/// distinct row has its own pointer (there are then at most sizePerThread of them).
///
/// Arithmetic: f16 and bf16 inputs are extended to f32 and accumulate in f32 (an f16
/// accumulator is extended first and truncated at the end), with llvm.intr.fma; i8 inputs are
/// sign-extended to i32 (mul + add). `input_precision = "tf32"` is ignored here: the FMA path
/// multiplies f32 exactly, which tf32 allows (it only permits the rounding).
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// One operand's values for the current thread: the shared-memory pointers of its distinct
/// rows (of a) or columns (of b), and the constant element offset each read adds to its
/// pointer, plus k times `kStride`.
struct OperandReader {
  Type elementType; // as stored
  SmallVector<Value> pointers;
  SmallVector<int64_t> offsets;
  int64_t kStride = 0;

  Value read(OpBuilder &b, Location loc, unsigned i, int64_t k) const {
    Value address =
        LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), elementType,
                            pointers[i], ArrayRef<LLVM::GEPArg>{int32_t(offsets[i] + k * kStride)});
    return LLVM::LoadOp::create(b, loc, elementType, address);
  }
};

/// The distinct values of c's dimension `dim` the thread's elements have, from their thread-0
/// indices (equal there means equal in every thread: indices are offset + base modulo the
/// shape), and each element's group. `scratch` is the byte offset of the op's scratch in shared
/// memory, `base` the element index of row / column 0 in it; `stride` the elements between
/// consecutive rows / columns there.
OperandReader makeReader(OpBuilder &b, Location loc, RankedTensorType c, unsigned dim,
                         ArrayRef<SmallVector<Value>> indices, Type elementType, unsigned scratch,
                         int64_t base, int64_t stride, int64_t kStride,
                         SmallVector<unsigned> &groupOf) {
  Attribute layout = c.getEncoding();
  auto blocked = dyn_cast<tkgpu::BlockedEncodingAttr>(layout);
  const int64_t size = c.getDimSize(dim);
  const bool wraps = !blocked || int64_t(blocked.getSizePerThread()[dim]) *
                                         blocked.getThreadsPerWarp()[dim] *
                                         blocked.getWarpsPerCTA()[dim] >
                                     size;
  OperandReader reader;
  reader.elementType = elementType;
  reader.kStride = kStride;
  llvm::DenseMap<int64_t, unsigned> groups;
  Value first; // the pointer to the thread's first row, where rows do not wrap
  for (unsigned e = 0; e < indices.size(); ++e) {
    const int64_t at = tkgpu::getElementIndex(layout, c.getShape(), 0, 0, e)[dim];
    auto [it, inserted] = groups.try_emplace(at, unsigned(reader.pointers.size()));
    groupOf.push_back(it->second);
    if (!inserted)
      continue;
    // Element 0 has base index 0: its index is the thread's offset.
    auto pointerTo = [&](Value index) -> Value {
      Value scaled =
          stride == 1 ? index
                      : LLVM::MulOp::create(b, loc, index, i32Constant(b, loc, stride)).getResult();
      return getSharedAddress(b, loc, scratch, elementType, addConst(b, loc, scaled, base));
    };
    if (wraps) {
      reader.pointers.push_back(pointerTo(indices[e][dim]));
      reader.offsets.push_back(0);
    } else {
      if (!first)
        first = pointerTo(indices[0][dim]);
      reader.pointers.push_back(first);
      reader.offsets.push_back(at * stride);
    }
  }
  return reader;
}

struct DotOpConversion : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                     cType = op.getC().getType();
    if (!isa_and_nonnull<tkgpu::BlockedEncodingAttr>(cType.getEncoding()))
      return rewriter.notifyMatchFailure(op, "result is not in a blocked layout (FMA path)");
    auto structType =
        dyn_cast_or_null<LLVM::LLVMStructType>(getTypeConverter()->convertType(op.getType()));
    if (!structType)
      return rewriter.notifyMatchFailure(op, "result has no distributed layout");
    for (Value operand : adaptor.getOperands())
      if (!isa<LLVM::LLVMStructType>(operand.getType()))
        return rewriter.notifyMatchFailure(op, "operand is not a converted tensor");
    if (isFloat8(aType.getElementType()))
      return op.emitError() << "tk.dot: fp8 inputs on the FMA path (tk-legalize-fp8 widens them to "
                               "f16 where the tensor cores cannot take them)";
    const int64_t M = aType.getDimSize(0), K = aType.getDimSize(1), N = bType.getDimSize(1);
    Type inType = getTypeConverter()->convertType(aType.getElementType());
    Type accType = getTypeConverter()->convertType(cType.getElementType());
    const bool isInt = isa<IntegerType>(inType);
    Type computeType = isInt ? Type(rewriter.getI32Type()) : Type(rewriter.getF32Type());

    // a and b to shared memory.
    emitBarrier(rewriter, loc);
    const unsigned scratch = getScratchOffset(op);
    storeTensorToShared(rewriter, loc, scratch, aType,
                        unpackElements(rewriter, loc, adaptor.getA()), 0);
    storeTensorToShared(rewriter, loc, scratch, bType,
                        unpackElements(rewriter, loc, adaptor.getB()), M * K);
    emitBarrier(rewriter, loc);

    // The thread's rows and columns of c, and each element's.
    SmallVector<SmallVector<Value>> indices = emitIndices(rewriter, loc, cType);
    SmallVector<unsigned> rowOf, colOf;
    OperandReader rows = makeReader(rewriter, loc, cType, 0, indices, inType, scratch, /*base=*/0,
                                    /*stride=*/K, /*kStride=*/1, rowOf);
    OperandReader cols =
        makeReader(rewriter, loc, cType, 1, indices, inType, scratch, /*base=*/M * K,
                   /*stride=*/1, /*kStride=*/N, colOf);

    auto extend = [&](Value value) -> Value {
      if (value.getType() == computeType)
        return value;
      if (isInt)
        return LLVM::SExtOp::create(rewriter, loc, computeType, value);
      return LLVM::FPExtOp::create(rewriter, loc, computeType, value);
    };

    // Accumulators, one per distinct element (duplicates, where c wraps, are copies).
    SmallVector<Value> cElements = unpackElements(rewriter, loc, adaptor.getC());
    SmallVector<int> firstOf;
    SmallVector<unsigned> distinct;
    {
      llvm::DenseMap<std::pair<unsigned, unsigned>, int> seen;
      for (unsigned e = 0; e < cElements.size(); ++e) {
        auto [it, inserted] = seen.try_emplace({rowOf[e], colOf[e]}, int(e));
        firstOf.push_back(it->second);
        if (inserted)
          distinct.push_back(e);
      }
    }
    SmallVector<Value> acc(cElements.size());
    for (unsigned e : distinct)
      acc[e] = extend(cElements[e]);
    // By row or by column: the smaller side is read first and kept for the whole k step; each
    // value of the larger side is read just before its multiply-adds, so few stay live.
    const bool rowsFirst = rows.pointers.size() <= cols.pointers.size();
    const OperandReader &kept = rowsFirst ? rows : cols;
    const OperandReader &streamed = rowsFirst ? cols : rows;
    ArrayRef<unsigned> keptOf = rowsFirst ? rowOf : colOf;
    ArrayRef<unsigned> streamedOf = rowsFirst ? colOf : rowOf;
    SmallVector<SmallVector<unsigned>> byStreamed(streamed.pointers.size());
    for (unsigned e : distinct)
      byStreamed[streamedOf[e]].push_back(e);

    for (int64_t k = 0; k < K; ++k) {
      SmallVector<Value> keptValues;
      for (unsigned i = 0; i < kept.pointers.size(); ++i)
        keptValues.push_back(extend(kept.read(rewriter, loc, i, k)));
      for (auto [i, elements] : llvm::enumerate(byStreamed)) {
        if (elements.empty())
          continue;
        Value value = extend(streamed.read(rewriter, loc, unsigned(i), k));
        for (unsigned e : elements) {
          Value x = keptValues[keptOf[e]];
          if (isInt)
            acc[e] = LLVM::AddOp::create(rewriter, loc, acc[e],
                                         LLVM::MulOp::create(rewriter, loc, x, value));
          else
            acc[e] = LLVM::FMAOp::create(rewriter, loc, x, value, acc[e]);
        }
      }
    }

    SmallVector<Value> results;
    for (unsigned e = 0; e < cElements.size(); ++e) {
      Value value = acc[firstOf[e]];
      if (e == unsigned(firstOf[e]) && accType != computeType)
        acc[e] = value = LLVM::FPTruncOp::create(rewriter, loc, accType, value);
      results.push_back(value);
    }
    rewriter.replaceOp(op, packElements(rewriter, loc, structType, results));
    return success();
  }
};

} // namespace

void mlir::tk::populateDotOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<DotOpConversion>(converter, patterns.getContext());
}

/// @file ConvertToDotOperand.cpp
/// Dot operands (`#tkgpu.dot_operand`) read from swizzled shared memory with `ldmatrix`:
/// tkgpu.local_load of a tile (software pipelining's), and tkgpu.convert_layout from a blocked
/// layout, which first stores the tensor to a scratch tile (the generic path in ViewOpToLLVM.cpp
/// reads one element at a time, with bank conflicts).
///
/// Stored layout (`#tkgpu.shared`, Layout.h's getDotOperandSharedEncoding). The tile is stored
/// row-major along its contiguous dimension (for a conversion, the blocked layout's fastest,
/// `inner`, so that each thread stores its contiguous elements as one vector): R rows of C
/// elements. Each row is cut into 16-byte chunks of `vec` elements; chunk q of row r is stored at
/// chunk q ^ ((r / perPhase) % maxPhase), with perPhase = max(1, 128 / rowBytes) rows per 128-byte
/// line and maxPhase = min(chunks per row, 8 / perPhase). ldmatrix reads eight rows' chunk q at
/// once; the swizzle puts those eight 16-byte reads in eight distinct groups of four banks, so
/// they are free of conflicts, and so are the stores of whole chunks. (Tiles read one 32-bit
/// element at a time are not swizzled but have rows padded by 8 elements instead: a warp reads
/// 8 consecutive elements of each of 4 rows, 24 words apart modulo the 32 banks, so in distinct
/// banks, and each element's address is the thread's base plus a constant; 8-bit ones are
/// padded by 16 bytes, for the constant addresses.)
///
/// Loads. An mma operand register is one 8 x 8 matrix of 16-bit units: 8 rows along M (a) or
/// N (b) by 16 bytes along K (a 4 kWidth elements). Where K is the stored rows' inner dimension
/// `ldmatrix` hands each lane exactly the register mma.sync wants (row lane / 4, the unit pair at
/// lane % 4); where M (or N) is inner, `ldmatrix.trans` does for 16-bit types. Otherwise (32-bit
/// elements with M or N inner: tf32 b of a row-major matrix) each element is loaded on its own.
/// `.x4` loads four matrices, each lane giving one row address (lanes 8i to 8i + 7: matrix i's
/// rows): a's four registers of a 16 x 16 tile, or b's two registers of two tiles (the next K tile,
/// else the next N tile).
///
/// Barriers. A conversion uses its scratch as every user does: a barrier before the stores
/// (earlier readers are done) and before the loads. A local_load has none: tkgpu.async_wait's
/// barrier made its tile visible.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/TypeConverter.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// One 8 x 8 matrix (of 16-bit units) a thread loads: its first row along M or N (`nonK`,
/// relative to the warp's tile origin) and its first column along K, and the struct elements
/// its register becomes.
struct Matrix {
  int64_t nonK, k;
  unsigned firstElement;
};

/// The thread's elements of dot operand `type` read with ldmatrix from the tile at `base` (an
/// `!llvm.ptr<3>`) laid out by `shared`, as the struct `structType`
/// (canLoadDotOperandWithLdmatrix holds).
Value loadDotOperandWithLdmatrix(OpBuilder &b, Location loc, Value base,
                                 tkgpu::SharedEncodingAttr shared, RankedTensorType type,
                                 Type elementType, Type structType) {
  auto c = [&](int64_t v) { return i32Constant(b, loc, v); };
  auto operand = cast<tkgpu::DotOperandEncodingAttr>(type.getEncoding());
  ArrayRef<int64_t> shape = type.getShape();
  const unsigned kWidth = operand.getKWidth();
  const unsigned kDim = operand.getOpIdx() == 0 ? 1 : 0, nonKDim = 1 - kDim;
  const unsigned inner = shared.getOrder()[0];
  const bool trans = inner != kDim;

  // The matrices this thread loads, in register order (the dot_operand layout's).
  tkgpu::MmaEncodingAttr mma = operand.getParent();
  const int64_t warpsM = mma.getWarpsPerCTA()[0], warpsN = mma.getWarpsPerCTA()[1];
  const int64_t instrK = operand.getInstrK(), repK = shape[kDim] / instrK;
  const int64_t tileNonK = operand.getOpIdx() == 0 ? 16 : 8;
  const int64_t warpsNonK = operand.getOpIdx() == 0 ? warpsM : warpsN;
  const int64_t rep = std::max<int64_t>(1, shape[nonKDim] / (tileNonK * warpsNonK));
  const unsigned regsPerTile = operand.getOpIdx() == 0 ? 4 : 2;
  auto matrixOf = [&](int64_t r, int64_t rk, unsigned j) {
    Matrix m;
    m.nonK = r * tileNonK * warpsNonK + (operand.getOpIdx() == 0 ? 8 * (j % 2) : 0);
    m.k = rk * instrK + 4 * kWidth * (operand.getOpIdx() == 0 ? j / 2 : j);
    m.firstElement = unsigned(((r * repK + rk) * regsPerTile + j) * kWidth);
    return m;
  };
  SmallVector<SmallVector<Matrix>> groups;
  if (operand.getOpIdx() == 0) {
    for (int64_t r = 0; r < rep; ++r)
      for (int64_t rk = 0; rk < repK; ++rk)
        groups.push_back(
            {matrixOf(r, rk, 0), matrixOf(r, rk, 1), matrixOf(r, rk, 2), matrixOf(r, rk, 3)});
  } else if (repK % 2 == 0) { // b: two K tiles per x4
    for (int64_t r = 0; r < rep; ++r)
      for (int64_t rk = 0; rk < repK; rk += 2)
        groups.push_back({matrixOf(r, rk, 0), matrixOf(r, rk, 1), matrixOf(r, rk + 1, 0),
                          matrixOf(r, rk + 1, 1)});
  } else { // b: two N tiles per x4 (an x2 for the last one of an odd count)
    for (int64_t rk = 0; rk < repK; ++rk)
      for (int64_t r = 0; r < rep; r += 2) {
        SmallVector<Matrix> group{matrixOf(r, rk, 0), matrixOf(r, rk, 1)};
        if (r + 1 < rep)
          group.append({matrixOf(r + 1, rk, 0), matrixOf(r + 1, rk, 1)});
        groups.push_back(group);
      }
  }

  // Per thread: its warp's origin along M or N, and its lane's row in a matrix.
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value warp = LLVM::UDivOp::create(b, loc, tid, c(32));
  Value lane = LLVM::URemOp::create(b, loc, tid, c(32));
  // Version 2 numbers warps along N first, version 3 (a only) down M first.
  Value warpNonK =
      mma.isHopper() ? LLVM::URemOp::create(b, loc, warp, c(warpsM)).getResult()
      : operand.getOpIdx() == 0
          ? LLVM::URemOp::create(b, loc, LLVM::UDivOp::create(b, loc, warp, c(warpsN)), c(warpsM))
                .getResult()
          : LLVM::URemOp::create(b, loc, warp, c(warpsN)).getResult();
  Value origin = LLVM::MulOp::create(b, loc, warpNonK, c(tileNonK));
  Value laneRow = LLVM::AndOp::create(b, loc, lane, c(7));
  Value matrixIndex = LLVM::LShrOp::create(b, loc, lane, c(3)); // 0..3
  const bool wraps = tileNonK * warpsNonK > shape[nonKDim];

  Type i32 = b.getI32Type();
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  SmallVector<Value> results(tkgpu::getTotalElemsPerThread(operand, shape));
  for (ArrayRef<Matrix> group : groups) {
    const unsigned count = unsigned(group.size());
    // The lane's matrix: its constants selected by lane / 8 (lanes past the count repeat).
    auto pick = [&](auto field) {
      Value value = c(field(group[0]));
      for (unsigned i = 1; i < 4; ++i) {
        Value is = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, matrixIndex, c(i));
        value = LLVM::SelectOp::create(b, loc, is, c(field(group[i % count])), value);
      }
      return value;
    };
    Value nonK = LLVM::AddOp::create(b, loc, origin, pick([](const Matrix &m) { return m.nonK; }));
    if (wraps)
      nonK = LLVM::AndOp::create(b, loc, nonK, c(shape[nonKDim] - 1));
    Value k = pick([](const Matrix &m) { return m.k; });
    Value row = LLVM::AddOp::create(b, loc, trans ? k : nonK, laneRow);
    Value col = trans ? nonK : k;
    Value address =
        LLVM::GEPOp::create(b, loc, ptrType, elementType, base,
                            ValueRange{emitSharedOffset(b, loc, shared, shape, row, col)});
    std::string text = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(count) +
                       (trans ? ".trans" : "") + ".shared.b16 {";
    std::string constraints;
    for (unsigned i = 0; i < count; ++i) {
      text += (i ? ", $" : "$") + std::to_string(i);
      constraints += "=r,";
    }
    text += "}, [$" + std::to_string(count) + "];";
    constraints += "r";
    Value address32 = LLVM::PtrToIntOp::create(b, loc, i32, address);
    Type resultType =
        count == 1
            ? Type(i32)
            : Type(LLVM::LLVMStructType::getLiteral(b.getContext(), SmallVector<Type>(count, i32)));
    auto load = LLVM::InlineAsmOp::create(
        b, loc, resultType, ValueRange{address32}, text, constraints,
        /*has_side_effects=*/true, /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
    SmallVector<Value> registers = count == 1 ? SmallVector<Value>{load.getResult(0)}
                                              : unpackElements(b, loc, load.getResult(0));
    for (auto [m, reg] : llvm::zip_equal(group, registers)) {
      if (kWidth == 1) {
        results[m.firstElement] = LLVM::BitcastOp::create(b, loc, elementType, reg);
        continue;
      }
      auto vectorType = VectorType::get({int64_t(kWidth)}, elementType);
      Value vector = LLVM::BitcastOp::create(b, loc, vectorType, reg);
      for (unsigned v = 0; v < kWidth; ++v)
        results[m.firstElement + v] = LLVM::ExtractElementOp::create(b, loc, vector, c(v));
    }
  }
  return packElements(b, loc, structType, results);
}

/// The same, one element at a time (`ld.shared` at each element's swizzled place) where ldmatrix
/// cannot be used: 32-bit operands whose M (or N) dimension is contiguous (tf32 b from a
/// row-major matrix), whose registers hold one element along K that ldmatrix.trans would split.
Value loadDotOperandByElement(OpBuilder &b, Location loc, Value base,
                              tkgpu::SharedEncodingAttr shared, RankedTensorType type,
                              Type elementType, Type structType) {
  const unsigned inner = shared.getOrder()[0], outer = shared.getOrder()[1];
  const unsigned bytes = std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  SmallVector<Value> results;
  for (ArrayRef<Value> index : emitIndices(b, loc, type)) {
    Value offset = emitSharedOffset(b, loc, shared, type.getShape(), index[outer], index[inner]);
    Value address = LLVM::GEPOp::create(b, loc, ptrType, elementType, base, ValueRange{offset});
    results.push_back(LLVM::LoadOp::create(b, loc, elementType, address, bytes));
  }
  return packElements(b, loc, structType, results);
}

Value loadDotOperand(OpBuilder &b, Location loc, Value base, tkgpu::SharedEncodingAttr shared,
                     RankedTensorType type, Type elementType, Type structType) {
  if (tkgpu::canLoadDotOperandWithLdmatrix(type, shared))
    return loadDotOperandWithLdmatrix(b, loc, base, shared, type, elementType, structType);
  return loadDotOperandByElement(b, loc, base, shared, type, elementType, structType);
}

struct ConvertToDotOperand : OpConversionPattern<tkgpu::ConvertLayoutOp> {
  ConvertToDotOperand(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(tkgpu::ConvertLayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto blocked = dyn_cast_or_null<tkgpu::BlockedEncodingAttr>(srcType.getEncoding());
    if (!blocked || srcType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "not blocked -> dot_operand");
    Type elementType = getTypeConverter()->convertType(srcType.getElementType());
    if (!elementType || !elementType.isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "element type");
    const unsigned bytes = elementType.getIntOrFloatBitWidth() / 8;
    ArrayRef<int64_t> shape = srcType.getShape();
    tkgpu::SharedEncodingAttr shared =
        tkgpu::getDotOperandSharedEncoding(dstType, blocked.getOrder());
    if (!tkgpu::canLoadDotOperandFromShared(dstType, shared))
      return rewriter.notifyMatchFailure(op, "not a dot operand");
    const unsigned inner = blocked.getOrder()[0], outer = 1 - inner;
    Location loc = op.getLoc();
    auto c = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    Value base = getSharedAddress(rewriter, loc, getScratchOffset(op), elementType, c(0));

    // Stores: each thread's elements, in vectors of up to a chunk along `inner`.
    emitBarrier(rewriter, loc);
    SmallVector<Value> elements = unpackElements(rewriter, loc, adaptor.getSrc());
    const unsigned width = unsigned(std::min<int64_t>(
        {int64_t(blocked.getSizePerThread()[inner]), int64_t(shared.getVec()), shape[inner]}));
    SmallVector<SmallVector<Value>> indices = emitIndices(rewriter, loc, srcType, width);
    auto ptrType = LLVM::LLVMPointerType::get(getContext(), 3);
    for (unsigned e = 0; e < elements.size(); e += width) {
      Value offset =
          emitSharedOffset(rewriter, loc, shared, shape, indices[e][outer], indices[e][inner]);
      Value address = LLVM::GEPOp::create(rewriter, loc, ptrType, elementType, base, offset);
      if (width == 1) {
        LLVM::StoreOp::create(rewriter, loc, elements[e], address);
        continue;
      }
      auto vectorType = VectorType::get({int64_t(width)}, elementType);
      Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
      for (unsigned i = 0; i < width; ++i)
        vector = LLVM::InsertElementOp::create(rewriter, loc, vector, elements[e + i], c(i));
      LLVM::StoreOp::create(rewriter, loc, vector, address, /*alignment=*/width * bytes);
    }
    emitBarrier(rewriter, loc);

    Type structType = getTypeConverter()->convertType(dstType);
    rewriter.replaceOp(
        op, loadDotOperand(rewriter, loc, base, shared, dstType, elementType, structType));
    return success();
  }
};

/// tkgpu.local_load of a dot operand: ldmatrix from the tile. The tile was written before an
/// async_wait (whose barrier makes it visible), so no barrier here.
struct LocalLoadToDotOperand : OpConversionPattern<tkgpu::LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::LocalLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    tkgpu::MemDescType srcType = op.getSrc().getType();
    RankedTensorType dstType = op.getType();
    Type elementType = getTypeConverter()->convertType(srcType.getElementType());
    if (!elementType || !elementType.isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "element type");
    if (!tkgpu::canLoadDotOperandFromShared(dstType, srcType.getEncoding()))
      return op.emitOpError() << "cannot read " << dstType << " from " << srcType;
    Type structType = getTypeConverter()->convertType(dstType);
    rewriter.replaceOp(op, loadDotOperand(rewriter, op.getLoc(), adaptor.getSrc(),
                                          srcType.getEncoding(), dstType, elementType, structType));
    return success();
  }
};

} // namespace

void mlir::tk::populateConvertToDotOperandPatterns(TkToLLVMTypeConverter &converter,
                                                   RewritePatternSet &patterns) {
  patterns.add<ConvertToDotOperand, LocalLoadToDotOperand>(converter, patterns.getContext());
}

/// @file tkgpu.convert_layout from a blocked layout to a `#tkgpu.dot_operand` layout, through
/// shared memory in a swizzled layout and `ldmatrix` (the generic path in ViewOpToLLVM.cpp
/// reads one element at a time, with bank conflicts).
///
/// Stored layout. The tensor goes to shared memory row-major along the blocked layout's fastest
/// dimension (`inner`, so that each thread stores its contiguous elements as one vector): R rows
/// of C elements. Each row is cut into 16-byte chunks of `vec` elements; chunk q of row r is
/// stored at chunk q ^ ((r / perPhase) % maxPhase), with perPhase = max(1, 128 / rowBytes) rows
/// per 128-byte line and maxPhase = min(chunks per row, 8 / perPhase). ldmatrix reads eight
/// rows' chunk q at once; the swizzle puts those eight 16-byte reads in eight distinct groups
/// of four banks, so they are free of conflicts, and so are the stores of whole chunks.
///
/// Loads. An mma operand register is one 8 x 8 matrix of 16-bit units: 8 rows along M (a) or
/// N (b) by 16 bytes along K (a 4 kWidth elements). Where K is the stored rows' inner dimension
/// `ldmatrix` hands each lane exactly the register mma.sync wants (row lane / 4, the unit pair at
/// lane % 4); where M (or N) is inner, `ldmatrix.trans` does for 16-bit types (others take the
/// generic path). `.x4` loads four matrices, each lane giving one row address (lanes 8i to
/// 8i + 7: matrix i's rows): a's four registers of a 16 x 16 tile, or b's two registers of two
/// tiles (the next K tile, else the next N tile).
///
/// Barriers as in every user of the scratch: before the stores (earlier readers are done) and
/// before the loads.
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

/// The swizzled row-major layout of an R x C tile in shared memory.
struct SwizzledTile {
  int64_t rows, cols; // R, C (C contiguous)
  unsigned vec;       // elements per 16-byte chunk
  unsigned perPhase, maxPhase;

  SwizzledTile(int64_t rows, int64_t cols, unsigned elementBytes)
      : rows(rows), cols(cols), vec(16 / elementBytes) {
    const int64_t rowBytes = cols * elementBytes;
    const int64_t chunks = std::max<int64_t>(1, cols / vec);
    perPhase = unsigned(std::max<int64_t>(1, 128 / rowBytes));
    maxPhase = unsigned(std::max<int64_t>(1, std::min<int64_t>(chunks, 8 / perPhase)));
  }

  /// The element offset of (row, col), as IR (i32 values).
  Value offset(OpBuilder &b, Location loc, Value row, Value col) const {
    auto c = [&](int64_t v) { return i32Constant(b, loc, v); };
    auto shr = [&](Value x, unsigned bits) {
      return bits ? LLVM::LShrOp::create(b, loc, x, c(bits)).getResult() : x;
    };
    Value phase = LLVM::AndOp::create(b, loc, shr(row, llvm::Log2_32(perPhase)), c(maxPhase - 1));
    Value chunk = LLVM::XOrOp::create(b, loc, shr(col, llvm::Log2_32(vec)), phase);
    Value within = LLVM::AndOp::create(b, loc, col, c(vec - 1));
    Value rowStart = LLVM::MulOp::create(b, loc, row, c(cols));
    Value chunkStart = LLVM::ShlOp::create(b, loc, chunk, c(llvm::Log2_32(vec)));
    return LLVM::AddOp::create(b, loc, rowStart, LLVM::AddOp::create(b, loc, chunkStart, within));
  }
};

/// One 8 x 8 matrix (of 16-bit units) a thread loads: its first row along M or N (`nonK`,
/// relative to the warp's tile origin) and its first column along K, and the struct elements
/// its register becomes.
struct Matrix {
  int64_t nonK, k;
  unsigned firstElement;
};

bool isPowerOf2(int64_t x) { return x > 0 && llvm::isPowerOf2_64(uint64_t(x)); }

struct ConvertToDotOperand : OpConversionPattern<tkgpu::ConvertLayoutOp> {
  ConvertToDotOperand(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(tkgpu::ConvertLayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto blocked = dyn_cast_or_null<tkgpu::BlockedEncodingAttr>(srcType.getEncoding());
    auto operand = dyn_cast_or_null<tkgpu::DotOperandEncodingAttr>(dstType.getEncoding());
    if (!blocked || !operand || srcType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "not blocked -> dot_operand");
    Type elementType = getTypeConverter()->convertType(srcType.getElementType());
    if (!elementType || !elementType.isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "element type");
    const unsigned bytes = elementType.getIntOrFloatBitWidth() / 8;
    const unsigned kWidth = operand.getKWidth();
    if (bytes * kWidth != 4)
      return rewriter.notifyMatchFailure(op, "kWidth elements do not fill a 32-bit register");
    const unsigned kDim = operand.getOpIdx() == 0 ? 1 : 0, nonKDim = 1 - kDim;
    const unsigned inner = blocked.getOrder()[0], outer = 1 - inner;
    const bool trans = inner != kDim;
    if (trans && bytes != 2)
      return rewriter.notifyMatchFailure(op, "ldmatrix.trans moves 16-bit units only");
    ArrayRef<int64_t> shape = srcType.getShape();
    const unsigned vec = 16 / bytes;
    if (!isPowerOf2(shape[0]) || !isPowerOf2(shape[1]) || shape[inner] < vec || shape[nonKDim] < 8)
      return rewriter.notifyMatchFailure(op, "shape too small or not a power of two");

    Location loc = op.getLoc();
    auto c = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    SwizzledTile tile(shape[outer], shape[inner], bytes);
    const unsigned scratch = getScratchOffset(op);

    // Stores: each thread's elements, in vectors of up to a chunk along `inner`.
    emitBarrier(rewriter, loc);
    SmallVector<Value> elements = unpackElements(rewriter, loc, adaptor.getSrc());
    SmallVector<SmallVector<Value>> indices = emitIndices(rewriter, loc, srcType);
    const unsigned width = unsigned(std::min<int64_t>(
        {int64_t(blocked.getSizePerThread()[inner]), int64_t(vec), shape[inner]}));
    for (unsigned e = 0; e < elements.size(); e += width) {
      Value offset = tile.offset(rewriter, loc, indices[e][outer], indices[e][inner]);
      Value address = getSharedAddress(rewriter, loc, scratch, elementType, offset);
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
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value warp = LLVM::UDivOp::create(rewriter, loc, tid, c(32));
    Value lane = LLVM::URemOp::create(rewriter, loc, tid, c(32));
    Value warpNonK =
        operand.getOpIdx() == 0
            ? LLVM::URemOp::create(rewriter, loc,
                                   LLVM::UDivOp::create(rewriter, loc, warp, c(warpsN)), c(warpsM))
                  .getResult()
            : LLVM::URemOp::create(rewriter, loc, warp, c(warpsN)).getResult();
    Value origin = LLVM::MulOp::create(rewriter, loc, warpNonK, c(tileNonK));
    Value laneRow = LLVM::AndOp::create(rewriter, loc, lane, c(7));
    Value matrixIndex = LLVM::LShrOp::create(rewriter, loc, lane, c(3)); // 0..3
    const bool wraps = tileNonK * warpsNonK > shape[nonKDim];

    Type i32 = rewriter.getI32Type();
    SmallVector<Value> results(getTotalElemsPerThreadOf(dstType));
    for (ArrayRef<Matrix> group : groups) {
      const unsigned count = unsigned(group.size());
      // The lane's matrix: its constants selected by lane / 8 (lanes past the count repeat).
      auto pick = [&](auto field) {
        Value value = c(field(group[0]));
        for (unsigned i = 1; i < 4; ++i) {
          Value is =
              LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, matrixIndex, c(i));
          value = LLVM::SelectOp::create(rewriter, loc, is, c(field(group[i % count])), value);
        }
        return value;
      };
      Value nonK =
          LLVM::AddOp::create(rewriter, loc, origin, pick([](const Matrix &m) { return m.nonK; }));
      if (wraps)
        nonK = LLVM::AndOp::create(rewriter, loc, nonK, c(shape[nonKDim] - 1));
      Value k = pick([](const Matrix &m) { return m.k; });
      Value row = LLVM::AddOp::create(rewriter, loc, trans ? k : nonK, laneRow);
      Value col = trans ? nonK : k;
      Value address = getSharedAddress(rewriter, loc, scratch, elementType,
                                       tile.offset(rewriter, loc, row, col));
      std::string text = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(count) +
                         (trans ? ".trans" : "") + ".shared.b16 {";
      std::string constraints;
      for (unsigned i = 0; i < count; ++i) {
        text += (i ? ", $" : "$") + std::to_string(i);
        constraints += "=r,";
      }
      text += "}, [$" + std::to_string(count) + "];";
      constraints += "r";
      Value address32 = LLVM::PtrToIntOp::create(rewriter, loc, i32, address);
      Type resultType = count == 1 ? Type(i32)
                                   : Type(LLVM::LLVMStructType::getLiteral(
                                         rewriter.getContext(), SmallVector<Type>(count, i32)));
      auto load = LLVM::InlineAsmOp::create(
          rewriter, loc, resultType, ValueRange{address32}, text, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(rewriter.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
      SmallVector<Value> registers = count == 1 ? SmallVector<Value>{load.getResult(0)}
                                                : unpackElements(rewriter, loc, load.getResult(0));
      for (auto [m, reg] : llvm::zip_equal(group, registers)) {
        if (kWidth == 1) {
          results[m.firstElement] = LLVM::BitcastOp::create(rewriter, loc, elementType, reg);
          continue;
        }
        auto vectorType = VectorType::get({int64_t(kWidth)}, elementType);
        Value vector = LLVM::BitcastOp::create(rewriter, loc, vectorType, reg);
        for (unsigned v = 0; v < kWidth; ++v)
          results[m.firstElement + v] = LLVM::ExtractElementOp::create(rewriter, loc, vector, c(v));
      }
    }
    Type structType = getTypeConverter()->convertType(dstType);
    rewriter.replaceOp(op, packElements(rewriter, loc, structType, results));
    return success();
  }

  static unsigned getTotalElemsPerThreadOf(RankedTensorType type) {
    return tkgpu::getTotalElemsPerThread(type.getEncoding(), type.getShape());
  }
};

} // namespace

void mlir::tk::populateConvertToDotOperandPatterns(TkToLLVMTypeConverter &converter,
                                                   RewritePatternSet &patterns) {
  patterns.add<ConvertToDotOperand>(converter, patterns.getContext());
}

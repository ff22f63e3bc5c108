/// @file WGMMADotOpToLLVM.cpp
/// tkgpu.warp_group_dot and tkgpu.warp_group_dot_wait -> `wgmma.mma_async` (sm_90a).
///
/// Each warpgroup (four consecutive warps: warpsPerCTA[0] is a multiple of 4 in a version-3
/// `#tkgpu.mma` layout) computes its 64-row slices of the result: for each rep of the layout's
/// grid tile and each K step of 32 bytes, one `wgmma.mma_async.sync.aligned.m64n<n>k<k>`, whose
/// accumulator registers are the rep's elements of the thread, in the layout's order (the
/// instruction's fragment order: pieces of 8 columns left to right, four elements each).
///
///   inputs      accumulator   instruction                              transposes
///   f16, bf16   f32           m64nNk16 .f32.{f16,bf16}.{f16,bf16}       a and b
///   f16         f16           m64nNk16 .f16.f16.f16 (f16x2 registers)   a and b
///   f32 (tf32)  f32           m64nNk8  .f32.tf32.tf32                   neither
///   i8          i32           m64nNk32 .s32.s8.s8                       neither
///   fp8         f32           m64nNk32 .f32.{e4m3,e5m2}.{e4m3,e5m2}     neither
///
/// Matrix descriptors. Both operands are tiles in the layouts getWgmmaSharedEncoding gives: rows
/// of S = 32, 64 or 128 bytes along the contiguous dimension (panels of S bytes where the
/// contiguous dimension is longer), the 16-byte chunks of a row swizzled by its address bits. A
/// descriptor holds the start address of an instruction's sub-tile, its swizzle, and two
/// strides (bytes, divided by 16): between groups of 8 rows (SBO, 8 S for every layout here)
/// and between panels (LBO, used by tiles whose contiguous dimension is M or N, "MN-major";
/// ignored for K-major ones, where an instruction's 32 bytes of K lie in one panel). The start
/// of the sub-tile at (row r, column c) of the tile is panel(c) * rows * S + r * S +
/// (c mod panel) * element bytes; the hardware applies the swizzle to the resulting addresses,
/// which is why tiles start at multiples of 1024 bytes (kTileAlignment).
///
/// The descriptor of each tile is computed once, from the thread's warpgroup (its warp index
/// read from lane 0, so that ptxas keeps the arithmetic in uniform registers); an instruction's
/// is the tile's plus the sub-tile's offset / 16.
///
/// Ordering. `wgmma.fence` comes before the first instruction of each op, `wgmma.commit_group`
/// after the last: an op is one group. The fence takes every register the instructions read
/// (accumulators, a in registers) as operands, so that all of them are written before it; a
/// product from a zero constant reads no accumulator (scale-d 0 on its first K step). A synchronous
/// op then waits for it (`wgmma.wait_group 0`); an asynchronous one leaves that to
/// tkgpu.warp_group_dot_wait. The waits pass the accumulators through the inline assembly, so that
/// LLVM cannot move their uses above the wait. Every statement has side effects: none may move
/// across the barriers that make the tiles ready.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/TypeConverter.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// A tile's geometry for matrix descriptors: its rows and columns along the layout's order, the
/// swizzle, and whether its contiguous dimension is K.
struct TileGeometry {
  int64_t rows = 0;
  unsigned swizzleBytes = 0, elementBytes = 0;
  bool kMajor = false;

  /// Bytes from the tile's start to the sub-tile at (row, col) (layout coordinates), before
  /// the swizzle.
  int64_t byteOffset(int64_t row, int64_t col) const {
    const int64_t panelWidth = swizzleBytes / elementBytes;
    return (col / panelWidth) * rows * swizzleBytes + row * swizzleBytes +
           (col % panelWidth) * elementBytes;
  }

  /// The descriptor's constant part: strides and swizzle mode (1: 128 B, 2: 64 B, 3: 32 B).
  uint64_t constantBits() const {
    const uint64_t sbo = 8 * swizzleBytes;
    const uint64_t lbo = kMajor ? 16 : uint64_t(rows) * swizzleBytes;
    const uint64_t mode = swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : 3;
    return ((lbo >> 4) & 0x3FFF) << 16 | ((sbo >> 4) & 0x3FFF) << 32 | mode << 62;
  }
};

/// The geometry of operand tile `type` (a: M x K, `kDim` 1; b: K x N, `kDim` 0).
TileGeometry getGeometry(tkgpu::MemDescType type, unsigned kDim) {
  tkgpu::SharedEncodingAttr layout = type.getEncoding();
  TileGeometry geometry;
  geometry.rows = type.getShape()[layout.getOrder()[1]];
  geometry.swizzleBytes = tkgpu::getWgmmaSwizzleBytes(layout);
  geometry.elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  geometry.kMajor = layout.getOrder()[0] == kDim;
  return geometry;
}

/// The descriptor (i64) of the tile at `base` (an `!llvm.ptr<3>`): the start address field is
/// (address mod 2^18) / 16.
Value emitDescriptor(OpBuilder &b, Location loc, Value base, const TileGeometry &geometry) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value address = LLVM::PtrToIntOp::create(b, loc, i32, base);
  Value field =
      LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, address, i32Constant(b, loc, 4)),
                          i32Constant(b, loc, 0x3FFF));
  Value wide = LLVM::ZExtOp::create(b, loc, i64, field);
  Value bits =
      LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(int64_t(geometry.constantBits())));
  return LLVM::OrOp::create(b, loc, wide, bits);
}

/// The descriptor of the sub-tile `offset` bytes (a multiple of 16) into the tile of
/// descriptor `tile`: its start address field plus offset / 16. Shared memory ends below 2^18
/// bytes, so the field does not overflow into the strides: one 64-bit add of a constant, which
/// ptxas keeps in uniform registers, as the tile's descriptor.
Value offsetDescriptor(OpBuilder &b, Location loc, Value tile, int64_t offset) {
  assert(offset % 16 == 0 && "wgmma sub-tiles start at 16-byte boundaries");
  if (offset == 0)
    return tile;
  return LLVM::AddOp::create(
      b, loc, tile,
      LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(offset / 16)));
}

/// Whether `value` is a constant tensor of zeros (+0.0 or 0): a product that starts from it
/// needs neither the zeros in registers nor their addition, only scale-d 0 on its first K step.
bool isZeroTensor(Value value) {
  DenseElementsAttr constant;
  if (!matchPattern(value, m_Constant(&constant)) || !constant.isSplat())
    return false;
  Attribute element = constant.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(element))
    return f.getValue().isPosZero();
  if (auto i = dyn_cast<IntegerAttr>(element))
    return i.getValue().isZero();
  return false;
}

/// The two-element vector type a register of 16-bit elements packs.
Type f16x2Of(Type element) { return VectorType::get({2}, element); }

/// `wgmma.wait_group pendings`, passing `values` (f32, i32 or f16 scalars) through: the
/// returned values are the ones to use after the wait.
SmallVector<Value> emitWait(OpBuilder &b, Location loc, ArrayRef<Value> values, unsigned pendings) {
  std::string text = "wgmma.wait_group.sync.aligned " + std::to_string(pendings) + ";";
  if (values.empty()) {
    emitAsm(b, loc, text, "", {}, Type(), 0, /*sideEffects=*/true);
    return {};
  }
  // One statement per run of a type: inline assembly returns one struct type.
  SmallVector<Value> results;
  std::string constraints;
  for (size_t i = 0; i < values.size(); ++i)
    constraints += (i ? ",=" : "=") + std::string(values[i].getType().isF32()   ? "f"
                                                  : values[i].getType().isF16() ? "h"
                                                                                : "r");
  for (size_t i = 0; i < values.size(); ++i)
    constraints += "," + std::to_string(i);
  bool sameType = llvm::all_of(values, [&](Value v) { return v.getType() == values[0].getType(); });
  if (!sameType) { // never built by this file: accumulators of one op share a type
    for (Value v : values)
      llvm::append_range(results, emitWait(b, loc, v, pendings));
    return results;
  }
  return emitAsm(b, loc, text, constraints, values, values[0].getType(), values.size(),
                 /*sideEffects=*/true);
}

struct WarpGroupDotOpConversion : OpConversionPattern<tkgpu::WarpGroupDotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::WarpGroupDotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    auto mma = cast<tkgpu::MmaEncodingAttr>(type.getEncoding());
    // a: a tile (a descriptor per instruction) or registers (four per instruction).
    auto aTile = dyn_cast<tkgpu::MemDescType>(op.getA().getType());
    const bool aInRegisters = !aTile;
    tkgpu::MemDescType bTile = op.getB().getType();
    Type in = bTile.getElementType(), acc = type.getElementType();
    const int64_t m = type.getDimSize(0), n = type.getDimSize(1), k = bTile.getShape()[0];
    const unsigned warpsM = mma.getWarpsPerCTA()[0], warpsN = mma.getWarpsPerCTA()[1];
    const unsigned instrN = mma.getInstrShape()[1];
    if (m % (16 * warpsM) != 0 || n % (int64_t(instrN) * warpsN) != 0)
      return op.emitError() << "tkgpu.warp_group_dot: " << type
                            << " does not fill its layout's warp grid";
    const unsigned bits = in.getIntOrFloatBitWidth(), instrK = 256 / bits;
    std::string types;
    bool transposable = true;
    if (in.isF16() && acc.isF16())
      types = ".f16.f16.f16";
    else if (in.isF16() && acc.isF32())
      types = ".f32.f16.f16";
    else if (in.isBF16() && acc.isF32())
      types = ".f32.bf16.bf16";
    else if (in.isF32() && acc.isF32())
      types = ".f32.tf32.tf32", transposable = false;
    else if (in.isSignlessInteger(8) && acc.isSignlessInteger(32))
      types = ".s32.s8.s8", transposable = false;
    else if (aTile && isFloat8(aTile.getElementType()) && isFloat8(in) && acc.isF32())
      types = ".f32." + fp8PtxType(aTile.getElementType()) + "." + fp8PtxType(in),
      transposable = false;
    else
      return op.emitError() << "tkgpu.warp_group_dot does not support " << in << " inputs with "
                            << acc << " accumulators";
    if (aInRegisters && bits != 16)
      return op.emitError() << "tkgpu.warp_group_dot: a register operand a of " << in
                            << " is not lowered (16-bit types only)";
    TileGeometry aGeometry = aTile ? getGeometry(aTile, 1) : TileGeometry{};
    TileGeometry bGeometry = getGeometry(bTile, 0);
    if (aInRegisters)
      aGeometry.kMajor = true; // for the checks below: registers need no transpose
    if (!transposable && (!aGeometry.kMajor || !bGeometry.kMajor))
      return op.emitError() << "tkgpu.warp_group_dot: " << in
                            << " tiles must have K contiguous (wgmma transposes 16-bit tiles "
                               "only)";
    if (k % instrK != 0)
      return op.emitError() << "tkgpu.warp_group_dot: K = " << k << " is not a multiple of "
                            << instrK;

    // The instruction and its operands: accumulators (tied), a (a descriptor, or four registers
    // of two elements), b's descriptor, scale-d. With a in registers there is no transpose
    // immediate for a.
    const bool packed = acc.isF16(); // two f16 accumulators per register
    const unsigned accRegs = packed ? instrN / 4 : instrN / 2;
    const unsigned aRegs = aInRegisters ? 4 : 1;
    const std::string aText =
        aInRegisters ? asmOperands(accRegs, 4) : "$" + std::to_string(accRegs);
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(accRegs + aRegs + 1) +
                       ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(instrN) + "k" +
                       std::to_string(instrK) + types + " " + asmOperands(0, accRegs) + ", " +
                       aText + ", $" + std::to_string(accRegs + aRegs) + ", p";
    if (!in.isSignlessInteger(8))
      text += ", 1, 1";
    if (transposable && !aInRegisters)
      text += std::string(", ") + (aGeometry.kMajor ? "0" : "1");
    if (transposable)
      text += std::string(", ") + (bGeometry.kMajor ? "0" : "1");
    text += ";\n}";
    const std::string regConstraint = acc.isF32() ? "f" : "r";
    std::string constraints;
    for (unsigned i = 0; i < accRegs; ++i)
      constraints += (i ? ",=" : "=") + regConstraint;
    constraints += aInRegisters ? ",r,r,r,r,l,r" : ",l,l,r";
    for (unsigned i = 0; i < accRegs; ++i)
      constraints += "," + std::to_string(i);
    Type regType = acc.isF32() ? Type(rewriter.getF32Type()) : Type(rewriter.getI32Type());

    // The thread's warpgroup: its first row, and its column of the warp grid.
    Value warp = emitWarpIndex(rewriter, loc);
    Value warpM = LLVM::URemOp::create(rewriter, loc, warp, i32Constant(rewriter, loc, warpsM));
    Value warpN = LLVM::URemOp::create(
        rewriter, loc,
        LLVM::UDivOp::create(rewriter, loc, warp, i32Constant(rewriter, loc, warpsM)),
        i32Constant(rewriter, loc, warpsN));
    Value groupRow = LLVM::MulOp::create(
        rewriter, loc, LLVM::UDivOp::create(rewriter, loc, warpM, i32Constant(rewriter, loc, 4)),
        i32Constant(rewriter, loc, 64));
    Value groupCol = LLVM::MulOp::create(rewriter, loc, warpN, i32Constant(rewriter, loc, instrN));
    // The warpgroup's sub-tiles start at its row of a (col of b): a byte offset per tile,
    // linear in the row because the first row of each warpgroup is a multiple of 8.
    auto rowBase = [&](Value base, const TileGeometry &g, Value start, bool startIsRow) {
      // Along the tile's rows (non-contiguous dimension): start * S; along its columns
      // (contiguous): panel(start) * rows * S + (start mod panel) * element bytes.
      Type ptr = base.getType();
      Value bytes;
      if (startIsRow) {
        bytes =
            LLVM::MulOp::create(rewriter, loc, start, i32Constant(rewriter, loc, g.swizzleBytes));
      } else {
        const int64_t panelWidth = g.swizzleBytes / g.elementBytes;
        Value panel =
            LLVM::UDivOp::create(rewriter, loc, start, i32Constant(rewriter, loc, panelWidth));
        Value within =
            LLVM::URemOp::create(rewriter, loc, start, i32Constant(rewriter, loc, panelWidth));
        bytes = LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc, panel,
                                i32Constant(rewriter, loc, g.rows * g.swizzleBytes)),
            LLVM::MulOp::create(rewriter, loc, within, i32Constant(rewriter, loc, g.elementBytes)));
      }
      return LLVM::GEPOp::create(rewriter, loc, ptr, rewriter.getI8Type(), base, ValueRange{bytes});
    };
    // a: rows are M when K-major; b: rows are N when K-major.
    Value aBase =
        aInRegisters ? Value() : rowBase(adaptor.getA(), aGeometry, groupRow, aGeometry.kMajor);
    Value bBase = rowBase(adaptor.getB(), bGeometry, groupCol, /*startIsRow=*/bGeometry.kMajor);
    // The descriptors of the warpgroup's sub-tiles; each instruction's is one of these plus a
    // constant.
    Value aDesc = aInRegisters ? Value() : emitDescriptor(rewriter, loc, aBase, aGeometry);
    Value bDesc = emitDescriptor(rewriter, loc, bBase, bGeometry);
    auto aOffset = [&](int64_t row, int64_t kk) {
      return aGeometry.kMajor ? aGeometry.byteOffset(row, kk) : aGeometry.byteOffset(kk, row);
    };
    auto bOffset = [&](int64_t col, int64_t kk) {
      return bGeometry.kMajor ? bGeometry.byteOffset(col, kk) : bGeometry.byteOffset(kk, col);
    };

    // Accumulators, rep by rep.
    const int64_t repM = m / (16 * warpsM), repN = n / (int64_t(instrN) * warpsN);
    SmallVector<Value> elements = unpackElements(rewriter, loc, adaptor.getC());
    const int64_t perRep = instrN / 2;
    if (int64_t(elements.size()) != repM * repN * perRep)
      return op.emitError() << "tkgpu.warp_group_dot: the accumulator holds " << elements.size()
                            << " elements per thread, its layout " << repM * repN * perRep;
    Type f16x2 = VectorType::get({2}, rewriter.getF16Type());
    SmallVector<SmallVector<Value>> reps;
    for (int64_t r = 0; r < repM * repN; ++r) {
      ArrayRef<Value> rep = ArrayRef<Value>(elements).slice(r * perRep, perRep);
      SmallVector<Value> regs;
      if (!packed) {
        regs.assign(rep.begin(), rep.end());
      } else {
        for (int64_t i = 0; i < perRep; i += 2) {
          Value pair = LLVM::UndefOp::create(rewriter, loc, f16x2);
          for (int j = 0; j < 2; ++j)
            pair = LLVM::InsertElementOp::create(rewriter, loc, pair, rep[i + j],
                                                 i32Constant(rewriter, loc, j));
          regs.push_back(LLVM::BitcastOp::create(rewriter, loc, rewriter.getI32Type(), pair));
        }
      }
      reps.push_back(std::move(regs));
    }

    // a in registers (a #tkgpu.dot_operand of this layout, kWidth 2): for 64-row rep i and K
    // step kk, its elements (i repK + kk) 8 ... + 7, packed in pairs: the fragment's a0..a3.
    SmallVector<Value> aElements;
    if (aInRegisters)
      aElements = unpackElements(rewriter, loc, adaptor.getA());
    const int64_t repK = k / instrK;
    if (aInRegisters && int64_t(aElements.size()) != repM * repK * 8)
      return op.emitError() << "tkgpu.warp_group_dot: a holds " << aElements.size()
                            << " elements per thread, its layout " << repM * repK * 8;
    auto aOperands = [&](int64_t i, int64_t kk) -> SmallVector<Value> {
      if (!aInRegisters)
        return {offsetDescriptor(rewriter, loc, aDesc, aOffset(i * 16 * warpsM, kk))};
      SmallVector<Value> regs;
      const int64_t first = (i * repK + kk / instrK) * 8;
      for (int64_t r = 0; r < 4; ++r) {
        Value pair = LLVM::UndefOp::create(rewriter, loc, f16x2Of(aElements[0].getType()));
        for (int e = 0; e < 2; ++e)
          pair = LLVM::InsertElementOp::create(rewriter, loc, pair, aElements[first + 2 * r + e],
                                               i32Constant(rewriter, loc, e));
        regs.push_back(LLVM::BitcastOp::create(rewriter, loc, rewriter.getI32Type(), pair));
      }
      return regs;
    };

    // A product from zeros: its first K step ignores the accumulator registers (scale-d 0), so
    // they are left undefined rather than zeroed before every product (as in attention's Q Kᵀ).
    const bool fromZero = isZeroTensor(op.getC());
    Value undefined = LLVM::UndefOp::create(rewriter, loc, regType);
    if (fromZero)
      for (SmallVector<Value> &regs : reps)
        regs.assign(regs.size(), undefined);

    SmallVector<SmallVector<Value>> aRegisters;
    if (aInRegisters)
      for (int64_t i = 0; i < repM; ++i)
        for (int64_t kk = 0; kk < k; kk += instrK)
          aRegisters.push_back(aOperands(i, kk));
    Value one = i32Constant(rewriter, loc, 1);
    Value zero = i32Constant(rewriter, loc, 0);
    // Issues the instructions of K steps [begin, end) into `accs`, the first ignoring them when
    // `fresh`, as one committed group. Every register the instructions read is written before
    // the fence, which takes them as operands: ptxas orders the group after the fence only, not
    // after each of their writes (it would otherwise add a warpgroup.arrive before each
    // instruction whose a registers were packed just before it, as LLVM places each conversion
    // next to its use).
    auto issue = [&](SmallVector<SmallVector<Value>> &accs, int64_t begin, int64_t end,
                     bool fresh) {
      SmallVector<Value> written;
      for (ArrayRef<Value> regs : aRegisters)
        llvm::append_range(written, regs);
      if (!fresh)
        for (ArrayRef<Value> regs : accs)
          llvm::append_range(written, regs);
      if (written.empty()) {
        NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
      } else {
        std::string inputs;
        for (Value v : written)
          inputs += std::string(inputs.empty() ? "" : ",") + (v.getType().isF32() ? "f" : "r");
        emitAsm(rewriter, loc, "wgmma.fence.sync.aligned;", inputs, written, Type(), 0,
                /*sideEffects=*/true);
      }
      for (int64_t kk = begin; kk < end; kk += instrK)
        for (int64_t i = 0; i < repM; ++i)
          for (int64_t j = 0; j < repN; ++j) {
            Value bInstr =
                offsetDescriptor(rewriter, loc, bDesc, bOffset(j * int64_t(instrN) * warpsN, kk));
            SmallVector<Value> &regs = accs[i * repN + j];
            SmallVector<Value> operands =
                aInRegisters ? aRegisters[i * (k / instrK) + kk / instrK] : aOperands(i, kk);
            operands.append({bInstr, fresh && kk == begin ? zero : one});
            llvm::append_range(operands, regs);
            regs = emitAsm(rewriter, loc, text, constraints, operands, regType, accRegs,
                           /*sideEffects=*/true);
          }
      NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    };
    auto flatten = [](ArrayRef<SmallVector<Value>> accs) {
      SmallVector<Value> flat;
      for (ArrayRef<Value> regs : accs)
        llvm::append_range(flat, regs);
      return flat;
    };

    // max_num_imprecise_acc: the tensor cores add fp8 products with fewer bits than f32, so the
    // product is made in runs of at most that many K (whole instructions), each from zero,
    // waited for and added to the accumulator in f32. Otherwise one group; a synchronous
    // product waits for it: one statement for every register.
    SmallVector<Value> accumulators;
    std::optional<int32_t> imprecise = op.getMaxNumImpreciseAcc();
    if (imprecise && isFloat8(in) && acc.isF32()) {
      const int64_t run = std::clamp<int64_t>(llvm::alignTo(*imprecise, instrK), instrK, k);
      if (!fromZero)
        accumulators = flatten(reps);
      for (int64_t begin = 0; begin < k; begin += run) {
        SmallVector<SmallVector<Value>> partial(reps.size(),
                                                SmallVector<Value>(size_t(perRep), undefined));
        issue(partial, begin, std::min(begin + run, k), /*fresh=*/true);
        SmallVector<Value> sums = emitWait(rewriter, loc, flatten(partial), 0);
        if (accumulators.empty()) {
          accumulators = std::move(sums);
          continue;
        }
        for (auto [sum, part] : llvm::zip_equal(accumulators, sums))
          sum = LLVM::FAddOp::create(rewriter, loc, sum, part);
      }
    } else {
      issue(reps, 0, k, fromZero);
      accumulators = flatten(reps);
      if (!op.getIsAsync())
        accumulators = emitWait(rewriter, loc, accumulators, 0);
    }
    SmallVector<Value> results;
    for (Value reg : accumulators) {
      if (!packed) {
        results.push_back(reg);
        continue;
      }
      Value pair = LLVM::BitcastOp::create(rewriter, loc, f16x2, reg);
      for (int j = 0; j < 2; ++j)
        results.push_back(
            LLVM::ExtractElementOp::create(rewriter, loc, pair, i32Constant(rewriter, loc, j)));
    }
    rewriter.replaceOp(op,
                       packElements(rewriter, loc, getTypeConverter()->convertType(type), results));
    return success();
  }
};

struct WarpGroupDotWaitOpConversion : OpConversionPattern<tkgpu::WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tkgpu::WarpGroupDotWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Every element of every operand goes through one wait statement per operand.
    SmallVector<Value> results;
    bool waited = false;
    for (auto [operand, converted] : llvm::zip(op.getInputs(), adaptor.getInputs())) {
      if (!isa<LLVM::LLVMStructType>(converted.getType())) {
        results.push_back(converted);
        continue;
      }
      SmallVector<Value> elements = unpackElements(rewriter, loc, converted);
      elements = emitWait(rewriter, loc, elements, op.getPendings());
      waited = true;
      results.push_back(packElements(rewriter, loc, converted.getType(), elements));
    }
    if (!waited)
      emitWait(rewriter, loc, {}, op.getPendings());
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::tk::populateWGMMADotOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<WarpGroupDotOpConversion, WarpGroupDotWaitOpConversion>(converter,
                                                                       patterns.getContext());
}

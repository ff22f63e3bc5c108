/// @file Utility.cpp
/// The helpers every tk-to-llvm op family uses (Utility.h): packing a thread's elements
/// into the struct a tensor becomes, the tensor indices of those elements, and the scratch in
/// shared memory.
#include "Conversion/TkToLLVM/Utility.h"

#include "Analysis/Allocation.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// Marks the casts packElements makes, so that no other unrealized cast is taken for one.
constexpr llvm::StringLiteral kPackedAttr = "tk.packed";

/// The cast packElements made of `packed`'s members, if `packed` is one.
UnrealizedConversionCastOp packedCast(Value packed) {
  auto cast = packed.getDefiningOp<UnrealizedConversionCastOp>();
  return cast && cast->hasAttr(kPackedAttr) ? cast : UnrealizedConversionCastOp();
}

Value insertChain(OpBuilder &builder, Location loc, Type structType, ValueRange elements) {
  Value packed = LLVM::UndefOp::create(builder, loc, structType);
  for (auto [i, element] : llvm::enumerate(elements))
    packed = LLVM::InsertValueOp::create(builder, loc, packed, element, i);
  return packed;
}

} // namespace

SmallVector<Value> mlir::tk::unpackElements(OpBuilder &builder, Location loc, Value packed) {
  // A struct the lowering of its producer just packed: its members as they were given. Most
  // operands are that, and so a tensor's elements pass from op to op without an insertvalue
  // or extractvalue between them (thousands of ops on a tensor-core kernel).
  if (UnrealizedConversionCastOp cast = packedCast(packed))
    return SmallVector<Value>(cast.getInputs());
  auto structType = cast<LLVM::LLVMStructType>(packed.getType());
  const unsigned count = structType.getBody().size();
  // Most structs were just packed by the lowering of the op that defines them: take the members
  // from that chain of insertvalue ops (the last insert at a position wins) instead of writing
  // an extractvalue per member for canonicalize to fold again. On a tensor-core kernel that is
  // thousands of ops neither made nor folded.
  SmallVector<Value> elements(count);
  unsigned found = 0;
  for (auto insert = packed.getDefiningOp<LLVM::InsertValueOp>(); insert && found < count;
       insert = insert.getContainer().getDefiningOp<LLVM::InsertValueOp>()) {
    ArrayRef<int64_t> position = insert.getPosition();
    if (position.size() == 1 && !elements[position[0]]) {
      elements[position[0]] = insert.getValue();
      ++found;
    }
  }
  for (unsigned i = 0; i < count; ++i)
    if (!elements[i])
      elements[i] = LLVM::ExtractValueOp::create(builder, loc, packed, i);
  return elements;
}

Value mlir::tk::packElements(OpBuilder &builder, Location loc, Type structType,
                             ValueRange elements) {
  auto cast = UnrealizedConversionCastOp::create(builder, loc, structType, elements);
  cast->setAttr(kPackedAttr, builder.getUnitAttr());
  return cast.getResult(0);
}

bool mlir::tk::isPackedStruct(Operation *op) {
  return isa<UnrealizedConversionCastOp>(op) && op->hasAttr(kPackedAttr);
}

void mlir::tk::materializePackedStructs(Operation *root, bool keepUnread) {
  SmallVector<UnrealizedConversionCastOp> casts;
  root->walk([&](UnrealizedConversionCastOp cast) {
    if (cast->hasAttr(kPackedAttr))
      casts.push_back(cast);
  });
  OpBuilder builder(root->getContext());
  for (UnrealizedConversionCastOp cast : casts) {
    if (keepUnread || !cast->use_empty()) {
      builder.setInsertionPoint(cast);
      cast.getResult(0).replaceAllUsesWith(
          insertChain(builder, cast.getLoc(), cast.getResult(0).getType(), cast.getInputs()));
    }
    cast.erase();
  }
}

Value mlir::tk::emitWarpIndex(OpBuilder &b, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value warp = LLVM::UDivOp::create(b, loc, tid, i32Constant(b, loc, 32));
  return NVVM::ShflOp::create(b, loc, b.getI32Type(), i32Constant(b, loc, -1), warp,
                              i32Constant(b, loc, 0), i32Constant(b, loc, 0x1f),
                              NVVM::ShflKind::idx, UnitAttr());
}

Value mlir::tk::i32Constant(OpBuilder &builder, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                  builder.getI32IntegerAttr(static_cast<int32_t>(value)));
}

namespace {

/// `linear` split into coordinates over `sizes`, order[0] fastest, as IR. `linear` is less
/// than the product of `sizes` (lanes: 32; warps: the layout's), so the slowest dimension takes
/// the quotient as it is.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear, ArrayRef<unsigned> sizes,
                               ArrayRef<unsigned> order) {
  SmallVector<Value> coords(sizes.size());
  for (auto [i, d] : llvm::enumerate(order)) {
    if (sizes[d] == 1) {
      coords[d] = i32Constant(b, loc, 0);
      continue;
    }
    if (i + 1 == order.size()) {
      coords[d] = linear;
      break;
    }
    Value size = i32Constant(b, loc, sizes[d]);
    coords[d] = LLVM::URemOp::create(b, loc, linear, size);
    linear = LLVM::UDivOp::create(b, loc, linear, size);
  }
  return coords;
}

/// `value * factor` and `value + addend`, without the identities (the LLVM dialect's
/// canonicalizer does not fold them; LLVM would, but the IR reads better without them).
Value mulConst(OpBuilder &b, Location loc, Value value, int64_t factor) {
  return factor == 1 ? value : LLVM::MulOp::create(b, loc, value, i32Constant(b, loc, factor));
}

} // namespace

// Layout.h's index of a thread's element is a thread-independent part (the index for thread 0)
// plus the thread's offset (warp and lane coordinates times sizePerThread), modulo the shape
// where the layout's tile is larger than the tensor (the tensor wraps around). So the IR holds
// one offset per dimension and a constant per element.
Value mlir::tk::addConst(OpBuilder &b, Location loc, Value value, int64_t addend) {
  return addend == 0 ? value : LLVM::AddOp::create(b, loc, value, i32Constant(b, loc, addend));
}

namespace {

/// Each element's index (every `stride`-th element's; the others' left empty): the thread's
/// `offsets` plus the element's index in thread 0, modulo the shape along the dimensions that
/// `wraps`.
SmallVector<SmallVector<Value>> emitElementIndices(OpBuilder &b, Location loc, Attribute layout,
                                                   ArrayRef<int64_t> shape, ArrayRef<Value> offsets,
                                                   ArrayRef<bool> wraps, unsigned stride) {
  const unsigned count = tkgpu::getTotalElemsPerThread(layout, shape);
  SmallVector<SmallVector<Value>> indices(count);
  for (unsigned elem = 0; elem < count; elem += stride) {
    SmallVector<int64_t> base = tkgpu::getElementIndex(layout, shape, 0, 0, elem);
    SmallVector<Value> index;
    for (unsigned d = 0; d < shape.size(); ++d) {
      Value i = addConst(b, loc, offsets[d], base[d]);
      if (wraps[d])
        i = LLVM::URemOp::create(b, loc, i, i32Constant(b, loc, shape[d]));
      index.push_back(i);
    }
    indices[elem] = std::move(index);
  }
  return indices;
}

/// The thread's offset per dimension in an mma or dot_operand layout (their attributes give
/// the mapping): the warp's tile origin plus the lane's row (l / 4) and column (l % 4) in it;
/// whether each dimension wraps around (the CTA's tile is larger than the tensor; never K).
void emitTensorCoreOffsets(OpBuilder &b, Location loc, Attribute layout, ArrayRef<int64_t> shape,
                           Value warp, Value lane, SmallVector<Value> &offsets,
                           SmallVector<bool> &wraps) {
  auto mma = dyn_cast<tkgpu::MmaEncodingAttr>(layout);
  auto op = dyn_cast<tkgpu::DotOperandEncodingAttr>(layout);
  if (op)
    mma = op.getParent();
  const unsigned warpsM = mma.getWarpsPerCTA()[0], warpsN = mma.getWarpsPerCTA()[1];
  const int64_t n = mma.getInstrShape()[1];
  // Version 2 numbers warps along N first, version 3 down M first (MmaEncodingAttr).
  const unsigned fastest = mma.isHopper() ? warpsM : warpsN;
  Value inner = fastest == 1 ? i32Constant(b, loc, 0)
                             : LLVM::URemOp::create(b, loc, warp, i32Constant(b, loc, fastest));
  Value outer = fastest == warpsM * warpsN
                    ? i32Constant(b, loc, 0)
                    : LLVM::URemOp::create(
                          b, loc, LLVM::UDivOp::create(b, loc, warp, i32Constant(b, loc, fastest)),
                          i32Constant(b, loc, warpsM * warpsN / fastest));
  Value warpM = mma.isHopper() ? inner : outer, warpN = mma.isHopper() ? outer : inner;
  Value g = LLVM::UDivOp::create(b, loc, lane, i32Constant(b, loc, 4));
  Value t = LLVM::URemOp::create(b, loc, lane, i32Constant(b, loc, 4));
  Value row = LLVM::AddOp::create(b, loc, mulConst(b, loc, warpM, 16), g);
  const bool wrapsM = 16 * int64_t(warpsM) > shape[0], wrapsN = n * int64_t(warpsN) > shape[1];
  if (!op) {
    offsets = {row,
               LLVM::AddOp::create(b, loc, mulConst(b, loc, warpN, n), mulConst(b, loc, t, 2))};
    wraps = {wrapsM, wrapsN};
  } else if (op.getOpIdx() == 0) {
    offsets = {row, mulConst(b, loc, t, op.getKWidth())};
    wraps = {wrapsM, false};
  } else {
    offsets = {mulConst(b, loc, t, op.getKWidth()),
               LLVM::AddOp::create(b, loc, mulConst(b, loc, warpN, 8), g)};
    wraps = {false, wrapsN};
  }
}

} // namespace

void mlir::tk::emitThreadOffsets(OpBuilder &b, Location loc, RankedTensorType type,
                                 SmallVector<Value> &offsets, SmallVector<bool> &wraps) {
  offsets.clear(), wraps.clear();
  Attribute layout = type.getEncoding();
  ArrayRef<int64_t> shape = type.getShape();
  const unsigned threadsPerWarp = 32;
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value warp = LLVM::UDivOp::create(b, loc, tid, i32Constant(b, loc, threadsPerWarp));
  Value lane = LLVM::URemOp::create(b, loc, tid, i32Constant(b, loc, threadsPerWarp));
  auto blocked = dyn_cast<tkgpu::BlockedEncodingAttr>(layout);
  auto slice = dyn_cast<tkgpu::SliceEncodingAttr>(layout);
  SmallVector<int64_t> fullShape(shape);
  if (slice)
    fullShape.insert(fullShape.begin() + slice.getDim(), 1);
  Attribute tensorCore = slice ? slice.getParent() : layout;
  if (tkgpu::isTensorCoreLayout(tensorCore)) {
    // A slice takes its parent's offsets without the sliced dimension.
    emitTensorCoreOffsets(b, loc, tensorCore, fullShape, warp, lane, offsets, wraps);
    if (slice) {
      offsets.erase(offsets.begin() + slice.getDim());
      wraps.erase(wraps.begin() + slice.getDim());
    }
    return;
  }
  if (slice)
    blocked = cast<tkgpu::BlockedEncodingAttr>(slice.getParent());
  SmallVector<Value> warpCoords =
      delinearize(b, loc, warp, blocked.getWarpsPerCTA(), blocked.getOrder());
  SmallVector<Value> laneCoords =
      delinearize(b, loc, lane, blocked.getThreadsPerWarp(), blocked.getOrder());

  // The offsets per dimension of the (parent) layout.
  for (unsigned d = 0; d < blocked.getRank(); ++d) {
    const int64_t size = blocked.getSizePerThread()[d];
    const int64_t lanes = blocked.getThreadsPerWarp()[d];
    Value thread =
        LLVM::AddOp::create(b, loc, mulConst(b, loc, warpCoords[d], lanes), laneCoords[d]);
    offsets.push_back(mulConst(b, loc, thread, size));
    wraps.push_back(size * lanes * blocked.getWarpsPerCTA()[d] > fullShape[d]);
  }
  if (slice) {
    offsets.erase(offsets.begin() + slice.getDim());
    wraps.erase(wraps.begin() + slice.getDim());
  }
}

SmallVector<SmallVector<Value>> mlir::tk::emitIndices(OpBuilder &b, Location loc,
                                                      RankedTensorType type, unsigned stride) {
  SmallVector<Value> offsets;
  SmallVector<bool> wraps;
  emitThreadOffsets(b, loc, type, offsets, wraps);
  return emitElementIndices(b, loc, type.getEncoding(), type.getShape(), offsets, wraps, stride);
}

namespace {
constexpr llvm::StringLiteral kSharedSymbol = "tk_shared";
} // namespace

void mlir::tk::declareSharedMemory(ModuleOp module) {
  // Tiles (explicit buffers) are placed at multiples of 1024 bytes from the array's start, and
  // wgmma's swizzles need them at multiples of 1024 in the address space too; TMA tiles at
  // multiples of 128.
  bool tiles = false, tma = false;
  module.walk([&](Operation *op) {
    tiles |= isa<tkgpu::LocalAllocOp>(op);
    tma |= getScratchAlignment(op) == kTmaAlignment;
  });
  OpBuilder b(module.getBodyRegion());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  const uint64_t alignment = tiles ? kTileAlignment : tma ? kTmaAlignment : kSharedAlignment;
  LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false, LLVM::Linkage::External,
                         kSharedSymbol, Attribute(), alignment, /*addrSpace=*/3);
}

std::string mlir::tk::asmOperands(unsigned first, unsigned count) {
  SmallVector<std::string> names;
  for (unsigned i = 0; i < count; ++i)
    names.push_back("$" + std::to_string(first + i));
  return "{" + llvm::join(names, ", ") + "}";
}

SmallVector<Value> mlir::tk::emitAsm(OpBuilder &b, Location loc, StringRef text,
                                     StringRef constraints, ValueRange operands, Type resultType,
                                     unsigned results, bool sideEffects) {
  Type type = results == 0   ? Type(LLVM::LLVMVoidType::get(b.getContext()))
              : results == 1 ? resultType
                             : Type(LLVM::LLVMStructType::getLiteral(
                                   b.getContext(), SmallVector<Type>(results, resultType)));
  auto op = LLVM::InlineAsmOp::create(
      b, loc, results == 0 ? TypeRange() : TypeRange(type), operands, text, constraints,
      sideEffects, /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
  if (results == 0)
    return {};
  if (results == 1)
    return {op.getResult(0)};
  return unpackElements(b, loc, op.getResult(0));
}

Value mlir::tk::getSharedBase(OpBuilder &b, Location loc) {
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3),
                                   kSharedSymbol);
}

Value mlir::tk::getSharedAddress(OpBuilder &b, Location loc, unsigned byteOffset, Type elementType,
                                 Value index) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = getSharedBase(b, loc);
  if (byteOffset)
    base = LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                               ArrayRef<LLVM::GEPArg>{int32_t(byteOffset)});
  return LLVM::GEPOp::create(b, loc, ptrType, elementType, base, ValueRange{index});
}

unsigned mlir::tk::getScratchOffset(Operation *op) {
  return unsigned(tkgpu::TkGPUDialect::getSharedOffset(op).value_or(0));
}

Value mlir::tk::emitSharedOffset(OpBuilder &b, Location loc, tkgpu::SharedEncodingAttr layout,
                                 ArrayRef<int64_t> tileShape, Value row, Value col) {
  auto c = [&](int64_t v) { return i32Constant(b, loc, v); };
  auto shr = [&](Value x, unsigned bits) {
    return bits ? LLVM::LShrOp::create(b, loc, x, c(bits)).getResult() : x;
  };
  const int64_t rows = tileShape[layout.getOrder()[1]], cols = tileShape[layout.getOrder()[0]];
  const unsigned panelWidth = layout.getPanelWidth();
  const bool panels = panelWidth != 0 && cols > panelWidth;
  Value start; // the row's start: in its panel, with panels
  if (panels) {
    Value panel = shr(col, llvm::Log2_32(panelWidth));
    col = LLVM::AndOp::create(b, loc, col, c(panelWidth - 1));
    start = LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, panel, c(rows * panelWidth)),
                                LLVM::MulOp::create(b, loc, row, c(panelWidth)));
  } else {
    start = LLVM::MulOp::create(b, loc, row, c(cols + layout.getPadding()));
  }
  if (layout.getMaxPhase() == 1) // not swizzled
    return LLVM::AddOp::create(b, loc, start, col);
  const unsigned vec = layout.getVec();
  Value phase = LLVM::AndOp::create(b, loc, shr(row, llvm::Log2_32(layout.getPerPhase())),
                                    c(layout.getMaxPhase() - 1));
  Value chunk = LLVM::XOrOp::create(b, loc, shr(col, llvm::Log2_32(vec)), phase);
  Value within = LLVM::AndOp::create(b, loc, col, c(vec - 1));
  Value chunkStart = LLVM::ShlOp::create(b, loc, chunk, c(llvm::Log2_32(vec)));
  return LLVM::AddOp::create(b, loc, start, LLVM::AddOp::create(b, loc, chunkStart, within));
}

void mlir::tk::emitBarrier(OpBuilder &b, Location loc) { NVVM::Barrier0Op::create(b, loc); }

void mlir::tk::emitAsyncProxyFence(OpBuilder &b, Location loc) {
  emitAsm(b, loc, "fence.proxy.async.shared::cta;", "", {}, Type(), 0, /*sideEffects=*/true);
}

void mlir::tk::emitScratchStore(OpBuilder &b, Location loc, unsigned byteOffset, Value index,
                                Value value) {
  if (value.getType().isInteger(1))
    value = LLVM::ZExtOp::create(b, loc, b.getI8Type(), value);
  LLVM::StoreOp::create(b, loc, value,
                        getSharedAddress(b, loc, byteOffset, value.getType(), index));
}

Value mlir::tk::emitScratchLoad(OpBuilder &b, Location loc, unsigned byteOffset, Value index,
                                Type type) {
  Type stored = type.isInteger(1) ? b.getI8Type() : type;
  Value value =
      LLVM::LoadOp::create(b, loc, stored, getSharedAddress(b, loc, byteOffset, stored, index));
  return type.isInteger(1) ? LLVM::TruncOp::create(b, loc, type, value) : value;
}

SmallVector<Value> mlir::tk::elementsOf(OpBuilder &b, Location loc, Value value) {
  if (!value)
    return {};
  if (isa<LLVM::LLVMStructType>(value.getType()))
    return unpackElements(b, loc, value);
  return {value};
}

SmallVector<Value> mlir::tk::emitFirstCopyPredicates(OpBuilder &b, Location loc, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) { // a scalar: every thread holds it; thread 0's is the first
    Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
    return {LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid, i32Constant(b, loc, 0))};
  }
  Attribute layout = tensor.getEncoding();
  if (!layout || !tkgpu::hasDuplicates(layout, tensor.getShape()))
    return {};
  auto slice = dyn_cast<tkgpu::SliceEncodingAttr>(layout);
  Attribute parent = slice ? slice.getParent() : layout;
  if (!isa<tkgpu::BlockedEncodingAttr, tkgpu::MmaEncodingAttr>(parent))
    return {};
  // In the parent's terms (a slice's removed dimension has size 1 there): element e of a thread
  // is at (thread offset + thread 0's index of e) modulo the shape along the dimensions that wrap,
  // and the slot whose sum is below the shape everywhere holds the first copy.
  SmallVector<int64_t> shape(tensor.getShape());
  if (slice)
    shape.insert(shape.begin() + slice.getDim(), 1);
  SmallVector<Value> offsets;
  SmallVector<bool> wraps;
  emitThreadOffsets(b, loc, RankedTensorType::get(shape, tensor.getElementType(), parent), offsets,
                    wraps);
  const unsigned count = tkgpu::getTotalElemsPerThread(layout, tensor.getShape());
  SmallVector<Value> first(count);
  for (unsigned e = 0; e < count; ++e) {
    SmallVector<int64_t> base = tkgpu::getElementIndex(layout, tensor.getShape(), 0, 0, e);
    if (slice)
      base.insert(base.begin() + slice.getDim(), 0);
    for (unsigned d = 0; d < shape.size(); ++d) {
      if (!wraps[d])
        continue;
      Value below = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult,
                                         addConst(b, loc, offsets[d], base[d]),
                                         i32Constant(b, loc, shape[d]));
      first[e] = first[e] ? LLVM::AndOp::create(b, loc, first[e], below).getResult() : below;
    }
  }
  return first;
}

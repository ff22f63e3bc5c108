/// @file Ops.cpp
/// Verifiers of the tk ops. The ODS constraints (TkOps.td) check each operand's kind;
/// these check how operands, properties and results fit together, with messages that say what
/// the IR must look like instead.
#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tk;

#define GET_OP_CLASSES
#include "Dialect/Tk/IR/TkOps.cpp.inc"

namespace {

/// A value's shape: a tensor's dimensions; none for a scalar.
ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

/// `element` in `shape`: the scalar itself when `isTensor` is false.
Type typeOf(bool isTensor, ArrayRef<int64_t> shape, Type element) {
  return isTensor ? Type(RankedTensorType::get(shape, element)) : element;
}

/// `element` in the shape of `like` (a scalar when `like` is one).
Type withShapeOf(Type like, Type element) {
  return typeOf(isa<RankedTensorType>(like), shapeOf(like), element);
}

/// Both scalars, or tensors of one shape.
bool sameShape(Type a, Type b) {
  return isa<RankedTensorType>(a) == isa<RankedTensorType>(b) && shapeOf(a) == shapeOf(b);
}

/// Same shape and element type; tensor encodings (layouts, added by later passes) may differ.
bool matches(Type actual, Type expected) {
  return sameShape(actual, expected) &&
         getElementTypeOrSelf(actual) == getElementTypeOrSelf(expected);
}

/// The pointee type of a pointer or of a block of pointers (checked by ODS).
Type pointeeOf(Type ptrLike) {
  return cast<PointerType>(getElementTypeOrSelf(ptrLike)).getPointeeType();
}

LogicalResult verifyGridAxis(Operation *op, IntegerAttr axis) {
  if (axis.getInt() < 0 || axis.getInt() > 2)
    return op->emitOpError() << "axis must be 0, 1 or 2 (the grid has three dimensions), got "
                             << axis.getInt();
  return success();
}

LogicalResult verifyMask(Operation *op, Value ptr, Value mask) {
  if (!mask)
    return success();
  Type expected = withShapeOf(ptr.getType(), IntegerType::get(op->getContext(), 1));
  if (!matches(mask.getType(), expected))
    return op->emitOpError() << "mask must be " << expected << " (one i1 per pointer), got "
                             << mask.getType();
  return success();
}

/// Operands of tk.reduce / tk.scan: at least one, all of one shape, `axis` within their rank.
LogicalResult verifyCombineOperands(Operation *op, ValueRange srcs, int64_t axis) {
  if (srcs.empty())
    return op->emitOpError() << "needs at least one operand";
  Type first = srcs.front().getType();
  for (auto [i, src] : llvm::enumerate(srcs))
    if (shapeOf(src.getType()) != shapeOf(first))
      return op->emitOpError() << "operands must have one shape: operand " << i << " is "
                               << src.getType() << ", operand 0 is " << first;
  const auto rank = int64_t(shapeOf(first).size());
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << "axis " << axis << " is out of range for operands of rank " << rank
                             << " (0 <= axis < " << rank << ")";
  if (op->getNumResults() != srcs.size())
    return op->emitOpError() << "has " << op->getNumResults() << " results for " << srcs.size()
                             << " operands; it returns one result per operand";
  return success();
}

/// The combine region of tk.reduce / tk.scan: 2N scalar arguments (N left values, then N right
/// values) ending in its return op with N scalars, each of its operand's element type.
template <class ReturnOp>
LogicalResult verifyCombineRegion(Operation *op, Region &region, ValueRange srcs) {
  Block &block = region.front();
  const size_t n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError() << "the combine region takes " << 2 * n << " scalar arguments (" << n
                             << " left values, then " << n << " right values), got "
                             << block.getNumArguments();
  for (auto [k, arg] : llvm::enumerate(block.getArguments())) {
    Type expected = getElementTypeOrSelf(srcs[k % n].getType());
    if (arg.getType() != expected)
      return op->emitOpError() << "combine argument " << k << " must be " << expected
                               << " (the element type of operand " << k % n << "), got "
                               << arg.getType();
  }
  // MLIR has checked that the block ends in a terminator, and ours check their parent op; this
  // catches other dialects' parentless terminators.
  auto ret = dyn_cast<ReturnOp>(block.back());
  if (!ret)
    return op->emitOpError() << "the combine region must end in '" << ReturnOp::getOperationName()
                             << "'";
  if (ret->getNumOperands() != n)
    return ret.emitOpError() << "returns " << ret->getNumOperands() << " values; the combine "
                             << "region returns " << n << ", one per operand";
  for (auto [i, value] : llvm::enumerate(ret->getOperands())) {
    Type expected = getElementTypeOrSelf(srcs[i].getType());
    if (value.getType() != expected)
      return ret.emitOpError() << "value " << i << " must be " << expected
                               << " (the element type of operand " << i << "), got "
                               << value.getType();
  }
  return success();
}

} // namespace

LogicalResult GetProgramIdOp::verify() { return verifyGridAxis(*this, getAxisAttr()); }

LogicalResult GetNumProgramsOp::verify() { return verifyGridAxis(*this, getAxisAttr()); }

LogicalResult MakeRangeOp::verify() {
  const int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  if (end <= start)
    return emitOpError() << "end (" << end << ") must be greater than start (" << start << ")";
  const int64_t n = end - start;
  if (!llvm::isPowerOf2_64(uint64_t(n)))
    return emitOpError() << "the range holds end - start = " << n
                         << " values, which is not a power of two";
  if (getType().getDimSize(0) != n)
    return emitOpError() << "result must hold end - start = " << n << " values, got " << getType();
  return success();
}

LogicalResult SplatOp::verify() {
  if (getType().getElementType() != getSrc().getType())
    return emitOpError() << "result must be a block of the operand's type " << getSrc().getType()
                         << ", got " << getType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType(), result = getType();
  if (src.getElementType() != result.getElementType())
    return emitOpError() << "result element type must be the operand's, " << src.getElementType()
                         << ", got " << result.getElementType();
  if (src.getRank() != result.getRank())
    return emitOpError() << "keeps the rank: the operand has rank " << src.getRank()
                         << ", the result " << result.getRank()
                         << " (add dimensions with tk.expand_dims or tk.reshape first)";
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (src.getDimSize(d) != 1 && src.getDimSize(d) != result.getDimSize(d))
      return emitOpError() << "dimension " << d << " of the operand is " << src.getDimSize(d)
                           << "; it must be 1 or the result's, " << result.getDimSize(d);
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  Type src = getSrc().getType();
  const int64_t axis = getAxisAttr().getInt();
  const auto rank = int64_t(shapeOf(src).size());
  if (axis < 0 || axis > rank)
    return emitOpError() << "axis " << axis << " is out of range for an operand of rank " << rank
                         << " (0 <= axis <= " << rank << ")";
  SmallVector<int64_t> shape(shapeOf(src));
  shape.insert(shape.begin() + axis, 1);
  Type expected = typeOf(true, shape, getElementTypeOrSelf(src));
  if (!matches(getType(), expected))
    return emitOpError() << "result must be " << expected
                         << " (the operand with a dimension of size 1 at axis " << axis << "), got "
                         << getType();
  return success();
}

LogicalResult ReshapeOp::verify() {
  Type src = getSrc().getType();
  if (getElementTypeOrSelf(src) != getType().getElementType())
    return emitOpError() << "result element type must be the operand's, "
                         << getElementTypeOrSelf(src) << ", got " << getType().getElementType();
  const int64_t in = ShapedType::getNumElements(shapeOf(src));
  if (in != getType().getNumElements())
    return emitOpError() << "keeps the number of elements: the operand holds " << in
                         << ", the result " << getType().getNumElements();
  return success();
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType();
  ArrayRef<int32_t> order = getOrder();
  SmallVector<bool> seen(src.getRank(), false);
  bool permutation = int64_t(order.size()) == src.getRank();
  for (int32_t d : order) {
    permutation = permutation && d >= 0 && d < src.getRank() && !seen[size_t(d)];
    if (permutation)
      seen[size_t(d)] = true;
  }
  if (!permutation)
    return emitOpError() << "order must be a permutation of 0 .. " << src.getRank() - 1
                         << " (one entry per dimension of the operand), got " << getOrderAttr();
  SmallVector<int64_t> shape;
  for (int32_t d : order)
    shape.push_back(src.getDimSize(d));
  Type expected = typeOf(true, shape, src.getElementType());
  if (!matches(getType(), expected))
    return emitOpError() << "result must be " << expected
                         << " (result dimension d is operand dimension order[d]), got "
                         << getType();
  return success();
}

LogicalResult JoinOp::verify() {
  Type lhs = getLhs().getType();
  if (getRhs().getType() != lhs)
    return emitOpError() << "operands must have one type, got " << lhs << " and "
                         << getRhs().getType();
  SmallVector<int64_t> shape(shapeOf(lhs));
  shape.push_back(2);
  Type expected = typeOf(true, shape, getElementTypeOrSelf(lhs));
  if (!matches(getType(), expected))
    return emitOpError() << "result must be " << expected
                         << " (the operands' shape with a last dimension of 2), got " << getType();
  return success();
}

LogicalResult SplitOp::verify() {
  RankedTensorType src = getSrc().getType();
  if (src.getShape().back() != 2)
    return emitOpError() << "the operand's last dimension must be 2, got " << src;
  Type expected = typeOf(src.getRank() > 1, src.getShape().drop_back(), src.getElementType());
  for (Type result : getResultTypes())
    if (!matches(result, expected))
      return emitOpError() << "results must be " << expected
                           << " (the operand without its last dimension), got " << result;
  return success();
}

LogicalResult CatOp::verify() {
  RankedTensorType lhs = getLhs().getType();
  if (!matches(getRhs().getType(), lhs))
    return emitOpError() << "operands must have one shape and element type, got " << lhs << " and "
                         << getRhs().getType();
  SmallVector<int64_t> shape(lhs.getShape());
  shape[0] *= 2;
  Type expected = typeOf(true, shape, lhs.getElementType());
  if (!matches(getType(), expected))
    return emitOpError() << "result must be " << expected
                         << " (the operands stacked along dimension 0), got " << getType();
  return success();
}

LogicalResult FlipOp::verify() {
  RankedTensorType src = getSrc().getType();
  const auto axis = int32_t(getAxis());
  if (axis < 0 || axis >= src.getRank())
    return emitOpError() << "axis must be a dimension of the operand (0 .. " << src.getRank() - 1
                         << "), got " << axis;
  if (!matches(getType(), src))
    return emitOpError() << "result must have the operand's type " << src << ", got " << getType();
  return success();
}

LogicalResult GatherOp::verify() {
  RankedTensorType src = getSrc().getType();
  auto indices = dyn_cast<RankedTensorType>(getIndices().getType());
  const auto axis = int32_t(getAxis());
  if (axis < 0 || axis >= src.getRank())
    return emitOpError() << "axis must be a dimension of the operand (0 .. " << src.getRank() - 1
                         << "), got " << axis;
  if (!indices || indices.getRank() != src.getRank())
    return emitOpError() << "indices must be a block of the operand's rank " << src.getRank()
                         << ", got " << getIndices().getType();
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && indices.getDimSize(d) != src.getDimSize(d))
      return emitOpError() << "indices must have the operand's shape except along axis " << axis
                           << ": the operand is " << src << ", the indices " << indices;
  Type expected = typeOf(true, indices.getShape(), src.getElementType());
  if (!matches(getType(), expected))
    return emitOpError() << "result must be " << expected
                         << " (the indices' shape, the operand's element type), got " << getType();
  return success();
}

LogicalResult AddPtrOp::verify() {
  Type ptr = getPtr().getType();
  if (!sameShape(ptr, getOffset().getType()))
    return emitOpError() << "offsets must have the pointers' shape: the pointers are " << ptr
                         << ", the offsets " << getOffset().getType();
  if (getType() != ptr)
    return emitOpError() << "result must have the pointers' type " << ptr << ", got " << getType();
  return success();
}

// Folders and canonicalization. Shape ops of a splat are splats: of a constant, a constant; of a
// tk.splat, a tk.splat of its scalar (so that broadcasts of scalars cost nothing later).

namespace {

/// `attr` (a scalar constant or a splat constant) as a splat constant of `type`; null otherwise.
Attribute splatAs(Attribute attr, Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || isa<PointerType>(shaped.getElementType()))
    return {};
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(attr))
    return SplatElementsAttr::get(shaped, splat.getSplatValue<Attribute>());
  if (isa_and_nonnull<IntegerAttr, FloatAttr>(attr))
    return SplatElementsAttr::get(shaped, attr);
  return {};
}

/// A shape op of a tk.splat -> a tk.splat of the same scalar.
template <class ShapeOp> LogicalResult splatThrough(ShapeOp op, PatternRewriter &rewriter) {
  auto splat = op.getSrc().template getDefiningOp<SplatOp>();
  if (!splat)
    return failure();
  rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
  return success();
}

} // namespace

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) { return splatAs(adaptor.getSrc(), getType()); }

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return splatAs(adaptor.getSrc(), getType());
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return splatAs(adaptor.getSrc(), getType());
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return splatAs(adaptor.getSrc(), getType());
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int32_t> order = getOrder();
  bool identity = true;
  for (auto [d, from] : llvm::enumerate(order))
    identity = identity && int64_t(from) == int64_t(d);
  if (identity && getSrc().getType() == getType())
    return getSrc();
  return splatAs(adaptor.getSrc(), getType());
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  Attribute offset = adaptor.getOffset();
  bool zero = false;
  if (auto integer = dyn_cast_or_null<IntegerAttr>(offset))
    zero = integer.getValue().isZero();
  else if (auto splat = dyn_cast_or_null<SplatElementsAttr>(offset))
    zero = splat.getSplatValue<APInt>().isZero();
  return zero ? OpFoldResult(getPtr()) : OpFoldResult();
}

LogicalResult BroadcastOp::canonicalize(BroadcastOp op, PatternRewriter &rewriter) {
  return splatThrough(op, rewriter);
}
LogicalResult ExpandDimsOp::canonicalize(ExpandDimsOp op, PatternRewriter &rewriter) {
  return splatThrough(op, rewriter);
}
LogicalResult ReshapeOp::canonicalize(ReshapeOp op, PatternRewriter &rewriter) {
  return splatThrough(op, rewriter);
}
LogicalResult TransOp::canonicalize(TransOp op, PatternRewriter &rewriter) {
  return splatThrough(op, rewriter);
}

namespace {

/// A load's or store's PTX cache operator (one of `caches`) and L1 eviction priority.
LogicalResult verifyMemoryHints(Operation *op, std::optional<StringRef> cache,
                                std::optional<StringRef> evict,
                                std::initializer_list<StringRef> caches) {
  if (cache && !llvm::is_contained(caches, *cache)) {
    InFlightDiagnostic diag = op->emitOpError() << "cache must be one of ";
    llvm::interleave(caches, diag, [&](StringRef c) { diag << '"' << c << '"'; }, ", ");
    return diag << "; got \"" << *cache << "\"";
  }
  if (cache && evict)
    return op->emitOpError() << "has both a cache operator and an eviction priority: PTX's "
                                "ld and st take one or the other";
  if (evict && *evict != "evict_first" && *evict != "evict_last")
    return op->emitOpError() << "evict must be \"evict_first\" or \"evict_last\", got \"" << *evict
                             << "\"";
  return success();
}

} // namespace

LogicalResult LoadOp::verify() {
  Type ptr = getPtr().getType();
  Type expected = withShapeOf(ptr, pointeeOf(ptr));
  if (!matches(getType(), expected))
    return emitOpError() << "result must be " << expected
                         << " (the pointee type in the pointers' shape), got " << getType();
  if (failed(verifyMask(*this, getPtr(), getMask())))
    return failure();
  if (getOther() && !getMask())
    return emitOpError() << "has `other` but no `mask`: `other` fills the lanes the mask turns "
                            "off, so give a mask or drop `other`";
  if (getOther() && !matches(getOther().getType(), expected))
    return emitOpError() << "other must be " << expected << " (the loaded type), got "
                         << getOther().getType();
  if (getIsVolatile() && (getCache() || getEvict()))
    return emitOpError() << "is volatile: a volatile load takes no cache operator or eviction "
                            "priority";
  return verifyMemoryHints(*this, getCache(), getEvict(), {"ca", "cg", "cs", "cv"});
}

LogicalResult StoreOp::verify() {
  Type ptr = getPtr().getType();
  Type expected = withShapeOf(ptr, pointeeOf(ptr));
  if (!matches(getValue().getType(), expected))
    return emitOpError() << "value must be " << expected
                         << " (the pointee type in the pointers' shape), got "
                         << getValue().getType();
  if (failed(verifyMask(*this, getPtr(), getMask())))
    return failure();
  return verifyMemoryHints(*this, getCache(), getEvict(), {"wb", "cg", "cs", "wt"});
}

namespace {

/// `sem` and `scope` of an atomic op: Triton's names.
LogicalResult verifyAtomicOrdering(Operation *op, StringRef sem, StringRef scope) {
  if (!llvm::is_contained({"relaxed", "acquire", "release", "acq_rel"}, sem))
    return op->emitOpError() << "sem must be \"relaxed\", \"acquire\", \"release\" or "
                                "\"acq_rel\", got \""
                             << sem << "\"";
  if (!llvm::is_contained({"cta", "gpu", "sys"}, scope))
    return op->emitOpError() << "scope must be \"cta\", \"gpu\" or \"sys\", got \"" << scope
                             << "\"";
  return success();
}

bool isIntOfWidth(Type type, std::initializer_list<unsigned> widths) {
  return type.isInteger() && llvm::is_contained(widths, type.getIntOrFloatBitWidth());
}

/// Whether atomic_rmw `kind` applies to elements of `type`; `allowed` names the types it does.
bool atomicKindAccepts(StringRef kind, Type type, StringRef &allowed) {
  if (llvm::is_contained({"add", "and", "or", "xor", "max", "min", "umax", "umin"}, kind)) {
    allowed = "i32 or i64";
    return isIntOfWidth(type, {32, 64});
  }
  if (kind == "fadd") {
    allowed = "f16, bf16, f32 or f64";
    return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
  }
  if (kind == "fmax" || kind == "fmin") {
    allowed = "f32 or f64";
    return type.isF32() || type.isF64();
  }
  if (kind == "xchg") {
    allowed = "i32, i64, f32 or f64";
    return isIntOfWidth(type, {32, 64}) || type.isF32() || type.isF64();
  }
  allowed = "";
  return false;
}

} // namespace

LogicalResult AtomicRMWOp::verify() {
  Type ptr = getPtr().getType();
  Type expected = withShapeOf(ptr, pointeeOf(ptr));
  if (!matches(getVal().getType(), expected))
    return emitOpError() << "val must be " << expected
                         << " (the pointee type in the pointers' shape), got "
                         << getVal().getType();
  if (!matches(getType(), expected))
    return emitOpError() << "result must be " << expected
                         << " (the pointee type in the pointers' shape), got " << getType();
  StringRef allowed;
  if (!atomicKindAccepts(getKind(), pointeeOf(ptr), allowed)) {
    if (allowed.empty())
      return emitOpError() << "kind must be one of add, fadd, and, or, xor, max, min, umax, umin, "
                              "fmax, fmin, xchg; got \""
                           << getKind() << "\"";
    return emitOpError() << "kind \"" << getKind() << "\" applies to " << allowed
                         << " elements, not " << pointeeOf(ptr);
  }
  if (failed(verifyAtomicOrdering(*this, getSem(), getScope())))
    return failure();
  return verifyMask(*this, getPtr(), getMask());
}

LogicalResult AtomicCASOp::verify() {
  Type ptr = getPtr().getType();
  Type expected = withShapeOf(ptr, pointeeOf(ptr));
  for (auto [name, value] : {std::pair{"cmp", getCmp()}, {"val", getVal()}})
    if (!matches(value.getType(), expected))
      return emitOpError() << name << " must be " << expected
                           << " (the pointee type in the pointers' shape), got " << value.getType();
  if (!matches(getType(), expected))
    return emitOpError() << "result must be " << expected
                         << " (the pointee type in the pointers' shape), got " << getType();
  Type element = pointeeOf(ptr);
  if (!isIntOfWidth(element, {32, 64}) && !element.isF32() && !element.isF64())
    return emitOpError() << "compares and swaps i32, i64, f32 or f64 elements, not " << element;
  return verifyAtomicOrdering(*this, getSem(), getScope());
}

LogicalResult ReduceOp::verify() {
  const int64_t axis = getAxisAttr().getInt();
  if (failed(verifyCombineOperands(*this, getSrcs(), axis)))
    return failure();
  for (auto [i, src, result] : llvm::enumerate(getSrcs(), getResults())) {
    SmallVector<int64_t> shape(shapeOf(src.getType()));
    shape.erase(shape.begin() + axis);
    Type expected = typeOf(!shape.empty(), shape, getElementTypeOrSelf(src.getType()));
    if (!matches(result.getType(), expected))
      return emitOpError() << "result " << i << " must be " << expected << " (operand " << i
                           << " without dimension " << axis << "), got " << result.getType();
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion<ReduceReturnOp>(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyCombineOperands(*this, getSrcs(), getAxisAttr().getInt())))
    return failure();
  for (auto [i, src, result] : llvm::enumerate(getSrcs(), getResults()))
    if (!matches(result.getType(), src.getType()))
      return emitOpError() << "result " << i << " must be " << src.getType() << " (operand " << i
                           << "'s type: a scan keeps the shape), got " << result.getType();
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion<ScanReturnOp>(*this, getCombineOp(), getSrcs());
}

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), c = getC().getType();
  const int64_t rank = a.getRank();
  if ((rank != 2 && rank != 3) || b.getRank() != rank || c.getRank() != rank)
    return emitOpError() << "a, b and c must be 2-D blocks, or 3-D blocks with a batch "
                         << "dimension first, got " << a << ", " << b << ", " << c;
  // The dimensions of one product: rows and columns are the last two.
  const int64_t m = a.getDimSize(rank - 2), k = a.getDimSize(rank - 1), n = b.getDimSize(rank - 1);
  if (rank == 3 && (b.getDimSize(0) != a.getDimSize(0) || c.getDimSize(0) != a.getDimSize(0)))
    return emitOpError() << "a, b and c must have one batch size, got " << a << ", " << b << ", "
                         << c;
  if (b.getDimSize(rank - 2) != k)
    return emitOpError() << "inner dimensions differ: a is " << a << " (M x K), b is " << b
                         << " (K x N)";
  if (c.getDimSize(rank - 2) != m || c.getDimSize(rank - 1) != n)
    return emitOpError() << "the accumulator must be M x N = " << m << " x " << n << ", got " << c;
  if (getType() != c)
    return emitOpError() << "result must have the accumulator's type " << c << ", got "
                         << getType();
  if (m < 16 || n < 16 || k < 16)
    return emitOpError() << "every dimension must be at least 16 (tensor-core tiles), got a " << a
                         << " and b " << b;
  Type in = a.getElementType(), acc = c.getElementType();
  const bool fp8 = isFloat8(in) && isFloat8(b.getElementType());
  if (b.getElementType() != in && !fp8)
    return emitOpError() << "a and b must have one element type (or two fp8 types), got " << in
                         << " and " << b.getElementType();
  const bool supported = (in.isF16() && (acc.isF32() || acc.isF16())) ||
                         (in.isBF16() && acc.isF32()) || (in.isF32() && acc.isF32()) ||
                         (fp8 && (acc.isF32() || acc.isF16())) ||
                         (in.isSignlessInteger(8) && acc.isSignlessInteger(32));
  if (!supported)
    return emitOpError() << "unsupported input/accumulator types " << in << "/" << acc
                         << "; supported: f16/f32, f16/f16, bf16/f32, f32/f32, fp8/f32, "
                            "fp8/f16, i8/i32";
  const StringRef precision = getInputPrecision();
  if (precision != "tf32" && precision != "tf32x3" && precision != "ieee")
    return emitOpError() << "input_precision must be \"tf32\", \"tf32x3\" or \"ieee\", got \""
                         << precision << "\"";
  if (precision != "ieee" && !in.isF32())
    return emitOpError() << "input_precision \"" << precision
                         << "\" applies to f32 inputs; use \"ieee\" for " << in;
  if (std::optional<int32_t> limit = getMaxNumImpreciseAcc(); limit && *limit < 0)
    return emitOpError() << "max_num_imprecise_acc must not be negative, got " << *limit;
  return success();
}

LogicalResult BitcastOp::verify() {
  Type src = getSrc().getType(), result = getType();
  if (!isa<PointerType>(getElementTypeOrSelf(src)) ||
      !isa<PointerType>(getElementTypeOrSelf(result)))
    return emitOpError() << "casts pointers to pointers, got " << src << " to " << result
                         << "; bit-cast numbers with arith.bitcast";
  if (!sameShape(src, result))
    return emitOpError() << "keeps the shape, got " << src << " to " << result;
  return success();
}

LogicalResult PtrToIntOp::verify() {
  if (!sameShape(getSrc().getType(), getType()))
    return emitOpError() << "keeps the shape, got " << getSrc().getType() << " to " << getType();
  return success();
}

LogicalResult IntToPtrOp::verify() {
  if (!sameShape(getSrc().getType(), getType()))
    return emitOpError() << "keeps the shape, got " << getSrc().getType() << " to " << getType();
  return success();
}

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getType().getBlockType();
  if (getShape().size() != size_t(block.getRank()))
    return emitOpError() << "needs one size and one stride per dimension of its block " << block
                         << ", got " << getShape().size();
  if (getBase().getType().getPointeeType() != block.getElementType())
    return emitOpError() << "base " << getBase().getType() << " must point to the block's element "
                         << "type " << block.getElementType();
  // Blocks are rows of contiguous elements, as TMA copies them and every lowering assumes.
  if (!getStrides().empty() && !matchPattern(getStrides().back(), m_One()))
    return emitOpError() << "the last stride must be the constant 1 (rows of contiguous "
                            "elements); use a block pointer or plain pointers for other strides";
  return success();
}

/// A descriptor access's index count and block type against its descriptor's.
static LogicalResult verifyDescriptorAccess(Operation *op, TensorDescType desc, size_t indices,
                                            Type block) {
  if (indices != size_t(desc.getBlockType().getRank()))
    return op->emitOpError() << "needs one index per dimension of " << desc << ", got " << indices;
  auto tensor = dyn_cast<RankedTensorType>(block);
  RankedTensorType want = desc.getBlockType();
  if (!tensor || tensor.getShape() != want.getShape() ||
      tensor.getElementType() != want.getElementType()) // a layout may come with it
    return op->emitOpError() << "accesses blocks of " << want << ", got " << block;
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  if (getNanPadding() && !isa<FloatType>(getType().getElementType()))
    return emitOpError() << "pads with NaN only blocks of floats, got " << getType();
  return verifyDescriptorAccess(*this, getDesc().getType(), getIndices().size(), getType());
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyDescriptorAccess(*this, getDesc().getType(), getIndices().size(),
                                getSrc().getType());
}

LogicalResult DescriptorReduceOp::verify() {
  Type element = getDesc().getType().getBlockType().getElementType();
  StringRef allowed;
  if (getKind() == "xchg" || !atomicKindAccepts(getKind(), element, allowed)) {
    if (allowed.empty() || getKind() == "xchg")
      return emitOpError() << "kind must be one of add, fadd, and, or, xor, max, min, umax, umin, "
                              "fmax, fmin; got \""
                           << getKind() << "\"";
    return emitOpError() << "kind \"" << getKind() << "\" applies to " << allowed
                         << " elements, not " << element;
  }
  return verifyDescriptorAccess(*this, getDesc().getType(), getIndices().size(),
                                getSrc().getType());
}

/// A gather's or scatter's operands: a 2-D descriptor of [1, BN] blocks, N rows, and a block of
/// [N, BN] of the descriptor's element type.
static LogicalResult verifyDescriptorRows(Operation *op, TensorDescType desc, RankedTensorType rows,
                                          Type block) {
  RankedTensorType want = desc.getBlockType();
  if (want.getRank() != 2 || want.getDimSize(0) != 1)
    return op->emitOpError() << "needs a 2-D descriptor of blocks of one row, got " << desc;
  if (rows.getRank() != 1)
    return op->emitOpError() << "takes a 1-D block of row indices, got " << rows;
  auto tensor = dyn_cast<RankedTensorType>(block);
  auto rowsBlock =
      RankedTensorType::get({rows.getDimSize(0), want.getDimSize(1)}, want.getElementType());
  if (!tensor || tensor.getShape() != rowsBlock.getShape() ||
      tensor.getElementType() != rowsBlock.getElementType()) // a layout may come with it
    return op->emitOpError() << "accesses blocks of " << rowsBlock << " (one row per index), got "
                             << block;
  return success();
}

LogicalResult DescriptorGatherOp::verify() {
  if (getNanPadding() && !isa<FloatType>(getType().getElementType()))
    return emitOpError() << "pads with NaN only blocks of floats, got " << getType();
  return verifyDescriptorRows(*this, getDesc().getType(), getRows().getType(), getType());
}

LogicalResult DescriptorScatterOp::verify() {
  return verifyDescriptorRows(*this, getDesc().getType(), getRows().getType(), getSrc().getType());
}

LogicalResult MakeBlockPtrOp::verify() {
  RankedTensorType block = getType().getBlockType();
  const int64_t rank = block.getRank();
  if (int64_t(getShape().size()) != rank)
    return emitOpError() << "needs one size, one stride and one offset per dimension of its block "
                         << block << ", got " << getShape().size();
  if (getBase().getType().getPointeeType() != block.getElementType())
    return emitOpError() << "base " << getBase().getType() << " must point to the block's element "
                         << "type " << block.getElementType();
  SmallVector<bool> seen(size_t(rank), false);
  bool permutation = int64_t(getOrder().size()) == rank;
  for (int32_t d : getOrder()) {
    permutation = permutation && d >= 0 && d < rank && !seen[size_t(d)];
    if (permutation)
      seen[size_t(d)] = true;
  }
  if (!permutation)
    return emitOpError() << "order must be a permutation of the block's " << rank
                         << " dimensions, got [" << getOrder() << "]";
  return success();
}

LogicalResult AdvanceOp::verify() {
  if (int64_t(getOffsets().size()) != getPtr().getType().getBlockType().getRank())
    return emitOpError() << "needs one offset per dimension of " << getPtr().getType() << ", got "
                         << getOffsets().size();
  return success();
}

/// A block-pointer access's block type and boundary checks against its pointer's.
static LogicalResult verifyBlockAccess(Operation *op, BlockPtrType ptr, Type block,
                                       ArrayRef<int32_t> boundaryCheck) {
  RankedTensorType want = ptr.getBlockType();
  auto tensor = dyn_cast<RankedTensorType>(block);
  if (!tensor || tensor.getShape() != want.getShape() ||
      tensor.getElementType() != want.getElementType()) // a layout may come with it
    return op->emitOpError() << "accesses blocks of " << want << ", got " << block;
  SmallVector<bool> seen(size_t(want.getRank()), false);
  for (int32_t d : boundaryCheck) {
    if (d < 0 || d >= want.getRank() || seen[size_t(d)])
      return op->emitOpError() << "boundary_check must list distinct dimensions of the "
                               << want.getRank() << "-dimensional block, got [" << boundaryCheck
                               << "]";
    seen[size_t(d)] = true;
  }
  return success();
}

LogicalResult BlockLoadOp::verify() {
  if (getNanPadding() && !isa<FloatType>(getType().getElementType()))
    return emitOpError() << "pads with NaN only blocks of floats, got " << getType();
  return verifyBlockAccess(*this, getPtr().getType(), getType(), getBoundaryCheck());
}

LogicalResult BlockStoreOp::verify() {
  return verifyBlockAccess(*this, getPtr().getType(), getSrc().getType(), getBoundaryCheck());
}

namespace {

/// Blocks of one shape, or scalars: what an elementwise op with several operands takes.
LogicalResult verifyOneShape(Operation *op, TypeRange types, StringRef what) {
  std::optional<Type> tensor;
  for (Type type : types)
    if (isa<RankedTensorType>(type)) {
      if (tensor && shapeOf(*tensor) != shapeOf(type))
        return op->emitOpError() << what << " must have one shape, got " << *tensor << " and "
                                 << type;
      tensor = type;
    }
  return success();
}

} // namespace

LogicalResult ExternElementwiseOp::verify() {
  StringRef symbol = getSymbol();
  if (symbol.empty())
    return emitOpError() << "needs a symbol";
  // The symbol becomes a PTX declaration, whose name NVPTX prints unquoted.
  auto identifier = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; };
  if (llvm::isDigit(symbol.front()) || !llvm::all_of(symbol, identifier)) {
    std::string shown;
    llvm::raw_string_ostream os(shown);
    llvm::printEscapedString(symbol, os);
    return emitOpError() << "symbol must be a PTX identifier (letters, digits, '_' and '$', not "
                            "starting with a digit), got \""
                         << shown << "\"";
  }
  if (std::optional<StringRef> library = getLibrary(); library && library->empty())
    return emitOpError() << "library must name a file when present";
  return verifyOneShape(*this, getOperandTypes(), "operands");
}

static LogicalResult verifyAsmOperandReferences(InlineAsmOp op);

LogicalResult InlineAsmOp::verify() {
  if (getPack() < 1)
    return emitOpError() << "pack must be at least 1, got " << getPack();
  if (getNumResults() == 0)
    return emitOpError() << "needs at least one result";
  SmallVector<Type> types(getOperandTypes());
  llvm::append_range(types, getResultTypes());
  if (failed(verifyOneShape(*this, types, "operands and results")))
    return failure();
  const bool tensors = llvm::any_of(types, llvm::IsaPred<RankedTensorType>);
  if (tensors && !llvm::all_of(types, llvm::IsaPred<RankedTensorType>))
    return emitOpError() << "takes blocks of one shape or only scalars, not both";
  if (getPack() > 1) {
    for (Type type : types) {
      Type element = getElementTypeOrSelf(type);
      const unsigned bits = isa<PointerType>(element) ? 64 : element.getIntOrFloatBitWidth();
      if (bits * unsigned(getPack()) > 32 && bits < 32)
        return emitOpError() << "packs " << getPack() << " elements of " << element
                             << " per register: more than 32 bits";
    }
    int64_t elements = 1;
    for (int64_t d : shapeOf(types.front()))
      elements *= d;
    if (elements % getPack() != 0)
      return emitOpError() << "pack " << getPack() << " does not divide the " << elements
                           << " elements";
  }
  return verifyAsmOperandReferences(*this);
}

/// Each `$` of an inline asm string names an operand or is `$$`.
static LogicalResult verifyAsmOperandReferences(InlineAsmOp op) {
  // The operands the asm string may name: one per constraint, clobbers (`~{...}`) aside.
  SmallVector<StringRef> constraints;
  StringRef(op.getConstraints()).split(constraints, ',');
  const int64_t operands = llvm::count_if(
      constraints, [](StringRef c) { return !c.empty() && !c.trim().starts_with("~"); });
  // LLVM aborts on a `$` it cannot read; each must be `$$`, `$N` or `${N}` / `${N:modifier}`
  // with N below the number of operands.
  StringRef text = op.getAsmString();
  for (size_t at = text.find('$'); at != StringRef::npos; at = text.find('$', at)) {
    StringRef rest = text.drop_front(at + 1);
    if (rest.starts_with("$")) {
      at += 2;
      continue;
    }
    const bool braced = rest.consume_front("{");
    StringRef digits = rest.take_while(llvm::isDigit);
    unsigned number = 0;
    const bool named = !digits.empty() && !digits.getAsInteger(10, number);
    rest = rest.drop_front(digits.size());
    const bool closed =
        !braced || (rest.consume_front(":") ? rest.contains('}') : rest.starts_with("}"));
    if (!named || !closed || int64_t(number) >= operands)
      return op.emitOpError() << "asm_string refers to operands as $0 to $" << operands - 1
                              << " (or ${N}, or $$ for a dollar sign), got \""
                              << text.substr(at, named ? 1 + size_t(braced) + digits.size() : 3)
                              << "\"";
    at += 1 + digits.size();
  }
  return success();
}

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getSrcs().size())
    return emitOpError() << "needs one is_signed entry per operand: " << getSrcs().size()
                         << " operands, " << getIsSigned().size() << " entries";
  return verifyOneShape(*this, getOperandTypes(), "operands");
}

LogicalResult AssertOp::verify() {
  if (getIdAttr().getInt() < 0)
    return emitOpError() << "id must not be negative, got " << getIdAttr().getInt();
  return success();
}

LogicalResult DebugBarrierOp::verify() { return success(); }
LogicalResult GdcWaitOp::verify() { return success(); }
LogicalResult GdcLaunchDependentsOp::verify() { return success(); }

namespace {

LogicalResult verifyHint(Operation *op, ArrayRef<int32_t> values) {
  const size_t rank = std::max<size_t>(1, shapeOf(op->getOperand(0).getType()).size());
  if (values.size() != rank)
    return op->emitOpError() << "needs one value per dimension (" << rank << "), got "
                             << values.size();
  for (int32_t v : values)
    if (v < 1)
      return op->emitOpError() << "values must be positive, got " << v;
  return success();
}

} // namespace

LogicalResult MultipleOfOp::verify() { return verifyHint(*this, getValues()); }
LogicalResult MaxContiguousOp::verify() { return verifyHint(*this, getValues()); }
LogicalResult MaxConstancyOp::verify() { return verifyHint(*this, getValues()); }
LogicalResult AssumeOp::verify() { return success(); }

/// @file AxisInfo.cpp
/// The AxisInfo lattice, its transfer functions (one small function per op family) and the
/// vector-width query. Notation in comments: a run is an aligned group of consecutive elements
/// along one dimension; `lead` is the first value of a run; D is a divisibility (a power of two).
/// Index arithmetic is assumed not to overflow (as in Triton): a contiguous i32 run is taken to
/// stay contiguous through addi/muli; only the integer casts check for wrap-around.
#include "Analysis/AxisInfo.h"

#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

namespace mlir::tk {
namespace {

using DimVector = AxisInfo::DimVector;
constexpr int64_t kMaxDiv = AxisInfo::kMaxDivisibility;

/// The largest power of two dividing `n` (kMaxDiv for 0).
int64_t pow2Divisor(int64_t n) {
  if (n == 0)
    return kMaxDiv;
  uint64_t u = static_cast<uint64_t>(n);
  return static_cast<int64_t>(std::min<uint64_t>(u & (~u + 1), kMaxDiv));
}

int64_t gcd3(int64_t a, int64_t b, int64_t c) { return std::gcd(std::gcd(a, b), c); }

/// a * b for divisibilities, saturating at kMaxDiv (a multiple of 2^p times a multiple of 2^q is a
/// multiple of 2^(p+q); past the type's width that only says "0 modulo 2^width").
int64_t mulDiv(int64_t a, int64_t b) { return a > kMaxDiv / b ? kMaxDiv : a * b; }

bool isPow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/// The shape of a value; a scalar is one dimension of size 1.
DimVector shapeOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return DimVector(shaped.getShape());
  return {1};
}

Type elementTypeOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

/// Size in bytes of what a pointer (or block of pointers) points to; 1 for i1.
int64_t pointeeBytes(Type ptrLike) {
  auto ptr = cast<PointerType>(elementTypeOf(ptrLike));
  return std::max<int64_t>(1, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
}

unsigned bitWidthOf(Type type) {
  Type elem = elementTypeOf(type);
  if (elem.isIndex())
    return 64;
  return elem.getIntOrFloatBitWidth();
}

/// `v` wrapped to a `width`-bit integer as constants are kept: sign-extended, except i1 (0 or 1).
int64_t wrap(int64_t v, unsigned width) {
  APInt bits = APInt(64, static_cast<uint64_t>(v)).trunc(width);
  return width == 1 ? static_cast<int64_t>(bits.getZExtValue()) : bits.getSExtValue();
}

/// Divisibility of the values that start runs of length `runLen` in `info` along `d`, where one
/// step along the run moves by `unit` (1 for integers, the element size for pointers). When
/// `runLen` is a multiple of the operand's contiguity c, every such value starts one of the
/// operand's runs: D. Otherwise it is lead + k*c' with c' = gcd(runLen, c) steps, a multiple of
/// gcd(D, 2^v(runLen*unit), 2^v(c*unit)). This is what makes e.g. arange + arange (contiguity 1)
/// have divisibility 1, not the divisibility of 0.
int64_t leadDiv(const AxisInfo &info, int64_t d, int64_t runLen, int64_t unit = 1) {
  int64_t c = info.getContiguity(d), div = info.getDivisibility(d);
  if (runLen % c == 0)
    return div;
  return gcd3(div, pow2Divisor(runLen * unit), pow2Divisor(c * unit));
}

bool isConstant(const AxisInfo &info, int64_t value) {
  return info.getConstantValue() && *info.getConstantValue() == value;
}

/// A value whose every element is the same integer `c`.
AxisInfo constantInfo(int64_t c, ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
  return AxisInfo(DimVector(rank, 1), DimVector(rank, pow2Divisor(c)), DimVector(shape), c);
}

std::optional<AxisInfo> visitConstant(arith::ConstantOp op) {
  DimVector shape = shapeOf(op.getType());
  auto fromAPInt = [](const APInt &v) {
    return v.getBitWidth() == 1 ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue();
  };
  if (auto attr = dyn_cast<IntegerAttr>(op.getValue()))
    return constantInfo(fromAPInt(attr.getValue()), shape);
  // The front end prints only splats; anything else is left to the pessimistic state.
  if (auto attr = dyn_cast<DenseIntElementsAttr>(op.getValue()); attr && attr.isSplat())
    return constantInfo(fromAPInt(attr.getSplatValue<APInt>()), shape);
  return std::nullopt;
}

/// [start, end): one run of end - start consecutive values whose first value is start.
AxisInfo visitMakeRange(MakeRangeOp op) {
  int64_t start = op.getStart(), size = op.getEnd() - op.getStart();
  return AxisInfo({size}, {pow2Divisor(start)}, {1},
                  size == 1 ? std::optional<int64_t>(start) : std::nullopt);
}

/// Every element is the scalar: constant along every dimension, with the scalar's divisibility.
AxisInfo visitSplat(const AxisInfo &src, ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
  return AxisInfo(DimVector(rank, 1), DimVector(rank, src.getDivisibility(0)), DimVector(shape),
                  src.getConstantValue());
}

/// Expanded dimensions repeat one element: constant along them, that element's divisibility.
AxisInfo visitBroadcast(const AxisInfo &src, ArrayRef<int64_t> srcShape, ArrayRef<int64_t> shape) {
  DimVector contiguity = src.getContiguity(), divisibility = src.getDivisibility(),
            constancy = src.getConstancy();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (srcShape[d] == 1 && shape[d] != 1) {
      contiguity[d] = 1;
      constancy[d] = shape[d];
    }
  }
  return AxisInfo(contiguity, divisibility, constancy, src.getConstantValue());
}

/// Divisibility that holds for every element (not only run leads): along a dimension with runs
/// longer than 1 only 1 is known for the elements inside them.
int64_t everyElementDiv(const AxisInfo &info) {
  int64_t div = kMaxDiv;
  for (int64_t d = 0; d < info.getRank(); ++d)
    div = std::gcd(div, leadDiv(info, d, 1));
  return div;
}

/// The new dimension has size 1, so each of its elements is a run of its own: it needs a
/// divisibility true of every element.
AxisInfo visitExpandDims(const AxisInfo &src, Type srcType, unsigned axis,
                         ArrayRef<int64_t> shape) {
  if (!isa<ShapedType>(srcType))
    return visitSplat(src, shape);
  DimVector contiguity = src.getContiguity(), divisibility = src.getDivisibility(),
            constancy = src.getConstancy();
  contiguity.insert(contiguity.begin() + axis, 1);
  divisibility.insert(divisibility.begin() + axis, everyElementDiv(src));
  constancy.insert(constancy.begin() + axis, 1);
  return AxisInfo(contiguity, divisibility, constancy, src.getConstantValue());
}

/// Exact when the reshape only adds or drops dimensions of size 1 (the row-major order of the
/// other dimensions is unchanged). Otherwise conservative: only a whole-tensor constant survives.
AxisInfo visitReshape(const AxisInfo &src, ArrayRef<int64_t> srcShape, ArrayRef<int64_t> shape) {
  auto nonUnit = [](ArrayRef<int64_t> s) {
    DimVector dims;
    for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d)
      if (s[d] != 1)
        dims.push_back(d);
    return dims;
  };
  DimVector srcDims = nonUnit(srcShape), dims = nonUnit(shape);
  bool sameNonUnit = srcDims.size() == dims.size() &&
                     llvm::all_of(llvm::seq<size_t>(0, dims.size()),
                                  [&](size_t i) { return srcShape[srcDims[i]] == shape[dims[i]]; });
  int64_t rank = shape.size();
  if (sameNonUnit) {
    int64_t unitDiv = everyElementDiv(src);
    DimVector contiguity(rank, 1), divisibility(rank, unitDiv), constancy(rank, 1);
    for (size_t i = 0; i < dims.size(); ++i) {
      contiguity[dims[i]] = src.getContiguity(srcDims[i]);
      divisibility[dims[i]] = src.getDivisibility(srcDims[i]);
      constancy[dims[i]] = src.getConstancy(srcDims[i]);
    }
    return AxisInfo(contiguity, divisibility, constancy, src.getConstantValue());
  }
  bool allConstant = llvm::all_of(llvm::seq<int64_t>(0, src.getRank()),
                                  [&](int64_t d) { return src.getConstancy(d) == srcShape[d]; });
  int64_t div = everyElementDiv(src);
  return AxisInfo(DimVector(rank, 1), DimVector(rank, div),
                  allConstant ? DimVector(shape) : DimVector(rank, 1), src.getConstantValue());
}

/// Result dimension d is operand dimension order[d].
AxisInfo visitTrans(const AxisInfo &src, ArrayRef<int32_t> order) {
  DimVector contiguity, divisibility, constancy;
  for (int32_t from : order) {
    contiguity.push_back(src.getContiguity(from));
    divisibility.push_back(src.getDivisibility(from));
    constancy.push_back(src.getConstancy(from));
  }
  return AxisInfo(contiguity, divisibility, constancy, src.getConstantValue());
}

/// lhs ± rhs (and ptr + offset * elementSize when `rhsScale` is the element size).
/// Contiguity: a contiguous run plus a value constant over it stays contiguous, so
/// max(gcd(contig_l, const_r), gcd(const_l, contig_r)) (only the first for subtraction: constant
/// minus contiguous decreases). Divisibility: lead_l + lead_r with lead_l = a*D_l and lead_r =
/// b*D_r is a multiple of gcd(D_l, D_r). Constancy: equal runs of both give equal sums.
AxisInfo visitAddSub(const AxisInfo &lhs, const AxisInfo &rhs, bool isSub, int64_t rhsScale,
                     std::optional<int64_t> constant) {
  DimVector contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    int64_t c = std::gcd(lhs.getContiguity(d), rhs.getConstancy(d));
    if (!isSub)
      c = std::max(c, std::gcd(lhs.getConstancy(d), rhs.getContiguity(d)));
    contiguity.push_back(c);
    divisibility.push_back(
        std::gcd(leadDiv(lhs, d, c, rhsScale), mulDiv(leadDiv(rhs, d, c), rhsScale)));
    constancy.push_back(std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  }
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

/// lhs * rhs: contiguous only when multiplied by the constant 1; a multiple of D_l times a
/// multiple of D_r is a multiple of D_l * D_r; constant where both are (everywhere when one
/// factor is the constant 0).
AxisInfo visitMul(const AxisInfo &lhs, const AxisInfo &rhs, ArrayRef<int64_t> shape,
                  std::optional<int64_t> constant) {
  DimVector contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    int64_t c = isConstant(rhs, 1)   ? lhs.getContiguity(d)
                : isConstant(lhs, 1) ? rhs.getContiguity(d)
                                     : 1;
    contiguity.push_back(c);
    divisibility.push_back(mulDiv(leadDiv(lhs, d, c), leadDiv(rhs, d, c)));
    constancy.push_back(isConstant(lhs, 0) || isConstant(rhs, 0)
                            ? shape[d]
                            : std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  }
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

/// Length of the runs of a contiguous `lhs` that fall into one bucket of size c = 2^k (one value
/// of floor(x / c)): runs start at multiples of gcd(contig, D, c), which c is a multiple of.
int64_t bucketConstancy(const AxisInfo &lhs, const AxisInfo &rhs, int64_t d, int64_t c) {
  if (lhs.getContiguity(d) == 1)
    return 1;
  return gcd3(lhs.getContiguity(d), lhs.getDivisibility(d), std::gcd(c, rhs.getConstancy(d)));
}

/// lhs / rhs. Divisibility only for a constant power-of-two divisor 2^k: an exact multiple of
/// D >= 2^k divided by 2^k is a multiple of D / 2^k. Unsigned division by 2^k is constant over
/// aligned buckets of 2^k consecutive values; signed division rounds toward zero, which breaks
/// that for negative values, so divsi keeps only the operands' constancy (conservative).
AxisInfo visitDiv(const AxisInfo &lhs, const AxisInfo &rhs, bool isSigned,
                  std::optional<int64_t> constant) {
  std::optional<int64_t> divisor = rhs.getConstantValue();
  DimVector contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    int64_t c = isConstant(rhs, 1) ? lhs.getContiguity(d) : 1;
    contiguity.push_back(c);
    int64_t div = 1;
    if (isConstant(rhs, 1))
      div = lhs.getDivisibility(d);
    else if (divisor && isPow2(*divisor) && leadDiv(lhs, d, 1) >= *divisor)
      div = leadDiv(lhs, d, 1) / *divisor;
    divisibility.push_back(div);
    int64_t k = std::gcd(lhs.getConstancy(d), rhs.getConstancy(d));
    if (isConstant(rhs, 1))
      k = lhs.getConstancy(d);
    else if (!isSigned && divisor && isPow2(*divisor))
      k = std::max(k, bucketConstancy(lhs, rhs, d, *divisor));
    constancy.push_back(k);
  }
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

/// lhs % rhs. Divisibility: r = a - q*b is a multiple of gcd(D_a, D_b). Remainder by a modulus
/// that is a multiple of m (a constant c: m = 2^v(c); a value constant along the dimension:
/// m = its divisibility) keeps runs of g = gcd(contig, D, m): the lead is a multiple of g, and
/// so is the distance from lead % c to the next multiple of c. Remainder by 1 is 0 everywhere.
///
/// Signed remainder of a negative run is not increasing (-4 % 4 = 0, -3 % 4 = -3). Like
/// Triton, remsi is treated as remui along a dimension where the modulus is constant: it is how
/// kernels wrap indices (`(pid * BLOCK + arange(0, BLOCK)) % N`, always non-negative), and
/// without it such loads could not be vectorized. A kernel taking the signed remainder of a
/// negative index run gets wrong vector accesses; `% N` on negative indices has no use there.
AxisInfo visitRem(const AxisInfo &lhs, const AxisInfo &rhs, bool isSigned, ArrayRef<int64_t> shape,
                  std::optional<int64_t> constant) {
  (void)isSigned;
  std::optional<int64_t> modulus = rhs.getConstantValue();
  DimVector contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    int64_t c = 1;
    if (modulus && *modulus > 1)
      c = gcd3(lhs.getContiguity(d), lhs.getDivisibility(d), pow2Divisor(*modulus));
    else if (!modulus && rhs.getConstancy(d) >= lhs.getContiguity(d))
      c = gcd3(lhs.getContiguity(d), lhs.getDivisibility(d), rhs.getDivisibility(d));
    contiguity.push_back(c);
    divisibility.push_back(std::gcd(leadDiv(lhs, d, c), leadDiv(rhs, d, c)));
    constancy.push_back(isConstant(rhs, 1) ? shape[d]
                                           : std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  }
  return AxisInfo(contiguity, divisibility, constancy, isConstant(rhs, 1) ? 0 : constant);
}

/// andi / ori / xori (also on i1 masks). x & (2^k - 1) is x % 2^k (unsigned). Otherwise: no
/// contiguity; x & y keeps the trailing zeros of either (the larger divisibility), x | y and
/// x ^ y those of both (the smaller); constant where both are.
AxisInfo visitBitwise(Operation *op, const AxisInfo &lhs, const AxisInfo &rhs,
                      ArrayRef<int64_t> shape, std::optional<int64_t> constant) {
  if (isa<arith::AndIOp>(op) && rhs.getConstantValue() && *rhs.getConstantValue() > 0 &&
      isPow2(*rhs.getConstantValue() + 1)) {
    AxisInfo modulus = constantInfo(*rhs.getConstantValue() + 1, shape);
    return visitRem(lhs, modulus, /*isSigned=*/false, shape, constant);
  }
  DimVector contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    contiguity.push_back(1);
    int64_t l = leadDiv(lhs, d, 1), r = leadDiv(rhs, d, 1);
    divisibility.push_back(isa<arith::AndIOp>(op) ? std::max(l, r) : std::gcd(l, r));
    constancy.push_back(std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  }
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

/// min / max pick one side per element: a multiple of gcd(D_l, D_r) (every element's), constant
/// where both sides are; no contiguity (the side may change inside a run).
AxisInfo visitMinMax(const AxisInfo &lhs, const AxisInfo &rhs, std::optional<int64_t> constant) {
  DimVector contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    contiguity.push_back(1);
    divisibility.push_back(std::gcd(leadDiv(lhs, d, 1), leadDiv(rhs, d, 1)));
    constancy.push_back(std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  }
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

/// Shifts by a constant k: x << k multiplies the divisibility by 2^k; x >> k (either kind: both
/// round toward -inf) divides it by 2^k and is constant over aligned buckets of 2^k consecutive
/// values. Other shift amounts: x << y keeps x's divisibility, x >> y nothing.
AxisInfo visitShift(Operation *op, const AxisInfo &lhs, const AxisInfo &rhs, unsigned width,
                    std::optional<int64_t> constant) {
  std::optional<int64_t> amount = rhs.getConstantValue();
  bool known = amount && *amount >= 0 && *amount < width;
  bool left = isa<arith::ShLIOp>(op);
  DimVector contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    int64_t c = known && *amount == 0 ? lhs.getContiguity(d) : 1;
    contiguity.push_back(c);
    int64_t div = leadDiv(lhs, d, c);
    int64_t k = std::gcd(lhs.getConstancy(d), rhs.getConstancy(d));
    if (!known) {
      div = left ? div : 1;
    } else if (left) {
      div = mulDiv(div, int64_t(1) << *amount);
    } else {
      div = std::max<int64_t>(1, div >> *amount);
      k = std::max(k, bucketConstancy(lhs, rhs, d, int64_t(1) << *amount));
    }
    divisibility.push_back(div);
    constancy.push_back(k);
  }
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

/// Integer casts. A run stays contiguous unless it crosses a multiple of `boundary` (2^(w-1) for
/// extsi: the sign flips; 2^w for extui of the source width and for trunci of the result width),
/// which a run of length n whose lead is a multiple of n and n <= boundary cannot do: runs are cut
/// to gcd(contig, D, boundary).
AxisInfo visitIntCast(const AxisInfo &src, int64_t boundary, std::optional<int64_t> constant) {
  DimVector contiguity, divisibility;
  for (int64_t d = 0; d < src.getRank(); ++d) {
    int64_t c = src.getContiguity(d) == 1
                    ? 1
                    : gcd3(src.getContiguity(d), src.getDivisibility(d), boundary);
    contiguity.push_back(c);
    divisibility.push_back(leadDiv(src, d, c));
  }
  return AxisInfo(contiguity, divisibility, src.getConstancy(), constant);
}

/// select(cond, a, b): runs where cond is constant pick one side, so contiguity and constancy are
/// the gcd of both sides' and cond's constancy; divisibility the gcd of both sides'. A known
/// condition picks its side.
AxisInfo visitSelect(const AxisInfo &cond, const AxisInfo &lhs, const AxisInfo &rhs,
                     bool scalarCond, ArrayRef<int64_t> shape) {
  if (cond.getConstantValue())
    return *cond.getConstantValue() ? lhs : rhs;
  DimVector contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    int64_t condConst = scalarCond ? shape[d] : cond.getConstancy(d);
    int64_t c = gcd3(lhs.getContiguity(d), rhs.getContiguity(d), condConst);
    contiguity.push_back(c);
    divisibility.push_back(std::gcd(leadDiv(lhs, d, c), leadDiv(rhs, d, c)));
    constancy.push_back(gcd3(lhs.getConstancy(d), rhs.getConstancy(d), condConst));
  }
  std::optional<int64_t> constant;
  if (lhs.getConstantValue() && lhs.getConstantValue() == rhs.getConstantValue())
    constant = lhs.getConstantValue();
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

/// cmpi yields i1 (divisibility 1, contiguity 1). Constant where both sides are; and x < n with x
/// contiguous and n constant is constant over runs of g = gcd(contig_x, D_x, D_n, const_n): n is a
/// multiple of g and cannot fall strictly inside an aligned run of g values. The same holds for
/// x >= n, and for n > x, n <= x with the sides swapped (not for <=, == or !=: they change at n).
AxisInfo visitCmp(arith::CmpIOp op, const AxisInfo &lhs, const AxisInfo &rhs,
                  std::optional<int64_t> constant) {
  using P = arith::CmpIPredicate;
  P pred = op.getPredicate();
  bool lhsRuns = pred == P::slt || pred == P::ult || pred == P::sge || pred == P::uge;
  bool rhsRuns = pred == P::sgt || pred == P::ugt || pred == P::sle || pred == P::ule;
  DimVector contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    int64_t k = std::gcd(lhs.getConstancy(d), rhs.getConstancy(d));
    auto runs = [&](const AxisInfo &x, const AxisInfo &n) {
      if (x.getContiguity(d) == 1)
        return int64_t(1);
      return std::gcd(gcd3(x.getContiguity(d), x.getDivisibility(d), leadDiv(n, d, 1)),
                      n.getConstancy(d));
    };
    if (lhsRuns)
      k = std::max(k, runs(lhs, rhs));
    if (rhsRuns)
      k = std::max(k, runs(rhs, lhs));
    contiguity.push_back(1);
    divisibility.push_back(1);
    constancy.push_back(k);
  }
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

/// The constant result of an integer op on two constants, wrapped to the result's width.
std::optional<int64_t> foldBinary(Operation *op, const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.getConstantValue() || !rhs.getConstantValue())
    return std::nullopt;
  unsigned width = bitWidthOf(op->getResult(0).getType());
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    unsigned opWidth = bitWidthOf(cmp.getLhs().getType());
    APInt l(opWidth, static_cast<uint64_t>(*lhs.getConstantValue()), /*isSigned=*/true,
            /*implicitTrunc=*/true);
    APInt r(opWidth, static_cast<uint64_t>(*rhs.getConstantValue()), /*isSigned=*/true,
            /*implicitTrunc=*/true);
    return arith::applyCmpPredicate(cmp.getPredicate(), l, r) ? 1 : 0;
  }
  APInt l(width, static_cast<uint64_t>(*lhs.getConstantValue()), true, true);
  APInt r(width, static_cast<uint64_t>(*rhs.getConstantValue()), true, true);
  std::optional<APInt> v;
  if (isa<arith::AddIOp>(op))
    v = l + r;
  else if (isa<arith::SubIOp>(op))
    v = l - r;
  else if (isa<arith::MulIOp>(op))
    v = l * r;
  else if (isa<arith::AndIOp>(op))
    v = l & r;
  else if (isa<arith::OrIOp>(op))
    v = l | r;
  else if (isa<arith::XOrIOp>(op))
    v = l ^ r;
  else if (!r.isZero() && isa<arith::DivUIOp>(op))
    v = l.udiv(r);
  else if (!r.isZero() && isa<arith::RemUIOp>(op))
    v = l.urem(r);
  else if (!r.isZero() && !(l.isMinSignedValue() && r.isAllOnes()) && isa<arith::DivSIOp>(op))
    v = l.sdiv(r);
  else if (!r.isZero() && !(l.isMinSignedValue() && r.isAllOnes()) && isa<arith::RemSIOp>(op))
    v = l.srem(r);
  else if (isa<arith::MinSIOp>(op))
    v = llvm::APIntOps::smin(l, r);
  else if (isa<arith::MaxSIOp>(op))
    v = llvm::APIntOps::smax(l, r);
  else if (isa<arith::MinUIOp>(op))
    v = llvm::APIntOps::umin(l, r);
  else if (isa<arith::MaxUIOp>(op))
    v = llvm::APIntOps::umax(l, r);
  else if (r.ult(width) && isa<arith::ShLIOp>(op))
    v = l.shl(r);
  else if (r.ult(width) && isa<arith::ShRUIOp>(op))
    v = l.lshr(r);
  else if (r.ult(width) && isa<arith::ShRSIOp>(op))
    v = l.ashr(r);
  if (!v)
    return std::nullopt;
  return width == 1 ? static_cast<int64_t>(v->getZExtValue()) : v->getSExtValue();
}

/// A hint (tk.multiple_of, tk.max_contiguous, tk.max_constancy): its operand's state with the
/// fact the user vouches for added (a divisibility is the hint's largest power-of-two factor;
/// what the analysis already knows is never lowered).
AxisInfo visitHint(Operation *op, const AxisInfo &src, ArrayRef<int32_t> values) {
  DimVector contiguity = src.getContiguity(), divisibility = src.getDivisibility(),
            constancy = src.getConstancy();
  for (int64_t d = 0; d < src.getRank() && d < int64_t(values.size()); ++d) {
    if (isa<MultipleOfOp>(op))
      divisibility[d] = std::max(divisibility[d], pow2Divisor(values[d]));
    else if (isa<MaxContiguousOp>(op))
      contiguity[d] = std::max<int64_t>(contiguity[d], values[d]);
    else
      constancy[d] = std::max<int64_t>(constancy[d], values[d]);
  }
  return AxisInfo(contiguity, divisibility, constancy, src.getConstantValue());
}

/// The divisor `c` (a power of two) of a `tk.assume(x % c == 0)` or `tk.assume((x & (c - 1))
/// == 0)` on the scalar `value` at the top level of its function, which holds wherever `value`
/// is used; 1 without one.
int64_t assumedDivisor(Value value) {
  int64_t best = 1;
  for (Operation *user : value.getUsers()) {
    APInt c;
    if (!isa<arith::RemSIOp, arith::RemUIOp, arith::AndIOp>(user) || user->getOperand(0) != value ||
        !matchPattern(user->getOperand(1), m_ConstantInt(&c)))
      continue;
    const int64_t divisor = isa<arith::AndIOp>(user) ? c.getSExtValue() + 1 : c.getSExtValue();
    if (!isPow2(divisor))
      continue;
    for (Operation *compare : user->getResult(0).getUsers()) {
      auto cmp = dyn_cast<arith::CmpIOp>(compare);
      APInt zero;
      if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq ||
          !matchPattern(cmp.getRhs(), m_ConstantInt(&zero)) || !zero.isZero() ||
          cmp.getLhs() != user->getResult(0))
        continue;
      for (Operation *assume : cmp->getUsers())
        if (isa<AssumeOp>(assume) && isa<FunctionOpInterface>(assume->getParentOp()))
          best = std::max(best, std::min(divisor, kMaxDiv));
    }
  }
  return best;
}

/// The transfer function of `op` given its operands' states; nullopt: nothing known (the
/// pessimistic state).
std::optional<AxisInfo> transfer(Operation *op, ArrayRef<const AxisInfo *> in) {
  if (op->getNumResults() != 1)
    return std::nullopt;
  Type type = op->getResult(0).getType();
  DimVector shape = shapeOf(type);
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    return visitConstant(c);
  if (isa<tkgpu::ConvertLayoutOp>(op)) // the same values, held by other threads
    return *in[0];
  if (isa<MultipleOfOp, MaxContiguousOp, MaxConstancyOp>(op))
    return visitHint(op, *in[0], op->getAttrOfType<DenseI32ArrayAttr>("values").asArrayRef());
  if (isa<GetProgramIdOp, GetNumProgramsOp>(op))
    return AxisInfo::getPessimistic(1);
  if (auto range = dyn_cast<MakeRangeOp>(op))
    return visitMakeRange(range);
  if (isa<SplatOp>(op))
    return visitSplat(*in[0], shape);
  if (isa<BroadcastOp>(op))
    return visitBroadcast(*in[0], shapeOf(op->getOperand(0).getType()), shape);
  if (auto expand = dyn_cast<ExpandDimsOp>(op))
    return visitExpandDims(*in[0], expand.getSrc().getType(), expand.getAxis(), shape);
  if (isa<ReshapeOp>(op))
    return visitReshape(*in[0], shapeOf(op->getOperand(0).getType()), shape);
  if (auto trans = dyn_cast<TransOp>(op))
    return visitTrans(*in[0], trans.getOrder());
  if (isa<AddPtrOp>(op))
    return visitAddSub(*in[0], *in[1], /*isSub=*/false, pointeeBytes(type), std::nullopt);
  // Pointer casts: divisibility (bytes) and constancy carry over; contiguity counts elements, which
  // change size (bitcast) or become bytes (ptr_to_int, int_to_ptr), so it is kept only for 1-byte
  // elements.
  if (isa<BitcastOp, PtrToIntOp, IntToPtrOp>(op)) {
    const AxisInfo &src = *in[0];
    Type ptrSide = isa<IntToPtrOp>(op) ? type : op->getOperand(0).getType();
    bool resultIsPtr = isa<PointerType>(elementTypeOf(type));
    if (!isa<PointerType>(elementTypeOf(ptrSide)) || resultIsPtr != isa<IntToPtrOp, BitcastOp>(op))
      return std::nullopt;
    bool sameStep = isa<BitcastOp>(op) ? pointeeBytes(ptrSide) == pointeeBytes(type)
                                       : pointeeBytes(ptrSide) == 1;
    // One step along a run of the operand, in bytes (integers step by 1).
    int64_t unit = isa<IntToPtrOp>(op) ? 1 : pointeeBytes(ptrSide);
    DimVector contiguity = sameStep ? src.getContiguity() : DimVector(src.getRank(), 1);
    DimVector divisibility;
    for (int64_t d = 0; d < src.getRank(); ++d)
      divisibility.push_back(sameStep ? src.getDivisibility(d) : leadDiv(src, d, 1, unit));
    return AxisInfo(contiguity, divisibility, src.getConstancy());
  }

  // select also chooses between pointers.
  if (isa<arith::SelectOp>(op))
    return visitSelect(*in[0], *in[1], *in[2], !isa<ShapedType>(op->getOperand(0).getType()),
                       shape);
  if (!isa<IntegerType, IndexType>(elementTypeOf(type)))
    return std::nullopt;
  unsigned width = bitWidthOf(type);
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return visitAddSub(*in[0], *in[1], isa<arith::SubIOp>(op), 1, foldBinary(op, *in[0], *in[1]));
  if (isa<arith::MulIOp>(op))
    return visitMul(*in[0], *in[1], shape, foldBinary(op, *in[0], *in[1]));
  if (isa<arith::DivSIOp, arith::DivUIOp>(op))
    return visitDiv(*in[0], *in[1], isa<arith::DivSIOp>(op), foldBinary(op, *in[0], *in[1]));
  if (isa<arith::RemSIOp, arith::RemUIOp>(op))
    return visitRem(*in[0], *in[1], isa<arith::RemSIOp>(op), shape, foldBinary(op, *in[0], *in[1]));
  if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op))
    return visitBitwise(op, *in[0], *in[1], shape, foldBinary(op, *in[0], *in[1]));
  if (isa<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(op))
    return visitMinMax(*in[0], *in[1], foldBinary(op, *in[0], *in[1]));
  if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op))
    return visitShift(op, *in[0], *in[1], width, foldBinary(op, *in[0], *in[1]));
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return visitCmp(cmp, *in[0], *in[1], foldBinary(op, *in[0], *in[1]));
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(op)) {
    unsigned srcWidth = bitWidthOf(op->getOperand(0).getType());
    std::optional<int64_t> c = in[0]->getConstantValue();
    int64_t boundary;
    if (isa<arith::ExtSIOp>(op)) {
      boundary = int64_t(1) << std::min(srcWidth - 1, 62u);
      if (c) // i1 true is kept as 1 and extends to -1.
        c = APInt(srcWidth, static_cast<uint64_t>(*c), true, true).getSExtValue();
    } else if (isa<arith::ExtUIOp>(op)) {
      boundary = int64_t(1) << std::min(srcWidth, 62u);
      if (c && srcWidth < 64)
        c = static_cast<int64_t>(
            APInt(srcWidth, static_cast<uint64_t>(*c), true, true).zext(64).getZExtValue());
    } else {
      boundary = int64_t(1) << std::min(width, 62u);
    }
    if (c)
      c = wrap(*c, width);
    return visitIntCast(*in[0], boundary, c);
  }
  return std::nullopt;
}

} // namespace

AxisInfo::AxisInfo(DimVector contiguity, DimVector divisibility, DimVector constancy,
                   std::optional<int64_t> constantValue)
    : contiguity(std::move(contiguity)), divisibility(std::move(divisibility)),
      constancy(std::move(constancy)), constantValue(constantValue) {}

AxisInfo AxisInfo::getPessimistic(int64_t rank, int64_t divisibility) {
  return AxisInfo(DimVector(rank, 1), DimVector(rank, divisibility), DimVector(rank, 1));
}

AxisInfo AxisInfo::getEntryState(Value value) {
  int64_t rank = shapeOf(value.getType()).size();
  int64_t divisibility = 1;
  // Kernel arguments: the front end's specialization says which are multiples of 16 (bytes for
  // pointers). Nothing else is assumed about them, alignment included.
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Block *block = arg.getOwner();
    auto func = dyn_cast_or_null<FunctionOpInterface>(block->getParentOp());
    if (func && block->isEntryBlock()) {
      if (auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                         TkDialect::getDivisibilityAttrName()))
        divisibility = pow2Divisor(attr.getInt());
    }
  }
  return getPessimistic(rank, std::max(divisibility, assumedDivisor(value)));
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.isInitialized())
    return rhs;
  if (!rhs.isInitialized())
    return lhs;
  DimVector contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    contiguity.push_back(std::gcd(lhs.getContiguity(d), rhs.getContiguity(d)));
    // A lead of the joined runs may be inside a longer run of one side (see leadDiv).
    int64_t c = contiguity.back();
    divisibility.push_back(std::gcd(leadDiv(lhs, d, c), leadDiv(rhs, d, c)));
    constancy.push_back(std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  }
  std::optional<int64_t> constant;
  if (lhs.getConstantValue() == rhs.getConstantValue())
    constant = lhs.getConstantValue();
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

void AxisInfo::print(llvm::raw_ostream &os) const {
  if (!isInitialized()) {
    os << "<uninitialized>";
    return;
  }
  auto list = [&](const DimVector &v) {
    os << "[";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
  os << ", constant_value = ";
  if (constantValue)
    os << *constantValue;
  else
    os << "<none>";
}

LogicalResult AxisInfoAnalysis::visitOperation(Operation *op,
                                               ArrayRef<const AxisInfoLattice *> operands,
                                               ArrayRef<AxisInfoLattice *> results) {
  // Wait until every operand has been reached; the framework revisits op when they are.
  SmallVector<const AxisInfo *, 4> in;
  for (const AxisInfoLattice *operand : operands) {
    if (!operand->getValue().isInitialized())
      return success();
    in.push_back(&operand->getValue());
  }
  std::optional<AxisInfo> info = transfer(op, in);
  if (!info) {
    setAllToEntryStates(results);
    return success();
  }
  // A folded constant is known exactly, whatever the rule could say.
  if (std::optional<int64_t> c = info->getConstantValue())
    info = constantInfo(*c, shapeOf(op->getResult(0).getType()));
  else if (int64_t divisor = assumedDivisor(op->getResult(0)); divisor > info->getDivisibility(0))
    info =
        AxisInfo(info->getContiguity(), DimVector(info->getRank(), divisor), info->getConstancy());
  propagateIfChanged(results[0], results[0]->join(*info));
  return success();
}

void AxisInfoAnalysis::visitNonControlFlowArguments(Operation *op, const RegionSuccessor &successor,
                                                    ArrayRef<AxisInfoLattice *> argLattices,
                                                    unsigned firstIndex) {
  // The induction variable of scf.for takes lb, lb + step, ...: each a multiple of
  // gcd(D_lb, D_step), nothing more. The framework joins the iter_args (init, then each yield).
  auto forOp = dyn_cast<scf::ForOp>(op);
  if (!forOp || successor.getSuccessor() != &forOp.getRegion()) {
    SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(op, successor, argLattices,
                                                                firstIndex);
    return;
  }
  ProgramPoint *point = getProgramPointBefore(forOp.getBody());
  const AxisInfo &lb = getLatticeElementFor(point, forOp.getLowerBound())->getValue();
  const AxisInfo &step = getLatticeElementFor(point, forOp.getStep())->getValue();
  if (!lb.isInitialized() || !step.isInitialized())
    return;
  AxisInfo iv({1}, {std::gcd(lb.getDivisibility(0), step.getDivisibility(0))}, {1});
  propagateIfChanged(argLattices[0], argLattices[0]->join(iv));
}

void AxisInfoAnalysis::setToEntryState(AxisInfoLattice *lattice) {
  propagateIfChanged(lattice, lattice->join(AxisInfo::getEntryState(lattice->getAnchor())));
}

AxisInfoResult::AxisInfoResult(Operation *root) {
  // DeadCodeAnalysis decides which blocks and region successors are live; it reads the constant
  // lattice of SparseConstantPropagation for branch conditions. Without them nothing is visited.
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<AxisInfoAnalysis>();
  ok = mlir::succeeded(solver.initializeAndRun(root));
}

const AxisInfo *AxisInfoResult::getAxisInfo(Value value) const {
  const AxisInfoLattice *lattice = solver.lookupState<AxisInfoLattice>(value);
  if (!lattice || !lattice->getValue().isInitialized())
    return nullptr;
  return &lattice->getValue();
}

llvm::SmallVector<unsigned, 4> AxisInfoResult::getOrder(Value ptr) const {
  llvm::SmallVector<unsigned, 4> order;
  auto shaped = dyn_cast<ShapedType>(ptr.getType());
  const AxisInfo *info = getAxisInfo(ptr);
  if (!shaped)
    return order;
  for (int64_t d = shaped.getRank() - 1; d >= 0; --d)
    order.push_back(d);
  if (info)
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return info->getContiguity(a) > info->getContiguity(b);
    });
  return order;
}

unsigned AxisInfoResult::getVectorWidth(Value ptr, Value mask) const {
  const AxisInfo *info = getAxisInfo(ptr);
  if (!info || !isa<ShapedType>(ptr.getType()))
    return 1;
  unsigned d = getOrder(ptr).front();
  int64_t elemBytes = pointeeBytes(ptr.getType());
  // Powers of two only: a run of n that starts at a multiple of n contains aligned groups of any
  // power of two dividing n.
  int64_t width =
      std::min(pow2Divisor(info->getContiguity(d)), std::max<int64_t>(1, 16 / elemBytes));
  width = std::min(width, std::max<int64_t>(1, info->getDivisibility(d) / elemBytes));
  if (mask) {
    const AxisInfo *maskInfo = getAxisInfo(mask);
    if (!maskInfo || !isa<ShapedType>(mask.getType()))
      return 1;
    width = std::min(width, pow2Divisor(maskInfo->getConstancy(d)));
  }
  return static_cast<unsigned>(width);
}

unsigned AxisInfoResult::getVectorWidth(Operation *loadOrStore) const {
  if (auto load = dyn_cast<LoadOp>(loadOrStore))
    return getVectorWidth(load.getPtr(), load.getMask());
  if (auto store = dyn_cast<StoreOp>(loadOrStore))
    return getVectorWidth(store.getPtr(), store.getMask());
  if (auto copy = dyn_cast<tkgpu::AsyncCopyGlobalToLocalOp>(loadOrStore))
    return getVectorWidth(copy.getPtr(), copy.getMask());
  return 1;
}

} // namespace mlir::tk

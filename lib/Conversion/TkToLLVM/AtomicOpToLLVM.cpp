/// @file AtomicOpToLLVM.cpp
/// tk.atomic_rmw / tk.atomic_cas -> one PTX `atom` per element, as inline asm:
///
///     @p atom.acq_rel.gpu.global.add.f32 old, [address], value;
///     @!p mov.b32 old, 0;
///
/// The memory ordering and scope are the instruction's own qualifiers (LLVM's NVPTX backend
/// drops both from `atomicrmw`). The predicate is the lane's mask, and, where the layout holds
/// an element in several (thread, element) slots, whether this slot is the one that updates it:
/// each element is updated once. Those slots are chosen through shared memory (Allocation.h's
/// AtomicScratch): every slot writes its number to the element's claim, and the one whose claim
/// survives the barrier updates; where the result is read, it then shares the old value. A
/// scalar is updated by thread 0, which shares the old value the same way; its ordering covers
/// the whole block's accesses through a barrier before a release and after an acquire.
///
/// Float `fmax` / `fmin` are integer atomics on the bit patterns: a value with its sign bit
/// clear takes the signed max (min), one with it set the unsigned min (max), which orders
/// negative values, -0 < +0 and NaNs by their sign bit. bf16 `fadd` before sm_90, which has no
/// such instruction, is LLVM's `atomicrmw fadd` (a compare-and-swap loop), relaxed, between
/// `fence` instructions that give it the ordering asked for.
#include "Conversion/TkToLLVM/PatternTkToLLVM.h"
#include "Conversion/TkToLLVM/Utility.h"

#include "Analysis/Allocation.h"
#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tk;
using llvm::SmallVector;

namespace {

/// How an element travels through inline asm: as an integer of its width, with the constraint
/// of a register of that width.
struct AsmCarrier {
  Type type;
  char constraint;
  unsigned bits;
};

AsmCarrier carrierOf(OpBuilder &b, Type element) {
  const unsigned bits = element.getIntOrFloatBitWidth();
  return {b.getIntegerType(bits), bits == 16 ? 'h' : bits == 32 ? 'r' : 'l', bits};
}

Value toCarrier(OpBuilder &b, Location loc, Value value, const AsmCarrier &carrier) {
  return value.getType() == carrier.type ? value
                                         : LLVM::BitcastOp::create(b, loc, carrier.type, value);
}

/// The instruction after `atom.sem.scope.global.`: the operation and its type, e.g.
/// `add.f32`, `max.s64`, `exch.b32`, `add.noftz.bf16`.
std::string instructionOf(StringRef kind, Type element) {
  const std::string bits = std::to_string(element.getIntOrFloatBitWidth());
  if (kind == "add")
    return "add.u" + bits;
  if (kind == "fadd")
    return element.isF16() || element.isBF16()
               ? "add.noftz." + std::string(element.isF16() ? "f16" : "bf16")
               : "add.f" + bits;
  if (kind == "max" || kind == "min")
    return kind.str() + ".s" + bits;
  if (kind == "umax" || kind == "umin")
    return kind.drop_front().str() + ".u" + bits;
  if (kind == "xchg")
    return "exch.b" + bits;
  return kind.str() + ".b" + bits; // and, or, xor
}

/// One lane's atomic as inline asm: `atom<qualifiers>.global.<body>` with the old value in $0,
/// the address in $1, `operands` from $2, and the predicate last (none: unconditional). Float
/// fmax/fmin (`body` "fmax"/"fmin") pick their integer instruction from the value's sign.
Value emitAtom(OpBuilder &b, Location loc, StringRef qualifiers, StringRef body, Value address,
               ArrayRef<Value> operands, Value predicate, const AsmCarrier &carrier) {
  const std::string atom = "atom" + qualifiers.str() + ".global.";
  const std::string value = "$2", pred = "$" + std::to_string(2 + operands.size());
  const std::string bits = std::to_string(carrier.bits);
  std::string text;
  if (body == "fmax" || body == "fmin") {
    const bool max = body == "fmax";
    text = "{\n.reg .pred %nonneg, %neg;\nsetp.lt.s" + bits + " %neg, " + value + ", 0;\n" +
           "not.pred %nonneg, %neg;\n";
    if (predicate)
      text += "and.pred %nonneg, %nonneg, " + pred + ";\nand.pred %neg, %neg, " + pred + ";\n";
    text += "@%nonneg " + atom + (max ? "max.s" : "min.s") + bits + " $0, [$1], " + value +
            ";\n@%neg " + atom + (max ? "min.u" : "max.u") + bits + " $0, [$1], " + value + ";\n";
    if (predicate)
      text += "@!" + pred + " mov.b" + bits + " $0, 0;\n";
    text += "}";
  } else {
    std::string args = "$0, [$1]";
    for (unsigned i = 0; i < operands.size(); ++i)
      args += ", $" + std::to_string(2 + i);
    text = (predicate ? "@" + pred + " " : std::string()) + atom + body.str() + " " + args + ";";
    if (predicate)
      text += "\n@!" + pred + " mov.b" + bits + " $0, 0;";
  }
  std::string constraints = std::string("=") + carrier.constraint + ",l";
  SmallVector<Value> asmOperands{LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), address)};
  for (Value operand : operands) {
    constraints += std::string(",") + carrier.constraint;
    asmOperands.push_back(toCarrier(b, loc, operand, carrier));
  }
  if (predicate) {
    constraints += ",b";
    asmOperands.push_back(predicate);
  }
  return emitAsm(b, loc, text, constraints, asmOperands, carrier.type, 1, /*sideEffects=*/true)
      .front();
}

/// `fence.acq_rel.<scope>`.
void emitFence(OpBuilder &b, Location loc, StringRef scope) {
  emitAsm(b, loc, ("fence.acq_rel." + scope + ";").str(), "", {}, Type(), 0, /*sideEffects=*/true);
}

/// bf16 fadd without the instruction (before sm_90): LLVM's compare-and-swap loop, relaxed,
/// fenced for `sem`, under the predicate.
Value emitBf16AddLoop(OpBuilder &b, Location loc, StringRef sem, StringRef scope, Value address,
                      Value value, Value predicate) {
  auto body = [&](OpBuilder &b) -> Value {
    if (sem == "release" || sem == "acq_rel")
      emitFence(b, loc, scope);
    StringRef syncscope = scope == "cta" ? "block" : scope == "gpu" ? "device" : "";
    Value old = LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::fadd, address, value,
                                          LLVM::AtomicOrdering::monotonic, syncscope);
    if (sem == "acquire" || sem == "acq_rel")
      emitFence(b, loc, scope);
    return old;
  };
  if (!predicate)
    return body(b);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(value.getType()), predicate,
                                /*addThenBlock=*/true, /*addElseBlock=*/true);
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder(b.getListener());
  scf::YieldOp::create(thenBuilder, loc, body(thenBuilder));
  OpBuilder elseBuilder = ifOp.getElseBodyBuilder(b.getListener());
  scf::YieldOp::create(elseBuilder, loc,
                       LLVM::ZeroOp::create(elseBuilder, loc, value.getType()).getResult());
  return ifOp.getResult(0);
}

Value andOf(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return LLVM::AndOp::create(b, loc, x, y);
}

template <class AtomicOp> struct AtomicOpConversion : OpConversionPattern<AtomicOp> {
  AtomicOpConversion(TypeConverter &converter, MLIRContext *context, unsigned computeCapability)
      : OpConversionPattern<AtomicOp>(converter, context), computeCapability(computeCapability) {}

  LogicalResult matchAndRewrite(AtomicOp op, typename AtomicOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter *converter = this->getTypeConverter();
    Type resultType = converter->convertType(op.getType());
    Type elementType = converter->convertType(getElementTypeOrSelf(op.getType()));
    if (!resultType || !elementType)
      return rewriter.notifyMatchFailure(op, "types");
    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<SmallVector<Value>> operands; // per element: the value (cmp, then val for cas)
    SmallVector<Value> masks;
    std::string body;
    if constexpr (std::is_same_v<AtomicOp, AtomicCASOp>) {
      SmallVector<Value> cmps = elementsOf(rewriter, loc, adaptor.getCmp());
      SmallVector<Value> vals = elementsOf(rewriter, loc, adaptor.getVal());
      for (auto [cmp, val] : llvm::zip_equal(cmps, vals))
        operands.push_back({cmp, val});
      body = "cas.b" + std::to_string(elementType.getIntOrFloatBitWidth());
    } else {
      for (Value val : elementsOf(rewriter, loc, adaptor.getVal()))
        operands.push_back({val});
      masks = elementsOf(rewriter, loc, adaptor.getMask());
      body = op.getKind() == "fmax" || op.getKind() == "fmin"
                 ? op.getKind().str()
                 : instructionOf(op.getKind(), elementType);
    }
    const bool bf16Loop = elementType.isBF16() && computeCapability < 90;
    const std::string qualifiers = "." + op.getSem().str() + "." + op.getScope().str();
    const AsmCarrier carrier = carrierOf(rewriter, elementType);
    const unsigned count = unsigned(ptrs.size());

    // Which slot updates each element (null: this one, unconditionally), and each element's
    // row-major index (for the scratch).
    const AtomicScratch scratch = getAtomicScratch(op);
    const unsigned base = scratch.totalBytes ? getScratchOffset(op) : 0;
    SmallVector<Value> updater(count), linear(count);
    auto tensor = dyn_cast<RankedTensorType>(op.getType());
    if (!tensor) {
      Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
      updater[0] = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, tid,
                                        i32Constant(rewriter, loc, 0));
      linear[0] = i32Constant(rewriter, loc, 0);
    } else if (scratch.claims) {
      ArrayRef<int64_t> shape = tensor.getShape();
      SmallVector<SmallVector<Value>> indices = emitIndices(rewriter, loc, tensor);
      for (unsigned e = 0; e < count; ++e) {
        Value index = i32Constant(rewriter, loc, 0);
        for (unsigned d = 0; d < shape.size(); ++d) {
          int64_t stride = 1;
          for (unsigned k = d + 1; k < shape.size(); ++k)
            stride *= shape[k];
          Value term =
              LLVM::MulOp::create(rewriter, loc, indices[e][d], i32Constant(rewriter, loc, stride));
          index = LLVM::AddOp::create(rewriter, loc, index, term);
        }
        linear[e] = index;
      }
      Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
      Value first = LLVM::MulOp::create(rewriter, loc, tid, i32Constant(rewriter, loc, count));
      SmallVector<Value> claims;
      emitBarrier(rewriter, loc); // earlier users of the scratch are done
      for (unsigned e = 0; e < count; ++e) {
        claims.push_back(addConst(rewriter, loc, first, e));
        emitScratchStore(rewriter, loc, base, linear[e], claims.back());
      }
      emitBarrier(rewriter, loc);
      for (unsigned e = 0; e < count; ++e)
        updater[e] = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::eq,
            emitScratchLoad(rewriter, loc, base, linear[e], rewriter.getI32Type()), claims[e]);
    }

    // A scalar atomic is thread 0's alone, so its ordering must cover the other threads' accesses
    // too. Before a release every thread fences its own writes and a barrier puts them all before
    // thread 0's atomic (a lock released after a critical section all threads wrote in); after an
    // acquire a barrier (the one that shares the old value, where it is read) puts every thread
    // after it, and each fences, so that none reads data older than the acquire (its SM's L1
    // may hold lines from before it). A barrier alone lost updates on an H100.
    StringRef sem = op.getSem();
    const bool releases = sem == "release" || sem == "acq_rel";
    const bool acquires = sem == "acquire" || sem == "acq_rel";
    const bool sharesResult = scratch.totalBytes > scratch.resultsOffset;
    if (!tensor && releases) {
      emitFence(rewriter, loc, op.getScope());
      emitBarrier(rewriter, loc);
    }

    SmallVector<Value> old;
    for (unsigned e = 0; e < count; ++e) {
      Value predicate = andOf(rewriter, loc, masks.empty() ? Value() : masks[e], updater[e]);
      if (bf16Loop) {
        old.push_back(emitBf16AddLoop(rewriter, loc, op.getSem(), op.getScope(), ptrs[e],
                                      operands[e][0], predicate));
        continue;
      }
      Value bits =
          emitAtom(rewriter, loc, qualifiers, body, ptrs[e], operands[e], predicate, carrier);
      old.push_back(bits.getType() == elementType
                        ? bits
                        : LLVM::BitcastOp::create(rewriter, loc, elementType, bits).getResult());
    }

    // The updaters share what they read.
    if (!tensor && acquires && !sharesResult) {
      emitBarrier(rewriter, loc);
      emitFence(rewriter, loc, op.getScope());
    }
    if (sharesResult) {
      const unsigned results = base + scratch.resultsOffset;
      if (!scratch.claims && !releases)
        emitBarrier(rewriter, loc); // earlier users of the scratch are done
      for (unsigned e = 0; e < count; ++e) {
        auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), updater[e],
                                      /*addThenBlock=*/true, /*addElseBlock=*/false);
        OpBuilder thenBuilder = ifOp.getThenBodyBuilder(rewriter.getListener());
        emitScratchStore(thenBuilder, loc, results, linear[e], old[e]);
        scf::YieldOp::create(thenBuilder, loc);
      }
      emitBarrier(rewriter, loc);
      for (unsigned e = 0; e < count; ++e)
        old[e] = emitScratchLoad(rewriter, loc, results, linear[e], elementType);
      if (!tensor && acquires)
        emitFence(rewriter, loc, op.getScope());
    }

    if (isa<LLVM::LLVMStructType>(resultType))
      rewriter.replaceOp(op, packElements(rewriter, loc, resultType, old));
    else
      rewriter.replaceOp(op, old.front());
    return success();
  }

  unsigned computeCapability;
};

} // namespace

void mlir::tk::populateAtomicOpToLLVMPatterns(TkToLLVMTypeConverter &converter,
                                              RewritePatternSet &patterns,
                                              unsigned computeCapability) {
  patterns.add<AtomicOpConversion<AtomicRMWOp>, AtomicOpConversion<AtomicCASOp>>(
      converter, patterns.getContext(), computeCapability);
}

/// @file AxisInfo.h
/// AxisInfo: what is known about the integer and pointer values of a kernel, per tensor
/// dimension — contiguity, divisibility, constancy — computed by a sparse forward analysis on
/// MLIR's dataflow framework (Triton's AxisInfo, for the tk dialect). The coalescing pass asks it
/// how wide a vector one thread can load or store (`AxisInfoResult::getVectorWidth`) and which
/// dimension is contiguous (`AxisInfoResult::getOrder`). docs/backend.md explains the rules.
#ifndef TK_ANALYSIS_AXISINFO_H
#define TK_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::tk {

/// What is known about a value, per dimension `d` (a scalar has one dimension of size 1). Runs are
/// aligned: a run of length `n` along `d` starts at an index that is a multiple of `n`.
/// - contiguity[d]: values increase by 1 along `d` within runs of this length;
/// - divisibility[d]: the first value of every such run is a multiple of this power of two (for
///   pointers: the address, in bytes); with contiguity 1 that is every value;
/// - constancy[d]: values are equal along `d` within runs of this length;
/// - constantValue: the value, when every element is the same known integer.
/// An analysis state that has not been reached yet is "uninitialized" (rank 0).
class AxisInfo {
public:
  using DimVector = llvm::SmallVector<int64_t, 4>;

  /// Divisibility of 0: a power of two larger than any value of the widest type (Triton's choice).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 62;

  AxisInfo() = default;
  AxisInfo(DimVector contiguity, DimVector divisibility, DimVector constancy,
           std::optional<int64_t> constantValue = std::nullopt);

  /// Nothing known: every run has length 1 and every value is a multiple of `divisibility` only.
  static AxisInfo getPessimistic(int64_t rank, int64_t divisibility = 1);
  /// The state of `value` where nothing flows into it (a kernel argument, an unknown op's result):
  /// pessimistic, except that kernel arguments take `tk.divisibility`.
  static AxisInfo getEntryState(Value value);

  bool isInitialized() const { return !contiguity.empty(); }
  int64_t getRank() const { return contiguity.size(); }
  int64_t getContiguity(int64_t d) const { return contiguity[d]; }
  int64_t getDivisibility(int64_t d) const { return divisibility[d]; }
  int64_t getConstancy(int64_t d) const { return constancy[d]; }
  const DimVector &getContiguity() const { return contiguity; }
  const DimVector &getDivisibility() const { return divisibility; }
  const DimVector &getConstancy() const { return constancy; }
  std::optional<int64_t> getConstantValue() const { return constantValue; }

  /// What holds on both paths (control-flow merges, loop iterations): gcd of each run length and
  /// divisibility; the constant only when both agree.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity && divisibility == other.divisibility &&
           constancy == other.constancy && constantValue == other.constantValue;
  }
  void print(llvm::raw_ostream &os) const;

private:
  DimVector contiguity;
  DimVector divisibility;
  DimVector constancy;
  std::optional<int64_t> constantValue;
};

using AxisInfoLattice = dataflow::Lattice<AxisInfo>;

/// The transfer functions (AxisInfo.cpp). Load it into a DataFlowSolver together with
/// DeadCodeAnalysis and SparseConstantPropagation (the framework's liveness needs both), or use
/// AxisInfoResult, which does.
class AxisInfoAnalysis : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  LogicalResult visitOperation(Operation *op, ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override;
  void visitNonControlFlowArguments(Operation *op, const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override;
  void setToEntryState(AxisInfoLattice *lattice) override;
};

/// Runs the analysis on `root` (a func.func or a module) and answers queries on its values.
class AxisInfoResult {
public:
  explicit AxisInfoResult(Operation *root);

  /// False when the solver failed (it does not on verified IR).
  bool succeeded() const { return ok; }
  /// The value's state; null for values the analysis did not reach (dead code).
  const AxisInfo *getAxisInfo(Value value) const;

  /// Dimensions of `ptr` from most to least contiguous (ties: the later dimension first, as in a
  /// row-major tile). Empty for a scalar.
  llvm::SmallVector<unsigned, 4> getOrder(Value ptr) const;
  /// How many consecutive elements along getOrder(ptr)[0] one thread can access with one aligned
  /// vector of at most 16 bytes: the power of two min(contiguity, divisibility in elements,
  /// 16 / element size), capped by `mask`'s constancy along that dimension when a mask is given
  /// (Triton's getMaskAlignment). 1 for scalars and unknown values.
  unsigned getVectorWidth(Value ptr, Value mask = nullptr) const;
  /// getVectorWidth of the pointer and mask of a tk.load, tk.store or
  /// tkgpu.async_copy_global_to_local; 1 for other ops.
  unsigned getVectorWidth(Operation *loadOrStore) const;

private:
  DataFlowSolver solver;
  bool ok = false;
};

} // namespace mlir::tk

#endif // TK_ANALYSIS_AXISINFO_H

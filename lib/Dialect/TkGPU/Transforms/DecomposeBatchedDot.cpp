/// @file DecomposeBatchedDot.cpp
/// tk-decompose-batched-dot: a tk.dot on 3-D blocks (B products of [M, K] x [K, N]) as B 2-D
/// tk.dots, so that layouts and the tensor-core lowerings only ever see matrices.
///
/// The batch dimension is moved last (tk.trans) and halved log2(B) times: reshaping [.., n] to
/// [.., n / 2, 2] and splitting (tk.split) separates the even batch indices from the odd ones.
/// The B products are put back together by the inverse steps (tk.join, tk.reshape), and the
/// batch dimension moved first again. Every step is data movement that the layout passes make
/// cheap or free; the products themselves run on the tensor cores at M x N x K each. B is a
/// power of two, as every block dimension is.
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKDECOMPOSEBATCHEDDOT
#include "Dialect/TkGPU/Transforms/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;

namespace {

/// The matrices of a [B, R, C] block, in batch order. A splat constant (a zero accumulator)
/// gives B copies of its 2-D constant, which later passes recognize as such.
SmallVector<Value> sliceBatches(OpBuilder &b, Location loc, Value batched) {
  auto type = cast<RankedTensorType>(batched.getType());
  const int64_t rows = type.getDimSize(1), cols = type.getDimSize(2);
  Type element = type.getElementType();
  SplatElementsAttr splat;
  if (matchPattern(batched, m_Constant(&splat))) {
    auto matrix = RankedTensorType::get({rows, cols}, element);
    Value constant = arith::ConstantOp::create(b, loc, matrix, splat.resizeSplat(matrix));
    return SmallVector<Value>(size_t(type.getDimSize(0)), constant);
  }
  // [R, C, n] holding the batches `first + stride * i` for i < n.
  std::function<void(Value, int64_t, int64_t, SmallVector<Value> &)> slice =
      [&](Value last, int64_t first, int64_t stride, SmallVector<Value> &out) {
        const int64_t n = cast<RankedTensorType>(last.getType()).getDimSize(2);
        if (n == 1) {
          out[size_t(first)] =
              tk::ReshapeOp::create(b, loc, RankedTensorType::get({rows, cols}, element), last);
          return;
        }
        auto pairs = tk::ReshapeOp::create(
            b, loc, RankedTensorType::get({rows, cols, n / 2, 2}, element), last);
        auto half = RankedTensorType::get({rows, cols, n / 2}, element);
        auto split = tk::SplitOp::create(b, loc, TypeRange{half, half}, pairs);
        slice(split.getLhs(), first, 2 * stride, out);
        slice(split.getRhs(), first + stride, 2 * stride, out);
      };
  SmallVector<Value> out(size_t(type.getDimSize(0)));
  auto lastType = RankedTensorType::get({rows, cols, int64_t(out.size())}, element);
  Value last =
      tk::TransOp::create(b, loc, lastType, batched, ArrayRef<int32_t>{1, 2, 0}).getResult();
  slice(last, 0, 1, out);
  return out;
}

/// The [B, R, C] block of `matrices` ([R, C] each), sliceBatches' inverse.
Value stackBatches(OpBuilder &b, Location loc, ArrayRef<Value> matrices) {
  auto type = cast<RankedTensorType>(matrices.front().getType());
  const int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  Type element = type.getElementType();
  // The [R, C, n] block of the matrices `first + stride * i` for i < n.
  std::function<Value(int64_t, int64_t, int64_t)> stack = [&](int64_t first, int64_t stride,
                                                              int64_t n) -> Value {
    if (n == 1)
      return tk::ReshapeOp::create(b, loc, RankedTensorType::get({rows, cols, 1}, element),
                                   matrices[size_t(first)]);
    Value even = stack(first, 2 * stride, n / 2), odd = stack(first + stride, 2 * stride, n / 2);
    auto pairs = tk::JoinOp::create(b, loc, RankedTensorType::get({rows, cols, n / 2, 2}, element),
                                    even, odd);
    return tk::ReshapeOp::create(b, loc, RankedTensorType::get({rows, cols, n}, element), pairs);
  };
  const auto n = int64_t(matrices.size());
  return tk::TransOp::create(b, loc, RankedTensorType::get({n, rows, cols}, element),
                             stack(0, 1, n), ArrayRef<int32_t>{2, 0, 1});
}

struct TkDecomposeBatchedDotPass
    : tkgpu::impl::TkDecomposeBatchedDotBase<TkDecomposeBatchedDotPass> {
  void runOnOperation() override {
    SmallVector<tk::DotOp> batched;
    getOperation().walk([&](tk::DotOp dot) {
      if (dot.getType().getRank() == 3)
        batched.push_back(dot);
    });
    for (tk::DotOp dot : batched) {
      const int64_t batches = dot.getType().getDimSize(0);
      if (!llvm::isPowerOf2_64(uint64_t(batches))) {
        dot.emitError() << "the batch size of a 3-D tk.dot must be a power of two, got " << batches;
        return signalPassFailure();
      }
      OpBuilder b(dot);
      Location loc = dot.getLoc();
      SmallVector<Value> as = sliceBatches(b, loc, dot.getA());
      SmallVector<Value> bs = sliceBatches(b, loc, dot.getB());
      SmallVector<Value> cs = sliceBatches(b, loc, dot.getC());
      SmallVector<Value> products;
      for (auto [x, y, acc] : llvm::zip_equal(as, bs, cs))
        products.push_back(tk::DotOp::create(b, loc, acc.getType(), x, y, acc,
                                             dot.getInputPrecisionAttr(),
                                             dot.getMaxNumImpreciseAccAttr()));
      dot.replaceAllUsesWith(stackBatches(b, loc, products));
      dot.erase();
    }
  }
};

} // namespace

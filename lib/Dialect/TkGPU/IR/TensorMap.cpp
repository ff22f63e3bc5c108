/// @file TensorMap.cpp
/// Reading, checking and writing the `tkgpu.tensor_map` recipe of a kernel argument.
#include "Dialect/TkGPU/IR/TensorMap.h"

#include "Dialect/Tk/IR/Dialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tkgpu;

DictionaryAttr TensorMapRecipe::toAttr(MLIRContext *context) const {
  Builder b(context);
  SmallVector<NamedAttribute> entries{
      b.getNamedAttr("base", b.getI32IntegerAttr(base)),
      b.getNamedAttr("shape_args", b.getDenseI32ArrayAttr(shapeArgs)),
      b.getNamedAttr("shape", b.getDenseI64ArrayAttr(shape)),
      b.getNamedAttr("stride_args", b.getDenseI32ArrayAttr(strideArgs)),
      b.getNamedAttr("strides", b.getDenseI64ArrayAttr(strides)),
  };
  if (!box.empty())
    entries.push_back(b.getNamedAttr("box", b.getDenseI32ArrayAttr(box)));
  if (swizzle != 0)
    entries.push_back(b.getNamedAttr("swizzle", b.getI32IntegerAttr(swizzle)));
  return b.getDictionaryAttr(entries);
}

FailureOr<TensorMapRecipe> TensorMapRecipe::read(FunctionOpInterface func, unsigned arg,
                                                 Attribute attr,
                                                 function_ref<InFlightDiagnostic()> emitError) {
  auto fail = [&]() {
    InFlightDiagnostic diag = emitError();
    diag << "'" << attrName << "' of argument " << arg << ": ";
    return diag;
  };
  ArrayRef<Type> types = func.getArgumentTypes();
  auto desc = dyn_cast<tk::TensorDescType>(types[arg]);
  if (!desc)
    return fail() << "the argument must be a !tk.tensordesc, not " << types[arg];
  RankedTensorType block = desc.getBlockType();
  const int64_t rank = block.getRank();
  const unsigned bits = block.getElementTypeBitWidth();
  if (rank < 1 || rank > maxRank)
    return fail() << "a tensor map has 1 to " << maxRank << " dimensions, the block has " << rank;
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return fail() << "a tensor map's elements are 1, 2, 4 or 8 bytes, not " << bits << " bits";
  const int64_t bytes = bits / 8;
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return fail() << "must be a dictionary, not " << attr;
  for (NamedAttribute entry : dict)
    if (!llvm::is_contained(
            {"base", "shape_args", "shape", "stride_args", "strides", "box", "swizzle"},
            entry.getName().getValue()))
      return fail() << "unknown entry '" << entry.getName().getValue()
                    << "' (a recipe has base, shape_args, shape, stride_args, strides, and "
                       "optionally box and swizzle)";

  TensorMapRecipe recipe;
  auto isI32Argument = [&](int32_t index) {
    return index >= 0 && size_t(index) < types.size() && types[index].isSignlessInteger(32);
  };
  auto baseAttr = dyn_cast_or_null<IntegerAttr>(dict.get("base"));
  if (!baseAttr)
    return fail() << "'base' must be the index of the pointer argument";
  const int64_t base = baseAttr.getInt();
  if (base < 0 || size_t(base) >= types.size())
    return fail() << "'base' is argument " << base << ", but the kernel has " << types.size()
                  << " arguments";
  auto pointer = dyn_cast<tk::PointerType>(types[base]);
  if (!pointer || pointer.getPointeeType() != block.getElementType())
    return fail() << "'base' is argument " << base << " of type " << types[base]
                  << ", not a !tk.ptr<" << block.getElementType() << ">";
  recipe.base = int32_t(base);

  // The sizes and strides: an i32 argument each, or a constant where the index is -1.
  auto readDims = [&](StringRef argsName, StringRef valuesName, SmallVector<int32_t> &args,
                      SmallVector<int64_t> &values) -> LogicalResult {
    auto argsAttr = dyn_cast_or_null<DenseI32ArrayAttr>(dict.get(argsName));
    auto valuesAttr = dyn_cast_or_null<DenseI64ArrayAttr>(dict.get(valuesName));
    if (!argsAttr || !valuesAttr || argsAttr.size() != rank || valuesAttr.size() != rank)
      return fail() << "'" << argsName << "' (array<i32>) and '" << valuesName
                    << "' (array<i64>) must have one entry per dimension (" << rank << ")";
    for (auto [d, index] : llvm::enumerate(argsAttr.asArrayRef()))
      if (index != -1 && !isI32Argument(index))
        return fail() << "'" << argsName << "'[" << d << "] is " << index
                      << ", which is neither -1 (a constant) nor an i32 argument of the kernel";
    args.assign(argsAttr.asArrayRef().begin(), argsAttr.asArrayRef().end());
    values.assign(valuesAttr.asArrayRef().begin(), valuesAttr.asArrayRef().end());
    return success();
  };
  if (failed(readDims("shape_args", "shape", recipe.shapeArgs, recipe.shape)) ||
      failed(readDims("stride_args", "strides", recipe.strideArgs, recipe.strides)))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    if (recipe.shapeArgs[d] == -1 && (recipe.shape[d] < 1 || recipe.shape[d] > (int64_t(1) << 32)))
      return fail() << "size " << d << " is " << recipe.shape[d] << "; TMA takes 1 to 2^32";
    const bool last = d == rank - 1;
    if (last && (recipe.strideArgs[d] != -1 || recipe.strides[d] != 1))
      return fail() << "the last stride must be the constant 1 (contiguous rows)";
    if (!last && recipe.strideArgs[d] == -1 &&
        (recipe.strides[d] < 1 || recipe.strides[d] * bytes % 16 != 0 ||
         recipe.strides[d] * bytes >= (int64_t(1) << 40)))
      return fail() << "stride " << d << " is " << recipe.strides[d]
                    << " elements; TMA takes a positive multiple of 16 bytes below 2^40";
  }

  if (Attribute boxAttr = dict.get("box")) {
    auto boxes = dyn_cast<DenseI32ArrayAttr>(boxAttr);
    if (!boxes || boxes.size() != rank)
      return fail() << "'box' (array<i32>) must have one entry per dimension (" << rank << ")";
    recipe.box.assign(boxes.asArrayRef().begin(), boxes.asArrayRef().end());
  }
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t size = recipe.box.empty() ? block.getDimSize(d) : recipe.box[d];
    if (size < 1 || size > 256)
      return fail() << "box dimension " << d << " is " << size << "; TMA takes 1 to 256";
  }
  const int64_t rowBytes =
      (recipe.box.empty() ? block.getShape().back() : recipe.box.back()) * bytes;
  if (rowBytes % 16 != 0)
    return fail() << "a box row is " << rowBytes << " bytes; TMA copies multiples of 16 bytes";
  if (Attribute swizzleAttr = dict.get("swizzle")) {
    auto swizzle = dyn_cast<IntegerAttr>(swizzleAttr);
    if (!swizzle || !llvm::is_contained({0, 32, 64, 128}, swizzle.getInt()))
      return fail() << "'swizzle' must be 0, 32, 64 or 128 (bytes), not " << swizzleAttr;
    recipe.swizzle = int32_t(swizzle.getInt());
    if (recipe.swizzle != 0 && rowBytes > recipe.swizzle)
      return fail() << "a box row of " << rowBytes << " bytes is wider than its swizzle ("
                    << recipe.swizzle << " bytes)";
  }
  return recipe;
}

std::optional<TensorMapRecipe> TensorMapRecipe::of(FunctionOpInterface func, unsigned arg) {
  Attribute attr = func.getArgAttr(arg, attrName);
  if (!attr)
    return std::nullopt;
  FailureOr<TensorMapRecipe> recipe = read(func, arg, attr, [&] { return func->emitError(); });
  if (failed(recipe))
    return std::nullopt;
  return *recipe;
}

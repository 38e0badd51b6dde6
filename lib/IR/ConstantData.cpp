//===- ConstantData.cpp - the bytes behind a tensor constant ---*- C++ -*-===//
//
// See ConstantData.h.
//
//===----------------------------------------------------------------------===//

#include "IR/ConstantData.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include <cstddef>

using namespace mlir;
using namespace mlir::tgc;

ArrayRef<char> mlir::tgc::getConstantBytes(ConstOp constant) {
  Attribute value = constant.getValue();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
    return {};
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense || dense.isSplat() || dense.getElementType().isInteger(1))
    return {};
  return dense.getRawData();
}

std::optional<double> mlir::tgc::elementAsDouble(Attribute element) {
  if (auto f = dyn_cast<FloatAttr>(element))
    return f.getValueAsDouble();
  auto i = dyn_cast<IntegerAttr>(element);
  if (!i || i.getType().getIntOrFloatBitWidth() > 32)
    return std::nullopt;
  return i.getType().isUnsignedInteger() || i.getType().isInteger(1)
             ? static_cast<double>(i.getValue().getZExtValue())
             : static_cast<double>(i.getValue().getSExtValue());
}

ElementsAttr mlir::tgc::makeBlobConstant(RankedTensorType type, StringRef name,
                                         ArrayRef<char> bytes) {
  return DenseResourceElementsAttr::get(
      type, name,
      HeapAsmResourceBlob::allocateAndCopyWithAlign(
          bytes, alignof(std::max_align_t), /*dataIsMutable=*/false));
}

ElementsAttr mlir::tgc::makeConstantLike(ConstOp original,
                                         RankedTensorType type,
                                         ArrayRef<char> bytes,
                                         StringRef suffix) {
  if (auto resource =
          dyn_cast<DenseResourceElementsAttr>(original.getValue())) {
    // A weight rewritten again by the same transform keeps one suffix (the
    // blob manager numbers the names that repeat).
    StringRef key = resource.getRawHandle().getKey();
    key = key.take_front(key.find(suffix));
    return makeBlobConstant(type, (key + suffix).str(), bytes);
  }
  return DenseElementsAttr::getFromRawBuffer(type, bytes);
}

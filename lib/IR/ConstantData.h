//===- ConstantData.h - the bytes behind a tensor constant -----*- C++ -*-===//
//
// Passes that rewrite a weight at compile time (PACK's transposes, the
// Winograd transform) read its elements as bytes and make a constant of
// the new ones, in the same form: a resource blob stays a blob.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_IR_CONSTANTDATA_H
#define TGC_IR_CONSTANTDATA_H

#include "IR/TgcOps.h"
#include <optional>

namespace mlir::tgc {

/// The bytes of a tensor constant's elements one after another, or an empty
/// array where they are not stored so: a splat, booleans (bits in the
/// attribute), a resource whose blob is missing.
ArrayRef<char> getConstantBytes(ConstOp constant);

/// A float or integer element (of at most 32 bits) as a double, exactly:
/// booleans are 0 and 1, integers without a sign read as signed. nullopt
/// for wider integers, which a double does not hold.
std::optional<double> elementAsDouble(Attribute element);

/// A resource blob `name` (numbered if taken) of `type` holding `bytes`.
ElementsAttr makeBlobConstant(RankedTensorType type, StringRef name,
                              ArrayRef<char> bytes);

/// The value of a constant of `type` holding `bytes`, in the form of
/// `original`'s: a resource blob named after it plus `suffix` (one
/// `suffix`, however often it is rewritten), else a plain
/// dense attribute.
ElementsAttr makeConstantLike(ConstOp original, RankedTensorType type,
                              ArrayRef<char> bytes, StringRef suffix);

} // namespace mlir::tgc

#endif // TGC_IR_CONSTANTDATA_H

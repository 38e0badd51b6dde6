//===- CEmitterSupport.h - C types, literals and names ---------*- C++ -*-===//
//
// The small vocabulary every C-family emitter shares: which C type holds a
// tgc element type in memory and in a register, how a constant is spelled
// exactly, and how a model's names become C identifiers.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_CEMITTERSUPPORT_H
#define TGC_CODEGEN_CEMITTERSUPPORT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <string>

namespace mlir::tgc {

/// True for f16 and bf16: stored as their 16 bits (`uint16_t`), computed in
/// `float` and rounded back after every operation.
bool isHalfLike(Type element);

/// The C type of an element in a buffer (`float`, `uint16_t` for f16 and
/// bf16, `uint8_t` for i1, `int32_t`, `ptrdiff_t` for index). Fails for
/// types C cannot hold.
FailureOr<std::string> getCStorageType(Type element);

/// The C type of a value being computed with: the storage type, except
/// `float` for f16/bf16 and `bool` for i1.
FailureOr<std::string> getCValueType(Type element);

/// The dtype name used in headers and manifests, as numpy spells it
/// ("float32", "float16", "bfloat16", "bool", "int64", ...).
std::string getDtypeName(Type element);

/// The ONNX TensorProto data type number (FLOAT = 1, ...), 0 if none.
int getOnnxDtype(Type element);

/// A C expression for the scalar constant `value` (a FloatAttr or
/// IntegerAttr) as a value of `element`'s C value type: floats printed so
/// that they read back exactly, with an `f` suffix below f64, infinities as
/// HUGE_VALF/HUGE_VAL and NaN as NAN from math.h; negative numbers in
/// parentheses so that the literal can stand anywhere in an expression.
FailureOr<std::string> renderScalarLiteral(Attribute value, Type element);

/// `name` as a C identifier: invalid characters become '_', a leading
/// digit gets a prefix, C keywords and the standard headers' object-like
/// macros get a trailing '_'.
std::string sanitizeIdentifier(llvm::StringRef name);

/// `base`, or `base_2`, `base_3`, ... : the first one whose upper-case form
/// is not in `taken` (macros are upper case, so names that differ only in
/// case would collide there). Adds the upper-case form to `taken`.
std::string makeUnique(llvm::StringRef base, llvm::StringSet<> &taken);

/// `text` as a C string literal, quotes included ('?' escaped against
/// trigraphs, non-printable bytes as octal escapes).
std::string quoteCString(llvm::StringRef text);

/// `text` made safe inside a C block comment (no comment delimiters, no
/// trigraphs, no control characters).
std::string sanitizeComment(llvm::StringRef text);

/// True if `name` is a valid C identifier (used to check --name).
bool isCIdentifier(llvm::StringRef name);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_CEMITTERSUPPORT_H

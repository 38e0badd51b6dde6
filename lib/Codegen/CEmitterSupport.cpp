//===- CEmitterSupport.cpp - C types, literals and names -------*- C++ -*-===//
//
// Type mapping, exact literals and identifier sanitization for the C-family
// emitters (tinygrad: CStyleLanguage.render_dtype and render_const).
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitterSupport.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tgc;

bool mlir::tgc::isHalfLike(Type element) {
  return element.isF16() || element.isBF16();
}

FailureOr<std::string> mlir::tgc::getCStorageType(Type element) {
  if (element.isF32())
    return std::string("float");
  if (element.isF64())
    return std::string("double");
  if (isHalfLike(element))
    return std::string("uint16_t");
  if (element.isIndex())
    return std::string("ptrdiff_t");
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer)
    return failure();
  unsigned width = integer.getWidth();
  if (width == 1)
    return std::string("uint8_t");
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return failure();
  // Signless integers are treated as signed, as tgc's folders do.
  return (integer.isUnsigned() ? "uint" : "int") + std::to_string(width) + "_t";
}

FailureOr<std::string> mlir::tgc::getCValueType(Type element) {
  if (isHalfLike(element))
    return std::string("float");
  if (element.isInteger(1))
    return std::string("bool");
  return getCStorageType(element);
}

std::string mlir::tgc::getDtypeName(Type element) {
  if (element.isF16())
    return "float16";
  if (element.isBF16())
    return "bfloat16";
  if (element.isF32())
    return "float32";
  if (element.isF64())
    return "float64";
  if (element.isInteger(1))
    return "bool";
  if (element.isIndex())
    return "index";
  if (auto integer = dyn_cast<IntegerType>(element))
    return (integer.isUnsigned() ? "uint" : "int") +
           std::to_string(integer.getWidth());
  return "unknown";
}

int mlir::tgc::getOnnxDtype(Type element) {
  // TensorProto.DataType numbers from onnx.proto.
  if (element.isF32())
    return 1;
  if (element.isF16())
    return 10;
  if (element.isF64())
    return 11;
  if (element.isBF16())
    return 16;
  if (element.isInteger(1))
    return 9;
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer)
    return 0;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 8:
    return isUnsigned ? 2 : 3;
  case 16:
    return isUnsigned ? 4 : 5;
  case 32:
    return isUnsigned ? 12 : 6;
  case 64:
    return isUnsigned ? 13 : 7;
  default:
    return 0;
  }
}

/// The shortest "%.Ng" spelling of `value` that reads back exactly as the
/// same float (or double): C compilers round decimal literals correctly, so
/// the emitted constant is bit-exact without hex floats.
static std::string shortestDecimal(double value, bool isDouble) {
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    bool exact =
        isDouble ? std::strtod(buffer, nullptr) == value
                 : std::strtof(buffer, nullptr) == static_cast<float>(value);
    if (exact)
      break;
  }
  std::string text = buffer;
  // "1" or "-3" would be integer literals: make them floating.
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

static std::string parenthesizeNegative(std::string text) {
  if (!text.empty() && text[0] == '-')
    return "(" + text + ")";
  return text;
}

static std::string renderFloat(double value, Type element) {
  bool isDouble = element.isF64();
  std::string suffix = isDouble ? "" : "f";
  if (std::isnan(value))
    return isDouble ? "((double)NAN)" : "NAN";
  if (std::isinf(value)) {
    std::string huge = isDouble ? "HUGE_VAL" : "HUGE_VALF";
    return value < 0 ? "(-" + huge + ")" : huge;
  }
  return parenthesizeNegative(shortestDecimal(value, isDouble) + suffix);
}

static std::string renderInteger(const APInt &value, Type element) {
  if (element.isInteger(1))
    return value.getBoolValue() ? "1" : "0";
  if (element.isUnsignedInteger())
    return std::to_string(value.getZExtValue()) + "u";
  int64_t number = value.getSExtValue();
  // -9223372036854775808 would parse as the negation of a literal no
  // signed type holds.
  if (number == INT64_MIN)
    return "(-9223372036854775807 - 1)";
  // C99 gives an unsuffixed decimal the first of int, long, long long that
  // holds it, so no suffix is needed.
  return parenthesizeNegative(std::to_string(number));
}

FailureOr<std::string> mlir::tgc::renderScalarLiteral(Attribute value,
                                                      Type element) {
  if (auto floatAttr = dyn_cast<FloatAttr>(value)) {
    if (!isa<FloatType>(element))
      return failure();
    return renderFloat(floatAttr.getValueAsDouble(), element);
  }
  if (auto intAttr = dyn_cast<IntegerAttr>(value)) {
    if (isa<FloatType>(element))
      return failure();
    return renderInteger(intAttr.getValue(), element);
  }
  return failure();
}

static bool isReservedWord(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      // C99 keywords.
      .Cases("auto", "break", "case", "char", "const", "continue", true)
      .Cases("default", "do", "double", "else", "enum", "extern", true)
      .Cases("float", "for", "goto", "if", "inline", "int", "long", true)
      .Cases("register", "restrict", "return", "short", "signed", true)
      .Cases("sizeof", "static", "struct", "switch", "typedef", true)
      .Cases("union", "unsigned", "void", "volatile", "while", true)
      // Object-like macros of the standard headers a product may include,
      // and C++ keywords (the header is usable from C++).
      .Cases("NULL", "NAN", "INFINITY", "HUGE_VAL", "HUGE_VALF", true)
      .Cases("EOF", "errno", "stdin", "stdout", "stderr", "bool", true)
      .Cases("true", "false", "class", "this", "new", "delete", true)
      .Cases("template", "namespace", "private", "public", "operator", true)
      .Cases("protected", "friend", "virtual", "mutable", "explicit", true)
      .Cases("typename", "typeid", "using", "export", "asm", true)
      .Cases("try", "catch", "throw", "noexcept", "nullptr", true)
      .Cases("constexpr", "consteval", "constinit", "decltype", true)
      .Cases("static_assert", "thread_local", "alignas", "alignof", true)
      .Cases("static_cast", "dynamic_cast", "const_cast", "reinterpret_cast",
             true)
      .Cases("wchar_t", "char8_t", "char16_t", "char32_t", "concept", true)
      .Cases("requires", "co_await", "co_return", "co_yield", true)
      // C++'s alternative tokens: `and` is an operator there (a CUDA or
      // Metal package's host code is C++).
      .Cases("and", "and_eq", "bitand", "bitor", "compl", "not", true)
      .Cases("not_eq", "or", "or_eq", "xor", "xor_eq", true)
      .Default(false);
}

std::string mlir::tgc::sanitizeIdentifier(llvm::StringRef name) {
  std::string result;
  for (char c : name)
    result += llvm::isAlnum(c) ? c : '_';
  if (result.empty() || llvm::isDigit(result[0]))
    result = "t_" + result;
  // Identifiers that begin with an underscore and a capital are reserved.
  else if (result[0] == '_')
    result = "t" + result;
  if (isReservedWord(result))
    result += "_";
  return result;
}

std::string mlir::tgc::makeUnique(llvm::StringRef base,
                                  llvm::StringSet<> &taken) {
  std::string candidate = base.str();
  for (unsigned suffix = 2; taken.contains(llvm::StringRef(candidate).upper());
       ++suffix)
    candidate = base.str() + "_" + std::to_string(suffix);
  taken.insert(llvm::StringRef(candidate).upper());
  return candidate;
}

bool mlir::tgc::isCIdentifier(llvm::StringRef name) {
  if (name.empty() || llvm::isDigit(name[0]))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

std::string mlir::tgc::quoteCString(llvm::StringRef text) {
  std::string result = "\"";
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\' && c != '?') {
      result += c;
      continue;
    }
    result += '\\';
    result += static_cast<char>('0' + (byte >> 6));
    result += static_cast<char>('0' + ((byte >> 3) & 7));
    result += static_cast<char>('0' + (byte & 7));
  }
  return result + "\"";
}

std::string mlir::tgc::sanitizeComment(llvm::StringRef text) {
  std::string result;
  for (char c : text) {
    // Break "*/", "/*" and "??" apart; drop control characters.
    char last = result.empty() ? '\0' : result.back();
    if ((c == '/' && last == '*') || (c == '*' && last == '/') ||
        (c == '?' && last == '?'))
      result += ' ';
    result += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  }
  return result;
}

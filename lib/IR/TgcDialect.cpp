//===- TgcDialect.cpp - tgc dialect ---------------------------*- C++ -*-===//
//
// Registers ops, attributes and types; materializes constants for folding.
//
//===----------------------------------------------------------------------===//

#include "IR/TgcDialect.h"
#include "IR/TgcOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tgc;

#include "IR/TgcDialect.cpp.inc"
#include "IR/TgcEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "IR/TgcAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "IR/TgcTypes.cpp.inc"

void TgcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "IR/TgcOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "IR/TgcAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "IR/TgcTypes.cpp.inc"
      >();
}

Operation *TgcDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  return builder.create<ConstOp>(loc, typed);
}

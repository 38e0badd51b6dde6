//===- TgcDialect.h - tgc dialect ------------------------------*- C++ -*-===//
//
// The dialect, its enums and its pointer type.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_IR_TGCDIALECT_H
#define TGC_IR_TGCDIALECT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "IR/TgcDialect.h.inc"
#include "IR/TgcEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "IR/TgcAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "IR/TgcTypes.h.inc"

#endif // TGC_IR_TGCDIALECT_H

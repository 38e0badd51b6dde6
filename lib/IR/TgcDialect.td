//===- TgcDialect.td - the tgc dialect ---------------------*- tablegen -*-===//
//
// One dialect for every level of tgc, mirroring tinygrad's single UOp graph:
// graph-level ops work on tensors, kernel-level ops on scalars, vectors,
// pointers and indices. The same elementwise ops serve both levels.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_IR_TGCDIALECT_TD
#define TGC_IR_TGCDIALECT_TD

include "mlir/IR/OpBase.td"

def Tgc_Dialect : Dialect {
  let name = "tgc";
  let summary = "tinygrad-style UOps for ahead-of-time compilation";
  let description = [{
    The op set reads side by side with tinygrad's `Ops` enum: the mnemonic
    is the lower-case name of the tinygrad op (`Ops.CMPLT` is `tgc.cmplt`).
  }];
  let cppNamespace = "::mlir::tgc";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
}

class Tgc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tgc_Dialect, mnemonic, traits>;

#endif // TGC_IR_TGCDIALECT_TD

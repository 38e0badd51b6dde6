//===- TgcTypes.td - tgc types -----------------------------*- tablegen -*-===//
//
// Graph-level values are builtin tensors; kernel-level values are builtin
// scalars and vectors. The one type of tgc's own is the pointer a kernel
// loads from and stores to (tinygrad PtrDType).
//
//===----------------------------------------------------------------------===//

#ifndef TGC_IR_TGCTYPES_TD
#define TGC_IR_TGCTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "IR/TgcAttrs.td"

def Tgc_PtrType : TypeDef<Tgc_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "pointer to elements of a buffer";
  let description = [{
    Example: `!tgc.ptr<f32>` (global memory), `!tgc.ptr<f32, reg>`.
  }];
  let parameters = (ins "::mlir::Type":$elementType,
      DefaultValuedParameter<"::mlir::tgc::AddrSpace",
                             "::mlir::tgc::AddrSpace::global">:$addrSpace);
  let assemblyFormat = "`<` $elementType (`,` $addrSpace^)? `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), elementType,
                   ::mlir::tgc::AddrSpace::global);
    }]>
  ];
}

def Tgc_AnyPtr : Type<CPred<"::llvm::isa<::mlir::tgc::PtrType>($_self)">,
                      "tgc pointer", "::mlir::tgc::PtrType">;

#endif // TGC_IR_TGCTYPES_TD

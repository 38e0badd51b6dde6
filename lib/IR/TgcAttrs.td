//===- TgcAttrs.td - tgc enum attributes -------------------*- tablegen -*-===//
//
// Axis kinds, reduce kinds and address spaces, as in tinygrad's AxisType,
// the reduce ALU ops and AddrSpace.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_IR_TGCATTRS_TD
#define TGC_IR_TGCATTRS_TD

include "mlir/IR/EnumAttr.td"
include "IR/TgcDialect.td"

// What a loop axis is for (tinygrad AxisType). Kernel opt actions turn one
// kind into another; the renderer decides from the kind how to emit a range.
def Tgc_AxisType : I32EnumAttr<"AxisType", "kind of a loop axis", [
  I32EnumAttrCase<"global", 0>,       // an output axis (grid on GPUs)
  I32EnumAttrCase<"thread", 1>,       // split across CPU threads
  I32EnumAttrCase<"local", 2>,        // GPU workgroup axis
  I32EnumAttrCase<"loop", 3>,         // an output axis run as a plain loop
  I32EnumAttrCase<"group_reduce", 4>, // reduce split across a workgroup
  I32EnumAttrCase<"reduce", 5>,       // a reduction axis
  I32EnumAttrCase<"upcast", 6>,       // output axis expanded into lanes
  I32EnumAttrCase<"unroll", 7>        // reduce axis expanded into lanes
]> {
  let cppNamespace = "::mlir::tgc";
  let genSpecializedAttr = 0;
}
def Tgc_AxisTypeAttr : EnumAttr<Tgc_Dialect, Tgc_AxisType, "axis"> {
  let assemblyFormat = "$value";
}

// The associative ops a reduction may use (tinygrad REDUCE_AXIS arg).
def Tgc_ReduceKind : I32EnumAttr<"ReduceKind", "reduction operator", [
  I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"mul", 1>,
  I32EnumAttrCase<"max", 2>
]> {
  let cppNamespace = "::mlir::tgc";
  let genSpecializedAttr = 0;
}
def Tgc_ReduceKindAttr : EnumAttr<Tgc_Dialect, Tgc_ReduceKind, "reduce_kind"> {
  let assemblyFormat = "$value";
}

// Where a pointer points (tinygrad AddrSpace).
def Tgc_AddrSpace : I32EnumAttr<"AddrSpace", "memory a pointer refers to", [
  I32EnumAttrCase<"global", 0>, I32EnumAttrCase<"local", 1>,
  I32EnumAttrCase<"reg", 2>
]> {
  let cppNamespace = "::mlir::tgc";
  let genSpecializedAttr = 0;
}
def Tgc_AddrSpaceAttr : EnumAttr<Tgc_Dialect, Tgc_AddrSpace, "addrspace"> {
  let assemblyFormat = "$value";
}

#endif // TGC_IR_TGCATTRS_TD

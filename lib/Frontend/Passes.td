//===- Passes.td - frontend passes -------------------------*- tablegen -*-===//
//
// The decompose stage (docs/architecture.md, stage 2).
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_PASSES_TD
#define TGC_FRONTEND_PASSES_TD

include "mlir/Pass/PassBase.td"

def TgcDecompose : Pass<"tgc-decompose", "::mlir::ModuleOp"> {
  let summary = "Turn every tgc.onnx_node into tgc primitives (tinygrad: "
                "the Tensor methods)";
  let description = [{
    Replaces each `tgc.onnx_node` by graph-level primitives only:
    elementwise ops, `tgc.reduce_axis` and movement ops, with explicit
    broadcasting (`tgc.reshape` + `tgc.expand`), so that the operands of
    every elementwise op have identical types. MatMul is
    reshape + expand + mul + reduce_axis add; Conv and pooling are pad + a
    window view made of movement ops + mul + reduce_axis.

    A 3x3 stride-1 Conv with a constant weight may instead be computed
    with Winograd's F(2x2, 3x3) (Winograd.h): the weight transformed at
    compile time, the input's 4x4 tiles transformed and stacked into 16
    planes, 16 products summed over the input channels, and the output
    transform realized as the image.

    Dispatch is a table from ONNX op type to a decomposition. Every node
    that cannot be decomposed (unknown op, unsupported attribute, input or
    attribute value) is reported, each with its name and op type, before
    the pass fails; nodes that could be decomposed are replaced even then.

    Example:
    ```
    %y = tgc.onnx_node "Relu"(%x) {opset = 17 : i64}
        : (tensor<4xf32>) -> tensor<4xf32>
    ```
    becomes
    ```
    %zero = tgc.const dense<0.0> : tensor<4xf32>
    %y = tgc.max %x, %zero : tensor<4xf32>
    ```
  }];
  let options = [
    Option<"winograd", "winograd", "std::string", "\"auto\"",
           "3x3 stride-1 convolutions through Winograd F(m x m, 3x3): auto "
           "(where it pays, with the tile it prefers; see Winograd.cpp), "
           "always (wherever it applies, auto's tile), never, 2x2 or 4x4 "
           "(wherever it applies, that tile)">,
    Option<"convLayout", "conv-layout", "std::string", "\"auto\"",
           "the order convolutions compute and store their outputs in: nchw, "
           "nhwc (channels last), or auto (nhwc where every convolution is "
           "pointwise, grouped with few channels per group or of at most 4 "
           "channels per group, one is grouped and spatial, and the "
           "pointwise ones have output channels in multiples of 8, as in "
           "MobileNets and ResNeXt; see Decompose.cpp)">,
    Option<"vectorRegisters", "vector-registers", "unsigned", "32",
           "the target CPU's vector registers, which winograd=auto's cost "
           "rule weighs (16 on AVX2, 32 on AVX-512; see Winograd.cpp)">
  ];
  let dependentDialects = ["::mlir::tgc::TgcDialect"];
}

#endif // TGC_FRONTEND_PASSES_TD

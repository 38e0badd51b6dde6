// Kernel counts of whole ONNX graphs through decompose, simplify, schedule.
// (Inputs/make_inputs.py writes the small models; the others are the
// bundled models.)

// Conv + BatchNormalization + Relu without padding: one kernel.
// RUN: tgc-translate --import-onnx %S/Inputs/conv_bn_relu.onnx | tgc-opt --tgc-decompose --tgc-simplify --tgc-schedule | FileCheck %s --check-prefix=CBR
// CBR-LABEL: func @main(
// CBR-COUNT-1: tgc.kernel
// CBR-NOT: tgc.kernel
// CBR: return

// With padding, the padded input is realized first (its masks would run in
// every window); conv, BN and Relu stay one kernel.
// RUN: tgc-translate --import-onnx %S/Inputs/conv_bn_relu_padded.onnx | tgc-opt --tgc-decompose --tgc-simplify --tgc-schedule | FileCheck %s --check-prefix=PAD
// PAD-LABEL: func @main(
// PAD: tgc.kernel "E_1_4_10_10"
// PAD: tgc.pad
// PAD: tgc.kernel "r_1_16_8_8_4_3_3"
// PAD: tgc.reduce_axis add
// PAD: tgc.max
// PAD-NOT: tgc.kernel
// PAD: return

// In the MLP each Gemm + bias + Relu is one kernel.
// RUN: tgc-translate --import-onnx %models/mlp/model.onnx | tgc-opt --tgc-decompose --tgc-simplify --tgc-schedule | FileCheck %s --check-prefix=MLP
// MLP-LABEL: func @main(
// MLP-COUNT-3: tgc.kernel "r_1_
// MLP-NOT: tgc.kernel
// MLP: return

// The ResNet basic block: a padding copy of the input, conv1+BN+Relu, a
// padding copy of its output (computing conv1 on the padded grid would run
// it under masks), then conv2+BN+add+Relu.
// RUN: tgc-translate --import-onnx %models/resblock/model.onnx | tgc-opt --tgc-decompose="winograd=never conv-layout=nchw" --tgc-simplify --tgc-schedule | FileCheck %s --check-prefix=RES
// RES-LABEL: func @main(
// RES: tgc.kernel "E_1_64_58_58"
// RES: tgc.kernel "r_1_64_56_56_64_3_3"
// RES: tgc.kernel "E_1_64_58_58n1"
// RES: tgc.kernel "r_1_64_56_56_64_3_3n1"
// RES-NOT: tgc.kernel
// RES: return

// The same block with its convolutions through Winograd F(4x4, 3x3) (the
// default for it), NCHW: per conv the padded input, the 36 transformed tile
// elements (one kernel: concatenated along the first axis), their products
// summed over the input channels, the output transform. conv1's BN+Relu
// run in its output transform (the padded copy for conv2 stays a copy),
// conv2's BN and residual add in its; the Relu that makes the model's
// output writes it in its own shape.
// RUN: tgc-translate --import-onnx %models/resblock/model.onnx | tgc-opt --tgc-decompose="conv-layout=nchw" --tgc-simplify --tgc-schedule | FileCheck %s --check-prefix=WINO
// WINO-LABEL: func @main(
// WINO: tgc.kernel "E_1_64_58_58"
// WINO: tgc.kernel "E_36_1_14_14_64"
// WINO: tgc.kernel "r_36_1_64_14_14_1_64"
// WINO: tgc.kernel "E_1_64_14_4_14_4"
// WINO: tgc.max %{{.*}} : tensor<1x64x14x4x14x4xf32>
// WINO-NEXT: tgc.contiguous
// WINO: tgc.kernel "E_1_64_58_58n1"
// WINO-NEXT: ^bb0
// WINO-NEXT: tgc.reshape
// WINO-NEXT: tgc.pad
// WINO-NEXT: tgc.contiguous
// WINO: tgc.kernel "E_36_1_14_14_64n1"
// WINO: tgc.kernel "r_36_1_64_14_14_1_64n1"
// WINO: tgc.kernel "E_1_64_14_4_14_4n1"(%arg0,
// WINO: tgc.reshape %arg1 : tensor<1x64x56x56xf32> -> tensor<1x64x14x4x14x4xf32>
// WINO-NEXT: tgc.add
// WINO-NEXT: tgc.contiguous
// WINO: tgc.kernel "E_1_64_56_56"
// WINO-NEXT: ^bb0
// WINO: tgc.max
// WINO-NOT: tgc.kernel
// WINO: return

// The same by default, channels last: the padded copy reads the NCHW input
// as [N, H, W, C], every kernel of the two convolutions keeps the channels
// innermost, and the last one adds the residual and writes the NCHW output.
// RUN: tgc-translate --import-onnx %models/resblock/model.onnx | tgc-opt --tgc-decompose --tgc-simplify --tgc-schedule | FileCheck %s --check-prefix=LAST
// LAST-LABEL: func @main(
// LAST: tgc.kernel "E_1_58_58_64"(%arg0) : (tensor<1x64x56x56xf32>) -> tensor<1x58x58x64xf32>
// LAST: tgc.kernel "E_36_1_14_14_64"
// LAST: tgc.kernel "r_36_1_14_14_64_1_64"
// LAST: tgc.kernel "E_1_14_4_14_4_64"
// LAST: tgc.contiguous %{{.*}} : tensor<1x14x4x14x4x64xf32>
// LAST: tgc.kernel "E_1_58_58_64n1"
// LAST: tgc.kernel "E_36_1_14_14_64n1"
// LAST: tgc.kernel "r_36_1_14_14_64_1_64n1"
// LAST: tgc.kernel "E_1_14_4_14_4_64n1"
// LAST: tgc.kernel "E_1_64_56_56"(%arg0, %{{.*}}) : (tensor<1x64x56x56xf32>, tensor<1x14x4x14x4x64xf32>) -> tensor<1x64x56x56xf32>
// LAST: tgc.add
// LAST: tgc.max
// LAST-NOT: tgc.kernel
// LAST: return

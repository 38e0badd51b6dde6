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
// RUN: tgc-translate --import-onnx %models/resblock/model.onnx | tgc-opt --tgc-decompose --tgc-simplify --tgc-schedule | FileCheck %s --check-prefix=RES
// RES-LABEL: func @main(
// RES: tgc.kernel "E_1_64_58_58"
// RES: tgc.kernel "r_1_64_56_56_64_3_3"
// RES: tgc.kernel "E_1_64_58_58n1"
// RES: tgc.kernel "r_1_64_56_56_64_3_3n1"
// RES-NOT: tgc.kernel
// RES: return

// Models from the ONNX backend test data (Debian's libonnx-testdata).
// RUN: tgc-translate --import-onnx /usr/include/onnx/backend/test/data/node/test_constant/model.onnx | FileCheck %s --check-prefix=CONST
// RUN: tgc-translate --import-onnx /usr/include/onnx/backend/test/data/node/test_slice_neg_steps/model.onnx | FileCheck %s --check-prefix=SLICE
// RUN: tgc-translate --import-onnx /usr/include/onnx/backend/test/data/node/test_maxpool_2d_ceil/model.onnx | FileCheck %s --check-prefix=POOL
// RUN: tgc-translate --import-onnx /usr/include/onnx/backend/test/data/node/test_clip_default_max/model.onnx | FileCheck %s --check-prefix=CLIP
// RUN: tgc-translate --import-onnx /usr/include/onnx/backend/test/data/node/test_cast_FLOAT_to_BFLOAT16/model.onnx | FileCheck %s --check-prefix=CAST
// RUN: tgc-translate --import-onnx /usr/include/onnx/backend/test/data/node/test_if/model.onnx | FileCheck %s --check-prefix=IF

// A graph with no inputs: the Constant node's 25 floats stay inline.
// CONST-LABEL: func.func @main() -> (tensor<5x5xf32> {tgc.name = "values"})
// CONST-NEXT: %[[V:.*]] = tgc.const dense<{{\[\[}}1.76405239, {{.*}}]]> : tensor<5x5xf32>
// CONST-NEXT: return %[[V]]

// SLICE-LABEL: func.func @main(
// SLICE-SAME: %[[X:.*]]: tensor<20x10x5xf32> {tgc.name = "x"}, %[[S:.*]]: tensor<3xsi64> {tgc.name = "starts"}, %[[E:.*]]: tensor<3xsi64> {tgc.name = "ends"}, %[[A:.*]]: tensor<3xsi64> {tgc.name = "axes"}, %[[ST:.*]]: tensor<3xsi64> {tgc.name = "steps"}) -> (tensor<19x3x2xf32> {tgc.name = "y"})
// SLICE-NEXT: tgc.onnx_node "Slice"(%[[X]], %[[S]], %[[E]], %[[A]], %[[ST]]) {opset = 13 : i64}

// POOL: tgc.onnx_node "MaxPool"(%{{.*}}) {attrs = {ceil_mode = 1 : i64, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>}, opset = 12 : i64} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>

// CLIP: tgc.onnx_node "Clip"(%arg0, %arg1) {input_slots = array<i64: 0, 2>, opset = 13 : i64} : (tensor<3x4x5xf32>, tensor<f32>) -> tensor<3x4x5xf32>

// CAST: tgc.onnx_node "Cast"(%arg0) {attrs = {to = 16 : i64}, opset = 13 : i64} : (tensor<3x4xf32>) -> tensor<3x4xbf16>

// An If on an input: both branches' constants, Where picks.
// IF-NOT: "If"
// IF: tgc.onnx_node "Where"({{.*}}) {opset = 11 : i64} : (tensor<i1>, tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>

// The shape folder computes with whole numbers held in floats (a Range over
// a float size, as in the expanded window functions), and leaves a float
// result that is not a whole number to the graph, while computing on with
// it: the trip count ceil((6 - 10) / -3) of an expanded Range folds to 2.
// Needs Debian's python3 with onnx.

// RUN: /usr/bin/python3 %S/Inputs/make_fold_float.py %t.onnx
// RUN: tgc-translate --import-onnx %t.onnx | FileCheck %s

// CHECK-LABEL: func.func @main(
// CHECK-DAG: %[[R:.*]] = tgc.const dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>
// CHECK-DAG: %[[SEVEN:.*]] = tgc.const dense<7.000000e+00> : tensor<f32>
// CHECK-DAG: %[[TWO:.*]] = tgc.const dense<2.000000e+00> : tensor<f32>
// CHECK: tgc.onnx_node "Add"(%arg0, %[[R]])
// CHECK: %[[HALF:.*]] = tgc.onnx_node "Div"(%[[SEVEN]], %[[TWO]])
// CHECK: tgc.onnx_node "Mul"(%arg0, %[[HALF]])
// CHECK: %[[STEPS:.*]] = tgc.const dense<[0, 1]> : tensor<2xsi64>
// CHECK: tgc.onnx_node "Add"(%arg1, %[[STEPS]])
// CHECK-NOT: "Range"

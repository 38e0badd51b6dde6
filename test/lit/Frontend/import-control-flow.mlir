// Control flow that is static once constants are known becomes plain nodes
// at import: If with a constant condition (the branch inlined), Loop with a
// constant trip count (unrolled), Scan over a static length (unrolled) and
// sequences at constant positions (lists of tensors).
// Needs Debian's python3 with numpy and onnx.

// RUN: rm -rf %t && /usr/bin/python3 %S/Inputs/make_control_flow.py %t

// RUN: tgc-translate --import-onnx %t/if_const.onnx | FileCheck %s --check-prefix=IF
// IF-LABEL: func.func @main(
// IF-NOT: "If"
// IF: %[[A:.*]] = tgc.onnx_node "Add"(%arg0, %arg0)
// IF-NEXT: %[[Y:.*]] = tgc.onnx_node "Identity"(%[[A]])
// IF-NOT: "Mul"
// IF: return %[[Y]]

// RUN: tgc-translate --import-onnx %t/loop.onnx | FileCheck %s --check-prefix=LOOP
// LOOP-LABEL: func.func @main(
// LOOP-NOT: "Loop"
// LOOP: %[[S1:.*]] = tgc.onnx_node "Add"(%arg0, %arg0)
// LOOP: %[[S2:.*]] = tgc.onnx_node "Add"(%{{.*}}, %arg0)
// LOOP: %[[S3:.*]] = tgc.onnx_node "Add"(%{{.*}}, %arg0)
// LOOP: tgc.onnx_node "Concat"({{.*}}) {attrs = {axis = 0 : i64}{{.*}} -> tensor<3x2xf32>

// RUN: tgc-translate --import-onnx %t/scan.onnx | FileCheck %s --check-prefix=SCAN
// SCAN-LABEL: func.func @main(
// SCAN-NOT: "Scan"
// SCAN-COUNT-3: tgc.onnx_node "Gather"(%arg1
// SCAN: tgc.onnx_node "Concat"({{.*}}) -> tensor<3x2xf32>

// RUN: tgc-translate --import-onnx %t/sequence.onnx | FileCheck %s --check-prefix=SEQ
// SEQ-LABEL: func.func @main(
// SEQ-NOT: "Sequence
// SEQ: %[[CAT:.*]] = tgc.onnx_node "Concat"(%arg0, %arg2, %arg1)
// SEQ: %[[N:.*]] = tgc.const dense<3> : tensor<si64>
// SEQ: return %[[CAT]], %{{.*}}

// An If on a condition known only at run time stays, and decompose says so.
// RUN: tgc-translate --import-onnx %t/if_runtime.onnx | not tgc-opt --tgc-decompose 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUNTIME: error: node (If): its condition is not a compile-time constant (tgc inlines the branch of a constant condition)

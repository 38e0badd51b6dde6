// Control flow that is static once constants are known becomes plain nodes
// at import: If with a constant condition (the branch inlined), Loop with a
// constant trip count (unrolled), Scan over a static length (unrolled) and
// sequences at constant positions (lists of tensors). An If on a run-time
// condition becomes a Where between both branches, inlined.
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

// An If on a condition known only at run time whose branches agree on the
// type and shape of each output: both branches inlined, Where picks (the
// condition, of shape [1] here, reshaped to a scalar).
// RUN: tgc-translate --import-onnx %t/if_runtime.onnx | FileCheck %s --check-prefix=RUNTIME
// RUNTIME-LABEL: func.func @main(
// RUNTIME-NOT: "If"
// RUNTIME-DAG: %[[T:.*]] = tgc.onnx_node "Add"(%arg0, %arg0)
// RUNTIME-DAG: %[[E:.*]] = tgc.onnx_node "Mul"(%arg0, %arg0)
// RUNTIME-DAG: %[[C:.*]] = tgc.onnx_node "Reshape"(%arg1, %{{.*}}) {{.*}} : (tensor<1xi1>, tensor<0xsi64>) -> tensor<i1>
// RUNTIME: %[[Y:.*]] = tgc.onnx_node "Where"(%[[C]], %[[T]], %[[E]]) {{.*}} -> tensor<2xf32>
// RUNTIME: return %[[Y]]

// Branches that disagree cannot be selected between: the error names the
// node, the output and both types, and the input to bind instead.
// RUN: not tgc-translate --import-onnx %t/if_mismatch.onnx 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: error: node 'pick' (If): its condition is not a compile-time constant and its branches give output 0 different types: then_branch FLOAT[2], else_branch FLOAT[4] (tgc selects between the branches of a run-time condition only when every output has the same type and static shape in both); the graph input 'b' decides it: compile with --bind-input b=FILE

// Graph inputs whose values decide shapes (here a Reshape's target, reached
// through a Concat) are compiled in as constants when their values are
// known: `tgc verify` and `tgc run` bind them from the given tensors, `tgc
// compile` takes them with --bind-input and leaves them out of the package.
// Needs Debian's python3 with numpy and onnx.

// RUN: rm -rf %t && /usr/bin/python3 %S/Inputs/make_bind_case.py %t/case
// RUN: tgc verify %t/case | FileCheck %s --check-prefix=VERIFY
// VERIFY: PASS: 1 of 1 outputs passed

// Inside a Loop body too: its Reshape reads its target shape from the
// enclosing graph; the trip count is computed from another input.
// RUN: /usr/bin/python3 %S/Inputs/make_bind_loop_case.py %t/loop
// RUN: tgc verify %t/loop | FileCheck %s --check-prefix=LOOP
// LOOP: PASS: 1 of 1 outputs passed

// RUN: tgc compile %t/case/model.onnx -o %t/pkg --bind-input shape=%t/case/test_data_set_0/input_1.pb
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/pkg/net.json
// MANIFEST:      "inputs": [
// MANIFEST-NEXT:   {
// MANIFEST-NEXT:     "name": "x",
// MANIFEST:      "outputs": [
// MANIFEST-NOT:    "name": "shape"

// Without a value the error names the input and the option.
// RUN: not tgc compile %t/case/model.onnx -o %t/pkg2 2>&1 | FileCheck %s --check-prefix=UNBOUND
// UNBOUND: error: {{.*}}model.onnx: node 'Reshape_1' (Reshape): output 'r' has no shape after ONNX shape inference (it depends on data); the graph input 'shape' decides it: compile with --bind-input shape=FILE

// RUN: not tgc compile %t/case/model.onnx -o %t/pkg3 --bind-input shape=%t/case/shape_i32.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: {{.*}}model.onnx: the value bound to input 'shape' is int32, but the input is INT64

// RUN: not tgc compile %t/case/model.onnx -o %t/pkg3 --bind-input shapes=%t/case/shape_i32.npy 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: error: {{.*}}model.onnx: the value bound to input 'shapes' names no input of the model

// Files that are not ONNX models, or models tgc cannot import: a clear error
// that names the file, never a crash.

// A model cut in the middle.
// RUN: head -c 3000 %models/mlp/model.onnx > %t.truncated.onnx
// RUN: not tgc-translate --import-onnx %t.truncated.onnx 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: truncated.onnx:0:0: error: not an ONNX model, or truncated: the protobuf parser rejected it

// A text file (this one).
// RUN: not tgc-translate --import-onnx %s 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: import-errors.mlir:0:0: error: not an ONNX model, or truncated

// An empty file parses as an empty message.
// RUN: rm -f %t.empty.onnx && touch %t.empty.onnx
// RUN: not tgc-translate --import-onnx %t.empty.onnx 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: empty.onnx:0:0: error: not an ONNX model: it has no ir_version

// A missing file.
// RUN: not tgc-translate --import-onnx %t.missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: missing.onnx{{.*}}No such file or directory

// The ONNX checker's own words.
// RUN: not tgc-translate --import-onnx %S/Inputs/checker_fails.onnx 2>&1 | FileCheck %s --check-prefix=CHECKER
// CHECKER: checker_fails.onnx:0:0: error: failed the ONNX checker: No Op registered for Reluu with domain_version of 17

// Element types without a tgc counterpart.
// RUN: not tgc-translate --import-onnx %S/Inputs/string.onnx 2>&1 | FileCheck %s --check-prefix=STRING
// STRING: string.onnx:0:0: error: input 's' has element type STRING, which tgc does not support
// RUN: not tgc-translate --import-onnx /usr/include/onnx/backend/test/data/node/test_cast_FLOAT_to_STRING/model.onnx 2>&1 | FileCheck %s --check-prefix=CAST
// CAST: error: node 'Cast_0' (Cast): output 'output' has element type STRING, which tgc does not support

// A shape that depends on data; the node reading it is not reported again.
// RUN: not tgc-translate --import-onnx %S/Inputs/data_dependent.onnx 2>&1 | FileCheck %s --check-prefix=DATA
// DATA: error: node 'nonzero' (NonZero): output 'nz' has a dim that stays unknown after ONNX shape inference (it depends on data)
// DATA-NOT: error

// Ops ONNX does not know cannot be typed.
// RUN: not tgc-translate --import-onnx %S/Inputs/custom_domain.onnx 2>&1 | FileCheck %s --check-prefix=CUSTOM
// CUSTOM: error: node 'foo' (Foo): output 't' has a shape ONNX shape inference could not find

// An If on a graph input whose branches agree imports as a Where between
// them (subgraphs that stay import as a marker attribute, which decompose
// reports: decompose-errors.mlir).
// RUN: tgc-translate --import-onnx %S/Inputs/misc.onnx | FileCheck %s --check-prefix=GRAPH
// GRAPH-NOT: "If"
// GRAPH: tgc.onnx_node "Where"(%arg1, %{{.*}}, %{{.*}}) {opset = 17 : i64} : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>

// Tensor data in each of its forms: raw_data, the typed fields (FLOAT16 bit
// patterns in int32_data, UINT32 in uint64_data, ...), and external files
// that must stay inside the model's folder. Also: every element type, an
// initializer that is also an input (a weight), Constant node attributes,
// an omitted optional input, and names for unnamed nodes.

// RUN: tgc-translate --import-onnx %S/Inputs/misc.onnx --mlir-print-debuginfo | FileCheck %s
// CHECK-LABEL: func.func @main(
// 'cmax' is an initializer listed as an input too: a weight, not an argument.
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x10xf32> {tgc.name = "x"} loc({{.*}}), %[[C:[^:]*]]: tensor<i1> {tgc.name = "cond"} loc({{.*}})) ->
// CHECK-SAME: (tensor<1x10xf32> {tgc.name = "z"}, tensor<2xf32> {tgc.name = "sel"}, tensor<2xf16> {tgc.name = "h"}, tensor<3xi1> {tgc.name = "b"}, tensor<2xsi8> {tgc.name = "i8"}, tensor<2xui32> {tgc.name = "u32"}, tensor<65xf32> {tgc.name = "many"})
// 100 floats from raw_data and from float_data; '/' is not valid in a blob name.
// CHECK: %[[W1:.*]] = tgc.const dense_resource<w.raw> : tensor<10x10xf32>
// CHECK: %[[W2:.*]] = tgc.const dense_resource<w_typed> : tensor<10x10xf32>
// CHECK: tgc.const dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf16>
// CHECK: tgc.const dense<[true, false, true]> : tensor<3xi1>
// CHECK: tgc.const dense<[-3, 7]> : tensor<2xsi8>
// CHECK: tgc.const dense<[4000000000, 1]> : tensor<2xui32>
// CHECK: %[[CMAX:.*]] = tgc.const dense<6.000000e+00> : tensor<f32>
// CHECK: %[[M0:.*]] = tgc.onnx_node "MatMul"(%[[X]], %[[W1]]) {opset = 17 : i64} : (tensor<1x10xf32>, tensor<10x10xf32>) -> tensor<1x10xf32> loc(#[[UNNAMED:loc[0-9]+]])
// CHECK: %[[M1:.*]] = tgc.onnx_node "MatMul"(%[[M0]], %[[W2]])
// Clip's min (input 1) is omitted: the operands keep their ONNX slots.
// CHECK: tgc.onnx_node "Clip"(%[[M1]], %[[CMAX]]) {input_slots = array<i64: 0, 2>, opset = 17 : i64}
// CHECK: tgc.const dense<5.000000e-01> : tensor<f32>
// CHECK: tgc.const dense<[1, 10]> : tensor<2xsi64>
// A Constant's value_floats: more than 64 become a blob too.
// CHECK: tgc.const dense_resource<many> : tensor<65xf32>
// CHECK: #[[UNNAMED]] = loc("MatMul_0"(#loc))
// CHECK: dialect_resources
// CHECK: w.raw: "0x04000000

// RUN: tgc-translate --import-onnx %S/Inputs/types.onnx | FileCheck %s --check-prefix=TYPES
// TYPES: func.func @main(%{{.*}}: tensor<2xf16> {tgc.name = "x0"}, %{{.*}}: tensor<2xbf16> {tgc.name = "x1"}, %{{.*}}: tensor<2xf32> {tgc.name = "x2"}, %{{.*}}: tensor<2xf64> {tgc.name = "x3"}, %{{.*}}: tensor<2xi1> {tgc.name = "x4"}, %{{.*}}: tensor<2xsi8> {tgc.name = "x5"}, %{{.*}}: tensor<2xsi16> {tgc.name = "x6"}, %{{.*}}: tensor<2xsi32> {tgc.name = "x7"}, %{{.*}}: tensor<2xsi64> {tgc.name = "x8"}, %{{.*}}: tensor<2xui8> {tgc.name = "x9"}, %{{.*}}: tensor<2xui16> {tgc.name = "x10"}, %{{.*}}: tensor<2xui32> {tgc.name = "x11"}, %{{.*}}: tensor<2xui64> {tgc.name = "x12"})

// External data at an offset, in the model's folder (also through "..").
// RUN: tgc-translate --import-onnx %S/Inputs/external.onnx | FileCheck %s --check-prefix=EXT
// RUN: tgc-translate --import-onnx %S/Inputs/external_dotdot_inside.onnx | FileCheck %s --check-prefix=EXT
// EXT: tgc.const dense_resource<a> : tensor<80xf32>
// EXT: tgc.const dense<[1, -2, 3]> : tensor<3xsi64>
// EXT: a: "0x04000000000000000000003E0000803E0000C03E0000003F0000203F

// RUN: not tgc-translate --import-onnx %S/Inputs/external_absolute.onnx 2>&1 | FileCheck %s --check-prefix=ABS
// ABS: error: tensor 'a': external data path '/etc/hostname' is absolute; it must be relative to the model's folder
// RUN: not tgc-translate --import-onnx %S/Inputs/external_escape.onnx 2>&1 | FileCheck %s --check-prefix=ESCAPE
// ESCAPE: error: tensor 'a': external data path '../external.bin' leaves the model's folder
// A symbolic link in the folder that points out of it.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %S/Inputs/external.onnx %t.dir/
// RUN: ln -s %S/Inputs/external.bin %t.dir/external.bin
// RUN: not tgc-translate --import-onnx %t.dir/external.onnx 2>&1 | FileCheck %s --check-prefix=SYMLINK
// SYMLINK: error: tensor 'a': external data path 'external.bin' leaves the model's folder (through a symbolic link)
// RUN: not tgc-translate --import-onnx %S/Inputs/external_missing.onnx 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: tensor 'a': external data path 'missing.bin' cannot be opened: No such file or directory
// RUN: not tgc-translate --import-onnx %S/Inputs/external_beyond.onnx 2>&1 | FileCheck %s --check-prefix=BEYOND
// BEYOND: error: tensor 'a': external data [1048576, 1048896) of 'external.bin' lies beyond its end (360 bytes)

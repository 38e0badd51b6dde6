// RUN: tgc-opt %s --tgc-decompose | FileCheck %s --check-prefix=AUTO
// RUN: tgc-opt %s --tgc-decompose="conv-layout=nchw" | FileCheck %s --check-prefix=NCHW
// RUN: not tgc-opt %s --tgc-decompose="conv-layout=nhcw" 2>&1 | FileCheck %s --check-prefix=BAD
// A depthwise-separable pair (a 3x3 depthwise convolution, then a 1x1 one)
// is computed channels last under `auto`: the input is permuted to
// [N, H, W, C] before its pad, each sum comes out as [N, H, W, C], and
// the NCHW results are permutes of them.

// AUTO-LABEL: func @separable(
//       AUTO:   %[[XL:.*]] = tgc.permute %arg0 [0, 2, 3, 1] : tensor<1x8x6x6xf32> -> tensor<1x6x6x8xf32>
//  AUTO-NEXT:   tgc.pad %[[XL]] low [0, 1, 1, 0] high [0, 1, 1, 0] : tensor<1x6x6x8xf32> -> tensor<1x8x8x8xf32>
//       AUTO:   tgc.reduce_axis add %{{.*}} : tensor<1x6x6x8x1x1x3x3xf32> -> tensor<1x6x6x8x1x1x1x1xf32>
//       AUTO:   %[[D:.*]] = tgc.reshape %{{.*}} : tensor<1x6x6x8x1x1x1x1xf32> -> tensor<1x6x6x8xf32>
//  AUTO-NEXT:   tgc.permute %[[D]] [0, 3, 1, 2] : tensor<1x6x6x8xf32> -> tensor<1x8x6x6xf32>
//       AUTO:   tgc.reduce_axis add %{{.*}} : tensor<1x6x6x1x16x8x1x1xf32> -> tensor<1x6x6x1x16x1x1x1xf32>
//       AUTO:   %[[P:.*]] = tgc.reshape %{{.*}} : tensor<1x6x6x1x16x1x1x1xf32> -> tensor<1x6x6x16xf32>
//  AUTO-NEXT:   %[[Y:.*]] = tgc.permute %[[P]] [0, 3, 1, 2] : tensor<1x6x6x16xf32> -> tensor<1x16x6x6xf32>
//  AUTO-NEXT:   return %[[Y]]

// NCHW-LABEL: func @separable(
//  NCHW-NEXT:   tgc.pad %arg0 low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x8x6x6xf32> -> tensor<1x8x8x8xf32>
//   NCHW-NOT:   tgc.permute {{.*}} [0, 2, 3, 1]
//       NCHW:   tgc.reduce_axis add %{{.*}} -> tensor<1x1x16x6x6x1x1x1xf32>
//  NCHW-NEXT:   tgc.reshape %{{.*}} -> tensor<1x16x6x6xf32>

// BAD: conv-layout must be auto, nchw or nhwc, not 'nhcw'
func.func @separable(%x: tensor<1x8x6x6xf32>, %dw: tensor<8x1x3x3xf32>, %pw: tensor<16x8x1x1xf32>) -> tensor<1x16x6x6xf32> {
  %0 = tgc.onnx_node "Conv"(%x, %dw) {opset = 11 : i64, attrs = {group = 8 : i64, pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = tgc.onnx_node "Conv"(%0, %pw) {opset = 11 : i64, attrs = {}} : (tensor<1x8x6x6xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x6x6xf32>
  return %1 : tensor<1x16x6x6xf32>
}

// RUN: tgc-opt %s --split-input-file --tgc-image-loop="mode=always" | FileCheck %s
// RUN: tgc-opt %s --split-input-file --tgc-image-loop | FileCheck %s --check-prefix=AUTO
// RUN: tgc-opt %s --split-input-file --tgc-image-loop="mode=auto min-bytes=0" | FileCheck %s --check-prefix=SMALL
// RUN: tgc-opt %s --split-input-file --tgc-image-loop="mode=never" | FileCheck %s --check-prefix=NEVER
// A batch whose images never meet becomes one image and tgc.images.

// A 1x1 convolution with a bias and a relu: the weights broadcast over the
// batch (expand from 1), the splat zero of the relu is re-made at one
// image, the bias constant (the same row for every image) is sliced.
// CHECK-LABEL: module attributes {tgc.images = 4 : i64}
//       CHECK: func.func @main(%[[X:.*]]: tensor<1x8x16xf32>) -> tensor<1x4x16xf32>
//       CHECK:   %[[XE:.*]] = tgc.expand %{{.*}} : tensor<1x1x8x16xf32> -> tensor<1x4x8x16xf32>
//       CHECK:   %[[W:.*]] = tgc.expand %{{.*}} : tensor<1x4x8x1xf32> -> tensor<1x4x8x16xf32>
//       CHECK:   tgc.mul %[[XE]], %[[W]] : tensor<1x4x8x16xf32>
//       CHECK:   tgc.reduce_axis add %{{.*}} [2] : tensor<1x4x8x16xf32> -> tensor<1x4x1x16xf32>
//       CHECK:   %[[B:.*]] = tgc.shrink %{{.*}} begin [0, 0, 0] end [1, 4, 16] : tensor<4x4x16xf32> -> tensor<1x4x16xf32>
//       CHECK:   %[[Y:.*]] = tgc.add %{{.*}}, %[[B]] : tensor<1x4x16xf32>
//       CHECK:   %[[Z:.*]] = tgc.const dense<0.000000e+00> : tensor<1x4x16xf32>
//       CHECK:   %[[R:.*]] = tgc.max %[[Y]], %[[Z]] : tensor<1x4x16xf32>
//       CHECK:   return %[[R]] : tensor<1x4x16xf32>
// mode=auto: the weights are a splat (nothing to read again per image),
// but the batch's activations (1 KiB) fit any cache.
// AUTO-LABEL: func.func @main(%{{.*}}: tensor<4x8x16xf32>) -> tensor<4x4x16xf32>
// SMALL-LABEL: module attributes {tgc.images = 4 : i64}
// NEVER-NOT: tgc.images
module {
  func.func @main(%x: tensor<4x8x16xf32>) -> tensor<4x4x16xf32> {
    %w = tgc.const dense<0.5> : tensor<4x8xf32>
    %bias = tgc.const dense<[[[1.0], [2.0], [3.0], [4.0]], [[1.0], [2.0], [3.0], [4.0]], [[1.0], [2.0], [3.0], [4.0]], [[1.0], [2.0], [3.0], [4.0]]]> : tensor<4x4x1xf32>
    %zero = tgc.const dense<0.0> : tensor<4x4x16xf32>
    %w1 = tgc.reshape %w : tensor<4x8xf32> -> tensor<1x4x8x1xf32>
    %w2 = tgc.expand %w1 : tensor<1x4x8x1xf32> -> tensor<4x4x8x16xf32>
    %x1 = tgc.reshape %x : tensor<4x8x16xf32> -> tensor<4x1x8x16xf32>
    %x2 = tgc.expand %x1 : tensor<4x1x8x16xf32> -> tensor<4x4x8x16xf32>
    %p = tgc.mul %x2, %w2 : tensor<4x4x8x16xf32>
    %s = tgc.reduce_axis add %p [2] : tensor<4x4x8x16xf32> -> tensor<4x4x1x16xf32>
    %s1 = tgc.reshape %s : tensor<4x4x1x16xf32> -> tensor<4x4x16xf32>
    %b1 = tgc.expand %bias : tensor<4x4x1xf32> -> tensor<4x4x16xf32>
    %y = tgc.add %s1, %b1 : tensor<4x4x16xf32>
    %r = tgc.max %y, %zero : tensor<4x4x16xf32>
    return %r : tensor<4x4x16xf32>
  }
}

// -----

// The batch axis moves (a permute, a reshape that adds a leading 1 and
// one that drops it, a pad and a shrink of other axes) and comes back to
// dim 0 for the output.
// CHECK-LABEL: module attributes {tgc.images = 3 : i64}
//       CHECK: func.func @main(%{{.*}}: tensor<1x5xf32>) -> tensor<1x4xf32>
//       CHECK:   tgc.permute %{{.*}} [1, 0] : tensor<1x5xf32> -> tensor<5x1xf32>
//       CHECK:   tgc.reshape %{{.*}} : tensor<5x1xf32> -> tensor<1x5x1xf32>
//       CHECK:   tgc.pad %{{.*}} low [0, 1, 0] high [0, 0, 0] : tensor<1x5x1xf32> -> tensor<1x6x1xf32>
//       CHECK:   tgc.shrink %{{.*}} begin [0, 2, 0] end [1, 6, 1] : tensor<1x6x1xf32> -> tensor<1x4x1xf32>
//       CHECK:   tgc.flip %{{.*}} [1] : tensor<1x4x1xf32> -> tensor<1x4x1xf32>
//       CHECK:   tgc.reshape %{{.*}} : tensor<1x4x1xf32> -> tensor<4x1xf32>
//       CHECK:   tgc.permute %{{.*}} [1, 0] : tensor<4x1xf32> -> tensor<1x4xf32>
module {
  func.func @main(%x: tensor<3x5xf32>) -> tensor<3x4xf32> {
    %t = tgc.permute %x [1, 0] : tensor<3x5xf32> -> tensor<5x3xf32>
    %a = tgc.reshape %t : tensor<5x3xf32> -> tensor<1x5x3xf32>
    %p = tgc.pad %a low [0, 1, 0] high [0, 0, 0] : tensor<1x5x3xf32> -> tensor<1x6x3xf32>
    %s = tgc.shrink %p begin [0, 2, 0] end [1, 6, 3] : tensor<1x6x3xf32> -> tensor<1x4x3xf32>
    %f = tgc.flip %s [1] : tensor<1x4x3xf32> -> tensor<1x4x3xf32>
    %b = tgc.reshape %f : tensor<1x4x3xf32> -> tensor<4x3xf32>
    %r = tgc.permute %b [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
    return %r : tensor<3x4xf32>
  }
}

// -----

// Ops that mix images leave the batch as it is.
// CHECK-LABEL: module {
//   CHECK-NOT: tgc.images
//       CHECK: func.func @main(%{{.*}}: tensor<4x8xf32>) -> tensor<1x8xf32>
// A reduce over the batch (a batch mean).
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<1x8xf32> {
    %s = tgc.reduce_axis add %x [0] : tensor<4x8xf32> -> tensor<1x8xf32>
    return %s : tensor<1x8xf32>
  }
}

// -----

// CHECK-LABEL: module {
//   CHECK-NOT: tgc.images
//       CHECK: func.func @main(%{{.*}}: tensor<4x8xf32>) -> tensor<32xf32>
// A reshape that merges the batch with the features.
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<32xf32> {
    %r = tgc.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
    return %r : tensor<32xf32>
  }
}

// -----

// CHECK-LABEL: module {
//   CHECK-NOT: tgc.images
//       CHECK: func.func @main(%{{.*}}: tensor<2x3xf32>) -> tensor<2x3xf32>
// A constant that differs from image to image.
module {
  func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %c = tgc.const dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 4.0]]> : tensor<2x3xf32>
    %y = tgc.add %x, %c : tensor<2x3xf32>
    return %y : tensor<2x3xf32>
  }
}

// -----

// CHECK-LABEL: module {
//   CHECK-NOT: tgc.images
//       CHECK: func.func @main(%{{.*}}: tensor<4x8xf32>) -> tensor<4x8xf32>
// A reversal and a shift of the images (flip and shrink+pad on dim 0).
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %f = tgc.flip %x [0] : tensor<4x8xf32> -> tensor<4x8xf32>
    %s = tgc.shrink %f begin [1, 0] end [4, 8] : tensor<4x8xf32> -> tensor<3x8xf32>
    %p = tgc.pad %s low [1, 0] high [0, 0] : tensor<3x8xf32> -> tensor<4x8xf32>
    return %p : tensor<4x8xf32>
  }
}

// -----

// CHECK-LABEL: module {
//   CHECK-NOT: tgc.images
//       CHECK: func.func @main(%{{.*}}: tensor<4x8xf32>) -> tensor<8x4xf32>
// An output whose images are not along dim 0.
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
    %t = tgc.permute %x [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
    return %t : tensor<8x4xf32>
  }
}

// -----

// CHECK-LABEL: module {
//   CHECK-NOT: tgc.images
//       CHECK: func.func @main(%{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x8xf32>)
// Inputs whose dim 0 differ: no batch.
module {
  func.func @main(%x: tensor<4x8xf32>, %y: tensor<8x8xf32>) -> tensor<4x8xf32> {
    return %x : tensor<4x8xf32>
  }
}

// -----

// A matrix-vector product per image reads 256 KiB of weights for 0.5
// FLOP per byte: the batch stays a matrix product even where its
// activations are big.
// SMALL-LABEL: module {
//   SMALL-NOT: tgc.images
//       SMALL: func.func @main(%{{.*}}: tensor<512x256xf32>) -> tensor<512x256xf32>
// CHECK-LABEL: module attributes {tgc.images = 512 : i64}
module {
  func.func @main(%x: tensor<512x256xf32>) -> tensor<512x256xf32> {
    %w = tgc.const dense_resource<w> : tensor<256x256xf32>
    %x1 = tgc.reshape %x : tensor<512x256xf32> -> tensor<512x1x256xf32>
    %x2 = tgc.expand %x1 : tensor<512x1x256xf32> -> tensor<512x256x256xf32>
    %w1 = tgc.reshape %w : tensor<256x256xf32> -> tensor<1x256x256xf32>
    %w2 = tgc.expand %w1 : tensor<1x256x256xf32> -> tensor<512x256x256xf32>
    %p = tgc.mul %x2, %w2 : tensor<512x256x256xf32>
    %s = tgc.reduce_axis add %p [2] : tensor<512x256x256xf32> -> tensor<512x256x1xf32>
    %r = tgc.reshape %s : tensor<512x256x1xf32> -> tensor<512x256xf32>
    return %r : tensor<512x256xf32>
  }
}

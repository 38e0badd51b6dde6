// RUN: tgc-opt %s --tgc-image-loop="mode=always parallel=2" | FileCheck %s --check-prefix=TWO
// RUN: tgc-opt %s --tgc-image-loop="mode=always parallel=9" | FileCheck %s --check-prefix=ALL
// RUN: tgc-opt %s --tgc-image-loop="mode=always" | FileCheck %s --check-prefix=ONE
// RUN: tgc-opt %s --tgc-image-loop="mode=never parallel=2" | FileCheck %s --check-prefix=NEVER
// RUN: not tgc-opt %s --tgc-image-loop="mode=always parallel=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// tgc-image-loop's parallel=P: a looped batch of N images is computed P at
// a time (at most N), which the module records for the run function.

// TWO: module attributes {tgc.images = 4 : i64, tgc.parallel_images = 2 : i64}
// ALL: module attributes {tgc.images = 4 : i64, tgc.parallel_images = 4 : i64}
// ONE: module attributes {tgc.images = 4 : i64}
// ONE-NOT: tgc.parallel_images
// NEVER-NOT: tgc.images
// NEVER-NOT: tgc.parallel_images
// ZERO: tgc-image-loop: parallel must be at least 1, not 0
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %zero = tgc.const dense<0.0> : tensor<4x8xf32>
    %r = tgc.max %x, %zero : tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
}

// RUN: tgc-opt %s --tgc-lower | FileCheck %s
// Kernels of tensor ops become loop programs; movement ops become index
// arithmetic.

// A permute reads the source with swapped indices.
// CHECK-LABEL: func @permute(
//       CHECK:   ^bb0(%[[IN:.*]]: !tgc.ptr<f32>, %[[OUT:.*]]: !tgc.ptr<f32>):
//       CHECK:     %[[I:.*]] = tgc.range 3 global id 0
//       CHECK:     %[[J:.*]] = tgc.range 2 global id 1
//       CHECK:     %[[C3:.*]] = tgc.const 3 : index
//       CHECK:     %[[JS:.*]] = tgc.mul %[[J]], %[[C3]] : index
//       CHECK:     %[[SRC:.*]] = tgc.add %[[JS]], %[[I]] : index
//       CHECK:     %[[P:.*]] = tgc.index %[[IN]][%[[SRC]]]
//       CHECK:     %[[V:.*]] = tgc.load %[[P]]
//       CHECK:     %[[N:.*]] = tgc.neg %[[V]] : f32
//       CHECK:     %[[C2:.*]] = tgc.const 2 : index
//       CHECK:     %[[IS:.*]] = tgc.mul %[[I]], %[[C2]] : index
//       CHECK:     %[[DST:.*]] = tgc.add %[[IS]], %[[J]] : index
//       CHECK:     %[[Q:.*]] = tgc.index %[[OUT]][%[[DST]]]
//       CHECK:     tgc.store %[[Q]], %[[N]]
//       CHECK:     tgc.end %[[J]]
//       CHECK:     tgc.end %[[I]]
//       CHECK:     tgc.sink
func.func @permute(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %k = tgc.kernel "E_3_2" (%x) : (tensor<2x3xf32>) -> tensor<3x2xf32> {
  ^bb0(%a: tensor<2x3xf32>):
    %p = tgc.permute %a [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
    %n = tgc.neg %p : tensor<3x2xf32>
    tgc.sink %n : tensor<3x2xf32>
  }
  return %k : tensor<3x2xf32>
}

// A pad gates the load under it and selects 0 outside the source.
// CHECK-LABEL: func @pad(
//       CHECK:     %[[I:.*]] = tgc.range 6 global id 0
//       CHECK:     %[[LO:.*]] = tgc.cmplt %{{.*}}, %[[I]] : index
//       CHECK:     %[[HI:.*]] = tgc.cmplt %[[I]], %{{.*}} : index
//       CHECK:     %[[VALID:.*]] = tgc.and %[[LO]], %[[HI]] : i1
//       CHECK:     %[[P:.*]] = tgc.index %{{.*}}[%{{.*}}], %[[VALID]]
//       CHECK:     %[[V:.*]] = tgc.load %[[P]] else %{{.*}}
//       CHECK:     tgc.where %[[VALID]], %[[V]], %{{.*}} : i1, f32
func.func @pad(%x: tensor<4xf32>) -> tensor<6xf32> {
  %k = tgc.kernel "E_6" (%x) : (tensor<4xf32>) -> tensor<6xf32> {
  ^bb0(%a: tensor<4xf32>):
    %p = tgc.pad %a low [1] high [1] : tensor<4xf32> -> tensor<6xf32>
    tgc.sink %p : tensor<6xf32>
  }
  return %k : tensor<6xf32>
}

// A reduce opens reduce ranges and closes them with tgc.reduce; the
// size-1 output dim gets no range.
// CHECK-LABEL: func @reduce(
//       CHECK:     %[[I:.*]] = tgc.range 4 global id 0
//       CHECK:     %[[K:.*]] = tgc.range 8 reduce id 1
//       CHECK:     %[[V:.*]] = tgc.load
//       CHECK:     tgc.end %[[K]]
//       CHECK:     %[[S:.*]] = tgc.reduce max %[[V]] over %[[K]] : f32
//       CHECK:     tgc.store %{{.*}}, %[[S]]
//       CHECK:     tgc.end %[[I]]
func.func @reduce(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %k = tgc.kernel "r_4_8" (%x) : (tensor<4x8xf32>) -> tensor<4x1xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %r = tgc.reduce_axis max %a [1] : tensor<4x8xf32> -> tensor<4x1xf32>
    tgc.sink %r : tensor<4x1xf32>
  }
  return %k : tensor<4x1xf32>
}

// A reshape that splits a dim divides and takes the remainder; one that
// only adds unit dims keeps the index as it is.
// CHECK-LABEL: func @reshape(
//       CHECK:     %[[I:.*]] = tgc.range 12 global id 0
//   CHECK-DAG:     %[[D:.*]] = tgc.idiv %[[I]], %{{.*}} : index
//   CHECK-DAG:     %[[M:.*]] = tgc.mod %[[I]], %{{.*}} : index
func.func @reshape(%x: tensor<3x4xf32>) -> tensor<12xf32> {
  %k = tgc.kernel "E_12" (%x) : (tensor<3x4xf32>) -> tensor<12xf32> {
  ^bb0(%a: tensor<3x4xf32>):
    %p = tgc.permute %a [0, 1] : tensor<3x4xf32> -> tensor<3x4xf32>
    %r = tgc.reshape %p : tensor<3x4xf32> -> tensor<12xf32>
    %e = tgc.exp2 %r : tensor<12xf32>
    tgc.sink %e : tensor<12xf32>
  }
  return %k : tensor<12xf32>
}

// Already lowered kernels are left alone.
// CHECK-LABEL: func @not_lowered_twice(
//       CHECK:     tgc.range 2 global id 7
func.func @not_lowered_twice(%x: tensor<2xf32>) -> tensor<2xf32> {
  %k = tgc.kernel "E_2" (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %i = tgc.range 2 global id 7
    %p = tgc.index %in[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %q = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, f32
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<2xf32>
}

// An empty result needs no loop (a range has a bound of at least 1).
// CHECK-LABEL: func @empty_result(
//       CHECK:   ^bb0(%{{.*}}: !tgc.ptr<f32>, %{{.*}}: !tgc.ptr<f32>):
//  CHECK-NEXT:     tgc.sink
//  CHECK-NEXT:   }
func.func @empty_result(%x: tensor<3x0xf32>) -> tensor<0x3xf32> {
  %k = tgc.kernel "E_0_3" (%x) : (tensor<3x0xf32>) -> tensor<0x3xf32> {
  ^bb0(%a: tensor<3x0xf32>):
    %p = tgc.permute %a [1, 0] : tensor<3x0xf32> -> tensor<0x3xf32>
    tgc.sink %p : tensor<0x3xf32>
  }
  return %k : tensor<0x3xf32>
}

// A sum over an empty axis is 0, a product 1, with no reduce loop.
// CHECK-LABEL: func @reduce_empty_axis(
//   CHECK-NOT:   tgc.range 0
//       CHECK:   %[[I:.*]] = tgc.range 3 global id 0
//       CHECK:   %[[ONE:.*]] = tgc.const 1.000000e+00 : f32
//       CHECK:   tgc.store %{{.*}}, %[[ONE]]
func.func @reduce_empty_axis(%x: tensor<3x0xf32>) -> tensor<3x1xf32> {
  %k = tgc.kernel "r_3_0" (%x) : (tensor<3x0xf32>) -> tensor<3x1xf32> {
  ^bb0(%a: tensor<3x0xf32>):
    %r = tgc.reduce_axis mul %a [1] : tensor<3x0xf32> -> tensor<3x1xf32>
    tgc.sink %r : tensor<3x1xf32>
  }
  return %k : tensor<3x1xf32>
}

// Output dims that every address walks as one (row stride = row length)
// become one global range: 4x8 is one axis of 32.
// CHECK-LABEL: func @merge_contiguous(
//       CHECK:     %[[I:.*]] = tgc.range 32 global id 0
//   CHECK-NOT:     tgc.range
//       CHECK:     tgc.index %{{.*}}[%[[I]]]
//       CHECK:     tgc.index %{{.*}}[%[[I]]]
//       CHECK:     tgc.end %[[I]]
//  CHECK-NEXT:     tgc.sink
func.func @merge_contiguous(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %k = tgc.kernel "E_4_8" (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %n = tgc.neg %a : tensor<4x8xf32>
    tgc.sink %n : tensor<4x8xf32>
  }
  return %k : tensor<4x8xf32>
}

// A channel dim whose stride stays the image's size merges the image's
// rows and columns but not itself into them when a per-channel weight
// (stride 1 along the channel) is read: 2x(3x4).
// CHECK-LABEL: func @merge_image_not_channel(
//       CHECK:     tgc.range 2 global id 0
//       CHECK:     tgc.range 12 global id 1
//   CHECK-NOT:     tgc.range
func.func @merge_image_not_channel(%x: tensor<2x3x4xf32>, %b: tensor<2x1x1xf32>) -> tensor<2x3x4xf32> {
  %k = tgc.kernel "E_2_3_4" (%x, %b) : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32> {
  ^bb0(%a: tensor<2x3x4xf32>, %c: tensor<2x1x1xf32>):
    %e = tgc.expand %c : tensor<2x1x1xf32> -> tensor<2x3x4xf32>
    %s = tgc.add %a, %e : tensor<2x3x4xf32>
    tgc.sink %s : tensor<2x3x4xf32>
  }
  return %k : tensor<2x3x4xf32>
}

// A pad gates its loads by row and column: nothing merges.
// CHECK-LABEL: func @no_merge_under_pad(
//       CHECK:     tgc.range 4 global id 0
//       CHECK:     tgc.range 6 global id 1
func.func @no_merge_under_pad(%x: tensor<4x4xf32>) -> tensor<4x6xf32> {
  %k = tgc.kernel "E_4_6" (%x) : (tensor<4x4xf32>) -> tensor<4x6xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    %p = tgc.pad %a low [0, 1] high [0, 1] : tensor<4x4xf32> -> tensor<4x6xf32>
    tgc.sink %p : tensor<4x6xf32>
  }
  return %k : tensor<4x6xf32>
}

// A reduce read twice at the same element (x * exp2(x) of a matmul's x, the
// two consumers joined in one kernel) is one reduce loop, though each read
// goes through a reshape of its own (each makes its own index 0).
// CHECK-LABEL: func @reduce_read_twice(
//       CHECK:   tgc.reduce add
//   CHECK-NOT:   tgc.reduce
//       CHECK:   tgc.exp2
//       CHECK:   tgc.sink
func.func @reduce_read_twice(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %k = tgc.kernel "r_4_16_8" (%a, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32> {
  ^bb0(%ka: tensor<4x8xf32>, %kw: tensor<8x16xf32>):
    %a1 = tgc.reshape %ka : tensor<4x8xf32> -> tensor<4x1x8xf32>
    %a2 = tgc.expand %a1 : tensor<4x1x8xf32> -> tensor<4x16x8xf32>
    %wt = tgc.permute %kw [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
    %w1 = tgc.reshape %wt : tensor<16x8xf32> -> tensor<1x16x8xf32>
    %w2 = tgc.expand %w1 : tensor<1x16x8xf32> -> tensor<4x16x8xf32>
    %p = tgc.mul %a2, %w2 : tensor<4x16x8xf32>
    %s = tgc.reduce_axis add %p [2] : tensor<4x16x8xf32> -> tensor<4x16x1xf32>
    %x = tgc.reshape %s : tensor<4x16x1xf32> -> tensor<4x16xf32>
    %e = tgc.exp2 %x : tensor<4x16xf32>
    %x2 = tgc.reshape %s : tensor<4x16x1xf32> -> tensor<4x16xf32>
    %y = tgc.mul %x2, %e : tensor<4x16xf32>
    tgc.sink %y : tensor<4x16xf32>
  }
  return %k : tensor<4x16xf32>
}

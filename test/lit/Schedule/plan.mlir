// RUN: tgc-opt %s --tgc-plan | FileCheck %s
// Buffers share the arena when their lifetimes do not overlap.

// a (1024 B) dies after k1 reads it; c (1024 B) reuses its bytes. b (256 B)
// is live across both. The output is written by the caller's buffer (-1).
// CHECK: module attributes {tgc.arena_align = 64 : i64, tgc.arena_bytes = 1280 : i64, tgc.peak_bytes = 1280 : i64}
// CHECK-LABEL: func @chain(
//       CHECK:   tgc.kernel "a"{{.*}}arena_offset = array<i64: 0>
//       CHECK:   tgc.kernel "b"{{.*}}arena_offset = array<i64: 1024>
//       CHECK:   tgc.kernel "c"{{.*}}arena_offset = array<i64: 0>
//       CHECK:   tgc.kernel "out"{{.*}}arena_offset = array<i64: -1>
func.func @chain(%x: tensor<256xf32>) -> tensor<64xf32> {
  %a = tgc.kernel "a" (%x) : (tensor<256xf32>) -> tensor<256xf32> {
  ^bb0(%i: tensor<256xf32>):
    %n = tgc.neg %i : tensor<256xf32>
    tgc.sink %n : tensor<256xf32>
  }
  %b = tgc.kernel "b" (%a) : (tensor<256xf32>) -> tensor<64xf32> {
  ^bb0(%i: tensor<256xf32>):
    %s = tgc.shrink %i begin [0] end [64] : tensor<256xf32> -> tensor<64xf32>
    tgc.sink %s : tensor<64xf32>
  }
  %c = tgc.kernel "c" (%b) : (tensor<64xf32>) -> tensor<256xf32> {
  ^bb0(%i: tensor<64xf32>):
    %p = tgc.pad %i low [0] high [192] : tensor<64xf32> -> tensor<256xf32>
    tgc.sink %p : tensor<256xf32>
  }
  %o = tgc.kernel "out" (%b, %c) : (tensor<64xf32>, tensor<256xf32>) -> tensor<64xf32> {
  ^bb0(%i: tensor<64xf32>, %j: tensor<256xf32>):
    %s = tgc.shrink %j begin [0] end [64] : tensor<256xf32> -> tensor<64xf32>
    %r = tgc.add %i, %s : tensor<64xf32>
    tgc.sink %r : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// Odd sizes are rounded up to the alignment; i1 takes a byte. The larger
// buffer (n, 12 B) is placed first.
// CHECK-LABEL: func @odd_sizes(
//       CHECK:   tgc.kernel "m"{{.*}}arena_offset = array<i64: 64>
//       CHECK:   tgc.kernel "n"{{.*}}arena_offset = array<i64: 0>
func.func @odd_sizes(%x: tensor<3xf32>) -> tensor<3xf32> {
  %m = tgc.kernel "m" (%x) : (tensor<3xf32>) -> tensor<3xi1> {
  ^bb0(%i: tensor<3xf32>):
    %c = tgc.cmplt %i, %i : tensor<3xf32>
    tgc.sink %c : tensor<3xi1>
  }
  %n = tgc.kernel "n" (%x) : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%i: tensor<3xf32>):
    %e = tgc.exp2 %i : tensor<3xf32>
    tgc.sink %e : tensor<3xf32>
  }
  %o = tgc.kernel "o" (%m, %n) : (tensor<3xi1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%c: tensor<3xi1>, %v: tensor<3xf32>):
    %r = tgc.where %c, %v, %v : tensor<3xi1>, tensor<3xf32>
    tgc.sink %r : tensor<3xf32>
  }
  return %o : tensor<3xf32>
}

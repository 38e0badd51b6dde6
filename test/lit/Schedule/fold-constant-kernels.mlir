// RUN: tgc-opt %s --tgc-fold-constant-kernels | FileCheck %s
// RUN: tgc-opt %s --tgc-fold-constant-kernels=explain -o /dev/null \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WHY
// RUN: tgc-opt %s --tgc-fold-constant-kernels="max-element-ops=17 explain" \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LIMIT
// Kernels that read only constants are computed at compile time.

// A chain folds in schedule order: "a" reads a weight, "b" reads "a". The
// weight goes with them; "c" reads an input and stays.
// CHECK-LABEL: func @chain(
//   CHECK-NEXT:   %[[B:.*]] = tgc.const dense<{{\[\[}}-6.000000e+00, -1.500000e+01]]> : tensor<1x2xf32>
//   CHECK-NEXT:   tgc.kernel "c"(%arg0, %[[B]])
//    CHECK-NOT:   tgc.const
// LIMIT: remark: kernel of constants kept: 18 element operations, more than 17
func.func @chain(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = tgc.const dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %a = tgc.kernel "a" (%w) : (tensor<2x3xf32>) -> tensor<3x2xf32> {
  ^bb0(%i: tensor<2x3xf32>):
    %p = tgc.permute %i [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
    %n = tgc.neg %p : tensor<3x2xf32>
    %c = tgc.contiguous %n : tensor<3x2xf32>
    tgc.sink %c : tensor<3x2xf32>
  }
  %b = tgc.kernel "b" (%a) : (tensor<3x2xf32>) -> tensor<1x2xf32> {
  ^bb0(%i: tensor<3x2xf32>):
    %r = tgc.reduce_axis add %i [0] : tensor<3x2xf32> -> tensor<1x2xf32>
    tgc.sink %r : tensor<1x2xf32>
  }
  %c = tgc.kernel "c" (%x, %b) : (tensor<2x3xf32>, tensor<1x2xf32>) -> tensor<2x3xf32> {
  ^bb0(%i: tensor<2x3xf32>, %j: tensor<1x2xf32>):
    %s = tgc.reshape %j : tensor<1x2xf32> -> tensor<2x1xf32>
    %e = tgc.expand %s : tensor<2x1xf32> -> tensor<2x3xf32>
    %r = tgc.add %i, %e : tensor<2x3xf32>
    tgc.sink %r : tensor<2x3xf32>
  }
  return %c : tensor<2x3xf32>
}

// A gather of a table by constant indices, as one-hot compares summed
// (Swin's relative position bias and its shifted-window masks).
// CHECK-LABEL: func @one_hot_gather(
//   CHECK-NEXT:   tgc.const dense<[4.000000e+01, 1.000000e+01, 3.000000e+01]> : tensor<3xf32>
func.func @one_hot_gather(%x: tensor<3xf32>) -> tensor<3xf32> {
  %table = tgc.const dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
  %iota = tgc.const dense<[0, 1, 2, 3]> : tensor<4xsi64>
  %index = tgc.const dense<[3, 0, 2]> : tensor<3xsi64>
  %g = tgc.kernel "g" (%table, %iota, %index) : (tensor<4xf32>, tensor<4xsi64>, tensor<3xsi64>) -> tensor<3xf32> {
  ^bb0(%t: tensor<4xf32>, %k: tensor<4xsi64>, %i: tensor<3xsi64>):
    %zero = tgc.const dense<0.0> : tensor<3x4xf32>
    %k2 = tgc.reshape %k : tensor<4xsi64> -> tensor<1x4xsi64>
    %ke = tgc.expand %k2 : tensor<1x4xsi64> -> tensor<3x4xsi64>
    %i2 = tgc.reshape %i : tensor<3xsi64> -> tensor<3x1xsi64>
    %ie = tgc.expand %i2 : tensor<3x1xsi64> -> tensor<3x4xsi64>
    %hit = tgc.cmpeq %ke, %ie : tensor<3x4xsi64>
    %t2 = tgc.reshape %t : tensor<4xf32> -> tensor<1x4xf32>
    %te = tgc.expand %t2 : tensor<1x4xf32> -> tensor<3x4xf32>
    %v = tgc.where %hit, %te, %zero : tensor<3x4xi1>, tensor<3x4xf32>
    %s = tgc.reduce_axis add %v [1] : tensor<3x4xf32> -> tensor<3x1xf32>
    %r = tgc.reshape %s : tensor<3x1xf32> -> tensor<3xf32>
    tgc.sink %r : tensor<3xf32>
  }
  %o = tgc.kernel "o" (%x, %g) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%i: tensor<3xf32>, %j: tensor<3xf32>):
    %r = tgc.mul %i, %j : tensor<3xf32>
    tgc.sink %r : tensor<3xf32>
  }
  return %o : tensor<3xf32>
}

// pad, flip and shrink: a kernel of several results.
// CHECK-LABEL: func @movement(
//   CHECK-NEXT:   tgc.const dense<{{\[\[}}2, 1], [4, 3]]> : tensor<2x2xsi32>
//   CHECK-NEXT:   tgc.const dense<{{\[\[}}0, 0, 0], [1, 2, 0], [3, 4, 0]]> : tensor<3x3xsi32>
func.func @movement(%x: tensor<2x2xsi32>) -> tensor<2x2xsi32> {
  %w = tgc.const dense<[[1, 2], [3, 4]]> : tensor<2x2xsi32>
  %m:2 = tgc.kernel "m" (%w) : (tensor<2x2xsi32>) -> (tensor<2x2xsi32>, tensor<3x3xsi32>) {
  ^bb0(%i: tensor<2x2xsi32>):
    %p = tgc.pad %i low [1, 0] high [0, 1] : tensor<2x2xsi32> -> tensor<3x3xsi32>
    %f = tgc.flip %p [1] : tensor<3x3xsi32> -> tensor<3x3xsi32>
    %s = tgc.shrink %f begin [1, 1] end [3, 3] : tensor<3x3xsi32> -> tensor<2x2xsi32>
    tgc.sink %s, %p : tensor<2x2xsi32>, tensor<3x3xsi32>
  }
  %o = tgc.kernel "o" (%x, %m#0, %m#1) : (tensor<2x2xsi32>, tensor<2x2xsi32>, tensor<3x3xsi32>) -> tensor<2x2xsi32> {
  ^bb0(%i: tensor<2x2xsi32>, %j: tensor<2x2xsi32>, %k: tensor<3x3xsi32>):
    %s = tgc.shrink %k begin [0, 0] end [2, 2] : tensor<3x3xsi32> -> tensor<2x2xsi32>
    %a = tgc.add %i, %j : tensor<2x2xsi32>
    %r = tgc.add %a, %s : tensor<2x2xsi32>
    tgc.sink %r : tensor<2x2xsi32>
  }
  return %o : tensor<2x2xsi32>
}

// Integers as C computes them: int8 wraps, / and % truncate toward zero,
// >> is arithmetic; uint8 compares without a sign.
// CHECK-LABEL: func @integers(
//   CHECK-NEXT:   tgc.const dense<[-56, -127, 9, -4]> : tensor<4xsi8>
//   CHECK-NEXT:   tgc.const dense<[1, -128, 3, -2]> : tensor<4xsi8>
//   CHECK-NEXT:   tgc.const dense<[0, 0, 1, -1]> : tensor<4xsi8>
//   CHECK-NEXT:   tgc.const dense<[50, -64, 1, -4]> : tensor<4xsi8>
//   CHECK-NEXT:   tgc.const dense<[200, 6, 2, 1]> : tensor<4xui8>
//   CHECK-NEXT:   tgc.const dense<[100, 255, 255, 255]> : tensor<4xui8>
//   CHECK-NEXT:   tgc.const dense<[false, true, true, true]> : tensor<4xi1>
func.func @integers(%x: tensor<4xsi8>) -> tensor<4xsi8> {
  %a = tgc.const dense<[100, -128, 7, -7]> : tensor<4xsi8>
  %b = tgc.const dense<[100, 1, 2, 3]> : tensor<4xsi8>
  %c = tgc.const dense<[1, 1, 2, 1]> : tensor<4xsi8>
  %u = tgc.const dense<[200, 5, 1, 0]> : tensor<4xui8>
  %v = tgc.const dense<[100, 6, 2, 1]> : tensor<4xui8>
  %k:7 = tgc.kernel "k" (%a, %b, %c, %u, %v) : (tensor<4xsi8>, tensor<4xsi8>, tensor<4xsi8>, tensor<4xui8>, tensor<4xui8>) -> (tensor<4xsi8>, tensor<4xsi8>, tensor<4xsi8>, tensor<4xsi8>, tensor<4xui8>, tensor<4xui8>, tensor<4xi1>) {
  ^bb0(%i: tensor<4xsi8>, %j: tensor<4xsi8>, %n: tensor<4xsi8>, %p: tensor<4xui8>, %q: tensor<4xui8>):
    %s = tgc.add %i, %j : tensor<4xsi8>
    %d = tgc.idiv %i, %j : tensor<4xsi8>
    %m = tgc.mod %i, %j : tensor<4xsi8>
    %r = tgc.shr %i, %n : tensor<4xsi8>
    %mx = tgc.max %p, %q : tensor<4xui8>
    %df = tgc.sub %p, %q : tensor<4xui8>
    %lt = tgc.cmplt %p, %q : tensor<4xui8>
    tgc.sink %s, %d, %m, %r, %mx, %df, %lt : tensor<4xsi8>, tensor<4xsi8>, tensor<4xsi8>, tensor<4xsi8>, tensor<4xui8>, tensor<4xui8>, tensor<4xi1>
  }
  %o = tgc.kernel "o" (%x, %k#0, %k#1, %k#2, %k#3, %k#4, %k#5, %k#6) : (tensor<4xsi8>, tensor<4xsi8>, tensor<4xsi8>, tensor<4xsi8>, tensor<4xsi8>, tensor<4xui8>, tensor<4xui8>, tensor<4xi1>) -> tensor<4xsi8> {
  ^bb0(%i: tensor<4xsi8>, %j0: tensor<4xsi8>, %j1: tensor<4xsi8>, %j2: tensor<4xsi8>, %j3: tensor<4xsi8>, %j4: tensor<4xui8>, %j5: tensor<4xui8>, %j6: tensor<4xi1>):
    %a0 = tgc.add %i, %j0 : tensor<4xsi8>
    %a1 = tgc.add %a0, %j1 : tensor<4xsi8>
    %a2 = tgc.add %a1, %j2 : tensor<4xsi8>
    %a3 = tgc.add %a2, %j3 : tensor<4xsi8>
    %u4 = tgc.add %j4, %j5 : tensor<4xui8>
    %c4 = tgc.cast %u4 : tensor<4xui8> to tensor<4xsi8>
    %a4 = tgc.add %a3, %c4 : tensor<4xsi8>
    %r = tgc.where %j6, %a4, %i : tensor<4xi1>, tensor<4xsi8>
    tgc.sink %r : tensor<4xsi8>
  }
  return %o : tensor<4xsi8>
}

// Floats round to their type after every op (1/3 in half precision);
// tgc.max keeps a NaN; a float cast to an integer truncates.
// CHECK-LABEL: func @floats(
//   CHECK-NEXT:   tgc.const dense<[3.332520e-01, 5.000000e-01]> : tensor<2xf16>
//   CHECK-NEXT:   tgc.const dense<[0x7FC00000, 3.900000e+00]> : tensor<2xf32>
//   CHECK-NEXT:   tgc.const dense<[-2, 3]> : tensor<2xsi32>
func.func @floats(%x: tensor<2xf32>) -> tensor<2xf32> {
  %h = tgc.const dense<[3.0, 2.0]> : tensor<2xf16>
  %f = tgc.const dense<[0x7FC00000, 3.0]> : tensor<2xf32>
  %g = tgc.const dense<[-2.7, 3.9]> : tensor<2xf32>
  %k:3 = tgc.kernel "k" (%h, %f, %g) : (tensor<2xf16>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf16>, tensor<2xf32>, tensor<2xsi32>) {
  ^bb0(%i: tensor<2xf16>, %j: tensor<2xf32>, %l: tensor<2xf32>):
    %r = tgc.recip %i : tensor<2xf16>
    %m = tgc.max %j, %l : tensor<2xf32>
    %c = tgc.cast %l : tensor<2xf32> to tensor<2xsi32>
    tgc.sink %r, %m, %c : tensor<2xf16>, tensor<2xf32>, tensor<2xsi32>
  }
  %o = tgc.kernel "o" (%x, %k#0, %k#1, %k#2) : (tensor<2xf32>, tensor<2xf16>, tensor<2xf32>, tensor<2xsi32>) -> tensor<2xf32> {
  ^bb0(%i: tensor<2xf32>, %j: tensor<2xf16>, %l: tensor<2xf32>, %n: tensor<2xsi32>):
    %a = tgc.cast %j : tensor<2xf16> to tensor<2xf32>
    %b = tgc.cast %n : tensor<2xsi32> to tensor<2xf32>
    %s = tgc.add %i, %a : tensor<2xf32>
    %t = tgc.add %s, %l : tensor<2xf32>
    %r = tgc.add %t, %b : tensor<2xf32>
    tgc.sink %r : tensor<2xf32>
  }
  return %o : tensor<2xf32>
}

// A result past the folds' attribute size becomes a resource blob.
// CHECK-LABEL: func @blob(
//   CHECK-NEXT:   tgc.const dense_resource<folded_sum> : tensor<4097x1xf32>
func.func @blob(%x: tensor<4097x1xf32>) -> tensor<4097x1xf32> {
  %w = tgc.const dense<0.5> : tensor<4097x2xf32>
  %s = tgc.kernel "sum" (%w) : (tensor<4097x2xf32>) -> tensor<4097x1xf32> {
  ^bb0(%i: tensor<4097x2xf32>):
    %r = tgc.reduce_axis add %i [1] : tensor<4097x2xf32> -> tensor<4097x1xf32>
    tgc.sink %r : tensor<4097x1xf32>
  }
  %o = tgc.kernel "o" (%x, %s) : (tensor<4097x1xf32>, tensor<4097x1xf32>) -> tensor<4097x1xf32> {
  ^bb0(%i: tensor<4097x1xf32>, %j: tensor<4097x1xf32>):
    %r = tgc.add %i, %j : tensor<4097x1xf32>
    tgc.sink %r : tensor<4097x1xf32>
  }
  return %o : tensor<4097x1xf32>
}

// What stays, and why.
// CHECK-LABEL: func @kept(
//        CHECK:   tgc.kernel "output"
//        CHECK:   tgc.kernel "by_zero"
//        CHECK:   tgc.kernel "too_wide"
//        CHECK:   tgc.kernel "broadcast"
//        CHECK:   tgc.kernel "reads_input"
// WHY: remark: kernel of constants kept: a result is a model output
// WHY: remark: kernel of constants kept: an integer division by zero
// WHY: remark: kernel of constants kept: a float converted to an integer type that cannot hold it
// WHY: remark: kernel of constants kept: its results (8192 bytes) outgrow its inputs (4 bytes) and it does not reduce
// WHY-NOT: remark
func.func @kept(%x: tensor<2048xf32>) -> (tensor<2xsi32>, tensor<2048xf32>) {
  %a = tgc.const dense<[6, 7]> : tensor<2xsi32>
  %b = tgc.const dense<[3, 0]> : tensor<2xsi32>
  %big = tgc.const dense<[1.0, 3.0e+09]> : tensor<2xf32>
  %one = tgc.const dense<2.0> : tensor<2048xf32>
  %out = tgc.kernel "output" (%a) : (tensor<2xsi32>) -> tensor<2xsi32> {
  ^bb0(%i: tensor<2xsi32>):
    %n = tgc.neg %i : tensor<2xsi32>
    tgc.sink %n : tensor<2xsi32>
  }
  %d = tgc.kernel "by_zero" (%a, %b) : (tensor<2xsi32>, tensor<2xsi32>) -> tensor<2xsi32> {
  ^bb0(%i: tensor<2xsi32>, %j: tensor<2xsi32>):
    %q = tgc.idiv %i, %j : tensor<2xsi32>
    tgc.sink %q : tensor<2xsi32>
  }
  %c = tgc.kernel "too_wide" (%big) : (tensor<2xf32>) -> tensor<2xsi32> {
  ^bb0(%i: tensor<2xf32>):
    %q = tgc.cast %i : tensor<2xf32> to tensor<2xsi32>
    tgc.sink %q : tensor<2xsi32>
  }
  %e = tgc.kernel "broadcast" (%one) : (tensor<2048xf32>) -> tensor<2048xf32> {
  ^bb0(%i: tensor<2048xf32>):
    %n = tgc.neg %i : tensor<2048xf32>
    tgc.sink %n : tensor<2048xf32>
  }
  %o = tgc.kernel "reads_input" (%x, %d, %c, %e) : (tensor<2048xf32>, tensor<2xsi32>, tensor<2xsi32>, tensor<2048xf32>) -> tensor<2048xf32> {
  ^bb0(%i: tensor<2048xf32>, %j: tensor<2xsi32>, %k: tensor<2xsi32>, %l: tensor<2048xf32>):
    %s = tgc.add %j, %k : tensor<2xsi32>
    %f = tgc.cast %s : tensor<2xsi32> to tensor<2xf32>
    %r = tgc.reshape %f : tensor<2xf32> -> tensor<2x1xf32>
    %e2 = tgc.expand %r : tensor<2x1xf32> -> tensor<2x1024xf32>
    %r2 = tgc.reshape %e2 : tensor<2x1024xf32> -> tensor<2048xf32>
    %a2 = tgc.add %i, %r2 : tensor<2048xf32>
    %r3 = tgc.add %a2, %l : tensor<2048xf32>
    tgc.sink %r3 : tensor<2048xf32>
  }
  return %out, %o : tensor<2xsi32>, tensor<2048xf32>
}

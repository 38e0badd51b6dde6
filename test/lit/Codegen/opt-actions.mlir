// Each opt action on its own, through tgc-optimize's `actions` option.
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=UPCAST(1,8)" | FileCheck %s --check-prefix=UPCAST
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=UPCAST(1,32)" | FileCheck %s --check-prefix=WHOLE
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=UNROLL(2,4)" | FileCheck %s --check-prefix=UNROLL
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=THREAD(0,4)" | FileCheck %s --check-prefix=THREAD
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=LOCAL(1,8)" | FileCheck %s --check-prefix=LOCAL
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=GROUP(2,4)" | FileCheck %s --check-prefix=GROUP
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=GROUPTOP(2,4)" | FileCheck %s --check-prefix=GROUPTOP
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=UPCAST(1,16);UPCAST(1,2);UPCAST(0,4)" | FileCheck %s --check-prefix=SEQ
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=ROLL(2,1)" | FileCheck %s --check-prefix=ROLL
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=UNROLL(2,4);ROLL(2,1)" --tgc-expand --tgc-linearize --tgc-keep-rolled=vector-registers=32 | FileCheck %s --check-prefix=ROLLED
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=ROLL(1,1)" 2>&1 | FileCheck %s --check-prefix=ROLLOUT
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=ROLL(2,2)" 2>&1 | FileCheck %s --check-prefix=ROLLAMOUNT
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=ROLL(2,1);ROLL(2,0)" 2>&1 | FileCheck %s --check-prefix=ROLLTWICE
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=UPCAST(2,4)" 2>&1 | FileCheck %s --check-prefix=NOTOUT
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=UPCAST(1,5)" 2>&1 | FileCheck %s --check-prefix=NOTDIV
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=SPLIT(1,2)" 2>&1 | FileCheck %s --check-prefix=BADNAME

// UPCAST(1,8): j = j' * 8 + u, u an upcast range inside j'.
// UPCAST: opts = ["UPCAST(1,8)"]
// UPCAST: %[[J:.*]] = tgc.range 4 global id 1
// UPCAST-NEXT: %[[U:.*]] = tgc.range 8 upcast id 3
// UPCAST-NEXT: %[[C8:.*]] = tgc.const 8 : index
// UPCAST-NEXT: %[[JS:.*]] = tgc.mul %[[J]], %[[C8]] : index
// UPCAST-NEXT: %[[JJ:.*]] = tgc.add %[[JS]], %[[U]] : index
// UPCAST: tgc.add %{{.*}}, %[[JJ]] : index
// UPCAST: tgc.end %[[U]]
// UPCAST-NEXT: tgc.end %[[J]]

// An amount equal to the axis turns the whole axis into lanes.
// WHOLE: opts = ["UPCAST(1,32)"]
// WHOLE: %[[J:.*]] = tgc.range 32 upcast id 1
// WHOLE-NOT: global id 1
// WHOLE: tgc.end %[[J]]

// UNROLL(2,4): the reduce runs over both parts.
// UNROLL: opts = ["UNROLL(2,4)"]
// UNROLL: %[[K:.*]] = tgc.range 4 reduce id 2
// UNROLL-NEXT: %[[U:.*]] = tgc.range 4 unroll id 3
// UNROLL: tgc.end %[[U]]
// UNROLL-NEXT: tgc.end %[[K]]
// UNROLL-NEXT: tgc.reduce add %{{.*}} over %[[K]], %[[U]] : f32

// THREAD(0,4): a task range around the whole body, i = t * 2 + i'.
// THREAD: opts = ["THREAD(0,4)"]
// THREAD: %[[T:.*]] = tgc.range 4 thread id 3
// THREAD: %[[I:.*]] = tgc.range 2 global id 0
// THREAD-NEXT: %[[C2:.*]] = tgc.const 2 : index
// THREAD-NEXT: %[[TS:.*]] = tgc.mul %[[T]], %[[C2]] : index
// THREAD-NEXT: tgc.add %[[TS]], %[[I]] : index
// THREAD: tgc.end %[[I]]
// THREAD-NEXT: tgc.end %[[T]]
// THREAD-NEXT: tgc.sink

// LOCAL, GROUP and GROUPTOP make GPU axes.
// LOCAL: tgc.range 4 global id 1
// LOCAL-NEXT: tgc.range 8 local id 3
// GROUP: %[[K:.*]] = tgc.range 4 reduce id 2
// GROUP-NEXT: %[[G:.*]] = tgc.range 4 group_reduce id 3
// GROUP: tgc.reduce add %{{.*}} over %[[K]], %[[G]] : f32
// GROUPTOP: %[[G:.*]] = tgc.range 4 group_reduce id 3
// GROUPTOP-NEXT: %[[K:.*]] = tgc.range 4 reduce id 2
// GROUPTOP: tgc.reduce add %{{.*}} over %[[G]], %[[K]] : f32

// Actions name axes by id; the part that keeps its kind keeps the id, so a
// second UPCAST of axis 1 splits what the first left of it.
// SEQ: opts = ["UPCAST(1,16)", "UPCAST(1,2)", "UPCAST(0,4)"]
// SEQ: tgc.range 2 global id 0
// SEQ-NEXT: tgc.range 4 upcast id 4
// SEQ: tgc.range 2 upcast id 1
// SEQ-NEXT: tgc.range 16 upcast id 3

// ROLL only records the choice, for tgc-keep-rolled: the kernel is as it was.
// ROLL: opts = ["ROLL(2,1)"]
// ROLL: tgc.range 16 reduce id 2
// ROLL-NOT: rolled
// ... and what is left of the loop after expand and linearize, whatever
// tgc-keep-rolled's rule says, stays a loop in C.
// ROLLED: opts = ["UNROLL(2,4)", "ROLL(2,1)"]
// ROLLED: tgc.range 4 reduce id 2 rolled
// ROLLOUT: error: 'tgc.kernel' op cannot apply ROLL(1,1): the axis is not a reduce axis
// ROLLAMOUNT: error: 'tgc.kernel' op cannot apply ROLL(2,2): the amount must be 0 (the compiler's choice) or 1 (a loop)
// ROLLTWICE: error: 'tgc.kernel' op cannot apply ROLL(2,0): the loop's rolling is decided already

// NOTOUT: error: 'tgc.kernel' op cannot apply UPCAST(2,4): the axis is not an output axis
// NOTDIV: error: 'tgc.kernel' op cannot apply UPCAST(1,5): the amount does not divide the axis
// BADNAME: error: tgc-optimize: 'SPLIT(1,2)' is not an opt action, such as UPCAST(0,4)

func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %k = tgc.kernel "r_8_32_16" (%a, %b) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c16 = tgc.const 16 : index
    %c32 = tgc.const 32 : index
    %i = tgc.range 8 global id 0
    %j = tgc.range 32 global id 1
    %k = tgc.range 16 reduce id 2
    %ai = tgc.mul %i, %c16 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %bk = tgc.mul %k, %c32 : index
    %bj = tgc.add %bk, %j : index
    %q = tgc.index %pb[%bj] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oi = tgc.mul %i, %c32 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<8x32xf32>
}

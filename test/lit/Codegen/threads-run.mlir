// Kernels split across threads: a THREAD kernel is a task function with an
// argument struct, net_run_parallel hands its tasks to the hook, and
// net_run runs them in order. The driver runs the model with net_run, with
// net_run_parallel on a tgc_pool of 1, 2 and 3 threads and with a hook
// that runs the tasks backwards, and checks each against a reference.
// RUN: tgc-opt %s --tgc-pipeline="after=decompose cpu=skylake-avx512 thread-tasks=4" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s --check-prefix=SRC < %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -c %runtime/tgc_pool.c -o %t.pool.gcc.o
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -include %t.c -I%runtime %S/Inputs/threads-run-main.c %t.pool.gcc.o -o %t.gcc -lm -pthread
// RUN: %t.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -Wall -Wextra -Werror -pedantic -c %runtime/tgc_pool.c -o %t.pool.clang.o
// RUN: clang -std=c99 -O2 -Wall -Wextra -Werror -pedantic -include %t.c -I%runtime %S/Inputs/threads-run-main.c %t.pool.clang.o -o %t.clang -lm -pthread
// RUN: %t.clang | FileCheck %s

// SRC: typedef void (*tgc_task_fn)(void *args, ptrdiff_t task);
// SRC: int net_run_parallel(const net_inputs *in, net_outputs *out, void *arena,
// SRC-NEXT:     tgc_parallel_for_fn parallel_for, void *context);
// The task's body takes the buffers as restrict parameters (C compilers
// trust those, not restrict locals loaded from the struct) and is kept out
// of line; the task function unpacks the struct and calls it.
// SRC: /* opts: {{.*}} THREAD({{[0-9]+}},4) */
// SRC-NEXT: static TGC_NOINLINE void {{.*}}net_r_64_128_96_task(const float *restrict data0, const float *restrict data1, float *restrict data2, ptrdiff_t task) {
// SRC: ptrdiff_t ridx{{[0-9]+}} = task;
// SRC: typedef struct net_r_64_128_96_args {
// SRC-NEXT:   const float *data0;
// SRC-NEXT:   const float *data1;
// SRC-NEXT:   float *data2;
// SRC-NEXT: } net_r_64_128_96_args;
// SRC-NEXT: static void net_r_64_128_96(void *task_args, ptrdiff_t task) {
// SRC-NEXT:   const net_r_64_128_96_args *args = (const net_r_64_128_96_args *)task_args;
// SRC-NEXT:   net_r_64_128_96_task(args->data0, args->data1, args->data2, task);
// SRC-NEXT: }
// A profiler's hook after each kernel, nothing unless defined.
// SRC: #ifndef NET_KERNEL_DONE
// SRC-NEXT: #define NET_KERNEL_DONE(index) ((void)0)
// SRC-NEXT: #endif
// SRC: int net_run(const net_inputs *in, net_outputs *out, void *arena) {
// SRC-NEXT:   return net_run_parallel(in, out, arena, NULL, NULL);
// SRC: parallel_for = net_serial_for;
// SRC: parallel_for(context, 4, net_r_64_128_96, &args);
// SRC-NEXT: }
// SRC-NEXT: NET_KERNEL_DONE(0);

// CHECK: net_run: ok
// CHECK-NEXT: pool of 1: ok
// CHECK-NEXT: pool of 2: ok
// CHECK-NEXT: pool of 3: ok
// CHECK-NEXT: backwards: ok

module {
  func.func @main(%a: tensor<64x96xf32> {tgc.name = "a"}, %b: tensor<96x128xf32> {tgc.name = "b"})
      -> (tensor<64x128xf32> {tgc.name = "y"}) {
    %a3 = tgc.reshape %a : tensor<64x96xf32> -> tensor<64x96x1xf32>
    %ae = tgc.expand %a3 : tensor<64x96x1xf32> -> tensor<64x96x128xf32>
    %b3 = tgc.reshape %b : tensor<96x128xf32> -> tensor<1x96x128xf32>
    %be = tgc.expand %b3 : tensor<1x96x128xf32> -> tensor<64x96x128xf32>
    %m = tgc.mul %ae, %be : tensor<64x96x128xf32>
    %s = tgc.reduce_axis add %m [1] : tensor<64x96x128xf32> -> tensor<64x1x128xf32>
    %y = tgc.reshape %s : tensor<64x1x128xf32> -> tensor<64x128xf32>
    return %y : tensor<64x128xf32>
  }
}

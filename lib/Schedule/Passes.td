//===- Passes.td - graph-level passes of tgc ---------------*- tablegen -*-===//
//
// simplify, schedule and plan: the stages between the decomposed tensor
// graph and the kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_SCHEDULE_PASSES_TD
#define TGC_SCHEDULE_PASSES_TD

include "mlir/Pass/PassBase.td"

def TgcSimplify : Pass<"tgc-simplify", "::mlir::ModuleOp"> {
  let summary = "Algebraic rewrites and constant folding on the tensor graph";
  let description = [{
    Applies every op's folder (x*1 => x, x+(-0.0) => x, neg(neg x) => x,
    log2(exp2 x) => x, constant folding of scalars, splats and small dense
    tensors) and the graph rules of SimplifyPatterns: chains of movement ops
    collapse (permute(permute x) => permute x, expand(expand x) => expand x),
    movement ops of small constants fold, elementwise ops of splat constants
    fold, and dead ops are removed. Float arithmetic on a weight (a cast,
    sub or mul of an int8 weight dequantized, a scale multiplied in) is
    computed into a weight of its own, in its form: a resource blob stays a
    blob, never an IR attribute. cast<F>(cast<I>(x)) => x where x is
    provably whole numbers in I's range (a quantize followed by its
    dequantize), and (x + c) - c => x for such whole numbers. Float rules
    that would change NaN, Inf or -0.0 are not applied.
  }];
}

def TgcImageLoop : Pass<"tgc-image-loop", "::mlir::ModuleOp"> {
  let summary = "Compute a batch one image at a time when no op mixes images";
  let description = [{
    When every input has the same dim 0 (the batch, N > 1), every output is
    batched along dim 0, and no op mixes images (a reduce, pad, shrink or
    flip across the batch axis, a reshape that merges it with another axis,
    a constant that differs from image to image), rewrites the graph in
    place to compute one image: each value that depends on the inputs gets
    size 1 on its batch axis, and image-free operands are sliced. Sets
    `tgc.images` = N on the module; the run function loops over the images.

    One image at a time keeps activations in cache between kernels and
    makes the arena N times smaller, but reads the weights once per image.
    `mode=auto` splits only when the batch's largest reduce result exceeds
    `min-bytes` (a core's cache) and the graph does at least
    `min-flops-per-weight-byte` FLOPs per image for every byte of weights;
    `always` whenever the graph allows, `never` not at all.

    `parallel=P` (P > 1) also sets `tgc.parallel_images` = min(P, N) when
    it loops: the run function then hands P tasks to the thread pool, each
    computing every P-th image with a slice of the arena to itself (the
    arena is P slices). Each thread keeps its images' activations in its
    own core's caches, where splitting every kernel moves half of them
    between cores at every layer.
  }];
  let options = [
    Option<"mode", "mode", "std::string", "\"auto\"",
           "auto, always or never">,
    Option<"parallel", "parallel", "int64_t", "1",
           "images computed at once, each on a thread with its own arena "
           "slice">,
    Option<"minBytes", "min-bytes", "int64_t", "1 << 20",
           "mode=auto: the batch's largest reduce result must exceed this">,
    Option<"minFlopsPerWeightByte", "min-flops-per-weight-byte", "int64_t",
           "8", "mode=auto: FLOPs per image per byte of weights, at least">
  ];
}

def TgcSchedule : Pass<"tgc-schedule", "::mlir::ModuleOp"> {
  let summary = "Split the tensor graph into kernels (tinygrad: schedule)";
  let description = [{
    Decides which tensors are realized in memory and groups every other op
    into the kernel of the realized tensor that needs it:
    - function results and tgc.contiguous values are realized;
    - elementwise and movement ops never are on their own: they fuse into
      their consumers (movement ops become index expressions);
    - a value that is broadcast (tgc.expand) into a loop that does not
      reduce over the broadcast axes would be recomputed once per element
      of those axes; it is realized if it contains a reduce or costs more
      than `max-recompute-cost` ALU ops (transcendental ops count 8), or
      one op or more where it is broadcast 64 times or more (a LayerNorm
      or a channel scale before a matmul: a register tile shares a row's
      loads among its columns, not the ALU work on them);
    - a value that would be computed in two or more kernels is realized if
      it contains a reduce or costs more than `max-recompute-cost`; a
      reduce read only by an elementwise op of its size (its bias) is
      realized after that op;
    - a reduce with two or more consumers is realized, unless they join
      again in one elementwise op, none on conditions (x * sigmoid(x)):
      one kernel then evaluates it once per element;
    - the source of a tgc.pad is realized if it contains a reduce (the
      reduce would otherwise run on the padded grid, under masks).
    Each kernel's body is the cone of its result, cloned into a tgc.kernel.
  }];
  let options = [
    Option<"maxRecomputeCost", "max-recompute-cost", "int64_t", "4",
           "most ALU work per element that may be recomputed instead of stored">
  ];
}

def TgcFoldConstantKernels : Pass<"tgc-fold-constant-kernels",
                                  "::mlir::ModuleOp"> {
  let summary = "Compute kernels whose inputs are all constants at compile time";
  let description = [{
    A kernel that reads only constants (weights, or kernels folded before
    it) writes the same tensor at every run: Swin's relative position
    index and the region labels of its shifted-window attention masks,
    scattered from constants. Each is evaluated once, in schedule order,
    by an interpreter of the graph-level ops (KernelEvaluator.h), and its
    results become constants: small ones IR attributes, larger ones
    resource blobs. A kernel stays as it is when a result is a model
    output, when evaluating it would touch more than `max-element-ops`
    elements, when C leaves one of its values undefined (an integer
    division by zero), or when its results outgrow its inputs by more
    than `max-growth-bytes` if it reduces, 4 KiB if it does not (a
    broadcast or an arange costs a run about what reading its result
    does, and would make the weights bigger). Constants only the folded
    kernels read are removed. `explain` says, in a remark, why each
    kernel of constants that stays does.
  }];
  let options = [
    Option<"maxElementOps", "max-element-ops", "int64_t", "int64_t(1) << 27",
           "most elements all of one kernel's ops may produce together">,
    Option<"maxGrowthBytes", "max-growth-bytes", "int64_t", "int64_t(1) << 20",
           "bytes by which the results of a kernel that reduces may outgrow "
           "its inputs">,
    Option<"explain", "explain", "bool", "false",
           "a remark on each kernel of constants left as it is, saying why">
  ];
}

def TgcPlan : Pass<"tgc-plan", "::mlir::ModuleOp"> {
  let summary = "Place intermediate buffers in one arena by lifetime";
  let description = [{
    Every kernel result that is not a model output gets a byte offset in a
    single arena (`arena_offset`); buffers whose lifetimes do not overlap
    share bytes. Buffers are placed largest first at the lowest aligned
    offset that no overlapping buffer uses. Sets `tgc.arena_bytes`,
    `tgc.arena_align` and `tgc.peak_bytes` (the most bytes live at once:
    what no plan can beat) on the module.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", "64",
           "byte alignment of every buffer and of the arena">
  ];
}

#endif // TGC_SCHEDULE_PASSES_TD

//===- Passes.td - kernel-level passes of tgc --------------*- tablegen -*-===//
//
// lower, symbolic, optimize, expand and linearize: from kernels of tensor
// ops to ordered loop programs ready to render.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_PASSES_TD
#define TGC_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def TgcLower : Pass<"tgc-lower", "::mlir::ModuleOp"> {
  let summary = "Turn kernel bodies into loops, loads and stores (tinygrad: rangeify)";
  let description = [{
    Each tgc.kernel whose body still works on tensors becomes a flat loop
    program over pointers: a `global` tgc.range per output dim of size > 1,
    the value of every op computed per element from index expressions.
    Movement ops turn into index arithmetic (reshape: flatten and split
    within groups of dims of equal size; permute, expand, shrink, flip:
    per-dim maps; pad: an offset and a validity mask that gates the loads
    under it); a reduce_axis opens `reduce` ranges around its source and
    closes them with a tgc.reduce. Ops are emitted where they are needed,
    naively; tgc-linearize places them. Then neighbouring global ranges
    merge where every address walks them as one (the outer's coefficient
    is the inner's times the inner's bound, and no gate or value uses
    them): a 56x56 image of a 1x1 convolution becomes one axis of 3136,
    which splits into whole vectors where 56 would not.
  }];
}

def TgcCollapseGather : Pass<"tgc-collapse-gather", "::mlir::ModuleOp"> {
  let summary = "Turn one-hot gathers into indexed loads (tinygrad: reduce collapse)";
  let description = [{
    In lowered kernels, a load from a constant 0, 1, 2, ... becomes the cast
    of its index, and then a reduce that picks one element by a run-time
    index,
      reduce add over r of where(a == cast(r), x(r), 0)
    becomes where(0 <= a < bound(r), x(a), 0), x reading at a clamped into
    range. An embedding lookup (Gather by token ids) then reads one row per
    token instead of the whole table.
  }];
}

def TgcSymbolic : Pass<"tgc-symbolic", "::mlir::ModuleOp"> {
  let summary = "Simplify index arithmetic by value ranges (tinygrad: symbolic)";
  let description = [{
    Rewrites integer index expressions of lowered kernels using the bounds
    of each value (ranges run over [0, bound)):
      x // c => 0 and x % c => x             if 0 <= x < c
      (a*c + b) // c => a + b // c            if a*c >= 0 and b >= 0,
                                              splitting coefficients too
      (a*c + b) % c => b % c                  if a*c >= 0 and b >= 0
      (x // a) // b => x // (a*b)             if x >= 0
      x < y => true / false                   if the bounds decide it
    which removes the div/mod that reshapes introduce and the masks of pads
    that can never be false, together with every op's folder.

    With `distribute-products` (the "expand" stage, once upcast axes are
    lanes and copies), also
      (x + c1) * c2 => x*c2 + c1*c2           on indices
    sharing one x*c2 among the copies: their addresses then differ from
    one base by constants, which the C compiler folds into displacements
    rather than keeping a base register per copy.
  }];
  let options = [
    Option<"distributeProducts", "distribute-products", "bool", "false",
           "rewrite (x + c1) * c2 as x * c2 + c1 * c2, one x * c2 shared">,
  ];
}

def TgcOrderReductions : Pass<"tgc-order-reductions", "::mlir::ModuleOp"> {
  let summary = "Nest a reduction's loops by how far the input moves along them";
  let description = [{
    In each lowered kernel not optimized yet, the loops of a reduction over
    several axes that open one right inside the other, the innermost
    stepping a cache line (64 bytes) or more, are reordered so that the
    addresses of the computed (non-constant) inputs move least along the
    innermost (by getLaneStride; constant weights are left out,
    PACK lays them out later), ties in their order. A channels-last
    convolution then sums its input channels innermost, reading each
    pixel's channels along a cache line, instead of stepping to another
    pixel with every step of kh and kw. A channels-first one keeps
    (channel, kh, kw).
  }];
}

def TgcOrderLoops : Pass<"tgc-order-loops", "::mlir::ModuleOp"> {
  let summary = "Nest output loops so that weights too big for L2 are read once";
  let description = [{
    In each lowered kernel where one task reads more than 512 KB of some
    constant input (weight), the global loops along which some weight's
    address moves nest outside those along which none
    moves, ties in their order; thread, upcast and reduce loops stay. A
    channels-last matmul of few rows then reads each column block of its
    weights once and serves every row tile from the cache, instead of
    streaming all its weights again for every tile of rows. Each step of
    the reduction then prefetches (tgc.prefetch, gated inside the weight)
    a piece of the next block, so that it streams in from memory while the
    rows use this one. The column loops also go outside where a task's
    weights overflow L1 but one block fits, and where a window whose taps
    are written out slides over an activation that moves with the columns
    (a channels-last depthwise convolution) and a block's stripe of what a
    task reads of it fits in L1; the rows go outside where the activations
    read again for every block would cost more than the weights read again
    for every row.
  }];
}

def TgcOptimize : Pass<"tgc-optimize", "::mlir::ModuleOp"> {
  let summary = "Apply kernel optimization actions (tinygrad: opt)";
  let description = [{
    Applies opt actions to each lowered kernel that records none yet, and
    records each in the kernel's `opts` attribute as "KIND(axis id,
    amount)". The actions (OptActions.h): UPCAST(axis, n) splits output
    range r of bound N into r' of bound N/n and an `upcast` range u of
    bound n, r = r'*n + u, which tgc-expand writes out as lanes; UNROLL does
    the same to a reduce range (`unroll` lanes); THREAD splits an
    output range into a `thread` range of n tasks, which encloses the whole
    body, and the rest; PADTO pads an output range to a multiple of n and gates the
    accesses past its old bound; LOCAL, GROUP and GROUPTOP make workgroup
    axes for GPU targets (plain loops in C).

    The actions come from `actions` (";"-separated, applied to every
    kernel, an error if one does not apply) or else, with `heuristic`, from
    the heuristic for the SIMD width given (Heuristic.h): a vector axis
    where the reduction's loads are contiguous, a second output axis as a
    register tile, and an output axis of big kernels split into up to
    `thread-tasks` tasks.

    With `tuning-db`, a kernel whose key (the hash of its IR and of
    `tuning-context`, TuningDb.h) has an entry gets the entry's actions
    instead; an entry that does not apply is an error, since its key
    promises the very same kernel.
  }];
  let options = [
    Option<"heuristic", "heuristic", "bool", "true",
           "choose actions for kernels that have none">,
    Option<"actions", "actions", "std::string", "\"\"",
           "actions applied to every kernel, e.g. UPCAST(0,4);UNROLL(2,8)">,
    Option<"vectorBytes", "vector-bytes", "unsigned", "64",
           "bytes of the target's vector registers">,
    Option<"vectorRegisters", "vector-registers", "unsigned", "32",
           "the target's vector registers">,
    Option<"threadTasks", "thread-tasks", "int64_t", "0",
           "most tasks a big kernel is split into (0: no THREAD)">,
    Option<"tuningDb", "tuning-db", "std::string", "\"\"",
           "a tuning database (TuningDb.h): a kernel whose key is in it gets "
           "the entry's actions instead of the heuristic's">,
    Option<"tuningContext", "tuning-context", "std::string", "\"\"",
           "the serialized tuning context the keys are made with">,
    Option<"tuningReport", "tuning-report", "bool", "false",
           "a remark per kernel: its tuning key and whether an entry applied">
  ];
}

def TgcExpand : Pass<"tgc-expand", "::mlir::ModuleOp"> {
  let summary = "Expand upcast and unroll ranges into lanes and vectors (tinygrad: expander)";
  let description = [{
    Every op that depends on an `upcast` or `unroll` tgc.range is written
    out once per lane with the range replaced by the lane number; ops that
    do not depend on it are shared by all lanes. A reduce over an unroll
    range reduces each lane over its other ranges and then combines the
    lanes.

    One lane range per kernel becomes the lanes of vectors instead: the
    one along which the most buffer accesses are contiguous (stride 1),
    those of reduction loops counting most, if its size is a power of two
    of at least 2 and at most `max-vector`. Ops on its lanes with
    element types other than index and i1 produce `vector<n x T>`; their
    scalar operands are splat with tgc.vectorize, loads stay one per lane
    and are gathered with tgc.vectorize, stores take each lane with
    tgc.gep. tgc-devectorize then turns contiguous lanes into vector loads
    and stores.

    Before writing lanes out, a float product of three factors,
    `(a * b) * c`, is regrouped so that its inner product varies with the
    fewest copied lanes: `x * s` once per copy becomes `s * w` once.

    Where an accumulator per unrolled lane would take more than
    `vector-registers` registers (the kernel's reductions counted together,
    a vector of `vector-bytes` per register), the lanes of every unroll
    range share one accumulator instead: each reduction over one combines
    its lanes first, in ops marked `folded_lanes` for tgc-linearize to fold
    into the accumulator one by one.
  }];
  let options = [
    Option<"maxVector", "max-vector", "int64_t", "64",
           "most lanes of a vector (below 2: no vectors)">,
    Option<"vectorRegisters", "vector-registers", "int64_t", "0",
           "registers the accumulators may take before unrolled lanes "
           "share them (0: no limit)">,
    Option<"vectorBytes", "vector-bytes", "int64_t", "0",
           "bytes of a vector register (0: a vector is one register)">
  ];
}

def TgcDevectorize : Pass<"tgc-devectorize", "::mlir::ModuleOp"> {
  let summary = "Fold lanes of contiguous addresses into vector loads and stores (tinygrad: devectorizer)";
  let description = [{
    After tgc-expand and tgc-symbolic, in lowered kernels:
      vectorize(load(buf[i]), load(buf[i+1]), ..., load(buf[i+n-1]))
        => load(buf[i]) : vector<n x T>
      store(buf[i], gep(v, 0)); ...; store(buf[i+n-1], gep(v, n-1))
        => store(buf[i], v)
    when the indices differ by exactly the lane number (compared as linear
    sums), and every lane has the same gate (or none) and the same
    alternative value. Lanes that are not contiguous stay a gather.
  }];
}

def TgcTransposeLanes : Pass<"tgc-transpose-lanes", "::mlir::ModuleOp"> {
  let summary = "Copy square tiles of transposed lanes through registers: vector loads, a transpose by permutes, vector stores";
  let description = [{
    After tgc-devectorize, in lowered kernels (CPU targets): a copy written
    out as lanes of two upcast axes, one contiguous in the loads and the
    other in the stores (a transpose: NHWC to NCHW, K^T),
      store(out[s_j + k], load(in[l_k + j]))   for j, k < n
    becomes n vector loads of in[l_k .. l_k + n-1], log2(n) rounds of n
    two-source permutes that swap one bit of the lane and row numbers
    each, and n vector stores to out[s_j .. s_j + n-1]. Written lane by
    lane, the C compiler assembled each stored vector from scalars (GCC 12
    vectorizing a 16x8 tile emitted 27 shuffles per element). n is the
    widest of `vector-bytes` that half of `vector-registers` can hold
    (8 floats for AVX2, 16 for AVX-512), or a smaller power of two, at
    least 4, where that tiles the lanes; lanes no tile covers stay as they
    are. Only ungated copies between two of the kernel's buffers.
  }];
  let options = [
    Option<"vectorBytes", "vector-bytes", "unsigned", "64",
           "bytes of the widest vector register">,
    Option<"vectorRegisters", "vector-registers", "unsigned", "32",
           "vector registers the C compiler can allocate">
  ];
}

def TgcMulacc : Pass<"tgc-mulacc", "::mlir::ModuleOp"> {
  let summary = "Fuse a floating-point multiply into the add that reads it (tinygrad: MULACC)";
  let description = [{
    In lowered kernels: add(mul(a, b), c) => mulacc(a, b, c) for floating
    point scalars and vectors when the product has no other use, so the
    renderer can emit one fused multiply-add (one rounding instead of two,
    as ONNX Runtime's kernels compute it).
  }];
}

def TgcSinkBroadcasts : Pass<"tgc-sink-broadcasts", "::mlir::ModuleOp"> {
  let summary = "Move each broadcast of a loaded scalar to just before its first use";
  let description = [{
    In linearized kernels: a tgc.vectorize of one scalar to every lane, and
    the tgc.load of that scalar when nothing else reads it, move down to
    just before the first op that reads the broadcast, so that a register
    tile holds one row's broadcast at a time (the C compiler keeps the
    order it is given and otherwise spills accumulators). Nothing moves
    past a loop's or a gate's marker, and the load past no store to memory
    other than registers.
  }];
}

def TgcKeepRolled : Pass<"tgc-keep-rolled", "::mlir::ModuleOp"> {
  let summary = "Mark short window loops for the C compiler to keep as loops";
  let description = [{
    In linearized kernels (CPU targets with at most 16 vector registers):
    an innermost reduce loop along which the loads of at least 4 pixels of
    a register tile slide over the same line of input (pixel p at step k
    reads what pixel p + 1 read at step k - 1, or k - s for a stride s)
    and whose tile multiplies at least 2 loaded vectors gets `rolled`; the
    C renderer asks the compiler not to write it out step by step
    (`#pragma GCC unroll 1`). Written out, GCC merges the loads the steps
    share and keeps them live across steps, past AVX2's 16 registers, and
    spills the tile's accumulators. A kernel's ROLL actions decide their
    loops instead, on any target: ROLL(axis,1) keeps the loop, ROLL(axis,0)
    leaves it to the compiler.
  }];
  let options = [
    Option<"vectorRegisters", "vector-registers", "unsigned", "16",
           "vector registers the C compiler can allocate">
  ];
}

def TgcLinearize : Pass<"tgc-linearize", "::mlir::ModuleOp"> {
  let summary = "Place every op in the outermost loop it needs and order the program (tinygrad: linearize)";
  let description = [{
    Computes, for each op of a lowered kernel, the ranges it depends on and
    places it in the innermost of them, so loop-invariant work (index
    arithmetic, and whole reductions whose result does not depend on an
    outer loop) moves out of loops. Global ranges nest in id order; the
    ranges of a reduce nest inside the loop where its result is needed.
    Identical pure ops in one loop are merged (a scope-safe CSE). Each
    tgc.reduce becomes an accumulator: a tgc.define_reg initialized with the
    identity of its operator before its loops, updated inside the innermost
    of them and read after them.
  }];
}

def TgcUnswitch : Pass<"tgc-unswitch", "::mlir::ModuleOp"> {
  let summary = "Copy a loop once per range of the index its invariant gates compare (loop unswitching)";
  let description = [{
    In linearized kernels (CPU targets): a loop that reads two or more
    parts through gates computed outside it (a concatenation along an outer
    axis) is written once per piece of the index those gates compare, each
    copy under `tgc.if lo <= index < hi` with the gates decided: selects
    keep one side, gates decided true go, loads gated false become their
    alternative. A reduction loop whose gates compare its own index (a
    concatenation along the summed axis) is split into one loop per piece,
    run in order, each over its piece's indices with its gates decided. A
    loop whose gated loads read zeros that only multiply finite constant
    weights into sums (a convolution's padding) is copied per piece too,
    where the pieces outside the largest are at least an eighth of the
    gate's range: tgc-drop-zero-products then erases the copies that read
    only padding. At most 256 pieces and 8192 copied ops per loop.
  }];
}

def TgcDropZeroProducts : Pass<"tgc-drop-zero-products", "::mlir::ModuleOp"> {
  let summary = "Drop the terms of a sum that multiply a zero by a finite weight";
  let description = [{
    In linearized kernels: a float add of mul(a, b) (or a mulacc) where one
    factor is a zero constant and the other a finite constant or a load
    from a constant input whose elements are all finite (a weight) becomes
    its other operand: a convolution's padding, read as zeros, adds
    nothing. A register stored back with the value loaded from it, with no
    store to it between, is not stored, and a loop or if left with no op
    whose effect is seen after it (prefetches aside) is erased.
  }];
}

def TgcGpuOptimize : Pass<"tgc-gpu-optimize", "::mlir::ModuleOp"> {
  let summary = "Apply kernel optimization actions for a GPU (tinygrad: hand_coded_optimizations)";
  let description = [{
    The optimize stage of the CUDA and Metal targets: applies opt actions to
    each lowered kernel that records none yet, either the `actions` given
    (";"-separated, as tgc-optimize takes them) or, with `heuristic`, the
    GPU heuristic (GpuHeuristic.h): a reduction with a small output is
    split across the threads of a workgroup (GROUP), and the innermost
    output axes become workgroup axes (LOCAL) of up to `max-threads`
    threads in all, an axis no power of two divides padded first (PADTO).
    With `tensor-core-tile`, a matmul or convolution whose M, N and K each
    fill a tile goes to the tensor cores instead (TC, TensorCores.h); a TC
    action whose tile is not the target's is an error.
  }];
  let options = [
    Option<"heuristic", "heuristic", "bool", "true",
           "choose actions for kernels that have none">,
    Option<"actions", "actions", "std::string", "\"\"",
           "actions applied to every kernel, e.g. LOCAL(0,32);GROUP(1,16)">,
    Option<"maxThreads", "max-threads", "int64_t", "256",
           "most threads the heuristic puts in a workgroup">,
    Option<"tensorCoreTile", "tensor-core-tile", "int64_t", "0",
           "tile of the target's matrix units for TC: 16 (CUDA wmma tf32), "
           "8 (Metal simdgroup matrices), 0 (none)">
  ];
}

def TgcGpuDims : Pass<"tgc-gpu-dims", "::mlir::ModuleOp"> {
  let summary = "Map loop axes to GPU thread and block indices (tinygrad: gpudims)";
  let description = [{
    After tgc-linearize, for the GPU targets. Output axes (`global`,
    `loop`) become block indices (tgc.special "gidx0".."gidx2", the
    innermost axis gidx0), `local` and `group_reduce` axes thread indices
    ("lidx0".."lidx2"): each tgc.range and its tgc.end disappear and the
    range's value is read from the special. More than three axes of a kind,
    or an axis past the hardware limit of its dimension (65535 blocks along
    y and z, 1024 threads along x and y, 64 along z), share a dimension:
    r = s / (bounds inside r) % bound(r). Bounds divide exactly (LOCAL
    requires it, PADTO gates the padding), so no thread is out of range.

    A reduce split across a workgroup (GROUP, GROUPTOP) leaves each thread
    with a partial result in its accumulator; after the reduce loops:
      smem[tid] = acc; barrier; acc = identity;
      for j < n: acc = acc <op> smem[tid with g = j]
    where g is the thread's group index, and every store to global memory
    that does not depend on g is gated by g == 0. When this happens inside
    a loop, a barrier before the write keeps a thread from overwriting
    what a slower one still reads.
  }];
}

#endif // TGC_CODEGEN_PASSES_TD

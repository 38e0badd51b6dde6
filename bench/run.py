#!/usr/bin/python3
"""Benchmarks tgc against ONNX Runtime, PyTorch and OpenBLAS; writes
docs/performance.md.

    /usr/bin/python3 bench/run.py [--build build] [--rounds 3] [--threads 1,2]
                                  [--out docs/performance.md] [--quick]
                                  [--tune] [--models ResNet-18,...]

One command does it all: installs onnxruntime-node (npm, --ignore-scripts)
into BUILD/bench/ort, exports ResNet-18, MobileNetV2 (torchvision, random
weights) and a 1024^3 matmul into BUILD/bench/models, then times every
model at batch 1 (and 8 where the batch is free), on 1 and 2 threads, with
`tgc bench`, ONNX Runtime (bench/ort_bench.js), PyTorch (bench/
torch_bench.py, torchvision models only) and OpenBLAS (the matmul),
alternating the engines within each round. Times on a shared machine move
by tens of percent; only the ratios within one run are evidence, and the
table keeps, per engine, the best median over the rounds.

With --tune, each model is first tuned at batch 1 (`tgc tune --beam 2`, on
one thread, into BUILD/bench/tuning/; a database left by an earlier run
is deleted first, so the time reported is a whole search's) and the tuned
package is timed in every round (column "tgc tuned"), then again with each
run paired with one of the heuristic's package in turns in one process (tgc
bench --against-heuristic): the goal's speedup is the median over the pairs,
since two calls minutes apart each land in their own stretch of the
machine's noise (ResNet-18 on 2 threads: 0.74x from separate calls where
every kernel of the two builds took the same time). A model whose tuned C
is the heuristic's byte for byte (every choice of the search gave way
inside the model) is the same program: its speedup is 1, its times the
heuristic's, rather than a second sample of the noise. --models times only
the models named (and the matmul only if "matmul" is named).

ResNet-18's 2-thread speedup is also timed with its two thread counts in
turns in one process (tgc bench --scaling): timed apart, each cell lands in
its own stretch of a shared machine's noise.

Before and after ResNet-18 in every round, bench/core_probe.c measures
what the machine gives a second thread: how much slower one CPU reads a
buffer the other CPU wrote than one it wrote itself (what a kernel split
over two threads pays for the part of its input the other thread
produced), how many times one CPU's multiply-adds two CPUs do at once, and
how fast the two read from memory together. On a virtual machine all three
move with the host (within an hour on one machine: 1.1x to 5.7x for the
read; 2.0x for the arithmetic where each vCPU had a core, 1.0x where the
host ran both on the hyperthreads of one core; 20 to 30 GB/s), and the
2-thread times with them (tgc's ResNet-18, whose weights overflow the
cache, with the memory's in one run of 600), so the report gives them per
round beside the thread scaling.

Runs /usr/bin/python3 with numpy, onnx, torch and torchvision (Debian
python3-*), node and npm, and for PyTorch and the matmul peak OpenBLAS
(Debian libopenblas0-pthread): without it PyTorch would use Debian's
reference BLAS, 50 times slower on matmuls and no fair peer. It installs
what is missing first (`scripts/setup.sh --bench`) and, when --build is
the project's build/, builds tgc (`scripts/build.sh`).
"""

import argparse
import ctypes
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError:  # a fresh machine: main() installs it, then starts over
    np = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Timed runs of the 1024^3 matmul, each engine's best taken: the same
# count for both, --quick or not (10 runs take a quarter of a second).
MATMUL_RUNS = 10

OPENBLAS_CANDIDATES = [
    "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
    "/usr/lib/x86_64-linux-gnu/libopenblas.so.0",
    "/usr/lib/aarch64-linux-gnu/openblas-pthread/libopenblas.so.0",
]

# name, ONNX file, input shape per batch (None: no such batch), timed runs
# per batch, engines.
BUNDLED = [
    ("MLP", "models/mlp/model.onnx", {1: [1, 784]}, {1: 300}),
    ("CNN", "models/cnn/model.onnx", {1: [1, 1, 28, 28]}, {1: 300}),
    ("ResNet block", "models/resblock/model.onnx", {1: [1, 64, 56, 56]},
     {1: 40}),
    ("Transformer block", "models/transformer/model.onnx", {1: [1, 128, 256]},
     {1: 40}),
]
EXPORTED = [
    ("ResNet-18", "resnet18", {1: [1, 3, 224, 224], 8: [8, 3, 224, 224]},
     {1: 15, 8: 5}),
    ("MobileNetV2", "mobilenet_v2", {1: [1, 3, 224, 224], 8: [8, 3, 224, 224]},
     {1: 25, 8: 8}),
]
# The models the goals are stated over (batch 1).
GOAL_MODELS = ["MLP", "CNN", "Transformer block", "ResNet-18", "MobileNetV2"]


def log(message):
    print(message, file=sys.stderr, flush=True)


def run_json(argv, env=None):
    result = subprocess.run(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True,
                            env=env)
    if result.returncode != 0:
        raise RuntimeError("%s failed:\n%s%s" % (" ".join(argv),
                                                 result.stdout, result.stderr))
    return json.loads(result.stdout.strip().splitlines()[-1])


def ort_comparison_arguments(description, iterations):
    """The command line of the scripts that time tgc against ONNX Runtime
    alone (zoo.py, ops.py): --build, --rounds, --threads, --iterations."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=iterations)
    return parser


def ort_comparison_setup(args, subfolder):
    """Where the scripts that time tgc against ONNX Runtime alone start:
    tgc's path, onnxruntime-node's (installed if missing) and its version,
    and the folder BUILD/bench/SUBFOLDER, made."""
    tgc = os.path.join(args.build, "bin", "tgc")
    node_path, ort_version = install_ort(args.build)
    folder = os.path.join(args.build, "bench", subfolder)
    os.makedirs(folder, exist_ok=True)
    return tgc, node_path, ort_version, folder


def time_against_ort(tgc, path, input_arg, shape, threads, iterations,
                     node_path):
    """One turn of `tgc bench` and ONNX Runtime (bench/ort_bench.js) on the
    model at `path`: {"tgc": ..., "ort": ...}, each engine's JSON.
    `input_arg` is tgc's NAME=FILE; ONNX Runtime makes up an input of
    `shape`."""
    return {
        "tgc": run_json([tgc, "bench", path, "--threads", str(threads),
                         "--iterations", str(iterations), "--json",
                         "--input", input_arg]),
        "ort": run_json(["node", os.path.join(ROOT, "bench", "ort_bench.js"),
                         path, "x".join(map(str, shape)), str(threads),
                         str(iterations)],
                        env=dict(os.environ, NODE_PATH=node_path)),
    }


def install_ort(build):
    folder = os.path.join(build, "bench", "ort")
    module = os.path.join(folder, "node_modules", "onnxruntime-node")
    if not os.path.isdir(module):
        os.makedirs(folder, exist_ok=True)
        log("installing onnxruntime-node into %s" % folder)
        subprocess.run(["npm", "install", "--ignore-scripts", "--no-audit",
                        "--no-fund", "--prefix", folder, "onnxruntime-node"],
                       check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(module, "package.json")) as f:
        version = json.load(f)["version"]
    return os.path.join(folder, "node_modules"), version


def find_openblas():
    for path in OPENBLAS_CANDIDATES:
        if os.path.exists(path):
            return path
    return None


def openblas_sgemm_ms(path, threads, n=1024, runs=10):
    """Milliseconds of an n^3 sgemm through OpenBLAS (best of `runs`)."""
    os.environ["OPENBLAS_NUM_THREADS"] = str(threads)
    lib = ctypes.CDLL(path)
    lib.openblas_set_num_threads(threads)
    a = np.random.default_rng(0).random((n, n), dtype=np.float32)
    b = np.random.default_rng(1).random((n, n), dtype=np.float32)
    c = np.zeros((n, n), dtype=np.float32)
    ptr = lambda m: m.ctypes.data_as(ctypes.c_void_p)
    row_major, no_trans = 101, 111
    lib.cblas_sgemm.argtypes = [ctypes.c_int] * 6 + [
        ctypes.c_float, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
        ctypes.c_int, ctypes.c_float, ctypes.c_void_p, ctypes.c_int]
    best = math.inf
    # Two warm-up runs (the threads start, the pages fault in), as tgc
    # bench warms up before its timed runs.
    for i in range(runs + 2):
        start = time.perf_counter()
        lib.cblas_sgemm(row_major, no_trans, no_trans, n, n, n, 1.0, ptr(a),
                        n, ptr(b), n, 0.0, ptr(c), n)
        if i >= 2:
            best = min(best, time.perf_counter() - start)
    return best * 1e3


def cpu_model():
    """The CPU's name, x86 family and model, and widest vector ISA: one
    host's figures are comparable with another's only where these match
    (a cloud's "AMD EPYC" was Zen 3 with AVX2 one day, Zen 4 with AVX-512
    the next)."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break  # the first CPU's fields
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    name = fields.get("model name") or platform.processor() or "unknown"
    parts = [name]
    if "cpu family" in fields and "model" in fields:
        parts.append("family %s model %s" % (fields["cpu family"],
                                             fields["model"]))
    flags = fields.get("flags", "").split()
    for flag, isa in (("avx512f", "AVX-512"), ("avx2", "AVX2"),
                      ("sse2", "SSE2")):
        if flag in flags:
            parts.append(isa)
            break
    return ", ".join(parts)


def host_description():
    """The machine a report was generated on: its name, CPU and count."""
    return "%s (%s, %d CPUs)" % (platform.node() or "this machine",
                                 cpu_model(), os.cpu_count())


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="build folder with bin/tgc (default: build)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs",
                                                      "performance.md"))
    parser.add_argument("--quick", action="store_true",
                        help="a third of the timed runs at batch 8 (the "
                             "batch-1 goal figures keep theirs)")
    parser.add_argument("--tune", action="store_true",
                        help="BEAM-tune every model at batch 1 first and "
                             "time the tuned packages too")
    parser.add_argument("--models", default="",
                        help="comma-separated names (as in the table, or "
                             "matmul) to time only those")
    args = parser.parse_args()
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "setup.sh"),
                    "--bench"], check=True)
    if np is None:
        os.execv(sys.executable, [sys.executable] + sys.argv)
    build = os.path.abspath(args.build)
    if build == os.path.join(ROOT, "build"):
        # The project's own build folder: build it (a no-op when current).
        subprocess.run(["bash", os.path.join(ROOT, "scripts", "build.sh")],
                       check=True)
    tgc = os.path.join(build, "bin", "tgc")
    threads = [int(t) for t in args.threads.split(",")]
    scale = 3 if args.quick else 1
    chosen = [m for m in args.models.split(",") if m]
    known = [name for name, *_ in BUNDLED + EXPORTED] + ["matmul"]
    for name in chosen:
        if name not in known:
            parser.error("--models: no model %r (known: %s)" % (
                name, ", ".join(known)))
    wanted = lambda name: not chosen or name in chosen
    probe = build_core_probe(build)

    node_path, ort_version = install_ort(build)
    models_dir = os.path.join(build, "bench", "models")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench",
                                                 "export_models.py"),
                    models_dir], check=True)
    openblas = find_openblas()
    torch_env = dict(os.environ)
    if openblas:
        torch_env["LD_PRELOAD"] = openblas
    else:
        log("OpenBLAS not found (apt-get install libopenblas0-pthread): no "
            "PyTorch or OpenBLAS columns")

    entries = []  # (name, path, batch, shape, iterations, torch name)
    for name, rel, shapes, runs in BUNDLED:
        if not wanted(name):
            continue
        for batch, shape in shapes.items():
            entries.append((name, os.path.join(ROOT, rel), batch, shape,
                            runs[batch], None))
    for name, stem, shapes, runs in EXPORTED:
        if not wanted(name):
            continue
        for batch, shape in shapes.items():
            entries.append((name, os.path.join(models_dir, stem + ".onnx"),
                            batch, shape, runs[batch], stem))
    inputs_dir = os.path.join(build, "bench", "inputs")
    os.makedirs(inputs_dir, exist_ok=True)
    tuning_dir = os.path.join(build, "bench", "tuning")
    tuning_dbs = {}  # model path -> tuning database (batch 1)
    tune_seconds = {}
    same_c = set()  # models whose tuned C is the heuristic's
    if args.tune:
        os.makedirs(tuning_dir, exist_ok=True)
        for name, path, batch, shape, _, _ in entries:
            if batch != 1:
                continue
            db = os.path.join(tuning_dir, stem_of(path) + ".json")
            # A database from an earlier run would make the search a lookup
            # (its keys are the kernels before optimization, which a new
            # heuristic does not change) and the time reported meaningless.
            if os.path.exists(db):
                os.remove(db)
            log("tuning %s (tgc tune --beam 2)" % name)
            start = time.time()
            subprocess.run([tgc, "tune", path, "-o", db, "--beam", "2",
                            "--input", "input=" + input_file(inputs_dir, path,
                                                             shape)],
                           check=True)
            tune_seconds[name] = time.time() - start
            tuning_dbs[path] = db
            if tuned_c_is_heuristic_c(tgc, path, shape, db):
                log("%s: the tuned package's C is the heuristic's" % name)
                same_c.add(name)

    # results[(name, batch, threads, engine)] = [median per round]
    results = {}
    mins = {}
    blas_check = None
    cross_core = []  # per round: {"before", "after"}: core_probe's figures
    paired_scaling = []  # per round: tgc bench --scaling's JSON
    # beam_speedups[(name, threads)]: per round, the tuned package's paired
    # speedup over the heuristic's (tgc bench --against-heuristic)
    beam_speedups = {}
    tuned_kernels = {}  # name -> kernels not the heuristic's (--against-...)
    for round_index in range(args.rounds):
        for name, path, batch, shape, runs, torch_name in entries:
            if name == "ResNet-18" and batch == 1:
                cross_core.append({"before": run_core_probe(probe)})
            # --quick saves its time on batch 8: the goals are batch-1
            # figures, and ResNet-18's 2-thread speedup from 5 runs per
            # cell moved by 0.3x between rounds (1.81, 1.51, 1.68).
            if batch > 1:
                runs = max(3, runs // scale)
            shape_text = "x".join(map(str, shape))
            npy = input_file(inputs_dir, path, shape)
            for t in threads:
                key = (name, batch, t)
                log("round %d: %s batch %d, %d thread(s)" % (
                    round_index + 1, name, batch, t))
                tgc_result = run_json([tgc, "bench", path, "--threads", str(t),
                                       "--iterations", str(runs), "--json",
                                       "--input", "input=" + npy])
                measured = {"tgc": tgc_result}
                # The tuned package alone, for the table, then each of its
                # runs paired with one of the heuristic's in one process,
                # for the speedup: the machine drifts over minutes, and
                # paired runs share the caches (the CNN: 9 us alone, 11 us
                # paired, the two builds alike).
                if batch == 1 and name in same_c:
                    measured["tuned"] = tgc_result
                    beam_speedups.setdefault((name, t), []).append(1.0)
                elif batch == 1 and path in tuning_dbs:
                    tuned = [tgc, "bench", path, "--threads", str(t),
                             "--iterations", str(runs), "--json", "--input",
                             "input=" + npy, "--tuning-db", tuning_dbs[path]]
                    measured["tuned"] = run_json(tuned)
                    paired = run_json(tuned + ["--against-heuristic"])
                    beam_speedups.setdefault((name, t), []).append(
                        paired["tuned_speedup"])
                    tuned_kernels[name] = paired["tuned_kernels"]
                measured["ort"] = run_json(
                    ["node", os.path.join(ROOT, "bench", "ort_bench.js"), path,
                     shape_text, str(t), str(runs)],
                    env=dict(os.environ, NODE_PATH=node_path))
                if torch_name and openblas:
                    torch_result = run_json(
                        [sys.executable, os.path.join(ROOT, "bench",
                                                      "torch_bench.py"),
                         torch_name, str(batch), str(t), str(runs)],
                        env=torch_env)
                    measured["torch"] = torch_result
                    blas_check = torch_result["blas_gflops"]
                for engine, result in measured.items():
                    results.setdefault(key + (engine,), []).append(
                        result["median_ms"])
                    mins[key + (engine,)] = min(
                        mins.get(key + (engine,), math.inf), result["min_ms"])
            if name == "ResNet-18" and batch == 1:
                if max(threads) > 1:
                    # Both thread counts within the same seconds: apart,
                    # each cell lands in its own stretch of the noise.
                    paired_scaling.append(run_json(
                        [tgc, "bench", path, "--threads", str(max(threads)),
                         "--scaling", "--iterations", str(runs), "--json",
                         "--input", "input=" + npy]))
                cross_core[-1]["after"] = run_core_probe(probe)
        if not wanted("matmul"):
            continue
        # The matmul peak: tgc on the 1024^3 matmul against OpenBLAS.
        matmul = os.path.join(models_dir, "matmul1024.onnx")
        npy = os.path.join(inputs_dir, "matmul1024.npy")
        if not os.path.exists(npy):
            np.save(npy, np.random.default_rng(0).random((1024, 1024),
                                                         dtype=np.float32))
        for t in threads:
            log("round %d: matmul 1024^3, %d thread(s)" % (round_index + 1, t))
            tgc_result = run_json([tgc, "bench", matmul, "--threads", str(t),
                                   "--iterations", str(MATMUL_RUNS),
                                   "--json", "--input", "input=" + npy])
            results.setdefault(("matmul", 1, t, "tgc"), []).append(
                tgc_result["min_ms"])
            if openblas:
                results.setdefault(("matmul", 1, t, "openblas"), []).append(
                    run_json([sys.executable, "-c",
                              "import sys, json; sys.path.insert(0, %r); "
                              "import run; print(json.dumps({'ms': "
                              "run.openblas_sgemm_ms(%r, %d, runs=%d)}))" % (
                                  os.path.join(ROOT, "bench"), openblas, t,
                                  MATMUL_RUNS)])
                    ["ms"])

    write_report(args, results, mins, threads, ort_version, openblas,
                 blas_check, tune_seconds, cross_core, paired_scaling, same_c,
                 beam_speedups, tuned_kernels)


def build_core_probe(build):
    """BUILD/bench/core_probe, compiled from bench/core_probe.c; None where
    there are fewer than 2 CPUs or it does not build."""
    if (os.cpu_count() or 1) < 2:
        return None
    binary = os.path.join(build, "bench", "core_probe")
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    result = subprocess.run(
        ["cc", "-O3", "-march=native", "-pthread",
         os.path.join(ROOT, "bench", "core_probe.c"), "-o", binary],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        universal_newlines=True)
    if result.returncode != 0:
        log("bench/core_probe.c did not build; no cross-core figures:\n" +
            result.stdout)
        return None
    return binary


def run_core_probe(probe):
    """bench/core_probe.c's figures (ratio: how many times as long a read of
    data the other CPU wrote takes; compute_scaling and
    compute_scaling_min: two CPUs' multiply-adds against one's, the median
    and the lowest window), or None without the probe."""
    if not probe:
        return None
    try:
        return run_json([probe])
    except RuntimeError as error:
        log(str(error))
        return None


def describe_probe(probe):
    """One core_probe result in words for the report."""
    if not probe:
        return "no probe"
    return "read %.1fx, compute %.2fx (lowest %.2fx), memory %.0f GB/s" % (
        probe["ratio"], probe["compute_scaling"],
        probe["compute_scaling_min"], probe["memory_gbps"])


def stem_of(path):
    """models/mlp/model.onnx -> mlp; .../resnet18.onnx -> resnet18."""
    if path.endswith("model.onnx"):
        return os.path.basename(os.path.dirname(path))
    return os.path.splitext(os.path.basename(path))[0]


def input_file(inputs_dir, path, shape):
    """The model's input for `shape` (uniform in [-1, 1), fixed seed)."""
    npy = os.path.join(inputs_dir, "%s_%s.npy" % (
        stem_of(path), "x".join(map(str, shape))))
    if not os.path.exists(npy):
        rng = np.random.default_rng(0)
        np.save(npy, (rng.random(shape, dtype=np.float32) * 2 - 1))
    return npy


def tuned_c_is_heuristic_c(tgc, path, shape, db):
    """True if the package tuned with `db` has the same C sources and
    headers as the heuristic's, byte for byte."""
    with tempfile.TemporaryDirectory() as tmp:
        packages = []
        for name, extra in (("heuristic", []), ("tuned", ["--tuning-db", db])):
            out = os.path.join(tmp, name)
            subprocess.run([tgc, "compile", path, "-o", out, "--input-shape",
                            "input=" + "x".join(map(str, shape))] + extra,
                           check=True, stdout=subprocess.DEVNULL)
            packages.append({
                f: open(os.path.join(out, f), "rb").read()
                for f in sorted(os.listdir(out)) if f.endswith((".c", ".h"))})
        return packages[0] == packages[1]


def paired_ratio(results, slower, faster):
    """The median over rounds of results[slower] / results[faster]: both
    were timed within one round, minutes apart at most, so the ratio of a
    round carries less of the machine's drift than the ratio of the two
    best medians, which may come from different rounds."""
    pairs = zip(results[slower], results[faster])
    return statistics.median(a / b for a, b in pairs)


def write_report(args, results, mins, threads, ort_version, openblas,
                 blas_check, tune_seconds, cross_core, paired_scaling,
                 same_c, beam_speedups, tuned_kernels):
    best = {key: min(values) for key, values in results.items()}
    lines = []
    add = lines.append
    add("# Performance")
    add("")
    add("Generated by `/usr/bin/python3 bench/run.py%s` on %s on %s; "
        "rounds: %d. Do not edit by hand: run it again." % (
            (" --quick" if args.quick else "") +
            (" --tune" if args.tune else "") +
            (" --models " + args.models if args.models else ""),
            host_description(), datetime.date.today().isoformat(),
            args.rounds))
    add("")
    add("Engines: tgc (`tgc bench`: the generated C, gcc -O3 -march=native, "
        "NAME_run or NAME_run_parallel on the package's tgc_pool), ONNX "
        "Runtime %s (onnxruntime-node, CPU, graph optimizations on, via node: "
        "about 25 us per call of overhead), PyTorch %s eager with %s "
        "(torchvision models only). Each cell is the best median latency of "
        "the rounds in milliseconds; the engines alternate within each "
        "round. The machine is shared (2 vCPUs, other jobs running): absolute "
        "times move by tens of percent between runs, ratios within a run "
        "are the evidence." % (
            ort_version, torch_version(),
            "OpenBLAS preloaded (torch.mm measured at %.0f GFLOP/s)" %
            blas_check if blas_check else "no OpenBLAS found"))
    add("")
    tuned = args.tune
    add("| model | batch | threads | tgc ms | %sONNX Runtime ms | PyTorch ms "
        "| tgc / ORT |" % ("tgc tuned ms | " if tuned else ""))
    add("|---|---|---|---|---|---|---|" + ("---|" if tuned else ""))
    names = []
    for key in sorted(best, key=lambda k: (ORDER.get(k[0], 99), k[1], k[2])):
        name, batch, t, engine = key
        if engine != "tgc" or name == "matmul":
            continue
        names.append((name, batch, t))
        ort = best.get((name, batch, t, "ort"))
        torch_ms = best.get((name, batch, t, "torch"))
        tuned_ms = best.get((name, batch, t, "tuned"))
        add("| %s | %d | %d | %.3f | %s%.3f | %s | %.2f |" % (
            name, batch, t, best[key],
            ("%.3f | " % tuned_ms if tuned_ms else "- | ") if tuned else "",
            ort, "%.3f" % torch_ms if torch_ms else "-", best[key] / ort))
    add("")
    add("## Goals")
    add("")
    for t in threads:
        measured = [n for n in GOAL_MODELS if (n, 1, t, "tgc") in best]
        if not measured:
            continue
        ratios = [best[(n, 1, t, "tgc")] / best[(n, 1, t, "ort")]
                  for n in measured]
        worst = max(zip(ratios, measured))
        add("- %d thread%s: geometric mean of tgc / ONNX Runtime over %s at "
            "batch 1: **%.2f** (goal <= 1.0%s); worst: %s at %.2f (goal <= "
            "1.5)." % (t, "" if t == 1 else "s", ", ".join(measured),
                       geomean(ratios),
                       "" if measured == GOAL_MODELS else
                       ", stated over " + ", ".join(GOAL_MODELS),
                       worst[1], worst[0]))
    if 1 in threads and 2 in threads and ("ResNet-18", 1, 1, "tgc") in best:
        one, two = ("ResNet-18", 1, 1), ("ResNet-18", 1, 2)
        add("- ResNet-18 batch 1, tgc on 2 threads against 1: **%.2fx** "
            "faster (median of the rounds' ratios; %.2fx from the fastest "
            "runs; goal >= 1.7x; ONNX Runtime: %.2fx, %.2fx)." % (
                paired_ratio(results, one + ("tgc",), two + ("tgc",)),
                mins[one + ("tgc",)] / mins[two + ("tgc",)],
                paired_ratio(results, one + ("ort",), two + ("ort",)),
                mins[one + ("ort",)] / mins[two + ("ort",)]))
        if paired_scaling:
            add("  The same, each of %d runs on %d threads paired with one on "
                "1 thread in turns in one process (`tgc bench --scaling`), "
                "the median over the pairs: **%.2fx** (median of the rounds: "
                "%s)." % (
                    paired_scaling[0]["iterations"], max(threads),
                    statistics.median(p["speedup"] for p in paired_scaling),
                    ", ".join("%.2fx" % p["speedup"]
                              for p in paired_scaling)))
        if any(c["before"] for c in cross_core):
            rounds = list(zip(
                results[one + ("tgc",)], results[two + ("tgc",)],
                results[one + ("ort",)], results[two + ("ort",)],
                cross_core))
            add("  Per round, tgc's and ONNX Runtime's 2-thread speedup, "
                "then what the machine gave a second thread just before "
                "and just after (bench/core_probe.c): how many times as "
                "long one CPU took to read 256 KiB the other CPU wrote as "
                "256 KiB it wrote itself; how many times one CPU's "
                "multiply-adds the two ran at once, the median and the "
                "lowest of 8 windows of 25 ms (2.0: a core each; 1.0: the "
                "two vCPUs on the hyperthreads of one core); and how many "
                "bytes a second the two read from memory together: %s." %
                "; ".join("%.2fx / %.2fx, %s" % (
                    t1 / t2, o1 / o2,
                    ", ".join("%s: %s" % (when, describe_probe(probe[when]))
                              for when in ("before", "after")))
                          for t1, t2, o1, o2, probe in rounds))
    if tuned:
        for t in threads:
            names = [n for n in ORDER if (n, t) in beam_speedups]
            speedups = [statistics.median(beam_speedups[(n, t)])
                        for n in names]
            if speedups:
                add("- BEAM-tuned against the heuristic, %d thread%s, batch 1:"
                    " geometric mean **%.2fx** faster over %d models (goal >= "
                    "1.2x; per model, the median of the rounds' speedups, "
                    "each the median over its runs paired with the "
                    "heuristic's in one process, and how many kernels are "
                    "not the heuristic's: %s)."
                    % (t, "" if t == 1 else "s", geomean(speedups),
                       len(speedups), ", ".join(
                           "%s %s" % (n, "1.00x (the same C)" if n in same_c
                                      else "%.2fx (%d kernel%s)" % (
                                          r, tuned_kernels[n],
                                          "" if tuned_kernels[n] == 1
                                          else "s"))
                           for n, r in zip(names, speedups))))
        for name, seconds in tune_seconds.items():
            add("- Tuning %s (tgc tune --beam 2, %d CPUs, shared): %.0f s%s." %
                (name, os.cpu_count(), seconds,
                 " (goal <= 600 s)" if name == "ResNet-18" else ""))
    flops = 2 * 1024 ** 3
    for t in threads:
        tgc_ms = best.get(("matmul", 1, t, "tgc"))
        blas_ms = best.get(("matmul", 1, t, "openblas"))
        if tgc_ms:
            add("- 1024^3 matmul (weights constant), %d thread%s: tgc %.1f "
                "GFLOP/s%s." % (
                    t, "" if t == 1 else "s", flops / tgc_ms / 1e6,
                    ", OpenBLAS %.1f GFLOP/s: **%.0f%%** of OpenBLAS (goal "
                    ">= 75%%)" % (flops / blas_ms / 1e6,
                                  100 * blas_ms / tgc_ms) if blas_ms else
                    " (no OpenBLAS to compare with)"))
    add("")
    add("Batch 8 is measured for the models exported with a free batch "
        "dimension (ResNet-18, MobileNetV2); the bundled models are fixed at "
        "batch 1.")
    add("")
    add(HOW_IT_IS_FAST)
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


ORDER = {name: i for i, (name, *_rest) in enumerate(BUNDLED + EXPORTED)}

HOW_IT_IS_FAST = """## What makes the C fast, and how to build it

- Kernel opt actions (lib/Codegen/OptActions.cpp), chosen per kernel by the
  heuristic (Heuristic.cpp) for the SIMD width of `--cpu` (default: the
  host): one axis becomes the lanes of a vector where the reduction's
  loads are contiguous, a second axis a register tile of accumulators,
  constant weights are transposed at compile time (PACK) so the vector
  loads them in one piece, big kernels are split into tasks (THREAD).
  Every kernel's choice is in a comment above it (`/* opts: ... */`). The
  tile holds half the vector registers: 16 accumulators with AVX-512
  (two vectors by 7 pixels of a 7x7 stage), 8 with AVX2, where two
  vectors would leave a row of 7 one pixel, so it takes one vector by 7,
  and a row of 14 two pixels, so it takes four vectors by 2; where no
  divisor fills them, two vectors take a tile of up to two thirds of the
  registers (AVX-512 and a row of 27: 2 vectors by 9 pixels, 18
  accumulators), and an odd multiple of three vectors (AVX-512 and 144
  channels) three vectors by 7 pixels. With AVX2's 16 registers, 8
  accumulators are fewer FMAs than two units keep in flight (each waits
  5 cycles on Zen 2): where the tile's axis is outside the vector's,
  three vectors by 4 pixels or rows take 12, the axis padded to a
  multiple of three vectors where that leaves at most a sixteenth idle
  (Zen 2: the 1024^3 matmul 1.2x faster, the transformer block 1.17x,
  MobileNetV2 1.08x). A transpose reads whole cache
  lines: its loads' axis is
  upcast by a line, unless its output rows are a line or shorter (NCHW to
  NHWC of 3-16 channels: the plain loop is one stream of stores, 2-7x
  faster), and its stores' axis by a vector; a plain copy then moves in
  square tiles of registers (`tgc-transpose-lanes`: 8x8 floats with AVX2,
  16x16 with AVX-512, each a vector load per input row, a transpose by
  two-source permutes and a vector store per output row), where GCC
  assembled every stored vector from scalars (NHWC to NCHW of 112x112
  pixels, kernel alone on Zen 3: 2.8x faster with 4 channels, 5.4x with
  8, 6.6x with 16, 7.9x with 32, 14x with 64; NCHW to NHWC with 32 and
  64 channels 2.1x and 1.8x; attention's K^T 1.9x). A transpose with
  math between its loads and stores, where more of its accesses are
  contiguous along the stores than along the loads (a residual add
  stored channels-first), takes runs of 8 along both axes, so that its
  vector goes along the stores and the transposed input is gathered
  (the ResNet block's last kernel 2.2x faster; BEAM's find). Output channels along which only weights move are the
  lanes rather than the input channels summed in lanes: whole vectors of
  8 where 16 would leave a sixth idle (24, 104; MobileNetV2's 56x56
  projections, 2.2x faster), else padded vectors of 16 (440:
  RegNetY-400MF 1.6x faster), also where two convolutions are fused into
  one kernel of two reductions (a projection shortcut and a block's last
  convolution). A channels-last depthwise convolution tiles 7 to 14
  pixels over an input that stays in L2, 2 over a larger one; a 3x3
  window there whose stripe of one vector of channels fits in a quarter
  of L2 takes that one vector, its 9 taps written out, and its vectors
  of channels run outside the pixels of a task, so that each one's
  stripe of the window's rows stays in L1 and its 9 weight vectors in
  registers (tgc-order-loops; MobileNetV2's at 56x56 to 14x14 1.1-1.6x
  faster on one thread, 1.1-1.5x on two; BEAM's find). A
  reduction summed in lanes with no tile to reuse its loads (a layer
  norm's or softmax's row) is a chain of dependent adds per output: 8
  outputs of another axis it reads along run side by side where the
  chain is 16 steps or longer (the transformer block's layer norms
  1.0-1.7x, its softmax 1.18x, kernels inside the model; BEAM's find).
  Not where the kernel reads a weight over 1 MiB once (a classifier at
  batch 1): its rows, summed in lanes, go one at a time, one stream of
  reads the prefetchers keep ahead of, where 10 rows side by side were
  10 streams (ResNet-18's 1000 x 512 classifier 1.9x faster inside the
  model on one thread, MobileNetV2's 1000 x 1280 1.3x; BEAM's find).
  A pad whose rows are a cache line or shorter copies the same row of 8
  planes a step (ResNet-18's pads to 16x16 1.5-1.8x, to 10x10 1.1x, the
  CNN's 2.5x; BEAM's find, which upcast the rows instead: as fast at
  16x16, 1.7x slower at 10x10). A convolution's padding, read as zeros,
  adds nothing to its sums where the weights are all finite (checked at
  compile time: 0 times infinity is NaN): those multiply-adds are
  dropped, the tile's pixels past the border and, where the border rows
  are an eighth of the rows or more, the window rows above and below the
  image, through a copy of the loop under an if on the row (3x3 at 7x7:
  18% of the work; ResNet-18's and ResNet-50's 512-channel ones 1.2x
  faster, MobileNetV3's 5x5 depthwise ones at 7x7 1.3x).
- Shapes that matter: output dims that every address walks as one merge at
  lowering (a 56x56 image is one axis of 3136: 1x1 convolutions get
  16-lane vectors and 2-vector tiles); a convolution of few input channels
  read with stride 2 vectorizes along its output channels (with AVX-512,
  along its output row where each output sums fewer than 64 products:
  SqueezeNet's stem, 111 columns in 7 vectors, 1.6x faster); a depthwise
  convolution or a pool of stride 2 along its output row, each vector of
  every other input element two contiguous loads and a permute; a row of
  7, 14, 28 or 56 pixels is padded to 1, 1, 2 or 4 whole vectors, the last
  one read and written with masked (partial) loads and stores (AVX-512's
  masks, else AVX's vmaskmovps); a longer axis (ViT's 197 tokens: 13
  vectors) runs its vectors in a loop and counts the last one's lanes at
  run time, two vectors a step where one by the tile would make fewer
  than 8 chains of FMAs (AVX2, ShuffleNetV2's 1x1 convolutions of 116
  channels at 14x14: 196 pixels in 14 pairs of vectors by 4 channels
  rather than 25 vectors by 4, 1.4x faster; 13 pairs would leave no axis
  to split into tasks); a register tile's axis that no divisor fills (197 rows; on
  AVX-512 also 116 channels, whose 4 leave 12 accumulators idle) is
  padded too (200: 8 rows; 120: 15; AVX2's two vectors by 4 of 49 pixels: 52,
  and of 111 or 27, whose 3 fills only three quarters: 112 and 28), the
  padded element's scalar loads reading the buffer's first element
  instead of branching; output channels padded past 4 vectors (116,
  232, 440), or to an even count of vectors that pair up (AVX2: 440 as
  28 pairs of 8), get their constant weights packed with zeros in the
  padded channels, read as whole vectors; a loop that reads the parts of a
  concatenation along an outer axis (DenseNet's channels), or along the
  vector's lanes where the parts meet between vectors (SqueezeNet's pools
  of joined channels, channels last, whose parts of 64 channels are 4
  vectors of 16 each: 0.05 ms, scalar before at 2.2 ms), or a padded
  tile's copies, or a loop of vectors whose last lane is past the row
  (each vector then built lane by lane), is written once per part, its
  gates decided, and an elementwise loop gated by its own index (a
  padded image's border columns) is split where the gate changes
  (tgc-unswitch); a channels-last convolution sums its
  input channels in
  its innermost loop (tgc-order-reductions); the blocks of columns a
  weight is packed in nest outside the rows where a task's share of it
  overflows L2 (each block read from memory once, the next one
  prefetched) or overflows L1 while one block fits (each block then
  serves every tile of rows from L1: a transformer's 256 -> 1024 and
  -> 768 layers 1.05-1.08x faster) (tgc-order-loops); a 1x1
  convolution fused into a global pool unrolls its pixels into the tile; a
  constant Gemm B is packed into panels of the tile's 32 columns (its rows
  4 KiB apart would share a few cache sets), and THREAD splits the axis
  that splits the weights, so each core keeps its slice in its L2, unless
  another split's tasks read a quarter of the bytes in all (DenseNet's
  channels-first 1x1 convolutions at 56x56, split by pixels rather than
  output channels, read their 3.2 MB input once instead of 8 times; an
  input over 256 KiB that every task reads whole counts twice, as each
  task fetches the half the other core wrote again from that core), and
  never the vectors of a row where another axis splits too; an axis of
  11 or 13 blocks of weights, which no count of tasks up to 8 divides,
  splits one task per block where a block takes 16-32 KB: each stays in
  L1 for all the rows (a transformer's 256 -> 256 projection, 11 blocks
  of 24 columns, 1.2x faster than split 8 ways by rows).
- BEAM search: `tgc tune MODEL -o DB.json [--beam 2] [--threads 1]
  [--timeout-ms 1000] [--compile-timeout-s 60] [--input NAME=FILE]`
  searches each distinct kernel
  (kernels of the same structure once) from the unoptimized kernel, the
  heuristic's choice and every prefix of it: each round extends every beam
  member by every action that applies (UPCAST, UNROLL, PADTO, PACK; ROLL,
  whether the C compiler keeps a reduce loop of up to 16 steps a loop or
  writes it out, which decides whether some register tiles spill; THREAD,
  into each divisor of the axis up to 16 tasks, also on one thread, where
  its axis becoming the outermost loop decides what a task keeps in cache;
  a candidate without a split of its own is built and timed with the
  heuristic's, as it will ship), renders each
  candidate as a one-kernel package with a timing harness
  (made-up inputs, the real weights), compiles them in parallel with `cc -O3
  -march=native` (or `--cpu`; a compile over `--compile-timeout-s` is
  stopped with its compiler's processes and dropped: GCC took over 10
  minutes on a 16x16 tile of scalar copies), times them one at a time
  (median of up to 5 samples; one past twice the best stops after one),
  drops any
  whose outputs differ from the heuristic's, keeps the best N, and stops
  when a round gains less than 2%. The best and the heuristic's choice are
  then linked into one harness and timed in turns, 15 rounds of a sample
  each (the best's time: the heuristic's times the median ratio within a
  round, so a core that slows down for seconds, as shared ones do, slows
  both alike); the heuristic's is kept unless beaten.
  `tgc compile --tuning-db DB.json` (or `tgc bench --tuning-db`) applies an
  entry to a kernel whose key matches: the SHA-256 of the kernel as
  lowered and of the context (target, CPU and ISA, the C compiler and its
  version, flags, thread tasks), so an entry never reaches another kernel
  or machine, and a second compile does no search and writes the same
  bytes. `tgc compile --beam N --tuning-db DB.json` searches what the
  database lacks and adds it; `tgc tune --report DB.json` lists each
  kernel's time with the heuristic's actions and the tuned ones.
  `bench/run.py --tune` tunes every model first and adds a "tgc tuned"
  column. The model has one time budget (`tgc tune --budget-s`, default
  360 s; ResNet-18 tunes in about 7 minutes on 2 cores, the check inside
  the model included), shared among its kernels by their times inside the
  model (built with the heuristic's actions and timed before the search,
  each entry's time summed over the kernels that share it; by how often
  their loop bodies run where the model cannot be timed here), so no
  candidate is built once a kernel's share is spent; a kernel that runs
  over its share leaves less to the kernels after it.
  A round builds its candidates as compilers free up, taking each kind of
  action on each axis once before any a second time, so a round the
  budget cuts short has tried a bit of everything.
  Kernels are timed alone, with their weights warm in cache (`--cold`
  reads an 8 MiB buffer before every run to evict them; on the transformer
  block the warm choices ran faster in the model): a gain there can shrink
  or turn into a loss inside the whole model. So the search ends inside
  it: the model is built with the heuristic's actions and with the
  database's, the two run in turns (3 rounds of 20 runs) with each kernel
  timed at the package's `NET_KERNEL_DONE` hook (`tgc bench --profile`),
  and a choice that is not faster there, or that is slower at the other
  thread count (one thread, or all of the host's CPUs where the search ran
  on one), gives way to the heuristic's (`--report` shows both times).
  Faster and slower are read against the kernels both builds run
  unchanged, timed in the same turns: the tuned build's times are divided
  by the median ratio of theirs, and a choice must clear the 80th
  percentile of their spread about it (2% to 15%; on this host about 9%,
  where ResNet-18's check had kept 11 of 18 choices with a fixed 2% and
  keeps 4: the padding copies at 1.6-1.7x, a Winograd output transform
  and a 7x7 copy at 1.1x). `tgc run` and `tgc verify` take
  `--tuning-db` too, so a tuned package is checked against the reference.
- Vectors are GCC/clang vector extensions behind `tgc_f32x16_*` macros,
  with a portable struct-of-array fallback (`-DTGC_VECTOR_EXTENSIONS=0`,
  used by any other compiler). a*b+c is one fused multiply-add: clang
  contracts it in an expression, and the source turns GCC's contraction
  on (`#pragma GCC optimize("fp-contract=fast")`, which -std=c99 turns off).
  `no-trapping-math` (clang's default) lets GCC vectorize a loop tgc
  leaves scalar that computes under a gate (a pad of a biased Relu).
  clang gets `min_vector_width(512)` on kernels with 512-bit vectors,
  without which it splits them in two on AVX-512 CPUs. exp2 is tgc's own,
  branch-free and vectorizable (libm's exp2f call stops vectorization).
- Flags: `tgc run`, `tgc verify` and `tgc bench` build with
  `-std=c99 -O3 -march=native` (bench; run and verify use -O2) and
  `-pthread`. A package's CMakeLists compiles the kernels with `-O3
  -march=${NAME_ARCH}` (the `--cpu` given to tgc compile, else `native`;
  `-DNAME_ARCH=` leaves the ISA to the compiler) and builds the thread pool
  as the target `tgc_pool` (`-DNAME_THREADS=OFF` leaves it out). A plain
  build: `cc -std=c99 -O3 -march=native -c net.c net_weights.c tgc_pool.c`
  and link with `-lm -pthread`.
- Threads: `NAME_run(in, out, arena)` runs on the calling thread.
  `NAME_run_parallel(in, out, arena, parallel_for, context)` runs the
  kernels split by THREAD through `parallel_for(context, count, fn, args)`,
  which must call fn(args, i) for every i in [0, count) on any threads and
  return when all are done: `tgc_pool_parallel_for` with a pool from
  `tgc_pool_create(threads)` (tgc_pool.h), or the product's own. Neither
  keeps state between calls: several threads may run a model at once, each
  with its own arena. The pool gives each thread the same block of every
  kernel's tasks, and a thread done with its own takes from the back of
  another's: kernels split alike read on each core what it wrote.
- Batches: a graph that never mixes its images (convolutions, pools,
  normalizations in inference, Gemm over batched rows) is compiled for one
  image and the run function loops over them (`tgc-image-loop`), so each
  image's activations stay in cache from kernel to kernel: MobileNetV2's
  whole batch of 8 is 38 MB per layer, more than the L3. The arena holds
  one image. `--image-loop auto` (default) does this where a kernel's
  result for the batch exceeds 1 MiB and the weights do at least 8 FLOPs
  per byte per image; `always` / `never` force it. On N threads (`tgc
  bench --threads N`, `--parallel-images N`) such a batch runs N images at
  once, each thread whole images in an arena slice of its own, instead of
  splitting every kernel: no activation moves between cores.
- Winograd: a 3x3 convolution of stride 1 with 64 or more input channels,
  16 or more output channels and 32 or more 2x2 output tiles per image
  (16 or more with AVX2's 16 vector registers) is computed as Winograd
  F(2x2, 3x3),
  or F(4x4, 3x3) where there are 32 or more 4x4 tiles (`--winograd auto`,
  the default): the weight transformed at compile time, each image's 4x4
  (6x6) input tiles transformed into 16 (36) planes (the parts written
  out in full, each tile's channels last), 16 (36) products that run
  like channels-last 1x1 convolutions, the output transform realized as
  the image, with the bias, residual add and Relu that follow applied
  before it stores.
  2.25x (4x) fewer multiplies: ResNet-18's stride-1 3x3 convolutions of
  its 56x56 and 28x28 stages (4x4 tiles) and 14x14 stage (2x2) take a
  third to a half of the direct convolution's time. Its 7x7 stage's
  (16 tiles of 2x2 per image, so 16/9 of a 9.4 MB weight read for every
  16 uses) is taken with AVX2, whose direct convolution there keeps one
  vector by 7 pixels (2.2 ms instead of 3.6-4.3 per convolution on Zen
  3), and not with AVX-512, where it was faster on one host of three:
  `tgc tune` builds the model with `--winograd auto` and `always`, times
  both, and the tuned package takes the faster.
"""


def torch_version():
    try:
        import torch
        return torch.__version__
    except ImportError:
        return "(not installed)"


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""End-to-end tests of the CUDA and Metal targets that need more than lit.

  gpu_tests.py nvcc --tgc TGC --work DIR MODEL...
      compiles each model (an .onnx file, or a CASE folder of the ONNX
      backend tests) for CUDA and builds the package with nvcc for sm_75,
      sm_80 and sm_90 with every warning an error; skipped (exit 77) where
      nvcc is not installed.

  gpu_tests.py nvcc-source --arch A... --work DIR FILE...
      compiles hand-written CUDA sources (the tensor-core kernels that the
      emulation is tested with) with nvcc for each sm_A, every warning an
      error; skipped (exit 77) where nvcc is not installed.

  gpu_tests.py bench --tgc TGC MODEL
      `tgc bench MODEL --target cuda` (the GPU where there is one, else the
      CPU emulation): the report has a latency and, for every kernel of the
      manifest, a time and the GB/s and GFLOP/s that follow from the
      manifest's bytes and FLOPs; on the emulation it says that the times
      mean nothing.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

SKIP = 77
ARCHS = ["75", "80", "90"]


def find_nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    default = "/usr/local/cuda/bin/nvcc"
    return default if os.access(default, os.X_OK) else None


def run(args, what):
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace")
    if proc.returncode != 0:
        print(f"FAILED: {what}\n$ {' '.join(args)}\n{proc.stdout}")
        return False
    if proc.stdout.strip():
        # nvcc prints warnings it does not count as errors (e.g. about
        # deprecated architectures): any output is a finding.
        print(f"FAILED: {what} printed:\n$ {' '.join(args)}\n{proc.stdout}")
        return False
    return True


def nvcc_test(args):
    nvcc = find_nvcc()
    if not nvcc:
        print("SKIPPED: nvcc not found (on PATH or in /usr/local/cuda/bin); "
              "the CUDA packages were not built")
        return SKIP
    os.makedirs(args.work, exist_ok=True)
    failures = 0
    for model in args.models:
        # models/mlp/model.onnx is "mlp"; a CASE folder is its own name.
        folder = model if os.path.isdir(model) else os.path.dirname(model)
        name = os.path.basename(os.path.normpath(folder))
        onnx = os.path.join(model, "model.onnx") if os.path.isdir(model) else model
        package = os.path.join(args.work, name)
        if not run([args.tgc, "compile", onnx, "-o", package, "--target", "cuda"],
                   f"tgc compile {onnx} --target cuda"):
            failures += 1
            continue
        gencode = []
        for arch in ARCHS:
            gencode += ["-gencode", f"arch=compute_{arch},code=sm_{arch}"]
        ok = run([nvcc, "-O3", "-c", os.path.join(package, "net.cu"),
                  "-o", os.path.join(package, "net.o"),
                  "-Werror", "all-warnings", "-Xcompiler", "-Wall,-Wextra,-Werror"]
                 + gencode, f"nvcc on the CUDA package of {name}")
        ok = ok and run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c",
                         os.path.join(package, "net_weights.c"),
                         "-o", os.path.join(package, "net_weights.o")],
                        f"cc on the weights of {name}")
        print(f"{'PASS' if ok else 'FAIL'}: {name} (sm_{', sm_'.join(ARCHS)})")
        failures += 0 if ok else 1
    print(f"{len(args.models) - failures} passed, {failures} failed")
    return 1 if failures else 0


def nvcc_source_test(args):
    nvcc = find_nvcc()
    if not nvcc:
        print("SKIPPED: nvcc not found (on PATH or in /usr/local/cuda/bin); "
              "the sources were not built")
        return SKIP
    os.makedirs(args.work, exist_ok=True)
    failures = 0
    for source in args.sources:
        for arch in args.arch:
            obj = os.path.join(args.work, f"{os.path.basename(source)}.sm_{arch}.o")
            ok = run([nvcc, "-x", "cu", "-c", source, "-o", obj,
                      "-gencode", f"arch=compute_{arch},code=sm_{arch}",
                      "-Werror", "all-warnings", "-Xcompiler",
                      "-Wall,-Wextra,-Werror"], f"nvcc on {source} for sm_{arch}")
            print(f"{'PASS' if ok else 'FAIL'}: {os.path.basename(source)} (sm_{arch})")
            failures += 0 if ok else 1
    print(f"{len(args.sources) * len(args.arch) - failures} passed, {failures} failed")
    return 1 if failures else 0


def tgc_bench(tgc, *args):
    proc = subprocess.run([tgc, "bench", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, errors="replace")
    return proc.returncode, proc.stdout, proc.stderr


def bench_test(args):
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)
        return condition

    status, stdout, stderr = tgc_bench(args.tgc, args.model, "--target", "cuda",
                                       "--iterations", "3", "--json")
    if not check(status == 0, f"tgc bench --json failed ({status}):\n{stderr}"):
        return report(failures)
    result = json.loads(stdout)
    check(result["target"] == "cuda", f"target: {result['target']}")
    check(result["iterations"] == 3, f"asked for 3 runs: {result['iterations']}")
    check(0 < result["min_ms"] <= result["median_ms"] <= result["p90_ms"],
          f"latency statistics out of order: {result}")
    emulated = result["emulated"]
    if emulated:
        check("mean nothing" in result.get("note", ""),
              f"the emulation's report does not warn: {result}")
    print(f"device: {result['device']} ({'emulated' if emulated else 'GPU'})")

    # The kernels are the manifest's, in its order, with its costs.
    package = os.path.join(args.work, "package")
    if os.path.isdir(package):
        shutil.rmtree(package)
    compiled = subprocess.run([args.tgc, "compile", args.model, "-o", package,
                               "--target", "cuda"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    if not check(compiled.returncode == 0, f"tgc compile:\n{compiled.stdout}"):
        return report(failures)
    with open(os.path.join(package, "net.json")) as f:
        manifest = json.load(f)["kernels"]
    kernels = result["kernels"]
    check([k["function"] for k in kernels] == [k["function"] for k in manifest],
          "the reported kernels are not the manifest's")
    total = 0.0
    for kernel, entry in zip(kernels, manifest):
        name = kernel["function"]
        check(kernel["bytes"] == entry["bytes"] and
              kernel["flops"] == entry["flops"], f"{name}: costs differ")
        check(kernel["grid"] == "x".join(map(str, entry["grid"])) and
              kernel["block"] == "x".join(map(str, entry["block"])),
              f"{name}: launch dimensions differ")
        ms = kernel["median_ms"]
        check(0 < kernel["min_ms"] <= ms, f"{name}: times out of order")
        if ms > 0:
            check(abs(kernel["gb_per_s"] - entry["bytes"] / ms / 1e6) <=
                  1e-6 * kernel["gb_per_s"], f"{name}: GB/s is not bytes/time")
            check(abs(kernel["gflop_per_s"] - entry["flops"] / ms / 1e6) <=
                  1e-6 * kernel["gflop_per_s"] + 1e-12,
                  f"{name}: GFLOP/s is not FLOPs/time")
        total += ms
    check(abs(result["kernels_median_ms"] - total) <= 1e-9 + 1e-9 * total,
          "kernels_median_ms is not the sum of the kernels' medians")

    # The text report: the warning first on the emulation, a row per kernel.
    status, stdout, stderr = tgc_bench(args.tgc, args.model, "--target", "cuda",
                                       "--iterations", "2")
    if check(status == 0, f"tgc bench failed ({status}):\n{stderr}"):
        lines = stdout.splitlines()
        if emulated:
            check(lines and lines[0].startswith("NOTE:") and
                  "emulation" in lines[0] and "mean nothing" in lines[0],
                  f"the first line does not warn:\n{stdout}")
        check("latency: min" in stdout and "(2 runs" in stdout,
              f"no latency line:\n{stdout}")
        for entry in manifest:
            check(any(line.split()[:1] == [entry["function"]] for line in lines),
                  f"no row for {entry['function']}:\n{stdout}")
        print(stdout, end="")

    # Threads are the C target's.
    status, _, stderr = tgc_bench(args.tgc, args.model, "--target", "cuda",
                                  "--threads", "2")
    check(status == 1 and "only the C target runs on a thread pool" in stderr,
          f"--threads 2 --target cuda: status {status}\n{stderr}")
    return report(failures)


def report(failures):
    for failure in failures:
        print("FAILED: " + failure)
    print("1 passed, 0 failed" if not failures else "0 passed, 1 failed")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="test", required=True)
    nvcc = sub.add_parser("nvcc")
    nvcc.add_argument("--tgc", required=True)
    nvcc.add_argument("--work", required=True)
    nvcc.add_argument("models", nargs="+")
    bench = sub.add_parser("bench")
    bench.add_argument("--tgc", required=True)
    bench.add_argument("--work", required=True)
    bench.add_argument("model")
    source = sub.add_parser("nvcc-source")
    source.add_argument("--arch", nargs="+", required=True)
    source.add_argument("--work", required=True)
    source.add_argument("sources", nargs="+")
    args = parser.parse_args()
    if args.test == "nvcc-source":
        return nvcc_source_test(args)
    if args.test == "bench":
        os.makedirs(args.work, exist_ok=True)
        return bench_test(args)
    return nvcc_test(args)


if __name__ == "__main__":
    sys.exit(main())

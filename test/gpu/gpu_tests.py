#!/usr/bin/python3
"""End-to-end tests of the CUDA and Metal targets that need more than lit.

  gpu_tests.py nvcc --tgc TGC --work DIR MODEL...
      compiles each model (an .onnx file, or a CASE folder of the ONNX
      backend tests) for CUDA and builds the package with nvcc for sm_75,
      sm_80 and sm_90 with every warning an error; skipped (exit 77) where
      nvcc is not installed.
"""

import argparse
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="test", required=True)
    nvcc = sub.add_parser("nvcc")
    nvcc.add_argument("--tgc", required=True)
    nvcc.add_argument("--work", required=True)
    nvcc.add_argument("models", nargs="+")
    args = parser.parse_args()
    return nvcc_test(args)


if __name__ == "__main__":
    sys.exit(main())

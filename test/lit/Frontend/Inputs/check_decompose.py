"""Imports ONNX test cases with tgc-translate, decomposes them with tgc-opt,
evaluates the result with graph_eval.py and compares it with the case's
reference outputs.

    check_decompose.py [--base DIR] CASE... [--base DIR2] CASE...

A CASE is a folder with model.onnx and test_data_set_*, relative to the last
--base given. A CASE ending in '+frozen' has its integer inputs turned into
initializers first (what a compiler that knows them would see); '+frozen:I,J'
freezes the inputs of those indices instead. Exits 1 if
any case fails. Needs numpy and onnx: run it with Debian's /usr/bin/python3.
"""
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graph_eval  # noqa: E402


def load_tensor(path):
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return numpy_helper.to_array(tensor)


def real_inputs(model):
    weights = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in weights]


def freeze(case, workdir, which=None):
    """A copy of the model with its integer inputs (or the inputs of the
    indices in `which`) as initializers."""
    model = onnx.load(os.path.join(case, "model.onnx"))
    data_set = sorted(glob.glob(os.path.join(case, "test_data_set_*")))[0]
    kept, frozen = [], []
    for i, info in enumerate(real_inputs(model)):
        value = load_tensor(os.path.join(data_set, f"input_{i}.pb"))
        if (i in which) if which is not None else value.dtype.kind in "iub":
            model.graph.initializer.append(numpy_helper.from_array(value, info.name))
            frozen.append(i)
        else:
            kept.append(info)
    del model.graph.input[:]
    model.graph.input.extend(kept)
    path = os.path.join(workdir, "model.onnx")
    onnx.save(model, path)
    return path, frozen


def compare(got, expected, tolerance):
    if got.shape != expected.shape:
        return f"shape {got.shape}, expected {expected.shape}"
    if expected.dtype.kind not in "fc":
        return None if np.array_equal(got, expected) else "values differ"
    g, e = got.astype(np.float64), expected.astype(np.float64)
    if not np.array_equal(np.isnan(g), np.isnan(e)):
        return "NaNs differ"
    finite = ~np.isnan(e)
    if not finite.any():
        return None
    error = np.max(np.abs(g[finite] - e[finite]) / (1 + np.abs(e[finite])))
    return None if error <= tolerance else f"error {error:.3g} > {tolerance}"


def check(spec, workdir):
    case, _, mode = spec.partition("+")
    model_path, frozen = os.path.join(case, "model.onnx"), []
    if mode.startswith("frozen"):
        _, _, indices = mode.partition(":")
        which = {int(i) for i in indices.split(",")} if indices else None
        model_path, frozen = freeze(case, workdir, which)
    imported = subprocess.run(["tgc-translate", "--import-onnx", model_path],
                              capture_output=True, text=True)
    if imported.returncode:
        return "import failed: " + imported.stderr.strip()
    decomposed = subprocess.run(["tgc-opt", "--tgc-decompose"],
                                input=imported.stdout, capture_output=True,
                                text=True)
    if decomposed.returncode:
        return "decompose failed: " + decomposed.stderr.strip()
    model = onnx.load(os.path.join(case, "model.onnx"))
    count = len(real_inputs(model))
    half = "float16" in case or "FLOAT16" in case
    tolerance = 1e-3 if half else 2e-5
    data_sets = sorted(glob.glob(os.path.join(case, "test_data_set_*")))
    for data_set in data_sets[:1] if frozen else data_sets:
        inputs = [load_tensor(os.path.join(data_set, f"input_{i}.pb"))
                  for i in range(count) if i not in frozen]
        outputs = sorted(glob.glob(os.path.join(data_set, "output_*.pb")),
                         key=lambda p: int(p.rsplit("_", 1)[1][:-3]))
        got = graph_eval.run(decomposed.stdout, inputs)
        for i, (g, path) in enumerate(zip(got, outputs)):
            problem = compare(g, load_tensor(path), tolerance)
            if problem:
                return f"output {i}: {problem}"
    return None


def main():
    specs, base, args = [], "", iter(sys.argv[1:])
    for arg in args:
        if arg == "--base":
            base = next(args)
        else:
            specs.append(os.path.join(base, arg))
    failed = 0
    with tempfile.TemporaryDirectory() as workdir:
        for spec in specs:
            problem = check(spec, workdir)
            name = os.path.basename(spec.split("+")[0].rstrip("/"))
            print(("FAIL " if problem else "PASS ") + name +
                  (": " + problem if problem else ""))
            failed += bool(problem)
    print(f"{len(specs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

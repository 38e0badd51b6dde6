"""Exports the benchmark models that are not bundled, for bench/run.py.

    export_models.py OUTPUT_DIR

Writes OUTPUT_DIR/resnet18.onnx and mobilenet_v2.onnx (torchvision, random
weights from a fixed seed, batch dimension dynamic, opset 13) and
matmul1024.onnx (Y = X @ W with X an input and W a 1024x1024 weight, the
matmul peak). Nothing here is committed: the models are made at bench time.
Needs Debian's python3-torch, python3-torchvision and python3-onnx.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
import torch
import torchvision


def export_torchvision(name, path):
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    x = torch.rand(1, 3, 224, 224)
    torch.onnx.export(model, x, path, input_names=["input"],
                      output_names=["output"], opset_version=13,
                      dynamic_axes={"input": {0: "batch"},
                                    "output": {0: "batch"}})


def export_matmul(path, n=1024):
    rng = np.random.default_rng(0)
    w = (rng.random((n, n), dtype=np.float32) * 2 - 1) / np.sqrt(n)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["input", "w"], ["output"])], "matmul",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [n, n])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [n, n])],
        [numpy_helper.from_array(w.astype(np.float32), "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, path)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name in ("resnet18", "mobilenet_v2"):
        path = os.path.join(out, name + ".onnx")
        if not os.path.exists(path):
            export_torchvision(name, path)
    path = os.path.join(out, "matmul1024.onnx")
    if not os.path.exists(path):
        export_matmul(path)


if __name__ == "__main__":
    main()

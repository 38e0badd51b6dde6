"""Writes a model whose Range runs over a float size computed from an
integer one (as the expanded window functions do), and a float division
whose result is not a whole number:

    make_fold_float.py OUT.onnx
Needs onnx: run it with Debian's /usr/bin/python3.
"""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

graph = helper.make_graph(
    [helper.make_node("Cast", ["n"], ["nf"], to=TensorProto.FLOAT),
     helper.make_node("Range", ["zero", "nf", "one"], ["r"]),
     helper.make_node("Add", ["x", "r"], ["y"]),
     helper.make_node("Div", ["seven", "two"], ["half"]),
     helper.make_node("Mul", ["x", "half"], ["z"])],
    "fold_float",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4]),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, [4])],
    [numpy_helper.from_array(np.array(4, np.int32), "n"),
     numpy_helper.from_array(np.array(0, np.float32), "zero"),
     numpy_helper.from_array(np.array(1, np.float32), "one"),
     numpy_helper.from_array(np.array(7, np.float32), "seven"),
     numpy_helper.from_array(np.array(2, np.float32), "two")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(model, sys.argv[1])

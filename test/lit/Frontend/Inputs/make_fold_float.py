"""Writes a model whose Range runs over a float size computed from an
integer one (as the expanded window functions do), a float division whose
result is not a whole number, and the trip count of an expanded Range,
ceil((6 - 10) / -3) = 2, whose division is not whole but its Ceil is:

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
     helper.make_node("Mul", ["x", "half"], ["z"]),
     helper.make_node("Sub", ["six", "ten"], ["diff"]),
     helper.make_node("Cast", ["diff"], ["difff"], to=TensorProto.FLOAT),
     helper.make_node("Div", ["difff", "minus_three"], ["ratio"]),
     helper.make_node("Ceil", ["ratio"], ["ceiled"]),
     helper.make_node("Relu", ["ceiled"], ["trips"]),
     helper.make_node("Cast", ["trips"], ["count"], to=TensorProto.INT64),
     helper.make_node("Range", ["zero64", "count", "one64"], ["steps"]),
     helper.make_node("Add", ["k", "steps"], ["w"])],
    "fold_float",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
     helper.make_tensor_value_info("k", TensorProto.INT64, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4]),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, [4]),
     helper.make_tensor_value_info("w", TensorProto.INT64, [2])],
    [numpy_helper.from_array(np.array(4, np.int32), "n"),
     numpy_helper.from_array(np.array(0, np.float32), "zero"),
     numpy_helper.from_array(np.array(1, np.float32), "one"),
     numpy_helper.from_array(np.array(7, np.float32), "seven"),
     numpy_helper.from_array(np.array(2, np.float32), "two"),
     numpy_helper.from_array(np.array(6, np.int32), "six"),
     numpy_helper.from_array(np.array(10, np.int32), "ten"),
     numpy_helper.from_array(np.array(-3, np.float32), "minus_three"),
     numpy_helper.from_array(np.array(0, np.int64), "zero64"),
     numpy_helper.from_array(np.array(1, np.int64), "one64")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(model, sys.argv[1])

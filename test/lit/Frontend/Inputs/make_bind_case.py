"""Writes a case folder (ONNX backend test layout) whose Reshape takes its
target shape from a graph input, as the ONNX backend tests do:

    make_bind_case.py DIR   ->  DIR/model.onnx, DIR/test_data_set_0/*.pb,
                                DIR/shape_i32.npy (a wrongly typed value)
Needs numpy and onnx: run it with Debian's /usr/bin/python3.
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

out = sys.argv[1]
os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
# y = Reshape(x, Concat(shape, [-1])) * 2: the shape reaches the Reshape
# through another node.
graph = helper.make_graph(
    [helper.make_node("Concat", ["shape", "minus1"], ["target"], axis=0),
     helper.make_node("Reshape", ["x", "target"], ["r"]),
     helper.make_node("Mul", ["r", "two"], ["y"])],
    "bind",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6]),
     helper.make_tensor_value_info("shape", TensorProto.INT64, [1])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 3])],
    [numpy_helper.from_array(np.array([-1], np.int64), "minus1"),
     numpy_helper.from_array(np.array(2, np.float32), "two")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(model, os.path.join(out, "model.onnx"))

x = np.arange(12, dtype=np.float32).reshape(2, 6)
shape = np.array([4], np.int64)
for name, value in [("input_0", x), ("input_1", shape),
                    ("output_0", x.reshape(4, 3) * 2)]:
    with open(os.path.join(out, "test_data_set_0", name + ".pb"), "wb") as f:
        f.write(numpy_helper.from_array(value).SerializeToString())
np.save(os.path.join(out, "shape_i32.npy"), shape.astype(np.int32))

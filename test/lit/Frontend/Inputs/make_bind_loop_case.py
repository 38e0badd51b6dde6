"""Writes a case folder (ONNX backend test layout) whose Loop body reshapes
with a target shape read from a graph input of the enclosing graph, and
whose trip count is computed from another graph input:

    make_bind_loop_case.py DIR  ->  DIR/model.onnx, DIR/test_data_set_0/*.pb
Both inputs decide shapes, so `tgc verify` must bind both.
Needs numpy and onnx: run it with Debian's /usr/bin/python3.
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

out = sys.argv[1]
os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
# Each iteration: acc = acc + Reshape(x, shape); the trip count is n + 1.
body = helper.make_graph(
    [helper.make_node("Identity", ["cond"], ["cond_out"]),
     helper.make_node("Reshape", ["x", "shape"], ["r"]),
     helper.make_node("Add", ["acc", "r"], ["acc_out"])],
    "body",
    [helper.make_tensor_value_info("i", TensorProto.INT64, []),
     helper.make_tensor_value_info("cond", TensorProto.BOOL, []),
     helper.make_tensor_value_info("acc", TensorProto.FLOAT, [4, 3])],
    [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
     helper.make_tensor_value_info("acc_out", TensorProto.FLOAT, [4, 3])])
graph = helper.make_graph(
    [helper.make_node("Add", ["n", "one"], ["trips"]),
     helper.make_node("Loop", ["trips", "", "zeros"], ["y"], body=body)],
    "bind_loop",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6]),
     helper.make_tensor_value_info("shape", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("n", TensorProto.INT64, [])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 3])],
    [numpy_helper.from_array(np.array(1, np.int64), "one"),
     numpy_helper.from_array(np.zeros((4, 3), np.float32), "zeros")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(model, os.path.join(out, "model.onnx"))

x = np.arange(12, dtype=np.float32).reshape(2, 6)
for name, value in [("input_0", x), ("input_1", np.array([4, 3], np.int64)),
                    ("input_2", np.array(2, np.int64)),
                    ("output_0", x.reshape(4, 3) * 3)]:
    with open(os.path.join(out, "test_data_set_0", name + ".pb"), "wb") as f:
        f.write(numpy_helper.from_array(value).SerializeToString())

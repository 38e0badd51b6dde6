#!/usr/bin/python3
"""Writes the small ONNX models the schedule lit tests import.

Run with Debian's python3 (python3-onnx, python3-numpy):
  /usr/bin/python3 test/lit/Schedule/Inputs/make_inputs.py
"""
import os

import numpy as np
from onnx import TensorProto, checker, helper, numpy_helper, save

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(0)


def tensor(name, shape):
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)


def conv_bn_relu(name, pads):
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], kernel_shape=[3, 3], pads=pads),
        helper.make_node("BatchNormalization", ["c", "g", "beta", "mean", "var"], ["n"]),
        helper.make_node("Relu", ["n"], ["y"]),
    ]
    out = 8 if pads[0] else 6
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, out, out])],
        [tensor("w", [16, 4, 3, 3]), tensor("b", [16]), tensor("g", [16]), tensor("beta", [16]),
         tensor("mean", [16]),
         numpy_helper.from_array(rng.uniform(0.5, 2, [16]).astype(np.float32), "var")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    checker.check_model(model)
    save(model, os.path.join(HERE, name + ".onnx"))


conv_bn_relu("conv_bn_relu", [0, 0, 0, 0])
conv_bn_relu("conv_bn_relu_padded", [1, 1, 1, 1])

"""Writes ONNX backend-style cases whose graph inputs and outputs are
sequences and optionals, with .pb test data (SequenceProto, OptionalProto).

    make_container_case.py OUT_DIR
  OUT_DIR/map/       y = SequenceMap(x, b) with body y_i = x_i * 2 + b,
                     x a sequence of 3 tensors of different lengths
  OUT_DIR/optional/  has = OptionalHasElement(o), v = OptionalGetElement(o)
                     for an optional tensor input holding a value
Needs Debian's python3 with numpy and onnx.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]


def save_case(name, model, inputs, outputs):
    folder = os.path.join(out, name)
    data = os.path.join(folder, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for prefix, values in (("input", inputs), ("output", outputs)):
        for i, value in enumerate(values):
            with open(os.path.join(data, f"{prefix}_{i}.pb"), "wb") as f:
                f.write(value.SerializeToString())


seq_f32 = helper.make_sequence_type_proto(
    helper.make_tensor_type_proto(TensorProto.FLOAT, ["n"]))
body = helper.make_graph(
    [helper.make_node("Constant", [], ["two"],
                      value=numpy_helper.from_array(np.array(2, np.float32))),
     helper.make_node("Mul", ["xi", "two"], ["t"]),
     helper.make_node("Add", ["t", "bi"], ["yi"])],
    "body",
    [helper.make_tensor_value_info("xi", TensorProto.FLOAT, ["n"]),
     helper.make_tensor_value_info("bi", TensorProto.FLOAT, [1])],
    [helper.make_tensor_value_info("yi", TensorProto.FLOAT, ["n"])])
graph = helper.make_graph(
    [helper.make_node("SequenceMap", ["x", "b"], ["y"], body=body)], "map",
    [helper.make_value_info("x", seq_f32),
     helper.make_tensor_value_info("b", TensorProto.FLOAT, [1])],
    [helper.make_value_info("y", seq_f32)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
xs = [np.arange(n, dtype=np.float32) for n in (2, 3, 5)]
b = np.array([0.5], np.float32)
save_case("map", model,
          [numpy_helper.from_list(xs, "x"),
           numpy_helper.from_array(b, "b")],
          [numpy_helper.from_list(
              [x * 2 + b for x in xs], "y")])

opt_f32 = helper.make_optional_type_proto(
    helper.make_tensor_type_proto(TensorProto.FLOAT, [4]))
graph = helper.make_graph(
    [helper.make_node("OptionalHasElement", ["o"], ["has"]),
     helper.make_node("OptionalGetElement", ["o"], ["v"])], "optional",
    [helper.make_value_info("o", opt_f32)],
    [helper.make_tensor_value_info("has", TensorProto.BOOL, []),
     helper.make_tensor_value_info("v", TensorProto.FLOAT, [4])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
o = np.array([1, -2, 3, -4], np.float32)
save_case("optional", model,
          [numpy_helper.from_optional(o, "o")],
          [numpy_helper.from_array(np.array(True), "has"),
           numpy_helper.from_array(o, "v")])

"""Writes small models with static control flow and sequences into DIR:
if_const.onnx, if_runtime.onnx, if_mismatch.onnx, loop.onnx, scan.onnx,
sequence.onnx.

    make_control_flow.py DIR
Needs numpy and onnx: run it with Debian's /usr/bin/python3.
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
F = TensorProto.FLOAT


def save(name, nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


def branch(name, op):
    return helper.make_graph(
        [helper.make_node(op, ["x", "x"], [name + "_out"])], name, [],
        [helper.make_tensor_value_info(name + "_out", F, [2])])


x = helper.make_tensor_value_info("x", F, [2])
y = helper.make_tensor_value_info("y", F, [2])
cond_true = numpy_helper.from_array(np.array(True), "c")

# If with a constant condition: the then branch (x + x) is inlined.
save("if_const",
     [helper.make_node("If", ["c"], ["y"], then_branch=branch("then", "Add"),
                       else_branch=branch("else", "Mul"))],
     [x], [y], [cond_true])

# If with a condition computed at run time, branches of the same type and
# shape: both are inlined and Where picks.
save("if_runtime",
     [helper.make_node("If", ["b"], ["y"], then_branch=branch("then", "Add"),
                       else_branch=branch("else", "Mul"))],
     [x, helper.make_tensor_value_info("b", TensorProto.BOOL, [1])], [y])

# ... and branches of different shapes: reported.
longer = helper.make_graph(
    [helper.make_node("Concat", ["x", "x"], ["else_out"], axis=0)], "else", [],
    [helper.make_tensor_value_info("else_out", F, [4])])
save("if_mismatch",
     [helper.make_node("If", ["b"], ["y"], name="pick",
                       then_branch=branch("then", "Add"), else_branch=longer)],
     [x, helper.make_tensor_value_info("b", TensorProto.BOOL, [])],
     [helper.make_tensor_value_info("y", F, ["n"])])

# Loop: 3 trips of s = s + x, each s also a scan output.
body = helper.make_graph(
    [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
     helper.make_node("Add", ["s_in", "x"], ["s_out"]),
     helper.make_node("Identity", ["s_out"], ["scan_out"])],
    "body",
    [helper.make_tensor_value_info("i", TensorProto.INT64, []),
     helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
     helper.make_tensor_value_info("s_in", F, [2])],
    [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
     helper.make_tensor_value_info("s_out", F, [2]),
     helper.make_tensor_value_info("scan_out", F, [2])])
save("loop",
     [helper.make_node("Loop", ["m", "c", "x"], ["s", "all"], body=body)],
     [x], [helper.make_tensor_value_info("s", F, [2]),
           helper.make_tensor_value_info("all", F, [3, 2])],
     [cond_true, numpy_helper.from_array(np.array(3, np.int64), "m")])

# Scan: a running sum over the 3 rows of xs.
scan_body = helper.make_graph(
    [helper.make_node("Add", ["acc_in", "row"], ["acc_out"]),
     helper.make_node("Identity", ["acc_out"], ["seen"])],
    "scan_body",
    [helper.make_tensor_value_info("acc_in", F, [2]),
     helper.make_tensor_value_info("row", F, [2])],
    [helper.make_tensor_value_info("acc_out", F, [2]),
     helper.make_tensor_value_info("seen", F, [2])])
save("scan",
     [helper.make_node("Scan", ["x", "xs"], ["total", "sums"], body=scan_body,
                       num_scan_inputs=1)],
     [x, helper.make_tensor_value_info("xs", F, [3, 2])],
     [helper.make_tensor_value_info("total", F, [2]),
      helper.make_tensor_value_info("sums", F, [3, 2])])

# Sequences at constant positions: [x, y] + insert z at 1, concatenated.
save("sequence",
     [helper.make_node("SequenceConstruct", ["x", "y"], ["s1"]),
      helper.make_node("SequenceInsert", ["s1", "z", "one"], ["s2"]),
      helper.make_node("ConcatFromSequence", ["s2"], ["cat"], axis=0),
      helper.make_node("SequenceLength", ["s2"], ["n"])],
     [x, y, helper.make_tensor_value_info("z", F, [2])],
     [helper.make_tensor_value_info("cat", F, [6]),
      helper.make_tensor_value_info("n", TensorProto.INT64, [])],
     [numpy_helper.from_array(np.array(1, np.int64), "one")], opset=11)

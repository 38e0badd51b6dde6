"""Copies the ONNX test case node/test_adam_multiple into OUT_DIR with the
epsilon its reference outputs were computed with (1e-2) set on the Adam
node. The case as shipped by onnx 1.12 omits the attribute, so a correct
implementation falls back to the default 1e-6 and cannot match X1_new and
X2_new (onnx/onnx#7749, fixed upstream by adding the attribute).

    make_adam_multiple.py ONNX_NODE_DATA_DIR OUT_DIR
Needs onnx: run it with Debian's /usr/bin/python3.
"""
import os
import shutil
import sys

import onnx
from onnx import helper

source = os.path.join(sys.argv[1], "test_adam_multiple")
out = sys.argv[2]
shutil.rmtree(out, ignore_errors=True)
shutil.copytree(os.path.join(source, "test_data_set_0"),
                os.path.join(out, "test_data_set_0"))
model = onnx.load(os.path.join(source, "model.onnx"))
(adam,) = model.graph.node
assert adam.op_type == "Adam"
assert not any(a.name == "epsilon" for a in adam.attribute)
adam.attribute.append(helper.make_attribute("epsilon", 1e-2))
onnx.save(model, os.path.join(out, "model.onnx"))

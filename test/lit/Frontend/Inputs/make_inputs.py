"""Writes the small ONNX models that the import tests read.

Run with Debian's python (it has the onnx package):
    /usr/bin/python3 test/lit/Frontend/Inputs/make_inputs.py
The output is deterministic; the files are committed so that the tests do not
need Python.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def save(model, name, check=True):
    if check:
        onnx.checker.check_model(model)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(model.SerializeToString())


def model(nodes, inputs, outputs, initializers=(), opset=17, name="g"):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="tgc-tests")
    m.ir_version = 8
    return m


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


# A dynamic batch dim and an input of unknown rank.
def dynamic():
    nodes = [
        helper.make_node("Relu", ["x"], ["y"], name="relu"),
        helper.make_node("Neg", ["u"], ["v"], name="neg"),
    ]
    unknown_rank = helper.make_tensor_value_info("u", TensorProto.FLOAT, None)
    save(model(nodes, [vi("x", TensorProto.FLOAT, ["N", 4]), unknown_rank],
               [vi("y", TensorProto.FLOAT, ["N", 4]),
                vi("v", TensorProto.FLOAT, ["?"])]), "dynamic.onnx",
         check=False)


# Shape -> Gather -> Unsqueeze -> Concat -> Reshape, the exporter pattern that
# ONNX shape inference cannot see through on its own.
def shape_chain():
    zero = numpy_helper.from_array(np.array(0, dtype=np.int64), "zero")
    minus1 = numpy_helper.from_array(np.array([-1], dtype=np.int64), "minus1")
    axes = numpy_helper.from_array(np.array([0], dtype=np.int64), "axes")
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="shape"),
        helper.make_node("Gather", ["s", "zero"], ["b"], name="batch", axis=0),
        helper.make_node("Unsqueeze", ["b", "axes"], ["b1"], name="unsq"),
        helper.make_node("Concat", ["b1", "minus1"], ["target"], name="cat",
                         axis=0),
        helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape"),
    ]
    save(model(nodes, [vi("x", TensorProto.FLOAT, ["B", 3, 4])],
               [vi("y", TensorProto.FLOAT, ["B", "R"])],
               [zero, minus1, axes]), "shape_chain.onnx")


# Swin's window padding: each spatial dim padded to a multiple of 7, the
# pads computed from the input's shape with Mod (of a negative number: the
# divisor's sign) and put in Pad's order by a reversing Slice and a
# Transpose, as torch exports F.pad.
def window_pad():
    c = lambda name, v: numpy_helper.from_array(np.array(v, dtype=np.int64),
                                                name)
    inits = [c("one", [1]), c("two", [2]), c("seven", 7), c("zero3", [0, 0, 0]),
             c("zero1", [0]), c("shape42", [4, 2]), c("minus1", [-1]),
             c("last", [-1]), c("first", [-(1 << 62)]), c("axis0", [0])]
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "one"], ["h"], axis=0),
        helper.make_node("Gather", ["s", "two"], ["w"], axis=0),
        helper.make_node("Neg", ["h"], ["nh"]),
        helper.make_node("Mod", ["nh", "seven"], ["ph"]),
        helper.make_node("Mod", ["w", "seven"], ["wm"]),
        helper.make_node("Sub", ["seven", "wm"], ["w7"]),
        helper.make_node("Mod", ["w7", "seven"], ["pw"]),
        # Per dim from the last: [0, 0] for C, [0, pw] for W, [0, ph] for H,
        # [0, 0] for N.
        helper.make_node("Concat", ["zero1", "zero1", "zero1", "pw", "zero1",
                                    "ph", "zero1", "zero1"], ["flat"], axis=0),
        helper.make_node("Reshape", ["flat", "shape42"], ["pairs"]),
        helper.make_node("Slice", ["pairs", "last", "first", "axis0",
                                   "minus1"], ["dims"]),
        helper.make_node("Transpose", ["dims"], ["t"], perm=[1, 0]),
        helper.make_node("Reshape", ["t", "minus1"], ["pads"]),
        helper.make_node("Pad", ["x", "pads"], ["y"], name="pad"),
    ]
    save(model(nodes, [vi("x", TensorProto.FLOAT, ["N", "H", "W", 3])],
               [vi("y", TensorProto.FLOAT, ["N", "Hp", "Wp", 3])], inits),
         "window_pad.onnx")


# One Identity per element type tgc supports.
def types():
    elems = [TensorProto.FLOAT16, TensorProto.BFLOAT16, TensorProto.FLOAT,
             TensorProto.DOUBLE, TensorProto.BOOL, TensorProto.INT8,
             TensorProto.INT16, TensorProto.INT32, TensorProto.INT64,
             TensorProto.UINT8, TensorProto.UINT16, TensorProto.UINT32,
             TensorProto.UINT64]
    nodes, inputs, outputs = [], [], []
    for i, e in enumerate(elems):
        nodes.append(helper.make_node("Identity", [f"x{i}"], [f"y{i}"]))
        inputs.append(vi(f"x{i}", e, [2]))
        outputs.append(vi(f"y{i}", e, [2]))
    save(model(nodes, inputs, outputs), "types.onnx")
    save(model([helper.make_node("Identity", ["s"], ["t"], name="id")],
               [vi("s", TensorProto.STRING, [2])],
               [vi("t", TensorProto.STRING, [2])]), "string.onnx")


# Initializers in raw_data and in the typed fields, small and large; an
# initializer also listed as an input; Constant nodes of each kind; an
# omitted optional input; unnamed nodes; a subgraph attribute.
def misc():
    w_raw = numpy_helper.from_array(
        np.arange(100, dtype=np.float32).reshape(10, 10) / 7, "w.raw")
    w_typed = helper.make_tensor("w/typed", TensorProto.FLOAT, [10, 10],
                                 [float(i) / 3 for i in range(100)])
    # make_tensor stores FLOAT16 as bit patterns in int32_data.
    h_typed = helper.make_tensor("h", TensorProto.FLOAT16, [2], [1.5, -2.0])
    b_typed = helper.make_tensor("b", TensorProto.BOOL, [3], [1, 0, 1])
    i_typed = helper.make_tensor("i8", TensorProto.INT8, [2], [-3, 7])
    u_typed = helper.make_tensor("u32", TensorProto.UINT32, [2], [4000000000, 1])
    cmax = numpy_helper.from_array(np.array(6.0, dtype=np.float32), "cmax")
    then_g = helper.make_graph(
        [helper.make_node("Constant", [], ["t"],
                          value=numpy_helper.from_array(
                              np.ones(2, dtype=np.float32)))],
        "then", [], [vi("t", TensorProto.FLOAT, [2])])
    else_g = helper.make_graph(
        [helper.make_node("Constant", [], ["e"],
                          value=numpy_helper.from_array(
                              np.zeros(2, dtype=np.float32)))],
        "else", [], [vi("e", TensorProto.FLOAT, [2])])
    nodes = [
        helper.make_node("MatMul", ["x", "w.raw"], ["m0"]),
        helper.make_node("MatMul", ["m0", "w/typed"], ["m1"], name="mm1"),
        helper.make_node("Clip", ["m1", "", "cmax"], ["c"], name="clip"),
        helper.make_node("Constant", [], ["cf"], name="cf", value_float=0.5),
        helper.make_node("Constant", [], ["ci"], name="ci",
                         value_ints=[1, 10]),
        helper.make_node("Constant", [], ["many"], name="many",
                         value_floats=[i / 4 for i in range(65)]),
        helper.make_node("Mul", ["c", "cf"], ["y"], name="scale"),
        helper.make_node("Reshape", ["y", "ci"], ["z"], name="reshape"),
        helper.make_node("If", ["cond"], ["sel"], name="branch",
                         then_branch=then_g, else_branch=else_g),
    ]
    inputs = [vi("x", TensorProto.FLOAT, [1, 10]),
              vi("cond", TensorProto.BOOL, []),
              vi("cmax", TensorProto.FLOAT, [])]
    outputs = [vi("z", TensorProto.FLOAT, [1, 10]),
               vi("sel", TensorProto.FLOAT, [2]),
               vi("h", TensorProto.FLOAT16, [2]),
               vi("b", TensorProto.BOOL, [3]),
               vi("i8", TensorProto.INT8, [2]),
               vi("u32", TensorProto.UINT32, [2]),
               vi("many", TensorProto.FLOAT, [65])]
    save(model(nodes, inputs, outputs,
               [w_raw, w_typed, h_typed, b_typed, i_typed, u_typed, cmax]),
         "misc.onnx")


# A value whose shape depends on data, used by a node that needs it.
def data_dependent():
    nodes = [
        helper.make_node("NonZero", ["x"], ["nz"], name="nonzero"),
        helper.make_node("Transpose", ["nz"], ["y"], name="after"),
    ]
    save(model(nodes, [vi("x", TensorProto.FLOAT, [3, 4])],
               [vi("y", TensorProto.INT64, ["N", 2])]), "data_dependent.onnx")


# A node the checker rejects, and two nodes of a custom domain whose output
# shapes ONNX cannot infer (both must be reported).
def unknown_ops():
    x = vi("x", TensorProto.FLOAT, [2])
    y = vi("y", TensorProto.FLOAT, [2])
    save(model([helper.make_node("Reluu", ["x"], ["y"], name="typo")], [x],
               [y]), "checker_fails.onnx", check=False)
    nodes = [helper.make_node("Foo", ["x"], ["t"], name="foo", domain="acme"),
             helper.make_node("Bar", ["t"], ["y"], name="bar", domain="acme")]
    graph = helper.make_graph(nodes, "g", [x], [y])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                helper.make_opsetid("acme", 1)])
    m.ir_version = 8
    save(m, "custom_domain.onnx")


def external():
    a = np.arange(80, dtype=np.float32) / 8
    b = np.array([1, -2, 3], dtype=np.int64)
    with open(os.path.join(HERE, "external.bin"), "wb") as f:
        f.write(b"\0" * 16 + a.tobytes() + b.tobytes())

    def tensor(name, arr, location, offset, length):
        t = TensorProto()
        t.name = name
        t.data_type = onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[arr.dtype]
        t.dims.extend(arr.shape)
        t.data_location = TensorProto.EXTERNAL
        for k, v in (("location", location), ("offset", str(offset)),
                     ("length", str(length))):
            e = t.external_data.add()
            e.key, e.value = k, v
        return t

    def make(location, offset_a=16, name="external.onnx"):
        ta = tensor("a", a, location, offset_a, a.nbytes)
        tb = tensor("b", b, location, 16 + a.nbytes, b.nbytes)
        nodes = [helper.make_node("Add", ["x", "a"], ["y"], name="add"),
                 helper.make_node("Identity", ["b"], ["c"], name="id")]
        m = model(nodes, [vi("x", TensorProto.FLOAT, [80])],
                  [vi("y", TensorProto.FLOAT, [80]),
                   vi("c", TensorProto.INT64, [3])], [ta, tb])
        # The checker of onnx 1.12 does not look at external paths; tgc must.
        save(m, name, check=False)

    make("external.bin")
    make("../Inputs/external.bin", name="external_dotdot_inside.onnx")
    make("../external.bin", name="external_escape.onnx")
    make("/etc/hostname", name="external_absolute.onnx")
    make("external.bin", offset_a=1 << 20, name="external_beyond.onnx")
    make("missing.bin", name="external_missing.onnx")


if __name__ == "__main__":
    dynamic()
    shape_chain()
    window_pad()
    types()
    misc()
    data_dependent()
    unknown_ops()
    external()

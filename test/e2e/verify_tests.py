"""e2e.verify_*: `tgc verify` beyond the bundled cases.

It must fail on a wrong reference, read data from --inputs/--expected
folders, and compile once per distinct set of input shapes.
"""

import os
import shutil

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from common import check, main, save_npy


def write_pb(path, array, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def read_pb(path):
    tensor = TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return numpy_helper.to_array(tensor)


def mismatch(env):
    """A reference that differs in one element fails, naming the output."""
    case = env.path("cnn")
    shutil.copytree(os.path.join(env.source, "models", "cnn"), case)
    expected = os.path.join(case, "test_data_set_0", "output_0.pb")
    want = read_pb(expected).copy()
    want.flat[3] += 0.5
    write_pb(expected, want, "output")
    status, stdout, stderr = env.tgc_cmd("verify", case, expect_ok=False)
    check(status == 1, "verify exited with %d on a wrong reference" % status)
    check("FAIL (1 of 10 elements outside tolerance, first at flat index 3)"
          in stdout, "verify did not report the bad element:\n" + stdout)
    check(stdout.rstrip().splitlines()[-1].startswith("FAIL: 0 of 1"),
          "verify's summary does not say FAIL:\n" + stdout)

    # The same data pass once the tolerance covers the difference.
    env.tgc_cmd("verify", case, "--atol", "0.6")
    env.check_no_scratch_left()


def dirs(env):
    """MODEL --inputs DIR --expected DIR, with tensors named after the
    model's inputs and outputs (.npy) or numbered (.pb)."""
    data = os.path.join(env.source, "models", "mlp", "test_data_set_0")
    inputs, expected = env.path("inputs"), env.path("expected")
    os.makedirs(inputs)
    os.makedirs(expected)
    save_npy(os.path.join(inputs, "input.npy"),
             read_pb(os.path.join(data, "input_0.pb")))
    shutil.copy(os.path.join(data, "output_0.pb"), expected)
    _, stdout, _ = env.tgc_cmd("verify", env.model("mlp"), "--inputs",
                               inputs, "--expected", expected)
    check("PASS: 1 of 1 outputs passed in 1 data set" in stdout,
          "unexpected verify output:\n" + stdout)
    # Without --expected, verify refuses rather than guessing.
    status, _, stderr = env.tgc_cmd("verify", env.model("mlp"), "--inputs",
                                    inputs, expect_ok=False)
    check(status == 1 and "--expected" in stderr,
          "verify without --expected: status %d, stderr:\n%s" %
          (status, stderr))


def shapes(env):
    """A model with a dynamic batch: one compile per distinct shape."""
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["h"], name="relu"),
         helper.make_node("Mul", ["h", "x"], ["y"], name="mul")],
        "dynamic",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    case = env.path("case")
    os.makedirs(case)
    onnx.save(model, os.path.join(case, "model.onnx"))
    rng = np.random.default_rng(0)
    for i, batch in enumerate([2, 3, 2]):
        folder = os.path.join(case, "test_data_set_%d" % i)
        os.makedirs(folder)
        x = rng.standard_normal((batch, 4)).astype(np.float32)
        write_pb(os.path.join(folder, "input_0.pb"), x, "x")
        write_pb(os.path.join(folder, "output_0.pb"), np.maximum(x, 0) * x,
                 "y")
    _, stdout, stderr = env.tgc_cmd("verify", case, "-v")
    check("PASS: 3 of 3 outputs passed in 3 data sets" in stdout,
          "unexpected verify output:\n" + stdout)
    compiles = [l for l in stderr.splitlines() if l.startswith("tgc: import")]
    check(len(compiles) == 2, "expected 2 compiles (batch 2 and 3), saw %d" %
          len(compiles))
    env.check_no_scratch_left()


main({
    "mismatch": mismatch,
    "dirs": dirs,
    "shapes": shapes,
})

"""e2e.exporter_*: models as exporters in the wild write them (models/).

`tgc verify models/NAME` checks each against PyTorch's outputs; these tests
check what verify does not show: a dynamic model bound with --input-shape at
compile time, down to numbers, with its shape arithmetic folded away, and an
If on the input selected at run time rather than specialized per input.
"""

import glob
import os
import re

from common import check, main


def bound_shape(env):
    """dyncnn (dynamic batch, height and width) compiled for the size of
    its second data set with --input-shape: the import leaves no shape
    arithmetic (x.view(x.size(0), -1) exports Shape -> Gather -> Unsqueeze
    -> Concat -> Reshape), and the bound module gives PyTorch's numbers."""
    case = os.path.join(env.source, "models", "dyncnn")
    data = os.path.join(case, "test_data_set_1")
    out = env.path("pkg")
    env.compile_model(os.path.join(case, "model.onnx"), out,
                      "--input-shape", "input=2x3x24x40", "--dump-ir",
                      "import")
    dumps = glob.glob(os.path.join(out, "ir", "*import.mlir"))
    check(len(dumps) == 1, "expected one import dump, found %s" % dumps)
    with open(dumps[0]) as f:
        ir = f.read()
    check("tensor<2x3x24x40xf32> {tgc.name = \"input\"}" in ir and
          "tensor<2x10xf32> {tgc.name = \"output\"}" in ir,
          "the import is not bound to 2x3x24x40 -> 2x10:\n" + ir[:2000])
    ops = set(re.findall(r'tgc\.onnx_node "(\w+)"', ir))
    left = ops & {"Shape", "Gather", "Unsqueeze", "Concat"}
    check(not left, "shape arithmetic left after import: %s" % sorted(left))
    check("Reshape" in ops and "Conv" in ops,
          "the import lost the model's nodes: %s" % sorted(ops))
    # The module bound at compile time computes PyTorch's result.
    _, stdout, _ = env.tgc_cmd("verify", dumps[0], "--inputs", data,
                               "--expected", data)
    check("PASS: 1 of 1 outputs passed in 1 data set" in stdout,
          "unexpected verify output:\n" + stdout)
    env.check_no_scratch_left()


def runtime_if(env):
    """gate's If decides on its input (x.sum() > 0). The input stays an
    input: one compile serves both data sets, one per branch, because the
    import computes both branches and picks with Where. (The batch is
    dynamic, so the branches agree only on `batch` before it is bound.)"""
    case = os.path.join(env.source, "models", "gate")
    _, stdout, stderr = env.tgc_cmd("verify", case, "-v")
    check("PASS: 2 of 2 outputs passed in 2 data sets" in stdout,
          "unexpected verify output:\n" + stdout)
    compiles = [l for l in stderr.splitlines() if l.startswith("tgc: import")]
    check(len(compiles) == 1, "expected 1 compile for both branches, saw %d"
          % len(compiles))
    out = env.path("pkg")
    env.compile_model(os.path.join(case, "model.onnx"), out,
                      "--input-shape", "input=2x16", "--dump-ir", "import")
    with open(glob.glob(os.path.join(out, "ir", "*import.mlir"))[0]) as f:
        ops = set(re.findall(r'tgc\.onnx_node "(\w+)"', f.read()))
    check("If" not in ops and {"Where", "Relu", "Tanh"} <= ops,
          "expected both branches and a Where, not an If: %s" % sorted(ops))
    env.check_no_scratch_left()


main({
    "bound_shape": bound_shape,
    "runtime_if": runtime_if,
})

"""e2e.verify_*: `tgc verify` beyond the bundled cases.

It must fail on a wrong reference, read data from --inputs/--expected
folders, and compile once per distinct set of input shapes.
"""

import json
import os
import re
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


def windows_stride2(x, pad_value):
    """The nine taps of a 3x3 window, stride 2, padding 1, over NCHW `x`:
    (kh, kw, the input each output reads at that tap)."""
    height, width = x.shape[2:]
    out_h, out_w = (height - 1) // 2 + 1, (width - 1) // 2 + 1
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)),
                    constant_values=pad_value)
    for kh in range(3):
        for kw in range(3):
            yield kh, kw, padded[:, :, kh:kh + 2 * out_h:2,
                                 kw:kw + 2 * out_w:2]


def depthwise_stride2(x, w, b):
    """A 3x3 depthwise convolution, stride 2, padding 1, in float64."""
    y = b.reshape(1, -1, 1, 1).astype(np.float64)
    for kh, kw, window in windows_stride2(x.astype(np.float64), 0):
        y = y + window * w[:, 0, kh, kw].reshape(1, -1, 1, 1)
    return y


def max_pool_stride2(x):
    """A 3x3 max pool, stride 2, padding 1."""
    y = -np.inf
    for _, _, window in windows_stride2(x, -np.inf):
        y = np.maximum(y, window)
    return y


DTYPES = {np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE,
          np.int32: TensorProto.INT32, np.int64: TensorProto.INT64}


def write_typed_case(env, name, nodes, inits, inputs, outputs):
    """A CASE folder: a model of the given (name, array) inputs and
    (name, reference) outputs, their types those of the arrays, with one
    test data set."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, DTYPES[x.dtype.type], x.shape)
         for n, x in inputs],
        [helper.make_tensor_value_info(o, DTYPES[ref.dtype.type], ref.shape)
         for o, ref in outputs], inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    case = env.path("case")
    data = os.path.join(case, "test_data_set_0")
    os.makedirs(data)
    onnx.save(model, os.path.join(case, "model.onnx"))
    for i, (n, x) in enumerate(inputs):
        write_pb(os.path.join(data, "input_%d.pb" % i), x, n)
    for i, (o, ref) in enumerate(outputs):
        write_pb(os.path.join(data, "output_%d.pb" % i), ref, o)
    return case


def random_initializer(rng, name, shape, scale):
    """An initializer `name` of float32 normal values times `scale`."""
    return numpy_helper.from_array(
        (rng.standard_normal(shape) * scale).astype(np.float32), name)


def write_case(env, name, nodes, inits, x, outputs):
    """A CASE folder: a model of one float input `x` and the given
    (name, reference) outputs, float32, with one test data set."""
    return write_typed_case(env, name, nodes, inits, [("x", x)],
                            [(o, ref.astype(np.float32)) for o, ref in outputs])


def check_verifies(env, case, outputs, *flags, tolerance="1e-4"):
    """`tgc verify` of CASE (with `flags`) passes all its `outputs` within
    `tolerance`, relative and absolute."""
    _, stdout, _ = env.tgc_cmd("verify", case, "--rtol", tolerance,
                               "--atol", tolerance, *flags)
    check("PASS: %d of %d outputs passed in 1 data set" % (outputs, outputs)
          in stdout, "unexpected verify output:\n%s" % stdout)


def avx512_opts(env, case, layout, *flags):
    """Compiles CASE's model for an AVX-512 CPU into env's "package" folder
    with the given --conv-layout (and `flags`); returns each kernel's
    actions, by name, as one string."""
    env.tgc_cmd("compile", os.path.join(case, "model.onnx"), "-o",
                env.path("package"), "--cpu", "skylake-avx512",
                "--conv-layout", layout, *flags)
    with open(env.path("package", "net.json")) as f:
        return {k["name"]: " ".join(k.get("opts", []))
                for k in json.load(f)["kernels"]}


def strided(env):
    """Depthwise convolutions and a pool of stride 2 along rows of 56, 28,
    14 and 7 outputs, as in MobileNetV2, compute what numpy does, channels
    last (auto's layout for them) and NCHW; NCHW, their loads of every
    other element are vectorized (two vector loads and a permute, the rows
    padded to whole vectors, 4, 2 or 1, the last one masked)."""
    channels = 8
    rng = np.random.default_rng(3)
    nodes, inits, refs = [], [], {}
    x = rng.standard_normal((1, channels, 112, 112)).astype(np.float32)
    value, name = x.astype(np.float64), "x"
    for stage in range(4):
        w = rng.standard_normal((channels, 1, 3, 3)).astype(np.float32)
        b = rng.standard_normal(channels).astype(np.float32)
        inits += [numpy_helper.from_array(w, "w%d" % stage),
                  numpy_helper.from_array(b, "b%d" % stage)]
        nodes.append(helper.make_node(
            "Conv", [name, "w%d" % stage, "b%d" % stage], ["c%d" % stage],
            name="dw%d" % stage, group=channels, kernel_shape=[3, 3],
            pads=[1, 1, 1, 1], strides=[2, 2]))
        value = depthwise_stride2(value.astype(np.float32), w, b)
        name = "c%d" % stage
        refs[name] = value
    nodes.append(helper.make_node("MaxPool", ["c0"], ["p"], name="pool",
                                  kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                  strides=[2, 2]))
    refs["p"] = max_pool_stride2(refs["c0"].astype(np.float32))
    outputs = ["c0", "c1", "c2", "c3", "p"]
    case = write_case(env, "strided", nodes, inits, x,
                      [(o, refs[o]) for o in outputs])
    # Sums of 9 float products four stages deep: a few ulps of 30.
    for layout in ("auto", "nchw"):
        _, stdout, _ = env.tgc_cmd("verify", case, "--rtol", "1e-4",
                                   "--atol", "1e-4", "--conv-layout", layout)
        check("PASS: 5 of 5 outputs passed in 1 data set" in stdout,
              "unexpected verify output (%s):\n%s" % (layout, stdout))
    # The rows are vectors (the shorter ones padded to one), each made of
    # the even lanes of two vector loads; the second load of a 14-wide row
    # reads the 11 elements it needs of 16.
    opts = avx512_opts(env, case, "nchw")
    for kernel, vector in [
            ("r_1_8_56_56_1_3_3", "PADTO(2,16) UPCAST(2,16) UPCAST(2,4)"),
            ("r_1_8_28_28_1_3_3", "PADTO(2,16) UPCAST(2,16) UPCAST(2,2)"),
            ("r_1_8_14_14_1_3_3", "PADTO(2,16) UPCAST(2,16)"),
            ("r_1_8_7_7_1_3_3", "PADTO(2,8) UPCAST(2,8)"),
            ("r_1_8_28_28_3_3", "PADTO(2,16) UPCAST(2,16) UPCAST(2,2)")]:
        check(opts.get(kernel, "").startswith(vector),
              "kernel %s: opts '%s', expected %s first" % (
                  kernel, opts.get(kernel), vector))
    with open(env.path("package", "net.c")) as f:
        source = f.read()
    # Made by one permute of the two loads (the innermost one where the
    # lanes past the row are a constant taken from a splat).
    for lanes in [8, 16]:
        even = r"tgc_f32x%d_permute\(val\d+, val\d+, %s" % (
            lanes, ", ".join(str(2 * i) for i in range(lanes // 2)))
        check(re.search(even, source),
              "no %d-lane vector of even lanes in the C" % lanes)
    check(re.search(r"tgc_f32x16_load_part\([^;]*, 11, ", source),
          "the 14-wide rows' second loads are not partial")
    # Rows of 56 and 28 are 4 and 2 vectors of 16, the last one partial.
    for active in (8, 12):
        check(re.search(r"tgc_f32x16_store_part\([^;]*, %d, " % active,
                        source),
              "no store of the last %d lanes of a padded row" % active)
    env.check_no_scratch_left()

def conv3x3(x, w, b):
    """A 3x3 convolution, stride 1, padding 1, in float64."""
    n, c, h, width = x.shape
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, w.shape[0], h, width)) + b.reshape(1, -1, 1, 1)
    for kh in range(3):
        for kw in range(3):
            window = padded[:, :, kh:kh + h, kw:kw + width]
            y += np.einsum("nchw,kc->nkhw", window, w[:, :, kh, kw])
    return y


def conv_ref(x, w, b, stride=1, pad=0, dilation=1, groups=1):
    """An N-d-free 2-D convolution in float64: each tap's strided window
    times its weights, group by group."""
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    m, per_group, kh_count, kw_count = w.shape
    out_h = (x.shape[2] - dilation * (kh_count - 1) - 1) // stride + 1
    out_w = (x.shape[3] - dilation * (kw_count - 1) - 1) // stride + 1
    y = np.zeros((x.shape[0], m, out_h, out_w)) + b.reshape(1, -1, 1, 1)
    out_per_group = m // groups
    for g in range(groups):
        xs = x[:, g * per_group:(g + 1) * per_group]
        ws = w[g * out_per_group:(g + 1) * out_per_group]
        for kh in range(kh_count):
            for kw in range(kw_count):
                window = xs[:, :, kh * dilation:kh * dilation + stride * out_h:stride,
                            kw * dilation:kw * dilation + stride * out_w:stride]
                y[:, g * out_per_group:(g + 1) * out_per_group] += np.einsum(
                    "nchw,kc->nkhw", window, ws[:, :, kh, kw])
    return y


def channels_last(env):
    """Convolutions computed channels last (--conv-layout nhwc; auto takes
    NCHW here, its 1x1 convolution's 12 channels not a multiple of 8) give
    what numpy does, as NCHW does: a grouped,
    dilated 3x3 convolution, a depthwise one of stride 2, a 1x1 one with a
    residual Add and a Relu between them, and a global average pool, with
    model outputs in NCHW from the middle of the chain too. NHWC, the
    activations between them are [N, H, W, C] and only the input and the
    outputs are read or written through a permute."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 8, 11, 11)).astype(np.float32)
    def weights(name, shape):
        return random_initializer(rng, name, shape, 1 / 4)
    inits = [weights("wg", (12, 4, 3, 3)), weights("bg", (12,)),
             weights("wd", (12, 1, 3, 3)), weights("bd", (12,)),
             weights("wp", (12, 12, 1, 1)), weights("bp", (12,))]
    w = {i.name: numpy_helper.to_array(i) for i in inits}
    nodes = [
        helper.make_node("Conv", ["x", "wg", "bg"], ["g"], name="grouped",
                         group=2, pads=[2, 2, 2, 2], dilations=[2, 2]),
        helper.make_node("Relu", ["g"], ["gr"], name="relu"),
        helper.make_node("Conv", ["gr", "wd", "bd"], ["d"], name="depthwise",
                         group=12, pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Conv", ["d", "wp", "bp"], ["p"], name="pointwise"),
        helper.make_node("Add", ["p", "d"], ["s"], name="residual"),
        helper.make_node("GlobalAveragePool", ["s"], ["pool"], name="pool")]
    g = np.maximum(conv_ref(x, w["wg"], w["bg"], pad=2, dilation=2,
                            groups=2), 0)
    d = conv_ref(g.astype(np.float32), w["wd"], w["bd"], stride=2, pad=1,
                 groups=12)
    s = conv_ref(d.astype(np.float32), w["wp"], w["bp"]) + d
    pool = s.mean(axis=(2, 3), keepdims=True)
    case = write_case(env, "channels_last", nodes, inits, x,
                      [("gr", g), ("s", s), ("pool", pool)])
    # The batch of 2 also one image at a time, channels last.
    for layout, loop in (("nhwc", "auto"), ("auto", "auto"),
                         ("nchw", "auto"), ("nhwc", "always")):
        _, stdout, _ = env.tgc_cmd("verify", case, "--conv-layout", layout,
                                   "--image-loop", loop, "--rtol", "1e-4",
                                   "--atol", "1e-4")
        check("PASS: 3 of 3 outputs passed in 1 data set" in stdout,
              "unexpected verify output (%s, image loop %s):\n%s" % (
                  layout, loop, stdout))
    # Channels last, the depthwise convolution's output is stored [N, H, W,
    # C], and it reads its input under the pad's mask, which is the same
    # for a vector of channels: no padded copy. NCHW, the copy is a kernel.
    def kernels(layout):
        env.tgc_cmd("compile", os.path.join(case, "model.onnx"), "-o",
                    env.path("package"), "--conv-layout", layout)
        with open(env.path("package", "net.json")) as f:
            return [k["name"] for k in json.load(f)["kernels"]]
    names = kernels("nhwc")
    check("r_2_6_6_12_1_3_3" in names and
          not any(re.match(r"E_2_13_13_12$", n) for n in names),
          "channels last: kernels %s" % names)
    names = kernels("nchw")
    check("E_2_12_13_13" in names, "NCHW: kernels %s" % names)
    env.check_no_scratch_left()


def narrow_pointwise(env):
    """A channels-last 1x1 convolution to 24 channels from 32 between a
    depthwise one and another 1x1 one, with a residual Add, as in
    MobileNetV2's blocks, gives what numpy does (its padded lanes masked
    off). For AVX-512 its 24 outputs are two vectors of 16 lanes, padded
    to 32 with the weight packed and zero-padded along them, by a tile of
    pixels, and its input channels are not summed in lanes (16 lanes fit
    them, not the outputs): no UNROLL."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((1, 32, 14, 14)).astype(np.float32)
    r = rng.standard_normal((1, 24, 14, 14)).astype(np.float32)
    inits = [numpy_helper.from_array(
                 (rng.standard_normal((32, 1, 3, 3)) / 2).astype(np.float32),
                 "wd"),
             numpy_helper.from_array(
                 rng.standard_normal(32).astype(np.float32), "bd"),
             numpy_helper.from_array(
                 (rng.standard_normal((24, 32, 1, 1)) / 4).astype(np.float32),
                 "wp"),
             numpy_helper.from_array(
                 rng.standard_normal(24).astype(np.float32), "bp"),
             numpy_helper.from_array(r, "r"),
             numpy_helper.from_array(
                 (rng.standard_normal((16, 24, 1, 1)) / 4).astype(np.float32),
                 "we"),
             numpy_helper.from_array(
                 rng.standard_normal(16).astype(np.float32), "be")]
    w = {i.name: numpy_helper.to_array(i) for i in inits}
    nodes = [
        helper.make_node("Conv", ["x", "wd", "bd"], ["d"], name="depthwise",
                         group=32, pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["d", "wp", "bp"], ["p"], name="project"),
        helper.make_node("Add", ["p", "r"], ["s"], name="residual"),
        helper.make_node("Conv", ["s", "we", "be"], ["e"], name="expand")]
    d = conv_ref(x, w["wd"], w["bd"], pad=1, groups=32)
    s = conv_ref(d.astype(np.float32), w["wp"], w["bp"]) + r
    e = conv_ref(s.astype(np.float32), w["we"], w["be"])
    case = write_case(env, "narrow_pointwise", nodes, inits, x, [("e", e)])
    _, stdout, _ = env.tgc_cmd("verify", case, "--conv-layout", "nhwc",
                               "--rtol", "1e-4", "--atol", "1e-4")
    check("PASS: 1 of 1 outputs passed in 1 data set" in stdout,
          "unexpected verify output:\n%s" % stdout)
    opts = avx512_opts(env, case, "nhwc")
    projection = [o for name, o in opts.items()
                  if name.startswith("r_1_14_14_24_32")]
    check(len(projection) == 1 and
          re.match(r"PADTO\((\d),16\) (PACK\(\1,16,\d\) )+UPCAST\(\1,16\) "
                   r"UPCAST\(\1,2\) UPCAST\(\d,7\)", projection[0]) and
          "UNROLL" not in projection[0],
          "the projection's opts: %s" % opts)
    env.check_no_scratch_left()


def grouped(env):
    """A grouped convolution of stride 2 to 7x7, 32 channels per group and
    1 MiB of padded input (ResNeXt-50's last stage) gives what numpy does.
    For AVX2 its 8 output channels a vector read one input value per
    group, broadcast: the 7 pixels of a row are a register tile beside
    them (without one, the sum was a single chain of FMAs, 2.3x slower).
    A model of grouped convolutions is computed channels last (`auto`):
    the kernel reads the input itself, its pad fused, so the weight it
    packs is its second input."""
    rng = np.random.default_rng(5)
    channels, groups = 1024, 32
    x = rng.standard_normal((1, channels, 14, 14)).astype(np.float32)
    w = (rng.standard_normal((channels, channels // groups, 3, 3)) /
         8).astype(np.float32)
    b = rng.standard_normal(channels).astype(np.float32)
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")]
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["y"], name="grouped",
                              group=groups, kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1], strides=[2, 2])]
    y = conv_ref(x, w, b, stride=2, pad=1, groups=groups)
    case = write_case(env, "grouped", nodes, inits, x, [("y", y)])
    check_verifies(env, case, 1)
    env.tgc_cmd("compile", os.path.join(case, "model.onnx"), "-o",
                env.path("package"), "--cpu", "haswell")
    with open(env.path("package", "net.json")) as f:
        opts = {k["name"]: " ".join(k.get("opts", []))
                for k in json.load(f)["kernels"]}
    conv = opts.get("r_1_1024_7_7_32_3_3", "")
    check(re.match(r"PACK\(0,8,1\) UPCAST\(0,8\) UPCAST\(2,7\)", conv),
          "the grouped convolution's opts: %s" % opts)
    env.check_no_scratch_left()


def stem(env):
    """An image stem, a 3x3 convolution of stride 2 from 3 channels to 64
    without padding (SqueezeNet's), and its ReLU give what numpy does. For
    AVX-512 its rows of 111 columns are the vector lanes, 7 vectors of 16
    in a loop, each the even lanes of two loads, by 16 output channels:
    each output sums only 27 products, too few for its pixel's 64 stores
    scattered across the channel planes. The loop is copied so that only
    the last vector, whose last lane is past the row, loads partially, and
    the threads split the channels rather than the 7 vectors of each row."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
    w = rng.standard_normal((64, 3, 3, 3)).astype(np.float32)
    b = rng.standard_normal(64).astype(np.float32)
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")]
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="stem",
                              kernel_shape=[3, 3], strides=[2, 2]),
             helper.make_node("Relu", ["c"], ["y"], name="relu")]
    y = np.maximum(conv_ref(x, w, b, stride=2), 0)
    case = write_case(env, "stem", nodes, inits, x, [("y", y)])
    check_verifies(env, case, 1)
    opts = avx512_opts(env, case, "auto")
    conv = opts.get("r_1_64_111_111_3_3_3", "")
    check(conv == "PADTO(2,16) UPCAST(2,16) UPCAST(0,16) THREAD(0,4)",
          "the stem's opts: %s" % opts)
    with open(env.path("package", "net.c")) as f:
        source = f.read()
    body = re.search(r"net_r_1_64_111_111_3_3_3_task\(.*?\n}\n", source,
                     re.S)
    check(body, "no function of the stem in the C")
    even = r"tgc_f32x16_permute\(val\d+, val\d+, %s\)" % ", ".join(
        str(2 * i) for i in range(16))
    check(len(re.findall(even, body.group(0))) >= 2,
          "the stem's vectors are not permutes of two loads in both copies")
    check("tgc_f32x16_make(" not in body.group(0),
          "a vector of the stem is still built lane by lane")
    env.check_no_scratch_left()


def regnet_block(env):
    """The end of a RegNetY block, channels last: its projection shortcut
    (a 1x1 convolution of stride 2, 208 -> 440 channels) and its last 1x1
    convolution (440 -> 440) summed, then a ReLU, in one kernel of two
    reductions; and a 1x1 convolution of 48 -> 104 channels at 14x14. Both
    give what numpy does. For AVX-512 neither sums input channels in vector
    lanes: the lanes of one reduction leave the other a chain of scalar
    FMAs (10 GFLOP/s), and the lanes of a 1x1 convolution's inputs are
    summed at the end of every output (30 GFLOP/s). The fused kernel's 440
    output channels are padded to 14 pairs of vectors of 16, both weights
    packed, by 7 pixels (one vector by 7 would leave 7 FMA chains to AVX-512's
    two FMA units); the 104 channels are 13 whole vectors of 8 by 16
    pixels."""
    rng = np.random.default_rng(19)
    x = rng.standard_normal((1, 208, 14, 14)).astype(np.float32)
    def weights(name, shape):
        return random_initializer(rng, name, shape, 1 / 8)
    inits = [weights("ws", (440, 208, 1, 1)), weights("bs", (440,)),
             weights("wb", (440, 26, 3, 3)), weights("bb", (440,)),
             weights("wl", (440, 440, 1, 1)), weights("bl", (440,)),
             weights("wn", (48, 208, 1, 1)), weights("bn", (48,)),
             weights("wu", (104, 48, 1, 1)), weights("bu", (104,))]
    nodes = [
        helper.make_node("Conv", ["x", "ws", "bs"], ["short"],
                         name="shortcut", strides=[2, 2]),
        helper.make_node("Conv", ["x", "wb", "bb"], ["body"], name="body",
                         group=8, pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Conv", ["body", "wl", "bl"], ["last"],
                         name="last"),
        helper.make_node("Add", ["short", "last"], ["sum"], name="add"),
        helper.make_node("Relu", ["sum"], ["sum_relu"], name="relu"),
        helper.make_node("Conv", ["x", "wn", "bn"], ["narrow"],
                         name="narrow"),
        helper.make_node("Conv", ["narrow", "wu", "bu"], ["up"], name="up"),
        # Depthwise convolutions after both keep them channels last.
        helper.make_node("Conv", ["sum_relu", "wy"], ["y"], name="dw_y",
                         group=440, pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["up", "wz"], ["z"], name="dw_z",
                         group=104, pads=[1, 1, 1, 1])]
    inits += [weights("wy", (440, 1, 3, 3)), weights("wz", (104, 1, 3, 3))]
    w = {i.name: numpy_helper.to_array(i) for i in inits}
    f32 = lambda a: a.astype(np.float32)
    body = conv_ref(x, w["wb"], w["bb"], stride=2, pad=1, groups=8)
    last = conv_ref(f32(body), w["wl"], w["bl"])
    summed = np.maximum(conv_ref(x, w["ws"], w["bs"], stride=2) + last, 0)
    y = conv_ref(f32(summed), w["wy"], np.zeros(440), pad=1, groups=440)
    narrow = conv_ref(x, w["wn"], w["bn"])
    up = conv_ref(f32(narrow), w["wu"], w["bu"])
    z = conv_ref(f32(up), w["wz"], np.zeros(104), pad=1, groups=104)
    case = write_case(env, "regnet_block", nodes, inits, x,
                      [("y", y), ("z", z)])
    check_verifies(env, case, 2, "--conv-layout", "nhwc", tolerance="1e-3")
    opts = avx512_opts(env, case, "nhwc")
    fused = [o for k, o in opts.items() if k.startswith("r_1_7_7_440_208")]
    check(len(fused) == 1 and
          fused[0].startswith("PADTO(2,32)") and
          "UPCAST(2,16) UPCAST(2,2) UPCAST(1,7)" in fused[0] and
          "UNROLL" not in fused[0],
          "the fused convolutions' opts: %s" % opts)
    up = opts.get("r_1_14_14_104_48_1_1", "")
    check(up.startswith("PACK(2,8,0) UPCAST(2,8)"),
          "the 48 -> 104 convolution's opts: %s" % opts)
    env.check_no_scratch_left()


def pooled_linear(env):
    """A linear layer over channels-last pixels (64 -> 40), its channels-
    first residual added and averaged over the 7x7 pixels (ConvNeXt's last
    block and its global pool) gives what numpy does: one kernel of two
    reductions, the linear layer's and the pool's. A reduce axis is the
    lanes of its own reduction only: for AVX-512 the 40 output channels
    are the lanes (8 of them: a sixth of 48 would idle), not 16 of the 64
    inputs, which left the pool's sum scalar (ConvNeXt-T's 4.5 ms kernel,
    2.4 ms so)."""
    rng = np.random.default_rng(23)
    x = rng.standard_normal((1, 7, 7, 64)).astype(np.float32)
    r = rng.standard_normal((1, 40, 7, 7)).astype(np.float32)
    w = (rng.standard_normal((64, 40)) / 8).astype(np.float32)
    inits = [numpy_helper.from_array(w, "w"),
             numpy_helper.from_array(r, "r")]
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"], name="linear"),
             helper.make_node("Transpose", ["m"], ["t"], name="to_nchw",
                              perm=[0, 3, 1, 2]),
             helper.make_node("Add", ["t", "r"], ["s"], name="residual"),
             helper.make_node("GlobalAveragePool", ["s"], ["y"],
                              name="pool")]
    m = x.astype(np.float64) @ w.astype(np.float64)
    y = (m.transpose(0, 3, 1, 2) + r).mean(axis=(2, 3), keepdims=True)
    case = write_case(env, "pooled_linear", nodes, inits, x, [("y", y)])
    check_verifies(env, case, 1)
    opts = avx512_opts(env, case, "auto")
    pooled = [o for k, o in opts.items() if k.startswith("r_1_40_")]
    check(len(pooled) == 1 and re.match(r"(PACK\(0,8,\d\) )+UPCAST\(0,8\)",
                                        pooled[0]),
          "the pooled linear layer's opts: %s" % opts)
    env.check_no_scratch_left()


def winograd(env):
    """3x3 convolutions through Winograd F(2x2, 3x3) and F(4x4, 3x3): two
    of 32 channels on 13x13 images (7x7 tiles of 2x2 or 4x4 of 4x4, the
    outputs past the image cut off), batch 2, each image computed on its
    own (--image-loop always), NCHW and channels last, verified against
    numpy on 1 and 2 threads; always takes 2x2 tiles for these (auto's tile), never and auto (32
    input channels are too few for its rule) the direct convolution, whose
    results agree."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 32, 13, 13)).astype(np.float32)
    nodes, inits, value, name = [], [], x, "x"
    for stage in range(2):
        w = (rng.standard_normal((32, 32, 3, 3)) / 10).astype(np.float32)
        b = rng.standard_normal(32).astype(np.float32)
        inits += [numpy_helper.from_array(w, "w%d" % stage),
                  numpy_helper.from_array(b, "b%d" % stage)]
        nodes += [helper.make_node("Conv", [name, "w%d" % stage,
                                            "b%d" % stage], ["c%d" % stage],
                                   name="conv%d" % stage, pads=[1, 1, 1, 1]),
                  helper.make_node("Relu", ["c%d" % stage], ["r%d" % stage],
                                   name="relu%d" % stage)]
        value = np.maximum(conv3x3(value.astype(np.float32), w, b), 0)
        name = "r%d" % stage
    case = write_case(env, "winograd", nodes, inits, x, [("r1", value)])
    # Sums of 288 products of about unit size, twice: the transforms add a
    # few roundings of their own.
    x_path = save_npy(env.path("x.npy"), x)
    # NCHW and channels last (the transforms and products keep channels
    # innermost, the image between the convolutions [N, H, W, C]).
    for mode in ("always", "4x4"):
        for layout in ("nchw", "nhwc"):
            _, stdout, _ = env.tgc_cmd("verify", case, "--winograd", mode,
                                       "--conv-layout", layout,
                                       "--image-loop", "always", "--rtol",
                                       "1e-4", "--atol", "1e-4")
            check("PASS: 1 of 1 outputs passed in 1 data set" in stdout,
                  "unexpected verify output (%s, %s):\n%s" % (mode, layout,
                                                               stdout))
            # On two threads (the products and transforms split into
            # tasks).
            env.tgc_cmd("run", os.path.join(case, "model.onnx"), "--input",
                        "x=" + x_path, "--winograd", mode, "--conv-layout",
                        layout, "--threads", "2", "--output-dir",
                        env.path("out"))
            got = np.load(env.path("out", "r1.npy"))
            error = np.max(np.abs(got - value) / (1 + np.abs(value)))
            check(error < 1e-4, "%s, %s on 2 threads: error %g" % (
                mode, layout, error))
    _, stdout, _ = env.tgc_cmd("verify", case, "--winograd", "never",
                               "--rtol", "1e-4", "--atol", "1e-4")
    check("PASS: 1 of 1 outputs passed" in stdout,
          "the direct convolutions fail:\n" + stdout)

    # always: the weights become [16, K, C] constants of their own, and the
    # kernels are the transforms and the 16 products.
    env.tgc_cmd("compile", os.path.join(case, "model.onnx"), "-o",
                env.path("package"), "--cpu", "skylake-avx512", "--winograd",
                "always")
    with open(env.path("package", "net.json")) as f:
        manifest = json.load(f)
    names = [k["name"] for k in manifest["kernels"]]
    for kernel in ("E_16_2_7_7_32", "r_16_2_32_7_7_1_32", "E_2_32_7_2_7_2"):
        check(kernel in names, "no kernel %s in %s" % (kernel, names))
    opts = {k["name"]: " ".join(k.get("opts", []))
            for k in manifest["kernels"]}
    # The 16 stacked elements are written out (each its own 4 loads, no
    # select), each tile's channels last, so the products read them
    # contiguously; the vector lanes are channels, nothing is padded.
    check(opts["E_16_2_7_7_32"].split()[0] == "UPCAST(0,16)" and
          "PADTO" not in opts["E_16_2_7_7_32"],
          "input transform opts: " + opts["E_16_2_7_7_32"])
    with open(env.path("package", "net.c")) as f:
        source = f.read()
    body = source[source.index("net_E_16_2_7_7_32"):]
    body = body[:body.index("\n}\n")]
    check("?" not in body, "the input transform still selects:\n" + body)
    # 4x4 tiles: 36 stacked elements, each written out, channels last.
    env.tgc_cmd("compile", os.path.join(case, "model.onnx"), "-o",
                env.path("tile4"), "--cpu", "skylake-avx512", "--winograd",
                "4x4")
    with open(env.path("tile4", "net.json")) as f:
        opts = {k["name"]: " ".join(k.get("opts", []))
                for k in json.load(f)["kernels"]}
    for kernel in ("E_36_2_4_4_32", "r_36_2_32_4_4_1_32", "E_2_32_4_4_4_4"):
        check(kernel in opts, "no kernel %s in %s" % (kernel, list(opts)))
    check(opts["E_36_2_4_4_32"].startswith("UPCAST(0,36)"),
          "4x4 input transform opts: " + opts["E_36_2_4_4_32"])
    # Channels last, the products are [16, N, tH, tW, K]: the vector of
    # output channels is stored whole, not a lane at a time, and the output
    # transform writes [N, H, W, K] in vectors of channels too.
    env.tgc_cmd("compile", os.path.join(case, "model.onnx"), "-o",
                env.path("last"), "--cpu", "skylake-avx512", "--winograd",
                "always", "--conv-layout", "nhwc")
    with open(env.path("last", "net.json")) as f:
        names = [k["name"] for k in json.load(f)["kernels"]]
    with open(env.path("last", "net.c")) as f:
        source = f.read()
    for kernel in ("E_16_2_7_7_32", "r_16_2_7_7_32_1_32", "E_2_7_2_7_2_32"):
        check(kernel in names, "no kernel %s in %s" % (kernel, names))
        start = re.search(r"void [^\n]*net_%s(_task)?\(" % kernel,
                          source).start()
        body = source[start:source.index("\n}\n", start)]
        check("_store(" in body and "_lane(" not in body,
              "channels last, %s stores lane by lane:\n%s" % (kernel, body))
    for mode in ("never", "auto"):
        env.tgc_cmd("compile", os.path.join(case, "model.onnx"), "-o",
                    env.path("direct-" + mode), "--winograd", mode)
        with open(env.path("direct-" + mode, "net.json")) as f:
            names = [k["name"] for k in json.load(f)["kernels"]]
        check(not any(n.startswith("E_16_") for n in names),
              "--winograd %s transforms: %s" % (mode, names))
    env.check_no_scratch_left()


def topk_reference(x, k, axis, largest):
    """TopK as ONNX defines it: the k best along `axis`, the lower index
    first on ties, compared as Python numbers (no overflow, -0.0 == 0.0)."""
    moved = np.moveaxis(x, axis, -1)
    values = np.empty(moved.shape[:-1] + (k,), x.dtype)
    indices = np.empty(moved.shape[:-1] + (k,), np.int64)
    for at in np.ndindex(moved.shape[:-1]):
        row = moved[at].tolist()
        sign = -1 if largest else 1
        order = sorted(range(len(row)), key=lambda i: (sign * row[i], i))[:k]
        values[at] = [row[i] for i in order]
        indices[at] = order
    return np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)


def topk(env):
    """TopK through the bitonic network on axes of 300 to 20001 with ties,
    -0.0 beside 0.0, infinities and the integer extremes: the first k of a
    stable sort, exactly, for float32 and int32 (packed into i64 keys),
    int64 and float64 (values beside indices), k from 1 to n, the axis
    last or in the middle, largest and smallest. Where k is small beside
    n (wide, i32 with k = 3, ties with k = 7, middle), the keys are first
    narrowed to the best groups (for k = 1 of 20001, the best groups'
    bests too): thousands of tied values decide by index across groups,
    and the last group of the 20001 holds one key."""
    rng = np.random.default_rng(11)
    ties = rng.integers(-40, 40, size=(3, 3000)).astype(np.float32)
    ties[:, :8] = [0.0, -0.0, np.inf, -np.inf, -0.0, 0.0, np.inf, -np.inf]
    i32 = rng.integers(-2**31, 2**31, size=(2, 600)).astype(np.int32)
    i32[:, :4] = [-2**31, 2**31 - 1, -2**31, 2**31 - 1]
    wide = rng.integers(-3, 4, size=(2, 20001)).astype(np.float32)
    wide[:, 5000:5004] = [-0.0, np.inf, -np.inf, 0.0]
    i64 = rng.integers(-2**62, 2**62, size=(1, 1000)).astype(np.int64)
    i64[0, 500:520] = i64[0, 0]
    cases = [  # input, k, axis, largest
        ("ties", ties, 100, 1, 1),
        ("ties", ties, 7, 1, 0),
        ("ties", ties, 3000, 1, 1),
        ("middle", rng.standard_normal((2, 300, 3)).astype(np.float32), 1, 1,
         1),
        ("i32", i32, 33, 1, 0),
        ("i32", i32, 3, 1, 1),
        ("wide", wide, 50, 1, 1),
        ("wide", wide, 1, 1, 0),
        ("wide", wide, 200, 1, 0),
        ("i64", i64, 10, 1, 1),
        ("f64", rng.integers(-9, 9, size=(4, 500)).astype(np.float64), 20, 1,
         0),
    ]
    inputs, nodes, inits, refs = {}, [], [], []
    for i, (name, x, k, axis, largest) in enumerate(cases):
        inputs[name] = x
        inits.append(numpy_helper.from_array(np.array([k], np.int64),
                                             "k%d" % i))
        nodes.append(helper.make_node(
            "TopK", [name, "k%d" % i], ["v%d" % i, "i%d" % i],
            name="topk%d" % i, axis=axis, largest=largest))
        values, indices = topk_reference(x, k, axis, largest)
        refs += [("v%d" % i, values), ("i%d" % i, indices)]
    case = write_typed_case(env, "topk", nodes, inits, list(inputs.items()),
                            refs)
    _, stdout, _ = env.tgc_cmd("verify", case, "--rtol", "0", "--atol", "0")
    check("PASS: %d of %d outputs" % (len(refs), len(refs)) in stdout,
          "unexpected verify output:\n" + stdout)
    # No n-element constants: the positions are built from 16-element ones,
    # and the arange of the groups' numbers leaves with the one-hot gather
    # (CollapseGather: the chosen groups are indexed loads). net_weights.c
    # names each constant's shape.
    env.tgc_cmd("compile", os.path.join(case, "model.onnx"), "-o",
                env.path("package"))
    with open(env.path("package", "net_weights.c")) as f:
        shapes = re.findall(r'/\* offset \d+: "\w+" \w+ \[([\d, ]*)\]',
                            f.read())
    largest = max((int(np.prod([int(d) for d in shape.split(",")]))
                   for shape in shapes if shape), default=0)
    check(largest <= 64,
          "net_weights.c holds a constant of %d elements" % largest)


def quantize_reference(x, scale, zero_point):
    """QuantizeLinear to uint8 as ONNX defines it, x / scale in float32."""
    q = np.rint((x / np.float32(scale)).astype(np.float32)) + zero_point
    return np.clip(q, 0, 255)


def qdq(env):
    """A QDQ model, as quantization tools write them: an activation
    quantized to uint8 and dequantized at once, a 3x3 convolution of 64
    channels whose weight is int8 dequantized per output channel and whose
    bias is int32, then Relu, quantized and dequantized again. The weight
    is float arithmetic on constants, computed at compile time, so the
    convolution takes Winograd's tiles (auto) and no kernel dequantizes it;
    each quantize-dequantize pair is float arithmetic without the casts
    through uint8. Against numpy: the outputs are whole steps of the output
    scale, and at most a few of them, where the sum rounds differently,
    one step away."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((1, 64, 14, 14)).astype(np.float32)
    sx, zx = np.float32(4.0 / 255), 128
    w = rng.standard_normal((32, 64, 3, 3)).astype(np.float32) / 20
    sw = (np.abs(w).reshape(32, -1).max(axis=1) / 127).astype(np.float32)
    wq = np.clip(np.rint(w / sw[:, None, None, None]), -127, 127)
    b = rng.standard_normal(32).astype(np.float32)
    bq = np.rint(b / (sx * sw)).astype(np.int32)
    sy, zy = np.float32(0.05), 0
    inits = [
        numpy_helper.from_array(np.array(sx, np.float32), "sx"),
        numpy_helper.from_array(np.array(zx, np.uint8), "zx"),
        numpy_helper.from_array(wq.astype(np.int8), "wq"),
        numpy_helper.from_array(sw, "sw"),
        numpy_helper.from_array(np.zeros(32, np.int8), "zw"),
        numpy_helper.from_array(bq, "bq"),
        numpy_helper.from_array((sx * sw).astype(np.float32), "sb"),
        numpy_helper.from_array(np.array(sy, np.float32), "sy"),
        numpy_helper.from_array(np.array(zy, np.uint8), "zy")]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
        helper.make_node("DequantizeLinear", ["wq", "sw", "zw"], ["wd"],
                         axis=0),
        helper.make_node("DequantizeLinear", ["bq", "sb"], ["bd"], axis=0),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], name="conv",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "sy", "zy"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"])]
    xd = ((quantize_reference(x, sx, zx) - zx) * sx).astype(np.float32)
    wd = (wq * sw[:, None, None, None]).astype(np.float32)
    bd = (bq * (sx * sw)).astype(np.float32)
    r = np.maximum(conv3x3(xd.astype(np.float64), wd.astype(np.float64), bd),
                   0).astype(np.float32)
    y = ((quantize_reference(r, sy, zy) - zy) * sy).astype(np.float32)
    case = write_case(env, "qdq", nodes, inits, x, [("y", y)])

    env.tgc_cmd("run", os.path.join(case, "model.onnx"), "--input",
                "x=" + save_npy(env.path("x.npy"), x), "--output-dir",
                env.path("out"))
    got = np.load(env.path("out", "y.npy"))
    steps = np.abs(got - y) / sy
    check(np.max(steps) < 1.001, "%g output steps off" % np.max(steps))
    off = np.count_nonzero(steps > 0.5)
    check(off <= y.size // 200, "%d of %d outputs a step off" % (off, y.size))
    check(np.count_nonzero(y) > y.size // 4, "the reference is mostly 0")

    env.tgc_cmd("compile", os.path.join(case, "model.onnx"), "-o",
                env.path("package"))
    with open(env.path("package", "net.json")) as f:
        names = [k["name"] for k in json.load(f)["kernels"]]
    check(any(n.startswith("r_16_") for n in names),
          "no Winograd products among %s" % names)
    with open(env.path("package", "net.c")) as f:
        source = f.read()
    for cast in ("(uint8_t)", "(int8_t)", "int8_t *"):
        check(cast not in source, "net.c still has %s" % cast)
    # The direct convolution packs the dequantized weight as it packs a
    # float one.
    opts = avx512_opts(env, case, "nchw", "--winograd", "never")
    conv = [n for n in opts if n.startswith("r_")]
    check(len(conv) == 1 and "PACK" in opts[conv[0]],
          "direct convolution opts: %s" % opts)
    env.check_no_scratch_left()


def constant_subgraph(env):
    """A shifted-window attention mask as Swin builds it: region labels
    scattered into a zero image by three ScatterNDs of constants (each a
    one-hot reduce, too big for the graph's folds), then compared pairwise
    into a 196 x 196 mask of 0 and -100 added to the scores. The labels are
    computed at compile time: no kernel reduces in the package, and they
    are a constant of 196 elements in the weights. The mask is not: it is
    only an elementwise map of the labels into a tensor 196 times larger,
    which costs a run about what reading it would, and fuses into the add.
    Exact against numpy."""
    labels = np.zeros((14, 14), np.float32)
    regions = [(slice(7, 14), slice(0, 7)), (slice(0, 7), slice(7, 14)),
               (slice(7, 14), slice(7, 14))]
    inits = [numpy_helper.from_array(np.zeros((14, 14), np.float32), "img0"),
             numpy_helper.from_array(np.array([196, 1], np.int64), "column"),
             numpy_helper.from_array(np.array([1, 196], np.int64), "row"),
             numpy_helper.from_array(np.array(-100, np.float32), "block"),
             numpy_helper.from_array(np.array(0, np.float32), "zero")]
    nodes = []
    for n, (rows, cols) in enumerate(regions, 1):
        labels[rows, cols] = n
        where = np.stack(np.meshgrid(np.arange(14)[rows], np.arange(14)[cols],
                                     indexing="ij"), axis=-1).reshape(-1, 2)
        inits += [numpy_helper.from_array(where.astype(np.int64), "at%d" % n),
                  numpy_helper.from_array(
                      np.full(len(where), n, np.float32), "label%d" % n)]
        nodes.append(helper.make_node(
            "ScatterND", ["img%d" % (n - 1), "at%d" % n, "label%d" % n],
            ["img%d" % n]))
    nodes += [
        helper.make_node("Reshape", ["img3", "column"], ["a"]),
        helper.make_node("Reshape", ["img3", "row"], ["b"]),
        helper.make_node("Sub", ["a", "b"], ["d"]),
        helper.make_node("Equal", ["d", "zero"], ["same"]),
        helper.make_node("Where", ["same", "zero", "block"], ["mask"]),
        helper.make_node("Add", ["scores", "mask"], ["y"], name="add_mask")]
    scores = np.random.default_rng(5).standard_normal(
        (196, 196)).astype(np.float32)
    flat = labels.reshape(-1)
    y = scores + np.where(flat[:, None] == flat[None, :], np.float32(0),
                          np.float32(-100))
    case = write_typed_case(env, "mask", nodes, inits, [("scores", scores)],
                            [("y", y)])
    _, stdout, _ = env.tgc_cmd("verify", case, "--rtol", "0", "--atol", "0")
    check("PASS: 1 of 1 outputs" in stdout,
          "unexpected verify output:\n" + stdout)

    env.tgc_cmd("compile", os.path.join(case, "model.onnx"), "-o",
                env.path("package"))
    with open(env.path("package", "net.json")) as f:
        names = [k["name"] for k in json.load(f)["kernels"]]
    check(names == ["E_196_196"], "kernels: %s" % names)
    with open(env.path("package", "net_weights.c")) as f:
        shapes = re.findall(r'/\* offset \d+: "\w+" \w+ \[([\d, ]*)\]',
                            f.read())
    sizes = sorted(int(np.prod([int(d) for d in shape.split(",")]))
                   for shape in shapes if shape)
    check(196 in sizes and max(sizes) == 196,
          "the weights hold constants of %s elements" % sizes)
    env.check_no_scratch_left()

def streamed_linear(env):
    """A linear layer of 7x7 channels-last pixels, 768 -> 3072 (ConvNeXt's
    last stage), bias added, gives what numpy does. Its 9.4 MB of weights
    are more than L2 keeps for a task, so the kernel runs each block of
    columns outside the rows and prefetches the next block as it goes
    (tgc-order-loops); the prefetches stay inside the weights."""
    rng = np.random.default_rng(29)
    x = rng.standard_normal((1, 7, 7, 768)).astype(np.float32)
    w = (rng.standard_normal((768, 3072)) / 32).astype(np.float32)
    b = rng.standard_normal(3072).astype(np.float32)
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")]
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"], name="linear"),
             helper.make_node("Add", ["m", "b"], ["y"], name="bias")]
    y = x.astype(np.float64) @ w.astype(np.float64) + b
    case = write_case(env, "streamed_linear", nodes, inits, x, [("y", y)])
    check_verifies(env, case, 1)
    avx512_opts(env, case, "auto")
    with open(env.path("package", "net.c")) as f:
        source = f.read()
    check(re.search(r"if \(alu\d+\) TGC_PREFETCH\(data\d \+ alu\d+\);",
                    source) is not None,
          "no gated prefetch of the weights in the linear layer's C")
    env.check_no_scratch_left()


main({
    "mismatch": mismatch,
    "dirs": dirs,
    "shapes": shapes,
    "strided": strided,
    "channels_last": channels_last,
    "narrow_pointwise": narrow_pointwise,
    "grouped": grouped,
    "stem": stem,
    "regnet_block": regnet_block,
    "pooled_linear": pooled_linear,
    "streamed_linear": streamed_linear,
    "winograd": winograd,
    "topk": topk,
    "qdq": qdq,
    "constant_subgraph": constant_subgraph,
})

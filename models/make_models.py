#!/usr/bin/env python3
"""Build the bundled tgc models in PyTorch and export them to ONNX.

Run with Debian's Python, which has torch and onnx:

    /usr/bin/python3 models/make_models.py

For each model NAME this writes, next to this script:

    NAME/model.onnx                       opset 17, static shapes, batch 1
    NAME/test_data_set_0/input_0.pb       ONNX TensorProto, name "input"
    NAME/test_data_set_0/output_0.pb      ONNX TensorProto, name "output"

the ONNX backend-test layout. The reference output is computed by PyTorch
itself, so it is independent of anything the compiler does. Seeds are fixed,
so re-running the script reproduces the same files byte for byte.
"""

import hashlib
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
import onnx.numpy_helper
import onnx.shape_inference
import torch
import torch.nn as nn
import torch.nn.functional as F

OPSET = 17
HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------

def randomize_batchnorm(module, generator):
    """Give every BatchNorm non-trivial running stats and affine parameters.

    A freshly built BN has mean 0, var 1, weight 1, bias 0, i.e. it is the
    identity; random values make sure the compiler really computes it.
    """
    for m in module.modules():
        if isinstance(m, nn.BatchNorm2d):
            c = m.num_features
            with torch.no_grad():
                m.running_mean.copy_(torch.randn(c, generator=generator) * 0.1)
                m.running_var.copy_(torch.rand(c, generator=generator) * 0.9 + 0.6)
                m.weight.copy_(torch.rand(c, generator=generator) * 0.8 + 0.6)
                m.bias.copy_(torch.randn(c, generator=generator) * 0.1)


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(784, 512), nn.ReLU(),
            nn.Linear(512, 512), nn.ReLU(),
            nn.Linear(512, 10))

    def forward(self, x):
        return self.net(x)


class Cnn(nn.Module):
    """MNIST-style convnet: two conv-BN-ReLU-pool stages and a classifier."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.MaxPool2d(2))
        self.classifier = nn.Linear(16 * 7 * 7, 10)

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


class ResBlock(nn.Module):
    """ResNet basic block with an identity shortcut."""

    def __init__(self, channels=64):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + x)


def make_encoder_layer(generator):
    """One post-norm transformer encoder block, straight from torch.nn.

    Exported while autograd is on, torch takes the composite path (plain
    MatMul/Softmax/LayerNormalization/Erf ops), not the fused
    _transformer_encoder_layer_fwd fast path that it uses under no_grad.
    """
    layer = nn.TransformerEncoderLayer(
        d_model=256, nhead=4, dim_feedforward=1024, activation='gelu',
        batch_first=True, dropout=0.0)
    # torch initializes the attention biases to 0 and LayerNorm to (1, 0);
    # random values make them matter (and stop the exporter from merging
    # equal initializers through Identity nodes).
    with torch.no_grad():
        for name, param in layer.named_parameters():
            if name.startswith("norm") and name.endswith("weight"):
                param.copy_(torch.rand(param.shape, generator=generator) + 0.5)
            elif name.endswith("bias"):
                param.copy_(torch.randn(param.shape, generator=generator) * 0.1)
    return layer


class DynamicCnn(nn.Module):
    """A convnet for any batch and image size, as exporters in the wild
    write it: the classifier flattens with x.view(x.size(0), -1), which
    exports a Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1, stride=2)
        self.classifier = nn.Linear(16, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.adaptive_avg_pool2d(F.relu(self.conv2(x)), 1)
        return self.classifier(x.view(x.size(0), -1))


class SpeechLstm(nn.Module):
    """Keyword-spotting style audio model: 40 filterbank features per
    frame, a 2-layer LSTM stack and a per-frame classifier."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(40, 48, num_layers=2, batch_first=True)
        self.classifier = nn.Linear(48, 12)

    def forward(self, x):
        y, _ = self.lstm(x)
        return self.classifier(y)


class Gate(nn.Module):
    """An if on the data itself: scripted, it exports as an ONNX If whose
    condition is computed from the input."""

    def __init__(self):
        super().__init__()
        self.positive = nn.Linear(16, 16)
        self.negative = nn.Linear(16, 16)

    def forward(self, x):
        if bool(x.sum() > 0):
            y = torch.relu(self.positive(x))
        else:
            y = torch.tanh(self.negative(x)) * 2.0
        return y


def conv_bn_relu(cin, cout, stride):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(cout), nn.ReLU())


class TextDetector(nn.Module):
    """A tiny DBNet-style text detector: a strided conv backbone, a
    feature pyramid merged by nearest Resize, and a head that upsamples back
    to the input size with ConvTranspose and gives a probability map
    (Sigmoid) and a threshold map (HardSigmoid)."""

    def __init__(self):
        super().__init__()
        self.stage1 = conv_bn_relu(3, 8, 2)    # 1/2
        self.stage2 = conv_bn_relu(8, 16, 2)   # 1/4
        self.stage3 = conv_bn_relu(16, 24, 2)  # 1/8
        self.lateral2 = nn.Conv2d(16, 16, 1)
        self.lateral3 = nn.Conv2d(24, 16, 1)
        self.fuse = conv_bn_relu(32, 16, 1)
        self.up = nn.Sequential(
            nn.ConvTranspose2d(16, 8, 2, stride=2), nn.BatchNorm2d(8),
            nn.ReLU(), nn.ConvTranspose2d(8, 2, 2, stride=2))

    def forward(self, x):
        c2 = self.stage2(self.stage1(x))
        c3 = self.stage3(c2)
        p3 = F.interpolate(self.lateral3(c3), scale_factor=2.0,
                           mode="nearest")
        p2 = self.lateral2(c2) + p3
        features = self.fuse(torch.cat([p2, p3], dim=1))
        maps = self.up(features)
        probability = torch.sigmoid(maps[:, 0:1])
        threshold = F.hardsigmoid(maps[:, 1:2])
        return torch.cat([probability, threshold], dim=1)


# ---------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------

def save_tensor(array, name, path):
    tensor = onnx.numpy_helper.from_array(np.ascontiguousarray(array), name=name)
    with open(path, "wb") as f:
        f.write(tensor.SerializeToString())


def export(name, model, inputs, constant_folding,
           mode=torch.onnx.TrainingMode.EVAL, dynamic_axes=None,
           script=False):
    """Exports `model` traced on inputs[0] (scripted instead with `script`,
    so that Python control flow stays in the graph) and writes one test
    data set per array of `inputs`, each with PyTorch's output for it.
    With `dynamic_axes` ({axis: name} of the input, and of the output) the
    graph keeps those dims symbolic, and the data sets may differ in them."""
    out_dir = os.path.join(HERE, name)
    os.makedirs(out_dir, exist_ok=True)
    model_path = os.path.join(out_dir, "model.onnx")

    model.eval()
    xs = [torch.from_numpy(x) for x in inputs]
    # Autograd stays on so that the reference runs the same composite path
    # that the exporter traces (see make_encoder_layer).
    ys = [model(x).detach().numpy() for x in xs]

    torch.onnx.export(
        torch.jit.script(model) if script else model, (xs[0],), model_path,
        opset_version=OPSET,
        do_constant_folding=constant_folding,
        input_names=["input"], output_names=["output"],
        dynamic_axes=dynamic_axes and {"input": dynamic_axes[0],
                                       "output": dynamic_axes[1]},
        training=mode,
        export_params=True)

    proto = onnx.load(model_path)
    check(name, proto)
    for i, (x, y) in enumerate(zip(xs, ys)):
        data_dir = os.path.join(out_dir, "test_data_set_%d" % i)
        os.makedirs(data_dir, exist_ok=True)
        save_tensor(x.numpy(), "input", os.path.join(data_dir, "input_0.pb"))
        save_tensor(y, "output", os.path.join(data_dir, "output_0.pb"))
    report(name, proto, model_path, [x.shape for x in xs],
           [y.shape for y in ys])


def make_tf_style(name, opset, rng, generator):
    """A graph as tf2onnx writes a Keras NHWC convnet, built with
    onnx.helper at an old opset: weights in Constant nodes (not
    initializers), Transposes to NCHW around each Conv, BatchNorm folded to
    a per-channel Mul/Add over the last axis, a stride-2 Conv with
    auto_pad SAME_UPPER, and a 2x upsampling: Upsample on NHWC at opset 9,
    Resize (linear, half_pixel, given sizes) between Transposes at opset
    11. The reference comes from PyTorch's functional ops on the same
    weights."""
    def randn(*shape, scale=1.0):
        return (torch.randn(shape, generator=generator) * scale).numpy()

    w1, b1 = randn(8, 3, 3, 3, scale=0.4), randn(8, scale=0.1)
    gamma, beta = randn(8, scale=0.3) + 1.0, randn(8, scale=0.1)
    w2, b2 = randn(4, 8, 3, 3, scale=0.2), randn(4, scale=0.1)
    x = rng.standard_normal((1, 24, 24, 3)).astype(np.float32)

    nodes = []

    def const(value, out):
        array = np.asarray(value)
        nodes.append(helper.make_node(
            "Constant", [], [out], name=out + "/Const",
            value=onnx.numpy_helper.from_array(array, out)))
        return out

    def node(op, inputs, out, **attrs):
        nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    to_nchw, to_nhwc = [0, 3, 1, 2], [0, 2, 3, 1]
    h = node("Transpose", ["input"], "conv1/Conv2D__6", perm=to_nchw)
    h = node("Conv", [h, const(w1, "conv1/kernel"), const(b1, "conv1/bias")],
             "conv1/BiasAdd", kernel_shape=[3, 3], pads=[1, 1, 1, 1],
             strides=[1, 1], dilations=[1, 1])
    h = node("Relu", [h], "conv1/Relu")
    h = node("Transpose", [h], "conv1/Relu__9", perm=to_nhwc)
    h = node("Mul", [h, const(gamma, "bn1/mul/y")], "bn1/mul")
    h = node("Add", [h, const(beta, "bn1/add/y")], "bn1/add")
    if opset < 10:
        scales = np.array([1, 2, 2, 1], np.float32)
        h = node("Upsample", [h, const(scales, "up/scales")], "up/Upsample",
                 mode="nearest")
    else:
        h = node("Transpose", [h], "up/resize__14", perm=to_nchw)
        h = node("Resize", [h, const(np.zeros(0, np.float32), "up/roi"),
                            const(np.zeros(0, np.float32), "up/scales"),
                            const(np.array([1, 8, 48, 48], np.int64),
                                  "up/sizes")],
                 "up/resize", mode="linear",
                 coordinate_transformation_mode="half_pixel")
        h = node("Transpose", [h], "up/resize__16", perm=to_nhwc)
    h = node("Transpose", [h], "conv2/Conv2D__18", perm=to_nchw)
    h = node("Conv", [h, const(w2, "conv2/kernel"), const(b2, "conv2/bias")],
             "conv2/BiasAdd", kernel_shape=[3, 3], strides=[2, 2],
             auto_pad="SAME_UPPER")
    h = node("Transpose", [h], "conv2/BiasAdd__21", perm=to_nhwc)
    h = node("Reshape", [h, const(np.array([1, -1, 4], np.int64),
                                  "logits/shape")], "logits/Reshape")
    nodes.append(helper.make_node("Softmax", [h], ["output"],
                                  name="probabilities/Softmax", axis=2))
    graph = helper.make_graph(
        nodes, "tf2onnx",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                       ["unk__30", 24, 24, 3])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT,
                                       ["unk__31", 576, 4])])
    proto = helper.make_model(
        graph, producer_name="tf2onnx", producer_version="1.9.3",
        opset_imports=[helper.make_opsetid("", opset)])
    proto.ir_version = 6 if opset < 10 else 7

    # The reference: the same computation in PyTorch, on NCHW.
    t = torch.from_numpy(x).permute(0, 3, 1, 2)
    t = torch.relu(F.conv2d(t, torch.from_numpy(w1), torch.from_numpy(b1),
                            padding=1))
    t = t * torch.from_numpy(gamma)[:, None, None] + \
        torch.from_numpy(beta)[:, None, None]
    if opset < 10:
        t = F.interpolate(t, scale_factor=2.0, mode="nearest")
    else:
        t = F.interpolate(t, size=(48, 48), mode="bilinear",
                          align_corners=False)
    # SAME_UPPER for a 3x3 kernel at stride 2 on 48: one row and column of
    # padding, at the end.
    t = F.conv2d(F.pad(t, (0, 1, 0, 1)), torch.from_numpy(w2),
                 torch.from_numpy(b2), stride=2)
    t = t.permute(0, 2, 3, 1).reshape(1, -1, 4)
    y = torch.softmax(t, dim=2).numpy()

    out_dir = os.path.join(HERE, name)
    data_dir = os.path.join(out_dir, "test_data_set_0")
    os.makedirs(data_dir, exist_ok=True)
    model_path = os.path.join(out_dir, "model.onnx")
    check(name, proto)
    onnx.save(proto, model_path)
    save_tensor(x, "input", os.path.join(data_dir, "input_0.pb"))
    save_tensor(y, "output", os.path.join(data_dir, "output_0.pb"))
    report(name, proto, model_path, [x.shape], [y.shape])


def check(name, proto):
    onnx.checker.check_model(proto, full_check=True)
    onnx.shape_inference.infer_shapes(proto, check_type=True, strict_mode=True)
    if [i.name for i in proto.graph.input] != ["input"] or \
            [o.name for o in proto.graph.output] != ["output"]:
        sys.exit(f"{name}: unexpected graph inputs/outputs")


def report(name, proto, model_path, input_shapes, output_shapes):
    ops = sorted({node.op_type for node in proto.graph.node})
    size = os.path.getsize(model_path)
    digest = hashlib.sha256(open(model_path, "rb").read()).hexdigest()[:12]
    shapes = ", ".join(f"input {list(x)} -> output {list(y)}"
                       for x, y in zip(input_shapes, output_shapes))
    print(f"{name}: {shapes}, "
          f"{len(proto.graph.node)} nodes, {size} bytes, sha256 {digest}")
    print(f"  ops: {', '.join(ops)}")


def main():
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    gen = torch.Generator().manual_seed(1)
    rng = np.random.default_rng(2024)

    def normal(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    export("mlp", Mlp(), [normal(1, 784)], True)

    cnn = Cnn()
    randomize_batchnorm(cnn, gen)
    export("cnn", cnn, [normal(1, 1, 28, 28)], True)

    # Keep the BatchNormalization nodes in the graph, so the compiler must
    # handle BN. Turning constant folding off is not enough: with
    # TrainingMode.EVAL torch 1.13 runs its "eval peephole" pass, which fuses
    # Conv+BN regardless. PRESERVE on a model in eval mode skips that pass and
    # still exports inference-mode BN (training_mode=0, one output).
    block = ResBlock()
    randomize_batchnorm(block, gen)
    export("resblock", block, [normal(1, 64, 56, 56)], False,
           mode=torch.onnx.TrainingMode.PRESERVE)

    export("transformer", make_encoder_layer(gen), [normal(1, 128, 256)],
           True)

    # Models as exporters in the wild write them.
    export("dyncnn", DynamicCnn(),
           [normal(1, 3, 32, 32), normal(2, 3, 24, 40)], True,
           dynamic_axes=({0: "batch", 2: "height", 3: "width"},
                         {0: "batch"}))
    make_tf_style("tfstyle9", 9, rng, gen)
    make_tf_style("tfstyle11", 11, rng, gen)
    export("speechlstm", SpeechLstm(), [normal(1, 24, 40), normal(2, 16, 40)],
           True, dynamic_axes=({0: "batch", 1: "frames"},
                               {0: "batch", 1: "frames"}))
    # One data set per branch: the sum of -x has the other sign.
    x = normal(2, 16)
    export("gate", Gate(), [x, -x], True, script=True,
           dynamic_axes=({0: "batch"}, {0: "batch"}))
    detector = TextDetector()
    randomize_batchnorm(detector, gen)
    export("textdet", detector, [normal(1, 3, 64, 64)], True)

if __name__ == "__main__":
    main()

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
import onnx.numpy_helper
import onnx.shape_inference
import torch
import torch.nn as nn

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


# ---------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------

def save_tensor(array, name, path):
    tensor = onnx.numpy_helper.from_array(np.ascontiguousarray(array), name=name)
    with open(path, "wb") as f:
        f.write(tensor.SerializeToString())


def export(name, model, input_shape, constant_folding, rng,
           mode=torch.onnx.TrainingMode.EVAL):
    out_dir = os.path.join(HERE, name)
    data_dir = os.path.join(out_dir, "test_data_set_0")
    os.makedirs(data_dir, exist_ok=True)
    model_path = os.path.join(out_dir, "model.onnx")

    model.eval()
    x = torch.from_numpy(rng.standard_normal(input_shape).astype(np.float32))
    # Autograd stays on so that the reference runs the same composite path
    # that the exporter traces (see make_encoder_layer).
    y = model(x).detach().numpy()

    torch.onnx.export(
        model, (x,), model_path,
        opset_version=OPSET,
        do_constant_folding=constant_folding,
        input_names=["input"], output_names=["output"],
        training=mode,
        export_params=True)

    proto = onnx.load(model_path)
    onnx.checker.check_model(proto, full_check=True)
    onnx.shape_inference.infer_shapes(proto, check_type=True, strict_mode=True)
    if [i.name for i in proto.graph.input] != ["input"] or \
            [o.name for o in proto.graph.output] != ["output"]:
        sys.exit(f"{name}: unexpected graph inputs/outputs")

    save_tensor(x.numpy(), "input", os.path.join(data_dir, "input_0.pb"))
    save_tensor(y, "output", os.path.join(data_dir, "output_0.pb"))

    ops = sorted({node.op_type for node in proto.graph.node})
    size = os.path.getsize(model_path)
    digest = hashlib.sha256(open(model_path, "rb").read()).hexdigest()[:12]
    print(f"{name}: input {list(x.shape)} -> output {list(y.shape)}, "
          f"{len(proto.graph.node)} nodes, {size} bytes, sha256 {digest}")
    print(f"  ops: {', '.join(ops)}")


def main():
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    gen = torch.Generator().manual_seed(1)
    rng = np.random.default_rng(2024)

    export("mlp", Mlp(), (1, 784), True, rng)

    cnn = Cnn()
    randomize_batchnorm(cnn, gen)
    export("cnn", cnn, (1, 1, 28, 28), True, rng)

    # Keep the BatchNormalization nodes in the graph, so the compiler must
    # handle BN. Turning constant folding off is not enough: with
    # TrainingMode.EVAL torch 1.13 runs its "eval peephole" pass, which fuses
    # Conv+BN regardless. PRESERVE on a model in eval mode skips that pass and
    # still exports inference-mode BN (training_mode=0, one output).
    block = ResBlock()
    randomize_batchnorm(block, gen)
    export("resblock", block, (1, 64, 56, 56), False, rng,
           mode=torch.onnx.TrainingMode.PRESERVE)

    export("transformer", make_encoder_layer(gen), (1, 128, 256), True, rng)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Times tgc against ONNX Runtime on quantized (QDQ) torchvision models, and
on the float models they come from.

    /usr/bin/python3 bench/qdq.py [--build build] [--rounds 2] [--threads 1]
                                  [--models resnet18,mobilenet_v2,...]

Quantizes each model the way static quantization tools write QDQ models
(ONNX Runtime's quantize_static by default): every input of a Conv, Gemm
or MatMul is quantized to uint8 and dequantized (min/max calibration on
this script's input: scale (max - min) / 255, the zero point where 0
falls), each weight is int8, symmetric, one scale per output channel, and
each bias int32 at the product of the two scales. ONNX Runtime runs these
with its int8 kernels; tgc computes the weights at compile time and the
rest in float. The float models come from bench/zoo.py's exporter
(random weights, fixed seed) into BUILD/bench/qdq/, the calibration from
`tgc run` of the float model. Nothing here is committed. Needs what
bench/run.py needs.
"""

import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, shape_inference

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (bench/run.py: its helpers)
import zoo  # noqa: E402  (bench/zoo.py: the exporter)

MODELS = ["resnet18", "mobilenet_v2", "efficientnet_b0", "resnext50_32x4d"]
QUANTIZED_OPS = ("Conv", "Gemm", "MatMul")


def constants_of(graph):
    """Initializers by name, and the outputs of Identity nodes of them
    (torch's exporter names a reused weight that way)."""
    values = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    for node in graph.node:
        if node.op_type == "Identity" and node.input[0] in values:
            values[node.output[0]] = values[node.input[0]]
    return values


def activations_to_quantize(model):
    """The non-constant first inputs of the quantized ops, in order."""
    constants = constants_of(model.graph)
    names = []
    for node in model.graph.node:
        if node.op_type in QUANTIZED_OPS and node.input[0] not in constants \
                and node.input[0] not in names:
            names.append(node.input[0])
    return names


def calibrate(tgc, model, folder, input_npy):
    """{activation: (min, max)} on the input, from `tgc run` of a copy of
    the float model that also outputs each activation to quantize."""
    names = activations_to_quantize(model)
    inferred = shape_inference.infer_shapes(model)
    infos = {v.name: v for v in inferred.graph.value_info}
    graph_inputs = {i.name for i in model.graph.input}
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    for name in names:
        if name in infos:
            probe.graph.output.append(infos[name])
    probe_path = os.path.join(folder, "calibration.onnx")
    onnx.save(probe, probe_path)
    out = os.path.join(folder, "calibration")
    input_name = model.graph.input[0].name
    subprocess.run([tgc, "run", probe_path, "--input",
                    "%s=%s" % (input_name, input_npy), "--output-dir", out],
                   check=True, stdout=subprocess.DEVNULL)
    ranges = {}
    for name in names:
        if name in graph_inputs:
            values = np.load(input_npy)
        else:
            values = np.load(os.path.join(
                out, name.replace("/", "_") + ".npy"))
        ranges[name] = (float(values.min()), float(values.max()))
    return ranges


def quantize(model, ranges):
    """The QDQ model of `model` (see the module's comment)."""
    graph = model.graph
    constants = constants_of(graph)
    nodes, added = [], []
    dequantized = {}  # activation -> (its dequantized name, scale)

    def initializer(name, array):
        added.append(numpy_helper.from_array(array, name))
        return name

    def activation(name):
        if name not in dequantized:
            lo, hi = min(ranges[name][0], 0.0), max(ranges[name][1], 0.0)
            scale = np.float32(max(hi - lo, 1e-8) / 255)
            zero = np.uint8(np.clip(np.rint(-lo / scale), 0, 255))
            s = initializer(name + "_scale", np.array(scale, np.float32))
            z = initializer(name + "_zero", np.array(zero, np.uint8))
            nodes.append(helper.make_node("QuantizeLinear", [name, s, z],
                                          [name + "_q"]))
            nodes.append(helper.make_node("DequantizeLinear",
                                          [name + "_q", s, z], [name + "_d"]))
            dequantized[name] = (name + "_d", scale)
        return dequantized[name]

    for node in graph.node:
        if node.op_type not in QUANTIZED_OPS or node.input[0] in constants \
                or node.input[1] not in constants:
            nodes.append(node)
            continue
        x, x_scale = activation(node.input[0])
        w = constants[node.input[1]].astype(np.float32)
        transposed = any(a.name == "transB" and a.i for a in node.attribute)
        axis = 0 if node.op_type == "Conv" or transposed else w.ndim - 1
        others = tuple(d for d in range(w.ndim) if d != axis)
        w_scale = (np.maximum(np.abs(w).max(axis=others), 1e-8) / 127)
        w_scale = w_scale.astype(np.float32)
        shape = [1] * w.ndim
        shape[axis] = -1
        w_q = np.clip(np.rint(w / w_scale.reshape(shape)), -127, 127)
        name = node.name or node.output[0]
        inputs = [x, name + "_w"]
        nodes.append(helper.make_node(
            "DequantizeLinear",
            [initializer(name + "_wq", w_q.astype(np.int8)),
             initializer(name + "_ws", w_scale),
             initializer(name + "_wz", np.zeros(w_scale.shape, np.int8))],
            [name + "_w"], axis=axis))
        if len(node.input) > 2 and node.input[2]:
            b_scale = (x_scale * w_scale).astype(np.float32)
            b_q = np.rint(constants[node.input[2]] / b_scale).astype(np.int32)
            nodes.append(helper.make_node(
                "DequantizeLinear",
                [initializer(name + "_bq", b_q),
                 initializer(name + "_bs", b_scale)],
                [name + "_b"], axis=0))
            inputs.append(name + "_b")
        quantized = helper.make_node(node.op_type, inputs, list(node.output),
                                     name=node.name)
        quantized.attribute.extend(node.attribute)
        nodes.append(quantized)

    result = onnx.ModelProto()
    result.CopyFrom(model)
    del result.graph.node[:]
    result.graph.node.extend(nodes)
    used = {name for node in nodes for name in node.input}
    kept = [i for i in result.graph.initializer if i.name in used]
    del result.graph.initializer[:]
    result.graph.initializer.extend(kept + added)
    onnx.checker.check_model(result)
    return result


def main():
    parser = run.ort_comparison_arguments(__doc__.splitlines()[0], 20)
    parser.add_argument("--models", default=",".join(MODELS))
    args = parser.parse_args()
    tgc, node_path, ort_version, folder = run.ort_comparison_setup(
        args, "qdq")
    names = args.models.split(",")
    npy = run.input_file(folder, "input.onnx", zoo.SHAPE)
    paths = {}
    for name in names:
        float_path = os.path.join(folder, name + ".onnx")
        qdq_path = os.path.join(folder, name + "_qdq.onnx")
        if not os.path.exists(float_path):
            run.log("exporting %s" % name)
            zoo.export(name, float_path)
        if not os.path.exists(qdq_path):
            run.log("quantizing %s" % name)
            model = onnx.load(float_path)
            onnx.save(quantize(model, calibrate(tgc, model, folder, npy)),
                      qdq_path)
        paths[name] = {"float": float_path, "qdq": qdq_path}
    best = {}  # (name, form, engine) -> best median
    for round_index in range(args.rounds):
        for name in names:
            for form in ("qdq", "float"):
                run.log("round %d: %s (%s)" % (round_index + 1, name, form))
                measured = run.time_against_ort(
                    tgc, paths[name][form], "input=" + npy, zoo.SHAPE,
                    args.threads, args.iterations, node_path)
                for engine, result in measured.items():
                    key = (name, form, engine)
                    best[key] = min(best.get(key, result["median_ms"]),
                                    result["median_ms"])
    print("tgc against ONNX Runtime %s on QDQ models (int8 weights, uint8 "
          "activations), %d thread(s), batch 1, best median of %d rounds "
          "(`bench/qdq.py`)\n" % (ort_version, args.threads, args.rounds))
    print("| model | tgc QDQ ms | ORT QDQ ms | tgc / ORT | tgc float ms | "
          "ORT float ms |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for name in names:
        t, o = best[(name, "qdq", "tgc")], best[(name, "qdq", "ort")]
        ratios.append(t / o)
        print("| %s | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            name, t, o, t / o, best[(name, "float", "tgc")],
            best[(name, "float", "ort")]))
    print("\ngeometric mean of tgc / ORT over %d QDQ models: %.2f" % (
        len(ratios), run.geomean(ratios)))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Times tgc against ONNX Runtime on single ops whose decomposition decides
the cost: TopK over long axes, recurrent nets over many frames (the
bundled keyword-spotting LSTM, a bidirectional GRU), strided ConvTranspose.

    /usr/bin/python3 bench/ops.py [--build build] [--rounds 2]
                                  [--threads 1] [--cases topk_8400,...]

Writes each case's model (onnx.helper, weights from a fixed seed) into
BUILD/bench/ops/, then times it in turns with `tgc bench` and ONNX Runtime
(bench/ort_bench.js) and prints a markdown table of each engine's best
median and their ratio. ONNX Runtime is called through node, which costs
it about 8 us a call: the `floor` case (an Identity of 16 numbers) shows
how much, and the smallest cases' ratios are to be read with it. Nothing
here is committed. Needs what bench/run.py needs.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (bench/run.py: its helpers)


def model(nodes, inputs, outputs, inits=()):
    graph = helper.make_graph(nodes, "op", inputs, outputs, list(inits))
    result = helper.make_model(graph,
                               opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(result)
    return result


def floor_case():
    return model([helper.make_node("Identity", ["x"], ["y"])],
                 [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                [1, 16])],
                 [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                [1, 16])]), [1, 16]


def topk_case(n, k):
    def make():
        return model(
            [helper.make_node("TopK", ["x", "k"], ["values", "indices"])],
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, n])],
            [helper.make_tensor_value_info("values", TensorProto.FLOAT,
                                           [1, k]),
             helper.make_tensor_value_info("indices", TensorProto.INT64,
                                           [1, k])],
            [numpy_helper.from_array(np.array([k], np.int64), "k")]), [1, n]
    return make


def lstm_case(frames):
    """The bundled keyword-spotting model (2 LSTM layers of 48) over
    `frames` frames of 40 features."""
    def make():
        return onnx.load(os.path.join(run.ROOT, "models", "speechlstm",
                                      "model.onnx")), [1, frames, 40]
    return make


def gru_case(frames):
    """A bidirectional GRU of 64 over `frames` frames of 40 features."""
    def make():
        rng = np.random.default_rng(0)
        hidden, features = 64, 40
        weights = [numpy_helper.from_array(
            (rng.standard_normal(shape) * 0.1).astype(np.float32), name)
            for name, shape in (("W", (2, 3 * hidden, features)),
                                ("R", (2, 3 * hidden, hidden)),
                                ("B", (2, 6 * hidden)))]
        return model(
            [helper.make_node("GRU", ["x", "W", "R", "B"], ["y"],
                              hidden_size=hidden, direction="bidirectional",
                              linear_before_reset=1)],
            [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                           [frames, 1, features])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                           [frames, 2, 1, hidden])],
            weights), [frames, 1, features]
    return make


def conv_transpose_case(cin, cout, size, kernel, stride, pad):
    def make():
        out = (size - 1) * stride - 2 * pad + kernel
        rng = np.random.default_rng(0)
        w = (rng.standard_normal((cin, cout, kernel, kernel)) * 0.1)
        return model(
            [helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"],
                              kernel_shape=[kernel, kernel],
                              strides=[stride, stride],
                              pads=[pad, pad, pad, pad])],
            [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                           [1, cin, size, size])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                           [1, cout, out, out])],
            [numpy_helper.from_array(w.astype(np.float32), "w"),
             numpy_helper.from_array(np.zeros(cout, np.float32), "b")]), \
            [1, cin, size, size]
    return make


CASES = {
    "floor": floor_case,
    "topk_1000_5": topk_case(1000, 5),
    "topk_8400_100": topk_case(8400, 100),
    "topk_32000_50": topk_case(32000, 50),
    "lstm_100_frames": lstm_case(100),
    "lstm_200_frames": lstm_case(200),
    "lstm_300_frames": lstm_case(300),
    "gru_bidirectional_100_frames": gru_case(100),
    "convtranspose_k2s2_128to64_32": conv_transpose_case(128, 64, 32, 2, 2, 0),
    "convtranspose_k4s2_64to32_64": conv_transpose_case(64, 32, 64, 4, 2, 1),
    "convtranspose_k3s2_64to64_56": conv_transpose_case(64, 64, 56, 3, 2, 1),
}


def main():
    parser = run.ort_comparison_arguments(__doc__.splitlines()[0], 50)
    parser.add_argument("--cases", default=",".join(CASES))
    args = parser.parse_args()
    tgc, node_path, ort_version, folder = run.ort_comparison_setup(
        args, "ops")
    names = args.cases.split(",")
    unknown = [name for name in names if name not in CASES]
    if unknown:
        sys.exit("unknown cases: %s (known: %s)" % (", ".join(unknown),
                                                     ", ".join(CASES)))
    paths, shapes, inputs = {}, {}, {}
    for name in names:
        onnx_model, shape = CASES[name]()
        paths[name] = os.path.join(folder, name + ".onnx")
        onnx.save(onnx_model, paths[name])
        shapes[name] = shape
        input_name = onnx_model.graph.input[0].name
        inputs[name] = "%s=%s" % (input_name,
                                  run.input_file(folder, paths[name], shape))
    best = {}  # (name, engine) -> best median
    for round_index in range(args.rounds):
        for name in names:
            run.log("round %d: %s" % (round_index + 1, name))
            measured = run.time_against_ort(
                tgc, paths[name], inputs[name], shapes[name], args.threads,
                args.iterations, node_path)
            for engine, result in measured.items():
                key = (name, engine)
                best[key] = min(best.get(key, result["median_ms"]),
                                result["median_ms"])
    print("tgc against ONNX Runtime %s on single ops, %d thread(s), best "
          "median of %d rounds (`bench/ops.py`)\n" % (
              ort_version, args.threads, args.rounds))
    print("| case | input | tgc ms | ONNX Runtime ms | tgc / ORT |")
    print("|---|---|---|---|---|")
    for name in names:
        t, o = best[(name, "tgc")], best[(name, "ort")]
        # The floor is the cost of a call, not of an op: no ratio.
        ratio = "" if name == "floor" else "%.2f" % (t / o)
        print("| %s | %s | %.4f | %.4f | %s |" % (
            name, "x".join(map(str, shapes[name])), t, o, ratio))


if __name__ == "__main__":
    main()

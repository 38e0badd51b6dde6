#!/usr/bin/python3
"""Times tgc against ONNX Runtime on torchvision models beyond the bench's
own, to find the shapes and ops that the heuristic handles badly.

    /usr/bin/python3 bench/zoo.py [--build build] [--rounds 2] [--threads 1]
                                  [--models vit_b_16,swin_t,...]

Exports each model (random weights from a fixed seed, batch 1, 224x224,
opset 17) into BUILD/bench/zoo/ if it is not there, then times it in
turns with `tgc bench` and ONNX Runtime (bench/ort_bench.js) and prints a
markdown table of each engine's best median and their ratio. A model tgc
cannot compile gets its error instead. Nothing here is committed: the
models are made at run time. Needs what bench/run.py needs (it installs
onnxruntime-node the same way).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (bench/run.py: its helpers)

# The zoo: what people deploy besides ResNets and MobileNetV2. Each one
# has shapes the bench models lack (197 tokens, 7x7 depthwise, 55-wide
# pools, 40- and 440-channel convolutions, shifted windows, concatenations
# of many parts).
MODELS = [
    "vit_b_16", "swin_t", "convnext_tiny", "efficientnet_b0",
    "mobilenet_v3_small", "mnasnet1_0", "regnet_y_400mf",
    "shufflenet_v2_x1_0", "squeezenet1_1", "googlenet", "densenet121",
    "resnext50_32x4d",
]
SHAPE = [1, 3, 224, 224]


def export(name, path):
    import torch
    import torchvision
    torch.manual_seed(0)
    options = {"aux_logits": False, "init_weights": True} \
        if name == "googlenet" else {}
    model = getattr(torchvision.models, name)(weights=None, **options).eval()
    # torchvision starts some classifiers at zero (ViT's head): every
    # output would then be the bias, and a wrong kernel would go unseen.
    with torch.no_grad():
        for parameter in model.parameters():
            if parameter.dim() > 1 and not parameter.any():
                parameter.normal_(0, 0.02)
    torch.onnx.export(model, torch.rand(*SHAPE), path, input_names=["input"],
                      output_names=["output"], opset_version=17)


def main():
    parser = run.ort_comparison_arguments(__doc__.splitlines()[0], 20)
    parser.add_argument("--models", default=",".join(MODELS))
    args = parser.parse_args()
    tgc, node_path, ort_version, folder = run.ort_comparison_setup(
        args, "zoo")
    names = args.models.split(",")
    for name in names:
        path = os.path.join(folder, name + ".onnx")
        if not os.path.exists(path):
            run.log("exporting %s" % name)
            export(name, path)
    npy = run.input_file(folder, "input.onnx", SHAPE)
    best = {}  # (name, engine) -> best median
    errors = {}
    for round_index in range(args.rounds):
        for name in names:
            if name in errors:
                continue
            run.log("round %d: %s" % (round_index + 1, name))
            path = os.path.join(folder, name + ".onnx")
            try:
                measured = run.time_against_ort(
                    tgc, path, "input=" + npy, SHAPE, args.threads,
                    args.iterations, node_path)
            except RuntimeError as error:
                lines = [line for line in str(error).splitlines()
                         if "error" in line]
                errors[name] = lines[0] if lines else str(error)[:200]
                continue
            for engine, result in measured.items():
                key = (name, engine)
                best[key] = min(best.get(key, result["median_ms"]),
                                result["median_ms"])
    print("tgc against ONNX Runtime %s, %d thread(s), batch 1, best median "
          "of %d rounds (`bench/zoo.py`)\n" % (ort_version, args.threads,
                                              args.rounds))
    print("| model | tgc ms | ONNX Runtime ms | tgc / ORT |")
    print("|---|---|---|---|")
    ratios = []
    for name in names:
        if name in errors:
            print("| %s | %s | | |" % (name, errors[name].replace("|", "/")))
            continue
        t, o = best[(name, "tgc")], best[(name, "ort")]
        ratios.append(t / o)
        print("| %s | %.2f | %.2f | %.2f |" % (name, t, o, t / o))
    if ratios:
        print("\ngeometric mean of tgc / ORT over %d models: %.2f" % (
            len(ratios), run.geomean(ratios)))


if __name__ == "__main__":
    main()

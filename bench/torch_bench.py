"""Times a model in PyTorch (Debian's python3-torch), for bench/run.py.

    torch_bench.py MODEL BATCH THREADS ITERATIONS

MODEL is a torchvision name (resnet18, mobilenet_v2) with random weights
from the seed export_models.py uses. Prints one JSON object: min_ms,
median_ms, iterations, and blas_gflops, a 512x512 float matmul through
torch's BLAS: a few GFLOP/s means the reference BLAS is loaded, whose
matmuls are 50 times slower than OpenBLAS's (run.py preloads OpenBLAS).
"""

import json
import sys
import time

import torch
import torchvision


def blas_gflops():
    a = torch.rand(512, 512)
    b = torch.rand(512, 512)
    torch.mm(a, b)
    start = time.perf_counter()
    runs = 0
    while time.perf_counter() - start < 0.2:
        torch.mm(a, b)
        runs += 1
    return 2 * 512 ** 3 * runs / (time.perf_counter() - start) / 1e9


def main():
    name, batch, threads, iterations = sys.argv[1:5]
    torch.set_num_threads(int(threads))
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    x = torch.rand(int(batch), 3, 224, 224) * 2 - 1
    times = []
    with torch.no_grad():
        start = time.perf_counter()
        warm = 0
        while warm < 3 or time.perf_counter() - start < 0.1:
            model(x)
            warm += 1
        for _ in range(int(iterations)):
            t = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    n = len(times)
    median = times[n // 2] if n % 2 else (times[n // 2 - 1] + times[n // 2]) / 2
    print(json.dumps({"min_ms": times[0], "median_ms": median,
                      "iterations": n, "blas_gflops": blas_gflops()}))


if __name__ == "__main__":
    main()
